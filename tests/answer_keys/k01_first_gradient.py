"""Answer keys of 01_first_gradient.

Keys of computations made while grading give the gradient a tape records (a custom gradient scaled by c, pieces
behind tf.stop_gradient or an integer cast left out): each is checked against finite differences of the function
the tape differentiates, as written here.
"""
import numpy as np

from . import Key

RNG = np.random.default_rng(101)
GRID = np.linspace(-4.0, 4.0, 41)
A, C = 1.3, -2.7

KEYS = {
    "expected_square_slope": Key(lambda x: x**2, (np.array([-2.5, 0.0, 3.0]),)),
    "expected_tanh_slope": Key(np.tanh, (np.array([-2.0, 0.0, 0.5]),)),
    # recorded: a·x² + c·sin(x) (the x³ piece is behind tf.stop_gradient, the step through an integer cast)
    "expected_recorded_slope": Key(lambda x, a, c: a * x**2 + c * np.sin(x), (GRID, A, C)),
    "expected_sin_gauss_derivative": Key(lambda x: np.sin(x) * np.exp(-x**2 / 2), (GRID,)),
    "expected_cube_derivative": Key(lambda x: x**3, (GRID,)),
    "expected_tanh_derivative": Key(np.tanh, (GRID,)),
    "expected_softplus_derivative": Key(lambda x: np.log1p(np.exp(x)), (GRID,)),
    # recorded: c × the least-squares loss (the residual's custom gradient is c times its own)
    "expected_lstsq_gradients": Key(
        lambda X, y, w, b, c: c * np.sum((X @ w + b - y) ** 2),
        (RNG.normal(size=(5, 3)), RNG.normal(size=5), RNG.normal(size=3), np.float64(RNG.normal()), C),
        {"w": 2, "b": 3}),
    "expected_frozen_gradients": Key(
        lambda w, b, x, c: c * (np.dot(w, x) + b) ** 2,
        (RNG.normal(size=4), np.float64(RNG.normal()), RNG.normal(size=4), C),
        {"w": 0, "b": 1, "x": 2}),
}
