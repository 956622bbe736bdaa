"""Batch-hard triplet loss for speaker embeddings from synthetic MFCC statistics.

The pairwise distance matrix includes each embedding with itself (distance 0 on the
diagonal), and the asker has read that sqrt at zero gives NaN gradients. They ask
whether the encoder's gradients from this loss can be trusted.
"""
# cause: connected
# depth: helper
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(12)
n_speakers, per_speaker, n_feats = 6, 8, 40
voiceprints = rng.normal(0, 1, (n_speakers, n_feats))
speaker_ids = np.repeat(np.arange(n_speakers), per_speaker)
feats = tf.constant((voiceprints[speaker_ids] + rng.normal(0, 0.7, (len(speaker_ids), n_feats))).astype("float32"))
ids = tf.constant(speaker_ids)

keras.utils.set_random_seed(12)
encoder = keras.Sequential([keras.Input((n_feats,)), keras.layers.Dense(64, activation="relu"),
                            keras.layers.Dense(16)])


def pairwise_distances(emb):
    sq = tf.reduce_sum(emb**2, axis=1)
    d2 = tf.maximum(sq[:, None] - 2.0 * emb @ tf.transpose(emb) + sq[None, :], 0.0)
    is_zero = tf.equal(d2, 0.0)
    safe_d2 = tf.where(is_zero, tf.ones_like(d2), d2)
    return tf.where(is_zero, tf.zeros_like(d2), tf.sqrt(safe_d2))


def triplet_loss(margin=0.3):
    emb = tf.math.l2_normalize(encoder(feats), axis=1)
    dist = pairwise_distances(emb)
    same = tf.equal(ids[:, None], ids[None, :])
    not_self = tf.logical_not(tf.eye(tf.shape(ids)[0], dtype=tf.bool))
    hardest_pos = tf.reduce_max(tf.where(same & not_self, dist, 0.0), axis=1)
    hardest_neg = tf.reduce_min(tf.where(same, 4.0, dist), axis=1)
    return tf.reduce_mean(tf.nn.relu(hardest_pos - hardest_neg + margin))


with tf.GradientTape() as tape:
    loss = triplet_loss()
grads = tape.gradient(loss, encoder.trainable_variables)
print("loss:", float(loss))
for v, g in zip(encoder.trainable_variables, grads):
    finite = g is not None and bool(tf.reduce_all(tf.math.is_finite(g)))
    print(f"{v.path:28s}", "None" if g is None else f"norm={float(tf.norm(g)):.4f} finite={finite}")


def computation():
    return triplet_loss, encoder.trainable_variables
