"""`python -m autograder ...`, the commands the Makefile runs, on a tiny course."""
import shutil

import nbformat
import pytest

from autograder.__main__ import main
from autograder.course import Assignment


def test_build_then_check_then_drift(tiny_course, capsys):
    assert main(["--root", str(tiny_course), "build", "--check"]) == 1
    assert "out of date: release/01_demo/01_demo.ipynb" in capsys.readouterr().out
    assert main(["--root", str(tiny_course), "build"]) == 0
    assert "wrote notebooks/01_demo.ipynb" in capsys.readouterr().out
    assert main(["--root", str(tiny_course), "build", "--check"]) == 0
    assert main(["--root", str(tiny_course), "lint"]) == 0
    assert "1 notebooks, no problems" in capsys.readouterr().out


def test_lint_fails_with_the_problem(tiny_course, capsys):
    main(["--root", str(tiny_course), "build"])
    a = Assignment("01_demo", tiny_course)
    nb = nbformat.read(a.source, as_version=4)
    nb.cells[5].metadata.nbgrader["points"] = 0
    nbformat.write(nb, a.source)
    capsys.readouterr()
    assert main(["--root", str(tiny_course), "lint"]) == 1
    assert "needs points > 0" in capsys.readouterr().out


def test_grade_names_a_wrong_assignment_and_missing_submissions(tiny_course, capsys):
    main(["--root", str(tiny_course), "build"])
    assert main(["--root", str(tiny_course), "grade", "01_dmeo"]) == 2
    assert "no assignment '01_dmeo' in source/; the assignments are: 01_demo" in capsys.readouterr().out
    assert main(["--root", str(tiny_course), "grade", "01_demo"]) == 2
    assert "no submissions" in capsys.readouterr().out


@pytest.mark.notebooks
def test_grade_reports_every_student_and_fails_when_one_is_not_graded(tiny_course, capsys):
    main(["--root", str(tiny_course), "build"])
    a = Assignment("01_demo", tiny_course)
    for student in ("ada", "bob"):
        (tiny_course / "submitted" / student / "01_demo").mkdir(parents=True)
    shutil.copy(a.source, tiny_course / "submitted" / "ada" / "01_demo" / "01_demo.ipynb")
    (tiny_course / "submitted" / "bob" / "01_demo" / "01_demo.ipynb").write_text("not a notebook")
    capsys.readouterr()
    assert main(["--root", str(tiny_course), "grade", "01_demo"]) == 1
    out = capsys.readouterr().out
    assert "Grading 01_demo: 1 of 2 submissions graded" in out
    assert "ada                  1 / 1" in out
    assert "bob                  NOT GRADED" in out and "not a readable notebook" in out
    assert (tiny_course / "grades.csv").exists()
    assert (tiny_course / "feedback" / "ada" / "01_demo" / "01_demo.html").exists()


def test_a_broken_source_notebook_is_named(tiny_course, capsys):
    Assignment("01_demo", tiny_course).source.write_text("{ half a notebook")
    assert main(["--root", str(tiny_course), "build"]) == 1
    assert "01_demo.ipynb: not a readable notebook" in capsys.readouterr().err
    assert main(["--root", str(tiny_course), "lint"]) == 1
    assert "not a readable notebook" in capsys.readouterr().out
