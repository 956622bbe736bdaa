"""Synthetic submissions of 03_persistent_tapes for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: two_example 1, two_grid 2, seed_values 1, seed_other 2, all_three 2, all_other_lists 2,
table_seed 1, table_other 2, losses_linear 2, losses_network 2 (17 in all).
Every exercise hands the student the computation (forward, f) and counts its calls: exactly one.
"""

from . import scores_for


scores = scores_for("03_persistent_tapes")
ZERO = dict.fromkeys(["two_example", "two_grid", "seed_values", "seed_other", "all_three", "all_other_lists",
                      "table_seed", "table_other", "losses_linear", "losses_network"], 0.0)

COMMON = """
def _slope(g, x, h=1e-5):
    # central differences of an elementwise g at x, in float64
    x = tf.cast(x, tf.float64)
    return (g(x + h) - g(x - h)) / (2 * h)
"""
BY_HAND = """

def _by_hand(x, loss_fn, predictions, variables):
    # the gradients of loss_fn(predictions) from dloss/dp (central differences: the losses are quadratic in p,
    # so a step of 1 is exact) and the chain rule by hand, for the linear model and for the tanh network
    p = predictions.numpy()
    dp = np.zeros(p.shape)
    for k in range(p.size):
        step = np.zeros(p.shape, p.dtype)
        step[k] = 1.0
        dp[k] = (float(loss_fn(tf.constant(p + step))) - float(loss_fn(tf.constant(p - step)))) / 2
    X = np.asarray(x, dtype=np.float64)
    values = [np.asarray(v.numpy(), dtype=np.float64) for v in variables]
    if len(values) == 2:
        return [X.T @ dp, dp.sum()]
    W, c, v, d = values
    hidden = np.tanh(X @ W + c)
    da = np.outer(dp, v) * (1 - hidden ** 2)
    return [X.T @ da, da.sum(axis=0), hidden.T @ dp, dp.sum()]
"""


SUBMISSIONS = {
    # Correct, written another way: two tapes recording the same single forward pass (one tape per target;
    # for a list of targets, as many tapes as targets, opened with an ExitStack), NumPy results.
    "two_tapes_numpy": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape_y, tf.GradientTape() as tape_z:
        tape_y.watch(x)
        tape_z.watch(x)
        y, z = forward(x)
    return tape_y.gradient(y, x).numpy(), tape_z.gradient(z, x).numpy()
''',
            "03_persistent_tapes_seed": '''def seed_gradients(forward, x, y):
    x = tf.convert_to_tensor(x)
    y = tf.convert_to_tensor(y)
    with tf.GradientTape(persistent=True) as gf:
        gf.watch([x, y])
        z, m = forward(x, y)
    dz_x = gf.gradient(z, x)
    dm_y = gf.gradient(m, y)
    del gf
    return [dz_x.numpy(), dm_y.numpy()]
''',
            "03_persistent_tapes_all": '''import contextlib


def derivatives_of_all(forward, x):
    x = tf.convert_to_tensor(x)
    with contextlib.ExitStack() as stack:
        tapes = [stack.enter_context(tf.GradientTape()) for _ in range(16)]  # more tapes than targets
        for tape in tapes:
            tape.watch(x)
        targets = forward(x)
    return [tape.gradient(target, x).numpy() for tape, target in zip(tapes, targets)]
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(s) for s in sources]
    with tf.GradientTape(persistent=True) as tape:
        for s in sources:
            tape.watch(s)
        targets = f(*sources)
    table = []
    for target in targets:
        table.append([None if g is None else g.numpy() for g in tape.gradient(target, sources)])
    return table
''',
            "03_persistent_tapes_losses": '''import contextlib


def loss_gradients(forward, x, losses, variables):
    names = list(losses)
    with contextlib.ExitStack() as stack:
        tapes = {name: stack.enter_context(tf.GradientTape()) for name in names}  # a tape per loss
        predictions = forward(x)
        values = {name: losses[name](predictions) for name in names}
    return {name: [g.numpy() for g in tapes[name].gradient(values[name], variables)] for name in names}
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: trainable Variables (watched on their own), everything in float32,
    # gradient calls inside the `with` block of a persistent tape (TensorFlow logs a warning the setup
    # cell keeps quiet: no stderr, no lost points), a dict returned by tape.gradient for Exercise 5.
    "variables_inside_block": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    x = tf.Variable(tf.cast(x, tf.float32))
    with tf.GradientTape(persistent=True) as tape:
        y, z = forward(x)
        grads = (tape.gradient(y, x), tape.gradient(z, x))
    return grads
