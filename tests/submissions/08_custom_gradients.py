"""Synthetic submissions of 08_custom_gradients for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: numpy_values_and_gradient 1, numpy_composed 2, reversal_values 1, reversal_chain 1,
clipping_linear 1, clipping_chain 2, checker_found 3, fixed_point_values 2, fixed_point_generic 2, second_nested 2,
second_forward 1 (18 in all).
"""

from . import scores_for

P = "08_custom_gradients_"


scores = scores_for("08_custom_gradients")
# Exercise 5 (fixed_point) and Exercise 6 (with_two_derivatives) lost entirely
NO_FIXED_POINT = dict(fixed_point_values=0, fixed_point_generic=0)
NO_SECOND = dict(second_nested=0, second_forward=0)



def _two_derivatives(slope_grad="upstream * by_numpy(d2f, x)", g_grad="upstream * slope(x)"):
    """Ex 6 as the solution writes it, with the two grad_fns' return values given."""
    return f'''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(function, [x], x.dtype), tf.shape(x))

    @tf.custom_gradient
    def slope(x):
        def grad_fn(upstream):
            return {slope_grad}
        return by_numpy(df, x), grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return {g_grad}
        return by_numpy(f, x), grad_fn

    return g
'''

SUBMISSIONS = {
    # Correct, written another way: NumPy reshaping inside the NumPy functions, λ as a second argument of the
    # decorated function with None as its gradient, clipping written out with tf.norm, a checker that returns a
    # set and compares with np.allclose; the implicit gradient from one persistent tape on g at the answer and a
    # linear solve (1 - ∂g/∂x)·λ = upstream for the adjoint; the second derivative's custom gradient nested inside
    # the first one's, built per call, with set_shape.
    "other_correct_forms": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    def g(x):
        x = tf.convert_to_tensor(x)

        @tf.custom_gradient
        def inner(x):
            value = tf.numpy_function(lambda a: np.asarray(f(a), dtype=a.dtype).reshape(a.shape), [x], x.dtype)
            value.set_shape(x.shape)

            def grad_fn(dy):
                slope = tf.numpy_function(lambda a: np.asarray(df(a), dtype=a.dtype).reshape(a.shape), [x], x.dtype)
                slope.set_shape(x.shape)
                return dy * slope

            return value, grad_fn

        return inner(x)

    return g
''',
            P + "reversal": '''@tf.custom_gradient
def _reverse(x, lam):
    def grad_fn(dy):
        return tf.negative(lam) * dy, None          # no gradient for lam
    return tf.identity(x), grad_fn


def gradient_reversal(x, lam):
    x = tf.convert_to_tensor(x)
    return _reverse(x, tf.constant(lam, x.dtype))
''',
            P + "clipping": '''def clip_gradient(x, max_norm):
    @tf.custom_gradient
    def clip(x):
        def grad_fn(dy):
            norm = tf.norm(dy)
            scale = tf.minimum(tf.constant(1.0, dy.dtype), tf.cast(max_norm, dy.dtype) / norm)
            return dy * scale
        return x + 0, grad_fn
    return clip(tf.convert_to_tensor(x))
''',
            P + "checker": '''def find_wrong_gradients(candidates, x):
    wrong = set()
    for name in sorted(candidates):
        (theory,), (numbers,) = tf.test.compute_gradient(candidates[name], [x])
        if not np.allclose(theory, numbers, rtol=0.0, atol=1e-4):
            wrong.add(name)
    return wrong
''',
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    theta = tf.convert_to_tensor(theta)

    @tf.custom_gradient
    def solve(theta):
        x = tf.convert_to_tensor(x0, theta.dtype)
        for _ in range(steps):
            x = g(x, theta)
        x = tf.stop_gradient(x)

        def grad_fn(dy):
            with tf.GradientTape(persistent=True) as tape:
                tape.watch(x)
                tape.watch(theta)
                value = g(x, theta)
            dg_dx = tape.gradient(value, x)
            dg_dtheta = tape.gradient(value, theta)
            del tape
            # the adjoint: (1 - dg/dx) λ = dy, a diagonal linear system; then λ·dg/dθ
            n = tf.size(x)
            system = tf.linalg.diag(1.0 - tf.reshape(dg_dx, [n]))
            adjoint = tf.linalg.solve(system, tf.reshape(dy, [n, 1]))
            return tf.reshape(adjoint, tf.shape(x)) * dg_dtheta

        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def numpy_op(function, x):
        y = tf.numpy_function(lambda a: np.asarray(function(a), dtype=a.dtype).reshape(a.shape), [x], x.dtype)
        y.set_shape(x.shape)
        return y

    def g(x):
        x = tf.convert_to_tensor(x)

        @tf.custom_gradient
        def first(x):
            @tf.custom_gradient
            def derivative(z):
                return numpy_op(df, z), lambda dz: dz * numpy_op(d2f, z)

            return numpy_op(f, x), lambda dy: dy * derivative(x)

        return first(x)

    return g
''',
        },
        "scores": scores(),
    },
    # Correct, written without @tf.custom_gradient where a stop_gradient trick gives the same first derivative,
    # and a checker that builds both Jacobians itself (tape rows with one-hot output_gradients, central differences).
    # Ex 5: the answer plus (g(x, θ) - its value)/(1 - ∂g/∂x) with everything but θ stopped, so the tape's gradient
    # through the one recorded g is the implicit one. Ex 6: the Taylor polynomial f + df·d + d2f·d²/2 in
    # d = x - stop_gradient(x), which is 0: the value f, the first derivative df, the second d2f.
    "stop_gradient_and_own_jacobians": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    def g(x):
        x = tf.convert_to_tensor(x)
        value = tf.reshape(tf.numpy_function(f, [x], x.dtype), tf.shape(x))
        slope = tf.reshape(tf.numpy_function(df, [x], x.dtype), tf.shape(x))
        # value f(x), gradient slope: the linear term carries the gradient, stop_gradient removes its value
        return tf.stop_gradient(value) + slope * x - tf.stop_gradient(slope * x)
    return g
