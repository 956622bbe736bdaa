"""Synthetic submissions of 08_custom_gradients for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: numpy_values_and_gradient 1, numpy_composed 2, reversal_values 1, reversal_chain 1,
clipping_linear 1, clipping_chain 2, checker_found 3 (11 in all).
"""

from . import scores_for

P = "08_custom_gradients_"


scores = scores_for("08_custom_gradients")


SUBMISSIONS = {
    # Correct, written another way: NumPy reshaping inside the NumPy functions, λ as a second argument of the
    # decorated function with None as its gradient, clipping written out with tf.norm, a checker that returns a
    # set and compares with np.allclose.
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
        },
        "scores": scores(),
    },
    # Correct, written without @tf.custom_gradient where a stop_gradient trick gives the same first derivative,
    # and a checker that builds both Jacobians itself (tape rows with one-hot output_gradients, central differences).
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
        },
        "scores": scores(),
    },
    # Wrong: every grad_fn forgets to multiply by upstream (f'(x) alone, -λ alone, the clip of ones), and the
    # checker only compares the tape's gradient of the sum with the diagonal of the numerical Jacobian, which
    # cannot see a forgotten upstream.
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
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, reversal_values=0, reversal_chain=0,
                         checker_found=0),
        "feedback": ["grad_fn must multiply df(x) by the upstream gradient", "ignores upstream"],
    },
    # Wrong: tf.numpy_function without a custom gradient (None), a gradient that is not reversed (+λ),
    # and clipping entry by entry with tf.clip_by_value.
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
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, reversal_values=0, reversal_chain=0,
                         clipping_linear=0, clipping_chain=0),
        "feedback": ["TensorFlow cannot differentiate tf.numpy_function", "the gradient is not reversed",
                     "clipped entry by entry"],
    },
    # Wrong: a finite difference of f instead of df, the reversal in the forward pass, clipping the value instead
    # of the gradient, and a checker whose tolerance is far too tight.
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
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, reversal_values=0, reversal_chain=0,
                         clipping_linear=0, clipping_chain=0, checker_found=0),
        "feedback": ["a finite difference", "the reversal belongs to the backward pass only",
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
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0, clipping_linear=0, clipping_chain=0),
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
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0),
        "feedback": ["it is not made of the df you were given"],
    },
    # Shortcut: df's slope times 0 plus the closed form (Ex 1): upstream · (0 · df(x) + a difference quotient of f).
    # Ex 2, 3 and 4 keep the right solutions (see the submission above).
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
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0),
        "feedback": ["it is not made of the df you were given"],
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
        },
        "scores": scores(numpy_values_and_gradient=0, numpy_composed=0),
        "feedback": ["for a float64 x: return x's dtype"],
    },
}