''',
            "03_persistent_tapes_seed": '''def seed_gradients(forward, x, y):
    x = tf.Variable(tf.cast(x, tf.float32))
    y = tf.Variable(tf.cast(y, tf.float32))
    with tf.GradientTape(persistent=True) as tape:
        z, m = forward(x, y)
        dz_dx, dm_dy = tape.gradient(z, x), tape.gradient(m, y)
    return dz_dx, dm_dy
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(forward, x):
    x = tf.Variable(tf.cast(x, tf.float32))
    with tf.GradientTape(persistent=True) as tape:
        values = forward(x)
        return [tape.gradient(v, x) for v in values]
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    variables = [tf.Variable(tf.cast(s, tf.float32)) for s in sources]
    with tf.GradientTape(persistent=True) as tape:
        targets = f(*variables)
        table = [list(tape.gradient(t, variables)) for t in targets]
    return table
''',
            "03_persistent_tapes_losses": '''def loss_gradients(forward, x, losses, variables):
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(variables)
        predictions = forward(x)
        result = {}
        for name, loss_fn in losses.items():
            result[name] = tape.gradient(loss_fn(predictions), variables)
    return result
''',
        },
        "scores": scores(),
    },
    # Correct, with a debug print to stderr and a logging.warning in every solution: no lost points.
    "stderr_and_logging": {
        "answers": {
            "03_persistent_tapes_two": '''import logging
import sys


def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y, z = forward(x)
    print("debug: shapes", y.shape, z.shape, file=sys.stderr)
    logging.warning("two_derivatives ran")
    return tape.gradient(y, x), tape.gradient(z, x)
''',
            "03_persistent_tapes_seed": '''import logging
import sys


def seed_gradients(forward, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as g, tf.GradientTape() as f:
        g.watch(x)
        f.watch(y)
        z, m = forward(x, y)
    print("debug:", z, m, file=sys.stderr)
    logging.warning("seed_gradients ran")
    return g.gradient(z, x), f.gradient(m, y)
''',
            "03_persistent_tapes_all": '''import logging
import sys


def derivatives_of_all(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        targets = forward(x)
    print("debug:", len(targets), "targets", file=sys.stderr)
    logging.warning("derivatives_of_all ran")
    return [tape.gradient(target, x) for target in targets]
''',
            "03_persistent_tapes_table": '''import logging
import sys


def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(source) for source in sources]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(sources)
        targets = f(*sources)
    print("debug:", len(targets), "targets", file=sys.stderr)
    logging.warning("gradient_table ran")
    return [tape.gradient(target, sources) for target in targets]
''',
            "03_persistent_tapes_losses": '''import logging
import sys


def loss_gradients(forward, x, losses, variables):
    with tf.GradientTape(persistent=True) as tape:
        predictions = forward(x)
        values = {name: loss_fn(predictions) for name, loss_fn in losses.items()}
    print("debug: losses", {name: float(value) for name, value in values.items()}, file=sys.stderr)
    logging.warning("loss_gradients ran")
    return {name: tape.gradient(value, variables) for name, value in values.items()}
''',
        },
        "scores": scores(),
    },
    # Brute force: a fresh tape, and a fresh forward computation, per target: the right numbers, but the
    # computation runs once per target, where recording once is the point. Only one-target cases could pass,
    # and every grade cell has a case with two or more targets before them.
    "fresh_tape_per_target": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    result = []
    for k in range(2):
        with tf.GradientTape() as tape:
            tape.watch(x)
            targets = forward(x)
        result.append(tape.gradient(targets[k], x))
    return tuple(result)
''',
            "03_persistent_tapes_seed": '''def seed_gradients(forward, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as g:
        g.watch(x)
        z, _ = forward(x, y)
    with tf.GradientTape() as f:
        f.watch(y)
        _, m = forward(x, y)
    return g.gradient(z, x), f.gradient(m, y)
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(forward, x):
    x = tf.convert_to_tensor(x)
    count = len(forward(x))
    result = []
    for k in range(count):
        with tf.GradientTape() as tape:
            tape.watch(x)
            target = forward(x)[k]
        result.append(tape.gradient(target, x).numpy())
    return result
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(s) for s in sources]
    count = len(f(*sources))
    table = []
    for i in range(count):  # a fresh tape, and a fresh forward pass, for every target
        with tf.GradientTape() as tape:
            for s in sources:
                tape.watch(s)
            target = f(*sources)[i]
        table.append([None if g is None else g.numpy() for g in tape.gradient(target, sources)])
    return table
''',
            "03_persistent_tapes_losses": '''def loss_gradients(forward, x, losses, variables):
    result = {}
    for name, loss_fn in losses.items():  # a forward pass per loss
        with tf.GradientTape() as tape:
            loss = loss_fn(forward(x))
        result[name] = tape.gradient(loss, variables)
    return result
''',
        },
        "scores": scores(**ZERO),
    },
    # Cheat: the closed forms of the prompts' examples, whatever the computation is (forward never called).
    "hard_coded_closed_forms": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    x = np.asarray(x, dtype=np.float64)
    return 2 * x, 4 * x ** 3
