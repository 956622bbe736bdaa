"""Answer keys of 11_none_gradient_lab, and the cause of each broken snippet.

Each key is checked against central finite differences of a primal written here, independently of the
notebook, or against SymPy where the key differentiates a gradient (the penalties of Exercise 6).
SNIPPET_CAUSES names the cause of every broken_NN() of the notebook with the codes of
autograder/notebook_side/doctor.py's CAUSES (a set where several are right): the gradient doctor's tests use it.
"""
import numpy as np
import sympy as sp

from . import Custom

RNG = np.random.default_rng(1100)

SNIPPET_CAUSES = {
    "broken_01": "outside_tape",
    "broken_02": "left_tensorflow",
    "broken_03": "left_tensorflow",
    "broken_04": "not_watched",
    "broken_05": "watched_too_late",
    "broken_06": "watched_other_object",
    "broken_07": "not_trainable",
    "broken_08": "integer_dtype",
    "broken_09": "wrong_variables",
    "broken_10": "wrong_variables",
    "broken_11": "unused",
    "broken_12": "variable_replaced",
    "broken_13": "not_differentiable",
    "broken_14": {"not_differentiable", "integer_dtype"},
    "broken_15": "stateful",
    "broken_16": "stateful",
    "broken_17": "nan_at_zero",
    "broken_18": "nan_unsafe_where",
    "broken_19": "nan_overflow",
    "broken_20": {"inner_gradient_outside", "outside_tape"},
    "broken_21": "none_is_correct",
    "broken_22": "watched_other_object",
}


def _close(got, wanted, what, rtol=1e-6, atol=1e-6):
    got = np.asarray(got, dtype=np.float64)
    assert got.shape == np.shape(wanted), f"{what}: shape {got.shape}, expected {np.shape(wanted)}"
    np.testing.assert_allclose(got, wanted, rtol=rtol, atol=atol, err_msg=what)


def _numeric(f, args, index, step=1e-6):
    """Central differences of the scalar f(*args) with respect to args[index] (the other arguments as given)."""
    args = list(args)
    x = np.array(args[index], dtype=np.float64)
    result = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[i] += step
        minus[i] -= step
        result[i] = (float(f(*args[:index], plus, *args[index + 1:])) - float(f(*args[:index], minus, *args[index + 1:]))) / (2 * step)
    return result


def gradients_of(primal, cases):
    """The key(*args) is the list of gradients of the scalar primal(*args) with respect to args[i], i in `wrt`
    (an entry None in wrt: the key must return None there, and the primal must not depend on that argument)."""
    def check(key):
        for args, wrt in cases:
            got = key(*args)
            assert len(got) == len(wrt), f"{len(got)} gradients, expected {len(wrt)}"
            for entry, index in zip(got, wrt):
                _close(entry, _numeric(primal, args, index), f"d/d(argument {index})")
    return Custom(check)


def elementwise(primal, points):
    """The key(x) is the derivative of the elementwise primal at every point (the gradient of its sum)."""
    def check(key):
        for x in points:
            _close(key(x), _numeric(lambda v: np.sum(primal(v)), [x], 0), f"derivative at {np.shape(x)} points")
    return Custom(check)


# ---------------------------------------------------------------- primals, written apart from the notebook

def least_squares(X, y, w, b):
    return np.sum((X @ w + b - y) ** 2)


def dense_mse(activation):
    def loss(x, y, W, b):
        out = x @ W + b
        out = np.tanh(out) if activation == "tanh" else out
        return np.mean((out - y) ** 2)
    return loss


def check_dense_mse(key):
    for activation, (n, d, k) in [("linear", (3, 2, 1)), ("tanh", (5, 3, 2))]:
        x, y, W, b = RNG.normal(size=(n, d)), RNG.normal(size=(n, k)), RNG.normal(size=(d, k)), RNG.normal(size=k)
        got = key(x, y, W, b, activation)
        loss = dense_mse(activation)
        _close(got[0], _numeric(loss, [x, y, W, b], 2), f"dL/dW ({activation})")
        _close(got[1], _numeric(loss, [x, y, W, b], 3), f"dL/db ({activation})")


