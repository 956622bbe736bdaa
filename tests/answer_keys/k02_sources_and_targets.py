"""Answer keys of 02_sources_and_targets.

A vector-Jacobian product vᵀJ of f is the gradient of sum(v ⊙ f) with v held fixed, so most keys are
checked as the summed gradient of the primal `v * f(...)`.
"""
import numpy as np

from . import Custom, Key, numeric_derivative

RNG = np.random.default_rng(202)


def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def check_hidden_layer(key):
    """dL/dy, dL/dh and dL/da by finite differences of L written from each intermediate value onwards."""
    H, D = 4, 3
    W, x, w, t = RNG.normal(size=(H, D)), RNG.normal(size=D), RNG.normal(size=H), np.float64(RNG.normal())
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


def check_softmax_xent(key):
    """softmax(z) - onehot(y) against finite differences of the summed -log softmax(z)[y], for one example and a batch."""
    def summed_cross_entropy(z, labels):
        labels = np.asarray(labels).astype(int)
        log_p = np.log(softmax(z))
        return -np.sum(np.take_along_axis(log_p, labels[..., None], axis=-1))

    for z, labels in ((RNG.normal(size=5), np.int64(3)), (RNG.normal(size=(4, 3)) * 3, np.array([0, 2, 1, 2]))):
        numeric = numeric_derivative(summed_cross_entropy, (z, labels), 0)
        np.testing.assert_allclose(key(z, labels), numeric, rtol=1e-6, atol=1e-6)


KEYS = {
    "expected_q_gradients": Key(
        lambda a, b, v: v * (3 * a**3 - b**2),
        (RNG.normal(size=4), RNG.normal(size=4), RNG.normal(size=4)),
        {"a": 0, "b": 1}),
    "expected_square_vjp": Key(lambda x, v: v * x**2, (RNG.normal(size=(2, 3)), RNG.normal(size=(2, 3)))),
    "expected_matvec_vjp": Key(
        lambda A, x, v: v * (A @ x), (RNG.normal(size=(3, 2)), RNG.normal(size=2), RNG.normal(size=3)), 1),
    "expected_matmul_vjp": Key(
        lambda X, B, V: V * (X @ B), (RNG.normal(size=(2, 3)), RNG.normal(size=(3, 4)), RNG.normal(size=(2, 4)))),
    "expected_softmax_vjp": Key(lambda x, v: v * softmax(x), (RNG.normal(size=5), RNG.normal(size=5))),
    "expected_cumsum_vjp": Key(lambda x, v: v * np.cumsum(x), (RNG.normal(size=6), RNG.normal(size=6))),
    "expected_hidden_layer_gradients": Custom(check_hidden_layer),
    "expected_softmax_xent_grad": Custom(check_softmax_xent),
    "expected_squared_error_gradients": Key(
        lambda X, y, w, b: np.sum((X @ w + b - y) ** 2),
        (RNG.normal(size=(5, 3)), RNG.normal(size=5), RNG.normal(size=3), np.float64(RNG.normal())),
        {"w": 2, "b": 3}),
    "expected_scaled_head_gradients": Key(
        lambda X, y, w, b, s: np.sum((s * (X @ w + b) - y) ** 2),
        (RNG.normal(size=(6, 4)), RNG.normal(size=6), RNG.normal(size=4), np.float64(RNG.normal()), np.float64(1.7)),
        {"w": 2, "b": 3, "s": 4}),
    "expected_scaled_square_gradient": Key(lambda s, x: np.sum((s * x) ** 2), (np.float64(-1.5), RNG.normal(size=3))),
}
