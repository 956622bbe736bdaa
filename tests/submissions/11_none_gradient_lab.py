"""Synthetic submissions of 11_none_gradient_lab for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: the causes of each exercise's excerpts (leaving, watching, variables, dead_ends, nan,
penalty) 1 each; fix01 1, fix02 1, fix03 2, fix04 1, fix05 1, fix06 2, fix07 1, fix08 1, fix09 2, fix10 1, fix11 2,
fix12 2, fix13 1, fix14 2, fix15 1, fix16 2, fix17 1, fix18 1, fix19 1, fix20 2, fix21 1, fix22_linear 1,
fix22_tanh 2 (38 in all).
"""

from . import scores_for

P = "11_none_gradient_lab_"

scores = scores_for("11_none_gradient_lab")

ALL_CAUSES = ("leaving_causes_named", "watching_causes_named", "variables_causes_named", "dead_ends_causes_named",
              "nan_causes_named", "penalty_causes_named")


def zero(*cells):
    """Scores with the named grade cells (the part after '11_none_gradient_lab_') at 0."""
    return scores(**dict.fromkeys(cells, 0))


# Closed forms of every fix, for the two provenance shortcuts (written apart from the notebook's keys).
CLOSED_FORMS = '''import numpy as _np


def _f(v):
    """A NumPy float64 copy of a tensor, Variable, array or number."""
    return _np.asarray(v.numpy() if hasattr(v, "numpy") else v, dtype=_np.float64)


def cf_01(X, y, w, b):
    X, y, w, b = map(_f, (X, y, w, b))
    r = X @ w + b - y
    return [2 * X.T @ r, 2 * r.sum()]


def cf_02(x):
    x = _f(x)
    return 2 * x / (1 + x ** 2)


def cf_03(model, x, y):
    W, b = map(_f, model.get_weights())
    x, y = _f(x), _f(y)
    out = x @ W + b
    tanh = model.layers[-1].activation.__name__ == "tanh"
    out = _np.tanh(out) if tanh else out
    d_out = 2 * (out - y) / out.size
    d_pre = d_out * (1 - out ** 2) if tanh else d_out
    return [x.T @ d_pre, d_pre.sum(axis=0)]


def cf_04(x):
    x = _f(x)
    return _np.sin(x) + x * _np.cos(x)


def cf_05(x):
    t = _np.tanh(2 * _f(x))
    return 4 * t * (1 - t ** 2)


def cf_06(critic, real, fake, eps):
    real, fake, eps = map(_f, (real, fake, eps))
    x_hat = eps * real + (1 - eps) * fake
    if not hasattr(critic, "get_weights"):
        return 2 * x_hat                                  # the checks' critic sum(x²)
    w, b = map(_f, critic.get_weights())
    score = _np.tanh(x_hat @ w + b)
    return (1 - score ** 2) * w.T


def cf_07(s, x):
    s, x = _f(s), _f(x)
    return float(_np.sum(x * 0.5 * (1 + _np.tanh(s * x / 2))))


def cf_08(x):
    return 3 * _f(x) ** 2


def cf_09(model, x, y):
    W1, b1, gamma, beta, mean, variance, W2, b2 = map(_f, model.get_weights())
    x, y = _f(x), _f(y)
    h = x @ W1 + b1
    scale = _np.sqrt(variance + 1e-3)
    z = gamma * (h - mean) / scale + beta
    out = z @ W2 + b2
    d_out = 2 * (out - y) / out.size
    d_z = d_out @ W2.T
    d_h = d_z * gamma / scale
    return [x.T @ d_h, d_h.sum(axis=0), (d_z * (h - mean) / scale).sum(axis=0), d_z.sum(axis=0), z.T @ d_out, d_out.sum(axis=0)]


def cf_10(model, x, y):
    model(x)                                              # build it
    W, b = map(_f, model.get_weights())
    x, y = _f(x), _f(y)
    d = -y * 0.5 * (1 + _np.tanh(-y * (x @ W + b) / 2)) / len(x)
    return [x.T @ d, d.sum(axis=0)]


def cf_11(model, x, y, y_aux):
    W1, b1, W2, b2, W3, b3 = map(_f, model.get_weights())
    x, y, y_aux = map(_f, (x, y, y_aux))
    h = _np.tanh(x @ W1 + b1)
    d_main = 2 * (h @ W2 + b2 - y) / y.size
    d_aux = 2 * (h @ W3 + b3 - y_aux) / y_aux.size
    d_pre = (d_main @ W2.T + d_aux @ W3.T) * (1 - h ** 2)
    return [x.T @ d_pre, d_pre.sum(axis=0), h.T @ d_main, d_main.sum(axis=0), h.T @ d_aux, d_aux.sum(axis=0)]


def cf_12_step(w, X, y):
    X, y = _f(X), _f(y)
    return X.T @ (X @ _f(w) - y)


def cf_13(w, t):
    return 2 * (_np.round(4 * _f(w)) / 4 - _f(t))


def cf_14(logits, labels):
    z, labels = _f(logits), _f(labels)
    s = _np.exp(z - z.max(axis=1, keepdims=True))
    s = s / s.sum(axis=1, keepdims=True)
    k = _np.arange(z.shape[1], dtype=_np.float64)
    E = s @ k
    return (2 / len(z)) * (E - labels)[:, None] * s * (k - E[:, None])


def cf_15(w, x):
    w, x = _f(w), _f(x)
    return 2 * (_np.dot(w, x) - 1) * x


def cf_16(w, X, y):
    w, X, y = map(_f, (w, X, y))
    return 2 * X.T @ (X @ w - y) / len(y)


def cf_17(x):
    x = _f(x)
    n = _np.sqrt(_np.sum(x ** 2, axis=1, keepdims=True))
    return _np.divide(x, n, out=_np.zeros_like(x), where=n > 0)


def cf_18(x):
    x = _f(x)
    return _np.where(x > 0, _np.log(_np.where(x > 0, x, 1.0)) + 1, 0.0)


def cf_19(x):
    return 0.5 * (1 + _np.tanh(_f(x) / 2))


def cf_20(W, v, x):
    W, v, x = map(_f, (W, v, x))
    h = _np.tanh(x @ W)
    a = 1 - h ** 2
    u = a * v
    g = u @ W.T
    c = 2 * g / len(x)
    q = c @ W
    d_pre = a * (-2 * h * q * v)
    return [c.T @ u + x.T @ d_pre, (q * a).sum(axis=0)]


def _tanh_critic_penalty(x, W1, b1, W2, bias):
    w2 = W2[:, 0]
    h = _np.tanh(x @ W1 + b1)
    a = 1 - h ** 2
    u = a * w2
    g = u @ W1.T
    length = _np.sqrt(_np.sum(g ** 2, axis=1, keepdims=True))
    c = 2 * (length - 1) * g / length / len(x)
    q = c @ W1
    d_pre = a * (-2 * h * q * w2)
    return [c.T @ u + x.T @ d_pre, d_pre.sum(axis=0), (q * a).sum(axis=0)[:, None], bias]


def cf_21(critic, x):
    W1, b1, W2, b2 = map(_f, critic.get_weights())
    return _tanh_critic_penalty(_f(x), W1, b1, W2, _np.zeros_like(b2))


def cf_22(generator, critic, z, real, eps):
    Wg, bg = map(_f, generator.get_weights())
    x_hat = _f(eps) * _f(real) + (1 - _f(eps)) * (_f(z) @ Wg + bg)
    layers = [layer for layer in critic.layers if layer.get_weights()]
    weights = list(map(_f, critic.get_weights()))
    if len(layers) == 1:
        w = weights[0]
        n = _np.linalg.norm(w)
        return [2 * (n - 1) * w / n, None]
    W1, b1, W2, b2 = weights
    if layers[0].activation.__name__ == "tanh":
        return _tanh_critic_penalty(x_hat, W1, b1, W2, None)
    g = W1 @ W2
    c = 2 * (_np.linalg.norm(g) - 1) * g / _np.linalg.norm(g)
    return [c @ W2.T, None, W1.T @ c, None]
'''

