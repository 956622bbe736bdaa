"""Every answer key in the course is checked against finite differences (or SymPy), in float64.

The keys are read out of the source notebooks themselves, so what is checked is exactly what
grades the students; how each is checked lives in tests/answer_keys/kNN_name.py.
"""
import ast
import importlib

import nbformat
import numpy as np
import pytest

from answer_keys import Custom, numeric_derivative
from autograder import course

from conftest import ROOT

NAMES = [a.name for a in course.assignments(ROOT)]


def answer_keys(name):
    """{function name: function} of every top-level `expected_*` in the notebook's grade cells."""
    keys = {}
    for cell in nbformat.read(course.Assignment(name, ROOT).source, as_version=4).cells:
        if not cell.get("metadata", {}).get("nbgrader", {}).get("grade"):
            continue
        for node in ast.parse(cell.source).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("expected_"):
                # The closed form itself: the @answer_key guard (tested in test_checks) is left out.
                namespace = {"np": np, "answer_key": lambda function: function}
                exec(compile(ast.Module([node], type_ignores=[]), f"<{name}:{node.name}>", "exec"), namespace)
                keys[node.name] = namespace[node.name]
    return keys


def registry(name):
    return importlib.import_module(f"answer_keys.k{name}").KEYS


@pytest.mark.parametrize("name", NAMES)
def test_every_answer_key_is_registered(name):
    assert set(answer_keys(name)) == set(registry(name)), \
        f"tests/answer_keys/k{name}.py must list exactly the notebook's expected_* functions"


CASES = [(name, key) for name in NAMES for key in sorted(registry(name))]


@pytest.mark.parametrize("name, key", CASES)
def test_answer_key_matches_finite_differences(name, key):
    case = registry(name)[key]
    function = answer_keys(name)[key]
    if isinstance(case, Custom):
        case.check(function)
        return
    got = function(*case.args)
    wanted = ({out: index for out, index in case.wrt.items()} if isinstance(case.wrt, dict) else {None: case.wrt})
    if isinstance(case.wrt, dict):
        assert set(got) == set(case.wrt)
    for out, index in wanted.items():
        value = got if out is None else got[out]
        numeric = numeric_derivative(case.primal, case.args, index, case.jacobian)
        np.testing.assert_allclose(value, numeric, rtol=1e-6, atol=1e-6, err_msg=f"{key}[{out}]")
