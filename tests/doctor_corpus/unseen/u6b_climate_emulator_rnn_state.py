"""A tiny recurrent emulator of daily temperature anomalies from a toy climate model.

The hidden state lives in a tf.Variable so the emulator can also be stepped one day
at a time in a coupled run. When training on a 30-day window, the asker finds that
the gradients of the input and recurrent weights are None; only the readout
weights get a gradient.
"""
# cause: stateful
# depth: tf.function
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(7)
days = np.arange(120, dtype="float32")
forcing = np.stack([
    np.sin(2 * np.pi * days / 365.0),
    np.cos(2 * np.pi * days / 30.0),
    rng.normal(0.0, 0.3, 120),
], axis=-1).astype("float32")
anomaly = (0.8 * forcing[:, 0] + 0.3 * np.roll(forcing[:, 1], 3)
           + rng.normal(0.0, 0.05, 120)).astype("float32")

hidden = 16
W_in = tf.Variable(tf.random.normal([3, hidden], stddev=0.3, seed=1), name="W_in")
W_rec = tf.Variable(tf.random.normal([hidden, hidden], stddev=0.1, seed=2), name="W_rec")
W_out = tf.Variable(tf.random.normal([hidden, 1], stddev=0.3, seed=3), name="W_out")
state = tf.Variable(tf.zeros([1, hidden]), name="state")


@tf.function
def emulator_step(x_t):
    state.assign(tf.tanh(x_t @ W_in + state @ W_rec))  # <- expected
    return state @ W_out


window = 30
inputs = tf.constant(forcing[:window, None, :])
observed = tf.constant(anomaly[:window])


def window_loss():
    state.assign(tf.zeros_like(state))
    preds = [emulator_step(inputs[t]) for t in range(window)]
    pred = tf.reshape(tf.concat(preds, axis=0), [-1])
    return tf.reduce_mean((pred - observed) ** 2)


params = [W_in, W_rec, W_out]
with tf.GradientTape() as tape:
    loss = window_loss()
grads = tape.gradient(loss, params)
print("loss:", float(loss))
for p, g in zip(params, grads):
    print(p.name, "grad:", None if g is None else float(tf.norm(g)))


def computation():
    return window_loss, params
