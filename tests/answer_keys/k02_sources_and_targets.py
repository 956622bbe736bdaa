"""Answer keys of 02_sources_and_targets.

A vector-Jacobian product vᵀJ of f is the gradient of sum(v ⊙ f) with v held fixed, so most keys are
checked as the summed gradient of the primal `v * f(...)`. Keys of computations made while grading give the
gradient a tape records (a piece recorded with c times its own gradient by scaled_gradient, pieces behind
tf.stop_gradient or an integer cast left out): each is checked against finite differences of the function the
tape differentiates, as written here.
"""
import numpy as np

from . import Custom, Key, numeric_derivative

RNG = np.random.default_rng(202)
ALPHA, C, D = 1.7, -2.6, 3.1


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def check_hidden_layer(key):
    """dL/dy, dL/dh and dL/da by finite differences of L written from each intermediate value onwards."""
    H, D_ = 4, 3
    W, x, w, t = RNG.normal(size=(H, D_)), RNG.normal(size=D_), RNG.normal(size=H), np.float64(RNG.normal())
    a = W @ x
    h = np.tanh(a)
    y = np.dot(w, h)
    from_y = lambda y: (y - t) ** 2
    from_h = lambda h: (np.dot(w, h) - t) ** 2
    from_a = lambda a: (np.dot(w, np.tanh(a)) - t) ** 2
    got = key(W, x, w, t)
    assert set(got) == {"y", "h", "a"}
    for name, f, at in (("y", from_y, y), ("h", from_h, h), ("a", from_a, a)):
        np.testing.assert_allclose(got[name], numeric_derivative(f, (at,), 0), rtol=1e-6, atol=1e-6, err_msg=name)


def check_recorded_hidden_layer(key):
    """The same, for the activation and loss made while grading, as the tape sees them: the activation's value is
    tanh(a) + β·a² but its recorded part is c·tanh(a) (β·a² is a constant to the tape), and the loss is recorded as
    d·(y - t)² (γ·y⁴ and floor(y) are constants to the tape)."""
    H, D_, beta = 5, 3, 0.3
    W, x, w, t = RNG.normal(size=(H, D_)), RNG.normal(size=D_), RNG.normal(size=H), np.float64(RNG.normal())
    a0 = W @ x
    h0 = np.tanh(a0) + beta * a0 ** 2
    y0 = np.dot(w, h0)
    from_y = lambda y: D * (y - t) ** 2
    from_h = lambda h: D * (np.dot(w, h) - t) ** 2
    from_a = lambda a: D * (np.dot(w, h0 + C * (np.tanh(a) - np.tanh(a0))) - t) ** 2
    got = key(W, x, w, t, beta, C, D)
    assert set(got) == {"y", "h", "a"}
    for name, f, at in (("y", from_y, y0), ("h", from_h, h0), ("a", from_a, a0)):
        np.testing.assert_allclose(got[name], numeric_derivative(f, (at,), 0), rtol=1e-6, atol=1e-6, err_msg=name)


def summed_cross_entropy(z, labels):
    labels = np.asarray(labels).astype(int)
    log_p = np.log(softmax(z))
    return -np.sum(np.take_along_axis(log_p, labels[..., None], axis=-1))


def check_softmax_xent(key):
    """softmax(z) - onehot(y) against finite differences of the summed -log softmax(z)[y], for one example and a batch."""
    for z, labels in ((RNG.normal(size=5), np.int64(3)), (RNG.normal(size=(4, 3)) * 3, np.array([0, 2, 1, 2]))):
        numeric = numeric_derivative(summed_cross_entropy, (z, labels), 0)
        np.testing.assert_allclose(key(z, labels), numeric, rtol=1e-6, atol=1e-6)


def check_recorded_softmax_loss(key):
    """The loss made while grading as the tape sees it, summed over the examples: c·(-log softmax(z)[y]) + α·Σ softmax(z)²
    (β·max p and floor(10·p[y]) are constants to the tape), for one example and a batch."""
    def recorded(z, labels):
        return C * summed_cross_entropy(z, labels) + ALPHA * np.sum(softmax(z) ** 2)

    for z, labels in ((RNG.normal(size=5) * 2, np.int64(1)), (RNG.normal(size=(4, 3)) * 3, np.array([0, 2, 1, 2]))):
        numeric = numeric_derivative(recorded, (z, labels), 0)
        np.testing.assert_allclose(key(z, labels, ALPHA, C), numeric, rtol=1e-6, atol=1e-6)


