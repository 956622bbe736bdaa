"""Count regression (bike rentals per hour) trained on the Poisson deviance. Hours with zero rentals
are skipped inside the log with tf.where, yet the gradients come out NaN."""
# cause: nan_unsafe_where
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(4)

x = np.random.rand(12, 3).astype("float32")
counts = np.random.poisson(2.0, size=(12, 1)).astype("float32")
counts[::4] = 0.0  # night hours, nobody rents

model = keras.Sequential([
    keras.Input((3,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1, activation="exponential"),  # predicted rate > 0
])


def poisson_deviance(y, mu):
    # y * log(y / mu) is 0 when y == 0
    term = tf.where(y > 0, y * tf.math.log(y / mu), tf.zeros_like(y))  # <- expected
    return 2.0 * tf.reduce_mean(term - (y - mu))


with tf.GradientTape() as tape:
    mu = model(x, training=True)
    loss = poisson_deviance(counts, mu)
grads = tape.gradient(loss, model.trainable_variables)
print("deviance:", float(loss))
print("output kernel grad:", grads[2][:3, 0].numpy())


def computation():
    return (lambda *variables: poisson_deviance(counts, model(x))), model.trainable_variables
