"""Log-ratio loss (metric learning with continuous labels) for image retrieval.

Labels are continuous style attributes, so instead of triplets I use the log-ratio loss:
the ratio of embedding distances should match the ratio of label distances. The loss
value is finite (about 0.6 at init), but all the gradients of the embedding network are
NaN on the very first step. I already mask the diagonal with tf.where so log(0) is never
used, and I checked that the forward pass has no NaN or inf anywhere.
"""
# cause: nan_unsafe_where
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(21)
rng = np.random.RandomState(21)

features = tf.constant(rng.normal(size=(10, 32)).astype("float32"))   # pooled CNN features
attributes = tf.constant(rng.uniform(size=(10, 3)).astype("float32"))  # continuous labels
n = features.shape[0]
off_diag = 1.0 - tf.eye(n)

embedder = keras.Sequential([keras.layers.Dense(32, activation="relu"), keras.layers.Dense(8)])


def log_pairwise_distances(x):
    d2 = tf.reduce_sum(tf.square(x[:, None, :] - x[None, :, :]), axis=-1)
    return tf.where(d2 > 0.0, 0.5 * tf.math.log(d2), tf.zeros_like(d2))  # <- expected


def log_ratio_loss(emb, labels):
    log_d = log_pairwise_distances(emb)
    log_D = log_pairwise_distances(labels)
    # (a, i, j): log(d_ai / d_aj) should equal log(D_ai / D_aj)
    ratio_emb = log_d[:, :, None] - log_d[:, None, :]
    ratio_lab = log_D[:, :, None] - log_D[:, None, :]
    valid = off_diag[:, :, None] * off_diag[:, None, :] * (1.0 - tf.eye(n))[None]
    return tf.reduce_sum(valid * (ratio_emb - ratio_lab) ** 2) / tf.reduce_sum(valid)


def compute_loss():
    return log_ratio_loss(embedder(features, training=True), attributes)


with tf.GradientTape() as tape:
    loss = compute_loss()
grads = tape.gradient(loss, embedder.trainable_variables)
print("loss:", float(loss))
for v, g in zip(embedder.trainable_variables, grads):
    print(f"{v.path:28s} NaN in grad: {bool(tf.reduce_any(tf.math.is_nan(g)))}")


def computation():
    return compute_loss, embedder.trainable_variables
