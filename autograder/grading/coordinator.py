"""The coordinator: grade a whole class on nbgrader's API and gradebook, in parallel, so no submission can stop the others.

nbgrader's own `autograde ASSIGNMENT` stops the whole batch on one notebook with a copied locked
cell, grades a notebook whose metadata was stripped as 0 without a word, and runs one submission
after another, each paying a kernel start and TensorFlow's import. Here each submission is first
checked (and, where the release notebook allows it, repaired by cell id), then graded in three steps:

1. prepare: nbgrader's autograde sanitizes it (the release's locked cells and hidden tests put back);
2. run: a worker executes it (see pool.py: in parallel, in a fresh kernel forked from a warm fork
   server, in the sandbox), with nbgrader's own Execute preprocessor;
3. record: nbgrader's autograde again, without sanitizing again and with the executed notebook in
   place of its Execute step, scores it into the gradebook. Only this process writes the gradebook.

Every problem ends up in the report with what was done about it.
"""
from __future__ import annotations

import re
import shutil
import tempfile
import time
import warnings
from concurrent.futures import as_completed
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Unicode

from .. import course, setup_cell
from . import class_report, echoes, judge, nbgrader_api, pool, sandbox, tampering
from .limits import Limits
from .progress import progress_bar
from .repair import preflight

# nbgrader's autograde steps after Execute, by name, for the record step.
AFTER_EXECUTE = [
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]


@dataclass
class Outcome:
    """What happened to one student's submission."""

    student: str
    graded: bool = False
    score: float | None = None
    max_score: float | None = None
    notes: list[str] = field(default_factory=list)
    reaches: list[tampering.Reach] = field(default_factory=list)  # answer lines that reach for the grading machinery
    limits: list[str] = field(default_factory=list)  # the sandbox's limits it met, with what happened (limits.py)
    unprotected: list[str] = field(default_factory=list)  # limits the worker that ran it could not set
    seconds: dict[str, float] = field(default_factory=dict)  # per step: prepare, run, record, feedback


class Replay(NbGraderPreprocessor):
    """In place of nbgrader's Execute: the notebook a worker executed, after checking it is the one
    prepared for it (same cells, same sources)."""

    folder = Unicode(help="where the notebooks are: <student>/<notebook>.ipynb executed, .prepared.ipynb as sent").tag(config=True)

    def preprocess(self, nb, resources):
        student, notebook = resources["nbgrader"]["student"], resources["nbgrader"]["notebook"]
        executed, prepared = (nbformat.read(Path(self.folder) / student / f"{notebook}{suffix}", as_version=4)
                              for suffix in (".ipynb", ".prepared.ipynb"))
        if [(c.get("id"), c.source) for c in executed.cells] != [(c.get("id"), c.source) for c in prepared.cells]:
            raise ValueError(f"the notebook executed for {student} is not the one prepared for it: grade it again")
        return executed, resources


def grade_class(assignment: str, root: Path = course.ROOT, students: list[str] | None = None,
                csv_path: Path | None = None, sandboxed: bool = True, workers: int | None = None,
                scheduler: str | None = None, time_budget: int | None = None) -> list[Outcome]:
    """Autograde every submission of `assignment`, then write feedback, the grades CSV and the class report.

    sandboxed:   run each student's kernel in the sandbox (bubblewrap), refusing when it cannot.
    workers:     how many submissions run at once on this machine (default: one per core).
    scheduler:   a Dask scheduler's address: run submissions on its workers instead.
    time_budget: wall-clock seconds one submission may take (default: limits.Limits.wall_seconds).
    """
    from sqlalchemy.exc import SAWarning

    with warnings.catch_warnings():
        # nbgrader 0.9.6 trips SQLAlchemy's autoflush warning ("not in session") on every
        # submission; the scores it writes are right, and the report is what the instructor reads.
        warnings.filterwarnings("ignore", category=SAWarning)
        return _grade_class(assignment, root, students, csv_path, sandboxed, workers, scheduler, time_budget)


