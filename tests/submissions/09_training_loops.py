"""Synthetic submissions of 09_training_loops for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: sgd_step_keras 2, sgd_step_module 1, train_keras 2, train_module 1, clip_values 2,
regularized_values 2, per_example_values 2 (12 in all).
"""

from . import scores_for

P = "09_training_loops_"


scores = scores_for("09_training_loops")

ZERO = dict(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0, clip_values=0,
            regularized_values=0, per_example_values=0)


# The least-squares gradients of a linear model (Keras Dense(1) or a module with w and b), by hand: the kernel is the
# Variable of rank 2, the bias the other; the L2 penalties of a Keras layer are read from its regularizers.
CLOSED_FORM_GRADIENTS = """import numpy as np


def closed_form_gradients(model, X, y):
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    residual = np.asarray(model(tf.cast(X, model.trainable_variables[0].dtype)), dtype=np.float64) - y
    layer = model.layers[-1] if hasattr(model, "layers") else None
    grads = []
    for variable in model.trainable_variables:
        value = variable.numpy().astype(np.float64)
        if len(variable.shape) == 2:
            grad, regularizer = 2 / len(X) * X.T @ residual, getattr(layer, "kernel_regularizer", None)
        else:
            grad, regularizer = 2 / len(X) * residual.sum(axis=0), getattr(layer, "bias_regularizer", None)
        if regularizer is not None:
            grad = grad + 2 * float(regularizer.l2) * value
        grads.append(grad)
    return grads
"""


