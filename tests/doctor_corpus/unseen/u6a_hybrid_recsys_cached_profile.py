"""Hybrid recommender: user profiles come from user features, items have embeddings.

I put the model in a small class. The item table and the bias train fine, but the
gradient for `user_proj` prints as None at every step, so the user side never learns.
"""
# cause: outside_tape
# depth: method
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(7)
n_users, n_items, n_feats, dim = 60, 40, 5, 8
user_features = rng.normal(size=(n_users, n_feats)).astype("float32")
user_ids = rng.integers(0, n_users, size=300)
item_ids = rng.integers(0, n_items, size=300)
ratings = rng.uniform(1.0, 5.0, size=300).astype("float32")


class HybridRecommender:
    def __init__(self, user_features, n_items, dim):
        init = tf.random_normal_initializer(stddev=0.1, seed=3)
        self.user_proj = tf.Variable(init([user_features.shape[1], dim]), name="user_proj")
        self.item_table = tf.Variable(init([n_items, dim]), name="item_table")
        self.bias = tf.Variable(3.0, name="bias")
        # user features never change, so compute the profiles once
        self.user_profiles = tf.matmul(user_features, self.user_proj)  # <- expected

    @property
    def variables(self):
        return [self.user_proj, self.item_table, self.bias]

    def predict(self, users, items):
        u = tf.gather(self.user_profiles, users)
        v = tf.gather(self.item_table, items)
        return tf.reduce_sum(u * v, axis=1) + self.bias

    def loss(self, users, items, y):
        return tf.reduce_mean(tf.square(self.predict(users, items) - y))


model = HybridRecommender(user_features, n_items, dim)
optimizer = keras.optimizers.SGD(learning_rate=0.05)
for step in range(3):
    with tf.GradientTape() as tape:
        loss = model.loss(user_ids, item_ids, ratings)
    grads = tape.gradient(loss, model.variables)
    print(f"step {step} loss {loss.numpy():.4f}")
    for v, g in zip(model.variables, grads):
        print("  ", v.name, None if g is None else float(tf.norm(g)))
    optimizer.apply_gradients(zip(grads, model.variables))


def computation():
    return (lambda: model.loss(user_ids, item_ids, ratings)), model.variables
