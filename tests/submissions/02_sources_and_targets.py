"""Synthetic submissions of 02_sources_and_targets for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get; "games": True marks an answer built to game
the checks.
Grade cells and points: q_sum 1, q_weighted 2, vjp_elementwise 1, vjp_linear 2, vjp_softmax 2,
hidden_example 1, hidden_random 2, xent_single 2, xent_batch 2, zeros_dict 1, zeros_list 1 (17 in all).

Every test cell hands the student's function computations made while grading, whose recorded gradient is not
the textbook derivative (notebook 01's pattern): a closed form, finite differences, or either relayed through
the tape, get the visible checks right and lose every cell. The VJP's cells also count how often f runs and how
often a backward pass goes through it (once each), so building J loses them too.
"""

from . import scores_for

P = "02_sources_and_targets_"


scores = scores_for("02_sources_and_targets")
NO_POINTS = scores(**{short: 0 for short in ("q_sum", "q_weighted", "vjp_elementwise", "vjp_linear", "vjp_softmax",
                                             "hidden_example", "hidden_random", "xent_single", "xent_batch",
                                             "zeros_dict", "zeros_list")})

# Finite differences of each exercise's computation, in float64: the generic "formula" a gaming answer relays.
# Each defines _fd (what the exercise returns, as float64 NumPy arrays) for the answers below to use.
FD_Q = '''
def _fd(Q, a, b, v=None):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    weights = np.ones_like(a) if v is None else np.asarray(v, dtype=np.float64)
    total = lambda a, b: float(tf.reduce_sum(weights * Q(tf.constant(a), tf.constant(b))))
    grads, h = {"a": np.zeros_like(a), "b": np.zeros_like(b)}, 1e-6
    for j in range(a.size):
        step = np.zeros_like(a)
        step[j] = h
        grads["a"][j] = (total(a + step, b) - total(a - step, b)) / (2 * h)
        grads["b"][j] = (total(a, b + step) - total(a, b - step)) / (2 * h)
    return grads
'''
FD_VJP = '''
def _fd(f, x, v):
    x, v = np.asarray(x, dtype=np.float64), np.asarray(v, dtype=np.float64)
    total = lambda t: float(tf.reduce_sum(v * f(tf.constant(t))))
    slopes, h = np.zeros_like(x), 1e-6
    for index in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[index] = h
        slopes[index] = (total(x + step) - total(x - step)) / (2 * h)
    return slopes
'''
FD_HIDDEN = '''
def _fd(activation, loss, W, x, w, t):
    W, x, w, t = (np.asarray(value, dtype=np.float64) for value in (W, x, w, t))
    a, h = W @ x, 1e-6
    act = lambda a: np.asarray(activation(tf.constant(a)))
    y = float(np.dot(w, act(a)))
    at = lambda y: float(loss(tf.constant(y, tf.float64), tf.constant(t, tf.float64)))
    dL_dy = (at(y + h) - at(y - h)) / (2 * h)
    dh_da = (act(a + h) - act(a - h)) / (2 * h)  # elementwise
    return {"y": np.float64(dL_dy), "h": dL_dy * w, "a": dL_dy * w * dh_da}
'''
FD_XENT = '''
def _fd(loss, logits, labels):
    z = np.asarray(logits, dtype=np.float64)
    total = lambda z: float(tf.reduce_sum(loss(labels, tf.nn.softmax(tf.constant(z)))))
    slopes, h = np.zeros_like(z), 1e-6
    for index in np.ndindex(z.shape):
        step = np.zeros_like(z)
        step[index] = h
        slopes[index] = (total(z + step) - total(z - step)) / (2 * h)
    return slopes
'''
FD_ZEROS = '''
def _fd(loss_fn, params):
    def slope(variable):
        start = np.array(variable.numpy())
        result, h = np.zeros(start.shape), (1e-2 if start.dtype == np.float32 else 1e-6)
        for index in np.ndindex(start.shape):
            up, down = start.copy(), start.copy()
            up[index] += h
            down[index] -= h
            variable.assign(up)
            high = float(loss_fn(params))
            variable.assign(down)
            low = float(loss_fn(params))
            result[index] = (high - low) / (float(up[index]) - float(down[index]))
        variable.assign(start)
        return result
    return tf.nest.map_structure(slope, params)
'''


