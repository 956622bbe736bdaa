"""Answer keys of 04_higher_order, checked against SymPy.

Every key here is a second (or higher, or mixed) derivative, so each is compared with SymPy's
derivative of the primal written below, independently of the notebook, at float64 points.
"""
import numpy as np
import sympy as sp

from . import Custom

RNG = np.random.default_rng(104)
GRID = np.linspace(-3.0, 3.0, 25)
X, Y, T = sp.symbols("x y t", real=True)


def _values(expr, symbols, *points):
    """expr (a SymPy expression of `symbols`) at the points, broadcast to the points' shape, in float64."""
    function = sp.lambdify(symbols, expr, "numpy")
    shape = np.broadcast(*points).shape
    return np.broadcast_to(np.asarray(function(*points), dtype=np.float64), shape)


def _close(got, wanted, what):
    got = np.asarray(got, dtype=np.float64)
    assert got.shape == np.shape(wanted), f"{what}: shape {got.shape}, expected {np.shape(wanted)}"
    np.testing.assert_allclose(got, wanted, rtol=1e-10, atol=1e-10, err_msg=what)


def derivative(primal, order, grid=GRID):
    """The key(x) is the order-th derivative of primal(x) (a SymPy expression in X)."""
    def check(key):
        _close(key(grid), _values(sp.diff(primal, X, order), X, grid), f"d^{order}/dx^{order} {primal}")
        _close(key(grid[7]), _values(sp.diff(primal, X, order), X, grid[7]), f"{primal} at a scalar")
    return Custom(check)


def mixed(primal, points):
    """The key(x, y) is (dz/dx, d²z/dy dx) of z = primal(x, y) (a SymPy expression in X, Y)."""
    def check(key):
        x, y = points
        dz_dx = sp.diff(primal, X)
        got = key(x, y)
        assert len(got) == 2
        _close(got[0], _values(dz_dx, (X, Y), x, y), f"dz/dx of {primal}")
        _close(got[1], _values(sp.diff(dz_dx, Y), (X, Y), x, y), f"d2z/dydx of {primal}")
        scalar = key(x[0], y[0])
        _close(scalar[1], _values(sp.diff(dz_dx, Y), (X, Y), x[0], y[0]), f"d2z/dydx of {primal} at a scalar")
    return Custom(check)


def motion(position, grid, *args):
    """The key(t, *args) is (ds/dt, d²s/dt²) of s = position (a SymPy expression in T)."""
    def check(key):
        got = key(grid, *args)
        assert len(got) == 2
        _close(got[0], _values(sp.diff(position, T), T, grid), f"ds/dt of {position}")
        _close(got[1], _values(sp.diff(position, T, 2), T, grid), f"d2s/dt2 of {position}")
    return Custom(check)


def residual(u, grid=GRID, call=lambda key, x: key(x)):
    """The key is u'' + π²u for u (a SymPy expression in X)."""
    def check(key):
        _close(call(key, grid), _values(sp.diff(u, X, 2) + sp.pi ** 2 * u, X, grid), f"residual of {u}")
    return Custom(check)


def check_solution_residual(key):
    """u = a·sin(πx) + b·cos(πx) solves u'' + π²u = 0 (SymPy), and the key is 0 there."""
    a, b = sp.symbols("a b")
    u = a * sp.sin(sp.pi * X) + b * sp.cos(sp.pi * X)
    assert sp.simplify(sp.diff(u, X, 2) + sp.pi ** 2 * u) == 0
    _close(key(GRID), np.zeros_like(GRID), "zero residual")
    _close(key(1.5), np.zeros(()), "zero residual at a scalar")


W1, B1, W2 = RNG.normal(size=(3, 6))
B2 = RNG.normal()
NETWORK = sum(float(W2[j]) * sp.tanh(float(W1[j]) * X + float(B1[j])) for j in range(6)) + float(B2)


def check_nth(primal, orders, call):
    def check(key):
        for n in orders:
            _close(call(key, GRID, n), _values(sp.diff(primal, X, n), X, GRID), f"derivative {n} of {primal}")
    return Custom(check)


KEYS = {
    # Exercise 1
    "expected_tanh_second_derivative": derivative(sp.tanh(X), 2),
    "expected_cube_second_derivative": derivative(X ** 3, 2),
    "expected_square_second_derivative": derivative(X ** 2, 2),
    "expected_sin_second_derivative": derivative(sp.sin(X), 2),
    "expected_gauss_second_derivative": derivative(sp.exp(-X ** 2), 2),
    "expected_softplus_second_derivative": derivative(sp.log(1 + sp.exp(X)), 2),
    # Exercise 2
    "expected_seed_mixed_partial": mixed(X * Y ** 2, RNG.uniform(-2, 2, size=(2, 9))),
    "expected_sin_cube_mixed_partial": mixed(sp.sin(X) * Y ** 3, RNG.uniform(-2, 2, size=(2, 9))),
    "expected_exp_product_mixed_partial": mixed(sp.exp(X * Y), RNG.uniform(-1, 1, size=(2, 9))),
    "expected_quadratic_mixed_partial": mixed(X ** 2 * Y + Y, RNG.uniform(-3, 3, size=(2, 9))),
    # Exercise 3
    "expected_free_fall_motion": motion(sp.Rational(49, 10) * T ** 2, np.linspace(0, 3, 13)),
    "expected_spring_motion": motion(sp.sin(T), GRID),
    "expected_cubic_motion": motion(T ** 3 - 2 * T, GRID),
    "expected_decay_motion": motion(5 * sp.exp(-T / 2), np.linspace(0, 8, 17)),
    "expected_uniform_motion": motion(-sp.Rational(7, 4) * T + 3, GRID, -1.75, 3.0),
    # Exercise 4
    "expected_solution_residual": Custom(check_solution_residual),
    "expected_parabola_residual": residual(X ** 2),
    "expected_double_frequency_residual": residual(sp.sin(2 * sp.pi * X)),
    "expected_network_residual": residual(NETWORK, call=lambda key, x: key(x, W1, B1, W2, B2)),
    # Exercise 5
    "expected_sin_nth_derivative": check_nth(sp.sin(X), range(0, 8), lambda key, x, n: key(x, n)),
    "expected_power_nth_derivative": Custom(lambda key: [
        check_nth(X ** p, range(0, p + 1), lambda k, x, n, p=p: k(x, p, n)).check(key) for p in (1, 3, 5)]),
    "expected_exp_nth_derivative": Custom(lambda key: [
        check_nth(sp.exp(k * X), range(0, 6), lambda f, x, n, k=k: f(x, float(k), n)).check(key)
        for k in (2, sp.Rational(-1, 2))]),
    "expected_tanh_third_derivative": derivative(sp.tanh(X), 3),
}
