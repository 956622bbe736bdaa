"""The grading guard: an answer that replaces the checks or NumPy's functions gets them put back, and
the cell in which that happened writes to stderr, which nbgrader scores as 0."""
import io
from types import SimpleNamespace

import numpy as np

from autograder.notebook_side import checks, guard


class Events:
    def __init__(self):
        self.callbacks = {}

    def register(self, event, callback):
        self.callbacks[event] = callback


def guarded_shell():
    shell = SimpleNamespace(user_ns={"check_close": checks.check_close, "np": np}, events=Events())
    stderr = io.StringIO()
    guard.guard_the_checks(shell, stderr)
    return shell, stderr


def test_a_cell_that_replaces_a_check_or_numpy_is_failed_and_the_originals_come_back():
    shell, stderr = guarded_shell()
    allclose = np.allclose
    try:
        shell.user_ns["check_close"] = lambda *args, **kwargs: None
        np.allclose = lambda *args, **kwargs: True
        shell.events.callbacks["post_run_cell"](None)
    finally:
        replaced, np.allclose = np.allclose, allclose
    assert "replaced check_close, numpy.allclose" in stderr.getvalue()
    assert shell.user_ns["check_close"] is checks.check_close
    assert replaced is allclose  # put back by the guard, not by this test's finally


def test_before_each_cell_the_originals_are_put_back_silently():
    shell, stderr = guarded_shell()
    shell.user_ns["check_close"] = print
    shell.events.callbacks["pre_run_cell"](None)
    assert shell.user_ns["check_close"] is checks.check_close and stderr.getvalue() == ""


def test_cells_that_replace_nothing_say_nothing():
    shell, stderr = guarded_shell()
    shell.user_ns["answer"] = 42  # the student's own names are theirs
    shell.events.callbacks["pre_run_cell"](None)
    shell.events.callbacks["post_run_cell"](None)
    assert stderr.getvalue() == "" and shell.user_ns["answer"] == 42