SUBMISSIONS = {
    # Correct, written another way: Variables and a weighted sum instead of watch and output_gradients, the input
    # watched instead of the intermediate values, the softmax written out, None replaced by zeros by hand.
    "weighted_sum_and_by_hand": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.Variable(a), tf.Variable(b)
    with tf.GradientTape() as tape:
        target = Q(a, b)
        total = tf.reduce_sum(target if v is None else target * v)
    grad_a, grad_b = tape.gradient(total, [a, b])
    return {"a": grad_a, "b": grad_b}
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        weighted = tf.reduce_sum(f(x) * v)
    return tape.gradient(weighted, x)
''',
            P + "hidden": '''def hidden_layer_gradients(activation, loss, W, x, w, t):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)  # everything computed from x is recorded
        a = tf.tensordot(tf.convert_to_tensor(W), x, axes=1)
        h = activation(a)
        y = tf.tensordot(tf.convert_to_tensor(w), h, axes=1)
        L = loss(y, tf.convert_to_tensor(t))
    return dict(zip(["y", "h", "a"], tape.gradient(L, [y, h, a])))
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        e = tf.exp(logits - tf.reduce_max(logits, axis=-1, keepdims=True))
        total = tf.reduce_sum(loss(labels, e / tf.reduce_sum(e, axis=-1, keepdims=True)))
    return tape.gradient(total, logits)
''',
            P + "zeros": '''def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    grads = tape.gradient(loss, params)
    return tf.nest.map_structure(lambda g, p: tf.zeros_like(p) if g is None else g, grads, params)
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: persistent tapes, one gradient call per source (one backward pass through f in
    # the VJP all the same), v given as a list of one tensor (one entry for the one target), NumPy results.
    "persistent_tape_numpy": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.constant(a), tf.constant(b)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        tape.watch(b)
        target = Q(a, b)
    seed = None if v is None else tf.constant(v)
    grads = {"a": tape.gradient(target, a, output_gradients=seed).numpy(),
             "b": tape.gradient(target, b, output_gradients=seed).numpy()}
    del tape
    return grads
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    result = tape.gradient([y], x, output_gradients=[tf.convert_to_tensor(v, dtype=y.dtype)]).numpy()
    del tape
    return result
''',
            P + "hidden": '''def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = [tf.constant(value) for value in (W, x, w, t)]
    with tf.GradientTape(persistent=True) as tape:
        a = tf.linalg.matvec(W, x)
        tape.watch(a)
        h = activation(a)
        y = tf.reduce_sum(w * h)
        L = loss(y, t)
    grads = {name: tape.gradient(L, value).numpy() for name, value in (("y", y), ("h", h), ("a", a))}
    del tape
    return grads
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(logits)
        losses = loss(tf.convert_to_tensor(labels), keras.activations.softmax(logits, axis=-1))
    grad = tape.gradient(losses, logits).numpy()
    del tape
    return grad
''',
            P + "zeros": '''def gradients_or_zeros(loss_fn, params):
    flat = tf.nest.flatten(params)
    with tf.GradientTape(persistent=True) as tape:
        loss = loss_fn(params)
    grads = [tape.gradient(loss, p, unconnected_gradients="zero").numpy() for p in flat]
    del tape
    return tf.nest.pack_sequence_as(params, grads)
''',
        },
        "scores": scores(),
    },
    # Correct: everything under tf.function, or the tape in a tf.function helper (f runs once per call of the
    # traced function, and its backward pass once).
    "tf_function_everywhere": {
        "answers": {
            P + "q": '''@tf.function
def _q_gradients(Q, a, b, v):
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        target = Q(a, b)
    return tape.gradient(target, {"a": a, "b": b}, output_gradients=v)


def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    return _q_gradients(Q, a, b, None if v is None else tf.convert_to_tensor(v, dtype=a.dtype))
''',
            P + "vjp": '''def vjp(f, x, v):
    @tf.function
    def pullback(x, v):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x, output_gradients=v)

    x = tf.convert_to_tensor(x)
    return pullback(x, tf.convert_to_tensor(v, dtype=x.dtype))
''',
            P + "hidden": '''@tf.function
