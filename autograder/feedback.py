"""What nbgrader's feedback HTML shows students."""
from nbgrader import utils
from nbgrader.preprocessors import NbGraderPreprocessor


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
