"""Synthetic submissions of 07_controlling_the_tape for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: frozen_factor_sin_exp 1, frozen_factor_other 1, straight_through_round 1,
straight_through_other 2, head_step_update 2, head_step_encoder_frozen 1, td_step_update 2,
td_step_terminal_free 1, checkpointed_dense 2, checkpointed_keras 1, fine_tune_step 2, fine_tune_frozen 1
(17 in all).
"""

from . import scores_for

P = "07_controlling_the_tape_"


scores = scores_for("07_controlling_the_tape")


SUBMISSIONS = {
    # Correct, written another way: g(x) made a constant by leaving TensorFlow (.numpy()), a
    # tf.custom_gradient straight-through, watch_accessed_variables=False with the Keras variables' .value
    # and a Keras SGD optimizer, the Q-learning target computed before the tape, NumPy results.
    "watch_only_head_custom_gradient": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    g_value = tf.constant(g(x).numpy())      # a plain constant: no history on any tape
    return f(x) * g_value
''',
            P + "straight_through": '''def straight_through(quantize, x):
    @tf.custom_gradient
    def identity_backward(t):
        return quantize(t), lambda upstream: upstream
    return identity_backward(x)
''',
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch([v.value for v in head.trainable_variables])
        loss = tf.reduce_mean(tf.square(head(encoder(x)) - y))
    watched = tape.watched_variables()
    grads = tape.gradient(loss, watched)
    keras.optimizers.SGD(learning_rate).apply_gradients(zip(grads, watched))
    return loss.numpy()
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    q_next = q_net(next_states)                                   # before the tape: a constant
    target = rewards + gamma * tf.reduce_max(q_next, axis=1)
    n_actions = q_next.shape[1]
    with tf.GradientTape() as tape:
        q = q_net(states)
        q_taken = tf.reduce_sum(q * tf.one_hot(actions, n_actions, dtype=q.dtype), axis=1)
        loss = tf.reduce_mean(tf.square(q_taken - target))
    variables = q_net.trainable_variables
    keras.optimizers.SGD(learning_rate).apply_gradients(zip(tape.gradient(loss, variables), variables))
    return float(loss)
''',
            P + "checkpointed": '''def checkpointed_gradients(blocks, x, variables):
    x = tf.constant(x)
    checkpointed = [tf.recompute_grad(block) for block in blocks]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = x
        for block in checkpointed:
            h = block(h)
        total = tf.reduce_sum(h)
    dx = tape.gradient(total, x)
    dvariables = tape.gradient(total, variables)
    del tape
    return dx.numpy(), [g.numpy() for g in dvariables]
''',
            P + "fine_tune": '''def fine_tune_step(model, x, y, learning_rate):
    for layer in model.layers:
        if type(layer).__name__ == "BatchNormalization":
            layer.trainable = False
    variables = model.trainable_variables          # after freezing: without gamma and beta
    with tf.GradientTape() as tape:
        prediction = model(x, training=True)
        loss = tf.reduce_mean(tf.square(prediction - y))
    keras.optimizers.SGD(learning_rate).apply_gradients(zip(tape.gradient(loss, variables), variables))
    return float(loss)
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: stop_gradient on two terms, features computed before the tape,
    # stop_recording for the target, plain Variables updated with assign_sub from a persistent tape.
    "stop_recording_and_features_outside": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    fx = f(x)
    gx = g(x)
    return tf.multiply(fx, tf.stop_gradient(gx))
''',
            P + "straight_through": '''def straight_through(quantize, x):
    return x - tf.stop_gradient(x) + tf.stop_gradient(quantize(x))
''',
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    features = encoder(x)                     # outside the tape: not recorded
    with tf.GradientTape(persistent=True) as tape:
        loss = tf.reduce_mean((head(features) - y) ** 2)
    kernel_grad, bias_grad = tape.gradient(loss, [head.kernel, head.bias])
    head.kernel.assign_sub(learning_rate * kernel_grad)
    head.bias.assign_sub(learning_rate * bias_grad)
    del tape
    return loss
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    with tf.GradientTape() as tape:
        with tape.stop_recording():
            target = rewards + gamma * tf.reduce_max(q_net(next_states), axis=1)
        q_taken = tf.gather(q_net(states), actions, axis=1, batch_dims=1)
        loss = tf.reduce_mean((q_taken - target) ** 2)
    grads = tape.gradient(loss, q_net.trainable_variables)
    for variable, grad in zip(q_net.trainable_variables, grads):
        variable.assign(variable - learning_rate * grad)
    return loss
''',
        },
        "scores": scores(),
    },
    # Wrong: no stop_gradient at all. Ex 1 gives the full product rule, Ex 2 the plain quantizer (no gradient:
    # None), Ex 3 a step on the whole model (the head's step is right, the encoder moves), Ex 4 the
    # full-gradient step (the target is differentiated too; γ = 0 still passes, the hidden single action does not).
    "no_stop_gradient": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    return f(x) * g(x)
''',
            P + "straight_through": '''def straight_through(quantize, x):
    return quantize(x)
''',
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    variables = encoder.trainable_variables + head.trainable_variables
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((head(encoder(x)) - y) ** 2)
    for variable, grad in zip(variables, tape.gradient(loss, variables)):
        variable.assign_sub(learning_rate * grad)
    return loss
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    with tf.GradientTape() as tape:
        target = rewards + gamma * tf.reduce_max(q_net(next_states), axis=1)
        q_taken = tf.gather(q_net(states), actions, batch_dims=1)
        loss = tf.reduce_mean((q_taken - target) ** 2)
    grads = tape.gradient(loss, q_net.trainable_variables)
    for variable, grad in zip(q_net.trainable_variables, grads):
        variable.assign_sub(learning_rate * grad)
    return loss
''',
        },
        "scores": scores(frozen_factor_sin_exp=0, frozen_factor_other=0, straight_through_round=0,
                         straight_through_other=0, head_step_encoder_frozen=0, td_step_update=0,
                         td_step_terminal_free=0),
        "feedback": ["the full product rule: nothing was stopped", "the encoder's kernel 1 changed",
                     "the full-gradient step: the target was differentiated too"],
    },
    # Wrong: stop_gradient on the wrong part. Ex 1 stops f instead of g, Ex 2 lets the x terms cancel,
    # Ex 4 stops the prediction instead of the target (only the target's gradient is left).
    "stop_gradient_on_the_wrong_part": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    return tf.stop_gradient(f(x)) * g(x)
''',
            P + "straight_through": '''def straight_through(quantize, x):
    return x + tf.stop_gradient(quantize(x)) - x
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    with tf.GradientTape() as tape:
        target = rewards + gamma * tf.reduce_max(q_net(next_states), axis=1)
        q_taken = tf.stop_gradient(tf.gather(q_net(states), actions, batch_dims=1))
        loss = tf.reduce_mean((q_taken - target) ** 2)
    grads = tape.gradient(loss, q_net.trainable_variables)
    for variable, grad in zip(q_net.trainable_variables, grads):
        variable.assign_sub(learning_rate * grad)
    return loss
''',
        },
        "scores": scores(frozen_factor_sin_exp=0, frozen_factor_other=0, straight_through_round=0,
                         straight_through_other=0, td_step_update=0, td_step_terminal_free=0),
        "feedback": ["the gradient of f was stopped instead of g's", "the x terms cancel",
                     "tf.stop_gradient was put on the prediction"],
    },
    # Wrong: tf.stop_gradient around the whole result: the checks' tapes get None (Ex 1, Ex 2).
    "stop_gradient_everything": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    return tf.stop_gradient(f(x) * g(x))
