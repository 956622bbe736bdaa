"""Every notebook's self-study edition, run for real, works alone.

That the solutions pass every test and that no test passes on a stub is the round trip's (test_roundtrip):
its `correct` student gets every point of every grade id and its `blank` one none, each for the reason
the class report names, in the same execution that grades the class.
"""
import re

import nbformat
import pytest

from autograder import course
from autograder.build import HIDDEN_MARKER

from conftest import ROOT, run_self_study_with_solutions

ASSIGNMENTS = [a.name for a in course.assignments(ROOT)]
HIDDEN_BLOCK = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.DOTALL)


@pytest.mark.notebooks
@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_self_study_edition_runs_alone_with_its_solutions(name):
    """Top to bottom, every check passing, where `autograder` cannot be imported, no stderr anywhere."""
    run_self_study_with_solutions(name)


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_self_study_edition_shows_the_hidden_tests(name):
    a = course.Assignment(name, ROOT)
    source = "\n".join(cell.source for cell in nbformat.read(a.source, as_version=4).cells)
    study = "\n".join(cell.source for cell in nbformat.read(a.self_study, as_version=4).cells)
    hidden = HIDDEN_BLOCK.findall(source)
    assert hidden, f"{name} has no hidden tests"
    for block in hidden:
        assert block.strip() in study
    assert not HIDDEN_MARKER.search(study)
