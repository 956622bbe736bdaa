"""Self-attention over the readings of a few sensors, written by hand in a keras.Model subclass.
The readings are raw (tens of degrees, about 100 kPa). The prediction is NaN and so is every
gradient."""
# cause: nan_overflow
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(9)


class SensorAttention(keras.Model):
    def __init__(self, dim=8):
        super().__init__()
        self.q = keras.layers.Dense(dim)
        self.k = keras.layers.Dense(dim)
        self.v = keras.layers.Dense(dim)
        self.head = keras.layers.Dense(1)

    def call(self, x):
        q, k, v = self.q(x), self.k(x), self.v(x)
        scores = tf.matmul(q, k, transpose_b=True)
        weights = tf.exp(scores) / tf.reduce_sum(tf.exp(scores), axis=-1, keepdims=True)  # <- expected
        context = tf.matmul(weights, v)
        return self.head(tf.reduce_mean(context, axis=1))


# batch of 4 time steps x 5 sensors x 3 features (temperature, pressure, humidity)
readings = np.stack([
    np.random.uniform(15, 35, (4, 5)),
    np.random.uniform(95, 105, (4, 5)),
    np.random.uniform(30, 70, (4, 5)),
], axis=-1).astype("float32")
target = np.random.rand(4, 1).astype("float32")

model = SensorAttention()
with tf.GradientTape() as tape:
    pred = model(readings)
    loss = tf.reduce_mean(tf.square(pred - target))
grads = tape.gradient(loss, model.trainable_variables)
print("prediction:", pred.numpy().ravel())
print("any NaN in grads:", any(bool(tf.reduce_any(tf.math.is_nan(g))) for g in grads))


def computation():
    return (lambda *variables: tf.reduce_mean(tf.square(model(readings) - target))), model.trainable_variables
