"""The grading guard: an answer that replaces the checks or NumPy's functions gets them put back, and
the cell in which that happened writes to stderr, which nbgrader scores as 0."""
import io
from types import SimpleNamespace

import numpy as np
import pytest

from autograder.notebook_side import checks, guard


class Events:
    """IPython's EventManager, as far as the guard uses it."""

    def __init__(self):
        self.callbacks = {"pre_run_cell": [], "post_run_cell": []}

    def register(self, event, callback):
        self.callbacks[event].append(callback)

    def trigger(self, event, *args):
        for callback in list(self.callbacks[event]):
            callback(*args)


@pytest.fixture
def guarded_shell():
    shell = SimpleNamespace(user_ns={"check_close": checks.check_close, "np": np}, events=Events())
    stderr = io.StringIO()
    stop = guard.guard_the_checks(shell, stderr)
    yield shell, stderr
    stop()


def run_cell(shell, source):
    """What IPython does with a cell, as far as the guard sees it: the events around the code's exec."""
    shell.events.trigger("pre_run_cell", None)
    exec(compile(source, "<cell>", "exec"), shell.user_ns)
    shell.events.trigger("post_run_cell", None)


def test_a_cell_that_replaces_a_check_or_numpy_is_failed_and_the_originals_come_back(guarded_shell):
    shell, stderr = guarded_shell
    allclose = np.allclose
    try:
        shell.user_ns["check_close"] = lambda *args, **kwargs: None
        np.allclose = lambda *args, **kwargs: True
        shell.events.trigger("post_run_cell", None)
    finally:
        replaced, np.allclose = np.allclose, allclose
    assert "replaced check_close, numpy.allclose" in stderr.getvalue()
    assert shell.user_ns["check_close"] is checks.check_close
    assert replaced is allclose  # put back by the guard, not by this test's finally


def test_before_each_cell_the_originals_are_put_back_silently(guarded_shell):
    shell, stderr = guarded_shell
    shell.user_ns["check_close"] = print
    shell.events.trigger("pre_run_cell", None)
    assert shell.user_ns["check_close"] is checks.check_close and stderr.getvalue() == ""


def test_cells_that_replace_nothing_say_nothing(guarded_shell):
    shell, stderr = guarded_shell
    shell.user_ns["answer"] = 42  # the student's own names are theirs
    run_cell(shell, "answer = answer + 1")
    assert stderr.getvalue() == "" and shell.user_ns["answer"] == 43


# (Removing the events themselves, `callbacks.clear()` or `shell.events = None`, makes IPython fail
# every later cell before it runs: such an answer loses every point by itself.)
@pytest.mark.parametrize("removal", [
    "events.callbacks['pre_run_cell'].clear(); events.callbacks['post_run_cell'].clear()",
    "events.callbacks['pre_run_cell'] = []; events.callbacks['post_run_cell'] = []",
    "for name, found in events.callbacks.items():\n    found[:] = []",
    "events.callbacks.update(pre_run_cell=[], post_run_cell=[])",
    "for name, found in events.callbacks.items():\n    for _ in range(len(found)):\n        found.pop()",
])
def test_an_answer_cannot_unregister_the_guard_and_the_cell_that_tries_is_failed(guarded_shell, removal):
    shell, stderr = guarded_shell
    shell.user_ns.update(events=shell.events)
    run_cell(shell, f"{removal}\ncheck_close = lambda *args, **kwargs: None")
    assert "replaced check_close" in stderr.getvalue()
    assert shell.user_ns["check_close"] is checks.check_close


@pytest.mark.parametrize("removal", [
    "list.clear(events.callbacks['pre_run_cell']); list.clear(events.callbacks['post_run_cell'])",
    "dict.__setitem__(events.callbacks, 'pre_run_cell', []); dict.__setitem__(events.callbacks, 'post_run_cell', [])",
])
def test_an_answer_that_removes_the_guards_events_anyway_gets_them_back_when_the_next_cell_starts(guarded_shell, removal):
    shell, stderr = guarded_shell
    shell.user_ns.update(events=shell.events)
    allclose = np.allclose
    try:
        run_cell(shell, f"{removal}\ncheck_close = lambda *args, **kwargs: None\nnp.allclose = lambda *args, **kwargs: True")
        assert shell.user_ns["check_close"] is not checks.check_close  # the events are gone: nothing put it back yet
        run_cell(shell, "result = check_close")  # the next cell: the audit hook sees its code start
    finally:
        replaced, np.allclose = np.allclose, allclose
    assert "removed the grading guard's cell events" in stderr.getvalue()
    assert shell.user_ns["result"] is checks.check_close and replaced is allclose
    run_cell(shell, "events.callbacks['post_run_cell'].clear()\ncheck_close = print")  # kept again
    assert "replaced check_close" in stderr.getvalue() and shell.user_ns["check_close"] is checks.check_close
