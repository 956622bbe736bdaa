"""The grader's reading of answer cells: every way into the grading machinery is named with its line,
and no correct answer of the course is."""
import copy
import importlib

import nbformat
import pytest

from autograder import course
from autograder.grading.tampering import reaches
from autograder.setup_cell import setup_source

from conftest import ROOT

ANSWER_ID = "01_first_gradient_slope"
WAYS_IN = {  # an answer cell's source, and the words the flag on its line must say
    "clears the cell events": ("get_ipython().events.callbacks['post_run_cell'].clear()", "IPython"),
    "reaches the shell's names": ("shell = get_ipython()\nshell.user_ns['check_close'] = print", "IPython"),
    "imports IPython": ("from IPython import get_ipython as ip", "IPython"),
    "rebinds a check": ("def check_gradient(*args, **kwargs):\n    pass", "rebinds check_gradient"),
    "assigns a check": ("check_from_tape = check_close = print", "rebinds check_from_tape"),
    "a global from its function": ("def slope(f, x):\n    global check_gradient\n    check_gradient = print\n"
                                   "    return 0.0", "rebinds check_gradient"),
    "globals() from its function": ("def slope(f, x):\n    globals()['check_gradient'] = print\n    return 0.0",
                                    "names wholesale"),
    "vars()": ("vars()['check_gradient'] = print", "names wholesale"),
    "numpy's function": ("np.allclose = lambda *args, **kwargs: True", "changes np.allclose"),
    "numpy's submodule": ("np.testing.assert_allclose = print", "changes np.testing.assert_allclose"),
    "setattr on numpy": ("setattr(np, 'isclose', print)", "changes np's attributes"),
    "a tape method": ("tf.GradientTape.gradient = lambda self, y, x: 2 * x", "changes tf.GradientTape.gradient"),
    "a check's insides": ("TapeCalls.__exit__ = lambda self, *exc: False", "changes TapeCalls.__exit__"),
    "sys.modules": ("import sys\nsys.modules['numpy'].allclose = print", "names wholesale"),
    "frames": ("import sys\ncaller = sys._getframe(1).f_globals", "frames"),
    "inspect": ("import inspect\nframe = inspect.currentframe().f_back", "frames"),
    "a function's defaults": ("def read(fn):\n    return fn.__defaults__", "frames or the insides of functions"),
    "a closure by name": ("def read(fn):\n    return getattr(fn, '__closure__', None)", "frames or the insides of functions"),
    "gc": ("import gc\nkeys = gc.get_referrers(check_close)", "frames or the insides of functions"),
    "builtins": ("import builtins\nbuiltins.print = None", "names wholesale"),
    "exec": ("exec('np.allclose = print')", "built while it runs"),
    "a new numpy": ("np = None", "rebinds np"),
}


def _notebook_with(answer):
    nb = nbformat.read(course.Assignment("01_first_gradient", ROOT).source, as_version=4)
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == ANSWER_ID:
            cell.source = answer
    return nb


@pytest.mark.parametrize("way", WAYS_IN)
def test_every_way_into_the_grading_machinery_is_named_with_its_cell_and_line(way):
    answer, words = WAYS_IN[way]
    found = reaches(_notebook_with(answer), setup_source())
    assert found, way
    assert all(reach.cell == ANSWER_ID for reach in found)
    lines = answer.splitlines()
    assert any(words in reach.why or words in str(reach) for reach in found), [str(r) for r in found]
    assert all(reach.code == lines[reach.line - 1].strip() for reach in found)


def test_answers_of_their_own_are_not_flagged():
    answer = ("import numpy as np\nimport tensorflow as tf\n\n"
              "def slope(f, x):\n    check = 1  # a local name, not the setup cell's\n"
              "    def tolerances():\n        return 0\n"
              "    x = tf.convert_to_tensor(x)\n    with tf.GradientTape() as tape:\n        tape.watch(x)\n"
              "        y = x * x\n    print(vars(tape).keys() and '', np.allclose(1, 1))\n    return tape.gradient(y, x)\n")
    assert reaches(_notebook_with(answer), setup_source()) == []


@pytest.mark.parametrize("name", [a.name for a in course.assignments(ROOT)])
def test_no_solution_and_no_synthetic_submission_of_the_course_is_flagged_unless_it_reaches(name):
    """Correct answers, wrong ones and the shortcuts alike are not flagged; a submission that reaches for
    the machinery on purpose says so ("reaches": the words its flags must say, one per flagged line)."""
    nb = nbformat.read(course.Assignment(name, ROOT).source, as_version=4)
    setup = setup_source()
    assert reaches(nb, setup) == []
    answers = nbformat.v4.new_notebook(cells=[cell for cell in nb.cells if cell.metadata.get("nbgrader", {}).get("solution")])
    for student, case in importlib.import_module(f"submissions.{name}").SUBMISSIONS.items():
        submission = copy.deepcopy(answers)
        for cell in submission.cells:
            cell.source = case["answers"].get(cell.metadata.nbgrader.grade_id, cell.source)
        found = reaches(submission, setup)
        expected = case.get("reaches", [])
        assert len(found) == len(expected) and all(words in str(r) for r, words in zip(found, expected)), (student, found)
