"""Synthetic submissions of 01_first_gradient for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: square_value 1, square_dtypes 1, grid_sin_gauss 2, grid_other_functions 2,
lstsq_example 1, lstsq_random 2, frozen_values 2 (11 in all).
"""
from submissions import scores_for

scores = scores_for("01_first_gradient")

SUBMISSIONS = {
    # Correct, written another way: trainable Variables everywhere instead of tape.watch.
    "variable_instead_of_watch": {
        "answers": {
            "01_first_gradient_square": '''def square_slope(x):
    x = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = x ** 2
    return tape.gradient(y, x)
''',
            "01_first_gradient_grid": '''def derivative_on_grid(f, x):
    x = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x)
''',
            "01_first_gradient_lstsq": '''def lstsq_gradients(X, y, w, b):
    w, b = tf.Variable(w), tf.Variable(b)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.tensordot(X, w, axes=1) + b - y))
    grad_w, grad_b = tape.gradient(loss, [w, b])
    return {"w": grad_w, "b": grad_b}
''',
            "01_first_gradient_frozen": '''def frozen_gradients(w, b, x):
    w_copy = tf.Variable(w)  # a trainable copy of the frozen weight
    x_var = tf.Variable(x)
    with tf.GradientTape() as tape:
        loss = (tf.tensordot(w_copy, x_var, axes=1) + b) ** 2
    grads = tape.gradient(loss, [w_copy, b, x_var])
    return dict(zip(["w", "b", "x"], grads))
''',
        },
        "scores": {
            "01_first_gradient_square_value": 1.0,
            "01_first_gradient_square_dtypes": 1.0,
            "01_first_gradient_grid_sin_gauss": 2.0,
            "01_first_gradient_grid_other_functions": 2.0,
            "01_first_gradient_lstsq_example": 1.0,
            "01_first_gradient_lstsq_random": 2.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Correct, written another way: persistent tapes, one gradient call per source, NumPy results.
    "persistent_tape_numpy": {
        "answers": {
            "01_first_gradient_square": '''def square_slope(x):
    x = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.square(x)
    slope = tape.gradient(y, x).numpy()
    del tape
    return slope
''',
            "01_first_gradient_grid": '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        total = tf.reduce_sum(f(x))
    return tape.gradient(total, x).numpy()
''',
            "01_first_gradient_lstsq": '''def lstsq_gradients(X, y, w, b):
    X, y, w, b = [tf.convert_to_tensor(v) for v in (X, y, w, b)]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(w)
        tape.watch(b)
        r = tf.squeeze(X @ w[:, None], axis=1) + b - y
        loss = tf.reduce_sum(r * r)
    grads = {"w": tape.gradient(loss, w).numpy(), "b": tape.gradient(loss, b).numpy()}
    del tape
    return grads
''',
            "01_first_gradient_frozen": '''def frozen_gradients(w, b, x):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(w)
        tape.watch(x)
        loss = tf.square(tf.reduce_sum(w * x) + b)
    grads = {name: tape.gradient(loss, source).numpy() for name, source in [("w", w), ("b", b), ("x", x)]}
    del tape
    return grads
''',
        },
        "scores": {
            "01_first_gradient_square_value": 1.0,
            "01_first_gradient_square_dtypes": 1.0,
            "01_first_gradient_grid_sin_gauss": 2.0,
            "01_first_gradient_grid_other_functions": 2.0,
            "01_first_gradient_lstsq_example": 1.0,
            "01_first_gradient_lstsq_random": 2.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Correct: everything computed in float32, even for float64 inputs (the checks use float32 tolerances).
    "cast_to_float32": {
        "answers": {
            "01_first_gradient_square": '''def square_slope(x):
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)
''',
            "01_first_gradient_grid": '''def derivative_on_grid(f, x):
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
            "01_first_gradient_lstsq": '''def lstsq_gradients(X, y, w, b):
    X, y, w, b = [tf.cast(v, tf.float32) for v in (X, y, w, b)]
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        loss = tf.reduce_sum((tf.linalg.matvec(X, w) + b - y) ** 2)
    return tape.gradient(loss, {"w": w, "b": b})
''',
        },
        "scores": {
            "01_first_gradient_square_value": 1.0,
            "01_first_gradient_square_dtypes": 1.0,
            "01_first_gradient_grid_sin_gauss": 2.0,
            "01_first_gradient_grid_other_functions": 2.0,
            "01_first_gradient_lstsq_example": 1.0,
            "01_first_gradient_lstsq_random": 2.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Wrong: no tape.watch on the converted constants (Ex1, Ex2) and on the frozen weight (Ex4): None.
    "missing_watch": {
        "answers": {
            "01_first_gradient_square": '''def square_slope(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        y = x * x
    return tape.gradient(y, x)
''',
            "01_first_gradient_grid": '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x)
''',
            "01_first_gradient_frozen": '''def frozen_gradients(w, b, x):
    with tf.GradientTape() as tape:
        tape.watch(x)  # w is a Variable, so the student assumed it is watched
        loss = (tf.reduce_sum(w * x) + b) ** 2
    return tape.gradient(loss, {"w": w, "b": b, "x": x})
''',
        },
        "scores": {
            "01_first_gradient_square_value": 0.0,
            "01_first_gradient_square_dtypes": 0.0,
            "01_first_gradient_grid_sin_gauss": 0.0,
            "01_first_gradient_grid_other_functions": 0.0,
            "01_first_gradient_lstsq_example": 1.0,
            "01_first_gradient_lstsq_random": 2.0,
            "01_first_gradient_frozen_values": 0.0,
        },
        "feedback": ["The gradient doctor looked at your tape code: x: the source is a tensor the tape does not watch"],
    },
    # Wrong by a constant factor: the gradient of the mean instead of the sum (1/n on the grid, 1/N in Ex3).
    "wrong_factor": {
        "answers": {
            "01_first_gradient_grid": '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_mean(f(x))
    return tape.gradient(y, x)
''',
            "01_first_gradient_lstsq": '''def lstsq_gradients(X, y, w, b):
    X, y, w, b = (tf.convert_to_tensor(v) for v in (X, y, w, b))
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        loss = tf.reduce_mean((tf.linalg.matvec(X, w) + b - y) ** 2)
    return tape.gradient(loss, {"w": w, "b": b})
''',
        },
        "scores": {
            "01_first_gradient_square_value": 1.0,
            "01_first_gradient_square_dtypes": 1.0,
            "01_first_gradient_grid_sin_gauss": 0.0,
            "01_first_gradient_grid_other_functions": 0.0,
            "01_first_gradient_lstsq_example": 0.0,
            "01_first_gradient_lstsq_random": 0.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Wrong: a Jacobian of shape (n, n) where the derivative on the grid, shape (n,), was asked.
    "jacobian_on_grid": {
        "answers": {
            "01_first_gradient_grid": '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.jacobian(y, x)
''',
        },
        "scores": {
            "01_first_gradient_square_value": 1.0,
            "01_first_gradient_square_dtypes": 1.0,
            "01_first_gradient_grid_sin_gauss": 0.0,
            "01_first_gradient_grid_other_functions": 0.0,
            "01_first_gradient_lstsq_example": 1.0,
            "01_first_gradient_lstsq_random": 2.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Wrong: the closed form of the visible function, whatever f is: the right numbers for sin·gauss, but no
    # tape.gradient call (the check counts it), and wrong numbers for every other function.
    "hard_coded_closed_form": {
        "answers": {
            "01_first_gradient_grid": '''def derivative_on_grid(f, x):
    x = np.asarray(x, dtype=np.float64)
    return np.exp(-x ** 2 / 2) * (np.cos(x) - x * np.sin(x))
''',
        },
        "scores": {
            "01_first_gradient_square_value": 1.0,
            "01_first_gradient_square_dtypes": 1.0,
            "01_first_gradient_grid_sin_gauss": 0.0,
            "01_first_gradient_grid_other_functions": 0.0,
            "01_first_gradient_lstsq_example": 1.0,
            "01_first_gradient_lstsq_random": 2.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Wrong: accepts only float32 (tf.constant(x, dtype=tf.float32) raises TypeError on a float64 tensor).
    "float32_only": {
        "answers": {
            "01_first_gradient_square": '''def square_slope(x):
    x = tf.constant(x, dtype=tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)
''',
        },
        "feedback": ["tf.constant never changes a tensor's dtype"],
        "scores": {
            "01_first_gradient_square_value": 1.0,
            "01_first_gradient_square_dtypes": 0.0,
            "01_first_gradient_grid_sin_gauss": 2.0,
            "01_first_gradient_grid_other_functions": 2.0,
            "01_first_gradient_lstsq_example": 1.0,
            "01_first_gradient_lstsq_random": 2.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Wrong: target and source swapped, tape.gradient(x, y): None, and the doctor says why.
    "swapped_arguments": {
        "answers": {
            "01_first_gradient_square": '''def square_slope(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(x, y)
''',
        },
        "feedback": ["target and source swapped", "write tape.gradient(y, x)"],
        "scores": {
            "01_first_gradient_square_value": 0.0,
            "01_first_gradient_square_dtypes": 0.0,
            "01_first_gradient_grid_sin_gauss": 2.0,
            "01_first_gradient_grid_other_functions": 2.0,
            "01_first_gradient_lstsq_example": 1.0,
            "01_first_gradient_lstsq_random": 2.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Wrong: a list of gradients where the dict {"w": ..., "b": ...} was asked.
    "list_instead_of_dict": {
        "answers": {
            "01_first_gradient_lstsq": '''def lstsq_gradients(X, y, w, b):
    X, y, w, b = (tf.convert_to_tensor(v) for v in (X, y, w, b))
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        loss = tf.reduce_sum((tf.linalg.matvec(X, w) + b - y) ** 2)
    return tape.gradient(loss, [w, b])
''',
        },
        "scores": {
            "01_first_gradient_square_value": 1.0,
            "01_first_gradient_square_dtypes": 1.0,
            "01_first_gradient_grid_sin_gauss": 2.0,
            "01_first_gradient_grid_other_functions": 2.0,
            "01_first_gradient_lstsq_example": 0.0,
            "01_first_gradient_lstsq_random": 0.0,
            "01_first_gradient_frozen_values": 2.0,
        },
    },
    # Cheat: every function asks a tape (so a count of tape calls alone would not catch it), then returns the
    # grade cells' answer key instead of the tape's answer. @answer_key refuses to run from student code.
    "calls_answer_keys": {
        "answers": {
            "01_first_gradient_square": """def square_slope(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    return expected_square_slope(x)
""",
            "01_first_gradient_grid": """def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    tape.gradient(y, x)
    return expected_sin_gauss_derivative(x)
""",
            "01_first_gradient_lstsq": """def lstsq_gradients(X, y, w, b):
    X, y, w, b = (tf.convert_to_tensor(v) for v in (X, y, w, b))
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        loss = tf.reduce_sum((tf.linalg.matvec(X, w) + b - y) ** 2)
    tape.gradient(loss, [w, b])
    return expected_lstsq_gradients(X, y, w, b)
""",
            "01_first_gradient_frozen": """def frozen_gradients(w, b, x):
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        loss = (tf.reduce_sum(w * x) + b) ** 2
    tape.gradient(loss, [w, b, x])
    return expected_frozen_gradients(w.numpy(), b.numpy(), x.numpy())
""",
        },
        "scores": scores(square_value=0, square_dtypes=0, grid_sin_gauss=0, grid_other_functions=0,
                         lstsq_example=0, lstsq_random=0, frozen_values=0),
    },
    # Correct, with debug output on stderr and a logging.warning in every solution: full marks.
    "debug_output_on_stderr": {
        "answers": {
            "01_first_gradient_square": """import logging
import sys


def square_slope(x):
    x = tf.convert_to_tensor(x)
    print("square_slope at", x, file=sys.stderr)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    logging.warning("y = %s", y)
    return tape.gradient(y, x)
""",
            "01_first_gradient_grid": """import logging
import sys


def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    grad = tape.gradient(y, x)
    print("grid of", x.shape, file=sys.stderr)
    logging.warning("gradient dtype %s", grad.dtype)
    return grad
""",
            "01_first_gradient_lstsq": """import logging
import sys


def lstsq_gradients(X, y, w, b):
    X, y, w, b = (tf.convert_to_tensor(v) for v in (X, y, w, b))
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        loss = tf.reduce_sum((tf.linalg.matvec(X, w) + b - y) ** 2)
    print("loss", float(loss), file=sys.stderr)
    logging.warning("loss %s", float(loss))
    return tape.gradient(loss, {"w": w, "b": b})
""",
            "01_first_gradient_frozen": """import logging
import sys


def frozen_gradients(w, b, x):
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        loss = (tf.reduce_sum(w * x) + b) ** 2
    print("watched:", len(tape.watched_variables()), file=sys.stderr)
    logging.warning("loss %s", float(loss))
    return tape.gradient(loss, {"w": w, "b": b, "x": x})
""",
        },
        "scores": scores(),
    },
    # Cheat: closed forms worked out by hand, written with TensorFlow ops (the right numbers, in the right
    # dtypes), without a tape. The checks count tape calls.
    "closed_forms_without_tape": {
        "answers": {
            "01_first_gradient_square": """def square_slope(x):
    return 2 * tf.convert_to_tensor(x)
""",
            "01_first_gradient_lstsq": """def lstsq_gradients(X, y, w, b):
    X, y, w, b = (tf.convert_to_tensor(v) for v in (X, y, w, b))
    r = tf.linalg.matvec(X, w) + b - y
    return {"w": 2 * tf.linalg.matvec(X, r, transpose_a=True), "b": 2 * tf.reduce_sum(r)}
""",
            "01_first_gradient_frozen": """def frozen_gradients(w, b, x):
    s = tf.reduce_sum(w * x) + b
    return {"w": 2 * s * x, "b": 2 * s, "x": 2 * s * w}
""",
        },
        "scores": scores(square_value=0, square_dtypes=0, lstsq_example=0, lstsq_random=0, frozen_values=0),
    },
    # Brute force: one tape and one gradient call per grid point (right numbers, n calls where one is asked).
    "one_tape_per_point": {
        "answers": {
            "01_first_gradient_grid": """def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    slopes = []
    for point in tf.unstack(x):
        with tf.GradientTape() as tape:
            tape.watch(point)
            y = f(point)
        slopes.append(tape.gradient(y, point))
    return tf.stack(slopes)
""",
        },
        "scores": scores(grid_sin_gauss=0, grid_other_functions=0),
    },
    # Brute force: the full n × n Jacobian, then its diagonal (right numbers, n² work where n is enough).
    "jacobian_diagonal": {
        "answers": {
            "01_first_gradient_grid": """def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tf.linalg.diag_part(tape.jacobian(y, x))
""",
        },
        "scores": scores(grid_sin_gauss=0, grid_other_functions=0),
    },
    # Correct, written another way: a Python-level sum of f over the grid as the target (still one gradient call).
    "python_sum_target": {
        "answers": {
            "01_first_gradient_grid": """def derivative_on_grid(f, x):
    x = tf.Variable(tf.convert_to_tensor(x))
    with tf.GradientTape(watch_accessed_variables=True) as tape:
        total = tf.reduce_sum(f(x)) * 1.0
    return tape.gradient(total, x)
""",
        },
        "scores": scores(),
    },
    # Wrong: b is not watched in Ex3 (dL/db None), and the functions forget `return` in Ex1 and Ex4.
    "unwatched_b_and_no_return": {
        "answers": {
            "01_first_gradient_square": """def square_slope(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    slope = tape.gradient(y, x)
""",
            "01_first_gradient_lstsq": """def lstsq_gradients(X, y, w, b):
    X, y, w, b = (tf.convert_to_tensor(v) for v in (X, y, w, b))
    with tf.GradientTape() as tape:
        tape.watch(w)
        loss = tf.reduce_sum((tf.linalg.matvec(X, w) + b - y) ** 2)
    return tape.gradient(loss, {"w": w, "b": b})
""",
            "01_first_gradient_frozen": """def frozen_gradients(w, b, x):
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        loss = (tf.reduce_sum(w * x) + b) ** 2
    grads = tape.gradient(loss, {"w": w, "b": b, "x": x})
""",
        },
        "scores": scores(square_value=0, square_dtypes=0, lstsq_example=0, lstsq_random=0, frozen_values=0),
    },
    # Shortcut: the closed form after a throwaway tape call (a finite difference for Exercise 2's unknown
    # f): every call count is met and every number is right, but none of them is the tape's.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            "01_first_gradient_square": """def square_slope(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)  # asked, then dropped
    return 2 * x
""",
            "01_first_gradient_grid": """def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    tape.gradient(y, x)  # one call, as asked, then dropped
    wide, h = tf.cast(x, tf.float64), 1e-5
    return tf.cast((f(wide + h) - f(wide - h)) / (2 * h), x.dtype)  # central differences
""",
            "01_first_gradient_lstsq": """import numpy as np


def lstsq_gradients(X, y, w, b):
    scalar = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(scalar)
        unrelated = scalar * scalar
    tape.gradient(unrelated, scalar)
    X, y, w, b = (np.asarray(v, dtype=np.float64) for v in (X, y, w, b))
    r = X @ w + b - y
    return {"w": 2 * X.T @ r, "b": 2 * np.sum(r)}
""",
            "01_first_gradient_frozen": """def frozen_gradients(w, b, x):
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        loss = (tf.reduce_sum(w * x) + b) ** 2
    tape.gradient(loss, [w, b, x])
    s = tf.reduce_sum(w * x) + b
    return {"w": 2 * s * x, "b": 2 * s, "x": 2 * s * w}
""",
        },
        "scores": scores(square_value=0, square_dtypes=0, grid_sin_gauss=0, grid_other_functions=0,
                         lstsq_example=0, lstsq_random=0, frozen_values=0),
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: the tape's gradient of another function (here 0 · the right one) plus the closed form.
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            "01_first_gradient_square": """def square_slope(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = 0 * x * x
    return tape.gradient(y, x) + 2 * x
""",
            "01_first_gradient_grid": """def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = 0 * f(x)
    wide, h = tf.cast(x, tf.float64), 1e-5
    return tape.gradient(y, x) + tf.cast((f(wide + h) - f(wide - h)) / (2 * h), x.dtype)
""",
            "01_first_gradient_lstsq": """def lstsq_gradients(X, y, w, b):
    X, y, w, b = (tf.convert_to_tensor(v) for v in (X, y, w, b))
    with tf.GradientTape() as tape:
        tape.watch([w, b])
        r = tf.linalg.matvec(X, w) + b - y
        zero = 0 * tf.reduce_sum(r ** 2)
    grads = tape.gradient(zero, {"w": w, "b": b})
    return {"w": grads["w"] + 2 * tf.linalg.matvec(X, r, transpose_a=True), "b": grads["b"] + 2 * tf.reduce_sum(r)}
""",
            "01_first_gradient_frozen": """def frozen_gradients(w, b, x):
    with tf.GradientTape() as tape:
        tape.watch([w, x])
        s = tf.reduce_sum(w * x) + b
        zero = 0 * s * s
    grads = tape.gradient(zero, {"w": w, "b": b, "x": x})
    return {"w": grads["w"] + 2 * s * x, "b": grads["b"] + 2 * s, "x": grads["x"] + 2 * s * w}
""",
        },
        "scores": scores(square_value=0, square_dtypes=0, grid_sin_gauss=0, grid_other_functions=0,
                         lstsq_example=0, lstsq_random=0, frozen_values=0),
    },
}
