"""Synthetic submissions of 02_sources_and_targets for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: q_sum 1, q_weighted 2, vjp_elementwise 1, vjp_linear 2, vjp_softmax 2,
hidden_example 1, hidden_random 2, xent_single 2, xent_batch 2, zeros_dict 1, zeros_list 1 (17 in all).
"""

from . import scores_for

P = "02_sources_and_targets_"


scores = scores_for("02_sources_and_targets")


SUBMISSIONS = {
    # Correct, written another way: a weighted sum instead of output_gradients, the input watched instead of
    # the intermediate values, a hand-written cross-entropy, None replaced by zeros by hand.
    "weighted_sum_and_by_hand": {
        "answers": {
            P + "q": '''def q_gradients(a, b, v=None):
    a, b = tf.Variable(a), tf.Variable(b)
    with tf.GradientTape() as tape:
        Q = 3 * a ** 3 - b ** 2
        target = tf.reduce_sum(Q if v is None else Q * v)
    grad_a, grad_b = tape.gradient(target, [a, b])
    return {"a": grad_a, "b": grad_b}
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        weighted = tf.reduce_sum(f(x) * v)
    return tape.gradient(weighted, x)
''',
            P + "hidden": '''def hidden_layer_gradients(W, x, w, t):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)  # everything computed from x is recorded
        a = tf.tensordot(tf.convert_to_tensor(W), x, axes=1)
        h = tf.tanh(a)
        y = tf.tensordot(tf.convert_to_tensor(w), h, axes=1)
        L = tf.square(y - t)
    return dict(zip(["y", "h", "a"], tape.gradient(L, [y, h, a])))
''',
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    onehot = tf.one_hot(labels, depth=logits.shape[-1], dtype=logits.dtype)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = -tf.reduce_sum(onehot * tf.nn.log_softmax(logits))
    return tape.gradient(loss, logits)
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
    # Correct, written another way: persistent tapes, one gradient call per source, v given as a list of
    # one tensor (one entry for the one target), Keras's loss function, NumPy results.
    "persistent_keras_numpy": {
        "answers": {
            P + "q": '''def q_gradients(a, b, v=None):
    a, b = tf.constant(a), tf.constant(b)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(a)
        tape.watch(b)
        Q = 3 * a * a * a - b * b
    og = None if v is None else tf.constant(v)
    grads = {"a": tape.gradient(Q, a, output_gradients=og).numpy(), "b": tape.gradient(Q, b, output_gradients=og).numpy()}
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
            P + "hidden": '''def hidden_layer_gradients(W, x, w, t):
    W, x, w, t = [tf.constant(value) for value in (W, x, w, t)]
    with tf.GradientTape(persistent=True) as tape:
        a = tf.linalg.matvec(W, x)
        tape.watch(a)
        h = tf.tanh(a)
        y = tf.reduce_sum(w * h)
        L = (y - t) ** 2
    grads = {name: tape.gradient(L, value).numpy() for name, value in (("y", y), ("h", h), ("a", a))}
    del tape
    return grads
''',
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = keras.losses.sparse_categorical_crossentropy(tf.convert_to_tensor(labels), logits, from_logits=True)
        total = tf.reduce_sum(losses)
    return tape.gradient(total, logits).numpy()
''',
            P + "zeros": '''def gradients_or_zeros(loss_fn, params):
    flat = tf.nest.flatten(params)
    with tf.GradientTape(persistent=True) as tape:
        loss = loss_fn(params)
    grads = [tape.gradient(loss, p, unconnected_gradients="zero") for p in flat]
    del tape
    return tf.nest.pack_sequence_as(params, grads)
''',
        },
        "scores": scores(),
    },
    # Correct: everything computed in float32, even for float64 inputs (the checks use float32 tolerances).
    "cast_to_float32": {
        "answers": {
            P + "q": '''def q_gradients(a, b, v=None):
    a, b = tf.cast(a, tf.float32), tf.cast(b, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        Q = 3 * a ** 3 - b ** 2
    v = None if v is None else tf.cast(v, tf.float32)
    return tape.gradient(Q, {"a": a, "b": b}, output_gradients=v)
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x, output_gradients=tf.cast(v, tf.float32))
''',
            P + "hidden": '''def hidden_layer_gradients(W, x, w, t):
    W, x, w, t = (tf.cast(value, tf.float32) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        tape.watch(x)
        a = tf.linalg.matvec(W, x)
        h = tf.tanh(a)
        y = tf.reduce_sum(w * h)
        L = (y - t) ** 2
    return tape.gradient(L, {"y": y, "h": h, "a": a})
''',
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    logits = tf.cast(logits, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return tape.gradient(losses, logits)
''',
        },
        "scores": scores(),
    },
    # Wrong: output_gradients forgotten, so the gradient of the sum comes back where vᵀJ was asked.
    "no_output_gradients": {
        "answers": {
            P + "q": '''def q_gradients(a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        Q = 3 * a ** 3 - b ** 2
    return tape.gradient(Q, {"a": a, "b": b})
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
    },
    # Wrong twice: the Jacobian times v (Jv) where vᵀJ was asked (right only where J is symmetric), from the full
    # Jacobian, which the checks reject first.
    "jv_not_vjp": {
        "answers": {
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    v = tf.convert_to_tensor(v)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    J = tape.jacobian(y, x)
    return tf.tensordot(J, v, axes=len(v.shape))
''',
        },
        "scores": scores(vjp_elementwise=0, vjp_linear=0, vjp_softmax=0),
    },
    # Wrong: the intermediate value a is computed before the tape and nothing is watched: all None.
    "unwatched_intermediates": {
        "answers": {
            P + "hidden": '''def hidden_layer_gradients(W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    a = tf.linalg.matvec(W, x)
    with tf.GradientTape() as tape:
        h = tf.tanh(a)
        y = tf.reduce_sum(w * h)
        L = (y - t) ** 2
    return tape.gradient(L, {"y": y, "h": h, "a": a})
''',
        },
        "scores": scores(hidden_example=0, hidden_random=0),
    },
    # Wrong: the gradient with respect to the probabilities p = softmax(z), not the logits.
    "probabilities_not_logits": {
        "answers": {
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        p = tf.nn.softmax(logits)
        onehot = tf.one_hot(labels, depth=logits.shape[-1], dtype=p.dtype)
        loss = -tf.reduce_sum(onehot * tf.math.log(p))
    return tape.gradient(loss, p)
''',
        },
        "scores": scores(xent_single=0, xent_batch=0),
    },
    # Wrong: the mean cross-entropy of a batch where the sum was asked (right for one example).
    "mean_not_sum": {
        "answers": {
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    return tape.gradient(loss, logits)
''',
        },
        "scores": scores(xent_batch=0),
    },
    # Wrong: None, not zeros, for the parameters the loss does not use.
    "none_not_zeros": {
        "answers": {
            P + "zeros": '''def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    return tape.gradient(loss, params)
''',
        },
        "scores": scores(zeros_dict=0, zeros_list=0),
    },
    # Cheat: every solution returns the answer key's result. Keys refuse to run from student code: no points.
    "calls_answer_keys": {
        "answers": {
            P + "q": '''def q_gradients(a, b, v=None):
    return expected_q_gradients(a, b, np.ones(np.shape(a)) if v is None else v)
''',
            P + "vjp": '''def vjp(f, x, v):
    return expected_square_vjp(x, v)
''',
            P + "hidden": '''def hidden_layer_gradients(W, x, w, t):
    return expected_hidden_layer_gradients(W, x, w, t)
''',
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    return expected_softmax_xent_grad(logits, labels)
''',
            P + "zeros": '''def gradients_or_zeros(loss_fn, params):
    return expected_squared_error_gradients(np.ones((1, 1)), np.ones(1), np.ones(1), 0.0)
''',
        },
        "scores": scores(**{short: 0 for short in ("q_sum", "q_weighted", "vjp_elementwise", "vjp_linear", "vjp_softmax",
                                                   "hidden_example", "hidden_random", "xent_single", "xent_batch",
                                                   "zeros_dict", "zeros_list")}),
    },
    # Correct, with debug output on stderr and a logging.warning in every solution: full marks (the setup cell
    # shows stderr as ordinary output, so nbgrader does not zero the cells).
    "stderr_and_logging": {
        "answers": {
            P + "q": '''import sys
import logging

def q_gradients(a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    print("q_gradients: a =", a, file=sys.stderr)
    logging.warning("q_gradients called with v=%s", v)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        Q = 3 * a ** 3 - b ** 2
    return tape.gradient(Q, {"a": a, "b": b}, output_gradients=None if v is None else tf.convert_to_tensor(v))
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

def hidden_layer_gradients(W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        tape.watch(x)
        a = tf.linalg.matvec(W, x)
        h = tf.tanh(a)
        y = tf.reduce_sum(w * h)
        L = (y - t) ** 2
    print("L =", L.numpy(), file=sys.stderr)
    logging.warning("hidden layer of width %d", h.shape[0])
    return tape.gradient(L, {"y": y, "h": h, "a": a})
''',
            P + "xent": '''import sys
import logging

def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    print("losses:", losses.numpy(), file=sys.stderr)
    logging.warning("cross-entropy of %d classes", logits.shape[-1])
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
    # Cheat: the closed forms the prompts print, typed in, no tape. The checks count the tape calls.
    "closed_forms": {
        "answers": {
            P + "q": '''def q_gradients(a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    v = tf.ones_like(a) if v is None else tf.convert_to_tensor(v)
    return {"a": 9 * a ** 2 * v, "b": -2 * b * v}
''',
            P + "hidden": '''def hidden_layer_gradients(W, x, w, t):
    W, x, w, t = (np.asarray(value, dtype=np.float64) for value in (W, x, w, t))
    h = np.tanh(W @ x)
    dL_dy = 2 * (w @ h - t)
    return {"y": dL_dy, "h": dL_dy * w, "a": dL_dy * w * (1 - h ** 2)}
''',
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    return tf.nn.softmax(logits) - tf.one_hot(labels, depth=logits.shape[-1], dtype=logits.dtype)
''',
        },
        "scores": scores(q_sum=0, q_weighted=0, hidden_example=0, hidden_random=0, xent_single=0, xent_batch=0),
    },
    # Brute force: the full Jacobian J, then vᵀJ by a contraction. The prompt says a VJP never builds J.
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
    },
    # Brute force: J row by row, one gradient call per entry of f(x) on a persistent tape, then vᵀJ.
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
    # Wrong: output_gradients=list(v), the trap of common mistake 2: only v[0] is used (a wrong answer for
    # elementwise functions, an InvalidArgumentError about a reshape for the others).
    "output_gradients_as_list": {
        "answers": {
            P + "q": '''def q_gradients(a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        Q = 3 * a ** 3 - b ** 2
    return tape.gradient(Q, {"a": a, "b": b}, output_gradients=None if v is None else list(v))
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
            P + "q": '''def q_gradients(a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        Q = 3 * a ** 3 - b ** 2
    return tape.gradient(Q, {"a": a, "b": b}, output_gradients=v)
''',
            P + "vjp": '''def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x, output_gradients=tf.convert_to_tensor(v))
''',
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return tape.gradient(losses, logits)
''',
        },
        "scores": scores(q_sum=0, q_weighted=0, vjp_elementwise=0, vjp_linear=0, vjp_softmax=0,
                         xent_single=0, xent_batch=0),
    },
    # Wrong: the cross-entropy written without its minus sign (log p_y): the gradient has the wrong sign.
    "log_without_minus": {
        "answers": {
            P + "xent": '''def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    onehot = tf.one_hot(labels, depth=logits.shape[-1], dtype=logits.dtype)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss = tf.reduce_sum(onehot * tf.nn.log_softmax(logits))
    return tape.gradient(loss, logits)
''',
        },
        "scores": scores(xent_single=0, xent_batch=0),
    },
    # Shortcut: the closed form after a throwaway tape call (central finite differences in float64 where the
    # function is unknown): every count is met and every number is right, but none of them is the tape's.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "q": """def q_gradients(a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        Q = 3 * a ** 3 - b ** 2
    tape.gradient(Q, {"a": a, "b": b}, output_gradients=v)  # asked, then dropped
    v = tf.ones_like(a) if v is None else tf.convert_to_tensor(v)
    return {"a": 9 * a ** 2 * v, "b": -2 * b * v}
""",
            P + "vjp": """def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    tape.gradient(y, x, output_gradients=tf.convert_to_tensor(v))  # one call, as counted, then dropped
    wide, weights, h = tf.cast(x, tf.float64), tf.cast(v, tf.float64), 1e-5
    flat = tf.reshape(wide, [-1])
    g = lambda t: tf.reduce_sum(weights * f(tf.reshape(t, x.shape)))
    steps = h * tf.eye(flat.shape[0], dtype=tf.float64)
    slopes = [(g(flat + steps[j]) - g(flat - steps[j])) / (2 * h) for j in range(flat.shape[0])]
    return tf.cast(tf.reshape(tf.stack(slopes), x.shape), x.dtype)
""",
            P + "hidden": """def hidden_layer_gradients(W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        tape.watch(x)
        L = (tf.reduce_sum(w * tf.tanh(tf.linalg.matvec(W, x))) - t) ** 2
    tape.gradient(L, x)
    W, x, w, t = (value.numpy().astype(np.float64) for value in (W, x, w, t))
    h = np.tanh(W @ x)
    dL_dy = 2 * (w @ h - t)
    return {"y": dL_dy, "h": dL_dy * w, "a": dL_dy * w * (1 - h ** 2)}
""",
            P + "xent": """def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    tape.gradient(losses, logits)
    return tf.nn.softmax(logits) - tf.one_hot(labels, depth=logits.shape[-1], dtype=logits.dtype)
""",
            P + "zeros": """def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        loss = loss_fn(params)
    tape.gradient(loss, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)

    def central_difference(variable):
        start = np.array(variable.numpy())
        slope = np.zeros(start.shape)
        h = 1e-2 if start.dtype == np.float32 else 1e-5
        for index in np.ndindex(start.shape):
            up, down = start.copy(), start.copy()
            up[index] += h
            down[index] -= h
            variable.assign(up)
            high = float(loss_fn(params))
            variable.assign(down)
            low = float(loss_fn(params))
            slope[index] = (high - low) / (float(up[index]) - float(down[index]))
        variable.assign(start)
        return tf.constant(slope, dtype=variable.dtype)

    return tf.nest.map_structure(central_difference, params)
""",
        },
        "scores": scores(q_sum=0, q_weighted=0, vjp_elementwise=0, vjp_linear=0, vjp_softmax=0, hidden_example=0,
                         hidden_random=0, xent_single=0, xent_batch=0, zeros_dict=0, zeros_list=0),
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: the tape's gradient of another function (0 · the right one) plus the closed form.
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "q": """def q_gradients(a, b, v=None):
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        zero = 0 * (3 * a ** 3 - b ** 2)
    grads = tape.gradient(zero, {"a": a, "b": b}, output_gradients=v)
    v = tf.ones_like(a) if v is None else tf.convert_to_tensor(v)
    return {"a": grads["a"] + 9 * a ** 2 * v, "b": grads["b"] - 2 * b * v}
""",
            P + "vjp": """def vjp(f, x, v):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        zero = 0 * f(x)
    start = tape.gradient(zero, x, output_gradients=tf.convert_to_tensor(v))
    wide, weights, h = tf.cast(x, tf.float64), tf.cast(v, tf.float64), 1e-5
    flat = tf.reshape(wide, [-1])
    g = lambda t: tf.reduce_sum(weights * f(tf.reshape(t, x.shape)))
    steps = h * tf.eye(flat.shape[0], dtype=tf.float64)
    slopes = [(g(flat + steps[j]) - g(flat - steps[j])) / (2 * h) for j in range(flat.shape[0])]
    return start + tf.cast(tf.reshape(tf.stack(slopes), x.shape), x.dtype)
""",
            P + "hidden": """def hidden_layer_gradients(W, x, w, t):
    W, x, w, t = (tf.convert_to_tensor(value) for value in (W, x, w, t))
    with tf.GradientTape() as tape:
        a = tf.linalg.matvec(W, x)
        tape.watch(a)
        h = tf.tanh(a)
        y = tf.reduce_sum(w * h)
        zero = 0 * (y - t) ** 2
    grads = tape.gradient(zero, {"y": y, "h": h, "a": a})
    dL_dy = 2 * (y - t)
    return {"y": grads["y"] + dL_dy, "h": grads["h"] + dL_dy * w, "a": grads["a"] + dL_dy * w * (1 - h ** 2)}
""",
            P + "xent": """def softmax_cross_entropy_grad(logits, labels):
    logits = tf.convert_to_tensor(logits)
    with tf.GradientTape() as tape:
        tape.watch(logits)
        zero = 0 * tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    start = tape.gradient(zero, logits)
    return start + tf.nn.softmax(logits) - tf.one_hot(labels, depth=logits.shape[-1], dtype=logits.dtype)
""",
            P + "zeros": """def gradients_or_zeros(loss_fn, params):
    with tf.GradientTape() as tape:
        zero = 0 * loss_fn(params)
    start = tape.gradient(zero, params, unconnected_gradients=tf.UnconnectedGradients.ZERO)

    def central_difference(variable):
        begin = np.array(variable.numpy())
        slope = np.zeros(begin.shape)
        h = 1e-2 if begin.dtype == np.float32 else 1e-5
        for index in np.ndindex(begin.shape):
            up, down = begin.copy(), begin.copy()
            up[index] += h
            down[index] -= h
            variable.assign(up)
            high = float(loss_fn(params))
            variable.assign(down)
            low = float(loss_fn(params))
            slope[index] = (high - low) / (float(up[index]) - float(down[index]))
        variable.assign(begin)
        return tf.constant(slope, dtype=variable.dtype)

    return tf.nest.map_structure(lambda grad, variable: grad + central_difference(variable), start, params)
""",
        },
        "scores": scores(q_sum=0, q_weighted=0, vjp_elementwise=0, vjp_linear=0, vjp_softmax=0, hidden_example=0,
                         hidden_random=0, xent_single=0, xent_batch=0, zeros_dict=0, zeros_list=0),
    },
}
