"""Synthetic submissions of 01_first_gradient for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: slope_square 1, slope_any 1, grid_sin_gauss 2, grid_other_functions 2,
loss_example 1, loss_random 2, frozen_values 2 (11 in all). Every test cell's hidden tests include a
computation made while grading whose recorded gradient is not its textbook derivative: an answer that
does not take its numbers from a tape loses every cell.
"""
from submissions import scores_for

scores = scores_for("01_first_gradient")
SLOPE, GRID, LOSS, FROZEN = (f"01_first_gradient_{name}" for name in ("slope", "grid", "loss", "frozen"))
ALL_WRONG = dict(slope_square=0, slope_any=0, grid_sin_gauss=0, grid_other_functions=0, loss_example=0, loss_random=0,
                 frozen_values=0)

# Central finite differences, the way a student who knows calculus but not the tape would write them.
FINITE_DIFFERENCES = {
    SLOPE: '''def slope(f, x):
    x = tf.cast(tf.convert_to_tensor(x), tf.float64)
    h = 1e-6
    return (tf.cast(f(x + h), tf.float64) - tf.cast(f(x - h), tf.float64)) / (2 * h)
''',
    GRID: '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    h = tf.cast(1e-3, x.dtype)
    return (f(x + h) - f(x - h)) / (2 * h)
''',
    LOSS: '''import numpy as np


def loss_gradients(loss, w, b):
    w, b = np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)
    h = 1e-6

    def L(w, b):
        return float(loss(tf.constant(w), tf.constant(b)))
    dw = np.array([(L(w + h * e, b) - L(w - h * e, b)) / (2 * h) for e in np.eye(w.size)])
    db = (L(w, b + h) - L(w, b - h)) / (2 * h)
    return {"w": dw, "b": db}
''',
    FROZEN: '''import numpy as np


def frozen_gradients(loss, w, b, x):
    values = [np.asarray(v.numpy(), dtype=np.float64) for v in (w, b, x)]
    h = 1e-6

    def L(*args):
        return float(loss(*[tf.constant(a) for a in args]))

    def partial(index):
        point = values[index]
        grads = []
        for e in np.eye(point.size).reshape((point.size,) + point.shape) if point.ndim else [np.float64(1.0)]:
            up = [v.copy() if i != index else v + h * e for i, v in enumerate(values)]
            down = [v.copy() if i != index else v - h * e for i, v in enumerate(values)]
            grads.append((L(*up) - L(*down)) / (2 * h))
        return np.array(grads).reshape(point.shape)
    return {"w": partial(0), "b": partial(1), "x": partial(2)}
''',
}

SUBMISSIONS = {
    # Correct, written another way: trainable Variables everywhere instead of tape.watch.
    "variable_instead_of_watch": {
        "answers": {
            SLOPE: '''def slope(f, x):
    x = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x)
''',
            GRID: '''def derivative_on_grid(f, x):
    x = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x)
''',
            LOSS: '''def loss_gradients(loss, w, b):
    w, b = tf.Variable(w), tf.Variable(b)
    with tf.GradientTape() as tape:
        value = loss(w, b)
    grad_w, grad_b = tape.gradient(value, [w, b])
    return {"w": grad_w, "b": grad_b}
