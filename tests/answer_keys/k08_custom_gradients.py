"""Answer keys of 08_custom_gradients, checked against finite differences, SymPy and tf.clip_by_norm.

The gradients of Exercises 1 and 2 are central finite differences of primal functions written here (a
reversed gradient is the gradient of the primal times -λ, so its primal carries the factor). The clipped
gradients of Exercise 3 take their upstream from finite differences and their clipping from TensorFlow's
own tf.clip_by_norm. The wrong-gradient key of Exercise 4 is compared with the bugs the candidates were
built with, and each verdict with a finite-difference Jacobian.

The solvers' keys of Exercise 5 are checked against fixed points found here another way (plain iteration of
x <- g(x, θ) until it stops changing, not the notebook's bisection): each answer against the iterated one and the
equation's residual, each slope against central differences of the iterated answer at θ ± h (so the implicit
function theorem the keys use is never used here). The second derivatives of Exercise 6 are mixed second
differences of the primal (the Hessian times the direction, e_i·H·v, from four values each), and the directional
derivative a difference along the direction.
"""
import numpy as np
import sympy as sp

from . import Custom, Key, numeric_derivative

RNG = np.random.default_rng(108)
GRID = np.linspace(-3.0, 3.0, 13)
AWAY_FROM_ZERO = np.concatenate([np.linspace(-8.0, -0.5, 6), np.linspace(0.5, 8.0, 6)])
X = sp.Symbol("x", real=True)


def _close(got, wanted, what, rtol=1e-6, atol=1e-6):
    got, wanted = np.asarray(got, dtype=np.float64), np.asarray(wanted, dtype=np.float64)
    assert got.shape == wanted.shape, f"{what}: shape {got.shape}, expected {wanted.shape}"
    np.testing.assert_allclose(got, wanted, rtol=rtol, atol=atol, err_msg=what)


def check_sin_product(key):
    """The key is x·sin x (SymPy), on a grid and at a scalar."""
    values = sp.lambdify(X, X * sp.sin(X), "numpy")
    _close(key(GRID), values(GRID), "x sin x", rtol=1e-12, atol=1e-12)
    _close(key(GRID.reshape(1, -1)), values(GRID).reshape(1, -1), "x sin x on a 2-D array", rtol=1e-12, atol=1e-12)


def _clip(vector, max_norm):
    """TensorFlow's own clip_by_norm, in float64."""
    import tensorflow as tf

    return tf.clip_by_norm(tf.constant(vector, tf.float64), max_norm).numpy()


def check_clipped_upstream(key):
    """The key is the gradient of Σ w·x (finite differences) clipped by tf.clip_by_norm, below and above the limit."""
    for shape in [(6,), (3, 4)]:
        w = RNG.normal(size=shape)
        upstream = numeric_derivative(lambda x: w * x, (np.ones(shape),), 0)
        norm = np.linalg.norm(w)
        for max_norm in [0.1 * norm, 0.5 * norm, norm, 2.0 * norm]:
            _close(key(w, max_norm), _clip(upstream, max_norm), f"clipped upstream, shape {shape}, max_norm {max_norm:.3g}")


def check_clipped_chain(key):
    """The key is: upstream of Σ w·z² at z = 3x (finite differences), tf.clip_by_norm, times dz/dx = 3 (finite differences)."""
    x = np.linspace(-1.0, 1.0, 8)
    w = RNG.uniform(0.5, 1.5, size=8)
    for max_norm in [0.5, 1.0, 1e3]:
        upstream = numeric_derivative(lambda z: w * z ** 2, (3.0 * x,), 0)
        dz_dx = numeric_derivative(lambda v: 3.0 * v, (x,), 0)
        _close(key(x, w, max_norm), dz_dx * _clip(upstream, max_norm), f"clipped chain, max_norm {max_norm}")


def check_clipped_dense(key):
    """The key is: upstream of Σ tanh(x @ K) with respect to x (finite differences), clipped by tf.clip_by_norm."""
    x = RNG.normal(size=(4, 3))
    kernel = RNG.normal(size=(3, 5))
    for max_norm in [0.5, 100.0]:
        upstream = numeric_derivative(lambda v: np.tanh(v @ kernel), (x,), 0)
        _close(key(x, kernel, max_norm), _clip(upstream, max_norm), f"clipped dense, max_norm {max_norm}")


