"""The demo room: a scratch course with a whole class of submissions, graded as an instructor would.

`make demo` builds it: for two notebooks, a correct student, a blank one, every synthetic submission
of the round trip (tests/submissions/NN_name.py: correct ones written differently and the plausible
mistakes, None gradients among them) and the broken kinds a real class hands in (a copied test cell,
metadata stripped by an editor, a notebook rebuilt by a cleaner, a file that is not a notebook, a
missing notebook, an endless loop). The round trip test builds its scratch courses with the same code.
"""
from __future__ import annotations

import importlib
import shutil
import sys
from pathlib import Path

import nbformat

from .. import course

NOTEBOOKS = ("01_first_gradient", "04_higher_order")
MARKER = ".demo-course"  # only a folder holding it is ever deleted to rebuild the demo
# An endless loop waits for the cell time limit: the demo's is shorter than the course's two minutes,
# still ample for TensorFlow's import.
DEMO_CONFIG = "c.Execute.timeout = 40\n"


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def make_course(root: Path, folder: Path, names, extra_config: str = "") -> list[course.Assignment]:
    """A scratch course in `folder` with the assignments `names`, copied from the course at `root`."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(root / course.CONFIG_FILE, folder / course.CONFIG_FILE)
    shutil.copy(root / "pyproject.toml", folder / "pyproject.toml")
    with open(folder / course.CONFIG_FILE, "a") as file:
        file.write(f"\nc.CourseDirectory.root = {str(folder)!r}\n{extra_config}")
    for name in names:
        for edition in ("source", "release"):
            shutil.copytree(root / edition / name, folder / edition / name)
    return [course.Assignment(name, folder) for name in names]


def submit(a: course.Assignment, student: str, answers: dict | None = None, change=None) -> Path:
    """Hand in the release notebook with the source's solutions, except the solution cells `answers`
    gives (grade id -> the cell's whole source); `change(nb)` may then break the notebook."""
    solutions = {_meta(c)["grade_id"]: c.source for c in nbformat.read(a.source, as_version=4).cells
                 if _meta(c).get("solution")}
    nb = nbformat.read(a.release, as_version=4)
    for cell in nb.cells:
        if _meta(cell).get("solution"):
            cell.source = (answers or {}).get(_meta(cell)["grade_id"], solutions[_meta(cell)["grade_id"]])
    if change:
        change(nb)
    path = a.root / "submitted" / student / a.name / f"{a.name}.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(nb, path)
    return path


def stubs(a: course.Assignment) -> dict:
    """The release's solution cells as handed out: a blank submission."""
    return {_meta(c)["grade_id"]: c.source for c in nbformat.read(a.release, as_version=4).cells
            if _meta(c).get("solution")}


def copy_a_test_cell(nb) -> None:
    """The student pasted a copy of a locked test cell (nbgrader alone would stop the whole class)."""
    first = next(c for c in nb.cells if _meta(c).get("grade"))
    copy = nbformat.from_dict(dict(first))
    copy.id = "pasted-copy"
    nb.cells.append(copy)


def strip_metadata(nb) -> None:
    """An editor dropped nbgrader's cell metadata (nbgrader alone would grade it 0 without a word)."""
    for cell in nb.cells:
        for key in ("nbgrader", "deletable", "editable"):
            cell.metadata.pop(key, None)


def rebuild(nb) -> None:
    """A notebook cleaner rebuilt every cell: no metadata, new cell ids: nothing left to repair from."""
    strip_metadata(nb)
    for index, cell in enumerate(nb.cells):
        cell.id = f"rebuilt-{index}"


def hand_in_broken_kinds(a: course.Assignment) -> list[str]:
    """Submissions a real class hands in that nbgrader alone mishandles; returns the student ids."""
    submit(a, "broken_copied_test_cell", change=copy_a_test_cell)
    submit(a, "broken_stripped_metadata", change=strip_metadata)
    submit(a, "broken_rebuilt_by_a_cleaner", change=rebuild)
    folder = a.root / "submitted" / "broken_not_a_notebook" / a.name
    folder.mkdir(parents=True)
    (folder / f"{a.name}.ipynb").write_text("{ this is not json")
    folder = a.root / "submitted" / "broken_missing_notebook" / a.name
    folder.mkdir(parents=True)
    (folder / "my_answers.py").write_text("x = 1\n")
    first_solution = next(iter(stubs(a)))
    submit(a, "broken_endless_loop", {first_solution: "while True:\n    pass\n"})
    return ["broken_copied_test_cell", "broken_stripped_metadata", "broken_rebuilt_by_a_cleaner",
            "broken_not_a_notebook", "broken_missing_notebook", "broken_endless_loop"]


def synthetic_submissions(root: Path, name: str) -> dict:
    """The round trip's synthetic submissions of `name` (tests/submissions/NN_name.py), or none."""
    if not (root / "tests" / "submissions" / f"{name}.py").exists():
        return {}
    if str(root / "tests") not in sys.path:
        sys.path.insert(0, str(root / "tests"))
    return importlib.import_module(f"submissions.{name}").SUBMISSIONS


def build(root: Path, folder: Path, names=NOTEBOOKS) -> list[course.Assignment]:
    """A fresh demo course in `folder`: every notebook of `names` with its whole class handed in."""
    if folder.exists():
        if not (folder / MARKER).exists():
            raise course.CourseError(f"{folder} exists and is not a demo course: move it away or choose another folder")
        shutil.rmtree(folder)
    assignments = make_course(root, folder, names, DEMO_CONFIG)
    (folder / MARKER).write_text("made by `make demo`; deleted and rebuilt by the next one\n")
    for a in assignments:
        submit(a, "correct")
        submit(a, "blank", stubs(a))
        for student, case in synthetic_submissions(root, a.name).items():
            submit(a, student, case["answers"])
        hand_in_broken_kinds(a)
    return assignments


def main(root: Path, folder: Path, names=NOTEBOOKS) -> int:
    """Build the demo class, grade it, and say where the grades, the feedback and the reports are."""
    from .coordinator import grade_class, report

    assignments = build(root, folder, names)
    print(f"demo course: {folder}")
    for a in assignments:
        students = len(list((folder / "submitted").glob(f"*/{a.name}")))
        print(f"\n{a.name}: {students} submissions")
        outcomes = grade_class(a.name, folder, csv_path=folder / "grades.csv")
        print(report(a.name, outcomes))
        print(f"  class report: {folder / 'reports' / (a.name + '.html')}")
    print(f"\ngrades: {folder / 'grades.csv'}; feedback: {folder / 'feedback'}/<student>/<assignment>/")
    return 0
