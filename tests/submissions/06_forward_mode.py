"""Synthetic submissions of 06_forward_mode for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: directional_cubic 1, directional_other 2, jacobian_tall 1, jacobian_other 2,
hvp_quadratic 1, hvp_large 2, second_power 1, second_other 2, parameter_jvp_dense 1, parameter_jvp_network 2
(15 in all).
"""

from . import scores_for

P = "06_forward_mode_"

scores = scores_for("06_forward_mode")
NO_DIRECTIONAL = dict(directional_cubic=0, directional_other=0)
NO_JACOBIAN = dict(jacobian_tall=0, jacobian_other=0)
NO_HVP = dict(hvp_quadratic=0, hvp_large=0)
NO_SECOND = dict(second_power=0, second_other=0)
NO_PARAMETER = dict(parameter_jvp_dense=0, parameter_jvp_network=0)

# Exercise 5's closed form for a stack of Dense layers (linear or tanh), forward mode by hand in NumPy float64:
# what a shortcut computes instead of reading the accumulator.
DENSE_STACK_BY_HAND = """
def dense_stack_jvp_by_hand(model, x, direction):
    variables = list(model.trainable_variables)
    def tangent_of(weight):
        for variable, d in zip(variables, direction):
            if variable is weight:
                return np.asarray(d, dtype=np.float64)
        return np.zeros(weight.shape)
    h = np.asarray(x, dtype=np.float64)
    dh = np.zeros_like(h)
    for layer in model.layers:
        W, b = np.asarray(layer.kernel, dtype=np.float64), np.asarray(layer.bias, dtype=np.float64)
        z, dz = h @ W + b, dh @ W + h @ tangent_of(layer.kernel) + tangent_of(layer.bias)
        if layer.get_config()["activation"] == "tanh":
            h, dh = np.tanh(z), (1.0 - np.tanh(z) ** 2) * dz
        else:
            h, dh = z, dz
    return dh
"""