def hidden_layer_gradients(activation, loss, W, x, w, t):
    with tf.GradientTape() as tape:
        a = tf.linalg.matvec(W, x)
        tape.watch(a)
        h = activation(a)
        y = tf.reduce_sum(w * h)
        L = loss(y, t)
    return tape.gradient(L, {"y": y, "h": h, "a": a})
''',
            P + "xent": '''@tf.function
def logits_gradient(loss, logits, labels):
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = loss(labels, tf.nn.softmax(logits))
    return tape.gradient(losses, logits)
''',
            P + "zeros": '''@tf.function
def _gradients(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    return tape.gradient(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)


def gradients_or_zeros(loss_fn, params):
    return _gradients(loss_fn, params)
''',
        },
        "scores": scores(),
    },
    # Correct: inputs cast to float32 or to float64 whatever they came in, and every result turned into NumPy
    # by a helper named _to_numpy (the checks' helper of the same name is not the student's business).
    "casts_and_a_to_numpy_helper": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.cast(a, tf.float32), tf.cast(b, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        target = Q(a, b)
    v = None if v is None else tf.cast(v, tf.float32)
    return tape.gradient(target, {"a": a, "b": b}, output_gradients=v)
''',
            P + "vjp": '''def _to_numpy(value):
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype=np.float64)


def vjp(f, x, v):
    x = tf.cast(x, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return _to_numpy(tape.gradient(y, x, output_gradients=tf.cast(v, tf.float64)))
''',
            P + "hidden": '''def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = (tf.cast(value, tf.float32) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        tape.watch(x)
        a = tf.linalg.matvec(W, x)
        h = activation(a)
        y = tf.reduce_sum(w * h)
        L = loss(y, t)
    return tape.gradient(L, {"y": y, "h": h, "a": a})
''',
            P + "xent": '''def _to_numpy(value):
    return np.asarray(value)


def logits_gradient(loss, logits, labels):
    logits = tf.cast(logits, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = loss(labels, tf.nn.softmax(logits))
    return _to_numpy(tape.gradient(losses, logits))
''',
            P + "zeros": '''def _to_numpy(nest):
    return tf.nest.map_structure(lambda g: np.asarray(g), nest)


def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    return _to_numpy(tape.gradient(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO))
''',
        },
        "scores": scores(),
    },
    # Correct: tape.jacobian where a loop of gradients would do as well (vᵀJ of Q from its Jacobians, each row of
    # a batch's gradient from the Jacobian of the losses, the Jacobian of a scalar loss). Only the VJP, whose point
    # is not to build J, asks for one backward pass.
    "jacobian_where_loops_work": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        target = Q(a, b)
    J_a, J_b = tape.jacobian(target, [a, b])  # (n, n) each
    v = tf.ones_like(target) if v is None else tf.convert_to_tensor(v, dtype=target.dtype)
    return {"a": tf.linalg.matvec(J_a, v, transpose_a=True), "b": tf.linalg.matvec(J_b, v, transpose_a=True)}
''',
            P + "hidden": '''def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        a = tf.linalg.matvec(W, x)
        tape.watch(a)
        h = activation(a)
        y = tf.reduce_sum(w * h)
        L = loss(y, t)
    return tape.jacobian(L, {"y": y, "h": h, "a": a})  # L is a scalar: its Jacobian is its gradient
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = loss(labels, tf.nn.softmax(logits))
    J = tape.jacobian(losses, logits)  # shape of losses + shape of logits
    return tf.reduce_sum(J, axis=list(range(len(losses.shape)))) if losses.shape.rank else J
