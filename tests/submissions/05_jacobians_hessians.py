"""Synthetic submissions of 05_jacobians_hessians for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: softmax_example 1, softmax_random 2, batch_tanh 2, batch_other 1,
hessian_quadratic 2, hessian_other 2, hvp_quadratic 1, hvp_other 2, hvp_large 1, top_eigenvalue_matrix 2,
top_eigenvalue_large 1, newton_quadratic 1, newton_rosenbrock 2 (20 in all).
Exercise 5 (top_hessian_eigenvalue) calls the student's hvp, so a wrong hvp costs its points too.
"""

from . import scores_for

P = "05_jacobians_hessians_"


scores = scores_for("05_jacobians_hessians")

# Finite differences in float64, for the shortcuts that need the numbers without the tape.
DIFFERENCES = """

def value(f, p):
    return float(f(tf.constant(p)))


def hessian_by_differences(f, p, h=1e-4):
    # H of f at p (float64) by four-point central differences of f.
    n, E = p.size, np.eye(p.size) * h
    return np.array([[(value(f, p + E[i] + E[j]) - value(f, p + E[i] - E[j]) - value(f, p - E[i] + E[j])
                       + value(f, p - E[i] - E[j])) / (4 * h * h) for j in range(n)] for i in range(n)])


def gradient_by_differences(f, p, h=1e-4):
    # ∇f at p (float64) by five-point central differences of f (exact for polynomials up to degree 4).
    rows = []
    for e in np.eye(p.size) * h:
        rows.append((-value(f, p + 2 * e) + 8 * value(f, p + e) - 8 * value(f, p - e) + value(f, p - 2 * e)) / (12 * h))
    return np.array(rows)
"""
NO_HVP = dict(hvp_quadratic=0, hvp_other=0, hvp_large=0, top_eigenvalue_matrix=0, top_eigenvalue_large=0)


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
            P + "newton": '''def newton_path(f, x, tol=1e-8, max_steps=50):
    x = np.asarray(x)
    points = [x]
    for _ in range(max_steps):
        t = tf.convert_to_tensor(points[-1])
        with tf.GradientTape() as tape:
            tape.watch(t)
            y = f(t)
        g = tape.gradient(y, t).numpy()
        delta = np.linalg.solve(np.asarray(hessian(f, t)), g)
        points.append(points[-1] - delta)
        if np.linalg.norm(delta) < tol:
            break
    return points  # a list of arrays, not stacked: the checks read it all the same
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
            P + "newton": '''def newton_path(f, x, tol=1e-8, max_steps=50):
    x = tf.Variable(x)
    path = [x.numpy()]
    steps = 0
    while steps < max_steps:
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = f(x)
            g = inner.gradient(y, x)
        H = outer.jacobian(g, x)
        delta = tf.linalg.matvec(tf.linalg.inv(H), g)
        x.assign_sub(delta)
        path.append(x.numpy())
        steps += 1
        if float(tf.norm(delta)) < tol:
            break
    return tf.constant(np.array(path))
''',
        },
        "scores": scores(),
    },
    # Correct: everything computed in float32, even for float64 inputs (the checks use float32 tolerances).
    # newton_path keeps the source's solution: in float32 a step rarely gets shorter than tol = 1e-8.
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
        },
        "scores": scores(),
    },
    # Cheat: H v from the whole Hessian, which the prompt asks to avoid. Right numbers, but the tape counts see
    # tape.jacobian and stop it before n = 100 000; power iteration built on this hvp fails the same way.
    "hvp_from_the_full_hessian": {
        "answers": {
            P + "hvp": '''def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    return tf.linalg.matvec(hessian(f, x), tf.convert_to_tensor(v, dtype=x.dtype))
''',
        },
        "scores": scores(**NO_HVP),
    },
    # Cheat: the Hessian one row at a time (n gradient calls of a persistent tape), then H v: no tape.jacobian,
    # but more backward passes than an HVP needs.
    "hvp_from_hessian_rows": {
        "answers": {
            P + "hvp": '''def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
        rows = [g[i] for i in range(x.shape[0])]
    H = tf.stack([outer.gradient(row, x) for row in rows])
    return tf.linalg.matvec(H, tf.convert_to_tensor(v, dtype=x.dtype))
