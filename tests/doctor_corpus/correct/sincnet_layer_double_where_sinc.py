"""A SincNet-style band-pass layer for raw audio with learnable cut-off frequencies. The sinc is
computed with the argument replaced by 1 at t = 0 before dividing, and the result picked with a
second tf.where."""
# cause: connected
# depth: layer
import math
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(23)


def band_init(low, high):
    return keras.initializers.RandomUniform(low, high)


class SincBandPass(keras.layers.Layer):
    def __init__(self, filters, kernel_size, sample_rate=16000, **kwargs):
        super().__init__(**kwargs)
        self.filters, self.kernel_size, self.sample_rate = filters, kernel_size, sample_rate

    def build(self, input_shape):
        self.low_hz = self.add_weight(name="low_hz", shape=(self.filters,), initializer=band_init(50.0, 2000.0))
        self.band_hz = self.add_weight(name="band_hz", shape=(self.filters,), initializer=band_init(100.0, 1000.0))

    def call(self, x):
        half = self.kernel_size // 2
        t = tf.range(-half, half + 1, dtype=tf.float32) / self.sample_rate
        low = tf.abs(self.low_hz)
        high = low + tf.abs(self.band_hz)
        f = tf.stack([low, high])  # (2, filters)
        arg = 2.0 * math.pi * f[:, :, None] * t
        safe_arg = tf.where(arg == 0, tf.ones_like(arg), arg)
        sinc = tf.where(arg == 0, tf.ones_like(arg), tf.sin(safe_arg) / safe_arg)
        filters = 2.0 * high[:, None] * sinc[1] - 2.0 * low[:, None] * sinc[0]
        filters = filters * tf.signal.hamming_window(self.kernel_size, periodic=False)
        filters = filters / tf.reduce_max(tf.abs(filters), axis=1, keepdims=True)
        kernel = tf.transpose(filters)[:, None, :]
        return tf.nn.conv1d(x, kernel, stride=1, padding="SAME")


model = keras.Sequential([
    keras.Input((400, 1)),
    SincBandPass(4, 31),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(2),
])
waves = tf.constant(np.random.randn(3, 400, 1).astype("float32"))
labels = tf.constant([0, 1, 1])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    loss = loss_fn(labels, model(waves, training=True))
grads = tape.gradient(loss, model.trainable_variables)
print("loss:", float(loss), "| grad of low_hz:", grads[0].numpy())


def computation():
    return (lambda *variables: loss_fn(labels, model(waves))), model.trainable_variables
