"""The class report: mistakes labelled from a test cell's outputs, grouped per test, written as HTML and CSV."""
import csv

from autograder.grading.class_report import CellResult, mistake_of, summary, write


def error(ename, evalue):
    return [{"output_type": "error", "ename": ename, "evalue": evalue, "traceback": []}]


def test_a_checks_message_is_labelled_by_what_it_names_without_the_numbers():
    first = mistake_of(error("CheckFailed", "dy/dx is not correct at 12 of 201 points.\n"
                                            "It is 1/2 of the answer: a missing factor of 2, or a mean?\n  at x = 0.5: got 1, expected 2"))
    second = mistake_of(error("CheckFailed", "dy/dx is not correct at 7 of 201 points.\n"
                                             "It is 1/2 of the answer: a missing factor of 2, or a mean?\n  at x = -1.5: got 3, expected 6"))
    assert first == second == "dy/dx is not correct at # of # points. It is #/# of the answer: a missing factor of #, or a mean?"
    assert "at x" not in first  # the points listed differ from student to student


def test_other_errors_keep_their_name_and_unfinished_work_is_one_label():
    assert mistake_of(error("NameError", "name 'slope' is not defined")) == "NameError: name 'slope' is not defined"
    assert mistake_of(error("NameError", "name 'causes_13' is not defined")) == "NameError: name 'causes_13' is not defined"
    assert mistake_of(error("NotImplementedError", "")) == "not done: the exercise still raises NotImplementedError"
    explained = error("ExplainedError", "This exercise is not done yet...\n(NotImplementedError: )")
    assert mistake_of(explained) == "not done: the exercise still raises NotImplementedError"
    assert mistake_of([{"output_type": "stream", "name": "stderr", "text": "W0101 12:00:01 warn\n"}]).startswith("wrote to stderr")
    assert mistake_of([]) == "no result: the cell did not finish (a time limit, or the kernel stopped)"


def test_summary_ranks_mistakes_per_test_and_the_files_say_who(tmp_path):
    none = "dy/dx is None: the tape recorded no path"
    results = [CellResult("ada", "nb", "t1", 1, 1, None), CellResult("bob", "nb", "t1", 0, 1, none),
               CellResult("cy", "nb", "t1", 0, 1, none), CellResult("dee", "nb", "t1", 0, 1, "NameError: x"),
               CellResult("ada", "nb", "t2", 2, 2, None), CellResult("bob", "nb", "t2", 2, 2, None),
               CellResult("cy", "nb", "t2", 0, 2, "NameError: x"), CellResult("dee", "nb", "t2", 2, 2, None)]
    (t1, points, count, passed, mistakes), _ = summary(results)
    assert (t1, points, count, passed) == ("t1", 1, 4, 1)
    assert mistakes == [(none, ["bob", "cy"]), ("NameError: x", ["dee"])]

    html_path, csv_path = write(tmp_path, "01_demo", results, {"eve": ["not a readable notebook"]})
    page = html_path.read_text()
    assert "4 of 5 submissions graded" in page and "mean score 1.8 of 3" in page
    assert "<b>2</b> × dy/dx is None" in page and "bob, cy" in page
    assert "<td>eve</td><td>not a readable notebook</td>" in page
    assert 'src="data:image/png;base64,' in page
    with open(csv_path) as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 9 and rows[-1]["mistake"] == "not graded: not a readable notebook"
    assert {(r["student"], r["test"]) for r in rows if r["mistake"] == none} == {("bob", "t1"), ("cy", "t1")}


def test_html_escapes_what_students_wrote(tmp_path):
    results = [CellResult("<script>", "nb", "t1", 0, 1, "ValueError: <img src=x onerror=alert(1)>")]
    page = write(tmp_path, "01_demo", results, {})[0].read_text()
    assert "<script>" not in page and "<img src=x" not in page


def test_why_nbgrader_could_not_grade_is_the_error_not_its_closing_line():
    from autograder.grading.coordinator import why_not_graded

    log = ("[AutogradeApp | ERROR] Error occurred while starting new kernel client for kernel 46f9: "
           "Kernel didn't respond in 60 seconds\nTraceback (most recent call last):\n  File \"client.py\", line 566\n"
           "RuntimeError: Kernel didn't respond in 60 seconds\n")
    error = ("Traceback (most recent call last):\n  File \"base.py\"\nnbgrader.converters.base.NbGraderException: "
             "Please see the the above traceback for details on the specific errors on the above failures.\n")
    assert why_not_graded({"success": False, "log": log, "error": error}) == "RuntimeError: Kernel didn't respond in 60 seconds"
    assert why_not_graded({"success": False, "error": "something odd happened\n"}) == "something odd happened"
    assert why_not_graded({"success": False}) == "no error message"