''',
            P + "zeros": '''def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    return tape.jacobian(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
        },
        "scores": scores(),
    },
    # Correct, with debug output on stderr and a logging.warning in every solution: full marks (the setup cell
    # shows stderr as ordinary output, so nbgrader does not zero the cells).
    "stderr_and_logging": {
        "answers": {
            P + "q": '''import sys
import logging

def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    print("q_gradients: a =", a, file=sys.stderr)
    logging.warning("q_gradients called with v=%s", v)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        target = Q(a, b)
    return tape.gradient(target, {"a": a, "b": b}, output_gradients=None if v is None else tf.convert_to_tensor(v))
''',
            P + "vjp": '''import sys
import logging

def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    print("vjp: y has shape", y.shape, file=sys.stderr)
    logging.warning("vjp of a target of dtype %s", y.dtype.name)
    return tape.gradient(y, x, output_gradients=tf.constant(v, dtype=y.dtype))
''',
            P + "hidden": '''import sys
import logging

def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        tape.watch(x)
        a = tf.linalg.matvec(W, x)
        h = activation(a)
        y = tf.reduce_sum(w * h)
        L = loss(y, t)
    print("L =", L.numpy(), file=sys.stderr)
    logging.warning("hidden layer of width %d", h.shape[0])
    return tape.gradient(L, {"y": y, "h": h, "a": a})
''',
            P + "xent": '''import sys
import logging

def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = loss(labels, tf.nn.softmax(logits))
    print("losses:", losses.numpy(), file=sys.stderr)
    logging.warning("a loss of %d classes", logits.shape[-1])
    return tape.gradient(losses, logits)
''',
            P + "zeros": '''import sys
import logging

def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    print("loss:", float(loss), file=sys.stderr)
    logging.warning("%d parameters", len(tf.nest.flatten(params)))
    return tape.gradient(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
        },
        "scores": scores(),
    },
    # Wrong: output_gradients forgotten, so the gradient of the sum comes back where vᵀJ was asked.
    "no_output_gradients": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        target = Q(a, b)
    return tape.gradient(target, {"a": a, "b": b})
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
        },
        "scores": scores(q_weighted=0, vjp_elementwise=0, vjp_linear=0, vjp_softmax=0),
        "feedback": ["is output_gradients=v missing?"],
    },
    # Wrong: output_gradients=list(v), the trap of common mistake 2: only v[0] is used (a wrong answer for
    # elementwise functions, an InvalidArgumentError about a reshape for the others).
    "output_gradients_as_list": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        target = Q(a, b)
    return tape.gradient(target, {"a": a, "b": b}, output_gradients=None if v is None else list(v))
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x, output_gradients=list(v))
''',
        },
        "scores": scores(q_weighted=0, vjp_elementwise=0, vjp_linear=0, vjp_softmax=0),
    },
    # Wrong: a constant never watched, so every gradient is None.
    "no_watch": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        target = Q(a, b)
    return tape.gradient(target, {"a": a, "b": b}, output_gradients=v)
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x, output_gradients=tf.convert_to_tensor(v))
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        losses = loss(labels, tf.nn.softmax(logits))
    return tape.gradient(losses, logits)
''',
        },
        "scores": scores(q_sum=0, q_weighted=0, vjp_elementwise=0, vjp_linear=0, vjp_softmax=0,
                         xent_single=0, xent_batch=0),
    },
    # Brute force: the full Jacobian J, then vᵀJ by a contraction (the right numbers). The prompt says a VJP never
    # builds J: the backward passes through f are counted.
    "full_jacobian": {
        "answers": {
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    J = tape.jacobian(y, x)  # shape of y + shape of x
    return tf.tensordot(v, J, axes=len(v.shape)).numpy()
''',
        },
        "scores": scores(vjp_elementwise=0, vjp_linear=0, vjp_softmax=0),
        "feedback": ["one backward pass per row of J"],
    },
    # Brute force: J row by row, one gradient call per entry of f(x) on a persistent tape (f runs once), then vᵀJ.
    "jacobian_row_by_row": {
        "answers": {
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
    flat_y = tf.reshape(y, [-1])
    rows = [tape.gradient(y, x, output_gradients=tf.reshape(tf.one_hot(i, flat_y.shape[0], dtype=y.dtype), y.shape))
            for i in range(flat_y.shape[0])]
    J = tf.stack(rows)
    return tf.tensordot(tf.reshape(tf.cast(v, y.dtype), [-1]), J, axes=1)
''',
        },
        "scores": scores(vjp_elementwise=0, vjp_linear=0, vjp_softmax=0),
    },
    # Wrong: the intermediate value a is computed before the tape and nothing is watched (all None, Exercise 3);
    # the gradient with respect to the probabilities p = softmax(z), not the logits (Exercise 4).
    "intermediates_mixed_up": {
        "answers": {
            P + "hidden": '''def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    a = tf.linalg.matvec(W, x)
    with tf.GradientTape() as tape:
        h = activation(a)
        y = tf.reduce_sum(w * h)
        L = loss(y, t)
    return tape.gradient(L, {"y": y, "h": h, "a": a})
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        p = tf.nn.softmax(logits)
        losses = loss(labels, p)
    return tape.gradient(losses, p)
''',
        },
        "scores": scores(hidden_example=0, hidden_random=0, xent_single=0, xent_batch=0),
        "feedback": ["the gradient with respect to the probabilities p = softmax(z), not the logits z"],
    },
    # Wrong: the mean loss of a batch where the sum was asked (right for one example); None, not zeros, for the
    # parameters the loss does not use.
    "mean_not_sum_and_none_not_zeros": {
        "answers": {
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        mean_loss = tf.reduce_mean(loss(labels, tf.nn.softmax(logits)))
    return tape.gradient(mean_loss, logits)
''',
            P + "zeros": '''def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    return tape.gradient(loss, params)
''',
        },
        "scores": scores(xent_batch=0, zeros_dict=0, zeros_list=0),
        "feedback": ["the gradient of the mean cross-entropy, where the sum was asked"],
    },
    # Cheat: every solution returns the answer key's result. Keys refuse to run from student code: no points.
    "calls_answer_keys": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    return expected_q_gradients(a, b, np.ones(np.shape(a)) if v is None else v)