''',
            P + "reversal": '''def gradient_reversal(x, lam):
    x = tf.convert_to_tensor(x)
    return -lam * x + tf.stop_gradient((1.0 + lam) * x)
''',
            P + "checker": '''def find_wrong_gradients(candidates, x):
    x = tf.convert_to_tensor(x)
    n, h = int(x.shape[0]), 1e-6
    wrong = []
    for name, function in candidates.items():
        y = function(x)
        m = int(tf.size(y))
        theory = np.zeros((m, n))
        for j in range(m):
            with tf.GradientTape() as tape:
                tape.watch(x)
                out = tf.reshape(function(x), [-1])
            theory[j] = tape.gradient(out, x, output_gradients=tf.one_hot(j, m, dtype=x.dtype)).numpy()
        numbers = np.zeros((m, n))
        for i in range(n):
            step = tf.one_hot(i, n, dtype=x.dtype) * h
            numbers[:, i] = (tf.reshape(function(x + step), [-1]) - tf.reshape(function(x - step), [-1])).numpy() / (2 * h)
        if np.max(np.abs(theory - numbers)) > 1e-4:
            wrong.append(name)
    return wrong
''',
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    theta = tf.convert_to_tensor(theta)
    x = tf.convert_to_tensor(x0, theta.dtype)
    for _ in range(steps):
        x = g(x, tf.stop_gradient(theta))          # the iterations are not recorded
    x = tf.stop_gradient(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        dg_dx = tape.gradient(g(x, tf.stop_gradient(theta)), x)
    # value x; gradient (dg/dθ)/(1 - dg/dx): the g term carries it, and stop_gradient takes away its value
    step = g(x, theta)
    return x + (step - tf.stop_gradient(step)) / tf.stop_gradient(1.0 - dg_dx)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def g(x):
        x = tf.convert_to_tensor(x)
        value, slope, curvature = (tf.reshape(tf.numpy_function(h, [x], x.dtype), tf.shape(x)) for h in (f, df, d2f))
        d = x - tf.stop_gradient(x)                # 0, with derivative 1
        # the Taylor polynomial at x: value f, first derivative df + d2f·d = df, second derivative d2f
        return tf.stop_gradient(value) + tf.stop_gradient(slope) * d + 0.5 * tf.stop_gradient(curvature) * d * d
    return g
''',
        },
        "scores": scores(),
    },
    # Wrong: every grad_fn forgets to multiply by upstream (f'(x) alone, -λ alone, the clip of ones, the implicit
    # derivative (∂g/∂θ)/(1 - ∂g/∂x) alone, and d2f(x) alone in the slope's grad_fn, whose first derivative is
    # right), and the checker only compares the tape's gradient of the sum with the diagonal of the numerical
    # Jacobian, which cannot see a forgotten upstream. A forward accumulator differentiates the slope's grad_fn
    # with respect to its upstream, so there the forgotten upstream is a None.
    "forgets_upstream": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    @tf.custom_gradient
    def g(x):
        y = tf.numpy_function(f, [x], x.dtype)
        def grad_fn(upstream):
            return tf.numpy_function(df, [x], x.dtype)
        return y, grad_fn
    return g
''',
            P + "reversal": '''def gradient_reversal(x, lam):
    @tf.custom_gradient
    def reverse(x):
        def grad_fn(upstream):
            return -lam * tf.ones_like(upstream)
        return tf.identity(x), grad_fn
    return reverse(x)
