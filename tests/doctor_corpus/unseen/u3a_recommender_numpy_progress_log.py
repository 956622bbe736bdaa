"""Matrix-factorization recommender with user/item embeddings and an item bias, trained on random ratings, with
NumPy used to track how many predictions fall inside the 1-5 star range. All embedding gradients are finite tensors."""
# cause: connected
# depth: layer
import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(1)
keras.utils.set_random_seed(1)

n_users, n_items, dim = 20, 30, 8
users = rng.integers(0, n_users, size=64)
items = rng.integers(0, n_items, size=64)
ratings = rng.integers(1, 6, size=64).astype("float32")


class MatrixFactorization(keras.Model):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user_emb = keras.layers.Embedding(n_users, dim)
        self.item_emb = keras.layers.Embedding(n_items, dim)
        self.item_bias = keras.layers.Embedding(n_items, 1)

    def call(self, inputs):
        user_ids, item_ids = inputs
        u = self.user_emb(user_ids)
        v = self.item_emb(item_ids)
        affinity = tf.reduce_sum(u * v, axis=1)
        return affinity + tf.squeeze(self.item_bias(item_ids), axis=-1) + 3.0


model = MatrixFactorization(n_users, n_items, dim)
optimizer = keras.optimizers.Adam(0.01)
u_batch = tf.constant(users)
i_batch = tf.constant(items)
y_batch = tf.constant(ratings)

for epoch in range(3):
    with tf.GradientTape() as tape:
        pred = model((u_batch, i_batch))
        in_range = np.mean((pred.numpy() >= 1.0) & (pred.numpy() <= 5.0))
        loss = tf.reduce_mean(tf.square(pred - y_batch))
    grads = tape.gradient(loss, model.trainable_variables)
    for var, g in zip(model.trainable_variables, grads):
        print(f"epoch {epoch} {var.path}: grad is None -> {g is None}")
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(f"epoch {epoch} mse {float(loss):.4f}, in 1-5 range: {in_range:.2f}")


def computation():
    def compute():
        pred = model((u_batch, i_batch))
        return tf.reduce_mean(tf.square(pred - y_batch))
    return compute, list(model.trainable_variables)