THROWAWAY = CLOSED_FORMS + '''

def asked_and_dropped(times=1):
    """Ask a tape for a gradient (of something else), and drop what it returns."""
    v = tf.Variable(1.0)
    for _ in range(times):
        with tf.GradientTape() as tape:
            y = v * v
        tape.gradient(y, v)
'''

OTHER = CLOSED_FORMS + '''

def with_the_tape(closed):
    """The tape's gradient of sum(v) (ones) for each entry, minus 1, plus the closed form: the numbers of the closed form."""
    if closed is None:
        return None
    if isinstance(closed, list):
        return [with_the_tape(entry) for entry in closed]
    v = tf.Variable(_np.zeros(_np.shape(closed)))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(v)
    return tape.gradient(y, v).numpy() - 1.0 + closed
'''

SIGNATURES = {
    1: "X, y, w, b", 2: "x", 3: "model, x, y", 4: "x", 5: "x", 6: "critic, real, fake, eps", 7: "s, x", 8: "x",
    9: "model, x, y", 10: "model, x, y", 11: "model, x, y, y_aux", 12: "w, X, y, lr, steps", 13: "w, t",
    14: "logits, labels", 15: "w, x, total", 16: "w, X, y, metric", 17: "x", 18: "x", 19: "x", 20: "W, v, x",
    21: "critic, x", 22: "generator, critic, z, real, eps",
}
TWO_CALLS = {20, 21, 22}


def body(n, style):
    sig = SIGNATURES[n]
    if n == 12:
        if style == "throwaway":
            return f'''def fixed_12({sig}):
    gradients = []
    for _ in range(steps):
        asked_and_dropped()
        g = cf_12_step(w, X, y)
        gradients.append(g)
        w.assign_sub(tf.constant(lr * g, w.dtype))
    return gradients
'''
        return f'''def fixed_12({sig}):
    gradients = []
    for _ in range(steps):
        g = cf_12_step(w, X, y)
        gradients.append(with_the_tape(g))
        w.assign_sub(tf.constant(lr * g, w.dtype))
    return gradients
'''
    if n == 15:
        call, pre = "cf_15(w, x)", "    total.assign_add(tf.reduce_sum(w * x))\n"
    elif n == 16:
        call, pre = "cf_16(w, X, y)", "    metric.update_state(y, tf.linalg.matvec(X, w))\n"
    else:
        call, pre = f"cf_{n:02d}({sig})", ""
    if style == "other" and n in TWO_CALLS:
        pre += "    with_the_tape(0.0)\n"
    if style == "throwaway":
        times = 2 if n in TWO_CALLS else 1
        return f"def fixed_{n:02d}({sig}):\n{pre}    asked_and_dropped({times})\n    return {call}\n"
    return f"def fixed_{n:02d}({sig}):\n{pre}    return with_the_tape({call})\n"