''',
            P + "checker": '''def find_wrong_gradients(candidates, x):
    wrong = []
    for name, function in candidates.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = function(x)
        slope = tape.gradient(y, x).numpy()
        _, (numbers,) = tf.test.compute_gradient(function, [x])
        if np.max(np.abs(slope - np.diag(numbers))) > 1e-4:
            wrong.append(name)
    return wrong
''',
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    @tf.custom_gradient
    def solve(theta):
        x = x0
        for _ in range(steps):
            x = g(x, theta)

        def grad_fn(upstream):
            with tf.GradientTape() as tape:
                tape.watch([x, theta])
                value = g(x, theta)
            dg_dx, dg_dtheta = tape.gradient(value, [x, theta])
            return dg_dtheta / (1 - dg_dx)                     # upstream forgotten

        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(function, [x], x.dtype), tf.shape(x))

    @tf.custom_gradient
    def slope(x):
        def grad_fn(upstream):
            return by_numpy(d2f, x)                            # upstream forgotten
        return by_numpy(df, x), grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * slope(x)
        return by_numpy(f, x), grad_fn

    return g
''',
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, reversal_values=0, reversal_chain=0,
                         checker_found=0, **NO_FIXED_POINT, **NO_SECOND),
        "feedback": ["grad_fn must multiply df(x) by the upstream gradient", "ignores upstream",
                     "grad_fn must multiply by upstream (here w)",
                     "the slope's grad_fn must multiply d2f(x) by its upstream (here v·w)"],
    },
    # Wrong: tf.numpy_function without a custom gradient (None), a gradient that is not reversed (+λ),
    # and clipping entry by entry with tf.clip_by_value; the implicit function theorem with the wrong sign,
    # (∂g/∂θ)/(1 + ∂g/∂x); and a grad_fn whose slope comes from tf.numpy_function with no custom gradient of its
    # own (section 11): the first derivative is right, the second is None for both the outer tape and the accumulator.
    "no_custom_gradient_sign_value_clip": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    def g(x):
        return tf.numpy_function(f, [x], x.dtype)
    return g
''',
            P + "reversal": '''def gradient_reversal(x, lam):
    @tf.custom_gradient
    def reverse(x):
        def grad_fn(upstream):
            return lam * upstream
        return tf.identity(x), grad_fn
    return reverse(x)
''',
            P + "clipping": '''def clip_gradient(x, max_norm):
    @tf.custom_gradient
    def clip(x):
        def grad_fn(upstream):
            return tf.clip_by_value(upstream, -max_norm, max_norm)
        return tf.identity(x), grad_fn
    return clip(x)
''',
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    @tf.custom_gradient
    def solve(theta):
        x = x0
        for _ in range(steps):
            x = g(x, theta)

        def grad_fn(upstream):
            with tf.GradientTape() as tape:
                tape.watch([x, theta])
                value = g(x, theta)
            dg_dx, dg_dtheta = tape.gradient(value, [x, theta])
            return upstream * dg_dtheta / (1 + dg_dx)          # the sign of dg/dx
        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * tf.numpy_function(df, [x], x.dtype)      # a slope by NumPy, without a gradient
        return tf.numpy_function(f, [x], x.dtype), grad_fn
    return g
''',
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, reversal_values=0, reversal_chain=0,
                         clipping_linear=0, clipping_chain=0, **NO_FIXED_POINT, **NO_SECOND),
        "feedback": ["TensorFlow cannot differentiate tf.numpy_function", "the gradient is not reversed",
                     "clipped entry by entry", "the implicit function theorem divides by 1 - ∂g/∂x",
                     "a slope computed by NumPy (tf.numpy_function) is a constant to it"],
    },
    # Wrong: a finite difference of f instead of df, the reversal in the forward pass, clipping the value instead
    # of the gradient, and a checker whose tolerance is far too tight; the solver's loop left to the tape (the
    # unrolled derivative: right after 60 iterations from afar, far off after 3 from the answer); and a finite
    # difference of df instead of d2f (in x's dtype: off in float32, and not made of the d2f the checks hand in).
    "finite_differences_and_forward_changes": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    @tf.custom_gradient
    def g(x):
        y = tf.numpy_function(f, [x], x.dtype)
        def grad_fn(upstream):
            h = 1e-3
            up = tf.numpy_function(f, [x + h], x.dtype)
            down = tf.numpy_function(f, [x - h], x.dtype)
            return upstream * (up - down) / (2 * h)
        return y, grad_fn
    return g
''',
            P + "reversal": '''def gradient_reversal(x, lam):
    return -lam * x
