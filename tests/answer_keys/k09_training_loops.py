"""Answer keys of 09_training_loops, checked against central finite differences of primals written here.

Each key is a step, a loss or a gradient of the least-squares loss (with or without an L2 penalty), of the mean
absolute error (the train_step exercise), of least squares on batch-normalised features, or of a batch cut into
microbatches. The primals below are written as plain sums over the examples, independently of the notebook's matrix
formulas, and every gradient the keys use is compared with finite differences of them; the gradient-descent key is
compared with a loop of finite-difference steps.
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


def absolute_error(w, b, X, y):
    """(1/N) Σ_i |Σ_j x_ij w_j + b - y_i|, example by example."""
    total = 0.0
    for row, target in zip(np.asarray(X), np.asarray(y).reshape(-1)):
        total += abs(sum(row[j] * np.asarray(w).reshape(-1)[j] for j in range(len(row))) + np.sum(b) - target)
    return total / len(X)


def check_fit_step(key):
    """One SGD step of fit for compile's loss ("mse" or "mae") plus an L2 kernel penalty, and the metrics before it."""
    for n, d, lr, loss, l2 in [(20, 3, 0.1, "mse", 0.0), (16, 2, 0.05, "mae", 0.2), (6, 3, 0.1, "mse", 0.0),
                               (9, 1, 0.3, "mae", 0.0), (11, 2, 0.2, "mse", 0.5)]:
        w, b, X, y = _problem(n, d)
        data = squared_error if loss == "mse" else absolute_error

        def total(w, b, X, y):
            return data(w, b, X, y) + l2 * sum(value ** 2 for value in np.asarray(w).reshape(-1))

        got = key(w, b, X, y, lr, loss=loss, l2=l2)
        args = (w, b, X, y)
        _close(got["loss"], total(*args), f"the {loss} loss with l2={l2}")
        _close(got["mse"], squared_error(*args), "the mse metric")
        _close(got["mae"], absolute_error(*args), "the mae metric")
        _close(got["kernel"], w - lr * numeric_derivative(total, args, 0), f"the kernel after a step of {loss}, l2={l2}")
        _close(got["bias"], b - lr * numeric_derivative(total, args, 1), f"the bias after a step of {loss}, l2={l2}")


def batch_normalised(X, epsilon):
    """Each feature minus its batch mean, over the square root of its batch variance (1/N) plus epsilon, by loops."""
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    Z = np.zeros_like(X)
    means, variances = np.zeros(d), np.zeros(d)
    for j in range(d):
        means[j] = sum(X[i, j] for i in range(n)) / n
        variances[j] = sum((X[i, j] - means[j]) ** 2 for i in range(n)) / n
        for i in range(n):
            Z[i, j] = (X[i, j] - means[j]) / (variances[j] + epsilon) ** 0.5
    return Z, means, variances


def check_batchnorm_fit_step(key):
    """A step of least squares on batch-normalised features, and the moving statistics' momentum update from 0 and 1."""
    for n, d, lr, momentum, epsilon in [(16, 2, 0.1, 0.99, 1e-3), (10, 3, 0.1, 0.9, 1e-3), (7, 1, 0.5, 0.5, 0.1)]:
        w, b, X, y = _problem(n, d)
        X = 2.0 + 3.0 * X
        got = key(w, b, X, y, lr, momentum=momentum, epsilon=epsilon)
        Z, means, variances = batch_normalised(X, epsilon)
        args = (w, b, Z, y)
        _close(got["loss"], squared_error(*args), "the loss on batch-normalised features")
        _close(got["kernel"], w - lr * numeric_derivative(squared_error, args, 0), "the kernel after the step")
        _close(got["bias"], b - lr * numeric_derivative(squared_error, args, 1), "the bias after the step")
        _close(got["moving_mean"], momentum * np.zeros(d) + (1 - momentum) * means, "the moving mean")
        _close(got["moving_variance"], momentum * np.ones(d) + (1 - momentum) * variances, "the moving variance")


def check_accumulated_step(key):
    """The whole batch's step, and each consecutive microbatch's loss and gradients; their n_j/N-weighted sum is the
    whole batch's gradient."""
    for n, d, lr, size in [(24, 3, 0.1, 8), (20, 2, 0.2, 8), (10, 3, 0.3, 3), (10, 3, 0.3, 16), (5, 1, 0.1, 2)]:
        w, b, X, y = _problem(n, d)
        got = key(w, b, X, y, lr, size)
        args = (w, b, X, y)
        whole_w, whole_b = numeric_derivative(squared_error, args, 0), numeric_derivative(squared_error, args, 1)
        _close(got["loss"], squared_error(*args), "the whole batch's loss")
        _close(got["kernel"], w - lr * whole_w, "the kernel after one whole-batch step")
        _close(got["bias"], b - lr * whole_b, "the bias after one whole-batch step")
        starts = list(range(0, n, size))
        assert [part[0] for part in got["microbatches"]] == [len(X[s:s + size]) for s in starts], "the microbatch sizes"
        weighted_w, weighted_b = 0.0, 0.0
        for (count, loss_j, grad_w, grad_b), s in zip(got["microbatches"], starts):
            part = (w, b, X[s:s + size], y[s:s + size])
            _close(loss_j, squared_error(*part), "a microbatch's mean loss")
            _close(grad_w, numeric_derivative(squared_error, part, 0), "a microbatch's dL_j/dw")
            _close(grad_b, numeric_derivative(squared_error, part, 1), "a microbatch's dL_j/db")
            weighted_w, weighted_b = weighted_w + count / n * grad_w, weighted_b + count / n * grad_b
        _close(weighted_w, whole_w, "Σ_j (n_j/N) dL_j/dw is the whole batch's dL/dw")
        _close(weighted_b, whole_b, "Σ_j (n_j/N) dL_j/db is the whole batch's dL/db")


KEYS = {
    "expected_sgd_step": Custom(check_sgd_step),
    "expected_gradient_descent": Custom(check_gradient_descent),
    "expected_regularized": Custom(check_regularized),
    "expected_per_example_gradients": Custom(check_per_example),
    "expected_fit_step": Custom(check_fit_step),
    "expected_batchnorm_fit_step": Custom(check_batchnorm_fit_step),
    "expected_accumulated_step": Custom(check_accumulated_step),
}
