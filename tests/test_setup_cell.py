"""The generated setup cell carries the notebook-side modules and nothing of the package."""
import ast
import re

import nbformat
import pytest

from autograder import notebook_side
from autograder.execute import run
from autograder.setup_cell import setup_source


def test_setup_cell_has_every_module_in_order():
    text = setup_source()
    positions = [text.index(f"# ---- {name}.py") for name in notebook_side.SETUP_MODULES]
    assert positions == sorted(positions)
    assert text.startswith("#@title")


def test_setup_cell_does_not_import_the_package():
    tree = ast.parse(setup_source())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("autograder"), ast.unparse(node)
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith("autograder") for alias in node.names)


def test_setup_cell_silences_tensorflow_before_importing_it():
    text = setup_source()
    assert text.index("TF_ENABLE_ONEDNN_OPTS") < text.index("import tensorflow")
    assert text.index("TF_CPP_MIN_LOG_LEVEL") < text.index("import tensorflow")


def test_setup_cell_computes_float32_in_full_precision_on_any_gpu():
    """TensorFloat-32 (the default on Ampere GPUs) is off before any exercise runs: 1e-3 error against 1e-5 tolerance."""
    from autograder.notebook_side import checks, environment

    assert not environment.tf.config.experimental.tensor_float_32_execution_enabled()
    text = setup_source()
    assert "tf.config.experimental.enable_tensor_float_32_execution(False)" in text
    assert text.index("enable_tensor_float_32_execution(False)") < text.index("# ---- checks.py")
    rtol, _ = checks.tolerances("float32", __import__("numpy").ones(1))
    assert rtol < 1e-3  # were it ever widened past TF32's error, the switch could go