def check_input_gradients(critic, key_args, key_name):
    """The key's rows are the gradient of sum(critic(x̂)) with respect to x̂ = eps·real + (1 - eps)·fake."""
    def check(key):
        real, fake, eps = RNG.normal(size=(4, 3)), RNG.normal(size=(4, 3)), RNG.uniform(size=(4, 1))
        x_hat = eps * real + (1 - eps) * fake
        extra = key_args()
        _close(key(real, fake, eps, *extra), _numeric(lambda x: np.sum(critic(x, *extra)), [x_hat], 0), key_name)
    return Custom(check)


def batchnorm_network(x, y, W1, b1, gamma, beta, mean, variance, W2, b2):
    h = x @ W1 + b1
    z = gamma * (h - mean) / np.sqrt(variance + 0.001) + beta
    return np.mean((z @ W2 + b2 - y) ** 2)


def logistic_loss(x, y, W, b):
    return np.mean(np.log1p(np.exp(-y * (x @ W + b))))


def two_heads(x, y, y_aux, W1, b1, W2, b2, W3, b3):
    h = np.tanh(x @ W1 + b1)
    return np.mean((h @ W2 + b2 - y) ** 2) + np.mean((h @ W3 + b3 - y_aux) ** 2)


def check_descent(key):
    X, y, w = RNG.normal(size=(5, 3)), RNG.normal(size=5), RNG.normal(size=3)
    loss = lambda X, y, w: 0.5 * np.sum((X @ w - y) ** 2)
    for lr, steps in [(0.05, 2), (0.02, 5)]:
        got = key(w, X, y, lr, steps)
        current = w.copy()
        assert len(got["gradients"]) == steps
        for step in range(steps):
            g = _numeric(loss, [X, y, current], 2)
            _close(got["gradients"][step], g, f"step {step}")
            current = current - lr * g
        _close(got["w"], current, "the final w")


def check_straight_through(key):
    """The straight-through gradient: d/dq sum((q - t)²) at q = round(4w)/4 (the rounding treated as the identity)."""
    w, t = RNG.uniform(-2, 2, size=7), RNG.uniform(-2, 2, size=7)
    q = np.array([round(4 * value) / 4 for value in w])     # Python's round: halves to even, as NumPy and TensorFlow
    _close(key(w, t), _numeric(lambda q: np.sum((q - t) ** 2), [q], 0), "straight-through gradient")


def soft_argmax_loss(logits, labels):
    s = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return np.mean((s @ np.arange(logits.shape[1]) - labels) ** 2)


def check_running_total(key):
    w, x = RNG.normal(size=4), RNG.normal(size=4)
    assert np.isclose(key(0.75, w, x), 0.75 + sum(a * b for a, b in zip(w, x)))


def check_mean_squared_error(key):
    w, X, y = RNG.normal(size=3), RNG.normal(size=(5, 3)), RNG.normal(size=5)
    assert np.isclose(key(w, X, y), sum((sum(X[i, j] * w[j] for j in range(3)) - y[i]) ** 2 for i in range(5)) / 5)


def check_row_lengths(key):
    x = RNG.normal(size=(5, 3))
    x[[1, 3]] = 0.0
    got = key(x)
    nonzero = [0, 2, 4]
    _close(got[nonzero], _numeric(lambda v: np.sum(np.sqrt(np.sum(v ** 2, axis=1))), [x[nonzero]], 0), "nonzero rows")
    _close(got[[1, 3]], np.zeros((2, 3)), "zero rows")


def check_x_log_x(key):
    x = np.array([-2.0, -0.5, 0.0, 0.1, 0.5, 1.0, 3.0])
    got = key(x)
    positive = x > 0
    _close(got[positive], _numeric(lambda v: np.sum(v * np.log(v)), [x[positive]], 0), "x > 0")
    _close(got[~positive], np.zeros(3), "x <= 0")


def check_softplus(key):
    x = np.linspace(-20, 20, 41)
    _close(key(x), _numeric(lambda v: np.sum(np.log1p(np.exp(v))), [x], 0), "softplus'")
    _close(key(np.array([-1000.0, 1000.0])), [0.0, 1.0], "the limits")


# ---------------------------------------------------------------- penalties, with SymPy