KEYS = {
    "expected_q_gradients": Key(
        lambda a, b, v: v * (3 * a**3 - b**2),
        (RNG.normal(size=4), RNG.normal(size=4), RNG.normal(size=4)),
        {"a": 0, "b": 1}),
    # recorded: α·c·a³ (a³ recorded with c times its own gradient), b² as b·(b recorded with d times its own): (1 + d)/2·b²,
    # roll(a, 1)⊙b as it is; β·a⊙b behind tf.stop_gradient and floor(3a) through an integer cast are constants
    "expected_recorded_q_gradients": Key(
        lambda a, b, v, alpha, c, d: v * (alpha * c * a**3 - (1 + d) / 2 * b**2 + np.roll(a, 1) * b),
        (RNG.normal(size=5), RNG.normal(size=5), RNG.normal(size=5), ALPHA, C, D),
        {"a": 0, "b": 1}),
    "expected_square_vjp": Key(lambda x, v: v * x**2, (RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3)))),
    # recorded: α·c·x² (β·x³ and floor(2x) are constants to the tape)
    "expected_recorded_square_vjp": Key(
        lambda x, v, alpha, c: v * alpha * c * x**2, (RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3)), ALPHA, C)),
    "expected_matvec_vjp": Key(
        lambda A, x, v: v * (A @ x), (RNG.normal(size=(3, 2)), RNG.normal(size=2), RNG.normal(size=3)), 1),
    # recorded: c·A·tanh(x) (B·x² and floor(Ax) are constants to the tape)
    "expected_recorded_layer_vjp": Key(
        lambda A, x, v, c: c * v * (A @ np.tanh(x)), (RNG.normal(size=(3, 4)), RNG.normal(size=4), RNG.normal(size=3), C), 1),
    "expected_matmul_vjp": Key(
        lambda X, B, V: V * (X @ B), (RNG.normal(size=(2, 3)), RNG.normal(size=(3, 4)), RNG.normal(size=(2, 4)))),
    "expected_softmax_vjp": Key(lambda x, v: v * softmax(x), (RNG.normal(size=5), RNG.normal(size=5))),
    # recorded: c·α·softmax(x) (x recorded with c times its own gradient; β·x³ and floor(5x) are constants to the tape)
    "expected_recorded_softmax_vjp": Key(
        lambda x, v, alpha, c: c * alpha * v * softmax(x), (RNG.normal(size=6), RNG.normal(size=6), ALPHA, C)),
    "expected_cumsum_vjp": Key(lambda x, v: v * np.cumsum(x), (RNG.normal(size=6), RNG.normal(size=6))),
    "expected_hidden_layer_gradients": Custom(check_hidden_layer),
    "expected_recorded_hidden_gradients": Custom(check_recorded_hidden_layer),
    "expected_softmax_xent_grad": Custom(check_softmax_xent),
    "expected_recorded_softmax_loss_grad": Custom(check_recorded_softmax_loss),
    # recorded: c × the least-squares loss (the residual is recorded with c times its own gradient)
    "expected_squared_error_gradients": Key(
        lambda X, y, w, b, c: c * np.sum((X @ w + b - y) ** 2),
        (RNG.normal(size=(5, 3)), RNG.normal(size=5), RNG.normal(size=3), np.float64(RNG.normal()), C),
        {"w": 2, "b": 3}),
    "expected_scaled_head_gradients": Key(
        lambda X, y, w, b, s: np.sum((s * (X @ w + b) - y) ** 2),
        (RNG.normal(size=(6, 4)), RNG.normal(size=6), RNG.normal(size=4), np.float64(RNG.normal()), np.float64(1.7)),
        {"w": 2, "b": 3, "s": 4}),
    # recorded: c·sum((s·x)²) (s·x recorded with c times its own gradient)
    "expected_scaled_square_gradient": Key(
        lambda s, x, c: c * np.sum((s * x) ** 2), (np.float64(-1.5), RNG.normal(size=3), C)),
}
