"""The nbgrader cycle end to end in a scratch course: autograde a class, feedback, CSV.

Each notebook's synthetic submissions (tests/submissions/NN_name.py) must get exactly their
expected points per grade id; broken submissions must be reported and never stop the others.
"""
import csv
import html
import importlib

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder import course
from autograder.grading import ORIGINAL_SUFFIX, demo, grade_class, report
from autograder.grading.demo import submit
from autograder.setup_cell import setup_source

from conftest import ROOT
from submissions import full_marks

pytestmark = pytest.mark.notebooks
WITH_SUBMISSIONS = [a.name for a in course.assignments(ROOT) if (ROOT / "tests" / "submissions" / f"{a.name}.py").exists()]


def _meta(cell):
    return cell.get("metadata", {}).get("nbgrader", {})


def make_course(tmp_path, name, extra_config=""):
    """A scratch course with one assignment, built from the committed source/ and release/."""
    return demo.make_course(ROOT, tmp_path, [name], extra_config)[0]


def scores(a, student):
    with Gradebook(f"sqlite:///{a.root / 'gradebook.db'}") as gradebook:
        notebook = gradebook.find_submission_notebook(a.name, a.name, student)
        return {grade.name: grade.score for grade in notebook.grades}


def first_exercise_tests(a):
    """Grade ids of the grade cells between the first and the second solution cell."""
    ids, seen_solutions = [], 0
    for cell in nbformat.read(a.source, as_version=4).cells:
        seen_solutions += bool(_meta(cell).get("solution"))
        if seen_solutions == 1 and _meta(cell).get("grade"):
            ids.append(_meta(cell)["grade_id"])
    return ids


def hidden_lines(a):
    """The hidden tests' lines that would give them away: not those the student edition shows too (its setup cell, a
    visible check that defines the same helper)."""
    shown = setup_source() + "\n".join(cell.source for cell in nbformat.read(a.release, as_version=4).cells)
    lines = []
    for cell in nbformat.read(a.source, as_version=4).cells:
        if _meta(cell).get("grade") and "### BEGIN HIDDEN TESTS" in cell.source:
            block = cell.source.split("### BEGIN HIDDEN TESTS")[1].split("### END HIDDEN TESTS")[0]
            lines += [line.strip() for line in block.splitlines() if len(line.strip()) > 20 and line.strip() not in shown]
    return lines


