"""The grader decides: what a test cell observes travels as validated plain data, the kernel runs no answer key
and no check, and the judge's verdict alone gives points (autograder/grading/judge.py, notebook_side/observations.py)."""
import ast
import base64
import json

import nbformat
import numpy as np
import pytest

from autograder import course
from autograder.grading import judge
from autograder.notebook_side import checks
from autograder.notebook_side.observations import (OBSERVATION_MIME, Observation, RunCounter, StudentCodeRaised,
                                                   Unreadable, integer_step, scaled_gradient)
from autograder.setup_cell import setup_source

from conftest import ROOT

tf = pytest.importorskip("tensorflow")
JUDGED = [a.name for a in course.assignments(ROOT) if judge.is_judged(nbformat.read(a.source, as_version=4))]


def _round_trip(value):
    return Observation.decode(json.loads(json.dumps(Observation.encode(value))))


def test_observed_values_keep_their_numbers_dtypes_and_structure():
    got = _round_trip({"w": tf.constant([1.5, -2.0], dtype=tf.float64), "b": tf.Variable(0.25), "none": None,
                       "list": [np.float32(3.0), 2, True], "tuple": (np.arange(6).reshape(2, 3),),
                       "slices": tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([1]), tf.constant([3, 2]))})
    assert got["w"].dtype == np.float64 and got["w"].tolist() == [1.5, -2.0]
    assert got["b"].dtype == np.float32 and got["b"].shape == () and float(got["b"]) == 0.25
    assert got["none"] is None and isinstance(got["tuple"], tuple) and got["tuple"][0].shape == (2, 3)
    assert [x.dtype.name for x in got["list"]] == ["float32", "int64", "bool"]
    assert got["slices"].tolist() == [[0.0, 0.0], [1.0, 2.0], [0.0, 0.0]]


def test_what_is_not_data_comes_back_named_and_the_checks_say_what_it_is():
    got = _round_trip([len, "text", object()])
    assert got[0] == Unreadable("builtin_function_or_method", "<built-in function len>") and got[1] == "text"
    with pytest.raises(checks.CheckFailed, match="builtin_function_or_method"):
        checks.check_gradient(got[0], 1.0, "slope(f, 3.0)")


@pytest.mark.parametrize("data", [
    "text", 3, [1], {"array": "AAAA", "dtype": "object", "shape": [1]},  # not a dict of ours; a dtype not allowed
    {"array": base64.b64encode(b"\0" * 8).decode(), "dtype": "float32", "shape": [3]},  # data that does not fit
    {"array": "", "dtype": "float32", "shape": [-1]}, {"array": "!!", "dtype": "float32", "shape": [1]},
    {"dict": [["a"]]}, {"list": "abc"}, {"str": 3}, {"object": 3, "repr": "x"}, {"list": [], "str": "x"},
    {"pickle": "gASVAAAAAAAAAACMCGJ1aWx0aW5zlC4="},
])
def test_malformed_observations_are_refused(data):
    with pytest.raises((ValueError, TypeError)):
        Observation.decode(data)


def test_nesting_is_capped_both_ways():
    deep = current = []
    for _ in range(50):
        current.append([])
        current = current[0]
    assert isinstance(_round_trip(deep), list)  # encoded with the deep part named, not recursed into
    data = None
    for _ in range(50):
        data = {"list": [data]}
    with pytest.raises(ValueError, match="deep"):
        Observation.decode(data)


def test_the_kernel_runs_no_answer_key_and_no_check():
    source = '''"""A check cell."""
@answer_key
def expected_slope(x):
    return 2 * x


def square(t):
    return t * t


points = [1.0, 2.0]
slopes = observe("slopes", lambda: [slope(square, p) for p in points])
expected = [expected_slope(p) for p in points]
for point, got in zip(points, slopes):
    check_gradient(got, expected_slope(point), f"slope({point})")
assert slopes is not None
### BEGIN HIDDEN TESTS
counter = RunCounter(square)
values, runs = observe("hidden", lambda: slope(counter, 3.0), count=counter)
check_runs(runs, "slope", runs=1)
### END HIDDEN TESTS
'''
    pruned = judge.prune(source)
    tree = ast.parse(pruned)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "expected_slope" not in pruned and "expected" not in names and not any(n.startswith("check_") for n in names)
    assert pruned.count("observe(") == 2 and "def square" in pruned and "A check cell" not in pruned
    assert "assert slopes" in pruned  # a plain assert stays: it checks nothing the judge relies on
    # a key of an earlier cell is left out too, and an observation that needs one is the course's own mistake
    assert "expected_slope" not in judge.prune("x = expected_slope(1.0)\ny = observe('y', lambda: slope(f, 1.0))", {"expected_slope"})
    with pytest.raises(ValueError, match="observes with x, which the kernel's cut leaves out"):
        judge.prune("x = expected_slope(1.0)\ny = observe('y', lambda: slope(f, x))", {"expected_slope"})