''',
            P + "vjp": '''def vjp(f, x, v):
    return expected_square_vjp(x, v)
''',
            P + "hidden": '''def hidden_layer_gradients(activation, loss, W, x, w, t):
    return expected_hidden_layer_gradients(W, x, w, t)
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    return expected_softmax_xent_grad(logits, labels)
''',
            P + "zeros": '''def gradients_or_zeros(loss_fn, params):
    return expected_squared_error_gradients(np.ones((1, 1)), np.ones(1), np.ones(1), 0.0)
''',
        },
        "scores": NO_POINTS,
        "games": True,
    },
    # Shortcut: a closed form or finite differences after a throwaway tape call (in the VJP, f run once and one
    # backward pass, as counted, then the closed form of the function f(x) looks like): the numbers of the visible
    # checks are right, but not for the computations made while grading, whose recorded gradient only the tape gives.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        target = Q(a, b)
    tape.gradient(target, {"a": a, "b": b}, output_gradients=v)  # asked, then dropped
    v = tf.ones_like(a) if v is None else tf.convert_to_tensor(v)
    return {"a": 9 * a ** 2 * v, "b": -2 * b * v}  # the tutorial's Q
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)  # f runs once
    tape.gradient(y, x, output_gradients=tf.convert_to_tensor(v, dtype=y.dtype))  # one backward pass, then dropped
    x, y, v = (np.asarray(value, dtype=np.float64) for value in (x, y, v))
    if y.shape == x.shape and np.allclose(y.sum(), 1.0) and np.all(y > 0):  # looks like the softmax
        return y * v - y * np.dot(y.ravel(), v.ravel())
    return 2 * x * v  # the closed form of x²
''',
            P + "hidden": '''def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = loss(tf.reduce_sum(w * activation(tf.linalg.matvec(W, x))), t)
    tape.gradient(L, x)
    W, x, w, t = (value.numpy().astype(np.float64) for value in (W, x, w, t))
    h = np.tanh(W @ x)  # the example's tanh and squared error
    dL_dy = 2 * (w @ h - t)
    return {"y": dL_dy, "h": dL_dy * w, "a": dL_dy * w * (1 - h ** 2)}
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = loss(labels, tf.nn.softmax(logits))
    tape.gradient(losses, logits)
    return tf.nn.softmax(logits) - tf.one_hot(labels, depth=logits.shape[-1], dtype=logits.dtype)
''',
            P + "zeros": FD_ZEROS + '''

def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    tape.gradient(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return _fd(loss_fn, params)
''',
        },
        "scores": NO_POINTS,
        "games": True,
        "feedback": ["only the tape gives"],
    },
    # Shortcut: the tape's gradient of another function (0 · the right one) plus a closed form or finite differences.
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "q": FD_Q + '''

def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        zero = 0 * Q(a, b)
    grads = tape.gradient(zero, {"a": a, "b": b}, output_gradients=None if v is None else tf.convert_to_tensor(v))
    slopes = _fd(Q, a, b, v)
    return {name: grads[name] + tf.cast(slopes[name], a.dtype) for name in grads}
''',
            P + "vjp": FD_VJP + '''

def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        zero = 0 * f(x)
    start = tape.gradient(zero, x, output_gradients=tf.convert_to_tensor(v))
    return start + tf.cast(_fd(f, x, v), x.dtype)
''',
            P + "hidden": FD_HIDDEN + '''

def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        a = tf.linalg.matvec(W, x)
        tape.watch(a)
        h = activation(a)
        y = tf.reduce_sum(w * h)
        zero = 0 * loss(y, t)
    grads = tape.gradient(zero, {"y": y, "h": h, "a": a})
    slopes = _fd(activation, loss, W, x, w, t)
    return {name: grads[name] + tf.cast(slopes[name], W.dtype) for name in grads}
''',
            P + "xent": FD_XENT + '''

def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        zero = 0 * loss(labels, tf.nn.softmax(logits))
    return tape.gradient(zero, logits) + tf.cast(_fd(loss, logits, labels), logits.dtype)
''',
            P + "zeros": FD_ZEROS + '''

def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        zero = 0 * loss_fn(params)
    start = tape.gradient(zero, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return tf.nest.map_structure(lambda grad, slope: grad + tf.cast(slope, grad.dtype), start, _fd(loss_fn, params))
''',
        },
        "scores": NO_POINTS,
        "games": True,
    },
    # Relay: finite differences (the tutorial's closed form in Exercise 1) handed back through the tape as the
    # gradient of sum(tf.stop_gradient(g) * x), so the answer is what tape.gradient returned.
    "relay_through_stop_gradient": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    weights = tf.ones_like(a) if v is None else tf.convert_to_tensor(v, dtype=a.dtype)
    formula = {"a": 9 * a ** 2 * weights, "b": -2 * b * weights}
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        relay = tf.reduce_sum(tf.stop_gradient(formula["a"]) * a) + tf.reduce_sum(tf.stop_gradient(formula["b"]) * b)
    return tape.gradient(relay, {"a": a, "b": b})
