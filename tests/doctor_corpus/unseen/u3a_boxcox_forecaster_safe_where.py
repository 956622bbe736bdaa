"""Time-series forecaster whose first layer is a learnable Box-Cox transform, using a second-order expansion around
lambda = 0 and a guarded denominator in the other branch. Loss and all gradients, including d/dlambda, stay finite."""
# cause: connected
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
        log_x = tf.math.log(x)
        near_zero = tf.abs(self.lmbda) < 1e-4
        safe_lmbda = tf.where(near_zero, tf.ones_like(self.lmbda), self.lmbda)
        return tf.where(near_zero,
                        log_x + 0.5 * self.lmbda * tf.square(log_x),
                        (tf.pow(x, safe_lmbda) - 1.0) / safe_lmbda)


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