SUBMISSIONS = {
    # Correct, written another way: assign_sub instead of an optimizer, NumPy results, Exercise 2 built on
    # Exercise 1 under tf.function-free eager code, clipping and per-example gradients written by hand
    # (vectorized_map), sum(model.losses) for the penalty.
    "assign_sub_numpy_by_hand": {
        "answers": {
            P + "sgd_step": '''def sgd_step(model, X, y, lr):
    with tf.GradientTape() as tape:
        predictions = model(X)
        loss = tf.reduce_mean(tf.square(predictions - y))
    grads = tape.gradient(loss, model.trainable_variables)
    for variable, grad in zip(model.trainable_variables, grads):
        variable.assign_sub(lr * grad)
    return loss.numpy()
''',
            P + "train": '''def train(model, X, y, steps, lr):
    return [float(sgd_step(model, X, y, lr)) for _ in range(steps)]
''',
            P + "clip": '''def clip_gradients(grads, max_norm):
    present = [np.asarray(g, dtype=np.float64) for g in grads if g is not None]
    norm = np.sqrt(sum(np.sum(g ** 2) for g in present))
    scale = max_norm / max(norm, max_norm)
    return [None if g is None else np.asarray(g) * scale for g in grads]
''',
            P + "regularized": '''def regularized_loss_and_gradients(model, X, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2) + sum(model.losses)
    grads = tape.gradient(loss, model.trainable_variables)
    return loss.numpy(), [g.numpy() for g in grads]
''',
            P + "per_example": '''def per_example_gradients(w, X, y):
    X = tf.cast(X, w.dtype)
    y = tf.cast(y, w.dtype)

    def one(example):
        x_i, y_i = example
        with tf.GradientTape() as tape:
            loss_i = (tf.tensordot(x_i, w, 1) - y_i) ** 2
        return tape.gradient(loss_i, w)

    return tf.vectorized_map(one, (X, y)).numpy()
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: one optimizer kept for the loop under tf.function, the loss history as a
    # tensor, clip_by_global_norm with the Variables' gradients in a tuple, the penalty added in a second
    # statement inside the tape, a persistent tape for the jacobian.
    "tf_function_and_tuples": {
        "answers": {
            P + "sgd_step": '''def sgd_step(model, X, y, lr):
    optimizer = keras.optimizers.SGD(learning_rate=lr)
    variables = model.trainable_variables
    with tf.GradientTape(persistent=True) as tape:
        error = model(X) - y
        loss = tf.reduce_sum(error ** 2) / tf.cast(tf.shape(error)[0], error.dtype)
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
    return loss
''',
            P + "train": '''def train(model, X, y, steps, lr):
    optimizer = keras.optimizers.SGD(learning_rate=lr)

    @tf.function
    def step(X, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(X) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return tf.stack([step(X, y) for _ in range(steps)])
''',
            P + "clip": '''def clip_gradients(grads, max_norm):
    return tuple(tf.clip_by_global_norm(list(grads), max_norm)[0])
''',
            P + "regularized": '''def regularized_loss_and_gradients(model, X, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.math.squared_difference(model(X), y))
        for penalty in model.losses:
            loss += penalty
    return loss, tape.gradient(loss, model.trainable_variables)
''',
            P + "per_example": '''def per_example_gradients(w, X, y):
    with tf.GradientTape(persistent=True) as tape:
        residual = tf.linalg.matvec(tf.convert_to_tensor(X, dtype=w.dtype), w) - tf.convert_to_tensor(y, dtype=w.dtype)
        losses = tf.square(residual)
    jac = tape.jacobian(losses, w)
    del tape
    return jac
''',
        },
        "scores": scores(),
    },
    # Wrong: the summed squared errors instead of their mean (Ex 1 and 2: steps N times too long; Ex 4 too).
    "sum_not_mean": {
        "answers": {
            P + "sgd_step": '''def sgd_step(model, X, y, lr):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((model(X) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    keras.optimizers.SGD(learning_rate=lr).apply_gradients(zip(grads, model.trainable_variables))
    return loss
''',
            P + "train": '''def train(model, X, y, steps, lr):
    return [sgd_step(model, X, y, lr) for _ in range(steps)]
''',
            P + "regularized": '''def regularized_loss_and_gradients(model, X, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((model(X) - y) ** 2) + tf.add_n(model.losses)
    return loss, tape.gradient(loss, model.trainable_variables)
''',
        },
        "scores": scores(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0, regularized_values=0),
        "feedback": ["It equals the sum of the squared errors"],
    },
    # Wrong: the loss computed after the tape's block (Ex 1, 2, 4, 5): every gradient is None, and the
    # optimizer says "No gradients provided for any variable" (explained by the setup cell).
    "loss_outside_the_tape": {
        "answers": {
            P + "sgd_step": '''def sgd_step(model, X, y, lr):
    with tf.GradientTape() as tape:
        predictions = model(X)
    loss = tf.reduce_mean((predictions - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    keras.optimizers.SGD(learning_rate=lr).apply_gradients(zip(grads, model.trainable_variables))
    return loss
''',
            P + "train": '''def train(model, X, y, steps, lr):
    history = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            pass
        loss = tf.reduce_mean((model(X) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        for variable, grad in zip(model.trainable_variables, grads):
            variable.assign_sub(lr * grad)
        history.append(loss)
    return history
''',
            P + "regularized": '''def regularized_loss_and_gradients(model, X, y):
    with tf.GradientTape() as tape:
        data_loss = tf.reduce_mean((model(X) - y) ** 2)
    loss = data_loss + sum(model.losses)
    return loss, tape.gradient(loss, model.trainable_variables)
''',
            P + "per_example": '''def per_example_gradients(w, X, y):
    with tf.GradientTape() as tape:
        residual = tf.linalg.matvec(tf.convert_to_tensor(X, dtype=w.dtype), w) - y
    return tape.jacobian(residual ** 2, w)
''',
        },
        "scores": scores(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0, regularized_values=0,
                         per_example_values=0),
        "feedback": ["(ValueError: No gradients provided for any variable.)"],
    },
    # Wrong: steps uphill (w + lr·g) in Ex 1 and 2.
    "step_uphill": {
        "answers": {
            P + "sgd_step": '''def sgd_step(model, X, y, lr):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    for variable, grad in zip(model.trainable_variables, grads):
        variable.assign_add(lr * grad)
    return loss
''',
            P + "train": '''def train(model, X, y, steps, lr):
    return [float(sgd_step(model, X, y, lr)) for _ in range(steps)]
''',
        },
        "scores": scores(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0),
        "feedback": ["It equals a step uphill"],
    },
    # Wrong: the Variables updated with the loss instead of its gradient.
    "loss_instead_of_gradient": {
        "answers": {
            P + "sgd_step": '''def sgd_step(model, X, y, lr):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2)
    for variable in model.trainable_variables:
        variable.assign_sub(lr * loss * tf.ones_like(variable))
    return loss
''',
        },
        "scores": scores(sgd_step_keras=0, sgd_step_module=0),
        "feedback": ["It equals w - lr"],
    },
    # Wrong: Ex 1 by the closed form (NumPy), no tape: the numbers are right, TapeCalls refuses them;
    # Ex 2 sets the weights to np.linalg.lstsq and makes up a history.
    "closed_forms_by_hand": {
        "answers": {
            P + "sgd_step": '''def sgd_step(model, X, y, lr):
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    dtype = model.trainable_variables[0].numpy().dtype
    residual = np.asarray(model(X.astype(dtype)), dtype=np.float64) - y
    for variable in model.trainable_variables:
        if len(variable.shape) == 2:
            variable.assign((variable.numpy() - lr * 2 / len(X) * X.T @ residual).astype(dtype))
        else:
            variable.assign((variable.numpy() - lr * 2 / len(X) * residual.sum(axis=0)).astype(dtype))
    return np.mean(residual ** 2)
''',
            P + "train": '''def train(model, X, y, steps, lr):
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    A = np.c_[X, np.ones(len(X))]
    best = np.linalg.lstsq(A, y[:, 0], rcond=None)[0]
    dtype = model.trainable_variables[0].numpy().dtype
    first = float(np.mean((np.asarray(model(X.astype(dtype))) - y) ** 2))
    for variable in model.trainable_variables:
        value = best[:-1].reshape(-1, 1) if len(variable.shape) == 2 else best[-1:]
        variable.assign(value.astype(dtype))
    last = float(np.mean((A @ best - y[:, 0]) ** 2))
    return np.geomspace(first, last, steps)
''',
        },
        "scores": scores(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0),
        "feedback": ["asked no tape for its answer"],
    },
    # Wrong: each loss recorded after its step (Ex 2).
    "history_after_each_step": {
        "answers": {
            P + "train": '''def train(model, X, y, steps, lr):
    optimizer = keras.optimizers.SGD(learning_rate=lr)
    history = []
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(X) - y) ** 2)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        history.append(float(tf.reduce_mean((model(X) - y) ** 2)))
    return history
''',
        },
        "scores": scores(train_keras=0, train_module=0),
        "feedback": ["It equals the losses after each step"],
    },
    # Wrong: each gradient clipped by itself (tf.clip_by_norm), which only the unchanged cases survive.
    "clip_each_gradient": {
        "answers": {
            P + "clip": '''def clip_gradients(grads, max_norm):
    return [None if g is None else tf.clip_by_norm(g, max_norm) for g in grads]
''',
        },
        "scores": scores(clip_values=0),
        "feedback": ["It equals that gradient clipped by itself"],
    },
    # Wrong: the pair that tf.clip_by_global_norm returns, instead of the list.
    "clip_returns_the_pair": {
        "answers": {
            P + "clip": '''def clip_gradients(grads, max_norm):
    return tf.clip_by_global_norm(grads, max_norm)
''',
        },
        "scores": scores(clip_values=0),
    },
    # Wrong: model.losses forgotten (Ex 4).
    "forgot_model_losses": {
        "answers": {
            P + "regularized": '''def regularized_loss_and_gradients(model, X, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2)
    return loss, tape.gradient(loss, model.trainable_variables)
''',
        },
        "scores": scores(regularized_values=0),
        "feedback": ["It equals the mean squared error alone"],
    },
    # Wrong: model.losses read before the tape (the loss is right, the gradient lacks the penalty).
    "losses_read_before_the_tape": {
        "answers": {
            P + "regularized": '''def regularized_loss_and_gradients(model, X, y):
    penalty = sum(model.losses)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2) + penalty
    return loss, tape.gradient(loss, model.trainable_variables)
''',
        },
        "scores": scores(regularized_values=0),
        "feedback": ["It equals the gradient without the penalty"],
    },
    # Wrong: Ex 5 by a Python loop with a tape per example (N gradient calls, right numbers).
    "one_tape_per_example": {
        "answers": {
            P + "per_example": '''def per_example_gradients(w, X, y):
    X = tf.convert_to_tensor(X, dtype=w.dtype)
    y = tf.convert_to_tensor(y, dtype=w.dtype)
    rows = []
    for i in range(X.shape[0]):
        with tf.GradientTape() as tape:
            loss_i = (tf.reduce_sum(X[i] * w) - y[i]) ** 2
        rows.append(tape.gradient(loss_i, w))
    return tf.stack(rows)
''',
        },
        "scores": scores(per_example_values=0),
        "feedback": ["called a tape 5 time(s)"],
    },
    # Wrong: the gradient of the mean loss, repeated in every row.
    "mean_gradient_in_every_row": {
        "answers": {
            P + "per_example": '''def per_example_gradients(w, X, y):
    X = tf.convert_to_tensor(X, dtype=w.dtype)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.linalg.matvec(X, w) - y) ** 2)
    g = tape.gradient(loss, w)
    return tf.tile(g[None, :], [X.shape[0], 1])
''',
        },
        "scores": scores(per_example_values=0),
        "feedback": ["It equals the gradient of the mean loss in every row"],
    },
    # Wrong: Ex 5 by its closed form, no tape.
    "per_example_closed_form": {
        "answers": {
            P + "per_example": '''def per_example_gradients(w, X, y):
    w = np.asarray(w.numpy(), dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    return 2 * (X @ w - np.asarray(y, dtype=np.float64))[:, None] * X
''',
        },
        "scores": scores(per_example_values=0),
    },
    # Wrong: every solution returns what the matching answer key gives (keys refuse to run from student code).
    "calls_answer_keys": {
        "answers": {
            P + "sgd_step": '''def sgd_step(model, X, y, lr):
    w, b = model.trainable_variables[0], model.trainable_variables[1]
    if len(w.shape) != 2:
        w, b = b, w
    loss, w_new, b_new = expected_sgd_step(w.numpy(), b.numpy(), X, y, lr)
    w.assign(w_new.astype(w.numpy().dtype))
    b.assign(b_new.astype(b.numpy().dtype))
    return loss
''',
            P + "train": '''def train(model, X, y, steps, lr):
    w, b = model.trainable_variables[0], model.trainable_variables[1]
    if len(w.shape) != 2:
        w, b = b, w
    history, w_new, b_new = expected_gradient_descent(w.numpy(), b.numpy(), X, y, lr, steps)
    w.assign(w_new.astype(w.numpy().dtype))
    b.assign(b_new.astype(b.numpy().dtype))
    return history
''',
            P + "clip": '''def clip_gradients(grads, max_norm):
    return expected_clipped(grads, max_norm)
''',
            P + "regularized": '''def regularized_loss_and_gradients(model, X, y):
    w, b = model.get_weights()
    loss, dw, db = expected_regularized(w, b, X, y, 0.3)
    return loss, [dw, db]
''',
            P + "per_example": '''def per_example_gradients(w, X, y):
    return expected_per_example_gradients(w.numpy(), X, y)
''',
        },
        "scores": scores(**ZERO),
    },
    # Correct, with debug output to stderr and logging.warning in every solution: full marks.
    "debug_output_to_stderr": {
        "answers": {
            P + "sgd_step": '''import logging
import sys

def sgd_step(model, X, y, lr):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    print("debug: loss", float(loss), file=sys.stderr)
    logging.warning("sgd_step with lr=%s", lr)
    keras.optimizers.SGD(learning_rate=lr).apply_gradients(zip(grads, model.trainable_variables))
    return loss
''',
            P + "train": '''import logging
import sys

def train(model, X, y, steps, lr):
    history = [sgd_step(model, X, y, lr) for _ in range(steps)]
    print("debug: final loss", float(history[-1]), file=sys.stderr)
    logging.warning("train done")
    return history
''',
            P + "clip": '''import logging
import sys

def clip_gradients(grads, max_norm):
    clipped, norm = tf.clip_by_global_norm(grads, max_norm)
    print("debug: global norm", float(norm), file=sys.stderr)
    logging.warning("clipped")
    return clipped
''',
            P + "regularized": '''import logging
import sys

def regularized_loss_and_gradients(model, X, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2) + sum(model.losses)
    print("debug: penalties", model.losses, file=sys.stderr)
    logging.warning("regularized")
    return loss, tape.gradient(loss, model.trainable_variables)
''',
            P + "per_example": '''import logging
import sys

def per_example_gradients(w, X, y):
    with tf.GradientTape() as tape:
        losses = (tf.linalg.matvec(tf.convert_to_tensor(X, w.dtype), w) - tf.convert_to_tensor(y, w.dtype)) ** 2
    jac = tape.jacobian(losses, w)
    print("debug: shape", jac.shape, file=sys.stderr)
    logging.warning("per-example done")
    return jac
''',
        },
        "scores": scores(),
    },
    # Shortcut: every tape exercise asks the tape as the checks used to demand, drops its result, and uses a
    # closed form of the least-squares gradients instead (the kernel by its rank, the bias, the L2 penalties read from
    # the layers' regularizers). The numbers are right; the re-run with the tape's results moved finds they do not
    # follow, so every tape exercise scores 0 (clipping is not about a tape and keeps its points).
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "sgd_step": CLOSED_FORM_GRADIENTS + """

def sgd_step(model, X, y, lr):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2)
    tape.gradient(loss, model.trainable_variables)  # asked, then dropped
    for variable, grad in zip(model.trainable_variables, closed_form_gradients(model, X, y)):
        variable.assign_sub((lr * grad).astype(variable.numpy().dtype))
    return loss
""",
            P + "train": """def train(model, X, y, steps, lr):
    return [float(sgd_step(model, X, y, lr)) for _ in range(steps)]
""",
            P + "regularized": CLOSED_FORM_GRADIENTS + """

def regularized_loss_and_gradients(model, X, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2) + sum(model.losses)
    tape.gradient(loss, model.trainable_variables)  # asked, then dropped
    return loss, closed_form_gradients(model, X, y)
""",
            P + "per_example": """def per_example_gradients(w, X, y):
    with tf.GradientTape() as tape:
        losses = (tf.linalg.matvec(tf.cast(X, w.dtype), w) - tf.cast(y, w.dtype)) ** 2
    tape.jacobian(losses, w)  # one call, as asked, then dropped
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return 2 * (X @ w.numpy().astype(np.float64) - y)[:, None] * X
""",
        },
        "scores": scores(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0, regularized_values=0,
                         per_example_values=0),
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: the tape's gradient of another function (0 · the loss) plus the closed form: the same numbers, but
    # they do not move with what the tape returns.
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "sgd_step": CLOSED_FORM_GRADIENTS + """

def sgd_step(model, X, y, lr):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2)
        zero = 0 * loss
    grads = tape.gradient(zero, model.trainable_variables)
    for variable, grad, closed in zip(model.trainable_variables, grads, closed_form_gradients(model, X, y)):
        variable.assign_sub(lr * (grad + closed.astype(variable.numpy().dtype)))
    return loss
""",
            P + "train": """def train(model, X, y, steps, lr):
    return np.array([float(sgd_step(model, X, y, lr)) for _ in range(steps)])
""",
            P + "regularized": CLOSED_FORM_GRADIENTS + """

def regularized_loss_and_gradients(model, X, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(X) - y) ** 2) + sum(model.losses)
        zero = 0 * loss
    grads = tape.gradient(zero, model.trainable_variables)
    return loss, [grad + closed.astype(grad.numpy().dtype)
                  for grad, closed in zip(grads, closed_form_gradients(model, X, y))]
""",
            P + "per_example": """def per_example_gradients(w, X, y):
    X, y = tf.cast(X, w.dtype), tf.cast(y, w.dtype)
    with tf.GradientTape() as tape:
        residual = tf.linalg.matvec(X, w) - y
        zeros = 0 * residual ** 2
    return tape.jacobian(zeros, w) + 2 * residual[:, None] * X
""",
        },
        "scores": scores(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0, regularized_values=0,
                         per_example_values=0),
        "feedback": ["they do not come from the tape"],
    },
}
