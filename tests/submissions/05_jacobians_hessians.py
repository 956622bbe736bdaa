"""Synthetic submissions of 05_jacobians_hessians for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: softmax_example 1, softmax_random 2, batch_tanh 2, batch_other 1,
hessian_quadratic 2, hessian_other 2, hvp_quadratic 1, hvp_other 2, newton_quadratic 2,
newton_rosenbrock 1 (16 in all).
"""

from . import scores_for

P = "05_jacobians_hessians_"


scores = scores_for("05_jacobians_hessians")


SUBMISSIONS = {
    # Correct, written another way: persistent tapes, one gradient call per row, full Jacobians cut into
    # blocks, output_gradients for H v, NumPy results and np.linalg.solve.
    "persistent_tapes_numpy": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    z = tf.convert_to_tensor(z)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(z)
        s = tf.nn.softmax(z)
        rows = [s[i] for i in range(z.shape[0])]  # sliced inside the block, so recorded
    J = np.stack([tape.gradient(row, z).numpy() for row in rows])
    del tape
    return J
''',
            P + "batch": '''def per_example_jacobians(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    full = tape.jacobian(y, x).numpy()  # (B, m, B, d)
    del tape
    return np.stack([full[b, :, b, :] for b in range(full.shape[0])])
''',
            P + "hessian": '''def hessian(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        g = tape.gradient(y, x)  # inside the block of a persistent tape: recorded
    H = tape.jacobian(g, x).numpy()
    del tape
    return H
''',
            P + "hvp": '''def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.gradient(g, x, output_gradients=tf.convert_to_tensor(v, dtype=x.dtype)).numpy()
''',
            P + "newton": '''def newton_step(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x).numpy()
    return x.numpy() - np.linalg.solve(np.asarray(hessian(f, x)), g)
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: tf.Variable sources, one Jacobian per example in a loop,
    # forward-over-reverse H v with ForwardAccumulator, and an explicit inverse in the Newton step.
    "variables_forward_mode": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    z = tf.Variable(z)
    with tf.GradientTape() as tape:
        s = tf.nn.softmax(z)
    return tape.jacobian(s, z)
''',
            P + "batch": '''def per_example_jacobians(f, x):
    x = tf.Variable(x)
    with tf.GradientTape(persistent=True) as tape:
        y = f(x)
        rows = [y[b] for b in range(y.shape[0])]
    jacobians = [tape.jacobian(row, x)[:, b, :] for b, row in enumerate(rows)]
    del tape
    return tf.stack(jacobians)
''',
            P + "hessian": '''def hessian(f, x):
    x = tf.Variable(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x)
''',
            P + "hvp": '''def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.autodiff.ForwardAccumulator(x, v) as accumulator:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
    return accumulator.jvp(g)
''',
            P + "newton": '''def newton_step(f, x):
    x = tf.Variable(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = f(x)
        g = inner.gradient(y, x)
    H = outer.jacobian(g, x)
    return x - tf.linalg.matvec(tf.linalg.inv(H), g)
''',
        },
        "scores": scores(),
    },
    # Correct: everything computed in float32, even for float64 inputs (the checks use float32 tolerances).
    "cast_to_float32": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    z = tf.cast(z, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z)
    return tape.jacobian(s, z)
''',
            P + "batch": '''def per_example_jacobians(f, x):
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.batch_jacobian(y, x)
''',
            P + "hessian": '''def hessian(f, x):
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.jacobian(g, x)
''',
            P + "hvp": '''def hvp(f, x, v):
    x, v = tf.cast(x, tf.float32), tf.cast(v, tf.float32)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
        g_dot_v = tf.reduce_sum(g * v)
    return outer.gradient(g_dot_v, x)
''',
            P + "newton": '''def newton_step(f, x):
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    H = outer.jacobian(g, x)
    return x - tf.linalg.solve(H, g[:, None])[:, 0]
''',
        },
        "scores": scores(),
    },
    # Correct output, but H v taken from the whole Hessian, which the prompt asks to avoid; the tests cannot
    # tell (n = 1000 is still fast enough), so it gets full marks.
    "hvp_from_the_full_hessian": {
        "answers": {
            P + "hvp": '''def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    return tf.linalg.matvec(hessian(f, x), tf.convert_to_tensor(v, dtype=x.dtype))
''',
        },
        "scores": scores(),
    },
    # Wrong: the gradient of the sum where a Jacobian was asked (tape.gradient instead of tape.jacobian,
    # outer.gradient instead of outer.jacobian), and H·1 for H v (v forgotten). The Newton step is right.
    "gradient_of_the_sum": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    z = tf.convert_to_tensor(z)
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z)
    return tape.gradient(s, z)
''',
            P + "batch": '''def per_example_jacobians(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
            P + "hessian": '''def hessian(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.gradient(g, x)
''',
            P + "hvp": '''def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    return outer.gradient(g, x)
''',
        },
        "scores": scores(softmax_example=0, softmax_random=0, batch_tanh=0, batch_other=0, hessian_quadratic=0,
                         hessian_other=0, hvp_quadratic=0, hvp_other=0),
    },
    # Wrong: "for an elementwise function the Jacobian is diagonal": diag of the gradient of the sum (all zeros
    # for softmax) in Ex1 and Ex2. Right shape, so the mistakes= message names it.
    "diagonal_of_the_gradient": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    z = tf.convert_to_tensor(z)
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z)
    return tf.linalg.diag(tape.gradient(s, z))