SUBMISSIONS = {
    # Correct, written another way: tf.Variable primals, Python floats and NumPy results, the Jacobian's columns
    # from one vectorized JVP (tf.vectorized_map), a persistent tape under the accumulator.
    "variables_numpy_vectorized": {
        "answers": {
            P + "directional": '''def directional_derivative(f, x, v):
    x = tf.Variable(x)
    with tf.autodiff.ForwardAccumulator(primals=x, tangents=tf.constant(v, dtype=x.dtype)) as accumulator:
        value = f(x)
    return float(accumulator.jvp(value))
''',
            P + "jacobian": '''def forward_jacobian(f, x):
    x = tf.convert_to_tensor(x)
    def column(e):
        with tf.autodiff.ForwardAccumulator(x, e) as acc:
            y = f(x)
        return acc.jvp(y)
    columns = tf.vectorized_map(column, tf.eye(x.shape[0], dtype=x.dtype))   # row j is column j of J
    return tf.transpose(columns).numpy()
''',
            P + "hvp": '''def hvp_forward_over_reverse(f, x, v):
    x = tf.Variable(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        with tf.GradientTape(persistent=True) as tape:
            y = f(x)
        g = tape.gradient(y, x)
    del tape
    return acc.jvp(g).numpy()
''',
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):
    weights = model.trainable_weights
    primals = tuple(w.value for w in weights)
    tangents = tuple(np.asarray(d, dtype=np.float32) for d in direction)
    with tf.autodiff.ForwardAccumulator(primals, tangents) as acc:
        outputs = model(tf.convert_to_tensor(x, dtype=tf.float32), training=False)
    return acc.jvp(outputs).numpy()
''',
        },
        "scores": scores(),
    },
    # Correct: Exercise 4 built on Exercise 1 (the source's directional_derivative, called inside an outer accumulator).
    "second_from_exercise_1": {
        "answers": {
            P + "second": '''def second_directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        first = directional_derivative(f, x, v)   # Exercise 1, inside the outer block
    return first, outer.jvp(tf.convert_to_tensor(first))
''',
        },
        "scores": scores(),
    },
    # Correct: everything computed in float32, even for float64 inputs (the checks use float32 tolerances).
    "cast_to_float32": {
        "answers": {
            P + "directional": '''def directional_derivative(f, x, v):
    x, v = tf.cast(x, tf.float32), tf.cast(v, tf.float32)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = f(x)
    return acc.jvp(y)
''',
            P + "jacobian": '''def forward_jacobian(f, x):
    x = tf.cast(x, tf.float32)
    columns = []
    for j in range(x.shape[0]):
        with tf.autodiff.ForwardAccumulator(x, tf.one_hot(j, x.shape[0])) as acc:
            y = f(x)
        columns.append(acc.jvp(y).numpy())
    return np.stack(columns, axis=1)
''',
            P + "hvp": '''def hvp_forward_over_reverse(f, x, v):
    x, v = tf.cast(x, tf.float32), tf.cast(v, tf.float32)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    return acc.jvp(g)
''',
            P + "second": '''def second_directional_derivative(f, x, v):
    x, v = tf.cast(x, tf.float32), tf.cast(v, tf.float32)
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            y = f(x)
    first = inner.jvp(y)
    return [first.numpy(), outer.jvp(first).numpy()]
''',
        },
        "scores": scores(),
    },
    # Correct, with a debug print to stderr and a logged warning in every function: nbgrader must not see stderr.
    "prints_to_stderr": {
        "answers": {
            P + "directional": '''import logging, sys, warnings
def directional_derivative(f, x, v):
    print("debug: x", x, file=sys.stderr)
    logging.getLogger("tensorflow").warning("a warning from the student")
    warnings.warn("a warning from the student")
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        y = f(x)
    return acc.jvp(y)
''',
            P + "hvp": '''def hvp_forward_over_reverse(f, x, v):
    print("debug: hvp", file=sys.stderr)
    logging.warning("a warning from the student")
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    return acc.jvp(g)
''',
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):
    print("debug: parameter_jvp", file=sys.stderr)
    logging.warning("a warning from the student")
    variables = model.trainable_variables
    with tf.autodiff.ForwardAccumulator([v.value for v in variables], [tf.constant(d, dtype=v.dtype) for d, v in zip(direction, variables)]) as acc:
        y = model(x)
    return acc.jvp(y)
''',
        },
        "scores": scores(),
    },
    # Reverse mode where forward mode is asked: the gradient dotted with v, tape.jacobian, two nested tapes for H v
    # and for vᵀHv. Right numbers, refused by the counts of jvp, gradient and jacobian calls.
    "reverse_mode_everywhere": {
        "answers": {
            P + "directional": '''def directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tf.reduce_sum(tape.gradient(y, x) * tf.convert_to_tensor(v, dtype=x.dtype))
''',
            P + "jacobian": '''def forward_jacobian(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.jacobian(y, x)
''',
            P + "hvp": '''def hvp_forward_over_reverse(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
        g_dot_v = tf.reduce_sum(g * v)
    return outer.gradient(g_dot_v, x)
''',
            P + "second": '''def second_directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        first = tf.reduce_sum(inner.gradient(y, x) * v)
    second = tf.reduce_sum(outer.gradient(first, x) * v)
    return first, second
''',
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):   # section 7's double-VJP trick, with two tapes
    variables = model.trainable_variables
    u = tf.zeros_like(model(x))
    with tf.GradientTape() as transpose_tape:
        transpose_tape.watch(u)
        with tf.GradientTape() as backward_tape:
            y = model(x)
        uJ = backward_tape.gradient(y, variables, output_gradients=u)
    return transpose_tape.gradient(uJ, u, output_gradients=[tf.constant(d, dtype=v.dtype) for d, v in zip(direction, variables)])
''',
        },
        "scores": scores(**NO_DIRECTIONAL, **NO_JACOBIAN, **NO_HVP, **NO_SECOND, **NO_PARAMETER),
    },
    # H v from the whole Hessian (tape.jacobian of the gradient): right numbers at n = 6, refused by the counts
    # before n = 20 000, where the Hessian would take 1.6 GB.
    "hvp_from_the_hessian": {
        "answers": {
            P + "hvp": '''def hvp_forward_over_reverse(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        H = outer.jacobian(g, x)
    return tf.linalg.matvec(H, tf.convert_to_tensor(v, dtype=x.dtype))
''',
        },
        "scores": scores(**NO_HVP),
    },
    # The computation outside the accumulator's block: f(x) before the block, the tape's gradient after it,
    # and the nested accumulators read outside in. Every jvp is None.
    "outside_the_block": {
        "answers": {
            P + "directional": '''def directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    y = f(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        pass
    return acc.jvp(y)
''',
            P + "jacobian": '''def forward_jacobian(f, x):
    x = tf.convert_to_tensor(x)
    y = f(x)
    columns = []
    for j in range(x.shape[0]):
        with tf.autodiff.ForwardAccumulator(x, tf.one_hot(j, x.shape[0], dtype=x.dtype)) as acc:
            pass
        columns.append(acc.jvp(y))
    return tf.stack(columns, axis=1)
''',
            P + "hvp": '''def hvp_forward_over_reverse(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
    g = tape.gradient(y, x)   # after the accumulator's block
    return acc.jvp(g)
''',
            P + "second": '''def second_directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            y = f(x)
    first = outer.jvp(y)
    return first, inner.jvp(first)   # outside in: None
''',
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):
    variables = model.trainable_variables
    y = model(x)   # before the block
    with tf.autodiff.ForwardAccumulator([v.value for v in variables], [tf.constant(d) for d in direction]) as acc:
        pass
    return acc.jvp(y)
''',
        },
        "scores": scores(**NO_DIRECTIONAL, **NO_JACOBIAN, **NO_HVP, **NO_SECOND, **NO_PARAMETER),
    },
    # The tangent (1, ..., 1) instead of v: the gradient's sum (Exercise 1), H·1 (Exercise 3), and ones as the
    # outer tangent (Exercise 4, right first derivative, wrong second).
    "ones_as_the_tangent": {
        "answers": {
            P + "directional": '''def directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = f(x)
    return acc.jvp(y)
''',
            P + "hvp": '''def hvp_forward_over_reverse(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    return acc.jvp(g)
''',
            P + "second": '''def second_directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            y = f(x)
    first = inner.jvp(y)
    return first, outer.jvp(first)
''',
        },
        # Exercise 4's first check (n = 1, v = (1,)) cannot tell ones from v; its random case can.
        "scores": scores(**NO_DIRECTIONAL, **NO_HVP, **NO_SECOND),
    },
    # Finite differences of f along v: no jvp, so refused whatever the numbers.
    "finite_differences": {
        "answers": {
            P + "directional": '''def directional_derivative(f, x, v):
    x = np.asarray(x, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    h = 1e-5
    return (float(f(tf.constant(x + h * v))) - float(f(tf.constant(x - h * v)))) / (2 * h)
''',
            P + "second": '''def second_directional_derivative(f, x, v):
    x = np.asarray(x, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    h = 1e-3
    plus, mid, minus = (float(f(tf.constant(x + s * h * v))) for s in (1, 0, -1))
    return (plus - minus) / (2 * h), (plus - 2 * mid + minus) / h ** 2
''',
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):
    variables, h = model.trainable_variables, 1e-3
    start = [v.numpy() for v in variables]
    outputs = []
    for sign in (1, -1):
        for v, w, d in zip(variables, start, direction):
            v.assign(w + sign * h * np.asarray(d, dtype=np.float32))
        outputs.append(np.asarray(model(x), dtype=np.float64))
    for v, w in zip(variables, start):
        v.assign(w)
    return (outputs[0] - outputs[1]) / (2 * h)
''',
        },
        "scores": scores(**NO_DIRECTIONAL, **NO_SECOND, **NO_PARAMETER),
    },
    # The closed form of the visible example (Σ 3x²v) behind a token jvp: right numbers in the Σx³ cell, but they do
    # not come from the accumulator (and the functions the student has not seen get wrong ones).
    "closed_form_of_the_example": {
        "answers": {
            P + "directional": '''def directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        pass
    acc.jvp(x)
    x, v = np.asarray(x, dtype=np.float64), np.asarray(v, dtype=np.float64)
    return np.sum(3 * x ** 2 * v)
''',
        },
        "scores": scores(**NO_DIRECTIONAL),
    },
    # The columns stacked along axis 0: the transpose of J, shape (n, m).
    "transposed_jacobian": {
        "answers": {
            P + "jacobian": '''def forward_jacobian(f, x):
    x = tf.convert_to_tensor(x)
    basis = tf.eye(x.shape[0], dtype=x.dtype)
    columns = []
    for j in range(x.shape[0]):
        with tf.autodiff.ForwardAccumulator(x, basis[j]) as acc:
            y = f(x)
        columns.append(acc.jvp(y))
    return tf.stack(columns)
''',
        },
        "scores": scores(**NO_JACOBIAN),
    },
    # The two derivatives of Exercise 4 returned in the wrong order.
    "second_swapped": {
        "answers": {
            P + "second": '''def second_directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            y = f(x)
    first = inner.jvp(y)
    return outer.jvp(first), first
''',
        },
        "scores": scores(**NO_SECOND),
    },
    # Exercise 5 with TensorFlow's documented primals, the Keras 3 variables themselves: AttributeError.
    "keras_variables_as_primals": {
        "answers": {
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):
    variables = model.trainable_variables
    with tf.autodiff.ForwardAccumulator(variables, [tf.constant(d) for d in direction]) as acc:
        y = model(x)
    return acc.jvp(y)
''',
        },
        "scores": scores(**NO_PARAMETER),
    },
    # Exercise 5 with tf.convert_to_tensor of each variable as the primal: copies the model never reads, so None.
    "converted_copies_as_primals": {
        "answers": {
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):
    variables = model.trainable_variables
    primals = [tf.convert_to_tensor(v) for v in variables]
    with tf.autodiff.ForwardAccumulator(primals, [tf.constant(d, dtype=p.dtype) for d, p in zip(direction, primals)]) as acc:
        y = model(x)
    return acc.jvp(y)
''',
        },
        "scores": scores(**NO_PARAMETER),
        "feedback": ["tf.convert_to_tensor(variable) is a copy the model never reads"],
    },
    # Exercise 5 with the kernels only as primals: the biases' tangents are left out (x·d_W, not x·d_W + d_b).
    "kernels_only": {
        "answers": {
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):
    pairs = [(v.value, tf.constant(d)) for v, d in zip(model.trainable_variables, direction) if len(v.shape) == 2]
    with tf.autodiff.ForwardAccumulator([p for p, _ in pairs], [t for _, t in pairs]) as acc:
        y = model(x)
    return acc.jvp(y)
''',
        },
        "scores": scores(**NO_PARAMETER),
        "feedback": ["the bias's tangent is missing"],
    },
    # Calling the answer keys of the visible checks: they refuse to run from the student's code.
    "calls_the_answer_keys": {
        "answers": {
            P + "directional": '''def directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        y = f(x)
    acc.jvp(y)
    return expected_cubic_directional(x, v)
''',
            P + "jacobian": '''def forward_jacobian(f, x):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as acc:
        y = f(x)
    acc.jvp(y)
    return expected_helix_jacobian(x)
''',
            P + "hvp": '''def hvp_forward_over_reverse(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    acc.jvp(g)
    return expected_quadratic_hvp(np.array([[1.0, 2.0], [0.0, 3.0]]), v)
''',
            P + "second": '''def second_directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as outer:
        with tf.autodiff.ForwardAccumulator(x, tf.convert_to_tensor(v, dtype=x.dtype)) as inner:
            y = f(x)
    outer.jvp(inner.jvp(y))
    return expected_power_line_derivatives(x, v)
''',
            P + "parameter_jvp": '''def parameter_jvp(model, x, direction):
    variables = model.trainable_variables
    with tf.autodiff.ForwardAccumulator([v.value for v in variables], [tf.constant(d) for d in direction]) as acc:
        y = model(x)
    acc.jvp(y)
    return expected_dense_parameter_jvp(x, *direction)
''',
        },
        "scores": scores(**NO_DIRECTIONAL, **NO_JACOBIAN, **NO_HVP, **NO_SECOND, **NO_PARAMETER),
    },
    # Shortcut: every accumulator is asked as the counts demand, its jvp dropped, and the answer is a central
    # finite difference of f in float64 (f called through its unwrapped function where its calls are counted).
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "directional": """import numpy as np


def directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = f(x)
    acc.jvp(y)  # asked, then dropped
    x64, v64, h = x.numpy().astype(np.float64), v.numpy().astype(np.float64), 1e-5
    return (float(f(tf.constant(x64 + h * v64))) - float(f(tf.constant(x64 - h * v64)))) / (2 * h)
""",
            P + "jacobian": """import numpy as np


def forward_jacobian(f, x):
    x = tf.convert_to_tensor(x)
    basis = tf.eye(x.shape[0], dtype=x.dtype)
    raw = getattr(f, "_function", f)  # not counted as a call of f
    x64, h = x.numpy().astype(np.float64), 1e-5
    columns = []
    for j in range(x.shape[0]):
        with tf.autodiff.ForwardAccumulator(x, basis[j]) as acc:
            y = f(x)
        acc.jvp(y)  # one jvp per column, as asked, then dropped
        e = np.eye(x.shape[0])[j] * h
        columns.append((raw(tf.constant(x64 + e)).numpy() - raw(tf.constant(x64 - e)).numpy()) / (2 * h))
    return np.stack(columns, axis=1).astype(x.dtype.as_numpy_dtype)
""",
            P + "hvp": """import numpy as np


def hvp_forward_over_reverse(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    acc.jvp(g)  # asked, then dropped
    x64, v64, h = x.numpy().astype(np.float64), v.numpy().astype(np.float64), 1e-4
    F = lambda p: float(f(tf.constant(p)))
    rows = []
    for e in np.eye(x64.size) * h:  # e_i · H v by a four-point finite difference of f
        rows.append((F(x64 + e + h * v64) - F(x64 + e - h * v64) - F(x64 - e + h * v64) + F(x64 - e - h * v64)) / (4 * h * h))
    return np.array(rows).astype(x.dtype.as_numpy_dtype)
""",
            P + "second": """import numpy as np


def second_directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            y = f(x)
        first = inner.jvp(y)
    outer.jvp(first)  # asked, then dropped
    raw = getattr(f, "_function", f)  # not counted as a call of f
    x64, v64, h = x.numpy().astype(np.float64), v.numpy().astype(np.float64), 1e-4
    plus, zero, minus = (float(raw(tf.constant(x64 + t * h * v64))) for t in (1, 0, -1))
    return (plus - minus) / (2 * h), (plus - 2 * zero + minus) / (h * h)
""",
            P + "parameter_jvp": "import numpy as np\n" + DENSE_STACK_BY_HAND + """

def parameter_jvp(model, x, direction):
    variables = model.trainable_variables
    with tf.autodiff.ForwardAccumulator([v.value for v in variables], [tf.constant(d) for d in direction]) as acc:
        y = model(x)
    acc.jvp(y)  # asked once, as the counts demand, then dropped
    return dense_stack_jvp_by_hand(model, x, direction).astype(np.float32)
""",
        },
        "scores": scores(**NO_DIRECTIONAL, **NO_JACOBIAN, **NO_HVP, **NO_SECOND, **NO_PARAMETER),
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: the accumulator's jvp of another function (0 · the right one) plus a finite difference of f.
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "directional": """import numpy as np


def directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        zero = 0 * f(x)
    x64, v64, h = x.numpy().astype(np.float64), v.numpy().astype(np.float64), 1e-5
    slope = (float(f(tf.constant(x64 + h * v64))) - float(f(tf.constant(x64 - h * v64)))) / (2 * h)
    return acc.jvp(zero) + tf.constant(slope, dtype=x.dtype)
""",
            P + "jacobian": """import numpy as np


def forward_jacobian(f, x):
    x = tf.convert_to_tensor(x)
    basis = tf.eye(x.shape[0], dtype=x.dtype)
    raw = getattr(f, "_function", f)  # not counted as a call of f
    x64, h = x.numpy().astype(np.float64), 1e-5
    columns = []
    for j in range(x.shape[0]):
        with tf.autodiff.ForwardAccumulator(x, basis[j]) as acc:
            zero = 0 * f(x)
        e = np.eye(x.shape[0])[j] * h
        column = (raw(tf.constant(x64 + e)).numpy() - raw(tf.constant(x64 - e)).numpy()) / (2 * h)
        columns.append(acc.jvp(zero) + tf.constant(column, dtype=x.dtype))
    return tf.stack(columns, axis=1)
""",
            P + "hvp": """import numpy as np


def hvp_forward_over_reverse(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            zero = 0 * f(x)
        g = tape.gradient(zero, x)
    x64, v64, h = x.numpy().astype(np.float64), v.numpy().astype(np.float64), 1e-4
    F = lambda p: float(f(tf.constant(p)))
    rows = [(F(x64 + e + h * v64) - F(x64 + e - h * v64) - F(x64 - e + h * v64) + F(x64 - e - h * v64)) / (4 * h * h)
            for e in np.eye(x64.size) * h]
    return acc.jvp(g, unconnected_gradients=tf.UnconnectedGradients.ZERO) + tf.constant(rows, dtype=x.dtype)
""",
            P + "second": """import numpy as np


def second_directional_derivative(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as outer:
        with tf.autodiff.ForwardAccumulator(x, v) as inner:
            zero = 0 * f(x)
        first_zero = inner.jvp(zero)
    second_zero = outer.jvp(first_zero)
    raw = getattr(f, "_function", f)  # not counted as a call of f
    x64, v64, h = x.numpy().astype(np.float64), v.numpy().astype(np.float64), 1e-4
    plus, mid, minus = (float(raw(tf.constant(x64 + t * h * v64))) for t in (1, 0, -1))
    return (first_zero + tf.constant((plus - minus) / (2 * h), dtype=x.dtype),
            second_zero + tf.constant((plus - 2 * mid + minus) / (h * h), dtype=x.dtype))
""",
            P + "parameter_jvp": "import numpy as np\n" + DENSE_STACK_BY_HAND + """

def parameter_jvp(model, x, direction):
    variables = model.trainable_variables
    with tf.autodiff.ForwardAccumulator([v.value for v in variables], [tf.constant(d) for d in direction]) as acc:
        zero = 0 * model(x)
    return acc.jvp(zero) + tf.constant(dense_stack_jvp_by_hand(model, x, direction), dtype=tf.float32)
""",
        },
        "scores": scores(**NO_DIRECTIONAL, **NO_JACOBIAN, **NO_HVP, **NO_SECOND, **NO_PARAMETER),
    },
}