@pytest.mark.parametrize("name", WITH_SUBMISSIONS)
def test_every_synthetic_submission_gets_its_exact_score(tmp_path, name):
    a = make_course(tmp_path, name)
    cases = importlib.import_module(f"submissions.{name}").SUBMISSIONS
    full = full_marks(name)
    expected = {"correct": full, "blank": dict.fromkeys(full, 0.0)}
    submit(a, "correct")
    submit(a, "blank", demo.stubs(a))
    assert not {"correct", "blank"} & set(cases), "the round trip adds 'correct' and 'blank' itself"
    for student, case in cases.items():
        assert set(case["scores"]) == set(full), f"{student}: list a score for every grade id"
        submit(a, student, case["answers"])
        expected[student] = case["scores"]

    # One grading worker: pytest's two workers keep both cores busy already, and a second fork server would
    # cost a TensorFlow import per class. Parallel grading is the broken and hostile classes' (default workers).
    outcomes = grade_class(name, tmp_path, csv_path=tmp_path / "grades.csv", workers=1)
    print(report(name, outcomes))

    assert all(o.graded for o in outcomes), report(name, outcomes)
    for student, wanted in expected.items():
        assert scores(a, student) == pytest.approx(wanted), student
    assert any(score < sum(full.values()) for score in map(lambda s: sum(scores(a, s).values()), cases))

    # feedback for everyone, without the hidden tests' source, with what the checks said
    for student in expected:
        # as a browser reads it: the page writes ' and " in text as character references
        page = html.unescape((tmp_path / "feedback" / student / name / f"{name}.html").read_text())
        assert "BEGIN HIDDEN TESTS" not in page
        assert not [line for line in hidden_lines(a) if line in page], "hidden test source leaked into feedback"
        for phrase in cases.get(student, {}).get("feedback", []):
            assert phrase in page, f"{student}: the feedback should say {phrase!r}"
    # the CSV has every student's total
    with open(tmp_path / "grades.csv") as file:
        rows = {row["student_id"]: row for row in csv.DictReader(file)}
    for student, wanted in expected.items():
        assert float(rows[student]["score"]) == pytest.approx(sum(wanted.values()))
        assert float(rows[student]["max_score"]) == pytest.approx(sum(full.values()))
    # the class report: every test of every student, each lost point with the mistake that lost it
    with open(tmp_path / "reports" / f"{name}.csv") as file:
        report_rows = list(csv.DictReader(file))
    for student, wanted in expected.items():
        mine = {row["test"]: row for row in report_rows if row["student"] == student and row["test"]}  # not the flag rows
        assert {test: float(row["points"]) for test, row in mine.items()} == pytest.approx(wanted), student
        for test, row in mine.items():
            lost = float(row["points"]) < float(row["max_points"])
            assert bool(row["mistake"]) == lost, (student, test, row["mistake"])
            if student == "blank":  # the stub raised; or, in a cell that defines a name, the name is missing
                assert (row["mistake"] == "not done: the exercise still raises NotImplementedError"
                        or row["mistake"].startswith("Python does not know `")), (test, row["mistake"])
    page = (tmp_path / "reports" / f"{name}.html").read_text()
    assert f"{len(expected)} of {len(expected)} submissions graded" in page and "<img" in page
    assert all(f"<code>{test}</code>" in page for test in full)


def test_a_broken_submission_never_stops_the_class(tmp_path):
    """Broken submissions sort first, so the class after them must still be graded."""
    name = WITH_SUBMISSIONS[0]
    # a short cell timeout keeps the endless loop cheap; it still leaves room for TensorFlow's import
    a = make_course(tmp_path, name, demo.DEMO_CONFIG)
    full = full_marks(name)
    broken = demo.hand_in_broken_kinds(a)
    submit(a, "g_correct")
    assert all(student < "g_correct" for student in broken)  # graded before the correct one

    outcomes = {o.student: o for o in grade_class(name, tmp_path, csv_path=tmp_path / "grades.csv")}
    text = report(name, list(outcomes.values()))
    print(text)

    assert scores(a, "broken_copied_test_cell") == pytest.approx(full)
    assert any("copied cell" in note for note in outcomes["broken_copied_test_cell"].notes)
    assert scores(a, "broken_stripped_metadata") == pytest.approx(full)
    assert any("restored nbgrader metadata" in note for note in outcomes["broken_stripped_metadata"].notes)
    assert (tmp_path / "submitted" / "broken_stripped_metadata" / name / f"{name}.ipynb{ORIGINAL_SUFFIX}").exists()
    for student, why in (("broken_rebuilt_by_a_cleaner", "no nbgrader cell metadata"), ("broken_not_a_notebook", "not a readable notebook"),
                         ("broken_missing_notebook", f"no {name}.ipynb in the submission (found: my_answers.py)")):
        assert not outcomes[student].graded
        assert any(why in note for note in outcomes[student].notes), outcomes[student].notes
        assert any(line.split() == [student, "NOT", "GRADED"] for line in text.splitlines()), text
    # the loop is interrupted; the first exercise's tests score 0, the rest of the notebook is graded
    assert outcomes["broken_endless_loop"].graded
    assert scores(a, "broken_endless_loop") == pytest.approx(
        {grade_id: 0.0 if grade_id in first_exercise_tests(a) else points for grade_id, points in full.items()})
    assert outcomes["g_correct"].graded and scores(a, "g_correct") == pytest.approx(full)
    # the class report says who was not graded and why, and what stopped the endless loop
    page = (tmp_path / "reports" / f"{name}.html").read_text()
    assert "4 of 7 submissions graded" in page
    for student in ("broken_rebuilt_by_a_cleaner", "broken_not_a_notebook", "broken_missing_notebook"):
        assert f"<td>{student}</td>" in page
    with open(tmp_path / "reports" / f"{name}.csv") as file:
        looped = [row for row in csv.DictReader(file) if row["student"] == "broken_endless_loop" and row["mistake"]]
    assert {row["test"] for row in looped} == set(first_exercise_tests(a))


