"""Answer keys of 05_jacobians_hessians.

Jacobians are checked against finite differences of the primal (the function itself, written here);
per-example Jacobians against the diagonal blocks of the full finite-difference Jacobian; Hessians,
Hessian-vector products, top eigenvalues and Newton steps against SymPy's exact second derivatives.
"""
import numpy as np
import sympy as sp

from . import Custom, Key, numeric_derivative

RNG = np.random.default_rng(505)
X, Y = sp.symbols("x y")
ROSENBROCK = (1 - X) ** 2 + 100 * (Y - X ** 2) ** 2
CUBIC = X ** 2 * Y + Y ** 3
POINTS_2D = [np.array([1.0, 1.0]), np.array([-1.2, 1.0]), np.array([2.0, 2.0]), np.array([0.5, -0.3])] + list(
    RNG.normal(size=(3, 2)))


def softmax(z):
    e = np.exp(z - np.max(z, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def per_example(primal, cases):
    """Check a key returning per-example Jacobians (B, m, d) against the full finite-difference Jacobian
    (B, m, B, d) of primal: its diagonal blocks, while the off-diagonal blocks vanish."""
    def check(key):
        for args in cases:
            full = numeric_derivative(primal, args, 0, jacobian=True)
            batch = args[0].shape[0]
            for b in range(batch):
                for c in range(batch):
                    if b != c:
                        np.testing.assert_allclose(full[b, :, c, :], 0.0, atol=1e-8)
            blocks = np.stack([full[b, :, b, :] for b in range(batch)])
            np.testing.assert_allclose(key(*args), blocks, rtol=1e-6, atol=1e-6)
    return check


def exact_hessian(expression, symbols, point):
    """SymPy's Hessian of expression at point, as a float64 array."""
    hessian = sp.hessian(expression, symbols).subs(dict(zip(symbols, [float(value) for value in point])))
    return np.array(hessian.evalf(), dtype=np.float64)


def quadratic_expression(A):
    symbols = sp.symbols(f"x0:{A.shape[0]}")
    x = sp.Matrix(symbols)
    return (x.T * sp.Matrix(A) * x)[0], symbols


def check_quadratic_hessian(key):
    for n in (1, 2, 3, 4):
        A = RNG.normal(size=(n, n))
        expression, symbols = quadratic_expression(A)
        np.testing.assert_allclose(key(A), exact_hessian(expression, symbols, np.zeros(n)), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(key(np.array([[1.0, 2.0], [0.0, 3.0]])), [[2.0, 2.0], [2.0, 6.0]])


def check_quadratic_hvp(key):
    for n in (1, 2, 5):
        A, v = RNG.normal(size=(n, n)), RNG.normal(size=n)
        expression, symbols = quadratic_expression(A)
        np.testing.assert_allclose(key(A, v), exact_hessian(expression, symbols, np.zeros(n)) @ v, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(key(np.array([[1.0, 2.0], [0.0, 3.0]]), np.array([1.0, -1.0])), [0.0, -4.0])


def check_2d_hessian(expression, known):
    def check(key):
        for point in POINTS_2D:
            np.testing.assert_allclose(key(point), exact_hessian(expression, (X, Y), point), rtol=1e-12, atol=1e-9)
        for point, value in known:
            np.testing.assert_allclose(key(np.array(point)), value)
    return check


def check_logistic_hessian(key):
    for n, d in [(6, 3), (4, 2)]:
        data, w = RNG.normal(size=(n, d)), RNG.normal(size=d)
        labels = (RNG.uniform(size=n) < 0.5).astype(np.float64)  # the Hessian does not depend on them
        weights = sp.symbols(f"w0:{d}")
        scores = [sum(data[k, j] * weights[j] for j in range(d)) for k in range(n)]
        loss = sum(sp.log(1 + sp.exp(z)) - labels[k] * z for k, z in enumerate(scores)) / n
        np.testing.assert_allclose(key(data, w), exact_hessian(loss, weights, w), rtol=1e-10, atol=1e-12)


def check_sin_hvp(key):
    for n in (1, 3, 6):
        x, v = RNG.normal(scale=2.0, size=n), RNG.normal(size=n)
        symbols = sp.symbols(f"x0:{n}")
        expression = sum(sp.sin(s) for s in symbols)
        np.testing.assert_allclose(key(x, v), exact_hessian(expression, symbols, x) @ v, rtol=1e-12, atol=1e-12)


def check_quadratic_minimizer(key):
    """The key's point has a zero gradient (finite differences) and A + Aᵀ is positive definite there."""
    cases = [(np.array([[2.0, 1.5], [-0.5, 0.5]]), np.array([-1.0, 1.0]))]
    for n in (1, 3, 4):
        L, S = RNG.normal(size=(n, n)), RNG.normal(size=(n, n))
        cases.append((L @ L.T + np.eye(n) + (S - S.T), RNG.normal(size=n)))
    for A, b in cases:
        assert np.all(np.linalg.eigvalsh(A + A.T) > 0)
        point = key(A, b)
        gradient = numeric_derivative(lambda x: x @ A @ x + b @ x, (point,), 0)
        np.testing.assert_allclose(gradient, 0.0, atol=1e-6)


def check_rosenbrock_newton_step(key):
    gradient = sp.lambdify((X, Y), sp.Matrix([ROSENBROCK.diff(X), ROSENBROCK.diff(Y)]))
    for point in POINTS_2D:
        H = exact_hessian(ROSENBROCK, (X, Y), point)
        step = np.linalg.solve(H, np.asarray(gradient(*point), dtype=np.float64).ravel())
        np.testing.assert_allclose(key(point), point - step, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(key(np.array([-1.2, 1.0])), [-1.1752809, 1.3806742], atol=1e-6)
    np.testing.assert_allclose(key(np.array([1.0, 1.0])), [1.0, 1.0])


def rosenbrock_expression(n):
    """The n-dimensional Rosenbrock function Σ 100 (x_{i+1} − x_i²)² + (1 − x_i)², and its symbols."""
    symbols = sp.symbols(f"x0:{n}")
    return sum(100 * (symbols[i + 1] - symbols[i] ** 2) ** 2 + (1 - symbols[i]) ** 2 for i in range(n - 1)), symbols


def check_rosenbrock_hvp(key):
    """SymPy's Hessian times v, for n = 2 to 6, at random points and at the minimum."""
    for n in (2, 3, 4, 6):
        expression, symbols = rosenbrock_expression(n)
        for point in (RNG.normal(size=n), np.ones(n)):
            v = RNG.normal(size=n)
            np.testing.assert_allclose(key(point, v), exact_hessian(expression, symbols, point) @ v, rtol=1e-12,
                                       atol=1e-9)
    np.testing.assert_allclose(key(np.array([1.0, 1.0]), np.array([1.0, 0.0])), [802.0, -400.0])


def check_top_eigenvalue(key):
    """The eigenvalue of largest magnitude of Q diag(λ) Qᵀ, positive or negative, which is also the Hessian of ½xᵀMx."""
    for eigenvalues in ([8.0, 2.0, -1.0, 0.5], [-6.0, 2.5, 1.0, -0.5, 0.2], [3.0]):
        n = len(eigenvalues)
        Q, _ = np.linalg.qr(RNG.normal(size=(n, n)))
        M = Q @ np.diag(eigenvalues) @ Q.T
        symbols = sp.symbols(f"x0:{n}")
        x = sp.Matrix(symbols)
        hessian = exact_hessian(sp.Rational(1, 2) * (x.T * sp.Matrix(M) * x)[0], symbols, np.zeros(n))
        np.testing.assert_allclose(hessian, M, atol=1e-12)
        np.testing.assert_allclose(key(M), eigenvalues[0], rtol=1e-12)


def check_quartic_top_eigenvalue(key):
    """SymPy's Hessian of ±¼‖x‖⁴: its eigenvalue of largest magnitude."""
    for n in (1, 2, 4):
        symbols = sp.symbols(f"x0:{n}")
        for sign in (1.0, -1.0):
            expression = sign * sum(s ** 2 for s in symbols) ** 2 / 4
            x = RNG.normal(size=n)
            eigenvalues = np.linalg.eigvalsh(exact_hessian(expression, symbols, x))
            np.testing.assert_allclose(key(x, sign), eigenvalues[np.argmax(np.abs(eigenvalues))], rtol=1e-12)
            if sign == 1.0:
                np.testing.assert_allclose(key(x), eigenvalues[-1], rtol=1e-12)


def check_rosenbrock_minimizer(key):
    """The gradient of the n-dimensional Rosenbrock function vanishes at the key's point, and f is 0 there (its minimum)."""
    for n in (2, 3, 5):
        expression, symbols = rosenbrock_expression(n)
        point = key(n)
        assert np.shape(point) == (n,)
        at = dict(zip(symbols, [float(value) for value in point]))
        assert float(expression.subs(at)) == 0.0
        assert all(float(sp.diff(expression, s).subs(at)) == 0.0 for s in symbols)


KEYS = {
    "expected_softmax_jacobian": Key(softmax, (np.array([1.0, 2.0, 3.0]),), 0, jacobian=True),
    "expected_tanh_layer_jacobians": Custom(per_example(
        lambda x, W: np.tanh(x @ W),
        [(RNG.normal(size=(4, 3)), RNG.normal(size=(3, 2))), (RNG.normal(size=(2, 3)), RNG.normal(size=(3, 3)))])),
    "expected_softmax_rows_jacobians": Custom(per_example(softmax, [(RNG.normal(size=(3, 4)),)])),
    "expected_square_jacobians": Custom(per_example(lambda x: x ** 2, [(RNG.normal(size=(3, 2)),)])),
    "expected_quadratic_hessian": Custom(check_quadratic_hessian),
    "expected_rosenbrock_hessian": Custom(check_2d_hessian(ROSENBROCK, [((1.0, 1.0), [[802.0, -400.0], [-400.0, 200.0]])])),
    "expected_cubic_hessian": Custom(check_2d_hessian(CUBIC, [((1.0, 2.0), [[4.0, 2.0], [2.0, 12.0]])])),
    "expected_logistic_hessian": Custom(check_logistic_hessian),
    "expected_quadratic_hvp": Custom(check_quadratic_hvp),
    "expected_sin_hvp": Custom(check_sin_hvp),
    "expected_quadratic_minimizer": Custom(check_quadratic_minimizer),
    "expected_rosenbrock_newton_step": Custom(check_rosenbrock_newton_step),
    "expected_rosenbrock_hvp": Custom(check_rosenbrock_hvp),
    "expected_top_eigenvalue": Custom(check_top_eigenvalue),
    "expected_quartic_top_eigenvalue": Custom(check_quartic_top_eigenvalue),
    "expected_rosenbrock_minimizer": Custom(check_rosenbrock_minimizer),
}
