"""`make bench`: how long TensorFlow's import and each notebook take here, against the course's targets.

Each notebook runs twice: as nbgrader runs it (NBGRADER_EXECUTION set: long demos, such as a training
run, take their short path), which must stay under 30 s, and as a learner runs it (every demo in
full), which must stay under 2 minutes.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from . import course
from .execute import KERNEL_ENV, run

GRADED_SECONDS = 30.0
LEARNER_SECONDS = 120.0


def import_seconds(repeats: int = 3) -> list[float]:
    """Wall time of `python -c "import tensorflow"` in fresh processes."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import tensorflow"], check=True,
                       env={**os.environ, **KERNEL_ENV}, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def notebook_seconds(path: Path, graded: bool) -> tuple[float, float]:
    """(total wall time with kernel start-up, slowest cell) of one notebook run top to bottom."""
    nb = nbformat.read(path, as_version=4)
    env = {"NBGRADER_EXECUTION": "autograde"} if graded else {}
    with tempfile.TemporaryDirectory() as cwd:
        start = time.perf_counter()
        _, timings = run(nb, Path(cwd), allow_errors=True, env=env)
        total = time.perf_counter() - start
    return total, max(timings.values(), default=0.0)


def main(names: list[str], root: Path = course.ROOT) -> int:
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    times = import_seconds()
    print(f"import tensorflow: {' / '.join(f'{t:.2f}' for t in times)} s (3 fresh processes)")
    slow = 0
    chosen = [a for a in course.assignments(root) if not names or a.name in names]
    for a in chosen:  # the source edition: every solution and every test runs
        for graded, target, who in ((True, GRADED_SECONDS, "graded"), (False, LEARNER_SECONDS, "learner")):
            total, slowest = notebook_seconds(a.source, graded)
            verdict = "ok" if total < target else f"OVER the {target:g} s target"
            slow += total >= target
            print(f"{a.name} ({who}): {total:.1f} s top to bottom with kernel start, "
                  f"slowest cell {slowest:.1f} s  [{verdict}]")
    return 1 if slow else 0


# ---------------------------------------------------------------- `make bench-grading`

def _class_of(root: Path, folder: Path, name: str, size: int) -> list[str]:
    """A scratch course with `size` submissions of `name`: correct, blank, every synthetic one but those built to
    game the checks (correct ones written differently and the plausible mistakes), then more correct ones."""
    from .grading import demo

    [a] = demo.make_course(root, folder, [name])
    demo.submit(a, "correct")
    demo.submit(a, "blank", demo.stubs(a))
    # the honest ones only: an answer built to game the checks may score otherwise under stock nbgrader (that is the point)
    honest = {student: case for student, case in demo.synthetic_submissions(root, name).items() if not case.get("games")}
    for student, case in list(honest.items())[:max(size - 2, 0)]:
        demo.submit(a, student, case["answers"])
    students = sorted(p.name for p in (folder / "submitted").iterdir())
    for index in range(size - len(students)):
        demo.submit(a, f"correct_{index + 1:02d}")
    return sorted(p.name for p in (folder / "submitted").iterdir())


def _gradebook_scores(folder: Path, name: str) -> dict[str, dict[str, float]]:
    """{student: {grade id: score}} from a course's gradebook."""
    from nbgrader.api import Gradebook, MissingEntry

    scores = {}
    with Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as gradebook:
        for student in gradebook.students:
            try:
                notebook = gradebook.find_submission_notebook(name, name, student.id)
            except MissingEntry:
                continue
            scores[student.id] = {grade.name: grade.score for grade in notebook.grades}
    return scores


def _timed(command: list[str], cwd: Path) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env={**os.environ, **KERNEL_ENV_FOR_GRADING})
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{(done.stdout + done.stderr)[-3000:]}")
    return seconds, done.stdout


SPEED_UP = 5.0  # the class graded at least this many times faster than stock nbgrader, same scores

# As `make grade` runs: TensorFlow quiet, nothing else chosen for the kernels.
KERNEL_ENV_FOR_GRADING = {"TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0"}


def grading_main(root: Path = course.ROOT, name: str = "01_first_gradient", size: int = 24,
                 keep: Path | None = None) -> int:
    """Grade the same class with stock nbgrader (autograde, then generate_feedback) and with
    `python -m autograder grade`, one after the other; print both times, the ratio and where the
    time went, and fail unless every student's every score is identical."""
    import shutil

    scratch = Path(keep or tempfile.mkdtemp(prefix="bench-grading-"))
    stock, ours = scratch / "stock", scratch / "ours"
    for folder in (stock, ours):
        shutil.rmtree(folder, ignore_errors=True)
        students = _class_of(root, folder, name, size)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; class: {len(students)} submissions of {name}")
    nbgrader = [str(Path(sys.executable).with_name("nbgrader"))]
    for folder in (stock, ours):  # as an instructor has before the class hands in: the gradebook and the release
        _timed(nbgrader + ["generate_assignment", name, "--force"], folder)
    autograde, _ = _timed(nbgrader + ["autograde", name], stock)
    feedback, _ = _timed(nbgrader + ["generate_feedback", name], stock)
    stock_seconds = autograde + feedback
    print(f"stock nbgrader: {stock_seconds:.1f} s (autograde {autograde:.1f} s, generate_feedback {feedback:.1f} s), "
          f"{stock_seconds / len(students):.2f} s per submission")
    ours_seconds, printed = _timed([sys.executable, "-m", "autograder", "grade", name], ours)
    print(f"python -m autograder grade: {ours_seconds:.1f} s, {ours_seconds / len(students):.2f} s per submission "
          f"(sandboxed, {os.cpu_count()} workers, feedback, CSV and class report included)")
    print("  " + next(line for line in printed.splitlines() if line.startswith("time per step")))
    ratio = stock_seconds / ours_seconds
    print(f"ratio: {ratio:.1f}x faster than stock  [{'ok' if ratio >= SPEED_UP else f'BELOW the {SPEED_UP:g}x target'}]")
    theirs, mine = _gradebook_scores(stock, name), _gradebook_scores(ours, name)
    different = sorted(s for s in set(theirs) | set(mine) if theirs.get(s) != mine.get(s))
    for student in different:
        print(f"  DIFFERENT {student}: stock {theirs.get(student)} / ours {mine.get(student)}")
    print(f"scores: {'identical for all ' + str(len(mine)) + ' students' if not different else str(len(different)) + ' students differ'}")
    if not keep:
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if different or len(mine) != len(students) or ratio < SPEED_UP else 0