''',
            P + "clipping": '''def clip_gradient(x, max_norm):
    return tf.clip_by_norm(x, max_norm)
''',
            P + "checker": '''def find_wrong_gradients(candidates, x):
    wrong = []
    for name, function in candidates.items():
        theoretical, numerical = tf.test.compute_gradient(function, [x])
        if not np.array_equal(theoretical[0], numerical[0]):
            wrong.append(name)
    return wrong
''',
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    x = x0
    for _ in range(steps):
        x = g(x, theta)          # the tape differentiates every iteration
    return x
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(function, [x], x.dtype), tf.shape(x))

    @tf.custom_gradient
    def slope(x):
        def grad_fn(upstream):
            h = 1e-3
            return upstream * (by_numpy(df, x + h) - by_numpy(df, x - h)) / (2 * h)
        return by_numpy(df, x), grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * slope(x)
        return by_numpy(f, x), grad_fn

    return g
''',
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, reversal_values=0, reversal_chain=0,
                         clipping_linear=0, clipping_chain=0, checker_found=0, **NO_FIXED_POINT, **NO_SECOND),
        "feedback": ["a finite difference", "the reversal belongs to the backward pass only",
                     "the iterations must not be differentiated", "not made of the d2f you were given",
                     "the clipping belongs to the backward pass only", "was named, but its gradient is right"],
    },
    # Wrong: the visible check's answer hard-coded; the hidden checks build other candidates.
    "hard_coded_names": {
        "answers": {
            P + "checker": '''def find_wrong_gradients(candidates, x):
    return ["f1", "f3", "f4", "f5"]             # the visible check's answer, read off its failure message
''',
        },
        "scores": scores(checker_found=0),
        "feedback": ["is not one of the candidates"],
    },
    # Calls the answer keys from the solutions: refused there, so no points where it does.
    "calls_answer_keys": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * tf.numpy_function(df, [x], x.dtype)
        return tf.constant(expected_sin_product(x.numpy()), x.dtype), grad_fn
    return g
''',
            P + "clipping": '''def clip_gradient(x, max_norm):
    @tf.custom_gradient
    def clip(x):
        def grad_fn(upstream):
            return tf.constant(expected_clipped_upstream(upstream.numpy(), max_norm), upstream.dtype)
        return tf.identity(x), grad_fn
    return clip(x)