''',
        },
        "scores": scores(**NO_HVP),
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
                         hessian_other=0, **NO_HVP),
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
            P + "newton": '''def newton_path(f, x, tol=1e-8, max_steps=50):
    points = [tf.convert_to_tensor(x)]
    for _ in range(max_steps):
        x = points[-1]
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
        g = inner.gradient(y, x)
        H = outer.jacobian(g, x)
        delta = tf.linalg.solve(H, g[:, None])[:, 0]
        points.append(x - delta)
        if tf.norm(delta) < tol:
            break
    return tf.stack(points)
''',
        },
        "scores": scores(hessian_quadratic=0, hessian_other=0, **NO_HVP, newton_quadratic=0, newton_rosenbrock=0),
    },
    # Wrong: first derivatives where second ones were asked: the gradient for the Hessian and for H v,
    # and gradient steps x − ∇f for Newton's (the first one is named; on Rosenbrock they overflow).
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
            P + "newton": '''def newton_path(f, x, tol=1e-8, max_steps=50):
    points = [tf.convert_to_tensor(x)]
    for _ in range(max_steps):
        x = points[-1]
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
        points.append(x - g)
        if tf.norm(g) < tol:
            break
    return tf.stack(points)
''',
        },
        "scores": scores(hessian_quadratic=0, hessian_other=0, **NO_HVP, newton_quadratic=0, newton_rosenbrock=0),
    },
    # Wrong: Newton steps with the wrong sign, x + H⁻¹∇f (it uses the student's correct hessian); the first one is named.
    "newton_wrong_sign": {
        "answers": {
            P + "newton": '''def newton_path(f, x, tol=1e-8, max_steps=50):
    points = [tf.convert_to_tensor(x)]
    for _ in range(max_steps):
        x = points[-1]
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        g = tape.gradient(y, x)
        delta = tf.linalg.solve(hessian(f, x), g[:, None])[:, 0]
        points.append(x + delta)
        if tf.norm(delta) < tol:
            break
    return tf.stack(points)