''',
            P + "batch": '''def per_example_jacobians(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tf.linalg.diag(tape.gradient(y, x))
''',
        },
        # x ** 2 (elementwise, d = m) is the one case where the diagonal is right, but it shares its cell with softmax
        "scores": scores(softmax_example=0, softmax_random=0, batch_tanh=0, batch_other=0),
    },
    # Wrong: the full Jacobian (B, m, B, d) where one Jacobian per example (B, m, d) was asked.
    "full_jacobian_for_the_batch": {
        "answers": {
            P + "batch": '''def per_example_jacobians(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.jacobian(y, x)
''',
        },
        "scores": scores(batch_tanh=0, batch_other=0),
    },
    # Wrong: each example's Jacobian transposed, (d, m) instead of (m, d). Caught by the shape where d != m and
    # by mistakes= in the hidden d = m case; the symmetric Jacobians of Ex2's second cell do not notice.
    "transposed_per_example": {
        "answers": {
            P + "batch": '''def per_example_jacobians(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tf.transpose(tape.batch_jacobian(y, x), [0, 2, 1])
''',
        },
        "scores": scores(batch_tanh=0),
    },
    # Wrong: the inner gradient computed after the outer tape's block: None for the Hessian, H v and H.
    "inner_gradient_outside_the_outer_tape": {
        "answers": {
            P + "hessian": '''def hessian(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
    g = inner.gradient(y, x)
    return outer.jacobian(g, x)
''',
            P + "hvp": '''def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
    g = inner.gradient(y, x)
    return outer.gradient(tf.reduce_sum(g * v), x)
''',
            P + "newton": '''def newton_step(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
    g = inner.gradient(y, x)
    H = outer.jacobian(g, x)
    return x - tf.linalg.solve(H, g[:, None])[:, 0]
''',
        },
        "scores": scores(hessian_quadratic=0, hessian_other=0, hvp_quadratic=0, hvp_other=0, newton_quadratic=0,
                         newton_rosenbrock=0),
    },
    # Wrong: first derivatives where second ones were asked: the gradient for the Hessian and for H v,
    # and a gradient step x − ∇f for the Newton step.
    "first_derivatives": {
        "answers": {
            P + "hessian": '''def hessian(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
            P + "hvp": '''def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
            P + "newton": '''def newton_step(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return x - tape.gradient(y, x)
''',
        },
        "scores": scores(hessian_quadratic=0, hessian_other=0, hvp_quadratic=0, hvp_other=0, newton_quadratic=0,
                         newton_rosenbrock=0),
    },
    # Wrong: the Newton step with the wrong sign, x + H⁻¹∇f (it uses the student's correct hessian).
    "newton_wrong_sign": {
        "answers": {
            P + "newton": '''def newton_step(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    return x + tf.linalg.solve(hessian(f, x), g[:, None])[:, 0]
''',
        },
        # from (1, 1) on Rosenbrock the gradient is zero and both signs agree, but that point is hidden with others
        "scores": scores(newton_quadratic=0, newton_rosenbrock=0),
    },
}