@pytest.mark.parametrize("name", JUDGED)
def test_every_test_cell_of_a_judged_notebook_has_a_cut_for_the_kernel(name):
    nb = nbformat.read(course.Assignment(name, ROOT).source, as_version=4)
    keys = judge.answer_keys(nb)
    assert keys
    for cell in nb.cells:
        if judge.is_test_cell(cell):
            pruned = judge.prune(cell.source, keys)
            assert "observe(" in pruned and not keys & {n.id for n in ast.walk(ast.parse(pruned)) if isinstance(n, ast.Name)}


@pytest.mark.parametrize("name", JUDGED)
def test_what_later_test_cells_use_is_defined_before_anything_can_fail(name):
    """A test cell stops at its first failing check, in the kernel and in the judge alike: a name later cells use
    must be bound before the cell's first observation or check, or one wrong answer would fail the cells after it."""
    tests = [cell.source for cell in nbformat.read(course.Assignment(name, ROOT).source, as_version=4).cells
             if judge.is_test_cell(cell)]
    for index, source in enumerate(tests):
        body = ast.parse(source).body
        first = next(i for i, node in enumerate(body) if "observe(" in ast.unparse(node) or "check_" in ast.unparse(node))
        late = {name for node in body[first:] if isinstance(node, (ast.FunctionDef, ast.ClassDef)) for name in [node.name]}
        used_later = {n.id for later in tests[index + 1:] for n in ast.walk(ast.parse(later)) if isinstance(n, ast.Name)}
        assert not late & used_later, (index, late & used_later)


def test_the_judge_replays_what_the_kernel_observed_and_nothing_else():
    replay = judge.Replay([{"label": "a", "value": Observation.encode(2.0)},
                           {"label": "b", "raised": ["NotImplementedError", ""]},
                           {"label": "c", "value": None, "counts": {"runs": 1, "elements": 3}},
                           {"label": "d", "value": None, "counts": {"runs": -1, "elements": "3"}},
                           {"label": "e", "value": {"array": "??", "dtype": "float64", "shape": []}}])
    assert replay.observe("a", compute=lambda: 1 / 0) == 2.0  # the student's code is never called here
    with pytest.raises(AssertionError, match="received nothing"):
        replay.observe("a")  # each observation once
    with pytest.raises(StudentCodeRaised, match="b: your code raised NotImplementedError") as raised:
        replay.observe("b")
    assert (raised.value.name, raised.value.message) == ("NotImplementedError", "")
    assert replay.observe("c", count=object()) == (None, {"runs": 1, "elements": 3})
    with pytest.raises(AssertionError, match="no count"):
        replay.observe("d", count=object())
    with pytest.raises(AssertionError, match="could not read"):
        replay.observe("e")


def _executed_cell(source, outputs):
    cell = nbformat.v4.new_code_cell(source, outputs=outputs)
    cell.metadata["nbgrader"] = {"grade": True, "solution": False, "grade_id": "demo_test", "points": 1}
    return cell


def _observation(label, value):
    return nbformat.v4.new_output("display_data", data={OBSERVATION_MIME: {"label": label, "value": Observation.encode(value)}})


@pytest.fixture(scope="module")
def running_judge():
    judged = judge.Judge()
    yield judged
    judged.stop()


CELL = '''"""slope(square, x) is 2x."""
@answer_key
def expected(x):
    return 2.0 * x


got = observe("slopes", lambda: [slope(lambda t: t * t, p) for p in [1.0, 2.0, 3.0]])
check_gradient(np.array(got), expected(np.array([1.0, 2.0, 3.0])), "slope(square, x)", at=np.array([1.0, 2.0, 3.0]))
'''