FORWARD = {"sin": lambda a, x: np.sin(a * x), "exp": lambda a, x: np.exp(a * x), "cube": lambda a, x: a * x ** 3,
           "tanh": lambda a, x: np.tanh(a * x), "log1pexp": lambda a, x: np.logaddexp(0.0, a * x)}


def check_wrong_candidates(key):
    """The key names exactly the candidates built with a bug, and each verdict agrees with a finite-difference
    Jacobian: the hand-written Jacobian (from the bug applied to the numeric one) is off by more than 1e-4."""
    bugs = [None, "sign", "factor", "upstream"]
    for trial in range(6):
        n = int(RNG.integers(3, 6))
        x = RNG.uniform(-1.0, 1.0, size=n)
        specs = {f"c{i}": (str(RNG.choice(list(FORWARD))), float(RNG.uniform(1.5, 2.5)), bugs[int(RNG.integers(4))])
                 for i in range(8)}
        assert key(specs, x) == {name for name, (_, _, bug) in specs.items() if bug is not None}, specs
        for name, (kind, a, bug) in specs.items():
            jacobian = numeric_derivative(lambda v: FORWARD[kind](a, v), (x,), 0, jacobian=True)
            given = {None: jacobian, "sign": -jacobian, "factor": jacobian / a,
                     "upstream": np.tile(np.diag(jacobian), (n, 1))}[bug]
            assert (np.max(np.abs(given - jacobian)) > 1e-4) == (name in key(specs, x)), (name, specs[name])
    assert key({"a": ("sin", 2.0, None)}, np.array([0.1, 0.2, 0.3])) == set()
    assert key({"b": ("exp", 2.0, "upstream")}, np.array([0.3, -0.2, 0.5])) == {"b"}


# ---------------------------------------------------------------- Exercise 5: fixed points, solved here by iteration

def iterate_to_fixed_point(g, x0, count=5000):
    """x <- g(x) from x0, `count` times, then the last iterates must agree: no bisection, no formula of the answer."""
    x = np.array(x0, dtype=np.float64)
    for _ in range(count):
        x = g(x)
    assert np.allclose(g(x), x, rtol=0.0, atol=1e-14), "the iteration did not settle"
    return x


def kepler_by_iteration(M, e):
    """E = M + e·sin E (|e| < 1: a contraction), by iteration from E = 0."""
    M = np.asarray(M, dtype=np.float64)
    return iterate_to_fixed_point(lambda E: M + e * np.sin(E), np.zeros_like(M))


def tanh_by_iteration(theta, w):
    """x = tanh(w·x + θ) (|w| < 1: a contraction, |tanh'| <= 1), by iteration from x = 0."""
    theta = np.asarray(theta, dtype=np.float64)
    return iterate_to_fixed_point(lambda x: np.tanh(w * x + theta), np.zeros_like(theta))


def cos_by_iteration(theta):
    """x = θ·cos x (0 < θ <= 1: |θ sin x| <= sin 1 < 1 near the answer), by iteration from x = 0."""
    theta = np.asarray(theta, dtype=np.float64)
    return iterate_to_fixed_point(lambda x: theta * np.cos(x), np.zeros_like(theta))


def continued_fraction_by_iteration(theta):
    """x = θ/(1 + x) for θ > 0, the positive answer, by iteration from x = 1 (|∂g/∂x| = x/(1 + x) < 1 there)."""
    theta = np.asarray(theta, dtype=np.float64)
    return iterate_to_fixed_point(lambda x: theta / (1.0 + x), np.ones_like(theta))


def newton_sqrt_by_iteration(a):
    """Newton's x <- (x + a/x)/2 from x = 1 + a, the checks' own g, iterated here."""
    a = np.asarray(a, dtype=np.float64)
    return iterate_to_fixed_point(lambda x: 0.5 * (x + a / x), 1.0 + a, count=200)


def slope_by_differences(solve, theta, h=1e-5):
    """d x(θ)/dθ entry by entry: central differences of the answer solved at θ + h and θ - h."""
    theta = np.asarray(theta, dtype=np.float64)
    return (solve(theta + h) - solve(theta - h)) / (2.0 * h)