''',
            P + "vjp": FD_VJP + '''

def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    g = tf.constant(_fd(f, x, v), dtype=x.dtype)
    with tf.GradientTape() as tape:
        tape.watch(x)
        relay = tf.reduce_sum(tf.stop_gradient(g) * x)
    return tape.gradient(relay, x)
''',
            P + "hidden": FD_HIDDEN + '''

def hidden_layer_gradients(activation, loss, W, x, w, t):
    slopes = _fd(activation, loss, W, x, w, t)
    dtype = tf.convert_to_tensor(W).dtype
    sources = {name: tf.constant(np.zeros(np.shape(value)), dtype=dtype) for name, value in slopes.items()}
    with tf.GradientTape() as tape:
        tape.watch(sources)
        relay = sum(tf.reduce_sum(tf.stop_gradient(tf.constant(slopes[name], dtype=dtype)) * sources[name])
                    for name in sources)
    return tape.gradient(relay, sources)
''',
            P + "xent": FD_XENT + '''

def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    g = tf.constant(_fd(loss, logits, labels), dtype=logits.dtype)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        relay = tf.reduce_sum(tf.stop_gradient(g) * logits)
    return tape.gradient(relay, logits)
''',
            P + "zeros": FD_ZEROS + '''

def gradients_or_zeros(loss_fn, params):
    slopes = _fd(loss_fn, params)
    with tf.GradientTape() as tape:
        relay = tf.add_n([tf.reduce_sum(tf.stop_gradient(tf.constant(s, dtype=p.dtype)) * p)
                          for s, p in zip(tf.nest.flatten(slopes), tf.nest.flatten(params))])
    return tape.gradient(relay, params)
''',
        },
        "scores": NO_POINTS,
        "games": True,
    },
    # Relay: finite differences handed to the tape as output_gradients of the identity, which returns them as they are.
    "formula_as_output_gradients": {
        "answers": {
            P + "q": FD_Q + '''

def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    slopes = _fd(Q, a, b, v)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        same = [tf.identity(a), tf.identity(b)]
    grads = tape.gradient(same, [a, b], output_gradients=[tf.constant(slopes["a"], a.dtype), tf.constant(slopes["b"], b.dtype)])
    return {"a": grads[0], "b": grads[1]}
''',
            P + "vjp": FD_VJP + '''

def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        same = tf.identity(x)
    return tape.gradient(same, x, output_gradients=tf.constant(_fd(f, x, v), dtype=x.dtype))
