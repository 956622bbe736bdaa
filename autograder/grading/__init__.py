"""Class grading: nbgrader's autograde and feedback for every submission of an assignment.

One room per job: `repair` (make a submission gradable or say why not), `coordinator` (grade the
class on nbgrader's API and gradebook, write feedback and the grades CSV), `pool` (the workers that
run submissions in parallel) and its Dask twin `dask_workers`, `forkserver` (a fresh kernel per
submission, forked with TensorFlow already imported), `sandbox` (student code in bubblewrap),
`progress` (the bar while grading), `class_report` (what the class got wrong, per test, as HTML and
CSV), `demo` (a demo class, graded as an instructor would).
"""
from .coordinator import Outcome, export_csv, grade_class, report
from .repair import ORIGINAL_SUFFIX, preflight, repair

__all__ = ["ORIGINAL_SUFFIX", "Outcome", "export_csv", "grade_class", "preflight", "repair", "report"]
