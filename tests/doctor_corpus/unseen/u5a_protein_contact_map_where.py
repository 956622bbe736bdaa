"""Predicts 3-D residue coordinates from per-residue features and trains them against a binary
contact map through log pairwise distances; every gradient of the network comes back as NaN from the first step."""
# cause: nan_unsafe_where
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)

L, F = 40, 20
# a random-walk backbone gives the "true" structure and its contact map
steps = rng.normal(scale=2.2, size=(L, 3))
true_xyz = np.cumsum(steps, axis=0)
true_d = np.linalg.norm(true_xyz[:, None] - true_xyz[None, :], axis=-1)
contacts = (true_d < 8.0).astype("float32")
feats = rng.normal(size=(L, F)).astype("float32")

embed = keras.layers.Dense(32, activation="relu")
to_xyz = keras.layers.Dense(3)
opt = keras.optimizers.Adam(1e-2)
off_diag = 1.0 - tf.eye(L)


def pairwise_distances(xyz):
    diff = xyz[:, None, :] - xyz[None, :, :]
    d2 = tf.reduce_sum(tf.square(diff), axis=-1)
    return d2


for step in range(5):
    with tf.GradientTape() as tape:
        xyz = to_xyz(embed(feats))
        d2 = pairwise_distances(xyz)
        log_dist = tf.where(d2 > 0.0, 0.5 * tf.math.log(d2), tf.zeros_like(d2))  # <- expected
        logits = (np.log(8.0) - log_dist) / 0.2
        bce = tf.nn.sigmoid_cross_entropy_with_logits(labels=contacts, logits=logits)
        loss = tf.reduce_sum(bce * off_diag) / tf.reduce_sum(off_diag)
    params = embed.trainable_variables + to_xyz.trainable_variables
    grads = tape.gradient(loss, params)
    print(step, float(loss), [bool(tf.reduce_any(tf.math.is_nan(g))) for g in grads])
    opt.apply_gradients(zip(grads, params))


def computation():
    keras.utils.set_random_seed(3)
    e = keras.layers.Dense(32, activation="relu")
    h = keras.layers.Dense(3)

    def compute():
        xyz = h(e(feats))
        d2 = pairwise_distances(xyz)
        log_dist = tf.where(d2 > 0.0, 0.5 * tf.math.log(d2), tf.zeros_like(d2))
        logits = (np.log(8.0) - log_dist) / 0.2
        bce = tf.nn.sigmoid_cross_entropy_with_logits(labels=contacts, logits=logits)
        return tf.reduce_sum(bce * off_diag) / tf.reduce_sum(off_diag)

    compute()  # build the layers
    return compute, e.trainable_variables + h.trainable_variables