def _penalty_gradients(n, d, m, penalty):
    """SymPy gradients of penalty(x, parameters) with respect to the parameter matrices, as a NumPy function."""
    x = sp.Matrix(n, d, lambda i, j: sp.Symbol(f"x{i}_{j}"))
    W1 = sp.Matrix(d, m, lambda i, j: sp.Symbol(f"W{i}_{j}"))
    b1 = sp.Matrix(1, m, lambda i, j: sp.Symbol(f"b{j}"))
    w2 = sp.Matrix(m, 1, lambda i, j: sp.Symbol(f"v{i}"))
    P = penalty(x, W1, b1, w2)
    symbols = list(x) + list(W1) + list(b1) + list(w2)
    grads = [sp.Matrix(W1.shape[0], W1.shape[1], lambda i, j: sp.diff(P, W1[i, j])),
             sp.Matrix(1, m, lambda i, j: sp.diff(P, b1[0, j])),
             sp.Matrix(m, 1, lambda i, j: sp.diff(P, w2[i, 0]))]
    functions = [sp.lambdify(symbols, g, "numpy") for g in grads]

    def values(xv, W1v, b1v, w2v):
        arguments = list(np.ravel(xv)) + list(np.ravel(W1v)) + list(np.ravel(b1v)) + list(np.ravel(w2v))
        return [np.asarray(f(*arguments), dtype=np.float64) for f in functions]
    return values


def _input_gradient(f_row, x_row):
    return sp.Matrix([[sp.diff(f_row, xi) for xi in x_row]])


def input_penalty(x, W, b_unused, v):
    """mean_i ‖∇ₓ f(x_i)‖², f(x) = tanh(xW)·v."""
    total = 0
    for i in range(x.shape[0]):
        f = sum(v[j, 0] * sp.tanh(sum(x[i, k] * W[k, j] for k in range(x.shape[1]))) for j in range(W.shape[1]))
        g = _input_gradient(f, list(x.row(i)))
        total += sum(entry ** 2 for entry in g)
    return total / x.shape[0]


def critic_penalty(x, W1, b1, w2):
    """mean_i (‖∇ₓ D(x_i)‖ - 1)², D(x) = tanh(xW1 + b1)w2 + b2 (b2 drops out)."""
    total = 0
    for i in range(x.shape[0]):
        D = sum(w2[j, 0] * sp.tanh(sum(x[i, k] * W1[k, j] for k in range(x.shape[1])) + b1[0, j]) for j in range(W1.shape[1]))
        g = _input_gradient(D, list(x.row(i)))
        total += (sp.sqrt(sum(entry ** 2 for entry in g)) - 1) ** 2
    return total / x.shape[0]


def check_input_penalty(key):
    n, d, m = 2, 2, 3
    values = _penalty_gradients(n, d, m, input_penalty)
    x, W, v = RNG.normal(size=(n, d)), RNG.normal(size=(d, m)), RNG.normal(size=m)
    dW, _, dv = values(x, W, np.zeros(m), v)
    got = key(W, v, x)
    assert len(got) == 2
    _close(got[0], dW, "dP/dW", rtol=1e-9, atol=1e-9)
    _close(got[1], dv.ravel(), "dP/dv", rtol=1e-9, atol=1e-9)


def check_critic_penalty(key):
    n, d, m = 2, 2, 3
    values = _penalty_gradients(n, d, m, critic_penalty)
    x, W1, b1, w2 = RNG.normal(size=(n, d)), RNG.normal(size=(d, m)), RNG.normal(size=m), RNG.normal(size=(m, 1))
    dW1, db1, dw2 = values(x, W1, b1, w2)
    got = key(x, W1, b1, w2)
    assert len(got) == 4
    _close(got[0], dW1, "dW1", rtol=1e-9, atol=1e-9)
    _close(got[1], db1.ravel(), "db1", rtol=1e-9, atol=1e-9)
    _close(got[2], dw2, "dW2", rtol=1e-9, atol=1e-9)
    _close(got[3], np.zeros(1), "db2: the output bias does not change the input gradient")


