"""nbgrader's API on a course folder: the one place the grading rooms get it from.

The coordinator prepares and records submissions with it; worker processes (local or beside a Dask
cluster) render feedback with it. It imports nothing else of the grading package.
"""
from __future__ import annotations

import time
from pathlib import Path

from .. import course


def api(root: Path, **config_sections):
    """nbgrader's API on the course at `root`, with more configuration ({"Autograde": {...}})."""
    from nbgrader.apps import NbGraderAPI

    config = course.nbgrader_config(root)
    config.CourseDirectory.root = str(root)
    for section, values in config_sections.items():
        for key, value in values.items():
            config[section][key] = value
    return NbGraderAPI(config=config)


def generate_feedback(root: str, assignment: str, students: list[str], others: list[str]) -> tuple[dict[str, str], float]:
    """nbgrader's generate_feedback for `students`, in one run (its templates are compiled once);
    returns ({student: error} for those it failed, seconds). It reads the gradebook, never writes it."""
    started = time.perf_counter()
    nbgrader = api(Path(root), CourseDirectory={"student_id_exclude": ",".join(others)})
    if nbgrader.generate_feedback(assignment)["success"]:
        return {}, time.perf_counter() - started
    errors = {}  # one of them stopped the run: find which, one at a time
    for student in students:
        result = nbgrader.generate_feedback(assignment, student, force=True)
        if not result["success"]:
            errors[student] = (result.get("error") or "").strip()[-200:] or "no error message"
    return errors, time.perf_counter() - started