''',
            P + "hidden": FD_HIDDEN + '''

def hidden_layer_gradients(activation, loss, W, x, w, t):
    slopes = _fd(activation, loss, W, x, w, t)
    dtype = tf.convert_to_tensor(W).dtype
    grads = {}
    for name, slope in slopes.items():
        source = tf.zeros(np.shape(slope), dtype=dtype)
        with tf.GradientTape() as tape:
            tape.watch(source)
            same = tf.identity(source)
        grads[name] = tape.gradient(same, source, output_gradients=tf.constant(slope, dtype=dtype))
    return grads
''',
            P + "xent": FD_XENT + '''

def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        same = tf.identity(logits)
    return tape.gradient(same, logits, output_gradients=tf.constant(_fd(loss, logits, labels), dtype=logits.dtype))
''',
            P + "zeros": FD_ZEROS + '''

def gradients_or_zeros(loss_fn, params):
    slopes = _fd(loss_fn, params)
    flat = tf.nest.flatten(params)
    with tf.GradientTape() as tape:
        same = [tf.identity(p) for p in flat]
    grads = tape.gradient(same, flat, output_gradients=[tf.constant(s, dtype=p.dtype)
                                                         for s, p in zip(tf.nest.flatten(slopes), flat)])
    return tf.nest.pack_sequence_as(params, grads)