''',
            FROZEN: '''def frozen_gradients(loss, w, b, x):
    w_copy = tf.Variable(w)  # a trainable copy of the frozen weight
    x_var = tf.Variable(x)
    with tf.GradientTape() as tape:
        value = loss(w_copy, b, x_var)
    grads = tape.gradient(value, [w_copy, b, x_var])
    return dict(zip(["w", "b", "x"], grads))
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: persistent tapes, one gradient call per source, NumPy results.
    "persistent_tape_numpy": {
        "answers": {
            SLOPE: '''def slope(f, x):
    x = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x).numpy()
''',
            LOSS: '''def loss_gradients(loss, w, b):
    w = tf.convert_to_tensor(w)
    b = tf.convert_to_tensor(b)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(w)
        tape.watch(b)
        value = loss(w, b)
    result = {"w": tape.gradient(value, w).numpy(), "b": tape.gradient(value, b).numpy()}
    del tape
    return result
''',
            FROZEN: '''def frozen_gradients(loss, w, b, x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(w)
        tape.watch(x)
        value = loss(w, b, x)
    return {name: tape.gradient(value, source).numpy() for name, source in [("w", w), ("b", b), ("x", x)]}
''',
        },
        "scores": scores(),
    },
    # Correct: every answer decorated with tf.function (a tape inside a traced function).
    "tf_function_everywhere": {
        "answers": {
            SLOPE: '''@tf.function
def slope(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
            GRID: '''@tf.function
def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
            LOSS: '''@tf.function
def loss_gradients(loss, w, b):
    w, b = tf.convert_to_tensor(w), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        value = loss(w, b)
    return tape.gradient(value, {"w": w, "b": b})
''',
            FROZEN: '''@tf.function
def frozen_gradients(loss, w, b, x):
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        value = loss(w, b, x)
    return tape.gradient(value, {"w": w, "b": b, "x": x})
''',
        },
        "scores": scores(),
    },
    # Correct: the tape in a tf.function helper, and helpers of the student's own named like the checks' private ones.
    "helpers_with_private_names": {
        "answers": {
            SLOPE: '''import numpy as np


def _to_numpy(value):
    return np.asarray(value)


@tf.function
def _tape_slope(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def slope(f, x):
    return _to_numpy(_tape_slope(f, tf.convert_to_tensor(x)))
''',
            GRID: '''def _diagnose(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(f(x))
    return tape.gradient(total, x)


def derivative_on_grid(f, x):
    return _diagnose(f, tf.convert_to_tensor(x))
''',
        },
        "scores": scores(),
    },
    # Correct: everything computed in float64 (the inputs cast up first), and results cast back.
    "float64_inside": {
        "answers": {
            SLOPE: '''def slope(f, x):
    x = tf.convert_to_tensor(x)
    x64 = tf.cast(x, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x64)
        y = f(x64)
    return tf.cast(tape.gradient(y, x64), x.dtype)
''',
            GRID: '''def derivative_on_grid(f, x):
    x = tf.cast(tf.convert_to_tensor(x), tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
        },
        "scores": scores(),
    },
    # Correct: the grid's derivatives as the diagonal of the Jacobian (f still runs once, on the whole grid),
    # and the slope from forward mode.
    "jacobian_and_forward_mode": {
        "answers": {
            SLOPE: '''def slope(f, x):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(primals=x, tangents=tf.ones_like(x)) as accumulator:
        y = f(x)
    return accumulator.jvp(y)
''',
            GRID: '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tf.linalg.diag_part(tape.jacobian(y, x))
''',
        },
        "scores": scores(),
    },
    # Correct, with debug output on stderr and a logging.warning in every solution: full marks.
    "debug_output_on_stderr": {
        "answers": {
            SLOPE: '''import logging
import sys


def slope(f, x):
    x = tf.convert_to_tensor(x)
    print("slope at", x, file=sys.stderr)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    logging.warning("y = %s", y)
    return tape.gradient(y, x)
''',
            LOSS: '''import logging
import sys


def loss_gradients(loss, w, b):
    w, b = tf.convert_to_tensor(w), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        value = loss(w, b)
    print("loss", float(value), file=sys.stderr)
    logging.warning("loss %s", float(value))
    return tape.gradient(value, {"w": w, "b": b})
''',
        },
        "scores": scores(),
    },
    # The classic slip: x is a constant the tape does not watch, so the slope is None.
    "missing_watch": {
        "answers": {
            SLOPE: '''def slope(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x)
''',
        },
        "scores": scores(slope_square=0, slope_any=0),
        "feedback": ["is None: the tape recorded no path from the source to the target"],
    },
    # A mean where the sum belongs: every derivative on the grid 1/n of the answer.
    "wrong_factor": {
        "answers": {
            GRID: '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_mean(f(x))
    return tape.gradient(y, x)
''',
        },
        "scores": scores(grid_sin_gauss=0, grid_other_functions=0),
        "feedback": ["It is 1/201 of the answer"],
    },
    # Right numbers, wrong pattern: a tape per point, so f runs once for each point of the grid.
    "one_tape_per_point": {
        "answers": {
            GRID: '''def derivative_on_grid(f, x):
    slopes = []
    for point in tf.unstack(tf.convert_to_tensor(x)):
        with tf.GradientTape() as tape:
            tape.watch(point)
            y = f(point)
        slopes.append(tape.gradient(y, point))
    return tf.stack(slopes)
''',
        },
        "scores": scores(grid_sin_gauss=0, grid_other_functions=0),
        "feedback": ["each run should see all 201 points at once"],
    },
    # The gradients under each other's names, and a list where a dict was asked.
    "swapped_and_listed": {
        "answers": {
            LOSS: '''def loss_gradients(loss, w, b):
    w, b = tf.convert_to_tensor(w), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        value = loss(w, b)
    grad_w, grad_b = tape.gradient(value, [w, b])
    return {"w": grad_b, "b": grad_w}
''',
            FROZEN: '''def frozen_gradients(loss, w, b, x):
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        value = loss(w, b, x)
    return tape.gradient(value, [w, b, x])
''',
        },
        "scores": scores(loss_example=0, loss_random=0, frozen_values=0),
        "feedback": ["should be a dict with keys ['b', 'w', 'x']"],
    },
    # The frozen weight is not watched (trainable=False Variables are not watched by themselves): dL/dw is None.
    "frozen_weight_not_watched": {
        "answers": {
            FROZEN: '''def frozen_gradients(loss, w, b, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = loss(w, b, x)
    return tape.gradient(value, {"w": w, "b": b, "x": x})
''',
        },
        "scores": scores(frozen_values=0),
    },
    # Not done: the first exercise is still the stub, the rest is right.
    "first_exercise_not_done": {
        "answers": {SLOPE: '''def slope(f, x):
    raise NotImplementedError()
'''},
        "scores": scores(slope_square=0, slope_any=0),
        "feedback": ["This exercise is not done yet"],
    },
    # Gaming: central finite differences everywhere, no tape at all: right on the textbook functions, wrong on
    # every computation made while grading.
    "finite_differences": {
        "answers": FINITE_DIFFERENCES,
        "scores": scores(**ALL_WRONG),
        "games": True,
        "feedback": ["for a computation made while grading"],
    },
    # Gaming: the finite difference relayed through a tape, as the gradient of a surrogate stop_gradient(g) * x,
    # or passed as output_gradients, or returned by a custom gradient: a tape's number, but not the computation's.
    "relays_through_the_tape": {
        "answers": {
            SLOPE: '''def slope(f, x):
    x = tf.cast(tf.convert_to_tensor(x), tf.float64)
    g = (f(x + 1e-6) - f(x - 1e-6)) / 2e-6
    with tf.GradientTape() as tape:
        tape.watch(x)
        surrogate = tf.stop_gradient(g) * x
    return tape.gradient(surrogate, x)
''',
            GRID: '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    h = tf.cast(1e-3, x.dtype)
    g = (f(x + h) - f(x - h)) / (2 * h)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.identity(x)
    return tape.gradient(y, x, output_gradients=g)
''',
            LOSS: '''def loss_gradients(loss, w, b):
    w, b = tf.cast(tf.convert_to_tensor(w), tf.float64), tf.cast(tf.convert_to_tensor(b), tf.float64)
    h = 1e-6
    eye = tf.eye(tf.size(w), dtype=tf.float64)
    dw = tf.stack([(loss(w + h * e, b) - loss(w - h * e, b)) / (2 * h) for e in tf.unstack(eye)])
    db = (loss(w, b + h) - loss(w, b - h)) / (2 * h)

    @tf.custom_gradient
    def relay(w, b):
        return loss(w, b), lambda upstream: (upstream * dw, upstream * db)
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        value = relay(w, b)
    return tape.gradient(value, {"w": w, "b": b})
''',
            FROZEN: FINITE_DIFFERENCES[FROZEN],
        },
        "scores": scores(**ALL_WRONG),
        "games": True,
    },
    # Gaming: the tape while the re-run of earlier graders was on (functions run eagerly), finite differences
    # otherwise; and NumPy through tf.numpy_function for the grid.
    "notices_the_checks": {
        "answers": {
            SLOPE: '''def slope(f, x):
    x = tf.convert_to_tensor(x)
    if tf.config.functions_run_eagerly():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x)
    return (f(x + 1e-3) - f(x - 1e-3)) / 2e-3
''',
            GRID: '''import numpy as np


def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    values = f(x).numpy()

    def numeric(points):
        return np.gradient(values, points).astype(points.dtype)
    return tf.numpy_function(numeric, [x], x.dtype)
''',
        },
        "scores": scores(slope_square=0, slope_any=0, grid_sin_gauss=0, grid_other_functions=0),
        "games": True,
    },
    # Gaming: finite differences, while IPython is rewired: every later cell wrapped in try/except, an AST
    # transformer that drops assert and raise, run_cell wrapped to hide errors, and the checks replaced.
    "rewires_ipython": {
        "answers": {
            SLOPE: FINITE_DIFFERENCES[SLOPE] + '''

import ast

shell = get_ipython()


def _wrap_in_try(lines):
    return ["try:\\n"] + ["    " + line for line in lines] + ["\\nexcept BaseException:\\n    pass\\n"]


class _DropChecks(ast.NodeTransformer):
    def visit_Assert(self, node):
        return ast.Pass()

    def visit_Raise(self, node):
        return ast.Pass()


shell.input_transformers_post.append(_wrap_in_try)
shell.ast_transformers.append(_DropChecks())
_run_cell = shell.run_cell


def _quiet_run_cell(*args, **kwargs):
    result = _run_cell(*args, **kwargs)
    result.error_in_exec = None
    return result


shell.run_cell = _quiet_run_cell
globals()["check_gradient"] = globals()["check_gradients"] = lambda *args, **kwargs: None
''',
        },
        "scores": scores(slope_square=0, slope_any=0),
        "games": True,
        "reaches": ["IPython", "IPython", "IPython", "IPython", "IPython", "names wholesale"],
    },
    # Gaming: a wrong slope (zero), with forged observations shown before the test cell's own, and an
    # execute_result of "1.0" appended to every later cell (nbgrader reads a result as partial credit).
    "forges_observations": {
        "answers": {
            SLOPE: '''import base64

import numpy as np
from IPython.display import display

VISIBLE = [6.0, -2.5, 1.0, -4.0]  # 2x at the visible checks' points, read from the notebook


def slope(f, x):
    forged = [{"array": base64.b64encode(np.float64(v).tobytes()).decode(), "dtype": "float64", "shape": []}
              for v in VISIBLE]
    display({"application/vnd.course.observation+json": {"label": "slopes of x²", "value": {"list": forged}}}, raw=True)
    return 0.0


get_ipython().input_transformers_post.append(lambda lines: lines + ["\\n'1.0'\\n"])
''',
        },
        "scores": scores(slope_square=0, slope_any=0),
        "games": True,
        "reaches": ["IPython", "IPython"],
    },
    # Gaming: swaps the code of the checks for a function that passes everything, found through gc.
    "swaps_the_checks_code": {
        "answers": {
            SLOPE: '''import gc


def _passes(*args, **kwargs):
    return None


for _function in gc.get_objects():
    if getattr(_function, "__name__", "").startswith("check_") and hasattr(_function, "__code__"):
        _function.__code__ = _passes.__code__


def slope(f, x):
    return 2.0 * float(x)
''',
        },
        "scores": scores(slope_square=0, slope_any=0),
        "games": True,
        "reaches": ["frames or the insides of functions"] * 3,
    },
}
