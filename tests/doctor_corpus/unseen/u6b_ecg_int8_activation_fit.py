"""Quantization-aware training of a tiny ECG beat classifier for a microcontroller.

Activations after the first layer are snapped to int8 levels by a custom layer so
the model sees deployment precision while training. During model.fit Keras warns
"Gradients do not exist for variables ['.../dense/kernel', '.../dense/bias']", and
the first layer's weights never change.
"""
# cause: not_differentiable
# depth: fit
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(6)
t = np.linspace(-1, 1, 32, dtype="float32")
labels = rng.integers(0, 2, 400)
qrs_width = np.where(labels == 1, 0.25, 0.08)[:, None]
beats = np.exp(-(t[None, :] / qrs_width) ** 2) + 0.3 * np.exp(-((t[None, :] - 0.5) / 0.15) ** 2)
beats = (beats + rng.normal(0, 0.05, beats.shape)).astype("float32")


class Int8Activation(keras.layers.Layer):
    def __init__(self, scale=127.0, **kwargs):
        super().__init__(**kwargs)
        self.scale = scale

    def call(self, x):
        x = tf.clip_by_value(x, -1.0, 1.0)
        return tf.round(x * self.scale) / self.scale  # <- expected


keras.utils.set_random_seed(6)
model = keras.Sequential([
    keras.Input((32,)),
    keras.layers.Dense(16, activation="tanh"),
    Int8Activation(),
    keras.layers.Dense(2, activation="softmax"),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
first_kernel = model.layers[0].kernel.numpy().copy()
model.fit(beats, labels, batch_size=50, epochs=2, verbose=2)
change = np.abs(model.layers[0].kernel.numpy() - first_kernel).max()
print("max change in first-layer kernel after fit:", change)

x_batch, y_batch = tf.constant(beats[:50]), tf.constant(labels[:50])


def batch_loss():
    probs = model(x_batch)
    return tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(y_batch, probs))


def computation():
    return batch_loss, model.trainable_variables
