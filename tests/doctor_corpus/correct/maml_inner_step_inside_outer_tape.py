"""Second-order MAML on sine-wave regression: a helper takes the inner gradient step on the
support set with its own tape inside the outer tape, and the outer loss on the query set is
differentiated with respect to the meta-parameters."""
# cause: connected
# depth: helper
import numpy as np
import tensorflow as tf

tf.random.set_seed(39)
rng = np.random.default_rng(39)

meta_params = [tf.Variable(tf.random.normal((1, 20), stddev=0.5), name="w1"), tf.Variable(tf.zeros((20,)), name="b1"),
               tf.Variable(tf.random.normal((20, 1), stddev=0.5), name="w2"), tf.Variable(tf.zeros((1,)), name="b2")]
meta_opt = tf.keras.optimizers.Adam(1e-3)


def forward(params, x):
    w1, b1, w2, b2 = params
    return tf.tanh(x @ w1 + b1) @ w2 + b2


def mse(params, x, y):
    return tf.reduce_mean(tf.square(forward(params, x) - y))


def inner_adapt(params, x, y, lr=0.01):
    with tf.GradientTape() as inner_tape:
        inner_tape.watch(params)
        loss = mse(params, x, y)
    grads = inner_tape.gradient(loss, params)
    return [p - lr * g for p, g in zip(params, grads)]


def sample_task(n=10):
    amp, phase = rng.uniform(0.5, 2.0), rng.uniform(0, np.pi)
    x = rng.uniform(-5, 5, (2 * n, 1)).astype("float32")
    y = (amp * np.sin(x + phase)).astype("float32")
    return (x[:n], y[:n]), (x[n:], y[n:])


tasks = [sample_task() for _ in range(3)]


def meta_loss():
    query_losses = [mse(inner_adapt(meta_params, xs, ys), xq, yq) for (xs, ys), (xq, yq) in tasks]
    return tf.add_n(query_losses) / len(tasks)


with tf.GradientTape() as outer_tape:
    loss = meta_loss()
meta_grads = outer_tape.gradient(loss, meta_params)
meta_opt.apply_gradients(zip(meta_grads, meta_params))
print("meta loss:", float(loss))


def computation():
    return (lambda *params: meta_loss()), meta_params