def _grade_class(assignment, root, students, csv_path, sandboxed, workers, scheduler, time_budget):
    from nbgrader.api import Gradebook

    if sandboxed:
        sandbox.check_bubblewrap()
    api = nbgrader_api.api(root)
    a = course.Assignment(assignment, root)
    release = nbformat.read(a.release, as_version=4)
    setup = setup_cell.find_setup_cell(release, assignment)
    settings = pool.Settings(execute_config=dict(api.config.Execute), sandboxed=sandboxed,
                             warm_cells=[setup.source] if setup is not None else [],
                             judged=setup is not None and judge.is_judged(release),
                             limits=Limits(wall_seconds=time_budget) if time_budget else Limits())
    # Local workers start their fork servers now, while the gradebook is readied and submissions prepared.
    with _workers(settings, workers, scheduler) as workers_pool:
        with Gradebook(api.coursedir.db_url) as gradebook:
            known = {x.name for x in gradebook.assignments}
        if assignment not in known:
            result = api.generate_assignment(assignment, force=True, create=True)
            if not result["success"]:
                raise course.CourseError(f"nbgrader generate_assignment {assignment} failed:\n{result['error']}")

        submitted = root / "submitted"
        if students is None:  # submitted/<student id>/<assignment>/
            students = sorted(p.parent.name for p in submitted.glob(f"*/{assignment}") if p.is_dir())
        outcomes = {student: Outcome(student) for student in students}
        executed = Path(tempfile.mkdtemp(prefix="executed-"))
        prepare = nbgrader_api.api(root, Autograde={"autograde_preprocessors": []})
        # prepare has sanitized the submission already: record takes it as it is, then the executed one
        record = nbgrader_api.api(root, Autograde={"sanitize_preprocessors": [],
                                       "autograde_preprocessors": ["autograder.grading.coordinator.Replay", *AFTER_EXECUTE]},
                      Replay={"folder": str(executed)})

        def summarize():  # while the workers write feedback
            _scores_csv_and_report(assignment, root, api.coursedir.db_url, [outcomes[s] for s in students], csv_path)

        def read_answers(outcome, notebook):  # before they run, where no answer can touch the reading
            outcome.reaches = tampering.reaches(nbformat.reads(notebook, as_version=4), setup.source if setup else "")
            outcome.notes += [f"an answer reaches for the grading machinery: {reach}" for reach in outcome.reaches]

        try:
            _run_steps(assignment, root, students, outcomes, a, prepare, record, executed, workers_pool, summarize,
                       read_answers)
        finally:
            shutil.rmtree(executed, ignore_errors=True)
    return [outcomes[student] for student in students]


def _workers(settings: pool.Settings, workers: int | None, scheduler: str | None):
    """Where submissions run: this machine's processes, or a Dask cluster's workers when given its scheduler."""
    if scheduler:
        from .dask_workers import DaskWorkers

        return DaskWorkers(settings, scheduler)
    return pool.LocalWorkers(settings, workers)


def _scores_csv_and_report(assignment, root, db_url, outcomes, csv_path):
    """Each outcome's score from the gradebook, then the grades CSV and the class report."""
    from nbgrader.api import Gradebook, MissingEntry

    with Gradebook(db_url) as gradebook:
        for outcome in outcomes:
            try:
                submission = gradebook.find_submission(assignment, outcome.student)
            except MissingEntry:
                continue
            outcome.max_score = submission.max_score
            if outcome.graded:
                outcome.score = submission.score
    export_csv(root, csv_path or root / "grades.csv")
    not_graded = {o.student for o in outcomes if not o.graded}  # a failed run may leave a record: not a result
    everyone = sorted(p.parent.name for p in (root / "submitted").glob(f"*/{assignment}") if p.is_dir())
    results = class_report.collect(root, db_url, assignment, [s for s in everyone if s not in not_graded])
    class_report.write(root, assignment, results, {o.student: o.notes for o in outcomes if not o.graded},
                       reaches={o.student: [str(reach) for reach in o.reaches] for o in outcomes if o.reaches},
                       # a submission not graded has its limits among its notes, in the "not graded" table
                       limits={o.student: o.limits for o in outcomes if o.limits and o.graded},
                       unprotected=sorted({why for o in outcomes for why in o.unprotected}))


def _run_steps(assignment, root, students, outcomes, a, prepare, record, executed, workers, summarize, read_answers):
    """Prepare each submission here (and `read_answers` of it), run it on the workers, record each
    result as it comes back, then render feedback on the workers and `summarize` here meanwhile;
    the progress bar moves as submissions are recorded."""
    submitted = root / "submitted"
    with progress_bar(f"grading {assignment}", len(students)) as advance:
        running = {}
        for student in students:
            outcome = outcomes[student]
            gradable, outcome.notes = preflight(submitted / student / assignment / f"{assignment}.ipynb", a.release)
            if gradable:
                started = time.perf_counter()
                result = prepare.autograde(assignment, student, force=True, create=True)
                outcome.seconds["prepare"] = time.perf_counter() - started
                if result["success"]:
                    task = pool.task(root, assignment, student)
                    read_answers(outcome, task.notebook)
                    (executed / student).mkdir(parents=True, exist_ok=True)
                    (executed / student / f"{assignment}.prepared.ipynb").write_text(task.notebook)
                    running[workers.run(task)] = student
                    continue
                outcome.notes.append(f"nbgrader could not grade it: {why_not_graded(result)}")
            advance(False)
        for done in as_completed(running):
            outcome = outcomes[running[done]]
            _record(done, outcome, record, assignment, executed)
            advance(outcome.graded)
        # Feedback once everyone is recorded, a share of the class per worker.
        graded = [student for student in students if outcomes[student].graded]
        shares = [graded[k::workers.size] for k in range(workers.size) if graded[k::workers.size]]
        everyone = sorted(p.parent.name for p in (root / "autograded").glob(f"*/{assignment}"))
        feedback = {workers.feedback(root, assignment, share, [s for s in everyone if s not in share]): share
                    for share in shares}
        summarize()
        for done in as_completed(feedback):
            errors, seconds = done.result()
            for student in feedback[done]:
                outcomes[student].seconds["feedback"] = seconds / len(feedback[done])
                if student in errors:
                    outcomes[student].notes.append(f"feedback could not be generated: {errors[student]}")


