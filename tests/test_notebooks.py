"""Every notebook, run for real: solutions pass, stubs fail, the self-study edition works alone."""
import re

import nbformat
import pytest
from nbgrader.validator import Validator

from autograder import course
from autograder.build import HIDDEN_MARKER
from autograder.course import nbgrader_config

from conftest import ROOT, run_self_study_with_solutions

ASSIGNMENTS = [a.name for a in course.assignments(ROOT)]
pytestmark = pytest.mark.notebooks
HIDDEN_BLOCK = re.compile(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", re.DOTALL)


def _validate(path, invert=False):
    return Validator(config=nbgrader_config(ROOT), invert=invert).validate(str(path))


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_source_passes_all_its_tests(name):
    """nbgrader's Validator API (the CLI exits 0 even on failure)."""
    assert _validate(course.Assignment(name, ROOT).source) == {}


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_release_fails_every_test(name):
    """No test passes on a stub."""
    assert _validate(course.Assignment(name, ROOT).release, invert=True) == {}


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