''',
            P + "straight_through": '''def straight_through(quantize, x):
    return tf.stop_gradient(x + quantize(x) - x)
''',
        },
        "scores": scores(frozen_factor_sin_exp=0, frozen_factor_other=0, straight_through_round=0,
                         straight_through_other=0),
        "feedback": ["Is tf.stop_gradient around the whole product"],
    },
    # Wrong: the encoder frozen with encoder.trainable = False, left so: the step itself is right, but the
    # encoder is no longer trainable afterwards.
    "encoder_trainable_false": {
        "answers": {
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    encoder.trainable = False
    variables = encoder.trainable_variables + head.trainable_variables   # the head's only, now
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((head(encoder(x)) - y) ** 2)
    for variable, grad in zip(variables, tape.gradient(loss, variables)):
        variable.assign_sub(learning_rate * grad)
    return loss
''',
        },
        "scores": scores(head_step_encoder_frozen=0),
    },
    # Wrong: the loss returned after the step instead of before it (Ex 3, Ex 4).
    "loss_after_the_step": {
        "answers": {
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    features = tf.stop_gradient(encoder(x))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((head(features) - y) ** 2)
    for variable, grad in zip(head.trainable_variables, tape.gradient(loss, head.trainable_variables)):
        variable.assign_sub(learning_rate * grad)
    return tf.reduce_mean((head(features) - y) ** 2)
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    target = rewards + gamma * tf.reduce_max(q_net(next_states), axis=1)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.gather(q_net(states), actions, batch_dims=1) - target) ** 2)
    for variable, grad in zip(q_net.trainable_variables, tape.gradient(loss, q_net.trainable_variables)):
        variable.assign_sub(learning_rate * grad)
    return tf.reduce_mean((tf.gather(q_net(states), actions, batch_dims=1) - target) ** 2)
