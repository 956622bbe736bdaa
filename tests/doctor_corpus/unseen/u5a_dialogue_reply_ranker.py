"""Trains a bag-of-words dual encoder that should score the true reply above a random one for each
dialogue context; `tape.gradient` fails saying it received None instead of a loss."""
# cause: no_target
# depth: method
import numpy as np
import tensorflow as tf

tf.random.set_seed(8)
rng = np.random.default_rng(8)

VOCAB, LEN, N = 300, 10, 64
contexts = tf.constant(rng.integers(1, VOCAB, size=(N, LEN)), dtype=tf.int32)
good = tf.constant(rng.integers(1, VOCAB, size=(N, LEN)), dtype=tf.int32)
bad = tf.constant(rng.integers(1, VOCAB, size=(N, LEN)), dtype=tf.int32)


class ReplyRanker(tf.Module):
    def __init__(self, vocab=VOCAB, dim=24, margin=0.5):
        super().__init__()
        self.emb = tf.Variable(tf.random.normal([vocab, dim], stddev=0.1), name="emb")
        self.proj = tf.Variable(tf.eye(dim), name="proj")
        self.margin = margin
        self.steps = 0

    def encode(self, tokens):
        mask = tf.cast(tokens > 0, tf.float32)[..., None]
        bag = tf.reduce_sum(tf.nn.embedding_lookup(self.emb, tokens) * mask, axis=1)
        bag = bag / tf.maximum(tf.reduce_sum(mask, axis=1), 1.0)
        return tf.math.l2_normalize(tf.matmul(bag, self.proj), axis=-1)

    def ranking_loss(self, context, good_reply, bad_reply):
        c = self.encode(context)
        s_good = tf.reduce_sum(c * self.encode(good_reply), axis=-1)
        s_bad = tf.reduce_sum(c * self.encode(bad_reply), axis=-1)
        loss = tf.reduce_mean(tf.nn.relu(self.margin - s_good + s_bad))  # <- expected
        self.steps += 1


ranker = ReplyRanker()
opt = tf.keras.optimizers.Adam(1e-2)

for epoch in range(3):
    with tf.GradientTape() as tape:
        loss = ranker.ranking_loss(contexts, good, bad)
    grads = tape.gradient(loss, ranker.trainable_variables)
    opt.apply_gradients(zip(grads, ranker.trainable_variables))
    print(epoch, loss)