''',
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    @tf.custom_gradient
    def solve(theta):
        x = x0
        for _ in range(steps):
            x = g(x, theta)

        def grad_fn(upstream):                                  # Kepler's slope for the first check's e = 0.5
            return tf.constant(expected_weighted_kepler_slope(theta.numpy(), 0.5, upstream.numpy()), theta.dtype)

        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(function, [x], x.dtype), tf.shape(x))

    @tf.custom_gradient
    def slope(x):
        def grad_fn(upstream):
            return tf.constant(expected_weighted_sin_product_curvature(x.numpy(), upstream.numpy(), 1.0), x.dtype)
        return by_numpy(df, x), grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * slope(x)
        return by_numpy(f, x), grad_fn

    return g
''',
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, clipping_linear=0, clipping_chain=0,
                         **NO_FIXED_POINT, **NO_SECOND),
        "feedback": ["is an answer key of the checks, and your code called it"],
    },
    # Correct, with debug output to stderr, logging.warning and warnings.warn in every solution: the setup cell
    # shows them as ordinary output, so no cell loses its points.
    "debug_output_to_stderr": {
        "answers": {
            P + "numpy": '''import logging
import sys
import warnings

def with_gradient(f, df):
    @tf.custom_gradient
    def g(x):
        y = tf.numpy_function(f, [x], x.dtype)
        print("debug: forward", y.shape, file=sys.stderr)
        def grad_fn(upstream):
            logging.warning("with_gradient: backward pass")
            return upstream * tf.numpy_function(df, [x], x.dtype)
        return y, grad_fn
    warnings.warn("with_gradient built a function")
    return g
''',
            P + "reversal": '''import logging
import sys

def gradient_reversal(x, lam):
    @tf.custom_gradient
    def reverse(x):
        def grad_fn(upstream):
            print("debug: reversing", upstream.shape, file=sys.stderr)
            return -lam * upstream
        return tf.identity(x), grad_fn
    logging.warning("gradient_reversal with lam = %s", lam)
    return reverse(x)
''',
            P + "clipping": '''import logging
import sys

def clip_gradient(x, max_norm):
    @tf.custom_gradient
    def clip(x):
        def grad_fn(upstream):
            print("debug: norm before clipping", float(tf.norm(upstream)), file=sys.stderr)
            return tf.clip_by_norm(upstream, max_norm)
        return tf.identity(x), grad_fn
    logging.warning("clip_gradient to %s", max_norm)
    return clip(x)
''',
            P + "checker": '''import logging
import sys

def find_wrong_gradients(candidates, x):
    wrong = []
    for name, function in candidates.items():
        theoretical, numerical = tf.test.compute_gradient(function, [x])
        difference = np.max(np.abs(theoretical[0] - numerical[0]))
        print("debug:", name, difference, file=sys.stderr)
        if difference > 1e-4:
            wrong.append(name)
    logging.warning("checked %d candidates", len(candidates))
    return wrong
''',
            P + "fixed_point": '''import logging
import sys

def fixed_point(g, theta, x0, steps):
    @tf.custom_gradient
    def solve(theta):
        x = x0
        for _ in range(steps):
            x = g(x, theta)
        print("debug: fixed point after", steps, "iterations, shape", x.shape, file=sys.stderr)

        def grad_fn(upstream):
            with tf.GradientTape() as tape:
                tape.watch([x, theta])
                value = g(x, theta)
            dg_dx, dg_dtheta = tape.gradient(value, [x, theta])
            logging.warning("fixed_point: largest |dg/dx| at the answer %.3f", float(tf.reduce_max(tf.abs(dg_dx))))
            return upstream * dg_dtheta / (1 - dg_dx)

        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''import logging
import sys

def with_two_derivatives(f, df, d2f):
    @tf.custom_gradient
    def slope(x):
        def grad_fn(upstream):
            print("debug: second derivative, shape", x.shape, file=sys.stderr)
            return upstream * tf.numpy_function(d2f, [x], x.dtype)
        return tf.numpy_function(df, [x], x.dtype), grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            logging.warning("with_two_derivatives: first derivative")
            return upstream * slope(x)
        return tf.numpy_function(f, [x], x.dtype), grad_fn

    return g
''',
        },
        "scores": scores(),
    },

    # Shortcut: a closed form after a throwaway call. Ex 1: the slope is a central difference of f, from the same
    # single call of f that gives the value (f evaluated on x, x + h and x - h stacked), and df is called and
    # dropped: every count is met and every number right, but the checks' df that is not f's derivative shows
    # that the gradient is not made of df's numbers.
    # Ex 2, 3 and 4 keep the right solutions: there the tape is the checks' own, and the student's grad_fn receives
    # the tape's upstream and must transform it (-λ·upstream, clip_by_norm(upstream)); a formula written elsewhere
    # never sees the upstream, so it cannot stand in for the backward pass (the correct stop_gradient form of the
    # reversal is the same gradient, not a shortcut). Ex 4's answer is a verdict on a tape's Jacobian: replacing it
    # by a formula or a second difference quotient sees no wrong gradient at all, which the checks already fail.
    # Ex 5: the tape's partials of g at the answer asked and dropped, and central differences of g in float64 in
    # their place, from one call of g on stacked points (so g runs steps + 2 times, within the count): every value
    # is right, but the checks' g whose custom gradient is not its true derivative shows the partials are not the
    # tape's. Ex 6: the second derivative a central difference of df from one call of df, d2f called and dropped:
    # right, except for the checks' d2f that is not df's derivative.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    def value_and_slope(a):
        wide, h = a.astype(np.float64), 1e-5
        values = f(np.stack([wide, wide + h, wide - h]))          # one call of f
        return values[0].astype(a.dtype), ((values[1] - values[2]) / (2 * h)).astype(a.dtype)

    @tf.custom_gradient
    def g(x):
        value, slope = tf.numpy_function(value_and_slope, [x], [x.dtype, x.dtype])
        value, slope = tf.reshape(value, tf.shape(x)), tf.reshape(slope, tf.shape(x))

        def grad_fn(upstream):
            tf.numpy_function(df, [x], x.dtype)                   # asked, then dropped
            return upstream * slope

        return value, grad_fn

    return g
