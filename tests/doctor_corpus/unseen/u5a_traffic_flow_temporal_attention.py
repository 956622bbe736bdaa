"""Forecasts the next 5-minute vehicle count at 8 road sensors by attending over the last hour of
counts; the loss turns into NaN on the first batch and so do all gradients."""
# cause: nan_overflow
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(21)
rng = np.random.default_rng(21)

B, T, S = 32, 12, 8
base = rng.uniform(80, 400, size=(B, 1, S))
history = (base + rng.normal(0, 25, size=(B, T, S))).clip(0).astype("float32")
target = (base[:, 0, :] + rng.normal(0, 25, size=(B, S))).clip(0).astype("float32")


def temporal_attention(query, keys, values):
    scores = tf.einsum("bd,btd->bt", query, keys)
    weights = tf.exp(scores) / tf.reduce_sum(tf.exp(scores), axis=1, keepdims=True)  # <- expected
    return tf.einsum("bt,btd->bd", weights, values)


class FlowForecaster(keras.Model):
    def __init__(self, dim=16, sensors=S):
        super().__init__()
        self.q = keras.layers.Dense(dim)
        self.k = keras.layers.Dense(dim)
        self.v = keras.layers.Dense(dim)
        self.out = keras.layers.Dense(sensors)

    def call(self, hist):
        context = temporal_attention(self.q(hist[:, -1]), self.k(hist), self.v(hist))
        return self.out(context)


def make_model():
    keras.utils.set_random_seed(21)
    m = FlowForecaster()
    m(history[:2])
    return m


model = make_model()
opt = keras.optimizers.Adam(1e-3)

for step in range(3):
    with tf.GradientTape() as tape:
        pred = model(history, training=True)
        loss = tf.reduce_mean(tf.abs(pred - target))
    grads = tape.gradient(loss, model.trainable_variables)
    print(step, "loss", float(loss), "nan grads:",
          sum(bool(tf.reduce_any(tf.math.is_nan(g))) for g in grads), "/", len(grads))
    opt.apply_gradients(zip(grads, model.trainable_variables))


def computation():
    fresh = make_model()

    def compute():
        return tf.reduce_mean(tf.abs(fresh(history, training=True) - target))

    return compute, fresh.trainable_variables
