"""An LSTM forecaster that predicts the 10/50/90% quantiles of next week's demand with a pinball loss
helper; the very first step fails inside tape.gradient with a TypeError."""
# cause: no_target
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(12)
QUANTILES = tf.constant([0.1, 0.5, 0.9])
HORIZON = 7


def pinball_loss(y_true, q_pred, quantiles=QUANTILES):
    err = y_true[..., None] - q_pred
    loss = tf.reduce_mean(tf.maximum(quantiles * err, (quantiles - 1.0) * err))  # <- expected


model = keras.Sequential([
    keras.Input((28, 1)),
    keras.layers.LSTM(16),
    keras.layers.Dense(HORIZON * 3),
    keras.layers.Reshape((HORIZON, 3)),
])
optimizer = keras.optimizers.Adam(1e-3)

rng = np.random.default_rng(12)
days = np.arange(35 + 8)
series = 10 + 3 * np.sin(2 * np.pi * days / 7) + rng.normal(0, 0.5, size=days.size)
windows = np.stack([series[i:i + 35] for i in range(8)]).astype("float32")
x, y = windows[:, :28, None], windows[:, 28:]

with tf.GradientTape() as tape:
    q = model(x)
    loss = pinball_loss(y, q)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
