"""Shared fixtures: an isolated Jupyter, and a tiny course to test the build and lint on."""
from __future__ import annotations

import importlib
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

import nbformat
import pytest

from autograder import course
from autograder.execute import errors, run, stderr_outputs
from autograder.setup_cell import setup_cell_metadata

ROOT = course.ROOT


@pytest.fixture(autouse=True, scope="session")
def isolated_jupyter(tmp_path_factory):
    """Keep Jupyter's per-user files out of the home folder, and put the environment's bin/ first
    on PATH (nbgrader runs `alembic` as a subprocess)."""
    home = tmp_path_factory.mktemp("jupyter")
    saved = dict(os.environ)
    os.environ.update({
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "TF_CPP_MIN_LOG_LEVEL": "3",
        "TF_ENABLE_ONEDNN_OPTS": "0",
        "MPLBACKEND": "Agg",
        "PATH": str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
    })
    yield
    os.environ.clear()
    os.environ.update(saved)


def _expected_minutes(item) -> tuple:
    """How long `item` is expected to take, as a sort key: the browser tests (one worker's share, both
    JupyterLabs), then the round trips by class size, then every other notebook execution and the doctor's
    corpus, then the rest."""
    if item.get_closest_marker("browser"):
        return (0,)
    if item.get_closest_marker("notebooks"):
        if item.originalname == "test_every_synthetic_submission_gets_its_exact_score":
            cases = importlib.import_module(f"submissions.{item.callspec.params['name']}").SUBMISSIONS
            return (1, -len(cases))
        return (2,)
    group = item.get_closest_marker("xdist_group")
    if group is not None and group.args == ("doctor_corpus",):  # minutes on one worker: not left for the end
        return (2,)
    return (3,)


def pytest_collection_modifyitems(items):
    """The slowest first, so that no worker is left with a long test at the end while the other idles."""
    items.sort(key=_expected_minutes)