def test_setup_cell_defines_the_helpers():
    names = {node.name for node in ast.parse(setup_source()).body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert {"check_gradient", "check_gradients", "check_close", "check_none", "plot_derivative", "plot_mismatch"} <= names


SOLUTION_CELL = '''
def honest(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)

def calls_the_key(x):
    return expected_slope(x)

def calls_it_in_a_comprehension(x):
    return [expected_slope(v) for v in [x]][0]

def calls_it_through_tf(x):
    return tf.map_fn(expected_slope, tf.constant([x]))[0]

def unwatched(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x)

def chatty(x):
    import logging
    print("debug", file=sys.stderr)
    logging.warning("a warning from the student's code")
    return honest(x)
'''
GRADE_CELLS = {
    "key in its own cell": '@answer_key\ndef expected_slope(x):\n    return 2.0 * np.asarray(x, dtype=np.float64)\n'
                           'check_gradient(honest(3.0), expected_slope(3.0))\nprint([expected_slope(p) for p in (1.0, 2.0)])',
    "key in a later cell": "check_gradient(honest(4.0), expected_slope(4.0))",
    "key called directly": "check_gradient(calls_the_key(3.0), expected_slope(3.0))",
    "key in a comprehension": "check_gradient(calls_it_in_a_comprehension(3.0), expected_slope(3.0))",
    "key through tf.map_fn": "check_gradient(calls_it_through_tf(3.0), expected_slope(3.0))",
    "stderr and logging": "check_gradient(chatty(2.0), expected_slope(2.0))",
    "two dtypes": "tf.constant(1.0, tf.float64) * tf.constant(2.0)",
    "a stub": "def stub(x):\n    raise NotImplementedError()\nstub(1.0)",
    "a tape asked twice": "x = tf.constant(1.0)\nwith tf.GradientTape() as tape:\n    tape.watch(x)\n    y = x * x\n"
                          "tape.gradient(y, x)\ntape.gradient(y, x)",
    "a None plotted": "plot_derivative([1.0, 2.0, 3.0], [1.0, 4.0, 9.0], None)",
    "a None subscripted": "grads = None\ngrads['w']",
    "a cell not run yet": "square_slope(3.0)",
    "another error": "{}['missing']",
    "doctor in a check": "with TapeCalls() as tapes:\n    answer = unwatched(3.0)\ncheck_gradient(answer, expected_slope(3.0))",
    "no stale doctor": "check_gradient(None, expected_slope(3.0))",
    "tape_doctor": "x = tf.constant(2.0)\nwith tape_doctor():\n    with tf.GradientTape() as tape:\n        y = x * x\n"
                   "        tape.watch(x)\n    tape.gradient(y, x)",
    "gradient_doctor": "print(gradient_doctor(lambda x: tf.round(x) * 2.0, tf.constant(2.0)))",
}


@pytest.mark.notebooks
def test_in_a_kernel_keys_are_guarded_stderr_is_kept_and_errors_are_explained(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(source) for source in [setup_source(), SOLUTION_CELL, *GRADE_CELLS.values()]]
    run(nb, tmp_path, allow_errors=True)
    outcome, traceback_of = {}, {}
    for name, cell in zip(GRADE_CELLS, nb.cells[2:]):
        error = [o for o in cell.outputs if o.output_type == "error"]
        streams = {o.name: o.text for o in cell.outputs if o.output_type == "stream"}
        assert "stderr" not in streams, f"{name}: {streams}"
        outcome[name] = f"{error[0].ename}: {error[0].evalue}" if error else streams.get("stdout", "")
        traceback_of[name] = error[0].traceback if error else []
        if error and error[0].ename == "ExplainedError":  # the explanation opens the traceback: no chained original first
            assert "ExplainedError" in "".join(error[0].traceback[:2]) and "direct cause" not in "".join(error[0].traceback), name
    assert outcome["key in its own cell"].strip() == "[np.float64(2.0), np.float64(4.0)]"
    assert outcome["key in a later cell"] == ""
    for name in ("key called directly", "key in a comprehension", "key through tf.map_fn"):
        assert "expected_slope is an answer key of the checks" in outcome[name], outcome[name]
    assert "debug" in outcome["stderr and logging"] and "a warning from the student's code" in outcome["stderr and logging"]
    assert outcome["two dtypes"].startswith("ExplainedError: Two tensors of different dtypes met in one operation (Mul)")
    assert outcome["a stub"].startswith("ExplainedError: This exercise is not done yet")
    assert outcome["a tape asked twice"].startswith("ExplainedError: A plain tape answers one gradient")
    assert outcome["a None plotted"].startswith("CheckFailed: Nothing to plot: the tape's derivative is None")
    assert outcome["a None subscripted"].startswith("ExplainedError: A value that should be a result is None")
    assert outcome["a cell not run yet"].startswith("ExplainedError: Python does not know `square_slope` yet")
    assert outcome["another error"] == "KeyError: 'missing'"
    assert "The gradient doctor looked at your tape code: x: the source is a tensor the tape does not watch" in \
        outcome["doctor in a check"], outcome["doctor in a check"]
    assert outcome["no stale doctor"].startswith("CheckFailed") and "doctor" not in outcome["no stale doctor"]
    # a failed check's traceback ends at the check cell's line: the helpers' frames are left out
    frames = re.sub(r"\x1b\[[0-9;]*m", "", "".join(traceback_of["no stale doctor"]))  # without the colours
    assert "check_gradient(None, expected_slope(3.0))" in frames and "check_close" not in frames, frames
    assert "x: watched_too_late" in outcome["tape_doctor"] and "line 4: y = x * x" in outcome["tape_doctor"]
    assert "x: not_differentiable" in outcome["gradient_doctor"] and "operation Round" in outcome["gradient_doctor"]


@pytest.mark.notebooks
@pytest.mark.parametrize("graded", [False, True], ids=["student", "nbgrader"])
def test_while_nbgrader_runs_it_only_a_failing_checks_figure_is_drawn_and_tracebacks_are_plain(tmp_path, graded):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    lesson = "fig, ax = plt.subplots()\nax.plot([0, 1], [0, 1])"
    failing = "x = np.linspace(0.0, 1.0, 11)\ncheck_gradient(2 * x, 3 * x, 'the slope', at=x)"
    nb.cells = [nbformat.v4.new_code_cell(source) for source in [setup_source(), lesson, failing]]
    # JupyterLab's inline backend, as a student has it (run() chooses Agg unless told)
    inline = {"MPLBACKEND": "module://matplotlib_inline.backend_inline"}
    run(nb, tmp_path, allow_errors=True, env={**inline, "NBGRADER_EXECUTION": "autograde"} if graded else inline)

    def images(cell):
        return [o for o in cell.outputs if "image/png" in o.get("data", {})]

    assert len(images(nb.cells[1])) == (0 if graded else 1)  # nobody sees a lesson figure while grading
    assert len(images(nb.cells[2])) == 1  # the failing check's figure is what the student needs
    [error] = [o for o in nb.cells[2].outputs if o.output_type == "error"]
    assert error.ename == "CheckFailed" and "the slope is not correct" in error.evalue
    text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error.traceback))  # without the terminal colours
    assert "check_gradient(2 * x, 3 * x, 'the slope', at=x)" in text  # the failing line, either way
    # IPython's default quotes the lines around each frame ("---> 2"); Plain, while grading, does not.
    assert ("--->" in text) == (not graded), text
    assert "check_close" not in text and "_fail" not in text, text  # the checks' own frames are left out