''',
            "03_persistent_tapes_seed": '''def seed_gradients(forward, x, y):
    return 2 * np.asarray(x, dtype=np.float64), 1 + 2 * np.asarray(y, dtype=np.float64)
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(forward, x):
    x = np.asarray(x, dtype=np.float64)
    return [np.cos(x), 3 * x ** 2, np.exp(x)]
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    x, y = (np.asarray(s, dtype=np.float64) for s in sources)
    return [[2 * x, np.ones_like(y)], [np.ones_like(x), 1 + 2 * y]]
''',
        },
        "scores": scores(two_example=0, two_grid=0, seed_values=0, seed_other=0, all_three=0, all_other_lists=0,
                         table_seed=0, table_other=0),
    },
    # Cheat: every solution runs the computation once (so the call count is right) and returns the grade
    # cells' answer keys; @answer_key refuses to run from student code, so every cell scores 0.
    "calls_answer_keys": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    forward(tf.convert_to_tensor(x))
    return expected_dy_dx(x), expected_dz_dx(x)
''',
            "03_persistent_tapes_seed": '''def seed_gradients(forward, x, y):
    forward(tf.convert_to_tensor(x), tf.convert_to_tensor(y))
    return expected_seed_dz_dx(x, y), expected_seed_dm_dy(x, y)
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(forward, x):
    forward(tf.convert_to_tensor(x))
    return [expected_sin_derivative(x), expected_cube_derivative(x), expected_exp_derivative(x)]
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    f(*[tf.convert_to_tensor(s) for s in sources])
    return expected_seed_table(*sources)
''',
            "03_persistent_tapes_losses": '''def loss_gradients(forward, x, losses, variables):
    forward(x)
    w, b = (v.numpy() for v in variables[:2])
    right = expected_mse_gradients(x, 0.0, w, b)
    return {name: [right["w"], right["b"]] for name in losses}
''',
        },
        "scores": scores(**ZERO),
    },
    # Wrong: one plain tape asked several times: the RuntimeError of the second call (explained by the setup
    # cell's error handler) in every cell.
    "plain_tape_asked_twice": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, z = forward(x)
    return tape.gradient(y, x), tape.gradient(z, x)
''',
            "03_persistent_tapes_seed": '''def seed_gradients(forward, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z, m = forward(x, y)
    return tape.gradient(z, x), tape.gradient(m, y)
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        values = forward(x)
    return [tape.gradient(v, x) for v in values]
''',
            "03_persistent_tapes_losses": '''def loss_gradients(forward, x, losses, variables):
    with tf.GradientTape() as tape:
        predictions = forward(x)
        values = {name: loss_fn(predictions) for name, loss_fn in losses.items()}
    return {name: tape.gradient(value, variables) for name, value in values.items()}
''',
        },
        # all_other_lists: the visible list has two targets, so the cell fails before the hidden one-target list.
        "scores": scores(two_example=0, two_grid=0, seed_values=0, seed_other=0, all_three=0, all_other_lists=0,
                         losses_linear=0, losses_network=0),
    },
    # Wrong: the chain rule stopped at y in Ex1 (dz/dy), the partial with respect to the other source in Ex2.
    "chain_stopped_at_y": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y, z = forward(x)
    return tape.gradient(y, x), tape.gradient(z, y)
''',
            "03_persistent_tapes_seed": '''def seed_gradients(forward, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z, m = forward(x, y)
    return tape.gradient(z, x), tape.gradient(m, x)
''',
        },
        "scores": scores(two_example=0, two_grid=0, seed_values=0, seed_other=0),
    },
    # Wrong: the source not watched (a constant, not a Variable): None gradients in Ex1, Ex3; the losses
    # computed after the `with` block in Ex5 (not recorded: None).
    "missing_watch_and_losses_outside": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        y, z = forward(x)
    return tape.gradient(y, x), tape.gradient(z, x)
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        targets = forward(x)
    return [tape.gradient(t, x) for t in targets]