def pytest_collection_finish(session):
    """Under `--dist loadgroup` (make test) every test of a group must run on one worker: the browser
    tests share one graded demo class and never start two JupyterLabs at once. pytest-xdist marks a group
    in each test's id; where it could not (a pytest it does not know), stop rather than run ungrouped."""
    if not getattr(session.config.option, "loadgroup", False):  # set on xdist's workers under loadgroup
        return
    lost = [item.nodeid for item in session.items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(f"pytest-xdist could not group {len(lost)} tests (first: {lost[0]}): "
                                "install the pytest that pyproject.toml pins (`make env`)")


class Lab(NamedTuple):
    """A JupyterLab the browser tests are served by: its environment's Python, and where its screenshots go."""
    python: str
    artifacts: Path


ARTIFACTS = ROOT / ".artifacts"
LAB_FLOOR_PYTHON = ROOT / ".lab-floor-venv" / "bin" / "python"


@pytest.fixture(scope="session", params=["newest", "floor"], ids=["lab-newest", "lab-floor"])
def lab(request):
    """Every browser test runs twice in one session: with .venv's JupyterLab (the newest the course allows)
    and with the oldest one it allows (tests/lab-floor/requirements.txt, built by `make lab-floor-env`),
    whose server has no TensorFlow while the notebooks' kernel stays this Python."""
    if request.param == "newest":
        return Lab(sys.executable, ARTIFACTS)
    if not LAB_FLOOR_PYTHON.exists():
        why = f"the oldest JupyterLab's environment is not built: `make lab-floor-env` builds {LAB_FLOOR_PYTHON.parent.parent.name}/"
        if os.environ.get("COURSE_REQUIRE_LAB_FLOOR"):  # `make test` builds it: there, missing is a failure
            pytest.fail(why)
        pytest.skip(why)
    return Lab(str(LAB_FLOOR_PYTHON), ARTIFACTS / "lab-floor")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A browser test that fails leaves a screenshot of what the browser showed (a timeout says only what
    it waited for), <artifacts>/FAILED-<test>.png, and the page's last text in the report (CI keeps only that)."""
    outcome = yield
    report = outcome.get_result()
    page = item.funcargs.get("page") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and page is not None:
        lab = item.funcargs.get("lab")
        folder = lab.artifacts if isinstance(lab, Lab) else ARTIFACTS
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / ("FAILED-" + re.sub(r"[^\w.-]+", "_", item.name) + ".png")
        try:
            page.screenshot(path=str(path), full_page=True)
            report.sections.append(("screenshot", f"{path}\n{page.url}\n...{page.inner_text('body')[-3000:]}"))
        except Exception as error:  # a closed browser: the failure itself says enough
            report.sections.append(("screenshot", f"none: {error}"))


def markdown(source, cell_id, **nbgrader):
    cell = nbformat.v4.new_markdown_cell(source)
    cell.id = cell_id
    if nbgrader:
        cell.metadata["nbgrader"] = {"grade": False, "locked": True, "schema_version": 3, "solution": False,
                                     "task": False, **nbgrader}
    return cell


def code(source, cell_id, **nbgrader):
    cell = nbformat.v4.new_code_cell(source)
    cell.id = cell_id
    if nbgrader:
        cell.metadata["nbgrader"] = {"grade": False, "locked": False, "schema_version": 3, "solution": False,
                                     "task": False, **nbgrader}
        if nbgrader.get("locked"):
            cell.metadata.update({"deletable": False, "editable": False})
    return cell


def tiny_notebook(name="01_demo"):
    """A one-exercise notebook with every kind of cell the build and lint care about."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    setup = code("", "setup")
    setup.metadata.update(setup_cell_metadata(name))
    nb.cells = [
        markdown(f"# {name[:2]} · A demo\n\n> Double a number.", "title"),
        setup,
        markdown("### Exercise 1 · double (1 point)", "ex1-prompt", grade_id=f"{name}_double_prompt"),
        code("def double(x):\n    \"\"\"Twice x.\"\"\"\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION",
             "ex1-solution", solution=True, grade_id=f"{name}_double"),
        code("double(3)", "ex1-try"),
        code('"""double doubles."""\nassert double(1) == 2\n### BEGIN HIDDEN TESTS\nassert double(-4) == -8\n'
             "### END HIDDEN TESTS", "ex1-test", grade=True, locked=True, points=1, grade_id=f"{name}_double_values"),
        markdown("## Summary", "summary"),
    ]
    return nb


@pytest.fixture
def tiny_course(tmp_path):
    """A course folder with one tiny notebook, the real nbgrader_config.py and a README with the map markers."""
    for name in ("nbgrader_config.py", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    readme = (ROOT / "README.md").read_text()
    start, end = readme.index("<!-- course-map:start"), readme.index("<!-- course-map:end -->")
    (tmp_path / "README.md").write_text("# Tiny\n\n" + readme[start:readme.index("\n", start) + 1] + readme[end:])
    a = course.Assignment("01_demo", tmp_path)
    a.source.parent.mkdir(parents=True)
    nbformat.write(tiny_notebook(), a.source)
    return tmp_path


SOLUTION_CODE = re.compile(r"```python\n(.*?)\n```", re.DOTALL)


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


def run_self_study_with_solutions(name: str, kernel_name: str = "python3") -> None:
    """Run notebook `name`'s self-study edition, every exercise solved and every check (hidden ones
    too) visible, in an empty folder where `autograder` cannot be imported; no error, no stderr, and
    the gradient doctor raising no alarm on correct code."""
    a = course.Assignment(name, ROOT)
    nb = with_solutions(nbformat.read(a.self_study, as_version=4))
    assert "raise NotImplementedError()" not in "\n".join(cell.source for cell in nb.cells)
    blocker = nbformat.v4.new_code_cell('import sys\nsys.modules["autograder"] = None  # import autograder -> ImportError')
    nb.cells.insert(0, blocker)
    setup = next(i for i, cell in enumerate(nb.cells) if cell.source.startswith("#@title Setup"))
    nb.cells.insert(setup + 1, nbformat.v4.new_code_cell(DOCTOR_COLLECTOR))
    nb.cells.append(nbformat.v4.new_code_cell('print("doctor:", sorted(set(_doctor_found)))'))
    with tempfile.TemporaryDirectory() as cwd:  # nothing of the repository beside it, as in Colab
        run(nb, Path(cwd), allow_errors=True, kernel_name=kernel_name)
    assert errors(nb) == []
    assert stderr_outputs(nb) == []
    said = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert said.startswith("doctor:"), said
    # Correct code raises no alarm: the only cause the doctor may name on the solutions is a None that is right.
    found = eval(said[len("doctor:"):])  # a printed list of (source, cause) pairs
    assert {cause for _, cause in found} <= {"none_is_correct"}, found