''',
        },
        "scores": scores(head_step_update=0, td_step_update=0, td_step_terminal_free=0),
        "feedback": ["the loss after the step, not before it"],
    },
    # Wrong: the head's gradient worked out by hand for a linear head (no tape): the numbers are right,
    # the checks refuse it (no tape was asked), in both cells of Ex 3 (each checks the step is the tape's). The same for Ex 4.
    "gradients_by_hand": {
        "answers": {
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    h = np.asarray(encoder(x), dtype=np.float64)
    w, b = (np.asarray(v, dtype=np.float64) for v in head.get_weights())
    residual = h @ w + b - np.asarray(y, dtype=np.float64)
    n = residual.size
    head.set_weights([w - learning_rate * 2 / n * h.T @ residual, b - learning_rate * 2 / n * residual.sum(axis=0)])
    return np.mean(residual ** 2)
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    s, s_next, r = (np.asarray(v, dtype=np.float64) for v in (states, next_states, rewards))
    a = np.asarray(actions)
    w, b = (np.asarray(v, dtype=np.float64) for v in q_net.get_weights())
    n = len(a)
    delta = (s @ w + b)[np.arange(n), a] - (r + gamma * np.max(s_next @ w + b, axis=1))
    weighted = delta[:, None] * np.eye(w.shape[1])[a]
    q_net.set_weights([w - learning_rate * 2 / n * s.T @ weighted, b - learning_rate * 2 / n * weighted.sum(axis=0)])
    return np.mean(delta ** 2)
''',
        },
        "scores": scores(head_step_update=0, head_step_encoder_frozen=0, td_step_update=0, td_step_terminal_free=0),
    },
    # Wrong: the stack recorded as usual, no tf.recompute_grad: the gradients are right, but each block ran once,
    # so the tape kept every intermediate (Ex 5's blocks log their runs).
    "no_recompute_grad": {
        "answers": {
            P + "checkpointed": '''def checkpointed_gradients(blocks, x, variables):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = x
        for block in blocks:
            h = block(h)
        loss = tf.reduce_sum(h)
    dx, *dvariables = tape.gradient(loss, [x] + list(variables))
    return dx, dvariables
''',
        },
        "scores": scores(checkpointed_dense=0, checkpointed_keras=0),
        "feedback": ["each block ran once, in the forward pass"],
    },
    # Wrong: one tf.recompute_grad around the whole stack: the blocks are recomputed all at once, first to last
    # (the gradients are right; the tape's peak during the backward pass is that of the plain stack).
    "recompute_the_whole_stack": {
        "answers": {
            P + "checkpointed": '''def checkpointed_gradients(blocks, x, variables):
    x = tf.convert_to_tensor(x)

    def stack(h):
        for block in blocks:
            h = block(h)
        return h

    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(tf.recompute_grad(stack)(x))
    dx, *dvariables = tape.gradient(loss, [x] + list(variables))
    return dx, dvariables
''',
        },
        "scores": scores(checkpointed_dense=0, checkpointed_keras=0),
        "feedback": ["the whole stack was wrapped in one tf.recompute_grad"],
    },
    # Wrong: each block checkpointed, but x not watched: dL/dx is None (the variables' gradients are right).
    "checkpointed_without_watching_x": {
        "answers": {
            P + "checkpointed": '''def checkpointed_gradients(blocks, x, variables):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        h = x
        for block in blocks:
            h = tf.recompute_grad(block)(h)
        loss = tf.reduce_sum(h)
    dx, *dvariables = tape.gradient(loss, [x] + list(variables))
    return dx, dvariables
''',
        },
        "scores": scores(checkpointed_dense=0, checkpointed_keras=0),
        "feedback": ["dL/dx"],
    },
    # Wrong: the normalisation run in inference mode by training=False instead of freezing it: the forward pass and the
    # first Dense step are right (the visible checks of Ex 6's first cell pass), but γ and β are still in
    # trainable_variables and take a step too, so the hidden second step and the frozen-state cell fail.
    "batchnorm_training_false_instead_of_frozen": {
        "answers": {
            P + "fine_tune": '''def fine_tune_step(model, x, y, learning_rate):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=False) - y) ** 2)
    grads = tape.gradient(loss, model.trainable_variables)
    for variable, grad in zip(model.trainable_variables, grads):
        variable.assign_sub(learning_rate * grad)
    return loss
''',
        },
        "scores": scores(fine_tune_step=0, fine_tune_frozen=0),
        "feedback": ["the step updated it: it was still in trainable_variables"],
    },
    # Wrong: γ and β left out of the step, but the normalisation left trainable: with training=True it normalises with
    # the batch's statistics (another loss, other steps) and moves its moving statistics.
    "batchnorm_left_out_of_the_step_but_trainable": {
        "answers": {
            P + "fine_tune": '''def fine_tune_step(model, x, y, learning_rate):
    variables = [v for layer in model.layers if not isinstance(layer, keras.layers.BatchNormalization)
                 for v in layer.trainable_variables]
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
    for variable, grad in zip(variables, tape.gradient(loss, variables)):
        variable.assign_sub(learning_rate * grad)
    return loss
''',
        },
        "scores": scores(fine_tune_step=0, fine_tune_frozen=0),
        "feedback": ["the normalisation in training mode, with the batch's statistics"],
    },
    # Wrong: every solution returns what the matching answer key gives (keys refuse to run from student code).
    "calls_answer_keys": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    return tf.constant(expected_sin_exp_frozen(np.asarray(x))[0])
