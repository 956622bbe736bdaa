"""Session-based next-item recommender with a smoothed session query.

The user query is an exponential moving average of the projected embeddings of the items
clicked so far in the session (the state lives in the layer, like BatchNorm's moving
mean). Scores are dot products with candidate item embeddings. The item table gets a
gradient, but the projection Dense inside SessionQuery never does: both its kernel and
bias gradients are None, every step. I expected the EMA to be differentiable, it's just
arithmetic.
"""
# cause: stateful
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(13)
rng = np.random.RandomState(13)
n_items, dim = 50, 8


class SessionQuery(keras.layers.Layer):
    def __init__(self, dim, momentum=0.7, **kw):
        super().__init__(**kw)
        self.proj = keras.layers.Dense(dim, activation="tanh")
        self.momentum = momentum

    def build(self, input_shape):
        self.proj.build(input_shape)
        self.state = tf.Variable(tf.zeros(input_shape[-1:]), trainable=False,
                                 name="session_state")

    def call(self, clicked_embs):
        step_summary = tf.reduce_mean(self.proj(clicked_embs), axis=0)
        smoothed = self.state.assign(self.momentum * self.state + (1.0 - self.momentum) * step_summary)  # <- expected
        return smoothed


item_table = keras.layers.Embedding(n_items, dim)
query_layer = SessionQuery(dim)
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

clicks = tf.constant(rng.randint(0, n_items, size=(4,)))   # items clicked this session
next_item = tf.constant([rng.randint(0, n_items)])


def compute_loss():
    q = query_layer(item_table(clicks))
    scores = tf.matmul(q[None, :], item_table.embeddings, transpose_b=True)
    return xent(next_item, scores)


with tf.GradientTape() as tape:
    loss = compute_loss()
variables = item_table.trainable_variables + query_layer.trainable_variables
grads = tape.gradient(loss, variables)
print("loss", float(loss))
for v, g in zip(variables, grads):
    print(f"{v.path:28s}", "None" if g is None else "ok")


def computation():
    return compute_loss, item_table.trainable_variables + query_layer.trainable_variables
