"""Feedback pages: nbgrader's generate_feedback with the course's exporter writes what nbconvert's would, and no
output that shows lines of the hidden tests."""
import base64
import copy
import html
import io
from pathlib import Path

import nbformat
from bs4 import BeautifulSoup
from nbconvert.exporters import HTMLExporter
from nbgrader.converters import GenerateFeedback
from nbgrader.coursedir import CourseDirectory

from autograder.course import nbgrader_config
from autograder.feedback import NO_DESCRIPTION, REMOVED_ECHO

from conftest import ROOT


def _png() -> str:
    import matplotlib

    matplotlib.use("agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(2, 1))
    ax.plot([0, 1], [1, 0])
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


def _notebook():
    png = _png()
    markdown = nbformat.v4.new_markdown_cell(
        f'A figure with a description: <img src="data:image/png;base64,{png}" alt="a falling line">\n\n'
        f'and one without: <img src="data:image/png;base64,{png}">')
    code = nbformat.v4.new_code_cell("check_gradient(dy_dx, expected_slope(3.0))", outputs=[
        nbformat.v4.new_output("display_data", data={"image/png": png, "text/plain": "<Figure>"}),
        nbformat.v4.new_output("error", ename="CheckFailed", evalue="dy/dx is None: the tape recorded no path",
                               traceback=["CheckFailed: dy/dx is None: the tape recorded no path"]),
    ])
    code.metadata["nbgrader"] = {"grade": True, "grade_id": "test_slope", "points": 2, "score": 0.0,
                                 "solution": False, "locked": True, "schema_version": 3}
    nb = nbformat.v4.new_notebook(cells=[markdown, code])
    nb.metadata["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}
    return nb


def _resources():  # what nbgrader's GetGrades gives the template
    return {"nbgrader": {"notebook": "01_demo", "score": 0.0, "max_score": 2.0, "late_penalty": 0.0}}


def test_the_feedback_page_is_nbconverts_element_for_element(tmp_path):
    config = nbgrader_config(ROOT)
    converter = GenerateFeedback(coursedir=CourseDirectory(root=str(tmp_path), config=config), config=config)
    assert converter.exporter_class.__name__ == "FeedbackExporter"  # what generate_feedback uses, as configured
    ours = converter.exporter_class(parent=converter, config=converter.config)
    stock = HTMLExporter(parent=converter, config=converter.config)  # nbgrader's default, with nbgrader's template

    nb = _notebook()
    mine, _ = ours.from_notebook_node(nb, _resources())
    theirs, _ = stock.from_notebook_node(nb, _resources())

    # Same elements, attributes (in any order) and text: the stock page is BeautifulSoup's own output.
    assert BeautifulSoup(mine, "html.parser") == BeautifulSoup(theirs, "html.parser")
    soup = BeautifulSoup(mine, "html.parser")
    alts = [img.get("alt") for img in soup.find_all("img")]
    assert alts == ["a falling line", NO_DESCRIPTION, NO_DESCRIPTION], alts
    assert "dy/dx is None: the tape recorded no path" in soup.get_text()


# -- outputs that show lines of the hidden tests

VISIBLE = '"""square_slope(x) equals 2x."""\ncheck_gradient(square_slope(3.0), 6.0, "square_slope(3.0)")\n'
HIDDEN = ["points = [-2.5, -1.0, 0.0, 0.5, 10.0]",
          'check_gradient(square_slope(point), 2.0 * point, f"square_slope({point})")',
          'assert square_slope(1e-3) != "<tiny & odd>"',
          "check_gradient(square_slope(0.5), 1.0, \"square_slope(0.5), 'half'\")"]
GRADE_SOURCE = (VISIBLE + "### BEGIN HIDDEN TESTS\n" + f"{HIDDEN[0]}\nfor point in points:\n    {HIDDEN[1]}\n"
                # public (also above) and trivial lines, which no output is removed for showing
                + 'check_gradient(square_slope(3.0), 6.0, "square_slope(3.0)")\npass\n'
                + f"{HIDDEN[2]}\n{HIDDEN[3]}\n### END HIDDEN TESTS")
ANSWER = "def square_slope(x):\n    x = tf.constant(x)\n    with tf.GradientTape() as tape:\n        tape.watch(x)\n" \
         "        y = x * x\n    return tape.gradient(y, x)"
CHECK_MESSAGE = "square_slope(-2.5) is not correct: got -4, expected -5. It is 4/5 of the answer."


def _colour(line: str) -> str:
    """A line as IPython's traceback colours it: its tokens apart, in ANSI escape codes."""
    return " ".join(f"\x1b[38;5;{28 + k}m{token}\x1b[39m" for k, token in enumerate(line.split()))


def _grading_notebook(outputs, later_outputs=()):
    """A prompt, an answer cell, a grade cell with hidden tests and `outputs`, a later cell with `later_outputs`."""
    prompt = nbformat.v4.new_markdown_cell("## Exercise 1 (2 points)\n\nReturn d(x²)/dx at x from a tape.")
    answer = nbformat.v4.new_code_cell(ANSWER)
    answer.metadata["nbgrader"] = {"grade": False, "grade_id": "01_demo_square_slope", "solution": True,
                                   "locked": False, "schema_version": 3}
    grade = nbformat.v4.new_code_cell(GRADE_SOURCE, outputs=list(outputs))
    grade.metadata["nbgrader"] = {"grade": True, "grade_id": "01_demo_square_value", "points": 2, "score": 2.0,
                                  "solution": False, "locked": True, "schema_version": 3}
    later = nbformat.v4.new_code_cell("square_slope(2.0)", outputs=list(later_outputs))
    nb = nbformat.v4.new_notebook(cells=[prompt, answer, grade, later])
    nb.metadata["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}
    return nb


def _feedback(nb, without=None):
    """The feedback page of `nb` through generate_feedback's preprocessors and exporter as configured
    (less GetGrades, which reads the gradebook: the cells carry its scores), and its output areas' texts."""
    config = nbgrader_config(ROOT)
    converter = GenerateFeedback(coursedir=CourseDirectory(root=str(ROOT), config=config), config=config)
    exporter = converter.exporter_class(parent=converter, config=converter.config)
    for preprocessor in converter.preprocessors:
        if preprocessor not in ("nbgrader.preprocessors.GetGrades", without):
            exporter.register_preprocessor(preprocessor)
    page, _ = exporter.from_notebook_node(copy.deepcopy(nb), _resources())
    soup = BeautifulSoup(page, "html.parser")
    return " ".join(soup.get_text().split()), [" ".join(area.get_text().split()) for area in soup.select("div.output_area")]


def test_outputs_that_show_hidden_lines_are_left_out_of_the_feedback_with_a_note():
    hostile = _grading_notebook(outputs=[
        nbformat.v4.new_output("stream", name="stdout", text=GRADE_SOURCE),  # print(In[-1])
        nbformat.v4.new_output("stream", name="stdout", text=VISIBLE + "pass\n"),  # public lines only
        nbformat.v4.new_output("display_data", data={"text/html": f"<pre>{html.escape(HIDDEN[2])}</pre>",
                                                     "text/plain": "<IPython.core.display.HTML object>"}),
        nbformat.v4.new_output("execute_result", data={"text/plain": repr(HIDDEN[3])}, execution_count=3),
        nbformat.v4.new_output("error", ename="RuntimeError", evalue=HIDDEN[1], traceback=["RuntimeError"]),
    ], later_outputs=[  # a later cell can show any cell that ran: IPython's traceback, coloured
        nbformat.v4.new_output("error", ename="NameError", evalue="name 'z' is not defined", traceback=[
            "\x1b[0;31mNameError\x1b[0m  Traceback (most recent call last)",
            f"Cell \x1b[0;32mIn[3], line 4\x1b[0m\n\x1b[1;32m----> 4\x1b[0m {_colour(HIDDEN[0])}\n",
            "\x1b[0;31mNameError\x1b[0m: name 'z' is not defined"]),
    ])
    text, outputs = _feedback(hostile)
    for line in HIDDEN:
        assert " ".join(line.split()) not in text, line
    note = " ".join(REMOVED_ECHO.split())
    public = " ".join((VISIBLE + "pass").split())
    # each run of removed outputs is one note; the output of public lines only is kept
    assert outputs == [note, public, note, note], outputs

    # without it, the same page shows them
    text, _ = _feedback(hostile, without="autograder.feedback.RemoveHiddenEchoes")
    assert all(" ".join(line.split()) in text for line in HIDDEN)


def test_a_notebook_that_shows_no_hidden_line_has_its_feedback_as_before():
    """A check's message, a plot, and the traceback IPython writes for a failing grade cell, which quotes
    its hidden lines (ShortenTracebacks cuts it to the message)."""
    png = _png()
    honest = _grading_notebook(outputs=[
        nbformat.v4.new_output("display_data", data={"image/png": png, "text/plain": "<Figure>"}),
        nbformat.v4.new_output("error", ename="CheckFailed", evalue=CHECK_MESSAGE, traceback=[
            "\x1b[0;31mCheckFailed\x1b[0m  Traceback (most recent call last)",
            f"Cell \x1b[0;32mIn[3], line 6\x1b[0m\n      4 {_colour(HIDDEN[0])}\n\x1b[1;32m----> 6\x1b[0m {_colour(HIDDEN[1])}\n",
            f"\x1b[0;31mCheckFailed\x1b[0m: {CHECK_MESSAGE}"]),
    ], later_outputs=[nbformat.v4.new_output("stream", name="stdout", text="square_slope(2.0) = 4.0\n")])
    config = nbgrader_config(ROOT).GenerateFeedback.preprocessors
    assert config.index("autograder.feedback.RemoveHiddenEchoes") < config.index("nbgrader.preprocessors.ClearHiddenTests")

    page = _feedback(honest)
    assert page == _feedback(honest, without="autograder.feedback.RemoveHiddenEchoes")
    assert page[1] == ["", f"CheckFailed: {CHECK_MESSAGE}", "square_slope(2.0) = 4.0"], page[1]


def test_the_report_names_the_cells_whose_outputs_the_feedback_leaves_out(tmp_path):
    from concurrent.futures import Future
    from types import SimpleNamespace

    from autograder.grading.coordinator import Outcome, _record, report
    from autograder.grading.pool import Result

    nb = _grading_notebook(outputs=[nbformat.v4.new_output("stream", name="stdout", text=GRADE_SOURCE)],
                           later_outputs=[nbformat.v4.new_output("stream", name="stdout", text=HIDDEN[0])])
    coursedir = CourseDirectory(root=str(tmp_path))

    def autograde(assignment, student, **_):  # nbgrader's record step writes the autograded notebook
        folder = Path(coursedir.format_path(coursedir.autograded_directory, student, assignment))
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{assignment}.ipynb")
        return {"success": True}

    done = Future()
    done.set_result(Result("ada", notebook=nbformat.writes(nb)))
    outcome = Outcome("ada")
    _record(done, outcome, SimpleNamespace(autograde=autograde, coursedir=coursedir), "01_demo", tmp_path / "executed")
    assert outcome.graded
    assert ("      - outputs that showed lines of the hidden tests are left out of its feedback: "
            "01_demo_square_value, cell 4") in report("01_demo", [outcome]).splitlines()
