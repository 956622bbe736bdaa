"""Class grading: nbgrader's autograde and feedback for every submission of an assignment.

One room per job: `repair` (make a submission gradable or say why not), `coordinator` (grade the class
on nbgrader's gradebook, write feedback and the grades CSV, and choose where submissions run), `pool`
(the workers that run submissions in parallel) and its Dask twin `dask_workers`, `forkserver` (a fresh
kernel in a sandbox of its own per submission, forked with TensorFlow already imported), `forked_kernel` (nbgrader's Execute on
such a kernel), `sandbox` (student code in bubblewrap, on an allow-list), `limits` (what a submission
may use, and the reasons reported when it meets a limit), `nbgrader_api` (nbgrader's API on the course,
for the coordinator and the workers' feedback), `progress` (the bar while grading), `class_report` (what
the class got wrong, per test, as HTML and CSV), `demo` (a demo class, graded as an instructor would).
Imports go one way, from the coordinator down (tests/test_grading_layout.py).
"""
import importlib

_EXPORTS = {"Outcome": "coordinator", "export_csv": "coordinator", "grade_class": "coordinator", "report": "coordinator",
            "ORIGINAL_SUFFIX": "repair", "preflight": "repair", "repair": "repair"}
__all__ = sorted(_EXPORTS)


def __getattr__(name):
    # Imported on first use: a worker process imports only pool.py, so it can start its fork server
    # before nbgrader's import (seconds) is paid.
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
