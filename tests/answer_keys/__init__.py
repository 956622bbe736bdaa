"""How each notebook's answer keys are checked (one module per notebook, `KEYS` in each).

An answer key is a top-level `expected_*` function in a grade cell: a closed form in NumPy float64.
tests/test_answer_keys.py reads every key out of the source notebooks and checks it against finite
differences of a primal function written here, independently of the notebook, so a wrong key
cannot ship.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass
class Key:
    """How to check one answer key against central finite differences.

    primal:   a NumPy function of the same arguments as the key.
    args:     the arguments to compare at.
    wrt:      the argument the key differentiates (its index), or {output key: index} for a key
              that returns a dict of gradients.
    jacobian: False: the key is the gradient of sum(primal) (for an elementwise function on a grid,
              the derivative at each point); True: the key is the Jacobian of primal, with shape
              primal's output shape + the argument's shape (a Hessian when primal is a gradient).
    """

    primal: Callable
    args: tuple
    wrt: int | dict = 0
    jacobian: bool = False


@dataclass
class Custom:
    """A key checked some other way (SymPy, a known value): `check(key)` asserts."""

    check: Callable


def numeric_derivative(f, args, index, jacobian=False, step=1e-6):
    """Central differences of f(*args) (summed unless jacobian) with respect to args[index]."""
    args = [np.array(a, dtype=np.float64) for a in args]
    x = args[index]
    out_shape = np.shape(f(*args)) if jacobian else ()
    result = np.zeros(out_shape + x.shape)
    for i in np.ndindex(x.shape):
        plus, minus = [a.copy() for a in args], [a.copy() for a in args]
        plus[index][i] += step
        minus[index][i] -= step
        difference = np.asarray(f(*plus)) - np.asarray(f(*minus))
        result[(...,) + i] = (difference if jacobian else np.sum(difference)) / (2 * step)
    return result