def check_linear_critic(key):
    w = sp.Matrix(3, 1, sp.symbols("w0:3"))
    b = sp.Symbol("b")
    x = sp.Matrix(1, 3, sp.symbols("x0:3"))
    D = (x * w)[0, 0] + b
    gp = (sp.sqrt(sum(sp.diff(D, xi) ** 2 for xi in x)) - 1) ** 2
    assert sp.diff(gp, b) == 0 and not gp.has(b)
    for scale in (1.0, 0.2):
        wv = RNG.normal(size=(3, 1)) * scale
        got = key(wv)
        wanted = np.array([[float(sp.diff(gp, w[i, 0]).subs(dict(zip(w, wv.ravel()))))] for i in range(3)])
        _close(got[0], wanted, "dgp/dw", rtol=1e-9, atol=1e-9)
        assert got[1] is None


def check_two_layer_critic(key):
    d, m = 3, 2
    W1 = sp.Matrix(d, m, lambda i, j: sp.Symbol(f"W{i}_{j}"))
    W2 = sp.Matrix(m, 1, lambda i, j: sp.Symbol(f"V{i}"))
    b1, b2 = sp.Matrix(1, m, sp.symbols(f"b0:{m}")), sp.Symbol("c")
    x = sp.Matrix(1, d, sp.symbols(f"x0:{d}"))
    D = ((x * W1 + b1) * W2)[0, 0] + b2
    gp = (sp.sqrt(sum(sp.diff(D, xi) ** 2 for xi in x)) - 1) ** 2
    assert not gp.has(b2) and not any(gp.has(bj) for bj in b1)
    W1v, W2v = RNG.normal(size=(d, m)), RNG.normal(size=(m, 1))
    subs = {**dict(zip(W1, W1v.ravel())), **dict(zip(W2, W2v.ravel()))}
    got = key(W1v, W2v)
    _close(got[0], np.array([[float(sp.diff(gp, W1[i, j]).subs(subs)) for j in range(m)] for i in range(d)]), "dgp/dW1",
           rtol=1e-9, atol=1e-9)
    _close(got[2], np.array([[float(sp.diff(gp, W2[i, 0]).subs(subs))] for i in range(m)]), "dgp/dW2", rtol=1e-9, atol=1e-9)
    assert got[1] is None and got[3] is None


def tanh_critic_gp(z, real, eps, Wg, bg, W1, b1, W2):
    """gp = mean_i (‖∇ₓD(x̂_i)‖ - 1)² for D(x) = tanh(xW1 + b1)W2 + b2 at x̂ = eps·real + (1 - eps)·(z·Wg + bg)."""
    x_hat = eps * real + (1 - eps) * (z @ Wg + bg)
    slopes = ((1 - np.tanh(x_hat @ W1 + b1) ** 2) * W2[:, 0]) @ W1.T
    return np.mean((np.linalg.norm(slopes, axis=1) - 1) ** 2)


def check_tanh_critic_gp(key):
    for n, k, d, m in [(5, 2, 2, 3), (4, 3, 2, 4)]:
        args = [RNG.normal(size=(n, k)), RNG.normal(size=(n, d)), RNG.uniform(size=(n, 1)), RNG.normal(size=(k, d)),
                RNG.normal(size=d), RNG.normal(size=(d, m)), RNG.normal(size=m), RNG.normal(size=(m, 1))]
        got = key(*args)
        assert len(got) == 4 and got[3] is None, "[dW1, db1, dW2, None]"
        for entry, index, name in zip(got[:3], (5, 6, 7), ("dW1", "db1", "dW2")):
            _close(entry, _numeric(tanh_critic_gp, args, index), name)


GRID = np.linspace(-3.0, 3.0, 13)

