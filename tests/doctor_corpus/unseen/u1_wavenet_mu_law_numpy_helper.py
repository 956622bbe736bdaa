"""A tiny WaveNet-style next-sample predictor; the loss compares mu-law companded audio, and since
the companding moved into a helper every gradient of the dilated conv stack is None."""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
MU = 255.0


def mu_law(x):
    """Compand a waveform in [-1, 1], as in the WaveNet paper."""
    return np.sign(x) * np.log1p(MU * np.abs(x)) / np.log1p(MU)  # <- expected


def companded_mse(y_true, y_pred):
    return tf.reduce_mean(tf.square(mu_law(y_true) - mu_law(y_pred)))


model = keras.Sequential([
    keras.Input((None, 1)),
    keras.layers.Conv1D(8, 2, dilation_rate=1, padding="causal", activation="tanh"),
    keras.layers.Conv1D(8, 2, dilation_rate=2, padding="causal", activation="tanh"),
    keras.layers.Conv1D(8, 2, dilation_rate=4, padding="causal", activation="tanh"),
    keras.layers.Conv1D(1, 1, activation="tanh"),
])
optimizer = keras.optimizers.Adam(1e-3)

t = np.linspace(0.0, 1.0, 65, dtype=np.float32)
wave = 0.6 * np.sin(2 * np.pi * 220 * t) + 0.05 * np.random.default_rng(0).normal(size=65)
wave = wave.astype(np.float32)
x = tf.constant(wave[None, :-1, None])
y = tf.constant(wave[None, 1:, None])


def computation():
    return (lambda: companded_mse(y, model(x))), model.trainable_variables


with tf.GradientTape() as tape:
    pred = model(x)
    loss = companded_mse(y, pred)
grads = tape.gradient(loss, model.trainable_variables)
print("loss", float(loss))