''',
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    @tf.custom_gradient
    def solve(theta):
        x = x0
        for _ in range(steps):
            x = g(x, theta)

        def grad_fn(upstream):
            with tf.GradientTape() as tape:
                tape.watch([x, theta])
                value = g(x, theta)
            tape.gradient(value, [x, theta])                      # asked, then dropped
            wide_x, wide_theta, h = tf.cast(x, tf.float64), tf.cast(theta, tf.float64), 1e-6
            values = g(tf.stack([wide_x + h, wide_x - h, wide_x, wide_x]),          # one call of g
                       tf.stack([wide_theta, wide_theta, wide_theta + h, wide_theta - h]))
            dg_dx = (values[0] - values[1]) / (2 * h)
            dg_dtheta = (values[2] - values[3]) / (2 * h)
            return upstream * tf.cast(dg_dtheta / (1 - dg_dx), upstream.dtype)

        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(function, [x], x.dtype), tf.shape(x))

    def slope_and_curvature(a):
        wide, h = a.astype(np.float64), 1e-5
        values = df(np.stack([wide, wide + h, wide - h]))       # one call of df
        return values[0].astype(a.dtype), ((values[1] - values[2]) / (2 * h)).astype(a.dtype)

    @tf.custom_gradient
    def slope(x):
        value, curvature = tf.numpy_function(slope_and_curvature, [x], [x.dtype, x.dtype])
        value, curvature = tf.reshape(value, tf.shape(x)), tf.reshape(curvature, tf.shape(x))

        def grad_fn(upstream):
            by_numpy(d2f, x)                                      # asked, then dropped
            return upstream * curvature

        return value, grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * slope(x)
        return by_numpy(f, x), grad_fn

    return g
''',
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, **NO_FIXED_POINT, **NO_SECOND),
        "feedback": ["it is not made of the df you were given",
                     "not made of the partial derivatives the tape gives for g", "not made of the d2f you were given"],
    },
    # Shortcut: df's slope times 0 plus the closed form (Ex 1): upstream · (0 · df(x) + a difference quotient of f).
    # Ex 5: the tape's partials of g times 0 plus central differences of g; Ex 6: 0 · d2f(x) plus a central
    # difference of df. Ex 2, 3 and 4 keep the right solutions (see the submission above).
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    def value_and_slope(a):
        wide, h = a.astype(np.float64), 1e-5
        values = f(np.stack([wide, wide + h, wide - h]))
        return values[0].astype(a.dtype), ((values[1] - values[2]) / (2 * h)).astype(a.dtype)

    @tf.custom_gradient
    def g(x):
        value, slope = tf.numpy_function(value_and_slope, [x], [x.dtype, x.dtype])
        value, slope = tf.reshape(value, tf.shape(x)), tf.reshape(slope, tf.shape(x))

        def grad_fn(upstream):
            given = tf.reshape(tf.numpy_function(df, [x], x.dtype), tf.shape(x))
            return upstream * (0 * given + slope)

        return value, grad_fn

    return g
