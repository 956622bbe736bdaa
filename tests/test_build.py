"""The build: setup cells, the three editions and the README map, and the drift check."""
import json
import re
import subprocess

import nbformat
import pytest

from autograder import build, course
from autograder.setup_cell import setup_source

from conftest import ROOT


def test_committed_editions_match_the_build():
    """release/, notebooks/, the setup cells and the README map are what `make build` writes."""
    stale = build.stale_files(ROOT)
    assert not stale, f"out of date (run `make build`): {[str(p.relative_to(ROOT)) for p in stale]}"


def test_every_source_notebook_has_all_three_editions():
    found = course.assignments(ROOT)
    assert found, "no notebooks under source/"
    for a in found:
        assert a.release.exists() and a.self_study.exists(), a.name


def test_build_writes_then_changes_nothing(tiny_course):
    written = build.build(tiny_course)
    a = course.Assignment("01_demo", tiny_course)
    assert {a.source, a.release, a.self_study, tiny_course / "README.md"} <= set(written)
    snapshot = {p: p.read_text() for p in written}
    assert build.build(tiny_course) == []
    assert build.stale_files(tiny_course) == []
    assert {p: p.read_text() for p in written} == snapshot


def test_drift_is_detected(tiny_course):
    build.build(tiny_course)
    a = course.Assignment("01_demo", tiny_course)
    nb = nbformat.read(a.release, as_version=4)
    nb.cells[0].source += "\nedited by hand"
    nbformat.write(nb, a.release)
    assert build.stale_files(tiny_course) == [a.release]


def test_orphaned_editions_are_removed(tiny_course):
    build.build(tiny_course)
    orphan = tiny_course / "notebooks" / "02_gone.ipynb"
    orphan.write_text((tiny_course / "notebooks" / "01_demo.ipynb").read_text())
    assert orphan in build.stale_files(tiny_course)
    assert orphan in build.build(tiny_course) and not orphan.exists()


def test_setup_cell_is_filled_locked_and_hidden(tiny_course):
    build.build(tiny_course)
    nb = nbformat.read(course.Assignment("01_demo", tiny_course).source, as_version=4)
    setup = nb.cells[1]
    assert setup.source == setup_source()
    assert setup.metadata["nbgrader"]["locked"] and setup.metadata["jupyter"]["source_hidden"]
    assert setup.metadata["cellView"] == "form"


def test_release_has_stubs_and_no_hidden_tests(tiny_course):
    build.build(tiny_course)
    text = course.Assignment("01_demo", tiny_course).release.read_text()
    assert "raise NotImplementedError()" in text and "return 2 * x" not in text
    assert "HIDDEN TESTS" not in text and "double(-4)" not in text
    assert "assert double(1) == 2" in text


def test_self_study_edition(tiny_course):
    build.build(tiny_course)
    a = course.Assignment("01_demo", tiny_course)
    nb = nbformat.read(a.self_study, as_version=4)
    sources = [cell.source for cell in nb.cells]
    # badge right after the title, pointing at the notebook's own path
    assert "colab-badge.svg" in sources[1]
    assert course.colab_url("notebooks/01_demo.ipynb", tiny_course) in sources[1]
    # the stub is nbgrader's, hidden tests are visible without their markers
    stub = next(c for c in nb.cells if c.id == "ex1-solution")
    assert "raise NotImplementedError()" in stub.source and "return 2 * x" not in stub.source
    test = next(c for c in nb.cells if c.id == "ex1-test")
    assert "assert double(-4) == -8" in test.source and "HIDDEN" not in test.source
    # the collapsed solution comes right after the exercise's last test and names its stub
    index = sources.index(test.source)
    solution = nb.cells[index + 1]
    assert solution.cell_type == "markdown" and solution.source.startswith("<details>")
    assert "return 2 * x" in solution.source and "### BEGIN SOLUTION" not in solution.source
    assert solution.metadata["course"]["solution_for"] == "ex1-solution"
    # nothing nbgrader-specific is left
    assert not any("nbgrader" in cell.metadata for cell in nb.cells)


def test_readme_map_has_one_row_per_notebook(tiny_course):
    build.build(tiny_course)
    readme = (tiny_course / "README.md").read_text()
    rows = [line for line in readme.splitlines() if line.startswith("| 01 ")]
    assert len(rows) == 1
    assert "A demo" in rows[0] and "Double a number." in rows[0] and rows[0].endswith("| 1 |")
    assert "release/01_demo/01_demo.ipynb" in rows[0]


