"""Answer keys of 03_persistent_tapes."""
import numpy as np
import sympy as sp

from . import Custom, Key, numeric_derivative

RNG = np.random.default_rng(303)
GRID = np.linspace(-3.0, 3.0, 41)
X, Y = RNG.normal(size=6), RNG.normal(size=6)
# Exercise 5: a linear model and a small network on a random batch (8 examples, 3 features, 5 hidden units)
XL, TL, WL, BL = RNG.normal(size=(8, 3)), RNG.normal(size=8), RNG.normal(size=3), RNG.normal()
W1, C1, V1, D1 = RNG.normal(size=(3, 5)), RNG.normal(size=5), RNG.normal(size=5), RNG.normal()


def sympy_table(targets, symbols):
    """A Custom check for a key returning a table [[d t_i / d s_j]]: SymPy's partial derivatives and central
    differences at random numbers and arrays, with None exactly where t_i does not contain s_j."""

    def check(key):
        rng = np.random.default_rng(3030)
        for shape in [(), (5,)]:
            values = [rng.uniform(-2.0, 2.0, size=shape) for _ in symbols]
            table = key(*values)
            assert len(table) == len(targets), "a row per target"
            for i, target in enumerate(targets):
                assert len(table[i]) == len(symbols), f"row {i}: a column per source"
                primal = sp.lambdify(symbols, target, "numpy")
                for j, symbol in enumerate(symbols):
                    entry = table[i][j]
                    if symbol not in target.free_symbols:
                        assert entry is None, f"[{i}][{j}]: {target} does not contain {symbol}, the key must say None"
                        continue
                    assert entry is not None, f"[{i}][{j}]: {target} contains {symbol}"
                    assert np.shape(entry) == shape, f"[{i}][{j}]: shape {np.shape(entry)}, the source has {shape}"
                    exact = np.broadcast_to(sp.lambdify(symbols, sp.diff(target, symbol), "numpy")(*values), shape)
                    np.testing.assert_allclose(entry, exact, rtol=1e-12, atol=1e-12, err_msg=f"[{i}][{j}] vs SymPy")
                    numeric = numeric_derivative(primal, values, j)
                    np.testing.assert_allclose(entry, numeric, rtol=1e-6, atol=1e-6, err_msg=f"[{i}][{j}] vs differences")

    return Custom(check)


def network_mse(X, t, W, c, v, d):
    """mean((tanh(XW + c)·v + d - t)²), written independently of the key's backpropagation."""
    predictions = np.array([np.dot(np.tanh(row @ W + c), v) + d for row in X])
    return np.mean((predictions - t) ** 2)


x, y = sp.symbols("x y")
a, b, c = sp.symbols("a b c")
t = sp.symbols("t")

KEYS = {
    # Exercise 1: y = f(x), z = g(y)
    "expected_dy_dx": Key(lambda x: x**2, (GRID,)),
    "expected_dz_dx": Key(lambda x: (x**2) ** 2, (GRID,)),
    "expected_wave_dy_dx": Key(np.sin, (GRID,)),
    "expected_wave_dz_dx": Key(lambda x: np.exp(np.sin(x)), (GRID,)),
    "expected_bent_dy_dx": Key(lambda x: np.tanh(x) + x / 2, (GRID,)),
    "expected_bent_dz_dx": Key(lambda x: (np.tanh(x) + x / 2) ** 3 - (np.tanh(x) + x / 2), (GRID,)),
    # Exercise 2: two targets of two sources
    "expected_seed_dz_dx": Key(lambda x, y: x * x + y, (X, Y), 0),
    "expected_seed_dm_dy": Key(lambda x, y: y + y * y + x, (X, Y), 1),
    "expected_shared_dz_dx": Key(lambda x, y: np.sin(x * y) + x, (X, Y), 0),
    "expected_shared_dm_dy": Key(lambda x, y: (x * y) ** 2 - y, (X, Y), 1),
    # Exercise 3: one derivative per target
    "expected_sin_derivative": Key(np.sin, (GRID,)),
    "expected_cube_derivative": Key(lambda x: x**3, (GRID,)),
    "expected_exp_derivative": Key(np.exp, (GRID,)),
    "expected_tanh_derivative": Key(np.tanh, (GRID,)),
    "expected_tanh_square_derivative": Key(lambda x: np.tanh(x) ** 2, (GRID,)),
    "expected_sin_tanh_derivative": Key(lambda x: np.sin(np.tanh(x)), (GRID,)),
    "expected_logistic_derivative": Key(lambda x: 1.0 / (1.0 + np.exp(-x)), (GRID,)),
    "expected_logistic_tanh_derivative": Key(np.tanh, (GRID,)),
    "expected_softplus_derivative": Key(lambda x: np.log1p(np.exp(x)), (GRID,)),
    "expected_poly_derivative": Key(lambda x: x**2 + x**4, (GRID,)),
    # Exercise 4: tables
    "expected_seed_table": sympy_table([x * x + y, y + y**2 + x], [x, y]),
    "expected_three_table": sympy_table([a * b + c, sp.sin(a), b * c**2], [a, b, c]),
    "expected_exp_table": sympy_table([x * sp.exp(y)], [x, y]),
    "expected_power_table": sympy_table([t**2, t**4], [t]),
    # Exercise 5: a gradient per loss
    "expected_mse_gradients": Key(lambda X, t, w, b: np.mean((X @ w + b - t) ** 2), (XL, TL, WL, BL), {"w": 2, "b": 3}),
    "expected_mean_prediction_gradients": Key(lambda X, w, b: np.mean(X @ w + b), (XL, WL, BL), {"w": 1, "b": 2}),
    "expected_network_mse_gradients": Key(network_mse, (XL, TL, W1, C1, V1, D1), {"W": 2, "c": 3, "v": 4, "d": 5}),
}