''',
            P + "straight_through": '''def straight_through(quantize, x):
    return x + tf.stop_gradient(tf.cast(expected_round_square_straight_through(np.asarray(x))[0], x.dtype) - x)
''',
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    loss, kernel, bias = expected_head_step(x, y, *encoder.get_weights(), *head.get_weights(), learning_rate)
    head.set_weights([kernel, bias])
    return loss
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    loss, kernel, bias = expected_td_step(states, actions, rewards, next_states, *q_net.get_weights(),
                                          gamma, learning_rate)
    q_net.set_weights([kernel, bias])
    return loss
''',
            P + "checkpointed": '''def checkpointed_gradients(blocks, x, variables):
    return expected_dense_stack_gradients(x, variables[0::2], variables[1::2], "tanh")
''',
            P + "fine_tune": '''def fine_tune_step(model, x, y, learning_rate):
    w1, b1, gamma, beta, mean, variance, w2, b2 = model.get_weights()
    loss, w1, b1, w2, b2 = expected_fine_tune_step(x, y, w1, b1, gamma, beta, mean, variance, 1e-3, w2, b2,
                                                   learning_rate)
    model.set_weights([w1, b1, gamma, beta, mean, variance, w2, b2])
    return loss
''',
        },
        "scores": scores(frozen_factor_sin_exp=0, frozen_factor_other=0, straight_through_round=0,
                         straight_through_other=0, head_step_update=0, head_step_encoder_frozen=0,
                         td_step_update=0, td_step_terminal_free=0, checkpointed_dense=0, checkpointed_keras=0,
                         fine_tune_step=0, fine_tune_frozen=0),
    },
    # Wrong: the tape code is right, but no function returns its result (None everywhere).
    "no_return": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    z = f(x) * tf.stop_gradient(g(x))