KEYS = {
    # Exercise 1
    "expected_least_squares_gradients": gradients_of(least_squares, [
        ((np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 2.0]), np.array([1.0, 2.0]), 1.0), (2, 3)),
        ((RNG.normal(size=(5, 3)), RNG.normal(size=5), RNG.normal(size=3), 0.3), (2, 3))]),
    "expected_log1p_square_gradient": elementwise(lambda x: np.log1p(x ** 2), [GRID, RNG.normal(size=(3, 4))]),
    "expected_dense_mse_gradients": Custom(check_dense_mse),
    # Exercise 2
    "expected_x_sin_x_gradient": elementwise(lambda x: x * np.sin(x), [GRID, np.float64(0.7)]),
    "expected_tanh_square_gradient": elementwise(lambda x: np.tanh(2 * x) ** 2, [GRID]),
    "expected_quadratic_critic_input_gradient": check_input_gradients(lambda x: np.sum(x ** 2, axis=1), lambda: (),
                                                                      "the quadratic critic"),
    "expected_tanh_unit_input_gradient": check_input_gradients(lambda x, w, b: np.tanh(x @ w + b),
                                                               lambda: (RNG.normal(size=(3, 1)), RNG.normal(size=1)),
                                                               "the tanh critic"),
    "expected_softplus_scale_gradient": Custom(lambda key: [
        _close(key(s, x), _numeric(lambda s, x: np.sum(np.log1p(np.exp(s * x))), [s, x], 0), f"at s = {s}")
        for s, x in [(2.0, np.array([-1.0, 0.5, 3.0])), (-0.7, RNG.normal(size=6))]]),
    "expected_cube_sum_gradient": elementwise(lambda x: x ** 3, [np.array([1.0, 2.0, 3.0]), GRID]),
    # Exercise 3
    "expected_batchnorm_network_gradients": gradients_of(batchnorm_network, [
        ((RNG.normal(size=(5, 2)), RNG.normal(size=(5, 1)), RNG.normal(size=(2, 3)), RNG.normal(size=3),
          RNG.uniform(0.5, 2, size=3), RNG.normal(size=3), RNG.normal(size=3), RNG.uniform(0.5, 2, size=3),
          RNG.normal(size=(3, 1)), RNG.normal(size=1)), (2, 3, 4, 5, 8, 9))]),
    "expected_logistic_loss_gradients": gradients_of(logistic_loss, [
        ((RNG.normal(size=(6, 3)), np.where(RNG.normal(size=(6, 1)) > 0, 1.0, -1.0), RNG.normal(size=(3, 1)),
          RNG.normal(size=1)), (2, 3))]),
    "expected_two_head_gradients": gradients_of(two_heads, [
        ((RNG.normal(size=(5, 2)), RNG.normal(size=(5, 1)), RNG.normal(size=(5, 1)), RNG.normal(size=(2, 3)),
          RNG.normal(size=3), RNG.normal(size=(3, 1)), RNG.normal(size=1), RNG.normal(size=(3, 1)), RNG.normal(size=1)),
         (3, 4, 5, 6, 7, 8))]),
    "expected_descent_gradients": Custom(check_descent),
    # Exercise 4
    "expected_straight_through_gradient": Custom(check_straight_through),
    "expected_soft_argmax_gradient": Custom(lambda key: [
        _close(key(z, labels), _numeric(soft_argmax_loss, [z, labels], 0), "soft-argmax")
        for z, labels in [(RNG.normal(size=(4, 3)), np.array([0.0, 2.0, 1.0, 2.0])),
                          (RNG.normal(size=(6, 5)) * 2, RNG.integers(0, 5, size=6).astype(np.float64))]]),
    "expected_running_total_gradient": Custom(lambda key: [
        _close(key(w, x), _numeric(lambda w, x: (np.dot(w, x) - 1.0) ** 2, [w, x], 0), "d/dw")
        for w, x in [(RNG.normal(size=5), RNG.normal(size=5))]]),
    "expected_running_total": Custom(check_running_total),
    "expected_mean_squared_error_gradient": Custom(lambda key: [
        _close(key(w, X, y), _numeric(lambda w, X, y: np.mean((X @ w - y) ** 2), [w, X, y], 0), "d/dw")
        for w, X, y in [(RNG.normal(size=3), RNG.normal(size=(6, 3)), RNG.normal(size=6))]]),
    "expected_mean_squared_error": Custom(check_mean_squared_error),
    # Exercise 5
    "expected_row_lengths_gradient": Custom(check_row_lengths),
    "expected_x_log_x_gradient": Custom(check_x_log_x),
    "expected_softplus_gradient": Custom(check_softplus),
    # Exercise 6
    "expected_input_gradient_penalty_gradients": Custom(check_input_penalty),
    "expected_tanh_critic_penalty_gradients": Custom(check_critic_penalty),
    "expected_linear_critic_penalty_gradients": Custom(check_linear_critic),
    "expected_two_layer_critic_penalty_gradients": Custom(check_two_layer_critic),
    "expected_tanh_critic_gp_gradients": Custom(check_tanh_critic_gp),
}
