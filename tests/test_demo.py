"""`make demo`: the demo course and its class (grading it is what the round trip tests)."""
import nbformat
import pytest

from autograder import course
from autograder.grading import demo

from conftest import ROOT


def test_the_demo_class_has_every_kind_of_submission(tmp_path):
    folder = tmp_path / "demo"
    assignments = demo.build(ROOT, folder)
    assert [a.name for a in assignments] == list(demo.NOTEBOOKS)
    assert course.find_root(folder) == folder  # a course of its own, found as nbgrader finds it
    for a in assignments:
        students = sorted(p.parent.name for p in (folder / "submitted").glob(f"*/{a.name}"))
        synthetic = set(demo.synthetic_submissions(ROOT, a.name))
        assert synthetic and synthetic <= set(students)
        assert {"correct", "blank", "broken_endless_loop", "broken_not_a_notebook"} <= set(students)
        blank = nbformat.read(folder / "submitted" / "blank" / a.name / f"{a.name}.ipynb", as_version=4)
        assert "raise NotImplementedError" in "".join(c.source for c in blank.cells)


def test_the_demo_is_rebuilt_but_never_over_another_folder(tmp_path):
    folder = tmp_path / "demo"
    demo.build(ROOT, folder, ["01_first_gradient"])
    (folder / "submitted" / "someone_extra").mkdir()
    demo.build(ROOT, folder, ["01_first_gradient"])
    assert not (folder / "submitted" / "someone_extra").exists()

    mine = tmp_path / "my_course"
    (mine / "source").mkdir(parents=True)
    with pytest.raises(course.CourseError, match="is not a demo course"):
        demo.build(ROOT, mine)
    assert (mine / "source").exists()