''',
            P + "straight_through": '''def straight_through(quantize, x):
    y = x + tf.stop_gradient(quantize(x) - x)
''',
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((head(tf.stop_gradient(encoder(x))) - y) ** 2)
    for variable, grad in zip(head.trainable_variables, tape.gradient(loss, head.trainable_variables)):
        variable.assign_sub(learning_rate * grad)
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    with tf.GradientTape() as tape:
        target = tf.stop_gradient(rewards + gamma * tf.reduce_max(q_net(next_states), axis=1))
        loss = tf.reduce_mean((tf.gather(q_net(states), actions, batch_dims=1) - target) ** 2)
    for variable, grad in zip(q_net.trainable_variables, tape.gradient(loss, q_net.trainable_variables)):
        variable.assign_sub(learning_rate * grad)
''',
            P + "checkpointed": '''def checkpointed_gradients(blocks, x, variables):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = x
        for block in blocks:
            h = tf.recompute_grad(block)(h)
        loss = tf.reduce_sum(h)
    grads = tape.gradient(loss, [x] + list(variables))
''',
            P + "fine_tune": '''def fine_tune_step(model, x, y, learning_rate):
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            layer.trainable = False
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
    for variable, grad in zip(model.trainable_variables, tape.gradient(loss, model.trainable_variables)):
        variable.assign_sub(learning_rate * grad)
''',
        },
        "scores": scores(frozen_factor_sin_exp=0, frozen_factor_other=0, straight_through_round=0,
                         straight_through_other=0, head_step_update=0, td_step_update=0, td_step_terminal_free=0,
                         checkpointed_dense=0, checkpointed_keras=0,
                         fine_tune_step=0),
    },
    # Correct, with debug output to stderr and logging.warning in every solution: the setup cell shows
    # them as ordinary output, so no cell loses its points.
    "debug_output_to_stderr": {
        "answers": {
            P + "frozen_factor": '''import logging
import sys

def frozen_factor_product(f, g, x):
    z = f(x) * tf.stop_gradient(g(x))
    print("debug: z has shape", z.shape, file=sys.stderr)
    logging.warning("frozen_factor_product done")
    return z
''',
            P + "straight_through": '''import logging
import sys

def straight_through(quantize, x):
    y = x + tf.stop_gradient(quantize(x) - x)
    print("debug: y =", y, file=sys.stderr)
    logging.warning("straight_through done")
    return y
''',
            P + "head_step": '''import logging
import sys

def train_head_step(encoder, head, x, y, learning_rate):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((head(tf.stop_gradient(encoder(x))) - y) ** 2)
    for variable, grad in zip(head.trainable_variables, tape.gradient(loss, head.trainable_variables)):
        variable.assign_sub(learning_rate * grad)
    print("debug: loss =", float(loss), file=sys.stderr)
    logging.warning("train_head_step done")
    return loss
''',
            P + "td_step": '''import logging
import sys

def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    with tf.GradientTape() as tape:
        target = tf.stop_gradient(rewards + gamma * tf.reduce_max(q_net(next_states), axis=1))
        loss = tf.reduce_mean((tf.gather(q_net(states), actions, batch_dims=1) - target) ** 2)
    for variable, grad in zip(q_net.trainable_variables, tape.gradient(loss, q_net.trainable_variables)):
        variable.assign_sub(learning_rate * grad)
    print("debug: loss =", float(loss), file=sys.stderr)
    logging.warning("semi_gradient_td_step done")
    return loss
''',
            P + "checkpointed": '''import logging
import sys

def checkpointed_gradients(blocks, x, variables):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = x
        for block in blocks:
            h = tf.recompute_grad(block)(h)
        loss = tf.reduce_sum(h)
    dx, *dvariables = tape.gradient(loss, [x] + list(variables))
    print("debug: loss =", float(loss), file=sys.stderr)
    logging.warning("checkpointed_gradients done")
    return dx, dvariables
''',
            P + "fine_tune": '''import logging
import sys

def fine_tune_step(model, x, y, learning_rate):
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            layer.trainable = False
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
    for variable, grad in zip(model.trainable_variables, tape.gradient(loss, model.trainable_variables)):
        variable.assign_sub(learning_rate * grad)
    print("debug: loss =", float(loss), file=sys.stderr)
    logging.warning("fine_tune_step done")
    return loss
''',
        },
        "scores": scores(),
    },

    # Correct, written another way: encoder.trainable = False for the step, set back to True before returning
    # (the prompt allows it). Wrong: quantize(x) + x - tf.stop_gradient(x), which keeps the quantizer's own
    # gradient: right for tf.round and tf.floor (gradient None), wrong for the smooth rounding.
    "trainable_false_restored_and_quantizer_gradient_kept": {
        "answers": {
            P + "straight_through": '''def straight_through(quantize, x):
    return quantize(x) + x - tf.stop_gradient(x)
''',
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    encoder.trainable = False
    try:
        variables = encoder.trainable_variables + head.trainable_variables   # the head's only, for now
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((head(encoder(x)) - y) ** 2)
        for variable, grad in zip(variables, tape.gradient(loss, variables)):
            variable.assign_sub(learning_rate * grad)
    finally:
        encoder.trainable = True
    return loss
''',
        },
        "scores": scores(straight_through_other=0),
        "feedback": ["the quantizer's own gradient was added to the 1"],
    },
    # Shortcut: a closed form after a throwaway tape call. Ex 1 (the checks' tape differentiates the result): f'
    # by central differences in float64, carried by a linear term; Ex 3 and Ex 4: the step worked out in NumPy
    # for the linear head and Q-network; Ex 5: the blocks checkpointed and the tape asked, then the chain rule by hand
    # for dense tanh blocks (right for the visible stack, wrong for sin blocks and a linear Keras layer). Every number
    # is right, but the checks' f with a gradient only a tape knows (Ex 1) and the re-run with the tape's gradients
    # shifted (Ex 3-6) see that none is the tape's. Ex 6: the BatchNormalization layers frozen, the tape asked, then
    # the step by hand for the first check's model (the second check's model has another shape: it fails there too).
    # Ex 2 keeps the right solution: the student's part of a straight-through estimator is the constant
    # derivative 1 (the checks' own tape does the rest), so there is no result of a tape to replace by a formula;
    # any construction with the value quantize(x) and the gradient 1 is a straight-through estimator.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        fx = f(x)
    tape.gradient(fx, x)                          # asked, then dropped
    wide, h = tf.cast(x, tf.float64), 1e-5
    slope = tf.cast((f(wide + h) - f(wide - h)) / (2 * h), x.dtype)   # central differences
    gx = tf.stop_gradient(g(x))
    return tf.stop_gradient(fx * gx) + (x - tf.stop_gradient(x)) * tf.stop_gradient(slope * gx)
''',
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    features = tf.stop_gradient(encoder(x))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((head(features) - y) ** 2)
    tape.gradient(loss, head.trainable_variables)     # asked, then dropped
    h = np.asarray(features, dtype=np.float64)
    w, b = (np.asarray(v, dtype=np.float64) for v in head.get_weights())
    residual = h @ w + b - np.asarray(y, dtype=np.float64)
    n = residual.size
    head.set_weights([w - learning_rate * 2 / n * h.T @ residual, b - learning_rate * 2 / n * residual.sum(axis=0)])
    return loss
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    with tf.GradientTape() as tape:
        target = tf.stop_gradient(rewards + gamma * tf.reduce_max(q_net(next_states), axis=1))
        loss = tf.reduce_mean((tf.gather(q_net(states), actions, batch_dims=1) - target) ** 2)
    tape.gradient(loss, q_net.trainable_variables)    # asked, then dropped
    s, s_next, r = (np.asarray(v, dtype=np.float64) for v in (states, next_states, rewards))
    a = np.asarray(actions)
    w, b = (np.asarray(v, dtype=np.float64) for v in q_net.get_weights())
    n = len(a)
    delta = (s @ w + b)[np.arange(n), a] - (r + gamma * np.max(s_next @ w + b, axis=1))
    weighted = delta[:, None] * np.eye(w.shape[1])[a]
    q_net.set_weights([w - learning_rate * 2 / n * s.T @ weighted, b - learning_rate * 2 / n * weighted.sum(axis=0)])
    return loss
''',
            P + "checkpointed": '''def checkpointed_gradients(blocks, x, variables):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = x
        for block in blocks:
            h = tf.recompute_grad(block)(h)
        loss = tf.reduce_sum(h)
    tape.gradient(loss, [x] + list(variables))     # asked, then dropped
    kernels, biases = variables[0::2], variables[1::2]   # dense tanh blocks: the chain rule by hand
    hs, zs = [x], []
    for kernel, bias in zip(kernels, biases):
        zs.append(hs[-1] @ kernel + bias)
        hs.append(tf.tanh(zs[-1]))
    upstream = tf.ones_like(hs[-1])
    grads = []
    for h_in, z, kernel in reversed(list(zip(hs[:-1], zs, kernels))):
        dz = upstream * (1 - tf.tanh(z) ** 2)
        grads = [tf.transpose(h_in) @ dz, tf.reduce_sum(dz, axis=0)] + grads
        upstream = dz @ tf.transpose(kernel)
    return upstream, grads
''',
            P + "fine_tune": '''def fine_tune_step(model, x, y, learning_rate):
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            layer.trainable = False
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
    tape.gradient(loss, model.trainable_variables)     # asked, then dropped
    # the step by hand for Dense → BatchNormalization (inference) → activation → Dense, as the first check's model
    w1, b1, gamma, beta, mean, variance, w2, b2 = (np.asarray(w, dtype=np.float64) for w in model.get_weights())
    x64, y64 = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    scale = gamma / np.sqrt(variance + 1e-3)
    h = np.tanh(scale * (x64 @ w1 + b1 - mean) + beta)
    d_out = 2.0 / y64.size * (h @ w2 + b2 - y64)
    dz = (d_out @ w2.T) * (1.0 - h ** 2) * scale
    model.set_weights([w1 - learning_rate * x64.T @ dz, b1 - learning_rate * dz.sum(axis=0), gamma, beta, mean,
                       variance, w2 - learning_rate * h.T @ d_out, b2 - learning_rate * d_out.sum(axis=0)])
    return loss
''',
        },
        "scores": scores(frozen_factor_sin_exp=0, frozen_factor_other=0, head_step_update=0,
                         head_step_encoder_frozen=0, td_step_update=0, td_step_terminal_free=0,
                         checkpointed_dense=0, checkpointed_keras=0,
                         fine_tune_step=0, fine_tune_frozen=0),
        "feedback": ["the gradient did not come from the tape differentiating f", "they do not come from the tape"],
    },
    # Shortcut: the tape's gradient of another function (0 · the right one) plus the closed form. Ex 1: the checks'
    # tape goes through 0·f(x)·g(x), the gradient is a difference quotient of f; Ex 3 and Ex 4: the tape's gradient
    # of 0·L plus the gradient worked out by hand, in TensorFlow; Ex 5: the checkpointed tape's gradients of 0·L plus
    # the chain rule by hand for dense tanh blocks; Ex 6: the tape's zero step for 0·L, then the step by hand.
    # Ex 2 keeps the right solution (see above).
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "frozen_factor": '''def frozen_factor_product(f, g, x):
    fx = f(x)
    gx = tf.stop_gradient(g(x))
    wide, h = tf.cast(x, tf.float64), 1e-5
    slope = tf.cast((f(wide + h) - f(wide - h)) / (2 * h), x.dtype)
    return 0 * fx * gx + tf.stop_gradient(fx * gx) + (x - tf.stop_gradient(x)) * tf.stop_gradient(slope * gx)
''',
            P + "head_step": '''def train_head_step(encoder, head, x, y, learning_rate):
    features = tf.stop_gradient(encoder(x))
    kernel, bias = head.trainable_variables
    with tf.GradientTape() as tape:
        residual = head(features) - y
        loss = tf.reduce_mean(residual ** 2)
        zero = 0 * loss
    kernel_grad, bias_grad = tape.gradient(zero, [kernel, bias])
    n = tf.cast(tf.size(residual), residual.dtype)
    kernel.assign_sub(learning_rate * (kernel_grad + 2 / n * tf.matmul(features, residual, transpose_a=True)))
    bias.assign_sub(learning_rate * (bias_grad + 2 / n * tf.reduce_sum(residual, axis=0)))
    return loss
''',
            P + "td_step": '''def semi_gradient_td_step(q_net, states, actions, rewards, next_states, gamma, learning_rate):
    states = tf.convert_to_tensor(states)
    target = tf.stop_gradient(rewards + gamma * tf.reduce_max(q_net(next_states), axis=1))
    kernel, bias = q_net.trainable_variables
    with tf.GradientTape() as tape:
        q = q_net(states)
        onehot = tf.one_hot(actions, q.shape[1], dtype=q.dtype)
        delta = tf.reduce_sum(q * onehot, axis=1) - target
        loss = tf.reduce_mean(delta ** 2)
        zero = 0 * loss
    kernel_grad, bias_grad = tape.gradient(zero, [kernel, bias])
    n = tf.cast(tf.size(delta), q.dtype)
    weighted = delta[:, None] * onehot
    kernel.assign_sub(learning_rate * (kernel_grad + 2 / n * tf.matmul(states, weighted, transpose_a=True)))
    bias.assign_sub(learning_rate * (bias_grad + 2 / n * tf.reduce_sum(weighted, axis=0)))
    return loss
''',
            P + "checkpointed": '''def checkpointed_gradients(blocks, x, variables):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = x
        for block in blocks:
            h = tf.recompute_grad(block)(h)
        zero = 0 * tf.reduce_sum(h)
    dx0, *dvariables0 = tape.gradient(zero, [x] + list(variables))
    kernels, biases = variables[0::2], variables[1::2]   # dense tanh blocks: the chain rule by hand
    hs, zs = [x], []
    for kernel, bias in zip(kernels, biases):
        zs.append(hs[-1] @ kernel + bias)
        hs.append(tf.tanh(zs[-1]))
    upstream = tf.ones_like(hs[-1])
    grads = []
    for h_in, z, kernel in reversed(list(zip(hs[:-1], zs, kernels))):
        dz = upstream * (1 - tf.tanh(z) ** 2)
        grads = [tf.transpose(h_in) @ dz, tf.reduce_sum(dz, axis=0)] + grads
        upstream = dz @ tf.transpose(kernel)
    return dx0 + upstream, [g0 + g for g0, g in zip(dvariables0, grads)]
''',
            P + "fine_tune": '''def fine_tune_step(model, x, y, learning_rate):
    for layer in model.layers:
        if isinstance(layer, keras.layers.BatchNormalization):
            layer.trainable = False
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((model(x, training=True) - y) ** 2)
        zero = 0 * loss
    grads = tape.gradient(zero, model.trainable_variables)     # zeros from the tape, the step from the formula
    for variable, grad in zip(model.trainable_variables, grads):
        variable.assign_sub(learning_rate * grad)
    # the step by hand for Dense → BatchNormalization (inference) → activation → Dense, as the first check's model
    w1, b1, gamma, beta, mean, variance, w2, b2 = (np.asarray(w, dtype=np.float64) for w in model.get_weights())
    x64, y64 = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    scale = gamma / np.sqrt(variance + 1e-3)
    h = np.tanh(scale * (x64 @ w1 + b1 - mean) + beta)
    d_out = 2.0 / y64.size * (h @ w2 + b2 - y64)
    dz = (d_out @ w2.T) * (1.0 - h ** 2) * scale
    model.set_weights([w1 - learning_rate * x64.T @ dz, b1 - learning_rate * dz.sum(axis=0), gamma, beta, mean,
                       variance, w2 - learning_rate * h.T @ d_out, b2 - learning_rate * d_out.sum(axis=0)])
    return loss
''',
        },
        "scores": scores(frozen_factor_sin_exp=0, frozen_factor_other=0, head_step_update=0,
                         head_step_encoder_frozen=0, td_step_update=0, td_step_terminal_free=0,
                         checkpointed_dense=0, checkpointed_keras=0,
                         fine_tune_step=0, fine_tune_frozen=0),
        "feedback": ["they do not come from the tape"],
    },
}
