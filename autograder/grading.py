"""Grade a whole class with nbgrader, one student at a time, so no submission can stop the others.

nbgrader's own `autograde ASSIGNMENT` stops the whole batch on one notebook with a copied locked
cell, and grades a notebook whose metadata was stripped as 0 without a word. Here each submission
is first checked (and, where the release notebook allows it, repaired by cell id), then graded on
its own; every problem ends up in the report with what was done about it.
"""
from __future__ import annotations

import json
import shutil
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from . import course

ORIGINAL_SUFFIX = ".as-submitted"


@dataclass
class Outcome:
    """What happened to one student's submission."""

    student: str
    graded: bool = False
    score: float | None = None
    max_score: float | None = None
    notes: list[str] = field(default_factory=list)


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def _grade_id(cell):
    meta = _meta(cell)
    if meta.get("grade") or meta.get("solution") or meta.get("locked") or meta.get("task"):
        return meta.get("grade_id")
    return None


def repair(nb, release_nb) -> list[str]:
    """Fix in place what would make nbgrader abort or grade silently as 0; return what was done.

    - cells whose nbgrader metadata was stripped (by an editor or a notebook cleaner) get it back
      from the release cell with the same cell id;
    - a locked or graded cell copied by the student (the same grade id twice) keeps its metadata
      only on the copy whose cell id is the release's, so nbgrader grades the real one.
    """
    notes = []
    release_meta = {cell.get("id"): cell.metadata for cell in release_nb.cells if _grade_id(cell)}
    release_ids = {cell.metadata["nbgrader"]["grade_id"]: cell.get("id") for cell in release_nb.cells if _grade_id(cell)}
    restored = 0
    for cell in nb.cells:
        if not _grade_id(cell) and cell.get("id") in release_meta:
            for key in ("nbgrader", "deletable", "editable"):
                if key in release_meta[cell.get("id")]:
                    cell.metadata[key] = json.loads(json.dumps(release_meta[cell.get("id")][key]))
            restored += 1
    if restored:
        notes.append(f"restored nbgrader metadata on {restored} cell(s) by cell id (it had been stripped)")

    by_id: dict[str, list] = {}
    for cell in nb.cells:
        if _grade_id(cell):
            by_id.setdefault(_grade_id(cell), []).append(cell)
    for grade_id, cells in by_id.items():
        if len(cells) < 2:
            continue
        keep = next((c for c in cells if c.get("id") == release_ids.get(grade_id)), cells[-1])
        for cell in cells:
            if cell is not keep:
                cell.metadata.pop("nbgrader", None)
        notes.append(f"cell {grade_id!r} appeared {len(cells)} times (a copied cell); graded the original, ignored the copies")
    return notes


def preflight(path: Path, release_path: Path) -> tuple[bool, list[str]]:
    """Check (and repair) one submitted notebook. Returns (gradable, notes)."""
    if not path.exists():
        files = sorted(p.name for p in path.parent.iterdir()) if path.parent.exists() else []
        return False, [f"no {path.name} in the submission (found: {', '.join(files) or 'nothing'}); not graded"]
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as error:  # not JSON, not a notebook, a future format...
        return False, [f"{path.name} is not a readable notebook ({type(error).__name__}: {error}); not graded"]
    release_nb = nbformat.read(release_path, as_version=4)
    notes = repair(nb, release_nb)
    if not any(_grade_id(cell) for cell in nb.cells):
        return False, [f"{path.name} has no nbgrader cell metadata and no cell ids in common with the release: "
                       "it was rebuilt or cleaned by another tool; not graded (nbgrader would give 0 without saying why)"]
    if notes:
        original = path.with_name(path.name + ORIGINAL_SUFFIX)
        if not original.exists():
            shutil.copy2(path, original)
        nbformat.write(nb, path)
        notes.append(f"the file as submitted is kept as {original.name}")
    return True, notes


def _api(root: Path):
    from nbgrader.apps import NbGraderAPI

    config = course.nbgrader_config(root)
    config.CourseDirectory.root = str(root)
    return NbGraderAPI(config=config)


def grade_class(assignment: str, root: Path = course.ROOT, students: list[str] | None = None,
                csv_path: Path | None = None) -> list[Outcome]:
    """Autograde every submission of `assignment`, then write feedback and the grades CSV."""
    from sqlalchemy.exc import SAWarning

    with warnings.catch_warnings():
        # nbgrader 0.9.6 trips SQLAlchemy's autoflush warning ("not in session") on every
        # submission; the scores it writes are right, and the report is what the instructor reads.
        warnings.filterwarnings("ignore", category=SAWarning)
        return _grade_class(assignment, root, students, csv_path)


def _grade_class(assignment, root, students, csv_path):
    from nbgrader.api import Gradebook, MissingEntry

    api = _api(root)
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
    for student in students:
        outcome = Outcome(student)
        gradable, outcome.notes = preflight(submitted / student / assignment / f"{assignment}.ipynb", a.release)
        if gradable:
            result = api.autograde(assignment, student, force=True, create=True)
            if result["success"]:
                outcome.graded = True
            else:
                last = (result.get("error") or result.get("log") or "").strip().splitlines()[-1:]
                outcome.notes.append(f"nbgrader could not grade it: {' '.join(last)}")
        outcomes.append(outcome)

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
    return outcomes


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
    for o in outcomes:
        score = f"{o.score:g} / {o.max_score:g}" if o.graded and o.score is not None else "NOT GRADED"
        lines.append(f"  {o.student:<20} {score}")
        lines += [f"      - {note}" for note in o.notes]
    return "\n".join(lines)