def test_unsandboxed_grading_and_a_second_run_give_the_same_scores(tmp_path):
    """Without the sandbox (the instructor's --unsandboxed) scores are the same, and grading again changes nothing."""
    name = "01_first_gradient"
    a = make_course(tmp_path, name)
    cases = importlib.import_module(f"submissions.{name}").SUBMISSIONS
    expected = {"correct": full_marks(name)}
    submit(a, "correct")
    for student in ("missing_watch", "wrong_factor", "debug_output_on_stderr"):
        submit(a, student, cases[student]["answers"])
        expected[student] = cases[student]["scores"]
    for sandboxed in (False, True):
        outcomes = grade_class(name, tmp_path, csv_path=tmp_path / "grades.csv", sandboxed=sandboxed)
        assert all(o.graded for o in outcomes), report(name, outcomes)
        assert report(name, outcomes).startswith("WARNING: grading ran unsandboxed") != sandboxed
        for student, wanted in expected.items():
            assert scores(a, student) == pytest.approx(wanted), (sandboxed, student)


HOSTILE = {  # what replaces the first exercise's answer, and whether the submission can still be graded
    "exits_the_kernel": ("import os\nos._exit(1)", False),
    "calls_sys_exit": ("import sys\nsys.exit('bye')", True),
    "hogs_memory": ("hog = []\nwhile True:\n    hog.append(bytearray(10 ** 8))", True),
    "starts_300_processes": ("import subprocess\nsleepers = [subprocess.Popen(['sleep', '60']) for _ in range(300)]", True),
    "fills_the_disk": ("with open('big.bin', 'wb') as file:\n    for _ in range(3 * 1024):\n"
                       "        file.write(b'x' * 2 ** 20)", True),
    "floods_output": ("for line in range(100_000):\n    print('flood', line)", True),
    "loops_in_tf_function": ("@tf.function\ndef forever():\n    i = tf.constant(0)\n    while tf.constant(True):\n"
                             "        i += 1\n    return i\n\nforever()", True),
    "patches_the_checks": ("def slope(f, x):\n    return 0.0\n\n"
                           "check_gradient = check_tape_calls = lambda *args, **kwargs: None\n"
                           "np.allclose = lambda *args, **kwargs: True", True),
    "patches_from_its_function": ("def slope(f, x):\n"
                                  "    globals()['check_gradient'] = globals()['check_tape_calls'] = lambda *args, **kwargs: None\n"
                                  "    np.allclose = lambda *args, **kwargs: True\n    return 0.0", True),
    "removes_the_guard": ("get_ipython().events.callbacks['pre_run_cell'].clear()\n"
                          "get_ipython().events.callbacks['post_run_cell'].clear()\n"
                          "check_gradient = check_from_tape = lambda *args, **kwargs: None\n\n"
                          "def slope(f, x):\n    return 0.0", True),
    "removes_the_guard_from_its_function": ("def slope(f, x):\n"
                                            "    shell = get_ipython()\n"
                                            "    for callbacks in shell.events.callbacks.values():\n"
                                            "        callbacks[:] = []\n"
                                            "    shell.user_ns['check_gradient'] = shell.user_ns['check_from_tape'] = print\n"
                                            "    return 0.0", True),
}
# The hostile answers that reach for the grading machinery: the grader names their lines before they run.
REACHING = {"patches_the_checks", "patches_from_its_function", "removes_the_guard", "removes_the_guard_from_its_function"}
# Those that meet a sandbox limit: the report and the class report say which, and what happened.
LIMITED = {"hogs_memory": "a cell ran out of memory", "starts_300_processes": "processes and threads",
           "fills_the_disk": "it filled its folder (512 MiB"}


