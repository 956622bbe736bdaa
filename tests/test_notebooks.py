"""Every notebook, run for real: solutions pass, stubs fail, the self-study edition works alone."""
import re
import tempfile
from pathlib import Path

import nbformat
import pytest
from nbgrader.validator import Validator

from autograder import course
from autograder.build import HIDDEN_MARKER
from autograder.course import nbgrader_config
from autograder.execute import errors, run, stderr_outputs

from conftest import ROOT

ASSIGNMENTS = [a.name for a in course.assignments(ROOT)]
pytestmark = pytest.mark.notebooks
SOLUTION_CODE = re.compile(r"```python\n(.*?)\n```", re.DOTALL)
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


def with_solutions(nb):
    """The self-study notebook with each stub replaced by the solution shown after its tests."""
    stubs = {cell.id: cell for cell in nb.cells}
    replaced = 0
    for cell in nb.cells:
        stub_id = cell.metadata.get("course", {}).get("solution_for")
        if stub_id:
            stubs[stub_id].source = SOLUTION_CODE.search(cell.source).group(1)
            replaced += 1
    assert replaced, "no solutions found in the self-study edition"
    return nb


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_self_study_edition_runs_alone_with_its_solutions(name):
    """Top to bottom, every check passing, where `autograder` cannot be imported, no stderr anywhere."""
    a = course.Assignment(name, ROOT)
    nb = with_solutions(nbformat.read(a.self_study, as_version=4))
    assert "raise NotImplementedError()" not in "\n".join(cell.source for cell in nb.cells)
    blocker = nbformat.v4.new_code_cell('import sys\nsys.modules["autograder"] = None  # import autograder -> ImportError')
    nb.cells.insert(0, blocker)
    setup = next(i for i, cell in enumerate(nb.cells) if cell.source.startswith("#@title Setup"))
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(DOCTOR_COLLECTOR))
    nb.cells.append(nbformat.v4.new_code_cell('print("doctor:", sorted(set(_doctor_found)))'))
    with tempfile.TemporaryDirectory() as cwd:  # nothing of the repository beside it, as in Colab
        run(nb, Path(cwd), allow_errors=True)
    assert errors(nb) == []
    assert stderr_outputs(nb) == []
    said = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert said.startswith("doctor:"), said
    # Correct code raises no alarm: the only cause the doctor may name on the solutions is a None that is right.
    found = eval(said[len("doctor:"):])  # a printed list of (source, cause) pairs
    assert {cause for _, cause in found} <= {"none_is_correct"}, found


# Every check's TapeCalls block runs a quiet doctor; this keeps what it found on the solutions.
DOCTOR_COLLECTOR = """
_doctor_found = []
_exit_tape_calls = TapeCalls.__exit__
def _collecting_exit(self, *exc):
    result = _exit_tape_calls(self, *exc)
    _doctor_found.extend((finding.source, finding.cause) for finding in self._doctor.findings)
    return result
TapeCalls.__exit__ = _collecting_exit
"""


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
