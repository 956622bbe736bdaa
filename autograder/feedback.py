"""What nbgrader's feedback HTML shows students, and how it is written."""
import re

from nbconvert.exporters import HTMLExporter, TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter
from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

from .setup_cell import setup_grade_id

SETUP_LINES_SHOWN = 3  # the setup cell's title and what it does
REMOVED_ECHO = ("[Output removed: it showed lines of this assignment's hidden tests, which stay hidden from "
                "students. Your score is unchanged.]\n")


class ShortenTracebacks(NbGraderPreprocessor):
    """Cut a failing grade cell's traceback down to its last line ("CheckFailed: dy/dx is None: ...").

    IPython's traceback quotes the source lines around the failing one, hidden tests included,
    even when ClearHiddenTests has removed them from the cell. The last line is the message the
    check wrote for the student, which is what the feedback is for.
    """

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type == "code" and utils.is_grade(cell):
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [f"{output.get('ename')}: {output.get('evalue')}"]
        return cell, resources


class RemoveHiddenEchoes(NbGraderPreprocessor):
    """Put a note in place of each output that shows lines of the hidden tests (grading/echoes.py).

    An answer can make a cell print the cells that ran; ClearHiddenTests clears the hidden lines from
    the sources only, so this runs before it, while they are there to look for. Scores come from the
    gradebook (GetGrades), not from these outputs."""

    def preprocess(self, nb, resources):
        import nbformat

        from .grading.echoes import echoes

        removed = {}
        for echo in echoes(nb):
            removed.setdefault(echo.cell, set()).add(echo.output)
        for index, numbers in removed.items():
            outputs = []
            for number, output in enumerate(nb.cells[index].outputs):
                if number not in numbers:
                    outputs.append(output)
                elif number - 1 not in numbers:  # one note for a run of removed outputs
                    outputs.append(nbformat.v4.new_output("stream", name="stdout", text=REMOVED_ECHO))
            nb.cells[index].outputs = outputs
        return nb, resources


class NoteReaches(NbGraderPreprocessor):
    """Open the feedback with the answer lines that reach for the grading machinery, if any (see
    grading/tampering.py): the student learns what the instructor's report shows about their work."""

    def preprocess(self, nb, resources):
        import nbformat

        from .grading.tampering import reaches

        setup = next((cell for cell in nb.cells if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                      == setup_grade_id(resources["nbgrader"]["notebook"])), None)
        found = reaches(nb, setup.source) if setup is not None else []
        if found:
            lines = "\n".join(f"- `{reach.cell}`, line {reach.line}: `{reach.code}`: it {reach.why}." for reach in found)
            nb.cells.insert(0, nbformat.v4.new_markdown_cell(
                "**Some of your answer lines reach for the grading machinery.** Your work was graded as usual, "
                "and your instructor will look at it: the tests after these answers are marked for manual grading, "
                "and your instructor's report lists these lines too:\n\n" + lines))
        return nb, resources


class FoldSetupCell(NbGraderPreprocessor):
    """Show the setup cell as its first lines: the course's helpers (some 2,000 lines, the same in
    every notebook) say nothing about the student's work, and highlighting them is most of the
    time nbconvert takes to write a feedback page."""

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") == setup_grade_id(resources["nbgrader"]["notebook"]):
            lines = cell.source.splitlines()
            if len(lines) > SETUP_LINES_SHOWN:
                cell.source = "\n".join(lines[:SETUP_LINES_SHOWN] +
                                        [f"# ... {len(lines) - SETUP_LINES_SHOWN} more lines: the course's check and plot helpers"])
        return cell, resources


IMAGE_WITHOUT_ALT = re.compile(r"<img(?![^>]*\salt=)")
NO_DESCRIPTION = "No description has been provided for this image"  # HTMLExporter's own words


class FeedbackExporter(HTMLExporter):
    """nbconvert's HTML exporter, without reading back the page it has just written.

    HTMLExporter renders the page from its template, then parses all of it again with
    BeautifulSoup's pure-Python parser to give every image without an alt text one (and cells of
    JupyterLab's template a tabindex), and writes it out once more: half the time a feedback page
    takes. Here the images get the same alt text as the page is written. nbgrader's feedback
    template is the classic one, which has no JupyterLab cells.
    """

    def from_notebook_node(self, nb, resources=None, **kw):
        # HTMLExporter's own filters, as it registers them before rendering
        language = nb.metadata.get("language_info", {})
        lexer = language.get("pygments_lexer", language.get("name", None))
        self.register_filter("highlight_code", self.filters.get("highlight_code",
                                                                Highlight2HTML(pygments_lexer=lexer, parent=self)))
        resources = self._init_resources(resources)
        self.register_filter("filter_data_type", WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata,
                                                                       parent=self, resources=resources))
        html, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        return IMAGE_WITHOUT_ALT.sub(f'<img alt="{NO_DESCRIPTION}"', html), resources
