"""Matrix factorisation for implicit feedback: user and item Embedding layers, a dot product and
per-user/per-item biases, trained with a custom loop on sampled negatives."""
# cause: connected
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(17)
N_USERS, N_ITEMS, DIM = 30, 80, 8


class MF(keras.Model):
    def __init__(self):
        super().__init__()
        self.user_vec = keras.layers.Embedding(N_USERS, DIM, embeddings_initializer="normal")
        self.item_vec = keras.layers.Embedding(N_ITEMS, DIM, embeddings_initializer="normal")
        self.user_bias = keras.layers.Embedding(N_USERS, 1, embeddings_initializer="zeros")
        self.item_bias = keras.layers.Embedding(N_ITEMS, 1, embeddings_initializer="zeros")

    def call(self, users, items):
        dot = tf.reduce_sum(self.user_vec(users) * self.item_vec(items), axis=-1)
        return dot + tf.squeeze(self.user_bias(users) + self.item_bias(items), -1)


rng = np.random.default_rng(17)
pos_u = rng.integers(0, N_USERS, 128)
pos_i = rng.integers(0, N_ITEMS, 128)
users = tf.constant(np.concatenate([pos_u, pos_u]))
items = tf.constant(np.concatenate([pos_i, rng.integers(0, N_ITEMS, 128)]))
labels = tf.constant(np.r_[np.ones(128), np.zeros(128)], tf.float32)

model = MF()
optimizer = keras.optimizers.Adam(1e-2)
bce = keras.losses.BinaryCrossentropy(from_logits=True)


def computation():
    return (lambda: bce(labels, model(users, items))), model.trainable_variables


for step in range(2):
    with tf.GradientTape() as tape:
        loss = bce(labels, model(users, items))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("loss", float(loss))
