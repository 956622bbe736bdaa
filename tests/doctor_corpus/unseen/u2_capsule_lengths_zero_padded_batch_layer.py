"""Class-capsule layer (squash, capsule lengths as class scores) trained with the margin loss. The
last batch is padded with all-zero rows to a fixed size; the loss is finite but the gradients of the
capsule kernel are NaN."""
# cause: nan_at_zero
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(5)


class ClassCapsules(keras.layers.Layer):
    def __init__(self, num_capsules, capsule_dim, **kwargs):
        super().__init__(**kwargs)
        self.num_capsules = num_capsules
        self.capsule_dim = capsule_dim

    def build(self, input_shape):
        self.kernel = self.add_weight(
            shape=(input_shape[-1], self.num_capsules * self.capsule_dim),
            initializer="glorot_uniform", name="kernel")

    def squash(self, s):
        sq_norm = tf.reduce_sum(tf.square(s), axis=-1, keepdims=True)
        return sq_norm / (1.0 + sq_norm) * s / tf.sqrt(sq_norm + 1e-7)

    def call(self, x):
        s = tf.reshape(tf.matmul(x, self.kernel), (-1, self.num_capsules, self.capsule_dim))
        v = self.squash(s)
        return tf.norm(v, axis=-1)  # <- expected


def margin_loss(y_true, lengths, m_plus=0.9, m_minus=0.1, down_weight=0.5):
    present = y_true * tf.square(tf.nn.relu(m_plus - lengths))
    absent = down_weight * (1.0 - y_true) * tf.square(tf.nn.relu(lengths - m_minus))
    return tf.reduce_mean(tf.reduce_sum(present + absent, axis=-1))


model = keras.Sequential([keras.Input((20,)), ClassCapsules(3, 8)])
features = np.random.default_rng(5).normal(size=(6, 20)).astype("float32")
features[4:] = 0.0  # padding rows
targets = tf.one_hot([0, 2, 1, 0, 0, 0], 3)

with tf.GradientTape() as tape:
    loss = margin_loss(targets, model(features, training=True))
grads = tape.gradient(loss, model.trainable_variables)
keras.optimizers.Adam(1e-3).apply_gradients(zip(grads, model.trainable_variables))
print("loss:", float(loss))


def computation():
    return (lambda: margin_loss(targets, model(features, training=True))), model.trainable_variables