def check_kepler_anomaly(key):
    """The key solves E = M + e·sin E: equal to the iterated answer, with a residual of rounding size, e = 0 gives M."""
    for M, e in [(np.linspace(0.0, 3.0, 13), 0.5), (np.linspace(0.0, 1.5, 7), 0.9),
                 (np.linspace(-7.0, 9.0, 12).reshape(3, 4), 0.7), (np.linspace(0.0, 2.0 * np.pi, 9), 0.0)]:
        got = key(M, e)
        _close(got, kepler_by_iteration(M, e), f"Kepler's E for e = {e}", rtol=1e-12, atol=1e-12)
        _close(got - e * np.sin(got), M, f"the residual E - e·sin E - M for e = {e}", rtol=0.0, atol=1e-12)
    _close(key(np.linspace(0.0, 3.0, 13, dtype=np.float32), 0.5),
           kepler_by_iteration(np.linspace(0.0, 3.0, 13, dtype=np.float32), 0.5), "Kepler's E from a float32 M",
           rtol=1e-12, atol=1e-12)


def check_weighted_kepler_slope(key):
    """w · dE/dM by central differences of E solved by iteration at M ± h, for several e (and none of them a
    factor the key could be off by everywhere)."""
    for M, e in [(np.linspace(0.0, 3.0, 13), 0.5), (np.linspace(0.0, 1.5, 7), 0.9),
                 (np.linspace(-7.0, 9.0, 12).reshape(3, 4), 0.7), (np.linspace(0.0, 3.0, 5), 0.0)]:
        w = RNG.uniform(-2.0, 2.0, size=M.shape)
        _close(key(M, e, w), w * slope_by_differences(lambda m: kepler_by_iteration(m, e), M),
               f"w·dE/dM for e = {e}")
    M = np.linspace(0.0, 3.0, 13, dtype=np.float32)
    w = RNG.uniform(0.5, 2.0, size=M.shape).astype(np.float32)
    _close(key(M, 0.5, w), w.astype(np.float64) * slope_by_differences(lambda m: kepler_by_iteration(m, 0.5), M),
           "w·dE/dM from float32 M and w")


def check_weighted_newton_sqrt_slope(key):
    """w · d√a/da by central differences of the answer of Newton's iteration (the checks' g) at a ± h."""
    for a in [np.linspace(0.25, 16.0, 12).reshape(3, 4), np.linspace(0.01, 100.0, 7)]:
        w = RNG.normal(size=a.shape)
        _close(newton_sqrt_by_iteration(a) ** 2, a, "Newton's iteration solves x² = a", rtol=1e-14, atol=0.0)
        _close(key(a, w), w * slope_by_differences(newton_sqrt_by_iteration, a, h=1e-6 * np.maximum(a, 1.0)),
               "w·d√a/da")


def check_tanh_fixed_point(key):
    """The key solves x = tanh(w·x + θ): equal to the iterated answer, residual of rounding size."""
    for theta, w in [(np.linspace(-2.0, 2.0, 12).reshape(3, 4), 0.8), (np.linspace(-1.0, 1.0, 9), -0.9),
                     (np.linspace(-2.0, 2.0, 12).reshape(3, 4), 0.5), (np.linspace(-3.0, 3.0, 7), 0.0)]:
        got = key(theta, w)
        _close(got, tanh_by_iteration(theta, w), f"x = tanh({w}x + θ)", rtol=1e-12, atol=1e-12)
        _close(got - np.tanh(w * got + theta), np.zeros_like(theta), f"the residual for w = {w}", rtol=0.0, atol=1e-12)
    theta32 = np.linspace(-1.0, 1.0, 9, dtype=np.float32)
    _close(key(theta32, -0.9), tanh_by_iteration(theta32, -0.9), "x = tanh(-0.9x + θ) from a float32 θ",
           rtol=1e-12, atol=1e-12)


def check_weighted_tanh_fixed_point_slope(key):
    """v · dx/dθ by central differences of the iterated answer of x = tanh(w·x + θ) at θ ± h."""
    for theta, w in [(np.linspace(-2.0, 2.0, 12).reshape(3, 4), 0.8), (np.linspace(-1.0, 1.0, 9), -0.9),
                     (np.linspace(-2.0, 2.0, 12).reshape(3, 4), 0.5), (np.linspace(-3.0, 3.0, 7), 0.0)]:
        v = RNG.uniform(-2.0, 2.0, size=theta.shape)
        _close(key(theta, w, v), v * slope_by_differences(lambda t: tanh_by_iteration(t, w), theta),
               f"v·dx/dθ for x = tanh({w}x + θ)")
    theta32 = np.linspace(-1.0, 1.0, 9, dtype=np.float32)
    v32 = RNG.uniform(0.5, 2.0, size=theta32.shape).astype(np.float32)
    _close(key(theta32, -0.9, v32), v32.astype(np.float64) * slope_by_differences(lambda t: tanh_by_iteration(t, -0.9), theta32),
           "v·dx/dθ from float32 θ and v")


