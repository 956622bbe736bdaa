"""Answer keys of 09_training_loops, checked against central finite differences of primals written here.

Each key is a step, a loss or a gradient of the least-squares loss (with or without an L2 penalty). The primals
below are written as plain sums over the examples, independently of the notebook's matrix formulas, and every
gradient the keys use is compared with finite differences of them; the gradient-descent key is compared with a
loop of finite-difference steps, and the clipping key with the properties that define global-norm clipping.
"""
import numpy as np

from . import Custom, numeric_derivative

RNG = np.random.default_rng(109)


def _close(got, wanted, what, rtol=1e-6, atol=1e-7):
    got, wanted = np.asarray(got, dtype=np.float64), np.asarray(wanted, dtype=np.float64)
    assert got.shape == wanted.shape, f"{what}: shape {got.shape}, expected {wanted.shape}"
    np.testing.assert_allclose(got, wanted, rtol=rtol, atol=atol, err_msg=what)


def squared_error(w, b, X, y):
    """(1/N) Σ_i (Σ_j x_ij w_j + b - y_i)², example by example."""
    total = 0.0
    for row, target in zip(np.asarray(X), np.asarray(y).reshape(-1)):
        total += (sum(row[j] * np.asarray(w).reshape(-1)[j] for j in range(len(row))) + np.sum(b) - target) ** 2
    return total / len(X)


def ridge_loss(w, b, X, y, lam_kernel, lam_bias):
    return squared_error(w, b, X, y) + lam_kernel * np.sum(np.square(w)) + lam_bias * np.sum(np.square(b))


def _problem(n, d):
    return RNG.normal(size=(d, 1)), RNG.normal(size=1), RNG.normal(size=(n, d)), RNG.normal(size=(n, 1))


def check_sgd_step(key):
    for n, d, lr in [(20, 3, 0.05), (7, 1, 0.4), (33, 4, 0.3)]:
        w, b, X, y = _problem(n, d)
        loss, w_new, b_new = key(w, b, X, y, lr)
        _close(loss, squared_error(w, b, X, y), "the loss")
        _close(w_new, w - lr * numeric_derivative(squared_error, (w, b, X, y), 0), "w after one step")
        _close(b_new, b - lr * numeric_derivative(squared_error, (w, b, X, y), 1), "b after one step")


def check_gradient_descent(key):
    for n, d, lr, steps in [(64, 2, 0.3, 40), (10, 3, 0.05, 1), (50, 3, 0.2, 30), (40, 2, 0.1, 25)]:
        w, b, X, y = _problem(n, d)
        history, w_k, b_k = key(w, b, X, y, lr, steps)
        losses = []
        for _ in range(steps):
            losses.append(squared_error(w, b, X, y))
            w, b = (w - lr * numeric_derivative(squared_error, (w, b, X, y), 0),
                    b - lr * numeric_derivative(squared_error, (w, b, X, y), 1))
        _close(history, losses, f"the history of {steps} steps", rtol=1e-5)
        _close(w_k, w, f"w after {steps} steps", rtol=1e-5, atol=1e-6)
        _close(b_k, b, f"b after {steps} steps", rtol=1e-5, atol=1e-6)
    # 40 steps with lr = 0.3 on well-conditioned data (the notebook's first check) reach the normal equations' answer
    X = RNG.normal(size=(64, 2))
    y = X @ np.array([[1.5], [-2.0]]) + 0.5 + 0.3 * RNG.normal(size=(64, 1))
    _, w_k, b_k = key(RNG.normal(size=(2, 1)), np.zeros(1), X, y, 0.3, 40)
    A = np.c_[X, np.ones(64)]
    best = np.linalg.solve(A.T @ A, A.T @ y[:, 0])
    _close(np.r_[w_k[:, 0], b_k], best, "40 steps reach least squares", atol=1e-6)


def check_clipped(key):
    got = key([[3.0, 4.0], [12.0]], 5.0)
    _close(got[0], [15 / 13, 20 / 13], "[3, 4] clipped to a global norm of 5")
    _close(got[1], [60 / 13], "[12] clipped to a global norm of 5")
    for max_norm in (0.5, 2.0, 100.0):
        grads = [RNG.normal(size=(4, 3)), None, RNG.normal(size=3), RNG.normal(size=(2, 2, 2))]
        got = key(grads, max_norm)
        assert got[1] is None
        norm = np.sqrt(sum(np.sum(g ** 2) for g in grads if g is not None))
        got_norm = np.sqrt(sum(np.sum(np.square(g)) for g in got if g is not None))
        _close(got_norm, min(norm, max_norm), "the global norm after clipping")
        ratios = [np.asarray(c) / g for c, g in zip(got, grads) if g is not None]
        scale = ratios[0].flat[0]
        assert 0 < scale <= 1
        for ratio in ratios:
            _close(ratio, np.full(ratio.shape, scale), "one factor for every entry")


def check_regularized(key):
    for n, d, lam_kernel, lam_bias in [(25, 3, 0.3, 0.0), (30, 2, 0.05, 1.5), (12, 4, 0.0, 0.0)]:
        w, b, X, y = _problem(n, d)
        loss, dw, db = key(w, b, X, y, lam_kernel, lam_bias)
        args = (w, b, X, y, lam_kernel, lam_bias)
        _close(loss, ridge_loss(*args), "the regularized loss")
        _close(dw, numeric_derivative(ridge_loss, args, 0), "dloss/dw")
        _close(db, numeric_derivative(ridge_loss, args, 1), "dloss/db")


def check_per_example(key):
    for n, d in [(5, 3), (12, 4), (1, 2)]:
        w, X, y = RNG.normal(size=d), RNG.normal(size=(n, d)), RNG.normal(size=n)
        got = key(w, X, y)
        one = lambda w, x, t: (np.dot(x, w) - t) ** 2
        _close(got, [numeric_derivative(one, (w, X[i], y[i]), 0) for i in range(n)], "per-example gradients")


KEYS = {
    "expected_sgd_step": Custom(check_sgd_step),
    "expected_gradient_descent": Custom(check_gradient_descent),
    "expected_clipped": Custom(check_clipped),
    "expected_regularized": Custom(check_regularized),
    "expected_per_example_gradients": Custom(check_per_example),
}
