"""Feedback pages: nbgrader's generate_feedback with the course's exporter writes what nbconvert's would."""
import base64
import io

import nbformat
from bs4 import BeautifulSoup
from nbconvert.exporters import HTMLExporter
from nbgrader.converters import GenerateFeedback
from nbgrader.coursedir import CourseDirectory

from autograder.course import nbgrader_config
from autograder.feedback import NO_DESCRIPTION

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
