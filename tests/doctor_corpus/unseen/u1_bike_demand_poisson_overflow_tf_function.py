"""Hourly bike-rental counts with a Poisson regression head and a hand-written Poisson NLL, trained
by a tf.function step on the raw weather features; the loss and every gradient are NaN."""
# cause: nan_overflow
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(14)

rng = np.random.default_rng(14)
n = 64
temp_f = rng.uniform(30, 100, n)
humidity = rng.uniform(20, 100, n)
wind_mph = rng.uniform(0, 30, n)
pressure_hpa = rng.uniform(990, 1030, n)
hour = rng.integers(0, 24, n)
X = np.column_stack([temp_f, humidity, wind_mph, pressure_hpa, hour]).astype("float32")
counts = rng.poisson(np.exp(1.0 + 0.02 * temp_f - 0.01 * humidity)).astype("float32")

model = keras.Sequential([
    keras.Input((5,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        rate = tf.exp(tf.squeeze(model(x), -1))  # <- expected
        nll = tf.reduce_mean(rate - y * tf.math.log(rate))
    grads = tape.gradient(nll, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return nll


for start in (0, 32):
    nll = train_step(X[start:start + 32], counts[start:start + 32])
print("nll", float(nll))