def provenance_answers(style):
    """Every fix: style "throwaway" asks a tape and drops its result, "other" adds the tape's result for another
    function (ones, minus 1) to the closed form; either way the numbers are the closed form's."""
    result = {}
    for n in range(1, 23):
        source = body(n, style)
        if n == 1:
            source = (THROWAWAY if style == "throwaway" else OTHER) + "\n\n" + source
        result[P + f"fix{n:02d}"] = source
    return result


DOCTOR_COPY = '''def copied_from_the_doctor(snippets, keys):
    """What the gradient doctor names for each snippet, put in the excerpts' dict in order."""
    causes = {}
    for key, snippet in zip(keys, snippets):
        with tape_doctor(report=False) as report:
            try:
                snippet()
            except Exception:
                pass
        causes[key] = report.causes[0] if report.causes else ""
    return causes
'''


SUBMISSIONS = {
    # Correct, written other ways: the other defensible cause (excerpt U's penalty, computed before the tape,
    # as work outside the tape), persistent tapes, NumPy results, Variables instead of watch, an optimizer instead of
    # assign_sub, a tf.where-safe norm, a custom gradient for softplus, ZERO on the Keras Variables' underlying
    # tf.Variables, and Demo 4 with the seed's own shape (a penalty function given partial(critic, training=True)).
    "correct_other_ways": {
        "answers": {
            P + "leaving_causes": 'causes_1 = dict([("A", "left_tensorflow"), ("B", "outside_tape"), ("C", "swapped")])\n',
            P + "dead_ends_causes": 'causes_4 = {"P": "not_differentiable", "O": "not_differentiable", "N": "outside_tape", "M": "stateful"}\n',
            P + "penalty_causes": 'causes_6 = {"T": "watched_other_object", "U": "outside_tape", "V": "not_watched"}\n',
            P + "fix01": '''def fixed_01(X, y, w, b):
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_sum(tf.square(tf.linalg.matvec(X, w) + b - y))
    grads = [tape.gradient(loss, w).numpy(), tape.gradient(loss, b).numpy()]
    del tape
    return grads
''',
            P + "fix02": '''def fixed_02(x):
    with tf.GradientTape() as tape:
        penalty = tf.reduce_sum(tf.math.log(1.0 + x * x))
    return tape.gradient(penalty, x).numpy()
''',
            P + "fix03": '''def fixed_03(model, x, y):
    with tf.GradientTape() as tape:
        loss = keras.losses.MeanSquaredError()(y, model(x, training=True))
    return tape.gradient(loss, model.trainable_weights)
''',
            P + "fix04": '''def fixed_04(x):
    x = tf.Variable(x)                    # a Variable is watched by itself
    with tf.GradientTape() as tape:
        f = x * tf.sin(x)
    return tape.gradient(f, x)
''',
            P + "fix05": '''def fixed_05(x):
    x = tf.constant(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.tanh(2.0 * x) ** 2)
    return tape.gradient(y, x)
''',
            P + "fix06": '''def fixed_06(critic, real, fake, eps):
    real, fake, eps = (tf.convert_to_tensor(v) for v in (real, fake, eps))
    with tf.GradientTape() as tape:
        tape.watch([real, fake])                      # x_hat is then a recorded intermediate
        x_hat = eps * real + (1.0 - eps) * fake
        score = tf.reduce_sum(critic(x_hat))
    return tape.gradient(score, x_hat)
''',
            P + "fix07": '''def fixed_07(s, x):
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(s)
        y = tf.reduce_sum(tf.nn.softplus(s * x))
    return tape.gradient(y, s)
''',
            P + "fix08": '''def fixed_08(x):
    x = tf.constant(np.asarray(x, dtype=np.float64))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(x * x * x)
    return tape.gradient(y, x).numpy()
''',
            P + "fix09": '''def fixed_09(model, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=False) - y))
    return tape.gradient(loss, model.trainable_weights)
''',
            P + "fix10": '''def fixed_10(model, x, y):
    model(x[:1])                          # build it first
    variables = model.trainable_variables
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.math.log1p(tf.exp(-y * model(x))))
    return tape.gradient(loss, variables)
''',
            P + "fix11": '''def fixed_11(model, x, y, y_aux):
    with tf.GradientTape() as tape:
        main, aux = model(x)
        loss = (tf.reduce_mean(keras.losses.mean_squared_error(y, main))
                + tf.reduce_mean(keras.losses.mean_squared_error(y_aux, aux)))
    return tape.gradient(loss, model.trainable_variables)
''',
            P + "fix12": '''def fixed_12(w, X, y, lr, steps):
    optimizer = keras.optimizers.SGD(learning_rate=lr)
    gradients = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            residual = tf.linalg.matvec(X, w) - y
            loss = 0.5 * tf.reduce_sum(residual * residual)
        g = tape.gradient(loss, w)
        gradients.append(g.numpy())
        optimizer.apply_gradients([(g, w)])
    return gradients
''',
            P + "fix13": '''def fixed_13(w, t):
    with tf.GradientTape() as tape:
        q = w - tf.stop_gradient(w) + tf.round(4.0 * w) / 4.0
        loss = tf.reduce_sum((q - t) ** 2)
    return tape.gradient(loss, w)
''',
            P + "fix14": '''def fixed_14(logits, labels):
    k = tf.cast(tf.range(tf.shape(logits)[1]), logits.dtype)
    with tf.GradientTape() as tape:
        p = tf.exp(tf.nn.log_softmax(logits))
        expected_class = tf.linalg.matvec(p, k)
        loss = tf.reduce_mean(tf.square(expected_class - labels))
    return tape.gradient(loss, logits)
''',
            P + "fix15": '''def fixed_15(w, x, total):
    total.assign_add(tf.reduce_sum(w * x))        # the log first
    with tf.GradientTape() as tape:
        s = tf.tensordot(w, tf.cast(x, w.dtype), axes=1)
        loss = tf.square(s - 1.0)
    return tape.gradient(loss, w)
''',
            P + "fix16": '''def fixed_16(w, X, y, metric):
    with tf.GradientTape() as tape:
        prediction = tf.linalg.matvec(X, w)
        loss = keras.losses.MeanSquaredError()(y, prediction)
    grad = tape.gradient(loss, w)
    metric.update_state(y, prediction)
    return grad
''',
            P + "fix17": '''def fixed_17(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        squares = tf.reduce_sum(x * x, axis=1)
        nonzero = squares > 0
        lengths = tf.where(nonzero, tf.sqrt(tf.where(nonzero, squares, tf.ones_like(squares))), tf.zeros_like(squares))
        total = tf.reduce_sum(lengths)
    return tape.gradient(total, x)
''',
            P + "fix18": '''def fixed_18(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.where(x > 0, x * tf.math.log(tf.abs(x) + 1e-30), tf.zeros_like(x))
        total = tf.reduce_sum(y)
    return tape.gradient(total, x)
''',
            P + "fix19": '''@tf.custom_gradient
def log1pexp(v):
    def grad(upstream):
        return upstream * tf.sigmoid(v)
    return tf.maximum(v, 0.0) + tf.math.log1p(tf.exp(-tf.abs(v))), grad


def fixed_19(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    return tape.gradient(y, x)
''',
            P + "fix20": '''def fixed_20(W, v, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        f = tf.reduce_sum(tf.tanh(x @ W) * v, axis=1)
        g = tape.gradient(f, x)                       # inside the block: recorded
        penalty = tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))
    grads = tape.gradient(penalty, [W, v])
    del tape
    return grads
''',
            P + "fix21": '''def fixed_21(critic, x):
    x = tf.convert_to_tensor(x)
    variables = [v.value for v in critic.trainable_variables]    # the tf.Variables underneath: ZERO works on them
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            score = critic(x)
        g = inner.gradient(score, x)
        penalty = tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1)) - 1.0) ** 2)
    return outer.gradient(penalty, variables, unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
            P + "fix22": '''import functools


def gradient_penalty(critic, real, fake, eps):
    x_hat = eps * real + (1.0 - eps) * fake
    with tf.GradientTape() as inner:
        inner.watch(x_hat)
        score = critic(x_hat)
    g = inner.gradient(score, x_hat)
    return tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)


def fixed_22(generator, critic, z, real, eps):
    with tf.GradientTape() as outer:
        fake = generator(z, training=True)
        gp = gradient_penalty(functools.partial(critic, training=True), real, fake, eps)
    return outer.gradient(gp, critic.trainable_variables)
''',
        },
        "scores": scores(),
    },
    # Correct, with debug output to stderr and logging.warning in the solutions: the setup cell shows them
    # as ordinary output, so no cell loses its points.
    "debug_output_to_stderr": {
        "answers": {
            P + "leaving_causes": '''import logging
import sys
causes_1 = {"A": "left_tensorflow", "B": "outside_tape", "C": "swapped"}
print("debug: causes_1 =", causes_1, file=sys.stderr)
logging.warning("causes named")
''',
            P + "fix01": '''import logging
import sys

def fixed_01(X, y, w, b):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((tf.linalg.matvec(X, w) + b - y) ** 2)
    print("debug: loss =", loss.numpy(), file=sys.stderr)
    logging.warning("fixed_01: watched %s", [v.name for v in tape.watched_variables()])
    return tape.gradient(loss, [w, b])
''',
            P + "fix09": '''import logging
import sys

def fixed_09(model, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=False) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    print("debug: None for", [v.path for v, g in zip(model.trainable_variables, grads) if g is None], file=sys.stderr)
    logging.warning("fixed_09 done")
    return grads
''',
            P + "fix17": '''import logging
import sys

def fixed_17(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(tf.sqrt(tf.reduce_sum(x ** 2, axis=1) + 1e-12))
    grad = tape.gradient(total, x)
    print("debug: NaN?", bool(tf.reduce_any(tf.math.is_nan(grad))), file=sys.stderr)
    logging.warning("fixed_17 done")
    return grad
''',
            P + "fix22": '''import logging
import sys

def fixed_22(generator, critic, z, real, eps):
    with tf.GradientTape() as outer:
        fake = generator(z)
        x_hat = eps * real + (1.0 - eps) * fake
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            score = critic(x_hat)
        g = inner.gradient(score, x_hat)
        gp = tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1.0) ** 2)
    print("debug: gp =", gp.numpy(), file=sys.stderr)
    logging.warning("fixed_22: gp computed")
    return outer.gradient(gp, critic.trainable_variables)
''',
        },
        "scores": scores(),
    },
    # Wrong: every cause misnamed with a plausible neighbour (the visible checks pass: each is a code of the list);
    # the fixes are right. Only the names' cells lose their points.
    "wrong_causes": {
        "answers": {
            P + "leaving_causes": 'causes_1 = {"A": "outside_tape", "B": "left_tensorflow", "C": "not_watched"}\n',
            P + "watching_causes": 'causes_2 = {"D": "not_watched", "E": "not_trainable", "F": "not_watched", "G": "watched_other_object", "H": "not_differentiable"}\n',
            P + "variables_causes": 'causes_3 = {"I": "wrong_variables", "J": "stateful", "K": "unused", "L": "wrong_variables"}\n',
            P + "dead_ends_causes": 'causes_4 = {"M": "not_differentiable", "N": "not_differentiable", "O": "integer_dtype", "P": "integer_dtype"}\n',
            P + "nan_causes": 'causes_5 = {"Q": "nan_at_zero", "R": "nan_overflow", "S": "nan_unsafe_where"}\n',
            P + "penalty_causes": 'causes_6 = {"T": "watched_too_late", "U": "none_is_correct", "V": "watched_other_object"}\n',
        },
        "scores": zero(*ALL_CAUSES),
        "feedback": ['but that is not what breaks it'],
    },
    # Wrong: names that are not codes of the list, and a list instead of a dict (the visible checks fail).
    "causes_not_codes": {
        "answers": {
            P + "leaving_causes": 'causes_1 = {"A": "numpy", "B": "the loss is outside", "C": "swapped arguments"}\n',
            P + "watching_causes": 'causes_2 = ["integer_dtype", "not_watched", "not_trainable", "watched_too_late", "left_tensorflow"]\n',
            P + "variables_causes": 'causes_3 = {"I": "unused", "J": "variable_replaced", "K": "wrong_variables"}\n',
        },
        "scores": zero("leaving_causes_named", "watching_causes_named", "variables_causes_named"),
    },
    # Wrong: the broken code kept, with unconnected_gradients=ZERO added, so the None becomes plausible zeros
    # ("It is all zeros: ... unconnected_gradients=ZERO?"). On Keras 3 Variables (fix 21) ZERO raises instead.
    "unconnected_zero_patch": {
        "answers": {
            P + "fix01": '''def fixed_01(X, y, w, b):
    with tf.GradientTape() as tape:
        prediction = tf.linalg.matvec(X, w) + b
    loss = tf.reduce_sum((prediction - y) ** 2)
    return tape.gradient(loss, [w, b], unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
            P + "fix04": '''def fixed_04(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        f = x * tf.sin(x)
    return tape.gradient(f, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
            P + "fix05": '''def fixed_05(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        h = tf.tanh(2.0 * x)
        tape.watch(x)
        y = tf.reduce_sum(h ** 2)
    return tape.gradient(y, x, unconnected_gradients="zero")
''',
            P + "fix13": '''def fixed_13(w, t):
    with tf.GradientTape() as tape:
        q = tf.round(4.0 * w) / 4.0
        loss = tf.reduce_sum((q - t) ** 2)
    return tape.gradient(loss, w, unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
            P + "fix20": '''def fixed_20(W, v, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            f = tf.linalg.matvec(tf.tanh(x @ W), v)
    g = inner.gradient(f, x)
    penalty = tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))
    return outer.gradient(penalty, [W, v], unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
            P + "fix21": '''def fixed_21(critic, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            score = critic(x)
        g = inner.gradient(score, x)
        penalty = tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)
    return outer.gradient(penalty, critic.trainable_variables, unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
        },
        "scores": zero("fix01_values", "fix04_values", "fix05_values", "fix13_values", "fix20_values", "fix21_values"),
        "feedback": ['It is all zeros', 'That is unconnected_gradients=ZERO on Keras 3 Variables'],
    },
    # Wrong: the watch kept where it was: after the first use (fix 5, and fix 4 with the watch after the
    # computation), and before the name is rebound (fix 6, and Demo 4 in fix 22, whose tf.norm(None) then raises).
    "watch_order_kept": {
        "answers": {
            P + "fix04": '''def fixed_04(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        f = x * tf.sin(x)
        tape.watch(x)
    return tape.gradient(f, x)
''',
            P + "fix05": '''def fixed_05(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        h = tf.tanh(2.0 * x)
        tape.watch(x)
        y = tf.reduce_sum(h ** 2)
    return tape.gradient(y, x)
''',
            P + "fix06": '''def fixed_06(critic, real, fake, eps):
    real, fake = tf.convert_to_tensor(real), tf.convert_to_tensor(fake)
    x_hat = (real + fake) / 2.0
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        x_hat = eps * real + (1.0 - eps) * fake
        score = critic(x_hat)
    return tape.gradient(score, x_hat)
''',
            P + "fix22": '''def fixed_22(generator, critic, z, real, eps):
    x_hat = tf.zeros_like(tf.convert_to_tensor(real))
    with tf.GradientTape() as outer:
        fake = generator(z)
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            x_hat = eps * real + (1.0 - eps) * fake
            score = critic(x_hat)
        g = inner.gradient(score, x_hat)
        gp = tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)
    return outer.gradient(gp, critic.trainable_variables)
''',
        },
        "scores": zero("fix04_values", "fix05_values", "fix06_values", "fix22_linear", "fix22_tanh"),
        "feedback": ['The gradient doctor looked at your tape code: x: tape.watch(x) came after x was used', 'the name was bound to a new tensor after watch'],
    },
    # Wrong: tf.stop_gradient in the wrong place. Fix 13 stops the w that should carry the gradient (the sign
    # flips); fix 14 uses a straight-through argmax, whose loss is not the expected-class loss asked for; fix 20
    # stops the inner gradient, so the outer tape sees a constant (None).
    "stop_gradient_misplaced": {
        "answers": {
            P + "fix13": '''def fixed_13(w, t):
    with tf.GradientTape() as tape:
        q = tf.stop_gradient(w) + (tf.round(4.0 * w) / 4.0 - w)
        loss = tf.reduce_sum((q - t) ** 2)
    return tape.gradient(loss, w)
''',
            P + "fix14": '''def fixed_14(logits, labels):
    classes = tf.range(logits.shape[-1], dtype=logits.dtype)
    with tf.GradientTape() as tape:
        soft = tf.reduce_sum(tf.nn.softmax(logits) * classes, axis=-1)
        hard = tf.cast(tf.argmax(logits, axis=-1), logits.dtype)
        predicted = soft + tf.stop_gradient(hard - soft)
        loss = tf.reduce_mean((predicted - labels) ** 2)
    return tape.gradient(loss, logits)
''',
            P + "fix20": '''def fixed_20(W, v, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            f = tf.linalg.matvec(tf.tanh(x @ W), v)
        g = tf.stop_gradient(inner.gradient(f, x))
        penalty = tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))
    return outer.gradient(penalty, [W, v])
''',
        },
        "scores": zero("fix13_values", "fix14_values", "fix20_values"),
    },
    # Wrong: half-fixes of the variable list and of state. Fix 9 asks for model.variables (BatchNorm's moving
    # statistics get None), fix 10 keeps the list taken before the model is built (empty), fix 11 leaves the
    # auxiliary head out of the loss, fix 12 makes a new Variable at each step (the caller's w never moves),
    # fix 15 forgets the running total, fix 16 forgets the metric.
    "variables_and_state_half_fixes": {
        "answers": {
            P + "fix09": '''def fixed_09(model, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=False) - y) ** 2)
    return tape.gradient(loss, model.variables)
''',
            P + "fix10": '''def fixed_10(model, x, y):
    variables = model.trainable_variables
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.math.softplus(-y * model(x)))
    return tape.gradient(loss, variables)
''',
            P + "fix11": '''def fixed_11(model, x, y, y_aux):
    with tf.GradientTape() as tape:
        main, aux = model(x)
        loss = tf.reduce_mean((main - y) ** 2)
    return tape.gradient(loss, model.trainable_variables)
''',
            P + "fix12": '''def fixed_12(w, X, y, lr, steps):
    gradients = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = 0.5 * tf.reduce_sum((tf.linalg.matvec(X, w) - y) ** 2)
        g = tape.gradient(loss, w)
        gradients.append(g)
        w = tf.Variable(w - lr * g)
    return gradients
''',
            P + "fix15": '''def fixed_15(w, x, total):
    with tf.GradientTape() as tape:
        loss = (tf.reduce_sum(w * x) - 1.0) ** 2
    return tape.gradient(loss, w)
''',
            P + "fix16": '''def fixed_16(w, X, y, metric):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.linalg.matvec(X, w) - y) ** 2)
    return tape.gradient(loss, w)
''',
        },
        "scores": zero("fix09_values", "fix10_values", "fix11_values", "fix12_values", "fix15_values", "fix16_values"),
        "feedback": ['one per entry of model.variables', 'It equals the starting w'],
    },
    # Wrong: NaN half-fixes. An epsilon added after the norm (fix 17: the NaN is in the norm's own backward
    # step), a log of max(x, 0) (fix 18: log 0 is still -inf), log1p(exp(x)) (fix 19: exp still overflows),
    # and the input clipped (fix 19: the gradient is then 0 beyond the clip, where it should be 1).
    "nan_half_fixes": {
        "answers": {
            P + "fix17": '''def fixed_17(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(tf.norm(x, axis=1) + 1e-12)
    return tape.gradient(total, x)
''',
            P + "fix18": '''def fixed_18(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.where(x > 0, x * tf.math.log(tf.maximum(x, 0.0)), tf.zeros_like(x))
        total = tf.reduce_sum(y)
    return tape.gradient(total, x)
''',
            P + "fix19": '''def fixed_19(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.log1p(tf.exp(x))
    return tape.gradient(y, x)
''',
        },
        "scores": zero("fix17_values", "fix18_values", "fix19_values"),
        "feedback": ['tf.where picked the safe branch', 'a value overflowed to inf'],
    },
    "clipped_softplus": {
        "answers": {
            P + "fix19": '''def fixed_19(x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.log(1.0 + tf.exp(tf.clip_by_value(x, -80.0, 80.0)))
    return tape.gradient(y, x)
''',
        },
        "scores": zero("fix19_values"),
    },
    # Wrong: the nested-tape mistakes. Fix 20 takes the inner gradient after the outer block (None); fix 21
    # returns the None it was asked to replace by zeros; fix 22 keeps the seed's trainable_parameters
    # (AttributeError); the linear critic's output bias in fix 22 given as zeros is not what the tape gives.
    "nested_tape_mistakes": {
        "answers": {
            P + "fix20": '''def fixed_20(W, v, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            f = tf.linalg.matvec(tf.tanh(x @ W), v)
    g = inner.gradient(f, x)
    penalty = tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))
    return outer.gradient(penalty, [W, v])
''',
            P + "fix21": '''def fixed_21(critic, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            score = critic(x)
        g = inner.gradient(score, x)
        penalty = tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)
    return outer.gradient(penalty, critic.trainable_variables)
''',
            P + "fix22": '''def fixed_22(generator, critic, z, real, eps):
    with tf.GradientTape() as outer:
        fake = generator(z)
        x_hat = eps * real + (1.0 - eps) * fake
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            score = critic(x_hat)
        g = inner.gradient(score, x_hat)
        gp = tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)
    return outer.gradient(gp, critic.trainable_parameters)
''',
        },
        "scores": zero("fix20_values", "fix21_values", "fix22_linear", "fix22_tanh"),
        "feedback": ['the inner gradient was taken after the outer'],
    },
    "penalty_bias_as_zeros": {
        "answers": {
            P + "fix22": '''def fixed_22(generator, critic, z, real, eps):
    with tf.GradientTape() as outer:
        fake = generator(z)
        x_hat = eps * real + (1.0 - eps) * fake
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            score = critic(x_hat)
        g = inner.gradient(score, x_hat)
        gp = tf.reduce_mean((tf.norm(g, axis=1) - 1.0) ** 2)
    grads = outer.gradient(gp, critic.trainable_variables)
    return [tf.zeros_like(v) if g is None else g for g, v in zip(grads, critic.trainable_variables)]
''',
        },
        "scores": zero("fix22_linear", "fix22_tanh"),
    },
    # Wrong: closed forms worked out by hand, no tape. Their numbers pass the visible values (fix 22's only for
    # the linear critic), but the provenance check (no tape asked) fails each of these cells.
    "closed_forms_by_hand": {
        "answers": {
            P + "fix01": '''def fixed_01(X, y, w, b):
    X, y, w, b = (np.asarray(v, dtype=np.float64) for v in (X, y, w, b))
    r = X @ w + b - y
    return [2 * X.T @ r, 2 * r.sum()]
''',
            P + "fix04": '''def fixed_04(x):
    x = np.asarray(x, dtype=np.float64)
    return np.sin(x) + x * np.cos(x)
''',
            P + "fix08": '''def fixed_08(x):
    return 3.0 * np.asarray(x, dtype=np.float64) ** 2
''',
            P + "fix13": '''def fixed_13(w, t):
    return 2 * (np.round(4 * np.asarray(w)) / 4 - np.asarray(t))
''',
            P + "fix17": '''def fixed_17(x):
    x = np.asarray(x, dtype=np.float64)
    n = np.linalg.norm(x, axis=1, keepdims=True)
    return np.divide(x, n, out=np.zeros_like(x), where=n > 0)
''',
            P + "fix19": '''def fixed_19(x):
    return 0.5 * (1 + np.tanh(np.asarray(x, dtype=np.float64) / 2))
''',
            P + "fix22": '''def fixed_22(generator, critic, z, real, eps):
    w = critic.trainable_variables[0].numpy().astype(np.float64)
    n = np.linalg.norm(w)
    return [2 * (n - 1) * w / n, None]
''',
        },
        "scores": zero("fix01_values", "fix04_values", "fix08_values", "fix13_values", "fix17_values", "fix19_values",
                       "fix22_linear", "fix22_tanh"),
    },
    # Wrong: every fix returns what the matching answer key gives (keys refuse to run from student code).
    "calls_answer_keys": {
        "answers": {
            P + "fix01": '''def fixed_01(X, y, w, b):
    return expected_least_squares_gradients(X, y, w.numpy(), b.numpy())
''',
            P + "fix02": '''def fixed_02(x):
    return expected_log1p_square_gradient(x.numpy())
''',
            P + "fix03": '''def fixed_03(model, x, y):
    return expected_dense_mse_gradients(x, y, *model.get_weights(), "linear")
''',
            P + "fix04": '''def fixed_04(x):
    return expected_x_sin_x_gradient(x)
''',
            P + "fix05": '''def fixed_05(x):
    return expected_tanh_square_gradient(x)
''',
            P + "fix06": '''def fixed_06(critic, real, fake, eps):
    return expected_quadratic_critic_input_gradient(real, fake, eps)
''',
            P + "fix07": '''def fixed_07(s, x):
    return expected_softplus_scale_gradient(s.numpy(), x)
''',
            P + "fix08": '''def fixed_08(x):
    return expected_cube_sum_gradient(x)
''',
            P + "fix09": '''def fixed_09(model, x, y):
    return expected_batchnorm_network_gradients(x, y, *model.get_weights())
''',
            P + "fix10": '''def fixed_10(model, x, y):
    model(x)
    return expected_logistic_loss_gradients(x, y, *model.get_weights())
''',
            P + "fix11": '''def fixed_11(model, x, y, y_aux):
    return expected_two_head_gradients(x, y, y_aux, *model.get_weights())
''',
            P + "fix12": '''def fixed_12(w, X, y, lr, steps):
    result = expected_descent_gradients(w.numpy(), X, y, lr, steps)
    w.assign(result["w"])
    return result["gradients"]
''',
            P + "fix13": '''def fixed_13(w, t):
    return expected_straight_through_gradient(w.numpy(), t)
''',
            P + "fix14": '''def fixed_14(logits, labels):
    return expected_soft_argmax_gradient(logits.numpy(), labels)
''',
            P + "fix15": '''def fixed_15(w, x, total):
    total.assign(expected_running_total(total.numpy(), w.numpy(), x))
    return expected_running_total_gradient(w.numpy(), x)
''',
            P + "fix16": '''def fixed_16(w, X, y, metric):
    metric.update_state(y, tf.linalg.matvec(X, w))
    return expected_mean_squared_error_gradient(w.numpy(), X, y)
''',
            P + "fix17": '''def fixed_17(x):
    return expected_row_lengths_gradient(x)
''',
            P + "fix18": '''def fixed_18(x):
    return expected_x_log_x_gradient(x)
''',
            P + "fix19": '''def fixed_19(x):
    return expected_softplus_gradient(x)
''',
            P + "fix20": '''def fixed_20(W, v, x):
    return expected_input_gradient_penalty_gradients(W.numpy(), v.numpy(), x)
''',
            P + "fix21": '''def fixed_21(critic, x):
    weights = critic.get_weights()
    return expected_tanh_critic_penalty_gradients(x, weights[0], weights[1], weights[2])
''',
            P + "fix22": '''def fixed_22(generator, critic, z, real, eps):
    return expected_linear_critic_penalty_gradients(critic.get_weights()[0])
''',
        },
        "scores": scores(**{f"fix{n:02d}_values": 0 for n in range(1, 22)}, fix22_linear=0, fix22_tanh=0),
    },
    # Wrong: the causes the gradient doctor names for each exercise's snippets, copied into the excerpts' dicts
    # in order. The excerpts do not run, and their causes are not the snippets': no naming point.
    "causes_copied_from_the_doctor": {
        "answers": {
            P + "leaving_causes": DOCTOR_COPY + 'causes_1 = copied_from_the_doctor([broken_01, broken_02, broken_03], "ABC")\n',
            P + "watching_causes": DOCTOR_COPY + 'causes_2 = copied_from_the_doctor([broken_04, broken_05, broken_06, broken_07, broken_08], "DEFGH")\n',
            P + "variables_causes": DOCTOR_COPY + 'causes_3 = copied_from_the_doctor([broken_09, broken_10, broken_11, broken_12], "IJKL")\n',
            P + "dead_ends_causes": DOCTOR_COPY + 'causes_4 = copied_from_the_doctor([broken_13, broken_14, broken_15, broken_16], "MNOP")\n',
            P + "nan_causes": DOCTOR_COPY + 'causes_5 = copied_from_the_doctor([broken_17, broken_18, broken_19], "QRS")\n',
            P + "penalty_causes": DOCTOR_COPY + 'causes_6 = copied_from_the_doctor([broken_20, broken_21, broken_22], "TUV")\n',
        },
        "scores": zero(*ALL_CAUSES),
    },
    # Wrong: fix 8 gives the right values, cast back to the input's integer dtype (the prompt asks for floats).
    "fix08_cast_back_to_the_input_dtype": {
        "answers": {
            P + "fix08": '''def fixed_08(x):
    x = tf.convert_to_tensor(x)
    floats = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(floats)
        y = tf.reduce_sum(floats ** 3)
    return tf.cast(tape.gradient(y, floats), x.dtype)
''',
        },
        "scores": zero("fix08_values"),
        "feedback": ["is asked for as floats"],
    },
    # Wrong: fix 22 with the interpolates built on the wrong side (ε multiplies the fake samples). A linear
    # critic's gradient is the same everywhere, so only the tanh critic tells.
    "fix22_eps_on_the_fake_side": {
        "answers": {
            P + "fix22": '''def fixed_22(generator, critic, z, real, eps):
    with tf.GradientTape() as outer:
        fake = generator(z)
        x_hat = eps * fake + (1.0 - eps) * real
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            score = critic(x_hat)
        g = inner.gradient(score, x_hat)
        gp = tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1.0) ** 2)
    return outer.gradient(gp, critic.trainable_variables)
''',
        },
        "scores": zero("fix22_tanh"),
        "feedback": ["ε multiplies the real samples"],
    },
    # Wrong: every fix asks a tape for a gradient, drops it, and returns the closed form; and every fix adds the
    # tape's gradient of another function (ones, minus 1) to the closed form. The values pass, the provenance
    # re-run (every tape result shifted) does not: no fix cell scores.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": provenance_answers("throwaway"),
        "scores": scores(**{f"fix{n:02d}_values": 0 for n in range(1, 22)}, fix22_linear=0, fix22_tanh=0),
        "feedback": ["they do not come from the tape"],
    },
    "tape_of_another_function_plus_the_closed_form": {
        "answers": provenance_answers("other"),
        "scores": scores(**{f"fix{n:02d}_values": 0 for n in range(1, 22)}, fix22_linear=0, fix22_tanh=0),
        "feedback": ["they do not come from the tape"],
    },
}