def _record(done, outcome: Outcome, record, assignment: str, executed: Path) -> None:
    """Score a worker's executed notebook into the gradebook with nbgrader's own steps."""
    try:
        result = done.result()
    except Exception as error:  # the worker itself was lost (its process or machine died)
        outcome.notes.append(f"the worker running it was lost: {type(error).__name__}: {error}")
        return
    outcome.seconds["run"] = result.seconds
    outcome.limits, outcome.unprotected = result.limits, result.unprotected
    outcome.notes += [f"a sandbox limit stopped it: {limit}" for limit in result.limits]
    if result.silent:
        outcome.notes.append("test cells sent the grader nothing to check, and score 0 (their code was changed or "
                             f"stopped in the kernel): {', '.join(result.silent)}")
    if result.notebook is None:
        outcome.notes.append(f"nbgrader could not grade it: {result.error}")
        return
    path = executed / outcome.student / f"{assignment}.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(result.notebook)
    started = time.perf_counter()
    result = record.autograde(assignment, outcome.student, force=True, create=True)
    outcome.seconds["record"] = time.perf_counter() - started
    if result["success"]:
        outcome.graded = True
        # the notebook its feedback is written from, hidden tests in place: what it shows of them
        autograded = Path(record.coursedir.format_path(record.coursedir.autograded_directory, outcome.student, assignment))
        found = echoes.echoes(nbformat.read(autograded / f"{assignment}.ipynb", as_version=4))
        if outcome.reaches:
            tests = _mark_for_manual_grading(record, assignment, outcome.student, {r.cell for r in outcome.reaches},
                                             nbformat.read(autograded / f"{assignment}.ipynb", as_version=4))
            outcome.notes.append(f"the tests of its flagged answers are marked for manual grading: {', '.join(tests)}")
        if found:
            cells = ", ".join(dict.fromkeys(echo.name for echo in found))
            outcome.notes.append(f"outputs that showed lines of the hidden tests are left out of its feedback: {cells}")
    else:
        outcome.notes.append(f"nbgrader could not grade it: {why_not_graded(result)}")


def _mark_for_manual_grading(record, assignment: str, student: str, answers: set[str], nb) -> list[str]:
    """Mark the test cells after each flagged answer cell (up to the next answer cell) for manual grading in the
    gradebook, so that formgrader lists them for the instructor; returns their grade ids."""
    from nbgrader.api import Gradebook, MissingEntry

    tests, current = [], None
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if meta.get("solution"):
            current = meta.get("grade_id")
        elif meta.get("grade") and current in answers:
            tests.append(meta["grade_id"])
    with Gradebook(record.coursedir.db_url) as gradebook:
        for test in tests:
            try:
                gradebook.find_grade(test, assignment, assignment, student).needs_manual_grade = True
            except MissingEntry:
                continue
        gradebook.db.commit()
    return tests


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

    api = nbgrader_api.api(root)
    plugin = CsvExportPlugin(config=api.config)
    plugin.to = str(path)
    with Gradebook(api.coursedir.db_url) as gradebook:
        plugin.export(gradebook)


def report(assignment: str, outcomes: list[Outcome]) -> str:
    lines = [f"WARNING: {why}" for why in sorted({why for o in outcomes for why in o.unprotected})]
    lines.append(f"Grading {assignment}: {sum(o.graded for o in outcomes)} of {len(outcomes)} submissions graded")
    width = max([20] + [len(o.student) for o in outcomes])
    for o in outcomes:
        score = f"{o.score:g} / {o.max_score:g}" if o.graded and o.score is not None else "NOT GRADED"
        lines.append(f"  {o.student:<{width}} {score}")
        lines += [f"      - {note}" for note in o.notes]
    steps = {step: sum(o.seconds.get(step, 0.0) for o in outcomes) for step in ("prepare", "run", "record", "feedback")}
    lines.append("time per step, summed over submissions: " + ", ".join(f"{step} {s:.1f} s" for step, s in steps.items()))
    return "\n".join(lines)
