"""Lint: the course is clean, and each rule catches the mistake it is for."""
import nbformat
import pytest

from autograder import build, course
from autograder.lint import lint

from conftest import ROOT, code


def test_the_course_is_clean():
    problems = lint(ROOT)
    assert not problems, "\n".join(problems)


def test_the_tiny_course_is_clean_once_built(tiny_course):
    build.build(tiny_course)
    assert lint(tiny_course) == []


def _edit(root, change):
    a = course.Assignment("01_demo", root)
    nb = nbformat.read(a.source, as_version=4)
    change(nb)
    nbformat.write(nb, a.source)


def _cell(nb, cell_id):
    return next(cell for cell in nb.cells if cell.id == cell_id)


MISTAKES = {
    "random grade id": (lambda nb: _cell(nb, "ex1-test").metadata.nbgrader.update(grade_id="cell-8f3a2b"),
                        "should look like '01_demo_what'"),
    "duplicate grade id": (lambda nb: _cell(nb, "ex1-test").metadata.nbgrader.update(grade_id="01_demo_double"),
                           "used twice"),
    "no points": (lambda nb: _cell(nb, "ex1-test").metadata.nbgrader.update(points=0), "points > 0"),
    "unlocked grade cell": (lambda nb: _cell(nb, "ex1-test").metadata.nbgrader.update(locked=False), "must be locked"),
    "grade cell without docstring": (
        lambda nb: setattr(_cell(nb, "ex1-test"), "source", "assert double(1) == 2"), "docstring"),
    "solution marker in a plain cell": (
        lambda nb: setattr(_cell(nb, "ex1-try"), "source", "### BEGIN SOLUTION\nx = 1\n### END SOLUTION"),
        "solution markers outside a solution cell"),
    "unbalanced hidden markers": (
        lambda nb: setattr(_cell(nb, "ex1-test"), "source", '"""d."""\n### BEGIN HIDDEN TESTS\nassert True'),
        "1 '### BEGIN HIDDEN TESTS' but 0"),
    "solution without markers": (
        lambda nb: setattr(_cell(nb, "ex1-solution"), "source", "def double(x):\n    return 2 * x"),
        "marks its body"),
    "outputs": (lambda nb: setattr(_cell(nb, "ex1-try"), "execution_count", 4), "has outputs"),
    "stale setup cell": (lambda nb: setattr(_cell(nb, "setup"), "source", "import numpy as np"),
                         "setup cell differs"),
    "missing setup cell": (lambda nb: nb.cells.remove(_cell(nb, "setup")), "no setup cell"),
    "imports the package": (lambda nb: setattr(_cell(nb, "ex1-try"), "source", "from autograder import checks"),
                            "imports autograder"),
    "exercise without tests": (lambda nb: nb.cells.remove(_cell(nb, "ex1-test")), "has no grade cell after it"),
    "title without number": (lambda nb: setattr(nb.cells[0], "source", "# A demo\n\n> Double."), "'# 01 · Title'"),
    "title without promise": (lambda nb: setattr(nb.cells[0], "source", "# 01 · A demo"), "one-line promise"),
    "answer key without @answer_key": (
        lambda nb: setattr(_cell(nb, "ex1-test"), "source",
                           '"""d."""\ndef expected_double(x):\n    return 2 * x\nassert double(1) == expected_double(1)'),
        "mark expected_double with @answer_key"),
    "answer key outside a grade cell": (
        lambda nb: setattr(_cell(nb, "ex1-try"), "source", "def expected_double(x):\n    return 2 * x"),
        "answer key expected_double outside a grade cell"),
    "a notebook that does not exist": (
        lambda nb: setattr(_cell(nb, "summary"), "source", "## Summary\n\nNotebook 07 goes further."),
        "names notebook 07, which does not exist"),
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_each_rule_catches_its_mistake(tiny_course, mistake):
    build.build(tiny_course)
    change, message = MISTAKES[mistake]
    _edit(tiny_course, change)
    problems = lint(tiny_course)
    assert any(message in problem for problem in problems), problems


def test_a_wrong_badge_is_caught(tiny_course):
    build.build(tiny_course)
    path = course.Assignment("01_demo", tiny_course).self_study
    path.write_text(path.read_text().replace("notebooks/01_demo.ipynb", "notebooks/02_other.ipynb"))
    assert any("Colab links" in problem for problem in lint(tiny_course))


def test_the_readme_names_only_notebooks_that_exist(tiny_course):
    build.build(tiny_course)
    readme = tiny_course / "README.md"
    readme.write_text(readme.read_text() + "\nNotebook 01 is here; notebook 11 is the debugging lab.\n")
    problems = lint(tiny_course)
    assert problems == ["README.md: names notebook 11, which does not exist (yet)"], problems


def _repository(root, line):
    path = root / "pyproject.toml"
    text = "\n".join(kept for kept in path.read_text().splitlines() if not kept.startswith("repository = "))
    path.write_text(text.replace("[tool.course]", "[tool.course]\n" + line if line else "[tool.course]"))


def test_the_placeholder_address_fails_lint_for_publishing(tiny_course):
    build.build(tiny_course)
    assert course.settings(tiny_course)["repository"] == course.PLACEHOLDER_REPOSITORY  # as the course ships
    assert lint(tiny_course) == []
    [problem] = lint(tiny_course, publish=True)
    assert "placeholder" in problem and "does not exist on GitHub" in problem


def test_a_real_address_lints_clean_for_publishing(tiny_course):
    _repository(tiny_course, 'repository = "ada/tape-course"')
    build.build(tiny_course)
    assert lint(tiny_course, publish=True) == []


@pytest.mark.parametrize("line, message", [
    (None, 'no repository for the Colab links: set [tool.course] repository = "owner/name"'),
    ('repository = "https://github.com/ada/tape-course"', "should be a GitHub owner/name"),
    ('repository = "tape-course"', "should be a GitHub owner/name"),
])
def test_a_missing_or_malformed_address_fails_lint(tiny_course, line, message):
    build.build(tiny_course)
    _repository(tiny_course, line)
    problems = lint(tiny_course)
    assert any(message in problem for problem in problems), problems