def test_a_notebook_without_setup_cell_is_refused(tiny_course):
    a = course.Assignment("01_demo", tiny_course)
    nb = nbformat.read(a.source, as_version=4)
    del nb.cells[1]
    nbformat.write(nb, a.source)
    with pytest.raises(course.CourseError, match="no setup cell"):
        build.build(tiny_course)


def test_outputs_in_source_are_cleared(tiny_course):
    a = course.Assignment("01_demo", tiny_course)
    nb = nbformat.read(a.source, as_version=4)
    nb.cells[4].outputs = [nbformat.v4.new_output("stream", name="stdout", text="6\n")]
    nb.cells[4].execution_count = 3
    nbformat.write(nb, a.source)
    build.build(tiny_course)
    cell = json.loads(a.source.read_text())["cells"][4]
    assert cell["outputs"] == [] and cell["execution_count"] is None


# ---------------------------------------------------------------- where the Colab links point

COLAB_LINK = re.compile(r"\]\((https://colab\.research\.google\.com/github/[^)]+)\)")


def _set_repository(root, line):
    """Replace `[tool.course]`'s repository line of the course's pyproject.toml (None removes it)."""
    path = root / "pyproject.toml"
    lines = [kept for kept in path.read_text().splitlines() if not kept.startswith("repository = ")]
    at = lines.index("[tool.course]") + 1
    path.write_text("\n".join(lines[:at] + ([line] if line else []) + lines[at:]) + "\n")


def _links(root):
    """Every Colab link of every edition and of the README, by the file it is in."""
    files = [root / "README.md", *sorted(root.glob("notebooks/*.ipynb")), *sorted(root.glob("release/*/*.ipynb"))]
    return {path.relative_to(root).as_posix(): COLAB_LINK.findall(path.read_text()) for path in files}


def _git_clone_with_origin(root, url):
    for args in (["init", "-q"], ["remote", "add", "origin", url]):
        subprocess.run(["git", "-C", str(root), *args], check=True)


def test_every_link_follows_the_setting(tiny_course):
    _set_repository(tiny_course, 'repository = "ada/tape-course"')
    build.build(tiny_course)
    expected = "https://colab.research.google.com/github/ada/tape-course/blob/main/notebooks/01_demo.ipynb"
    assert _links(tiny_course) == {"README.md": [expected], "notebooks/01_demo.ipynb": [expected],
                                   "release/01_demo/01_demo.ipynb": []}


@pytest.mark.parametrize("url", ["https://github.com/ada/tape-course.git", "git@github.com:ada/tape-course.git",
                                 "ssh://git@github.com/ada/tape-course"])
def test_without_a_setting_the_links_follow_origin(tiny_course, url):
    _set_repository(tiny_course, None)
    _git_clone_with_origin(tiny_course, url)
    assert course.settings(tiny_course)["repository"] == "ada/tape-course"
    build.build(tiny_course)
    expected = "https://colab.research.google.com/github/ada/tape-course/blob/main/notebooks/01_demo.ipynb"
    assert _links(tiny_course)["README.md"] == _links(tiny_course)["notebooks/01_demo.ipynb"] == [expected]


def test_the_setting_wins_over_origin(tiny_course):
    """A mirror or a fork that publishes elsewhere names its repository; origin is only the default."""
    _set_repository(tiny_course, 'repository = "ben/tape-course-mirror"')
    _git_clone_with_origin(tiny_course, "https://github.com/ada/tape-course.git")
    assert course.settings(tiny_course)["repository"] == "ben/tape-course-mirror"


def test_the_placeholder_gives_way_to_origin(tiny_course):
    """A clone of the course on GitHub gets working links without editing the setting it shipped with."""
    assert course.settings(tiny_course)["repository"] == course.PLACEHOLDER_REPOSITORY
    _git_clone_with_origin(tiny_course, "https://github.com/ada/tape-course.git")
    assert course.settings(tiny_course)["repository"] == "ada/tape-course"


def test_no_setting_and_no_github_origin_stops_the_build_with_what_to_set(tiny_course):
    _set_repository(tiny_course, None)
    _git_clone_with_origin(tiny_course, "/srv/git/tape-course.git")
    with pytest.raises(course.CourseError, match=r'set \[tool.course\] repository = "owner/name"'):
        build.build(tiny_course)
