"""Answer keys of 06_forward_mode.

Jacobians are checked against finite differences of the primal (the function itself, written here).
Directional derivatives ∇f·v, Hessian-vector products Hv and the pairs (∇f·v, vᵀHv) are checked
against SymPy's exact derivatives of the function, written here as a SymPy expression, at random points.
JVPs with respect to a model's parameters are checked against central differences of the model, written here in
NumPy, along the direction in parameter space.
"""
import numpy as np
import sympy as sp

from . import Custom, Key

RNG = np.random.default_rng(606)


def symbols(n):
    return sp.symbols(f"x0:{n}")


def exact(expression_of, x, v):
    """(∇f(x)·v, H(x)v, vᵀH(x)v) from SymPy, for f given as a function of a tuple of symbols."""
    x, v = np.asarray(x, dtype=np.float64), np.asarray(v, dtype=np.float64)
    xs = symbols(len(x))
    expression = expression_of(xs)
    at = dict(zip(xs, [float(value) for value in x]))
    gradient = np.array([float(sp.diff(expression, s).subs(at).evalf()) for s in xs])
    hessian = np.array(sp.hessian(expression, xs).subs(at).evalf(), dtype=np.float64)
    return gradient @ v, hessian @ v, v @ hessian @ v


def points(n_values, positive=False):
    """Random (x, v) pairs of the sizes given."""
    for n in n_values:
        x = RNG.uniform(0.2, 2.5, size=n) if positive else RNG.normal(size=n)
        yield x, RNG.normal(size=n)


def cubic(xs):
    return sum(s ** 3 for s in xs)


def logsumexp(xs):
    return sp.log(sum(sp.exp(s) for s in xs))


def norm(xs):
    return sp.sqrt(sum(s ** 2 for s in xs))


def rosenbrock(xs):
    return sum(100 * (xs[i + 1] - xs[i] ** 2) ** 2 + (1 - xs[i]) ** 2 for i in range(len(xs) - 1))


def power(xs):
    return sum(s ** sp.Rational(7, 2) for s in xs)


def check_directional(expression_of, n_values=(1, 3, 5), positive=False, known=()):
    def check(key):
        for x, v in points(n_values, positive):
            np.testing.assert_allclose(key(x, v), exact(expression_of, x, v)[0], rtol=1e-12, atol=1e-12)
        for args, value in known:
            np.testing.assert_allclose(key(*args), value, rtol=1e-12)
    return check