''',
        },
        "scores": scores(newton_quadratic=0, newton_rosenbrock=0),
    },
    # Cheat: every solution returns an answer key's result. The keys refuse to run from a student's function
    # (CheckFailed where the key is already defined, NameError where it is defined in a later cell): 0 everywhere.
    "calls_answer_keys": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    return expected_softmax_jacobian(z)
''',
            P + "batch": '''def per_example_jacobians(f, x):
    return expected_square_jacobians(x)
''',
            P + "hessian": '''def hessian(f, x):
    return expected_rosenbrock_hessian(x)
''',
            P + "hvp": '''def hvp(f, x, v):
    return expected_rosenbrock_hvp(x, v)
''',
            P + "top_eigenvalue": '''def top_hessian_eigenvalue(f, x, iterations=50):
    return expected_quartic_top_eigenvalue(x)
''',
            P + "newton": '''def newton_path(f, x, tol=1e-8, max_steps=50):
    return np.stack([np.asarray(x, dtype=np.float64), expected_rosenbrock_minimizer(len(x))])
''',
        },
        "scores": {grade_id: 0.0 for grade_id in scores()},
    },
    # Correct, with debug output: print(..., file=sys.stderr) and logging.warning inside every solution.
    "stderr_and_logging": {
        "answers": {
            P + "softmax": '''import logging
import sys

def softmax_jacobian(z):
    z = tf.convert_to_tensor(z)
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z)
    print("debug: s =", s.numpy(), file=sys.stderr)
    logging.warning("softmax_jacobian called with %d scores", z.shape[0])
    return tape.jacobian(s, z)
''',
            P + "hvp": '''import logging
import sys

def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
        g_dot_v = tf.reduce_sum(g * v)
    print("debug: n =", x.shape[0], file=sys.stderr)
    logging.warning("hvp at n = %d", x.shape[0])
    return outer.gradient(g_dot_v, x)
''',
            P + "newton": '''import logging
import sys

def newton_path(f, x, tol=1e-8, max_steps=50):
    points = [tf.convert_to_tensor(x)]
    for step in range(max_steps):
        x = points[-1]
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        delta = tf.linalg.solve(outer.jacobian(g, x), g[:, None])[:, 0]
        points.append(x - delta)
        print(f"step {step + 1}: |delta| = {float(tf.norm(delta)):.3g}", file=sys.stderr)
        logging.warning("f = %s", float(y))
        if tf.norm(delta) < tol:
            break
    return tf.stack(points)
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: power iteration from a random unit vector, stopped early once the Rayleigh
    # quotient settles, with NumPy arrays in between.
    "power_iteration_random_start": {
        "answers": {
            P + "top_eigenvalue": '''def top_hessian_eigenvalue(f, x, iterations=50):
    x = np.asarray(x)
    v = np.random.default_rng(0).normal(size=x.shape).astype(x.dtype)
    v /= np.linalg.norm(v)
    value = None
    for _ in range(iterations):
        w = np.asarray(hvp(f, x, v))
        new_value = float(v @ w)
        v = w / np.linalg.norm(w)
        if value is not None and abs(new_value - value) <= 1e-12 * abs(new_value):
            break
        value = new_value
    return float(v @ np.asarray(hvp(f, x, v)))
''',
        },
        "scores": scores(),
    },
    # Cheat: the closed form diag(s) − ssᵀ typed in, no tape: right numbers, but no tape was asked.
    "softmax_closed_form": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    s = tf.nn.softmax(tf.convert_to_tensor(z))
    return tf.linalg.diag(s) - s[:, None] * s[None, :]
''',
        },
        "scores": scores(softmax_example=0, softmax_random=0),
    },
    # Wrong: softmax written by hand as exp(z) / sum(exp(z)): right for small scores, NaN where exp overflows.
    "softmax_by_hand": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    z = tf.convert_to_tensor(z)
    with tf.GradientTape() as tape:
        tape.watch(z)
        e = tf.exp(z)
        s = e / tf.reduce_sum(e)
    return tape.jacobian(s, z)
''',
        },
        "scores": scores(softmax_random=0),
    },
    # Wrong: z not watched (a constant): the Jacobian is None.
    "softmax_missing_watch": {
        "answers": {
            P + "softmax": '''def softmax_jacobian(z):
    z = tf.convert_to_tensor(z)
    with tf.GradientTape() as tape:
        s = tf.nn.softmax(z)
    return tape.jacobian(s, z)
''',
        },
        "scores": scores(softmax_example=0, softmax_random=0),
    },
    # Cheat: the top eigenvalue from the whole Hessian (np.linalg.eigvalsh): stopped by the tape counts before n = 100 000.
    "eigenvalue_from_the_full_hessian": {
        "answers": {
            P + "top_eigenvalue": '''def top_hessian_eigenvalue(f, x, iterations=50):
    eigenvalues = np.linalg.eigvalsh(np.asarray(hessian(f, x), dtype=np.float64))
    return eigenvalues[np.argmax(np.abs(eigenvalues))]
''',
        },
        "scores": scores(top_eigenvalue_matrix=0, top_eigenvalue_large=0),
    },
    # Wrong: ‖H v‖ returned instead of the Rayleigh quotient: right for positive top eigenvalues, but the sign of a
    # negative one is lost (hidden tests in both cells).
    "eigenvalue_without_its_sign": {
        "answers": {
            P + "top_eigenvalue": '''def top_hessian_eigenvalue(f, x, iterations=50):
    x = tf.convert_to_tensor(x)
    v = tf.ones_like(x) / tf.sqrt(tf.cast(tf.size(x), x.dtype))
    for _ in range(iterations):
        w = tf.cast(hvp(f, x, v), x.dtype)
        v = w / tf.norm(w)
    return tf.norm(hvp(f, x, v))
