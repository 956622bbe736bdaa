"""Shared fixtures: an isolated Jupyter, and a tiny course to test the build and lint on."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from autograder import course
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