''',
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    @tf.custom_gradient
    def solve(theta):
        x = x0
        for _ in range(steps):
            x = g(x, theta)

        def grad_fn(upstream):
            with tf.GradientTape() as tape:
                tape.watch([x, theta])
                value = g(x, theta)
            tape_dx, tape_dtheta = tape.gradient(value, [x, theta])
            wide_x, wide_theta, h = tf.cast(x, tf.float64), tf.cast(theta, tf.float64), 1e-6
            values = g(tf.stack([wide_x + h, wide_x - h, wide_x, wide_x]),
                       tf.stack([wide_theta, wide_theta, wide_theta + h, wide_theta - h]))
            dg_dx = 0 * tape_dx + tf.cast((values[0] - values[1]) / (2 * h), x.dtype)
            dg_dtheta = 0 * tape_dtheta + tf.cast((values[2] - values[3]) / (2 * h), x.dtype)
            return upstream * dg_dtheta / (1 - dg_dx)

        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(function, [x], x.dtype), tf.shape(x))

    def slope_and_curvature(a):
        wide, h = a.astype(np.float64), 1e-5
        values = df(np.stack([wide, wide + h, wide - h]))
        return values[0].astype(a.dtype), ((values[1] - values[2]) / (2 * h)).astype(a.dtype)

    @tf.custom_gradient
    def slope(x):
        value, curvature = tf.numpy_function(slope_and_curvature, [x], [x.dtype, x.dtype])
        value, curvature = tf.reshape(value, tf.shape(x)), tf.reshape(curvature, tf.shape(x))

        def grad_fn(upstream):
            return upstream * (0 * by_numpy(d2f, x) + curvature)

        return value, grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * slope(x)
        return by_numpy(f, x), grad_fn

    return g
''',
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, **NO_FIXED_POINT, **NO_SECOND),
        "feedback": ["it is not made of the df you were given",
                     "not made of the partial derivatives the tape gives for g", "not made of the d2f you were given"],
    },
    # Shortcut: the bug read off the candidate functions (their defaults, closures and wrapped functions) instead
    # of checking their gradients. The candidates hold numbers only, so no label is found and the wrong ones are missed.
    "reads_the_candidates_labels": {
        "answers": {
            P + "checker": '''def find_wrong_gradients(candidates, x):
    def labels(obj, depth=0):
        if isinstance(obj, str):
            return {obj}
        if obj is None or depth > 5:
            return set()
        inner = list(getattr(obj, "__defaults__", None) or ())
        for cell in getattr(obj, "__closure__", None) or ():
            try:
                inner.append(cell.cell_contents)
            except ValueError:   # an empty cell
                pass
        inner.append(getattr(obj, "__wrapped__", None))
        if isinstance(obj, (tuple, list)):
            inner += list(obj)
        found = set()
        for item in inner:
            found |= labels(item, depth + 1)
        return found
    return [name for name, function in candidates.items() if labels(function) & {"sign", "factor", "upstream"}]
''',
        },
        "scores": scores(checker_found=0),
        "feedback": ["was missed"],
        "reaches": ["line 7: `inner = list(getattr(obj, \"__defaults__\", None) or ())`",
                    "line 8: `for cell in getattr(obj, \"__closure__\", None) or ():`"],
    },
    # Wrong: g computed in float32 whatever the dtype of x (the prompt asks for x's dtype).
    "float32_throughout": {
        "answers": {
            P + "numpy": '''def with_gradient(f, df):
    @tf.custom_gradient
    def g(x):
        x32 = tf.cast(x, tf.float32)
        y = tf.reshape(tf.numpy_function(lambda a: f(a).astype(np.float32), [x32], tf.float32), tf.shape(x))

        def grad_fn(upstream):
            slope = tf.reshape(tf.numpy_function(lambda a: df(a).astype(np.float32), [x32], tf.float32), tf.shape(x))
            return tf.cast(upstream * tf.cast(slope, upstream.dtype), x.dtype)

        return y, grad_fn

    return g
''',
            # Ex 5 in float32 too, the answer returned in float32 for a float64 θ: only the generic cell checks the
            # answer's dtype (the values cell's float64 cases are right to float32's precision, within the checks'
            # tolerance, and the tape casts the gradient back to θ's float64).
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    theta32 = tf.cast(theta, tf.float32)

    @tf.custom_gradient
    def solve(theta32):
        x = tf.cast(x0, tf.float32)
        for _ in range(steps):
            x = g(x, theta32)

        def grad_fn(upstream):
            with tf.GradientTape() as tape:
                tape.watch([x, theta32])
                value = g(x, theta32)
            dg_dx, dg_dtheta = tape.gradient(value, [x, theta32])
            return tf.cast(upstream, tf.float32) * dg_dtheta / (1 - dg_dx)

        return x, grad_fn

    return solve(theta32)
''',
            # Ex 6 in float32 too: its nested cell is float32 (full marks), its forward cell float64 (0).
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(lambda a: function(a).astype(np.float32), [tf.cast(x, tf.float32)],
                                            tf.float32), tf.shape(x))

    @tf.custom_gradient
    def slope(x):
        return by_numpy(df, x), lambda upstream: tf.cast(upstream, tf.float32) * by_numpy(d2f, x)

    @tf.custom_gradient
    def g(x):
        return by_numpy(f, x), lambda upstream: tf.cast(upstream, tf.float32) * slope(x)

    return g
''',
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, fixed_point_generic=0, second_forward=0),
        "feedback": ["for a float64 x: return x's dtype", "fixed_point returned float32 for a float64 θ",
                     "g(x) has dtype float32 for a float64 x"],
    },
    # Correct, written another way: the iterations in a tf.while_loop, the partials as the diagonals of the tape's
    # Jacobians of g (g is elementwise) and the implicit formula in float64, cast back to θ's dtype; NumPy in
    # float64 whatever x's dtype, the result cast back, and tf.ensure_shape in place of a reshape.
    "while_loop_jacobians_float64": {
        "answers": {
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    theta = tf.convert_to_tensor(theta)

    @tf.custom_gradient
    def solve(theta):
        _, x = tf.while_loop(lambda i, x: i < steps, lambda i, x: (i + 1, g(x, theta)),
                             (tf.constant(0), tf.convert_to_tensor(x0, theta.dtype)))

        def grad_fn(upstream):
            x_fixed = tf.stop_gradient(x)
            with tf.GradientTape(persistent=True) as tape:
                tape.watch([x_fixed, theta])
                value = g(x_fixed, theta)
            n = tf.size(theta)

            def diagonal(jacobian):
                return tf.cast(tf.reshape(tf.linalg.diag_part(tf.reshape(jacobian, [n, n])), tf.shape(theta)), tf.float64)

            dg_dx = diagonal(tape.jacobian(value, x_fixed))
            dg_dtheta = diagonal(tape.jacobian(value, theta))
            del tape
            return tf.cast(tf.cast(upstream, tf.float64) * dg_dtheta / (1.0 - dg_dx), theta.dtype)

        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def in_float64(function):
        return lambda a: np.asarray(function(a.astype(np.float64)), dtype=np.float64).astype(a.dtype)

    def through_numpy(function, x):
        return tf.ensure_shape(tf.numpy_function(in_float64(function), [x], x.dtype), x.shape)

    @tf.custom_gradient
    def slope(x):
        return through_numpy(df, x), lambda upstream: upstream * through_numpy(d2f, x)

    @tf.custom_gradient
    def g(x):
        return through_numpy(f, x), lambda upstream: upstream * slope(x)

    return g
''',
        },
        "scores": scores(),
    },
    # Wrong, one step short each: only the last iteration differentiated (x = g(stop_gradient(x), θ): the gradient is
    # ∂g/∂θ, without the 1/(1 - ∂g/∂x)), and the slope's grad_fn made of df again where d2f was asked (the first
    # derivative where the second one is).
    "last_iteration_and_first_derivative_twice": {
        "answers": {
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    x = x0
    for _ in range(steps - 1):
        x = g(x, tf.stop_gradient(theta))
    return g(tf.stop_gradient(x), theta)          # only the last iteration is differentiated
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(function, [x], x.dtype), tf.shape(x))

    @tf.custom_gradient
    def slope(x):
        def grad_fn(upstream):
            return upstream * by_numpy(df, x)             # df again, where d2f was asked
        return by_numpy(df, x), grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * slope(x)
        return by_numpy(f, x), grad_fn

    return g
''',
        },
        "scores": scores(**NO_FIXED_POINT, **NO_SECOND),
        "feedback": ["the derivative of the last iteration alone: divide by 1 - ∂g/∂x",
                     "d/dx Σ v·(d/dx Σ w·g(x)) is not correct"],
    },
    # Ex 5 right with NumPy inside grad_fn (.numpy() of the tape's partials, the formula in NumPy): a first
    # derivative needs nothing differentiable, and every check of Ex 5 runs eagerly. Ex 6 wrong the same way: the
    # slope's grad_fn calls d2f on x.numpy(). Eagerly that is d2f's numbers (the forward-mode cell runs eagerly:
    # its point); inside the tf.function of the hidden nested check x is symbolic and has no .numpy().
    "numpy_inside_grad_fn": {
        "answers": {
            P + "fixed_point": '''def fixed_point(g, theta, x0, steps):
    @tf.custom_gradient
    def solve(theta):
        x = x0
        for _ in range(steps):
            x = g(x, theta)

        def grad_fn(upstream):
            with tf.GradientTape() as tape:
                tape.watch([x, theta])
                value = g(x, theta)
            dg_dx, dg_dtheta = (partial.numpy() for partial in tape.gradient(value, [x, theta]))
            return tf.constant(upstream.numpy() * dg_dtheta / (1.0 - dg_dx), theta.dtype)

        return x, grad_fn

    return solve(theta)
''',
            P + "second": '''def with_two_derivatives(f, df, d2f):
    def by_numpy(function, x):
        return tf.reshape(tf.numpy_function(function, [x], x.dtype), tf.shape(x))

    @tf.custom_gradient
    def slope(x):
        def grad_fn(upstream):
            return upstream * tf.constant(d2f(x.numpy()), x.dtype)       # eager only
        return by_numpy(df, x), grad_fn

    @tf.custom_gradient
    def g(x):
        def grad_fn(upstream):
            return upstream * slope(x)
        return by_numpy(f, x), grad_fn

    return g
''',
        },
        "scores": scores(second_nested=0),
        "feedback": ["object has no attribute 'numpy'"],
    },
    # Wrong: the slope's grad_fn returns d2f(x) without its upstream (common mistake 2, one level down). The outer
    # tape gets d2f(x) where v·w·d2f(x) belongs; the accumulator, which differentiates grad_fn with respect to
    # upstream, gets None, and the checks say why rather than blame NumPy.
    "slope_grad_fn_ignores_its_upstream": {
        "answers": {P + "second": _two_derivatives(slope_grad="by_numpy(d2f, x)")},
        "scores": scores(**NO_SECOND),
        "feedback": ["d2f(x) alone: the slope's grad_fn must multiply d2f(x) by its upstream",
                     "the slope's grad_fn returns the same whatever its upstream"],
    },
    # Wrong: g's grad_fn returns the slope without its upstream: the tape's first derivative is df(x) where w·df(x)
    # belongs, and an accumulator around g finds no jvp at all.
    "g_grad_fn_ignores_its_upstream": {
        "answers": {P + "second": _two_derivatives(g_grad="slope(x)")},
        "scores": scores(**NO_SECOND),
        "feedback": ["df(x) alone: g's grad_fn must multiply the slope by its upstream",
                     "g's grad_fn returns the same whatever its upstream"],
    },
}
