"""Session-based recommender that picks the user's "dominant interest".

Each session has a few interest capsules; a small attention layer scores them
against the candidate item and I keep the best-matching capsule, then take a dot
product with the item embedding. Training runs, the loss goes down a bit, but the
gradients for the attention layer's `query_proj` kernel are None every single step.
Item embeddings and capsules do get gradients.
"""
# cause: not_differentiable
# depth: layer
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(1)

N_ITEMS, DIM, N_CAPS, BATCH = 50, 8, 4, 16


class DominantInterest(tf.keras.layers.Layer):
    def __init__(self, dim, **kw):
        super().__init__(**kw)
        self.query_proj = tf.keras.layers.Dense(dim, use_bias=False, name="query_proj")

    def call(self, capsules, target_emb):
        q = self.query_proj(target_emb)                       # (B, D)
        scores = tf.einsum("bkd,bd->bk", capsules, q)         # (B, K)
        best = tf.argmax(scores, axis=-1)                     # <- expected
        return tf.gather(capsules, best, batch_dims=1)        # (B, D)


class SessionRecommender(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.item_emb = tf.keras.layers.Embedding(N_ITEMS, DIM)
        self.caps_proj = tf.keras.layers.Dense(N_CAPS * DIM)
        self.interest = DominantInterest(DIM)

    def call(self, history, target):
        h = tf.reduce_mean(self.item_emb(history), axis=1)
        capsules = tf.reshape(self.caps_proj(h), (-1, N_CAPS, DIM))
        t = self.item_emb(target)
        user = self.interest(capsules, t)
        return tf.reduce_sum(user * t, axis=-1)


model = SessionRecommender()
history = tf.constant(np.random.randint(0, N_ITEMS, size=(BATCH, 5)))
target = tf.constant(np.random.randint(0, N_ITEMS, size=(BATCH,)))
clicked = tf.constant(np.random.randint(0, 2, size=(BATCH,)).astype(np.float32))
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def loss_fn():
    return bce(clicked, model(history, target))


with tf.GradientTape() as tape:
    loss = loss_fn()
grads = tape.gradient(loss, model.trainable_variables)
for v, g in zip(model.trainable_variables, grads):
    print(f"{v.path:45s}", None if g is None else float(tf.norm(g)))


def computation():
    return loss_fn, model.trainable_variables