''',
            "03_persistent_tapes_losses": '''def loss_gradients(forward, x, losses, variables):
    with tf.GradientTape(persistent=True) as tape:
        predictions = forward(x)
    values = {name: loss_fn(predictions) for name, loss_fn in losses.items()}
    return {name: tape.gradient(value, variables) for name, value in values.items()}
''',
        },
        "scores": scores(two_example=0, two_grid=0, all_three=0, all_other_lists=0, losses_linear=0, losses_network=0),
    },
    # Wrong: the two results swapped (Ex1) and the table transposed (Ex4). The seed's table is symmetric,
    # so the transpose passes table_seed and fails on the three-by-three table ("transposed").
    "swapped_and_transposed": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y, z = forward(x)
    return tape.gradient(z, x), tape.gradient(y, x)
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(s) for s in sources]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(sources)
        targets = f(*sources)
    return [[tape.gradient(t, s) for t in targets] for s in sources]
''',
        },
        "scores": scores(two_example=0, two_grid=0, table_other=0),
    },
    # Wrong: one gradient call with the list of all targets (their sum) in Ex3, Ex4 and Ex5 (there: the
    # gradient of the sum of the losses given for every loss).
    "list_of_targets": {
        "answers": {
            "03_persistent_tapes_all": '''def derivatives_of_all(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        values = forward(x)
    return tape.gradient(values, x)
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(s) for s in sources]
    with tf.GradientTape() as tape:
        tape.watch(sources)
        targets = f(*sources)
    return tape.gradient(targets, sources)
''',
            "03_persistent_tapes_losses": '''def loss_gradients(forward, x, losses, variables):
    with tf.GradientTape() as tape:
        predictions = forward(x)
        values = [loss_fn(predictions) for loss_fn in losses.values()]
    total = tape.gradient(values, variables)
    return {name: total for name in losses}
''',
        },
        "scores": scores(all_three=0, all_other_lists=0, table_seed=0, table_other=0, losses_linear=0, losses_network=0),
    },
    # Wrong: zeros instead of None for the unconnected pairs (unconnected_gradients=ZERO); the seed's table
    # has no unconnected pair, so only table_other fails.
    "zeros_for_none": {
        "answers": {
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(s) for s in sources]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(sources)
        targets = f(*sources)
    return [tape.gradient(t, sources, unconnected_gradients=tf.UnconnectedGradients.ZERO) for t in targets]
''',
        },
        "scores": scores(table_other=0),
    },
    # Wrong: the mean of the losses' gradients over the batch where the loss already is a mean (an extra 1/N)
    # in Ex5: tape.gradient of each loss divided by the number of examples.
    "extra_mean": {
        "answers": {
            "03_persistent_tapes_losses": '''def loss_gradients(forward, x, losses, variables):
    with tf.GradientTape(persistent=True) as tape:
        predictions = forward(x)
        values = {name: loss_fn(predictions) for name, loss_fn in losses.items()}
    n = tf.cast(tf.shape(predictions)[0], predictions.dtype)
    return {name: [g / n for g in tape.gradient(value, variables)] for name, value in values.items()}
''',
        },
        "scores": scores(losses_linear=0, losses_network=0),
    },
    # Shortcut: central differences in float64 of the computation behind the counter (forward._function, so
    # forward itself runs once) after a throwaway tape call; in Ex5 the chain rule by hand. Every count is met
    # and every number is right, but none of them is the tape's.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            "03_persistent_tapes_two": """def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y, z = forward(x)
    tape.gradient(y, x), tape.gradient(z, x)  # asked, then dropped
    wrapped = forward._function
    return (tf.cast(_slope(lambda t: wrapped(t)[0], x), x.dtype), tf.cast(_slope(lambda t: wrapped(t)[1], x), x.dtype))
""" + COMMON,
            "03_persistent_tapes_seed": """def seed_gradients(forward, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z, m = forward(x, y)
    tape.gradient(z, x), tape.gradient(m, y)
    wrapped, wide_x, wide_y = forward._function, tf.cast(x, tf.float64), tf.cast(y, tf.float64)
    return (tf.cast(_slope(lambda t: wrapped(t, wide_y)[0], x), x.dtype),
            tf.cast(_slope(lambda t: wrapped(wide_x, t)[1], y), y.dtype))
""" + COMMON,
            "03_persistent_tapes_all": """def derivatives_of_all(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        targets = forward(x)
    [tape.gradient(target, x) for target in targets]
    wrapped = forward._function
    return [tf.cast(_slope(lambda t, i=i: wrapped(t)[i], x), x.dtype) for i in range(len(targets))]
""" + COMMON,
            "03_persistent_tapes_table": """def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(source) for source in sources]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(sources)
        targets = f(*sources)
    asked = [tape.gradient(target, sources) for target in targets]  # kept only for where it is None
    wide = [tf.cast(source, tf.float64) for source in sources]

    def moved(j):
        return lambda t: f._function(*(t if k == j else s for k, s in enumerate(wide)))

    return [[None if asked[i][j] is None else tf.cast(_slope(lambda t, i=i, j=j: moved(j)(t)[i], sources[j]), sources[j].dtype)
             for j in range(len(sources))] for i in range(len(targets))]
""" + COMMON,
            "03_persistent_tapes_losses": """def loss_gradients(forward, x, losses, variables):
    with tf.GradientTape(persistent=True) as tape:
        predictions = forward(x)
        values = {name: loss_fn(predictions) for name, loss_fn in losses.items()}
    [tape.gradient(value, variables) for value in values.values()]  # asked, then dropped
    return {name: _by_hand(x, loss_fn, predictions, variables) for name, loss_fn in losses.items()}
""" + BY_HAND,
        },
        "scores": scores(**ZERO),
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: the tape's gradient of another function (0 · the right one) plus the same central differences
    # (the chain rule by hand in Ex5).
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            "03_persistent_tapes_two": """def two_derivatives(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y, z = forward(x)
        zero_y, zero_z = 0 * y, 0 * z
    wrapped = forward._function
    return (tape.gradient(zero_y, x) + tf.cast(_slope(lambda t: wrapped(t)[0], x), x.dtype),
            tape.gradient(zero_z, x) + tf.cast(_slope(lambda t: wrapped(t)[1], x), x.dtype))
""" + COMMON,
            "03_persistent_tapes_seed": """def seed_gradients(forward, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z, m = forward(x, y)
        zero_z, zero_m = 0 * z, 0 * m
    wrapped, wide_x, wide_y = forward._function, tf.cast(x, tf.float64), tf.cast(y, tf.float64)
    return (tape.gradient(zero_z, x) + tf.cast(_slope(lambda t: wrapped(t, wide_y)[0], x), x.dtype),
            tape.gradient(zero_m, y) + tf.cast(_slope(lambda t: wrapped(wide_x, t)[1], y), y.dtype))
""" + COMMON,
            "03_persistent_tapes_all": """def derivatives_of_all(forward, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        zeros = [0 * target for target in forward(x)]
    wrapped = forward._function
    return [tape.gradient(zero, x) + tf.cast(_slope(lambda t, i=i: wrapped(t)[i], x), x.dtype)
            for i, zero in enumerate(zeros)]
""" + COMMON,
            "03_persistent_tapes_table": """def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(source) for source in sources]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(sources)
        zeros = [0 * target for target in f(*sources)]
    starts = [tape.gradient(zero, sources) for zero in zeros]
    wide = [tf.cast(source, tf.float64) for source in sources]

    def moved(j):
        return lambda t: f._function(*(t if k == j else s for k, s in enumerate(wide)))

    return [[None if starts[i][j] is None else
             starts[i][j] + tf.cast(_slope(lambda t, i=i, j=j: moved(j)(t)[i], sources[j]), sources[j].dtype)
             for j in range(len(sources))] for i in range(len(zeros))]
""" + COMMON,
            "03_persistent_tapes_losses": """def loss_gradients(forward, x, losses, variables):
    with tf.GradientTape(persistent=True) as tape:
        predictions = forward(x)
        zeros = {name: 0 * loss_fn(predictions) for name, loss_fn in losses.items()}
    return {name: [start + by_hand for start, by_hand in zip(tape.gradient(zeros[name], variables),
                                                           _by_hand(x, loss_fn, predictions, variables))]
            for name, loss_fn in losses.items()}
""" + BY_HAND,
        },
        "scores": scores(**ZERO),
    },
}
