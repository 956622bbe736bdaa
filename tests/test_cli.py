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


def test_lint_warns_of_the_placeholder_address_and_publish_fails_on_it(tiny_course, capsys):
    main(["--root", str(tiny_course), "build"])
    capsys.readouterr()
    assert main(["--root", str(tiny_course), "lint"]) == 0
    assert "warning (an error for `lint --publish`): pyproject.toml: the Colab links' repository is the placeholder" \
        in capsys.readouterr().out
    assert main(["--root", str(tiny_course), "lint", "--publish"]) == 1
    out = capsys.readouterr().out
    assert "is the placeholder" in out and "warning" not in out


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


def test_grade_refuses_without_a_sandbox_and_says_how_to_go_on(tiny_course, monkeypatch, capsys):
    main(["--root", str(tiny_course), "build"])
    (tiny_course / "submitted" / "ada" / "01_demo").mkdir(parents=True)
    shutil.copy(Assignment("01_demo", tiny_course).source, tiny_course / "submitted" / "ada" / "01_demo" / "01_demo.ipynb")
    real_which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name: None if name == "bwrap" else real_which(name))
    capsys.readouterr()
    assert main(["--root", str(tiny_course), "grade", "01_demo"]) == 1
    said = capsys.readouterr().err
    assert "bubblewrap (bwrap) is not installed" in said and "--unsandboxed" in said
    assert not (tiny_course / "autograded").exists()  # refused before any student code ran


def test_a_broken_source_notebook_is_named(tiny_course, capsys):
    Assignment("01_demo", tiny_course).source.write_text("{ half a notebook")
    assert main(["--root", str(tiny_course), "build"]) == 1
    assert "01_demo.ipynb: not a readable notebook" in capsys.readouterr().err
    assert main(["--root", str(tiny_course), "lint"]) == 1
    assert "not a readable notebook" in capsys.readouterr().out


def test_the_course_is_the_current_folder_as_for_nbgrader(tiny_course, tmp_path_factory, monkeypatch, capsys):
    main(["--root", str(tiny_course), "build"])
    monkeypatch.chdir(tiny_course)
    assert main(["grade", "01_demo"]) == 2
    out = capsys.readouterr().out
    assert f"course root: {tiny_course}" in out
    assert f"no submissions: put them in {tiny_course / 'submitted'}/" in out
    assert main(["lint"]) == 0

    monkeypatch.chdir(tiny_course / "source")  # a folder inside the course is not the course
    assert main(["grade", "01_demo"]) == 1
    err = capsys.readouterr().err
    assert f"{tiny_course / 'source'} is not a course root (it has no nbgrader_config.py)" in err
    assert f"the nearest course above is {tiny_course}: cd there" in err

    elsewhere = tmp_path_factory.mktemp("elsewhere")
    monkeypatch.chdir(elsewhere)
    assert main(["lint"]) == 1
    assert "nearest course" not in capsys.readouterr().err
    (elsewhere / "nbgrader_config.py").write_text(f"c = get_config()\nc.CourseDirectory.root = {str(tiny_course)!r}\n")
    assert main(["lint"]) == 0  # nbgrader's own setting names the course
    (elsewhere / "nbgrader_config.py").write_text("c = get_config()\n")
    assert main(["lint"]) == 1
    assert "has no source/ folder" in capsys.readouterr().err


def test_this_environments_scripts_are_on_path_for_nbgrader(tiny_course, monkeypatch):
    from pathlib import Path
    import os
    import sys

    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    main(["--root", str(tiny_course), "lint"])
    assert os.environ["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent)  # alembic is found there
