"""The coordinator: grade a whole class with nbgrader, one student at a time, so no submission can stop the others.

nbgrader's own `autograde ASSIGNMENT` stops the whole batch on one notebook with a copied locked
cell, and grades a notebook whose metadata was stripped as 0 without a word. Here each submission
is first checked (and, where the release notebook allows it, repaired by cell id), then graded on
its own; every problem ends up in the report with what was done about it.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from .. import course
from . import class_report, sandbox
from .progress import progress_bar
from .repair import preflight


@dataclass
class Outcome:
    """What happened to one student's submission."""

    student: str
    graded: bool = False
    score: float | None = None
    max_score: float | None = None
    notes: list[str] = field(default_factory=list)


def _api(root: Path, sandboxed: bool = False):
    from nbgrader.apps import NbGraderAPI

    config = course.nbgrader_config(root)
    config.CourseDirectory.root = str(root)
    api = NbGraderAPI(config=config)
    if sandboxed:
        sandbox.check_bubblewrap()
        sandbox.configure(config, root, api.coursedir.db_url)
        api = NbGraderAPI(config=config)
    return api


def grade_class(assignment: str, root: Path = course.ROOT, students: list[str] | None = None,
                csv_path: Path | None = None, sandboxed: bool = False) -> list[Outcome]:
    """Autograde every submission of `assignment`, then write feedback and the grades CSV.

    sandboxed: run each student's kernel in the sandbox (bubblewrap), refusing when it cannot.
    """
    from sqlalchemy.exc import SAWarning

    with warnings.catch_warnings():
        # nbgrader 0.9.6 trips SQLAlchemy's autoflush warning ("not in session") on every
        # submission; the scores it writes are right, and the report is what the instructor reads.
        warnings.filterwarnings("ignore", category=SAWarning)
        return _grade_class(assignment, root, students, csv_path, sandboxed)


def _grade_class(assignment, root, students, csv_path, sandboxed):
    from nbgrader.api import Gradebook, MissingEntry

    api = _api(root, sandboxed)
    a = course.Assignment(assignment, root)
    with Gradebook(api.coursedir.db_url) as gradebook:
        known = {x.name for x in gradebook.assignments}
    if assignment not in known:
        result = api.generate_assignment(assignment, force=True, create=True)
        if not result["success"]:
            raise course.CourseError(f"nbgrader generate_assignment {assignment} failed:\n{result['error']}")

    submitted = root / "submitted"
    if students is None:  # submitted/<student id>/<assignment>/
        students = sorted(p.parent.name for p in submitted.glob(f"*/{assignment}") if p.is_dir())
    outcomes = []
    with progress_bar(f"grading {assignment}", len(students)) as advance:
        for student in students:
            outcome = Outcome(student)
            gradable, outcome.notes = preflight(submitted / student / assignment / f"{assignment}.ipynb", a.release)
            if gradable:
                result = api.autograde(assignment, student, force=True, create=True)
                if result["success"]:
                    outcome.graded = True
                else:
                    outcome.notes.append(f"nbgrader could not grade it: {why_not_graded(result)}")
            outcomes.append(outcome)
            advance(outcome.graded)

    with Gradebook(api.coursedir.db_url) as gradebook:
        for outcome in outcomes:
            try:
                submission = gradebook.find_submission(assignment, outcome.student)
            except MissingEntry:
                continue
            outcome.max_score = submission.max_score
            if outcome.graded:
                outcome.score = submission.score
    for outcome in outcomes:
        if outcome.graded:
            result = api.generate_feedback(assignment, outcome.student, force=True)
            if not result["success"]:
                outcome.notes.append("feedback could not be generated: " + (result.get("error") or "").strip()[-200:])
    export_csv(root, csv_path or root / "grades.csv")
    not_graded = {o.student for o in outcomes if not o.graded}  # a failed run may leave a record: not a result
    everyone = sorted(p.parent.name for p in submitted.glob(f"*/{assignment}") if p.is_dir())
    results = class_report.collect(root, api.coursedir.db_url, assignment, [s for s in everyone if s not in not_graded])
    class_report.write(root, assignment, results, {o.student: o.notes for o in outcomes if not o.graded})
    return outcomes


ERROR_LINE = re.compile(r"^[\w.]*(Error|Exception|Timeout)\w*: \S")


def why_not_graded(result: dict) -> str:
    """The error that stopped nbgrader, from its log and traceback, rather than its closing line
    ("NbGraderException: Please see the above traceback...")."""
    text = "\n".join(part for part in (result.get("log"), result.get("error")) if part)
    lines = [line.strip() for line in text.splitlines()]
    causes = [line for line in lines if ERROR_LINE.match(line) and "see the the above traceback" not in line]
    return causes[-1] if causes else next((line for line in reversed(lines) if line), "no error message")


def export_csv(root: Path, path: Path) -> None:
    """nbgrader's CSV export of the whole gradebook."""
    from nbgrader.api import Gradebook
    from nbgrader.plugins import CsvExportPlugin

    api = _api(root)
    plugin = CsvExportPlugin(config=api.config)
    plugin.to = str(path)
    with Gradebook(api.coursedir.db_url) as gradebook:
        plugin.export(gradebook)


def report(assignment: str, outcomes: list[Outcome]) -> str:
    lines = [f"Grading {assignment}: {sum(o.graded for o in outcomes)} of {len(outcomes)} submissions graded"]
    width = max([20] + [len(o.student) for o in outcomes])
    for o in outcomes:
        score = f"{o.score:g} / {o.max_score:g}" if o.graded and o.score is not None else "NOT GRADED"
        lines.append(f"  {o.student:<{width}} {score}")
        lines += [f"      - {note}" for note in o.notes]
    return "\n".join(lines)
