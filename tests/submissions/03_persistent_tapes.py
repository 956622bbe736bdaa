"""Synthetic submissions of 03_persistent_tapes for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: two_example 1, two_grid 2, seed_values 2, all_three 2, all_other_lists 2,
table_seed 1, table_other 2 (12 in all).
"""

from . import scores_for


scores = scores_for("03_persistent_tapes")


SUBMISSIONS = {
    # Correct, written another way: two tapes where the seed used them, a fresh tape per function or per
    # target instead of one persistent tape, NumPy results.
    "two_tapes_numpy": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape_y, tf.GradientTape() as tape_z:
        tape_y.watch(x)
        tape_z.watch(x)
        y = tf.square(x)
        z = tf.square(y)
    return tape_y.gradient(y, x).numpy(), tape_z.gradient(z, x).numpy()
''',
            "03_persistent_tapes_seed": '''def seed_gradients(x, y):
    x = tf.convert_to_tensor(x)
    y = tf.convert_to_tensor(y)
    with tf.GradientTape(persistent=True) as gf:
        gf.watch([x, y])
        z = x * x + y
        m = y + y * y + x
    dz_x = gf.gradient(z, x)
    dm_y = gf.gradient(m, y)
    del gf
    return [dz_x.numpy(), dm_y.numpy()]
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(fs, x):
    x = tf.convert_to_tensor(x)
    result = []
    for f in fs:  # a fresh tape for every function
        with tf.GradientTape() as tape:
            tape.watch(x)
            value = f(x)
        result.append(tape.gradient(value, x).numpy())
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
        },
        "scores": scores(),
    },
    # Correct, written another way: trainable Variables (watched on their own), everything in float32,
    # gradient calls inside the `with` block of a persistent tape (TensorFlow logs a warning the setup
    # cell keeps quiet: no stderr, no lost points).
    "variables_inside_block": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(x):
    x = tf.Variable(tf.cast(x, tf.float32))
    with tf.GradientTape(persistent=True) as tape:
        y = x ** 2
        z = y ** 2
        grads = (tape.gradient(y, x), tape.gradient(z, x))
    return grads
''',
            "03_persistent_tapes_seed": '''def seed_gradients(x, y):
    x = tf.Variable(tf.cast(x, tf.float32))
    y = tf.Variable(tf.cast(y, tf.float32))
    with tf.GradientTape(persistent=True) as tape:
        z = x * x + y
        m = y + y * y + x
        dz_dx, dm_dy = tape.gradient(z, x), tape.gradient(m, y)
    return dz_dx, dm_dy
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(fs, x):
    x = tf.Variable(tf.cast(x, tf.float32))
    with tf.GradientTape(persistent=True) as tape:
        values = [f(x) for f in fs]
        return [tape.gradient(v, x) for v in values]
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    variables = [tf.Variable(tf.cast(s, tf.float32)) for s in sources]
    with tf.GradientTape(persistent=True) as tape:
        targets = f(*variables)
        table = [list(tape.gradient(t, variables)) for t in targets]
    return table
''',
        },
        "scores": scores(),
    },
    # Wrong: one plain tape asked several times (Ex1, Ex3): the RuntimeError of the second call.
    "plain_tape_asked_twice": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return tape.gradient(y, x), tape.gradient(z, x)
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(fs, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        values = [f(x) for f in fs]
    return [tape.gradient(v, x) for v in values]
''',
        },
        # all_other_lists: the visible list has two functions, so the cell fails before the hidden one-function list.
        "scores": scores(two_example=0.0, two_grid=0.0, all_three=0.0, all_other_lists=0.0),
    },
    # Wrong: the chain rule stopped at y in Ex1 (dz/dy = 2y), the partial with respect to the other source in Ex2.
    "chain_stopped_at_y": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    return tape.gradient(y, x), tape.gradient(z, y)
''',
            "03_persistent_tapes_seed": '''def seed_gradients(x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = x * x + y
        m = y + y * y + x
    return tape.gradient(z, x), tape.gradient(m, x)
''',
        },
        "scores": scores(two_example=0.0, two_grid=0.0, seed_values=0.0),
    },
    # Wrong: the two results swapped (Ex1) and the table transposed (Ex4). The seed's table is symmetric,
    # so the transpose passes table_seed and fails only on the three-by-three table.
    "swapped_and_transposed": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
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
        "scores": scores(two_example=0.0, two_grid=0.0, table_other=0.0),
    },
    # Wrong: one gradient call with the list of all targets (their sum) in Ex3 and Ex4.
    "list_of_targets": {
        "answers": {
            "03_persistent_tapes_all": '''def derivatives_of_all(fs, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        values = [f(x) for f in fs]
    return tape.gradient(values, x)
''',
            "03_persistent_tapes_table": '''def gradient_table(f, sources):
    sources = [tf.convert_to_tensor(s) for s in sources]
    with tf.GradientTape() as tape:
        tape.watch(sources)
        targets = f(*sources)
    return tape.gradient(targets, sources)
''',
        },
        "scores": scores(all_three=0.0, all_other_lists=0.0, table_seed=0.0, table_other=0.0),
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
        "scores": scores(table_other=0.0),
    },
    # Wrong: the closed forms of the visible functions whatever fs is (Ex3). Ex1's fixed formula cannot be
    # told from a tape's answer, so the same trick there keeps its points.
    "hard_coded_closed_forms": {
        "answers": {
            "03_persistent_tapes_two": '''def two_derivatives(x):
    x = np.asarray(x, dtype=np.float64)
    return 2 * x, 4 * x ** 3
''',
            "03_persistent_tapes_all": '''def derivatives_of_all(fs, x):
    x = np.asarray(x, dtype=np.float64)
    return [np.cos(x), 3 * x ** 2, np.exp(x)]
''',
        },
        "scores": scores(all_other_lists=0.0),
    },
}
