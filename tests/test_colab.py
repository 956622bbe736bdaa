"""Where self-learners are: Colab's versions run the self-study edition, and a notebook saved by Colab grades.

The environment is tests/colab/requirements.txt on Python 3.12, built by `make colab-env` (which
`make test` runs) with nothing of the course installed. Without Python 3.12 on the machine, the
tests that need it are skipped and say how to get it.
"""
import json
import os
import subprocess
import uuid
from pathlib import Path

import nbformat
import pytest
from packaging.requirements import Requirement

from autograder import course
from autograder.grading import demo, grade_class

from conftest import ROOT, run_self_study_with_solutions
from submissions import full_marks

pytestmark = pytest.mark.notebooks
ASSIGNMENTS = [a.name for a in course.assignments(ROOT)]
COLAB_VENV = ROOT / ".colab-venv"
REQUIREMENTS = ROOT / "tests" / "colab" / "requirements.txt"


@pytest.fixture(scope="module")
def colab_kernel():
    """A kernelspec, in this test session's own Jupyter folder, for the Python of Colab's versions."""
    if not (COLAB_VENV / ".installed").exists():
        pytest.skip("Colab's environment is not built here: `make colab-env` builds it, and needs Python 3.12 "
                    "(`pyenv install 3.12`, or Debian's python3.12)")
    spec = Path(os.environ["JUPYTER_DATA_DIR"]) / "kernels" / "colab"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(COLAB_VENV / "bin" / "python"), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (Colab's versions)", "language": "python"}))
    return "colab"


def test_the_environment_has_colabs_versions_and_nothing_of_the_course(colab_kernel, tmp_path):
    pins = [Requirement(line) for line in REQUIREMENTS.read_text().splitlines() if line.strip() and not line.startswith("#")]
    report = ("import importlib.metadata, importlib.util, json, sys; print(json.dumps({'python': sys.version.split()[0], "
              "'course': importlib.util.find_spec('autograder') is not None, "
              "**{name: importlib.metadata.version(name) for name in sys.argv[1:]}}))")
    done = subprocess.run([COLAB_VENV / "bin" / "python", "-c", report, *[pin.name for pin in pins]],
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    assert found["python"].startswith("3.12."), found
    assert found["course"] is False, "the course's package is installed in Colab's environment"
    for pin in pins:
        assert pin.specifier.contains(found[pin.name], prereleases=True), f"{pin.name} {found[pin.name]} is not {pin}"


@pytest.mark.parametrize("name", ASSIGNMENTS)
def test_self_study_edition_runs_on_colabs_versions(colab_kernel, name):
    run_self_study_with_solutions(name, kernel_name=colab_kernel)


def colab_saved(nb, keep_nbgrader: bool):
    """`nb` as Colab writes it back: nbformat 4.0 with each cell's id in its metadata, Colab's own
    metadata (`colab`, `outputId`, the setup cell's `cellView` form) and the outputs of the student's
    run; with keep_nbgrader False, only the metadata Colab itself uses is kept (as notebook cleaners
    for Colab do)."""
    nb.nbformat_minor = 0
    nb.metadata = {"colab": {"provenance": [], "toc_visible": True},
                   "kernelspec": {"name": "python3", "display_name": "Python 3"},
                   "language_info": {"name": "python"}}
    for count, cell in enumerate(nb.cells, start=1):
        kept = {key: value for key, value in cell.metadata.items() if keep_nbgrader}
        cell.metadata = {**kept, "id": cell.pop("id")}
        if cell.cell_type == "code":
            cell.metadata["colab"] = {"base_uri": "https://localhost:8080/"}
            cell.metadata["outputId"] = str(uuid.uuid4())
            if cell.source.startswith("#@title"):
                cell.metadata["cellView"] = "form"
            cell.execution_count = count
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="what the student's run printed\n")]
    return nb


def test_a_notebook_saved_by_colab_grades_with_full_marks(tmp_path):
    name = "01_first_gradient"
    [a] = demo.make_course(ROOT, tmp_path, [name])
    for student, keep in (("kept_metadata", True), ("colab_metadata_only", False)):
        path = demo.submit(a, student)
        nb = colab_saved(nbformat.read(path, as_version=4), keep_nbgrader=keep)
        nbformat.write(nb, path)
        assert json.loads(path.read_text())["nbformat_minor"] == 0
    outcomes = {o.student: o for o in grade_class(name, tmp_path)}
    full = sum(full_marks(name).values())
    for student, outcome in outcomes.items():
        assert outcome.graded and outcome.score == outcome.max_score == full, (student, outcome)
    assert any("restored nbgrader metadata" in note for note in outcomes["colab_metadata_only"].notes), \
        outcomes["colab_metadata_only"].notes
