"""Every answer key in the course (a top-level `expected_*` function in a grade cell) is checked
here against central finite differences of its primal function, in float64, so a wrong key cannot ship.

The primal functions below are written independently of the notebooks; the keys are read out of
the source notebooks themselves, so what is checked is exactly what grades the students.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable

import nbformat
import numpy as np
import pytest

from autograder import course

from conftest import ROOT

RNG = np.random.default_rng(20261130)


@dataclass
class Key:
    """How to check one answer key.

    primal: a NumPy function of the same arguments as the key; the key is the gradient of its sum
            (for an elementwise function on a grid, that is the derivative at each point).
    args:   the arguments to compare at.
    wrt:    the argument the key differentiates (its index), or {output key: index} for a key that
            returns a dict of gradients.
    """

    primal: Callable
    args: tuple
    wrt: int | dict = 0


GRID = np.linspace(-4.0, 4.0, 41)
KEYS: dict[tuple[str, str], Key] = {
    # 01_first_gradient
    ("01_first_gradient", "expected_square_slope"): Key(lambda x: x**2, (np.array([-2.5, 0.0, 3.0]),)),
    ("01_first_gradient", "expected_sin_gauss_derivative"): Key(lambda x: np.sin(x) * np.exp(-x**2 / 2), (GRID,)),
    ("01_first_gradient", "expected_cube_derivative"): Key(lambda x: x**3, (GRID,)),
    ("01_first_gradient", "expected_tanh_derivative"): Key(np.tanh, (GRID,)),
    ("01_first_gradient", "expected_softplus_derivative"): Key(lambda x: np.log1p(np.exp(x)), (GRID,)),
    ("01_first_gradient", "expected_lstsq_gradients"): Key(
        lambda X, y, w, b: np.sum((X @ w + b - y) ** 2),
        (RNG.normal(size=(5, 3)), RNG.normal(size=5), RNG.normal(size=3), np.float64(RNG.normal())),
        {"w": 2, "b": 3}),
    ("01_first_gradient", "expected_frozen_gradients"): Key(
        lambda w, b, x: (np.dot(w, x) + b) ** 2,
        (RNG.normal(size=4), np.float64(RNG.normal()), RNG.normal(size=4)),
        {"w": 0, "b": 1, "x": 2}),
}


def answer_keys(name):
    """{function name: function} of every top-level `expected_*` in the notebook's grade cells."""
    keys = {}
    for cell in nbformat.read(course.Assignment(name, ROOT).source, as_version=4).cells:
        if not cell.get("metadata", {}).get("nbgrader", {}).get("grade"):
            continue
        tree = ast.parse(cell.source)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("expected_"):
                namespace = {"np": np}
                exec(compile(ast.Module([node], type_ignores=[]), f"<{name}:{node.name}>", "exec"), namespace)
                keys[node.name] = namespace[node.name]
    return keys


def numeric_gradient(f, args, index, step=1e-6):
    """Central differences of sum(f(*args)) with respect to args[index], element by element."""
    args = [np.array(a, dtype=np.float64) for a in args]
    x = args[index]
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        plus, minus = [a.copy() for a in args], [a.copy() for a in args]
        plus[index][i] += step
        minus[index][i] -= step
        grad[i] = (np.sum(f(*plus)) - np.sum(f(*minus))) / (2 * step)
    return grad


ALL_KEYS = [(a.name, key) for a in course.assignments(ROOT) for key in answer_keys(a.name)]


def test_every_answer_key_is_registered_here():
    assert set(ALL_KEYS) == set(KEYS), "register each expected_* in KEYS (and remove keys no notebook has)"


@pytest.mark.parametrize("name, key", sorted(KEYS))
def test_answer_key_matches_finite_differences(name, key):
    case = KEYS[(name, key)]
    got = answer_keys(name)[key](*case.args)
    if isinstance(case.wrt, dict):
        assert set(got) == set(case.wrt)
        for out, index in case.wrt.items():
            np.testing.assert_allclose(got[out], numeric_gradient(case.primal, case.args, index), rtol=1e-6, atol=1e-6)
    else:
        np.testing.assert_allclose(got, numeric_gradient(case.primal, case.args, case.wrt), rtol=1e-6, atol=1e-6)
