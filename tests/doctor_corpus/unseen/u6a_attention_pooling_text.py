"""Sentiment classifier on token ids with an attention-pooling layer I wrote.

Embedding, attention pooling, then a dense head. The embedding and the head get
gradients, but the attention layer's kernel and bias print as None.
"""
# cause: unused
# depth: layer
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(5)
vocab, seq_len, n = 200, 12, 128
tokens = rng.integers(1, vocab, size=(n, seq_len))
labels = (tokens[:, :4].mean(axis=1) > vocab / 2).astype("float32")[:, None]


class AttentionPooling(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.scorer = keras.layers.Dense(1, name="scorer")

    def call(self, h):
        scores = self.scorer(h)                      # (batch, seq, 1)
        weights = tf.nn.softmax(scores, axis=1)
        pooled = tf.reduce_mean(h, axis=1)  # <- expected
        return pooled, weights


class SentimentModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = keras.layers.Embedding(vocab, 16)
        self.pool = AttentionPooling()
        self.head = keras.layers.Dense(1)

    def call(self, x):
        pooled, _ = self.pool(self.embed(x))
        return self.head(pooled)


keras.utils.set_random_seed(5)
model = SentimentModel()
loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
x = tf.constant(tokens)
y = tf.constant(labels)
model(x)


def compute_loss():
    return loss_fn(y, model(x))


with tf.GradientTape() as tape:
    loss = compute_loss()
grads = tape.gradient(loss, model.trainable_variables)
print("loss:", float(loss))
for v, g in zip(model.trainable_variables, grads):
    print(f"{v.path:45s}", None if g is None else float(tf.norm(tf.convert_to_tensor(g))))


def computation():
    return compute_loss, model.trainable_variables