def check_weighted_cos_fixed_point_slope(key):
    """v · dx/dθ by central differences of the iterated answer of x = θ·cos x at θ ± h."""
    for theta in [np.linspace(0.2, 1.0, 9), np.linspace(0.05, 1.0, 12).reshape(4, 3)]:
        v = RNG.normal(size=theta.shape)
        _close(key(theta, v), v * slope_by_differences(cos_by_iteration, theta), "v·dx/dθ for x = θ·cos x")


def check_continued_fraction_slope(key):
    """dx/dθ by central differences of the iterated answer of x = θ/(1 + x) at θ ± h; 1/3 at θ = 2 (x = 1)."""
    _close(continued_fraction_by_iteration(2.0), 1.0, "x = 2/(1 + x) is x = 1", rtol=0.0, atol=1e-14)
    for theta in [np.float64(2.0), np.linspace(0.1, 10.0, 8), np.linspace(0.5, 6.0, 6).reshape(2, 3)]:
        _close(key(theta), slope_by_differences(continued_fraction_by_iteration, theta), "dx/dθ for x = θ/(1 + x)")
    _close(key(2.0), 1.0 / 3.0, "dx/dθ at θ = 2", rtol=1e-9, atol=1e-9)


# ---------------------------------------------------------------- Exercise 6: second derivatives by second differences

def hessian_times(primal, x, v, h=1e-4):
    """H·v for the Hessian H of Σ primal(x), entry i as the mixed second difference
    [P(x + h e_i + h v) - P(x + h e_i - h v) - P(x - h e_i + h v) + P(x - h e_i - h v)] / 4h², P = Σ primal.

    The four values are summed after subtracting entry by entry, so the entries that do not move with x_i cancel
    exactly and only entry i's rounding is divided by h²."""
    x, v = np.asarray(x, dtype=np.float64), np.asarray(v, dtype=np.float64)
    result = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[i] = h
        values = [np.asarray(primal(x + a * step + b * h * v), dtype=np.float64) for a, b in
                  [(1, 1), (1, -1), (-1, 1), (-1, -1)]]
        result[i] = np.sum(values[0] - values[1] - values[2] + values[3]) / (4.0 * h * h)
    return result


def check_weighted_sin_product_curvature(key):
    """v·w·(x sin x)'' is H·v for the Hessian of Σ w·x·sin x (mixed second differences), at several x, w, v."""
    for x in [GRID, np.linspace(-3.0, 3.0, 25, dtype=np.float32).astype(np.float64), np.linspace(-2.0, 2.0, 6).reshape(2, 3)]:
        w, v = RNG.uniform(-2.0, 2.0, size=x.shape), RNG.uniform(0.5, 2.0, size=x.shape)
        _close(key(x, w, v), hessian_times(lambda a: w * a * np.sin(a), x, v), "v·w·(x sin x)''", rtol=1e-6, atol=1e-6)


def check_cbrt_curvature(key):
    """The cube root's second derivative is H·1 for the Hessian of Σ ∛x (mixed second differences), away from 0
    (both signs), and SymPy's d²/dx² x^(1/3) for x > 0."""
    for x in [AWAY_FROM_ZERO, np.concatenate([np.linspace(-4.0, -0.5, 6), np.linspace(0.5, 4.0, 6)]).reshape(3, 4)]:
        _close(key(x), hessian_times(np.cbrt, x, np.ones_like(x), h=1e-5), "(∛x)''", rtol=1e-5, atol=1e-6)
    positive = np.linspace(0.3, 8.0, 9)
    sympy_form = sp.lambdify(X, sp.diff(sp.root(X, 3), X, 2), "numpy")
    _close(key(positive), sympy_form(positive), "(∛x)'' against SymPy", rtol=1e-12, atol=1e-12)


