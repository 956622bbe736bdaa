"""A two-tower click model with a learned feature gate between the embedding lookup and the scoring
MLP; the gate's kernel never changes, and its gradient is None on every step."""
# cause: not_differentiable
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(9)


class FeatureGate(keras.layers.Layer):
    """Lets each example switch off the interaction features it does not need."""

    def build(self, input_shape):
        d = input_shape[-1]
        self.kernel = self.add_weight(shape=(d, d), initializer="glorot_uniform", name="kernel")
        self.bias = self.add_weight(shape=(d,), initializer="zeros", name="bias")

    def call(self, x):
        gate = tf.cast(tf.matmul(x, self.kernel) + self.bias > 0.0, x.dtype)  # <- expected
        return x * gate


class ClickModel(keras.Model):
    def __init__(self, n_users, n_items, dim=8):
        super().__init__()
        self.user_emb = keras.layers.Embedding(n_users, dim)
        self.item_emb = keras.layers.Embedding(n_items, dim)
        self.gate = FeatureGate()
        self.head = keras.Sequential([keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])

    def call(self, users, items):
        u, i = self.user_emb(users), self.item_emb(items)
        return tf.squeeze(self.head(self.gate(tf.concat([u, i, u * i], -1))), -1)


rng = np.random.default_rng(9)
users = tf.constant(rng.integers(0, 20, 64))
items = tf.constant(rng.integers(0, 50, 64))
clicks = tf.constant(rng.random(64) < 0.3, tf.float32)
model = ClickModel(20, 50)
bce = keras.losses.BinaryCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-2)


def computation():
    return (lambda: bce(clicks, model(users, items))), model.trainable_variables


with tf.GradientTape() as tape:
    loss = bce(clicks, model(users, items))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