def test_hostile_submissions_are_graded_or_reported_and_never_touch_the_others(tmp_path):
    """A kernel that dies, sys.exit, a memory hog, 300 processes, 3 GB of writes, a flood of output, a
    loop no interrupt stops, and answers that replace the checks or NumPy's comparisons: none earns the
    first exercise's points, each is graded or reported with why, and the correct student graded after
    them gets every point."""
    name = "01_first_gradient"
    a = make_course(tmp_path, name, demo.DEMO_CONFIG)
    full = full_marks(name)
    first_solution = next(iter(demo.stubs(a)))
    for student, (answer, _) in HOSTILE.items():
        submit(a, student, {first_solution: answer})
    submit(a, "z_correct")

    outcomes = {o.student: o for o in grade_class(name, tmp_path, csv_path=tmp_path / "grades.csv")}
    print(report(name, list(outcomes.values())))

    first = first_exercise_tests(a)
    assert all(test in full for test in first) and first
    for student, (_, gradable) in HOSTILE.items():
        assert outcomes[student].graded == gradable, (student, outcomes[student].notes)
        if student == "loops_in_tf_function":  # nothing after the loop could run: graded, every test 0
            assert scores(a, student) == pytest.approx(dict.fromkeys(full, 0.0))
        elif gradable:
            assert scores(a, student) == pytest.approx(
                {grade_id: 0.0 if grade_id in first else points for grade_id, points in full.items()}), student
    assert any("DeadKernelError" in note for note in outcomes["exits_the_kernel"].notes), outcomes["exits_the_kernel"].notes
    assert {student for student, o in outcomes.items() if o.reaches} == REACHING
    with Gradebook(f"sqlite:///{a.root / 'gradebook.db'}") as gradebook:  # flags are work for the instructor
        marked = {student: sorted(test for test in full if gradebook.find_grade(test, name, name, student).needs_manual_grade)
                  for student in outcomes if outcomes[student].graded}
    assert all(marked[student] == sorted(first) for student in REACHING), marked
    assert not any(tests for student, tests in marked.items() if student not in REACHING), marked
    assert {student for student, o in outcomes.items() if o.limits} == set(LIMITED)
    for student, reason in LIMITED.items():
        assert any(reason in note and "a sandbox limit stopped it" in note for note in outcomes[student].notes), student
    class_report = html.unescape((tmp_path / "reports" / f"{name}.html").read_text())
    listed = class_report.split("Answers that reach for the grading machinery")[1].split("</table>")[0]
    assert all(student in listed for student in REACHING) and "z_correct" not in listed
    assert "`get_ipython().events.callbacks['pre_run_cell'].clear()`" in listed
    stopped = class_report.split("Stopped by the sandbox's limits")[1].split("</table>")[0]
    assert all(f"<td>{student}</td>" in stopped and reason in stopped for student, reason in LIMITED.items())
    assert "z_correct" not in stopped and "Warning" not in class_report
    feedback = html.unescape((tmp_path / "feedback" / "removes_the_guard_from_its_function" / name / f"{name}.html").read_text())
    assert "reach for the grading machinery" in feedback and "shell = get_ipython()" in feedback
    assert "reach for the grading machinery" not in (tmp_path / "feedback" / "z_correct" / name / f"{name}.html").read_text()
    flooded = nbformat.read(tmp_path / "autograded" / "floods_output" / name / f"{name}.ipynb", as_version=4)
    assert max(len("".join(o.get("text", "")).splitlines()) for c in flooded.cells if c.cell_type == "code"
               for o in c.outputs) <= 200  # nbgrader's LimitOutput
    assert scores(a, "z_correct") == pytest.approx(full)