def test_points_come_from_the_judges_verdict_never_from_the_kernels_outputs(running_judge):
    forged = [nbformat.v4.new_output("stream", name="stdout", text="all checks passed\n"),
              nbformat.v4.new_output("execute_result", data={"text/plain": "'full marks'"}, execution_count=3),
              nbformat.v4.new_output("stream", name="stderr", text="noise\n")]
    right = _executed_cell(CELL, forged + [_observation("slopes", [2.0, 4.0, 6.0])])
    wrong = _executed_cell(CELL, forged + [_observation("slopes", [2.0, 4.5, 6.0])])
    silent = _executed_cell(CELL, forged)  # the kernel's cell was changed: it observed nothing
    nb = nbformat.v4.new_notebook(cells=[right, wrong, silent])
    for index, cell in enumerate(nb.cells):
        cell.metadata["nbgrader"]["grade_id"] = f"demo_test_{index}"
    originals = {index: cell.source for index, cell in enumerate(nb.cells)}
    cells = judge.requests(nb, originals)
    verdicts = running_judge.judge(setup_source(), cells, seed=7)
    assert [verdicts[f"demo_test_{i}"]["passed"] for i in range(3)] == [True, False, False]
    assert judge.apply(nb, cells, verdicts) == ["demo_test_2"]
    kinds = [[o.output_type + (f":{o.name}" if o.output_type == "stream" else "") for o in cell.outputs] for cell in nb.cells]
    assert kinds[0] == ["stream:stdout"]  # what the student's code printed; no result, no stderr, no observation
    assert kinds[1][-1] == "error" and "display_data" in kinds[1]  # the check's message, and its plot of the curve
    assert "slope(square, x) is not correct at 1 of 3 points" in nb.cells[1].outputs[-1].evalue
    assert "received nothing it could check for slopes" in nb.cells[2].outputs[-1].evalue


def test_an_error_of_the_students_code_reads_as_the_kernel_explains_it(running_judge):
    raised = nbformat.v4.new_output("display_data", data={OBSERVATION_MIME: {"label": "slopes", "raised": ["NotImplementedError", ""]}})
    nb = nbformat.v4.new_notebook(cells=[_executed_cell(CELL, [raised])])
    cells = judge.requests(nb, {0: CELL})
    verdict = running_judge.judge(setup_source(), cells, seed=3)["demo_test"]
    assert verdict["message"].startswith("ExplainedError: This exercise is not done yet")
    assert verdict["message"].endswith("(NotImplementedError)")


def test_a_cell_that_stopped_before_observing_keeps_its_own_error():
    error = nbformat.v4.new_output("error", ename="NameError", evalue="name 'slope' is not defined", traceback=[])
    nb = nbformat.v4.new_notebook(cells=[_executed_cell(CELL, [error])])
    assert judge.requests(nb, {0: CELL}) == []


def test_the_judge_gives_no_verdict_rather_than_a_wrong_one_when_its_setup_fails(running_judge):
    with pytest.raises(RuntimeError, match="setup cell"):
        running_judge.judge("raise ValueError('broken setup')", [], seed=1)
    assert running_judge.judge(setup_source(), [], seed=1) == {}  # and it serves the next submission


def test_a_computation_made_while_grading_has_a_recorded_gradient_only_a_tape_gives():
    scaled = scaled_gradient(3.0)
    x = tf.constant([0.5, 1.7], dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scaled(x * x) + integer_step(x, 2.0)
    assert tape.gradient(y, x).numpy().tolist() == pytest.approx([3.0, 10.2])  # 3 × 2x; the step records nothing
    step = 1e-6
    finite = (scaled((x + step) ** 2) - scaled((x - step) ** 2)) / (2 * step)
    assert finite.numpy().tolist() == pytest.approx([1.0, 3.4])  # the textbook derivative, 2x
    assert (integer_step(x, 2.0).numpy() == [1.0, 3.0]).all()
    assert scaled(x).numpy().tolist() == pytest.approx(x.numpy().tolist())
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as accumulator:  # forward mode records the same
        y = scaled(x * x) + integer_step(x, 2.0)
    assert accumulator.jvp(y).numpy().tolist() == pytest.approx([3.0, 10.2])


def test_runs_are_counted_in_the_computations_own_graph():
    f = RunCounter(lambda t: t * t)

    @tf.function
    def twice(x):
        return f(x) + f(x[:1])

    x = tf.constant([1.0, 2.0, 3.0])
    for _ in range(3):
        twice(x)  # traced once, run three times
    assert f.read() == {"runs": 6, "elements": 12}
    [f(t) for t in tf.unstack(x)]
    assert f.read() == {"runs": 9, "elements": 15}
    with pytest.raises(checks.CheckFailed, match="each run should see all 3 points"):
        checks.check_runs({"runs": 3, "elements": 3}, "derivative_on_grid", points=3)
    with pytest.raises(checks.CheckFailed, match="never ran the computation"):
        checks.check_runs({"runs": 0, "elements": 0}, "derivative_on_grid")
    checks.check_runs({"runs": 1, "elements": 3}, "derivative_on_grid", runs=1, points=3)


def test_outside_grading_a_none_is_explained_by_the_doctor_that_watched_the_call():
    from autograder.notebook_side.observations import observe

    def slope(f, x):  # the classic slip: x is not watched
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            y = f(x)
        return tape.gradient(y, x)

    got = observe("slope", lambda: slope(lambda t: t * t, 3.0))
    with pytest.raises(checks.CheckFailed, match="The gradient doctor looked at your tape code"):
        checks.check_gradient(got, 6.0, "slope(square, 3.0)")