def check_log1p_square_jvp(key):
    """The directional derivative of log(1 + x²) along u: [f(x + h u) - f(x - h u)] / 2h, entry by entry."""
    for x in [np.linspace(-2.0, 2.0, 6).reshape(2, 3), np.linspace(-5.0, 5.0, 11)]:
        u = RNG.normal(size=x.shape)
        f = lambda a: np.log1p(a ** 2)
        h = 1e-6
        _close(key(x, u), (f(x + h * u) - f(x - h * u)) / (2.0 * h), "the jvp of log(1 + x²) along u")


def check_weighted_log1p_square_hvp(key):
    """The derivative along u of the gradient of Σ w·log(1 + x²) is H·u (mixed second differences)."""
    for x in [np.linspace(-2.0, 2.0, 6).reshape(2, 3), np.linspace(-5.0, 5.0, 11)]:
        w, u = RNG.uniform(0.5, 2.0, size=x.shape), RNG.normal(size=x.shape)
        _close(key(x, w, u), hessian_times(lambda a: w * np.log1p(a ** 2), x, u), "the hvp of Σ w·log(1 + x²) along u")


W = RNG.normal(size=13)
COEFFICIENTS = RNG.uniform(-1.0, 1.0, size=4)

KEYS = {
    # Exercise 1
    "expected_sin_product": Custom(check_sin_product),
    "expected_weighted_sin_product_gradient": Key(lambda x, w: w * x * np.sin(x), (GRID, W)),
    "expected_tanh_of_polynomial_gradient": Key(lambda x, c: np.tanh(np.polyval(c, x)),
                                                (np.linspace(-1.5, 1.5, 12).reshape(3, 4), COEFFICIENTS)),
    "expected_squared_cbrt_gradient": Key(lambda x: np.cbrt(x) ** 2, (AWAY_FROM_ZERO,)),
    "expected_tripled_cbrt_gradient": Key(lambda x: 3.0 * np.cbrt(x), (AWAY_FROM_ZERO,)),
    # Exercise 2: the reversed gradient is -λ (or λ1·λ2 for two reversals) times the primal's gradient
    "expected_reversed_sin_gradient": Key(lambda x, w, lam: -lam * w * np.sin(x), (GRID, W, 0.7)),
    "expected_reversed_exp_gradient": Key(lambda x, lam: -lam * np.exp(0.5 * x), (GRID.reshape(1, -1), 2.5)),
    "expected_reversed_square_gradient": Key(lambda x, w, lam: -lam * w * x ** 2, (GRID, W, 1.5)),
    "expected_double_reversal_gradient": Key(lambda x, w, l1, l2: l1 * l2 * w * np.tanh(x), (GRID, W, 0.5, 3.0)),
    # Exercise 3
    "expected_clipped_upstream": Custom(check_clipped_upstream),
    "expected_clipped_chain_gradient": Custom(check_clipped_chain),
    "expected_clipped_dense_gradient": Custom(check_clipped_dense),
    # Exercise 4
    "expected_wrong_candidates": Custom(check_wrong_candidates),
    # Exercise 5: the answers of the fixed-point equations, and their slopes by differences of answers solved here
    "expected_kepler_anomaly": Custom(check_kepler_anomaly),
    "expected_weighted_kepler_slope": Custom(check_weighted_kepler_slope),
    "expected_weighted_newton_sqrt_slope": Custom(check_weighted_newton_sqrt_slope),
    "expected_tanh_fixed_point": Custom(check_tanh_fixed_point),
    "expected_weighted_tanh_fixed_point_slope": Custom(check_weighted_tanh_fixed_point_slope),
    "expected_weighted_cos_fixed_point_slope": Custom(check_weighted_cos_fixed_point_slope),
    "expected_continued_fraction_slope": Custom(check_continued_fraction_slope),
    # Exercise 6: first derivatives by differences of the primal, second ones by mixed second differences
    "expected_weighted_sin_product_slope": Key(lambda x, w: w * x * np.sin(x), (GRID, W)),
    "expected_weighted_sin_product_curvature": Custom(check_weighted_sin_product_curvature),
    "expected_cbrt_curvature": Custom(check_cbrt_curvature),
    "expected_log1p_square_jvp": Custom(check_log1p_square_jvp),
    "expected_weighted_log1p_square_hvp": Custom(check_weighted_log1p_square_hvp),
}
