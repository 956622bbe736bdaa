"""Answer keys of 07_controlling_the_tape, checked against finite differences.

Every key of this notebook is the gradient a tape reports when part of the computation is held
constant (a stopped factor, a straight-through rounding, a frozen encoder, a constant target), or of a
stack whose blocks are recomputed in the backward pass (the same gradients as without). Each
is compared here with central differences of a primal in which that part is frozen at its value at
the point: the definition of what the tape computes, written independently of the notebook.
"""
import numpy as np

from . import Custom, numeric_derivative

RNG = np.random.default_rng(107)
GRID = np.linspace(-2.9, 2.9, 30)  # no integer or half-integer points, where the quantizers jump


def _close(got, wanted, what):
    got = np.asarray(got, dtype=np.float64)
    assert got.shape == np.shape(wanted), f"{what}: shape {got.shape}, expected {np.shape(wanted)}"
    np.testing.assert_allclose(got, wanted, rtol=1e-6, atol=1e-6, err_msg=what)


def frozen_product(f, g):
    """The key(x) is (f·g, d/dx of f(x)·c) with c = g(x) held at its value: the gradient of f(x)·sg(g(x))."""
    def check(key):
        for x in (GRID, GRID.reshape(5, 6), np.float64(0.7)):
            value, gradient = key(x)
            _close(value, f(x) * g(x), "value f·g")
            numeric = np.vectorize(lambda x0: numeric_derivative(lambda t: f(t) * g(x0), (x0,), 0))(x)
            _close(gradient, numeric, "gradient with g frozen")
    return Custom(check)


def straight_through(quantize, outer, *extra):
    """The key(x, *extra) is (quantize(x), d/dx of outer(x + c)) with c = quantize(x) - x held at its value."""
    def check(key):
        x = GRID.reshape(5, 6) if extra else GRID
        value, gradient = key(x, *extra)
        _close(value, quantize(x), "the quantized value")
        frozen = quantize(x) - x
        numeric = numeric_derivative(lambda t: np.sum(outer(t + frozen, *extra)), (x,), 0)
        _close(gradient, numeric, "the straight-through gradient")
    return Custom(check)


def _head_loss(x, y, w1, b1, w2, b2):
    return np.mean((np.tanh(x @ w1 + b1) @ w2 + b2 - y) ** 2)


def check_head_step(key):
    """One gradient step on the head's kernel and bias (numeric gradients); the encoder's w1, b1 are not stepped."""
    x, y = RNG.normal(size=(7, 3)), RNG.normal(size=(7, 1))
    w1, b1, w2, b2 = RNG.normal(size=(3, 4)), RNG.normal(size=4), RNG.normal(size=(4, 1)), RNG.normal(size=1)
    args = (x, y, w1, b1, w2, b2)
    loss, new_w2, new_b2 = key(*args, 0.1)
    _close(loss, _head_loss(*args), "the loss before the step")
    _close(new_w2, w2 - 0.1 * numeric_derivative(_head_loss, args, 4), "the head's kernel after the step")
    _close(new_b2, b2 - 0.1 * numeric_derivative(_head_loss, args, 5), "the head's bias after the step")


def _td_loss(states, actions, rewards, kernel, bias, target):
    q = states @ kernel + bias
    return np.mean((q[np.arange(len(actions)), actions] - target) ** 2)


def check_td_step(key):
    """One semi-gradient step: the target r + γ·max Q(s') is computed once, then held constant."""
    for n_actions, gamma in ((3, 0.9), (1, 0.5)):
        states, next_states = RNG.normal(size=(9, 4)), RNG.normal(size=(9, 4))
        rewards, actions = RNG.normal(size=9), RNG.integers(0, n_actions, size=9)
        kernel, bias = RNG.normal(size=(4, n_actions)), RNG.normal(size=n_actions)
        target = rewards + gamma * np.max(next_states @ kernel + bias, axis=1)
        loss, new_kernel, new_bias = key(states, actions, rewards, next_states, kernel, bias, gamma, 0.2)
        args = (states, actions, rewards, kernel, bias, target)
        _close(loss, _td_loss(*args), "the TD loss before the step")
        _close(new_kernel, kernel - 0.2 * numeric_derivative(lambda *a: _td_loss(a[0], actions, *a[2:]), args, 3),
               "the kernel after the semi-gradient step")
        _close(new_bias, bias - 0.2 * numeric_derivative(lambda *a: _td_loss(a[0], actions, *a[2:]), args, 4),
               "the bias after the semi-gradient step")


def check_reward_regression_step(key):
    """γ = 0: one gradient step on mean((Q(s)[a] - r)²)."""
    states, rewards, actions = RNG.normal(size=(6, 2)), RNG.normal(size=6), RNG.integers(0, 2, size=6)
    kernel, bias = RNG.normal(size=(2, 2)), RNG.normal(size=2)
    loss, new_kernel, new_bias = key(states, actions, rewards, kernel, bias, 0.3)
    args = (states, actions, rewards, kernel, bias, rewards)
    primal = lambda *a: _td_loss(a[0], actions, *a[2:])  # noqa: E731
    _close(loss, _td_loss(*args), "the loss before the step")
    _close(new_kernel, kernel - 0.3 * numeric_derivative(primal, args, 3), "the kernel after the step")
    _close(new_bias, bias - 0.3 * numeric_derivative(primal, args, 4), "the bias after the step")


