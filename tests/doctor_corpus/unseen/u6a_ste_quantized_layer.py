"""Quantisation-aware training of an activity classifier for a microcontroller.

My custom Dense layer rounds its weights to 4-bit levels in the forward pass.
People told me tf.round has no gradient, so I want to check the kernel still gets
a gradient through my layer (all gradients printed below).
"""
# cause: connected
# depth: layer
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(12)
n, n_feats, n_classes = 240, 9, 3
activity = rng.integers(0, n_classes, size=n)
centers = rng.normal(size=(n_classes, n_feats))
imu = (centers[activity] + 0.5 * rng.normal(size=(n, n_feats))).astype("float32")


class QuantDense(keras.layers.Layer):
    def __init__(self, units, bits=4, **kwargs):
        super().__init__(**kwargs)
        self.units, self.levels = units, 2 ** (bits - 1) - 1

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform", name="kernel")
        self.bias = self.add_weight(shape=(self.units,), initializer="zeros", name="bias")

    def call(self, x):
        scale = tf.reduce_max(tf.abs(self.kernel)) / self.levels
        w_q = tf.round(self.kernel / scale) * scale
        w = self.kernel + tf.stop_gradient(w_q - self.kernel)
        return tf.matmul(x, w) + self.bias


keras.utils.set_random_seed(12)
model = keras.Sequential([keras.Input((n_feats,)), QuantDense(16), keras.layers.ReLU(), QuantDense(n_classes)])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-2)
x, y = tf.constant(imu), tf.constant(activity)

for step in range(3):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(f"step {step}: loss {float(loss):.4f}")
for v, g in zip(model.trainable_variables, grads):
    print(f"{v.path:25s}", None if g is None else float(tf.norm(g)))


def computation():
    return (lambda: loss_fn(y, model(x, training=True))), model.trainable_variables
