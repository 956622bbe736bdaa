"""What nbgrader's feedback HTML shows students."""
from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor

from .setup_cell import setup_grade_id

SETUP_LINES_SHOWN = 3  # the setup cell's title and what it does


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
