"""Answer keys of 01_first_gradient."""
import numpy as np

from . import Key

RNG = np.random.default_rng(101)
GRID = np.linspace(-4.0, 4.0, 41)

KEYS = {
    "expected_square_slope": Key(lambda x: x**2, (np.array([-2.5, 0.0, 3.0]),)),
    "expected_sin_gauss_derivative": Key(lambda x: np.sin(x) * np.exp(-x**2 / 2), (GRID,)),
    "expected_cube_derivative": Key(lambda x: x**3, (GRID,)),
    "expected_tanh_derivative": Key(np.tanh, (GRID,)),
    "expected_softplus_derivative": Key(lambda x: np.log1p(np.exp(x)), (GRID,)),
    "expected_lstsq_gradients": Key(
        lambda X, y, w, b: np.sum((X @ w + b - y) ** 2),
        (RNG.normal(size=(5, 3)), RNG.normal(size=5), RNG.normal(size=3), np.float64(RNG.normal())),
        {"w": 2, "b": 3}),
    "expected_frozen_gradients": Key(
        lambda w, b, x: (np.dot(w, x) + b) ** 2,
        (RNG.normal(size=4), np.float64(RNG.normal()), RNG.normal(size=4)),
        {"w": 0, "b": 1, "x": 2}),
}
