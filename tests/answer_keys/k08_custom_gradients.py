"""Answer keys of 08_custom_gradients, checked against finite differences, SymPy and tf.clip_by_norm.

The gradients of Exercises 1 and 2 are central finite differences of primal functions written here (a
reversed gradient is the gradient of the primal times -λ, so its primal carries the factor). The clipped
gradients of Exercise 3 take their upstream from finite differences and their clipping from TensorFlow's
own tf.clip_by_norm. The wrong-gradient key of Exercise 4 is compared with the bugs the candidates were
built with, and each verdict with a finite-difference Jacobian.
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
}
