"""Time-series forecaster whose first layer is a learnable Box-Cox transform (log transform when lambda is 0),
followed by a dense head. The loss is finite but the gradient for lambda is NaN, so lambda turns to NaN after one step."""
# cause: nan_unsafe_where
# depth: layer
import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(7)
keras.utils.set_random_seed(7)

lookback = 12
level = np.exp(np.cumsum(rng.normal(0.01, 0.05, 300))) * 100.0
windows = np.stack([level[i:i + lookback] for i in range(200)]).astype("float32")
next_value = np.log(level[lookback:lookback + 200]).astype("float32")[:, None]


class BoxCox(keras.layers.Layer):
    def build(self, input_shape):
        self.lmbda = self.add_weight(shape=(), initializer="zeros", name="lmbda")

    def call(self, x):
        power_branch = (tf.pow(x, self.lmbda) - 1.0) / self.lmbda  # <- expected
        return tf.where(tf.abs(self.lmbda) < 1e-4, tf.math.log(x), power_branch)  # <- expected


def build_forecaster():
    return keras.Sequential([
        keras.Input((lookback,)),
        BoxCox(),
        keras.layers.Dense(16, activation="tanh"),
        keras.layers.Dense(1),
    ])


model = build_forecaster()
optimizer = keras.optimizers.Adam(1e-2)
x = tf.constant(windows)
y = tf.constant(next_value)

for step in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    print(f"step {step}: loss {loss.numpy():.4f}, d/dlambda = {grads[0].numpy()}")
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


def computation():
    fresh = build_forecaster()
    return (lambda: tf.reduce_mean(tf.square(fresh(x, training=True) - y))), list(fresh.trainable_variables)