''',
        },
        "scores": scores(top_eigenvalue_matrix=0, top_eigenvalue_large=0),
    },
    # Wrong: a single Newton step, no loop. Its one point is right on a quadratic (one step is exact there), but the
    # second, (nearly) zero step that the prompt asks for is missing; wrong on Rosenbrock.
    "newton_single_step": {
        "answers": {
            P + "newton": '''def newton_path(f, x, tol=1e-8, max_steps=50):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    return tf.stack([x, x - tf.linalg.solve(hessian(f, x), g[:, None])[:, 0]])
''',
        },
        "scores": scores(newton_quadratic=0, newton_rosenbrock=0),
    },
    # Wrong: the loop never stops (no test against tol): max_steps steps every time.
    "newton_never_stops": {
        "answers": {
            P + "newton": '''def newton_path(f, x, tol=1e-8, max_steps=50):
    @tf.function
    def step(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
        return tf.linalg.solve(outer.jacobian(g, x), g[:, None])[:, 0]

    points = [tf.convert_to_tensor(x)]
    for _ in range(max_steps):
        points.append(points[-1] - step(points[-1]))
    return tf.stack(points)
''',
        },
        "scores": scores(newton_quadratic=0, newton_rosenbrock=0),
    },
    # Shortcut: every tape is asked as the counts demand, its result dropped; the answer is a closed form (softmax)
    # or central finite differences of f in float64.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "softmax": """def softmax_jacobian(z):
    z = tf.convert_to_tensor(z)
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z)
    tape.jacobian(s, z)  # asked, then dropped
    s = np.exp(z.numpy() - np.max(z.numpy()))
    s = (s / np.sum(s)).astype(np.float64)
    return np.diag(s) - np.outer(s, s)
""",
            P + "batch": """def per_example_jacobians(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    tape.batch_jacobian(y, x)  # asked, then dropped
    x64, h = x.numpy().astype(np.float64), 1e-5
    columns = [(f(tf.constant(x64 + e)).numpy() - f(tf.constant(x64 - e)).numpy()) / (2 * h)
               for e in np.eye(x64.shape[1]) * h]  # each row moves alone: column j for every example at once
    return np.stack(columns, axis=2)
""",
            P + "hessian": """def hessian(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    outer.jacobian(g, x)  # asked, then dropped
    return hessian_by_differences(f, x.numpy().astype(np.float64))
""" + DIFFERENCES,
            P + "hvp": """def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
        g_dot_v = tf.reduce_sum(g * v)
    outer.gradient(g_dot_v, x)  # asked, then dropped
    return hvp_by_differences(f, x.numpy().astype(np.float64), v.numpy().astype(np.float64))


def hvp_by_differences(f, p, v, h=1e-4):
    # H v at p (float64) by four-point central differences of f, one entry at a time.
    F = lambda q: float(f(tf.constant(q)))
    return np.array([(F(p + e + h * v) - F(p + e - h * v) - F(p - e + h * v) + F(p - e - h * v)) / (4 * h * h)
                     for e in np.eye(p.size) * h])
""",
            P + "top_eigenvalue": """def top_hessian_eigenvalue(f, x, iterations=50):
    x = tf.convert_to_tensor(x)
    v = tf.ones_like(x) / tf.sqrt(tf.cast(tf.size(x), x.dtype))
    for _ in range(iterations):
        w = tf.cast(hvp(f, x, v), x.dtype)
        v = w / tf.norm(w)
    hvp(f, x, v)  # the last product, asked and dropped
    x64, v64, h = x.numpy().astype(np.float64), v.numpy().astype(np.float64), 1e-4
    plus, mid, minus = (float(f(tf.constant(x64 + t * h * v64))) for t in (1, 0, -1))
    return (plus - 2 * mid + minus) / (h * h)  # vᵀHv, the second derivative of f along v
""",
            P + "newton": """def newton_path(f, x, tol=1e-8, max_steps=50):
    points = [np.asarray(x, dtype=np.float64)]
    for _ in range(max_steps):
        t = tf.convert_to_tensor(np.asarray(points[-1], dtype=np.asarray(x).dtype))
        with tf.GradientTape() as outer:
            outer.watch(t)
            with tf.GradientTape() as inner:
                inner.watch(t)
                y = f(t)
            g = inner.gradient(y, t)
        outer.jacobian(g, t)  # asked, then dropped
        p = points[-1]
        delta = np.linalg.solve(hessian_by_differences(f, p), gradient_by_differences(f, p))
        points.append(p - delta)
        if np.linalg.norm(delta) < tol:
            break
    return np.stack(points)
""" + DIFFERENCES,
        },
        "scores": {grade_id: 0.0 for grade_id in scores()},
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: the tapes' results for another function (0 · the right one) plus the closed form or finite differences.
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "softmax": """def softmax_jacobian(z):
    z = tf.convert_to_tensor(z)
    with tf.GradientTape() as tape:
        tape.watch(z)
        s = tf.nn.softmax(z)
        zero = 0 * s
    return tape.jacobian(zero, z) + (tf.linalg.diag(s) - s[:, None] * s[None, :])
""",
            P + "batch": """def per_example_jacobians(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        zero = 0 * f(x)
    x64, h = x.numpy().astype(np.float64), 1e-5
    columns = [(f(tf.constant(x64 + e)).numpy() - f(tf.constant(x64 - e)).numpy()) / (2 * h)
               for e in np.eye(x64.shape[1]) * h]
    return tape.batch_jacobian(zero, x) + tf.constant(np.stack(columns, axis=2), dtype=x.dtype)
""",
            P + "hessian": """def hessian(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            zero = 0 * f(x)
        g = inner.gradient(zero, x)
    H = outer.jacobian(g, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return H + tf.constant(hessian_by_differences(f, x.numpy().astype(np.float64)), dtype=x.dtype)
""" + DIFFERENCES,
            P + "hvp": """def hvp(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v, dtype=x.dtype)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            zero = 0 * f(x)
        g = inner.gradient(zero, x)
        g_dot_v = tf.reduce_sum(g * v)
    Hv = hvp_by_differences(f, x.numpy().astype(np.float64), v.numpy().astype(np.float64))
    return outer.gradient(g_dot_v, x, unconnected_gradients=tf.UnconnectedGradients.ZERO) + tf.constant(Hv, dtype=x.dtype)


def hvp_by_differences(f, p, v, h=1e-4):
    # H v at p (float64) by four-point central differences of f, one entry at a time.
    F = lambda q: float(f(tf.constant(q)))
    return np.array([(F(p + e + h * v) - F(p + e - h * v) - F(p - e + h * v) + F(p - e - h * v)) / (4 * h * h)
                     for e in np.eye(p.size) * h])
""",
            P + "top_eigenvalue": """def top_hessian_eigenvalue(f, x, iterations=50):
    x = tf.convert_to_tensor(x)
    v = tf.ones_like(x) / tf.sqrt(tf.cast(tf.size(x), x.dtype))
    for _ in range(iterations):
        w = tf.cast(hvp(f, x, v), x.dtype)
        v = w / tf.norm(w)
    x64, v64, h = x.numpy().astype(np.float64), v.numpy().astype(np.float64), 1e-4
    plus, mid, minus = (float(f(tf.constant(x64 + t * h * v64))) for t in (1, 0, -1))
    return float(tf.reduce_sum(0 * v * tf.cast(hvp(f, x, v), x.dtype))) + (plus - 2 * mid + minus) / (h * h)
""",
            P + "newton": """def newton_path(f, x, tol=1e-8, max_steps=50):
    points = [np.asarray(x, dtype=np.float64)]
    for _ in range(max_steps):
        p = points[-1]
        t = tf.constant(p)
        with tf.GradientTape() as outer:
            outer.watch(t)
            with tf.GradientTape() as inner:
                inner.watch(t)
                zero = 0 * f(t)
            g = inner.gradient(zero, t)
        H = outer.jacobian(g, t, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() + hessian_by_differences(f, p)
        delta = np.linalg.solve(H, g.numpy() + gradient_by_differences(f, p))
        points.append(p - delta)
        if np.linalg.norm(delta) < tol:
            break
    return np.stack(points)
""" + DIFFERENCES,
        },
        "scores": {grade_id: 0.0 for grade_id in scores()},
    },
}
