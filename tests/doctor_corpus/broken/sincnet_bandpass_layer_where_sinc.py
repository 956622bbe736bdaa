"""A SincNet-style first layer for raw audio: band-pass filters built from two sinc low-passes with
learnable cut-off frequencies. The forward pass looks right, the gradients of the cut-offs are NaN."""
# cause: nan_unsafe_where
# depth: layer
import math
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(8)


class SincConv1D(keras.layers.Layer):
    def __init__(self, filters, kernel_size, sample_rate=16000, **kwargs):
        super().__init__(**kwargs)
        self.filters = filters
        self.kernel_size = kernel_size
        self.sample_rate = sample_rate

    def build(self, input_shape):
        self.low_hz = self.add_weight(name="low_hz", shape=(self.filters,),
                                      initializer=keras.initializers.RandomUniform(50.0, 2000.0))
        self.band_hz = self.add_weight(name="band_hz", shape=(self.filters,),
                                       initializer=keras.initializers.RandomUniform(100.0, 1000.0))

    def call(self, x):
        half = self.kernel_size // 2
        t = tf.range(-half, half + 1, dtype=tf.float32) / self.sample_rate
        low = tf.abs(self.low_hz)
        high = low + tf.abs(self.band_hz)
        arg_low = 2.0 * math.pi * low[:, None] * t[None, :]
        arg_high = 2.0 * math.pi * high[:, None] * t[None, :]
        # sinc(0) = 1
        sinc_low = tf.where(arg_low == 0, tf.ones_like(arg_low), tf.sin(arg_low) / arg_low)  # <- expected
        sinc_high = tf.where(arg_high == 0, tf.ones_like(arg_high), tf.sin(arg_high) / arg_high)  # <- expected
        filters = 2.0 * high[:, None] * sinc_high - 2.0 * low[:, None] * sinc_low
        filters = filters / tf.reduce_max(tf.abs(filters), axis=1, keepdims=True)
        kernel = tf.transpose(filters)[:, None, :]  # (kernel_size, 1, filters)
        return tf.nn.conv1d(x, kernel, stride=1, padding="SAME")


model = keras.Sequential([
    keras.Input((400, 1)),
    SincConv1D(4, 31),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(2),
])
waves = tf.constant(np.random.randn(3, 400, 1).astype("float32"))
labels = tf.constant([0, 1, 1])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    loss = loss_fn(labels, model(waves, training=True))
grads = tape.gradient(loss, model.trainable_variables)
print("loss:", float(loss))
print("grad of low_hz:", grads[0].numpy())


def computation():
    return (lambda *variables: loss_fn(labels, model(waves))), model.trainable_variables