def _stack_loss(x, weights, activation):
    """L = Σ h_n for h_k = act(h_{k-1}·W_k + b_k): the primal, written apart from the key's backward pass."""
    h = x
    for kernel, bias in zip(weights[0::2], weights[1::2]):
        h = activation(h @ kernel + bias)
    return np.sum(h)


def check_dense_stack(key):
    """Gradients of a stack of dense blocks for x and every kernel and bias, against central differences."""
    for activation, name, sizes in ((np.tanh, "tanh", [3, 4, 4, 2]), (np.sin, "sin", [2, 3, 1]), (np.tanh, "tanh", [2, 2])):
        x = RNG.normal(size=(5, sizes[0]))
        weights = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            weights += [RNG.normal(size=(a, b)) * 0.8, RNG.normal(size=b) * 0.3]
        dx, grads = key(x, weights[0::2], weights[1::2], name)
        primal = lambda x, *w: _stack_loss(x, w, activation)  # noqa: E731
        _close(dx, numeric_derivative(primal, [x] + weights, 0), f"dL/dx ({name})")
        assert len(grads) == len(weights), "one gradient per kernel and bias"
        for index, grad in enumerate(grads):
            _close(grad, numeric_derivative(primal, [x] + weights, index + 1), f"gradient {index} ({name})")


def check_keras_stack(key):
    """Dense(tanh) then a linear Dense: gradients for x and the four weights, against central differences."""
    x = RNG.normal(size=(6, 3))
    weights = [RNG.normal(size=(3, 4)), RNG.normal(size=4), RNG.normal(size=(4, 2)), RNG.normal(size=2)]
    primal = lambda x, w1, b1, w2, b2: np.sum(np.tanh(x @ w1 + b1) @ w2 + b2)  # noqa: E731
    dx, grads = key(x, weights)
    _close(dx, numeric_derivative(primal, [x] + weights, 0), "dL/dx")
    for index, grad in enumerate(grads):
        _close(grad, numeric_derivative(primal, [x] + weights, index + 1), f"gradient {index}")


def check_fine_tune_step(key):
    """One step through Dense → BatchNormalization in inference mode → tanh → Dense: the normalisation is the affine
    map of its moving statistics (not stepped); the Dense weights step by their numeric gradients."""
    x, y = RNG.normal(size=(9, 2)), RNG.normal(size=(9, 1))
    w1, b1, w2, b2 = RNG.normal(size=(2, 3)), RNG.normal(size=3), RNG.normal(size=(3, 1)), RNG.normal(size=1)
    gamma, beta, mean, variance = RNG.uniform(0.5, 2, 3), RNG.normal(size=3), RNG.normal(size=3), RNG.uniform(0.5, 3, 3)

    def loss(w1, b1, w2, b2):
        normalised = (x @ w1 + b1 - mean) / np.sqrt(variance + 1e-3) * gamma + beta
        return np.mean((np.tanh(normalised) @ w2 + b2 - y) ** 2)

    got = key(x, y, w1, b1, gamma, beta, mean, variance, 1e-3, w2, b2, 0.1)
    weights = (w1, b1, w2, b2)
    _close(got[0], loss(*weights), "the loss before the step")
    for index, name in enumerate(["w1", "b1", "w2", "b2"]):
        _close(got[index + 1], weights[index] - 0.1 * numeric_derivative(loss, weights, index), f"{name} after the step")


KEYS = {
    # Exercise 1
    "expected_sin_exp_frozen": frozen_product(np.sin, np.exp),
    "expected_square_cos_frozen": frozen_product(lambda t: t ** 2, np.cos),
    "expected_tanh_quadratic_frozen": frozen_product(np.tanh, lambda t: 1.0 + t ** 2),
    # Exercise 2
    "expected_round_square_straight_through": straight_through(np.round, lambda y: y ** 2),
    "expected_floor_sin_straight_through": straight_through(np.floor, np.sin),
    "expected_soft_round_square_straight_through": straight_through(
        lambda t: t - np.sin(2 * np.pi * t) / (2 * np.pi), lambda y: y ** 2),
    "expected_quarter_linear_straight_through": straight_through(lambda t: np.round(4 * t) / 4, lambda y: 3 * y),
    "expected_clipped_weighted_straight_through": straight_through(
        lambda t: np.clip(np.round(t), -1.0, 1.0), lambda y, w: w * y ** 2, RNG.normal(size=(5, 6))),
    # Exercise 3
    "expected_head_step": Custom(check_head_step),
    # Exercise 4
    "expected_td_step": Custom(check_td_step),
    "expected_reward_regression_step": Custom(check_reward_regression_step),
    # Exercise 5
    "expected_dense_stack_gradients": Custom(check_dense_stack),
    "expected_keras_stack_gradients": Custom(check_keras_stack),
    # Exercise 6
    "expected_fine_tune_step": Custom(check_fine_tune_step),
}