''',
        },
        "scores": NO_POINTS,
        "games": True,
    },
    # Relay: a tf.custom_gradient whose gradient function returns finite differences (the closed forms of the
    # examples in Exercises 1 and 4), so the tape hands back a formula.
    "custom_gradient_returning_a_formula": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    weights = tf.ones_like(a) if v is None else tf.convert_to_tensor(v, dtype=a.dtype)

    @tf.custom_gradient
    def surrogate(a, b):
        return tf.reduce_sum(a + b), lambda upstream: (upstream * 9 * a ** 2 * weights, upstream * -2 * b * weights)

    with tf.GradientTape() as tape:
        tape.watch([a, b])
        value = surrogate(a, b)
    return tape.gradient(value, {"a": a, "b": b})
''',
            P + "vjp": FD_VJP + '''

def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    slopes = tf.constant(_fd(f, x, v), dtype=x.dtype)

    @tf.custom_gradient
    def surrogate(x):
        return tf.reduce_sum(x), lambda upstream: upstream * slopes

    with tf.GradientTape() as tape:
        tape.watch(x)
        value = surrogate(x)
    return tape.gradient(value, x)
''',
            P + "hidden": FD_HIDDEN + '''

def hidden_layer_gradients(activation, loss, W, x, w, t):
    slopes = _fd(activation, loss, W, x, w, t)
    dtype = tf.convert_to_tensor(W).dtype
    grads = {}
    for name, slope in slopes.items():
        source, slope = tf.zeros(np.shape(slope), dtype=dtype), tf.constant(slope, dtype=dtype)

        @tf.custom_gradient
        def surrogate(s):
            return tf.reduce_sum(s), lambda upstream: upstream * slope

        with tf.GradientTape() as tape:
            tape.watch(source)
            value = surrogate(source)
        grads[name] = tape.gradient(value, source)
    return grads
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    formula = tf.nn.softmax(logits) - tf.one_hot(labels, depth=logits.shape[-1], dtype=logits.dtype)

    @tf.custom_gradient
    def surrogate(z):
        return tf.reduce_sum(z), lambda upstream: upstream * formula

    with tf.GradientTape() as tape:
        tape.watch(logits)
        value = surrogate(logits)
    return tape.gradient(value, logits)
''',
            P + "zeros": FD_ZEROS + '''

def gradients_or_zeros(loss_fn, params):
    slopes = [tf.constant(s, dtype=p.dtype) for s, p in zip(tf.nest.flatten(_fd(loss_fn, params)), tf.nest.flatten(params))]
    flat = tf.nest.flatten(params)

    @tf.custom_gradient
    def surrogate(*values):
        return tf.add_n([tf.reduce_sum(value) for value in values]), lambda upstream: [upstream * s for s in slopes]

    with tf.GradientTape() as tape:
        value = surrogate(*[tf.convert_to_tensor(p) for p in flat])
    return tf.nest.pack_sequence_as(params, tape.gradient(value, flat))
''',
        },
        "scores": NO_POINTS,
        "games": True,
    },
    # Shortcut: finite differences inside tf.numpy_function, as if it were an operation of the graph.
    "numpy_function_finite_differences": {
        "answers": {
            P + "q": FD_Q + '''

def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    weights = tf.ones_like(a) if v is None else tf.convert_to_tensor(v, dtype=a.dtype)
    both = tf.numpy_function(lambda a, b, w: tuple(_fd(Q, a, b, w).values()), [a, b, weights], [tf.float64, tf.float64])
    return {"a": tf.cast(both[0], a.dtype), "b": tf.cast(both[1], a.dtype)}
''',
            P + "vjp": FD_VJP + '''

def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    return tf.cast(tf.numpy_function(lambda x, v: _fd(f, x, v), [x, tf.convert_to_tensor(v, dtype=x.dtype)], tf.float64), x.dtype)
''',
            P + "hidden": FD_HIDDEN + '''

def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    y, h, a = tf.numpy_function(lambda *values: tuple(_fd(activation, loss, *values).values()), [W, x, w, t],
                                [tf.float64, tf.float64, tf.float64])
    return {"y": y, "h": h, "a": a}
''',
            P + "xent": FD_XENT + '''

def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    return tf.numpy_function(lambda z, y: _fd(loss, z, y), [logits, tf.convert_to_tensor(labels)], tf.float64)
''',
            P + "zeros": FD_ZEROS + '''

def gradients_or_zeros(loss_fn, params):
    flat = tf.nest.flatten(params)
    slopes = tf.numpy_function(lambda: tf.nest.flatten(_fd(loss_fn, params)), [], [tf.float64] * len(flat))
    return tf.nest.pack_sequence_as(params, [tf.cast(s, p.dtype) for s, p in zip(slopes, flat)])
''',
        },
        "scores": NO_POINTS,
        "games": True,
    },
    # Shortcut: the tape while tf.function runs eagerly (the old provenance re-run turned that on), closed forms and
    # finite differences otherwise. Nothing is switched while graded, so the shortcut is all the checks see.
    "sniffs_eager_mode": {
        "answers": {
            P + "q": '''def q_gradients(Q, a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    if tf.config.functions_run_eagerly():
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            target = Q(a, b)
        return tape.gradient(target, {"a": a, "b": b}, output_gradients=v)
    v = tf.ones_like(a) if v is None else tf.convert_to_tensor(v)
    return {"a": 9 * a ** 2 * v, "b": -2 * b * v}
''',
            P + "vjp": FD_VJP + '''

def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    if tf.config.functions_run_eagerly():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return tape.gradient(y, x, output_gradients=tf.convert_to_tensor(v))
    return _fd(f, x, v)
''',
            P + "hidden": '''def hidden_layer_gradients(activation, loss, W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    if tf.config.functions_run_eagerly():
        with tf.GradientTape() as tape:
            a = tf.linalg.matvec(W, x)
            tape.watch(a)
            h = activation(a)
            y = tf.reduce_sum(w * h)
            L = loss(y, t)
        return tape.gradient(L, {"y": y, "h": h, "a": a})
    h = tf.tanh(tf.linalg.matvec(W, x))
    dL_dy = 2 * (tf.reduce_sum(w * h) - t)
    return {"y": dL_dy, "h": dL_dy * w, "a": dL_dy * w * (1 - h ** 2)}
''',
            P + "xent": '''def logits_gradient(loss, logits, labels):
    logits = tf.convert_to_tensor(logits)
    if tf.config.functions_run_eagerly():
        with tf.GradientTape() as tape:
            tape.watch(logits)
            losses = loss(labels, tf.nn.softmax(logits))
        return tape.gradient(losses, logits)
    return tf.nn.softmax(logits) - tf.one_hot(labels, depth=logits.shape[-1], dtype=logits.dtype)
''',
            P + "zeros": FD_ZEROS + '''

def gradients_or_zeros(loss_fn, params):
    if tf.config.functions_run_eagerly():
        with tf.GradientTape() as tape:
            loss = loss_fn(params)
        return tape.gradient(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return _fd(loss_fn, params)
''',
        },
        "scores": NO_POINTS,
        "games": True,
    },
}
