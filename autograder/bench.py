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
