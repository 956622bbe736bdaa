"""MAML on sine regression with functional weights and a compiled meta step; the meta
optimizer fails with "No gradients provided for any variable"."""
# cause: inner_gradient_outside
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(37)
params = [
    tf.Variable(tf.random.normal((1, 20), stddev=0.5), name="w1"),
    tf.Variable(tf.zeros((20,)), name="b1"),
    tf.Variable(tf.random.normal((20, 1), stddev=0.5), name="w2"),
    tf.Variable(tf.zeros((1,)), name="b2"),
]
inner_lr = 0.01
meta_opt = keras.optimizers.Adam(1e-3)


def forward(weights, x):
    w1, b1, w2, b2 = weights
    return tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2


def mse(weights, x, y):
    return tf.reduce_mean(tf.square(forward(weights, x) - y))


@tf.function
def meta_step(x_support, y_support, x_query, y_query):
    with tf.GradientTape() as outer_tape:
        with tf.GradientTape() as inner_tape:
            support_loss = mse(params, x_support, y_support)
    inner_grads = inner_tape.gradient(support_loss, params)  # <- expected
    fast_weights = [w - inner_lr * g for w, g in zip(params, inner_grads)]
    query_loss = mse(fast_weights, x_query, y_query)
    meta_grads = outer_tape.gradient(query_loss, params)
    meta_opt.apply_gradients(zip(meta_grads, params))
    return query_loss


def sample_task():
    amp, phase = np.random.uniform(0.1, 5.0), np.random.uniform(0, np.pi)
    x = np.random.uniform(-5, 5, (20, 1)).astype("float32")
    y = (amp * np.sin(x + phase)).astype("float32")
    return x[:10], y[:10], x[10:], y[10:]


for it in range(2):
    print(it, float(meta_step(*sample_task())))
