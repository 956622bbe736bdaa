"""MAML on sine-wave regression tasks: the meta-gradients of the query loss with respect to the
base network's weights are all None, so the outer optimizer has nothing to apply."""
# cause: inner_gradient_outside
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
inner_lr = 0.01

model = keras.Sequential([
    keras.Input((1,)),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(1),
])


def forward(x, weights):
    k1, b1, k2, b2, k3, b3 = weights
    h = tf.nn.relu(tf.matmul(x, k1) + b1)
    h = tf.nn.relu(tf.matmul(h, k2) + b2)
    return tf.matmul(h, k3) + b3


def sample_task(rng, n=10):
    amplitude, phase = rng.uniform(0.1, 5.0), rng.uniform(0.0, np.pi)
    x = rng.uniform(-5.0, 5.0, size=(2 * n, 1)).astype("float32")
    y = (amplitude * np.sin(x - phase)).astype("float32")
    return x[:n], y[:n], x[n:], y[n:]


rng = np.random.default_rng(0)
x_s, y_s, x_q, y_q = sample_task(rng)

with tf.GradientTape() as outer_tape:
    with tf.GradientTape() as inner_tape:
        support_loss = tf.reduce_mean((forward(x_s, model.trainable_variables) - y_s) ** 2)
inner_grads = inner_tape.gradient(support_loss, model.trainable_variables)  # <- expected
fast_weights = [w - inner_lr * g for w, g in zip(model.trainable_variables, inner_grads)]
query_loss = tf.reduce_mean((forward(x_q, fast_weights) - y_q) ** 2)

meta_grads = outer_tape.gradient(query_loss, model.trainable_variables)
print("query loss:", float(query_loss), "meta-gradient of the first kernel:", meta_grads[0])
