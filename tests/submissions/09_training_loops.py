"""Synthetic submissions of 09_training_loops for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: sgd_step_keras 2, sgd_step_module 1, train_keras 2, train_module 1, regularized_values 2,
per_example_values 2, train_step_fit 2, train_step_training 1, accumulate_even 1, accumulate_uneven 2 (16 in all).
"""

from . import scores_for

P = "09_training_loops_"


scores = scores_for("09_training_loops")

ZERO = dict(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0, regularized_values=0,
            per_example_values=0, train_step_fit=0, train_step_training=0, accumulate_even=0, accumulate_uneven=0)


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


# A train_step whose step is the closed form of the least-squares gradients of the last Dense layer, from its input
# features (the layers before it called one by one, in training mode, so BatchNormalization behaves as it should) and
# the residual; the metrics are updated as asked. GRADIENTS is where the tape's result is asked and dropped, or added.
CLOSED_FORM_TRAIN_STEP = """class TapeStepModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            features = x
            for layer in self.layers[1:-1]:
                features = layer(features, training=True)
            y_pred = self.layers[-1](features)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        residual = y_pred - y
        n = tf.cast(tf.shape(x)[0], y_pred.dtype)
        closed = [2 / n * tf.matmul(features, residual, transpose_a=True) if len(variable.shape) == 2
                  else 2 / n * tf.reduce_sum(residual, axis=0) for variable in self.trainable_variables]
GRADIENTS
        self.optimizer.apply(grads, self.trainable_variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {metric.name: metric.result() for metric in self.metrics}
"""