def check_quadratic_hvp(key):
    for n in (1, 2, 3, 5):
        A, x, v = RNG.normal(size=(n, n)), RNG.normal(size=n), RNG.normal(size=n)
        quadratic = lambda xs: (sp.Matrix(xs).T * sp.Matrix(A) * sp.Matrix(xs))[0]
        np.testing.assert_allclose(key(A, v), exact(quadratic, x, v)[1], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(key(np.array([[1.0, 2.0], [0.0, 3.0]]), np.array([1.0, -1.0])), [0.0, -4.0])


def check_logcosh_rank_one_hvp(key):
    for n in (1, 2, 4, 6):
        x, w, v = RNG.normal(size=n), RNG.normal(size=n), RNG.normal(size=n)
        f = lambda xs: sum(sp.log(sp.cosh(s)) for s in xs) + sum(wi * s for wi, s in zip(w, xs)) ** 2 / 2
        np.testing.assert_allclose(key(x, w, v), exact(f, x, v)[1], rtol=1e-12, atol=1e-12)


def check_sin_hvp(key):
    for x, v in points((1, 3, 6)):
        np.testing.assert_allclose(key(x, v), exact(lambda xs: sum(sp.sin(s) for s in xs), x, v)[1], rtol=1e-12,
                                   atol=1e-12)


def check_line(expression_of, positive=False, known=()):
    def check(key):
        for x, v in points((1, 2, 4), positive):
            first, _, second = exact(expression_of, x, v)
            np.testing.assert_allclose(key(x, v), (first, second), rtol=1e-12, atol=1e-12)
        for args, value in known:
            np.testing.assert_allclose(key(*args), value, atol=5e-5)
    return check


def check_quadratic_line(key):
    for n in (1, 2, 3):
        A, x, v = RNG.normal(size=(n, n)), RNG.normal(size=n), RNG.normal(size=n)
        quadratic = lambda xs: (sp.Matrix(xs).T * sp.Matrix(A) * sp.Matrix(xs))[0]
        first, _, second = exact(quadratic, x, v)
        np.testing.assert_allclose(key(A, x, v), (first, second), rtol=1e-12, atol=1e-12)


def softmax(z):
    e = np.exp(z - np.max(z))
    return e / np.sum(e)


def dense(x, kernel, bias):
    return x @ kernel + bias


def tanh_network(x, W1, b1, W2, b2):
    return np.tanh(x @ W1 + b1) @ W2 + b2


def along(primal, x, weights, direction, h=1e-6):
    """d/dt primal(x, *(weights + t·direction)) at t = 0, by central differences."""
    plus = primal(x, *[w + h * d for w, d in zip(weights, direction)])
    minus = primal(x, *[w - h * d for w, d in zip(weights, direction)])
    return (plus - minus) / (2 * h)


def check_parameter_jvp(primal, shapes, frozen=0):
    """Check a key against `along`: a dense key takes (x, one tangent per weight); a frozen one (x, the first `frozen`
    weights, which stay fixed, then one tangent per other weight); any other (x, the weights, one tangent per weight)."""
    def check(key):
        for batch, n_in in [(1, 3), (5, 3), (4, 3)]:
            weights = [RNG.normal(size=shape) for shape in shapes]
            direction = [RNG.normal(size=shape) for shape in shapes]
            for d in range(frozen):
                direction[d] = np.zeros(shapes[d])
            x = RNG.normal(size=(batch, n_in))
            wanted = along(primal, x, weights, direction)
            if primal is dense:
                got = key(x, *direction)
            elif frozen:
                got = key(x, *weights[:frozen], *direction[frozen:])
            else:
                got = key(x, *weights, *direction)
            np.testing.assert_allclose(got, wanted, rtol=1e-7, atol=1e-8)
    return check


KEYS = {
    "expected_cubic_directional": Custom(check_directional(
        cubic, known=[((np.array([1.0, 2.0, 3.0]), np.array([1.0, 0.0, -1.0])), -24.0)])),
    "expected_logsumexp_directional": Custom(check_directional(logsumexp)),
    "expected_norm_directional": Custom(check_directional(norm)),
    "expected_rosenbrock_directional": Custom(check_directional(
        rosenbrock, n_values=(2, 3, 6), known=[((np.array([1.0, 1.0]), np.array([0.3, -2.0])), 0.0)])),
    "expected_helix_jacobian": Key(lambda t: np.array([np.cos(t[0]), np.sin(t[0]), t[0] / 2]), (np.array([0.8]),), 0,
                                   jacobian=True),
    "expected_sine_family_jacobian": Key(lambda x, w: x[0] * np.sin(w * x[1]),
                                         (np.array([1.5, -0.7]), np.linspace(0.5, 3.0, 7)), 0, jacobian=True),
    "expected_tanh_layer_jacobian": Key(lambda A, x: np.tanh(A @ x), (RNG.normal(size=(4, 3)), RNG.normal(size=3)), 1,
                                        jacobian=True),
    "expected_softmax_jacobian": Key(softmax, (RNG.normal(size=5),), 0, jacobian=True),
    "expected_quadratic_hvp": Custom(check_quadratic_hvp),
    "expected_logcosh_rank_one_hvp": Custom(check_logcosh_rank_one_hvp),
    "expected_sin_hvp": Custom(check_sin_hvp),
    "expected_power_line_derivatives": Custom(check_line(
        power, positive=True, known=[((np.array([1.1]), np.array([1.0])), (4.4417, 10.0948))])),
    "expected_quadratic_line_derivatives": Custom(check_quadratic_line),
    "expected_logsumexp_line_derivatives": Custom(check_line(logsumexp)),
    "expected_dense_parameter_jvp": Custom(check_parameter_jvp(dense, [(3, 2), (2,)])),
    "expected_tanh_network_parameter_jvp": Custom(check_parameter_jvp(tanh_network, [(3, 4), (4,), (4, 2), (2,)])),
    "expected_frozen_layer_parameter_jvp": Custom(check_parameter_jvp(tanh_network, [(3, 4), (4,), (4, 2), (2,)], frozen=2)),
}