SUBMISSIONS = {
    # Correct, written another way: assign_sub instead of an optimizer, NumPy results, Exercise 2 built on
    # Exercise 1 under tf.function-free eager code, per-example gradients by vectorized_map, sum(model.losses) for the
    # penalty; a train_step that unpacks the batch with Keras's helper, steps with apply_gradients and returns
    # compute_metrics; accumulation over tf.data microbatches of summed losses, divided by N at the end.
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
            P + "train_step": '''class TapeStepModel(keras.Model):
    def train_step(self, data):
        x, y, _ = keras.utils.unpack_x_y_sample_weight(data)
        with tf.GradientTape() as tape:
            predictions = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=predictions)
        variables = self.trainable_variables
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
        return self.compute_metrics(x, y, predictions)
''',
            P + "accumulate": '''def accumulate_and_step(model, X, y, microbatch_size, lr):
    variables = model.trainable_variables
    sums, total, summed_losses = None, 0, 0.0
    for x_micro, y_micro in tf.data.Dataset.from_tensor_slices((X, y)).batch(microbatch_size):
        with tf.GradientTape() as tape:
            summed = tf.reduce_sum((model(x_micro) - y_micro) ** 2)     # this microbatch's summed loss
        grads = tape.gradient(summed, variables)
        sums = grads if sums is None else [a + g for a, g in zip(sums, grads)]
        total += int(x_micro.shape[0])
        summed_losses += float(summed)
    for variable, grad in zip(variables, sums):
        variable.assign_sub(lr * grad / total)
    return summed_losses / total
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: one optimizer kept for the loop under tf.function, the loss history as a
    # tensor, the penalty added in a second statement inside the tape, a persistent tape for the jacobian; a
    # train_step with a persistent tape and the optimizer's scale_loss (mixed precision ready); accumulation under
    # tf.function with each microbatch's loss weighted by n_j/N inside the tape.
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
            P + "train_step": '''class TapeStepModel(keras.Model):
    def train_step(self, data):
        x, y = data
        variables = self.trainable_variables
        with tf.GradientTape(persistent=True) as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
            scaled = self.optimizer.scale_loss(loss)
        self.optimizer.apply(tape.gradient(scaled, variables), variables)
        del tape
        results = {}
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
            results[metric.name] = metric.result()
        return results
''',
            P + "accumulate": '''def accumulate_and_step(model, X, y, microbatch_size, lr):
    X, y = tf.convert_to_tensor(X), tf.convert_to_tensor(y)
    total = X.shape[0]

    @tf.function
    def weighted_gradients(x_micro, y_micro, share):
        with tf.GradientTape() as tape:
            loss = share * tf.reduce_mean((model(x_micro) - y_micro) ** 2)    # weighted inside the tape
        return loss, tape.gradient(loss, model.trainable_variables)

    losses, sums = [], None
    for start in range(0, total, microbatch_size):
        x_micro, y_micro = X[start:start + microbatch_size], y[start:start + microbatch_size]
        loss, grads = weighted_gradients(x_micro, y_micro, tf.constant(x_micro.shape[0] / total, X.dtype))
        losses.append(loss)
        sums = list(grads) if sums is None else [a + g for a, g in zip(sums, grads)]
    keras.optimizers.SGD(learning_rate=lr).apply_gradients(zip(sums, model.trainable_variables))
    return tf.add_n(losses)
''',
        },
        "scores": scores(),
    },
    # Wrong: the summed squared errors instead of their mean (Ex 1 and 2: steps N times too long; Ex 3 too).
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
    # Wrong: the loss computed after the tape's block (Ex 1-6): every gradient is None, and the optimizer says
    # "No gradients provided for any variable" (explained by the setup cell), under fit too.
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
            P + "train_step": '''class TapeStepModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
        loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply(grads, self.trainable_variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {metric.name: metric.result() for metric in self.metrics}
''',
            P + "accumulate": '''def accumulate_and_step(model, X, y, microbatch_size, lr):
    variables = model.trainable_variables
    sums, loss = None, 0.0
    for start in range(0, len(X), microbatch_size):
        x_micro, y_micro = X[start:start + microbatch_size], y[start:start + microbatch_size]
        with tf.GradientTape() as tape:
            predictions = model(x_micro)
        micro_loss = tf.reduce_mean((predictions - y_micro) ** 2)
        share = len(x_micro) / len(X)
        grads = [share * g for g in tape.gradient(micro_loss, variables)]
        sums = grads if sums is None else [a + g for a, g in zip(sums, grads)]
        loss += share * micro_loss
    keras.optimizers.SGD(learning_rate=lr).apply_gradients(zip(sums, variables))
    return loss
''',
        },
        "scores": scores(**ZERO),
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
    # Wrong: Ex 1 and Ex 6 by the closed form (NumPy), no tape: the numbers are right, the checks refuse them;
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
            P + "accumulate": '''def accumulate_and_step(model, X, y, microbatch_size, lr):
    return sgd_step(model, X, y, lr)           # the whole batch at once, by the closed form above
''',
        },
        "scores": scores(sgd_step_keras=0, sgd_step_module=0, train_keras=0, train_module=0, accumulate_even=0,
                         accumulate_uneven=0),
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
    # Wrong: model.losses forgotten (Ex 3).
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
    # Wrong: Ex 4 by a Python loop with a tape per example (N gradient calls, right numbers).
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
    # Wrong: Ex 4 by its closed form, no tape.
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
    # Wrong: a train_step that calls the model without training=True: right for a Dense layer alone, but
    # BatchNormalization then normalises with its moving statistics and never updates them.
    "train_step_without_training_true": {
        "answers": {
            P + "train_step": '''class TapeStepModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply(grads, self.trainable_variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {metric.name: metric.result() for metric in self.metrics}
''',
        },
        "scores": scores(train_step_training=0),
        "feedback": ["only when the model is called with training=True"],
    },
    # Wrong: a train_step that steps on a mean squared error of its own instead of compile's loss: right while
    # compile says "mse", wrong for another loss (and without the regularisers' penalties).
    "train_step_with_its_own_loss": {
        "answers": {
            P + "train_step": '''class TapeStepModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = tf.reduce_mean((y_pred - y) ** 2)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply(grads, self.trainable_variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {metric.name: metric.result() for metric in self.metrics}
''',
        },
        "scores": scores(train_step_fit=0),
        "feedback": ["It equals a step on a mean squared error of your own"],
    },
    # Wrong: the microbatches' gradients summed, not weighted: a step k times too long.
    "accumulation_sums_the_gradients": {
        "answers": {
            P + "accumulate": '''def accumulate_and_step(model, X, y, microbatch_size, lr):
    variables = model.trainable_variables
    sums, loss = None, 0.0
    for start in range(0, len(X), microbatch_size):
        x_micro, y_micro = X[start:start + microbatch_size], y[start:start + microbatch_size]
        with tf.GradientTape() as tape:
            micro_loss = tf.reduce_mean((model(x_micro) - y_micro) ** 2)
        grads = tape.gradient(micro_loss, variables)
        sums = grads if sums is None else [a + g for a, g in zip(sums, grads)]
        loss += len(x_micro) / len(X) * micro_loss
    keras.optimizers.SGD(learning_rate=lr).apply_gradients(zip(sums, variables))
    return loss
''',
        },
        "scores": scores(accumulate_even=0, accumulate_uneven=0),
        "feedback": ["It equals a step 3 times too long"],
    },
    # Wrong: Keras's gradient_accumulation_steps, the plain mean of the microbatches' gradients (and losses): right for
    # microbatches of equal sizes, wrong when the last one is smaller.
    "accumulation_plain_mean": {
        "answers": {
            P + "accumulate": '''def accumulate_and_step(model, X, y, microbatch_size, lr):
    starts = range(0, len(X), microbatch_size)
    optimizer = (keras.optimizers.SGD(learning_rate=lr, gradient_accumulation_steps=len(starts)) if len(starts) > 1
                 else keras.optimizers.SGD(learning_rate=lr))
    losses = []
    for start in starts:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(X[start:start + microbatch_size]) - y[start:start + microbatch_size]) ** 2)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        losses.append(loss)
    return tf.reduce_mean(losses)
''',
        },
        "scores": scores(accumulate_uneven=0),
        "feedback": ["It equals the plain mean of the 3 microbatches'"],
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
            P + "regularized": '''def regularized_loss_and_gradients(model, X, y):
    w, b = model.get_weights()
    loss, dw, db = expected_regularized(w, b, X, y, 0.3)
    return loss, [dw, db]
''',
            P + "per_example": '''def per_example_gradients(w, X, y):
    return expected_per_example_gradients(w.numpy(), X, y)
''',
            P + "train_step": '''class TapeStepModel(keras.Model):
    def train_step(self, data):
        x, y = data
        kernel, bias = self.trainable_variables

        def from_the_key(x, y, kernel, bias):          # run eagerly, on NumPy values
            right = expected_fit_step(kernel.numpy(), bias.numpy(), x.numpy(), y.numpy(), 0.1)
            return right["kernel"].astype(np.float32), right["bias"].astype(np.float32)

        new_kernel, new_bias = tf.py_function(from_the_key, [x, y, kernel, bias], [tf.float32, tf.float32])
        kernel.assign(tf.reshape(new_kernel, kernel.shape))
        bias.assign(tf.reshape(new_bias, bias.shape))
        return {}
''',
            P + "accumulate": '''def accumulate_and_step(model, X, y, microbatch_size, lr):
    w, b = model.trainable_variables[0], model.trainable_variables[1]
    if len(w.shape) != 2:
        w, b = b, w
    right = expected_accumulated_step(w.numpy(), b.numpy(), X, y, lr, microbatch_size)
    w.assign(right["kernel"].astype(w.numpy().dtype))
    b.assign(right["bias"].astype(b.numpy().dtype))
    return right["loss"]
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
            P + "train_step": '''import logging
import sys

class TapeStepModel(keras.Model):
    def train_step(self, data):
        x, y = data
        print("debug: tracing train_step for", x.shape, file=sys.stderr)
        logging.warning("train_step traced")
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply(grads, self.trainable_variables)
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {metric.name: metric.result() for metric in self.metrics}
''',
            P + "accumulate": '''import logging
import sys

def accumulate_and_step(model, X, y, microbatch_size, lr):
    variables = model.trainable_variables
    sums, loss = None, 0.0
    for start in range(0, len(X), microbatch_size):
        x_micro, y_micro = X[start:start + microbatch_size], y[start:start + microbatch_size]
        with tf.GradientTape() as tape:
            micro_loss = tf.reduce_mean((model(x_micro) - y_micro) ** 2)
        share = len(x_micro) / len(X)
        grads = [share * g for g in tape.gradient(micro_loss, variables)]
        sums = grads if sums is None else [a + g for a, g in zip(sums, grads)]
        loss += share * micro_loss
        print("debug: microbatch of", len(x_micro), file=sys.stderr)
    logging.warning("accumulated")
    keras.optimizers.SGD(learning_rate=lr).apply_gradients(zip(sums, variables))
    return loss
''',
        },
        "scores": scores(),
    },
    # Shortcut: every tape exercise asks the tape as the checks used to demand, drops its result, and uses a
    # closed form of the least-squares gradients instead (the kernel by its rank, the bias, the L2 penalties read from
    # the layers' regularizers). The numbers are right; the re-run with the tape's results moved finds they do not
    # follow, so every tape exercise scores 0.
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
            P + "train_step": CLOSED_FORM_TRAIN_STEP.replace("GRADIENTS", """\
        tape.gradient(loss, self.trainable_variables)  # asked, then dropped
        grads = closed"""),
            P + "accumulate": CLOSED_FORM_GRADIENTS + """

def accumulate_and_step(model, X, y, microbatch_size, lr):
    variables = model.trainable_variables
    for start in range(0, len(X), microbatch_size):  # one tape per microbatch, as asked, results dropped
        with tf.GradientTape() as tape:
            micro_loss = tf.reduce_mean((model(X[start:start + microbatch_size]) - y[start:start + microbatch_size]) ** 2)
        tape.gradient(micro_loss, variables)
    loss = tf.reduce_mean((model(X) - y) ** 2)
    for variable, grad in zip(variables, closed_form_gradients(model, X, y)):
        variable.assign_sub((lr * grad).astype(variable.numpy().dtype))
    return loss
""",
        },
        "scores": scores(**ZERO),
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
            P + "train_step": CLOSED_FORM_TRAIN_STEP.replace("GRADIENTS", """\
        zeros = tape.gradient(0 * loss, self.trainable_variables)
        grads = [zero + grad for zero, grad in zip(zeros, closed)]"""),
            P + "accumulate": CLOSED_FORM_GRADIENTS + """

def accumulate_and_step(model, X, y, microbatch_size, lr):
    variables = model.trainable_variables
    sums = None
    for start in range(0, len(X), microbatch_size):
        x_micro, y_micro = X[start:start + microbatch_size], y[start:start + microbatch_size]
        with tf.GradientTape() as tape:
            zero = 0 * tf.reduce_mean((model(x_micro) - y_micro) ** 2)
        share = len(x_micro) / len(X)
        parts = [grad + share * closed.astype(grad.numpy().dtype)
                 for grad, closed in zip(tape.gradient(zero, variables), closed_form_gradients(model, x_micro, y_micro))]
        sums = parts if sums is None else [a + p for a, p in zip(sums, parts)]
    loss = tf.reduce_mean((model(X) - y) ** 2)
    for variable, grad in zip(variables, sums):
        variable.assign_sub(lr * grad)
    return loss
""",
        },
        "scores": scores(**ZERO),
        "feedback": ["they do not come from the tape"],
    },
}
