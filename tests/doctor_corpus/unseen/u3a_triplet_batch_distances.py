"""Metric learning with a batch-all triplet loss on a small embedding network for 4 classes of random points.
After the first step the loss and every weight become NaN; the gradients are already NaN at step 0."""
# cause: nan_at_zero
# depth: helper
import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(6)
keras.utils.set_random_seed(6)

centers = rng.normal(size=(4, 10))
labels_np = np.repeat(np.arange(4), 8)
points = (centers[labels_np] + rng.normal(size=(32, 10))).astype("float32")

def build_embedder():
    return keras.Sequential([keras.Input((10,)), keras.layers.Dense(32, activation="relu"),
                             keras.layers.Dense(8)])


embedder = build_embedder()
optimizer = keras.optimizers.SGD(0.05)
margin = 2.0


def pairwise_distances(emb):
    diff = emb[:, None, :] - emb[None, :, :]
    return tf.sqrt(tf.reduce_sum(tf.square(diff), axis=-1))  # <- expected


def batch_all_triplet_loss(labels, emb):
    dist = pairwise_distances(emb)
    positive = tf.cast(tf.equal(labels[:, None], labels[None, :]), tf.float32)
    negative = 1.0 - positive
    triplet = dist[:, :, None] - dist[:, None, :] + margin
    valid = positive[:, :, None] * negative[:, None, :]
    losses = tf.nn.relu(triplet) * valid
    return tf.reduce_sum(losses) / (tf.reduce_sum(tf.cast(losses > 1e-12, tf.float32)) + 1e-12)


x = tf.constant(points)
y = tf.constant(labels_np)
for step in range(3):
    with tf.GradientTape() as tape:
        loss = batch_all_triplet_loss(y, embedder(x, training=True))
    grads = tape.gradient(loss, embedder.trainable_variables)
    nan_grads = [bool(tf.reduce_any(tf.math.is_nan(g))) for g in grads]
    print(f"step {step}: loss {loss.numpy():.4f}, NaN in grads: {nan_grads}")
    optimizer.apply_gradients(zip(grads, embedder.trainable_variables))


def computation():
    fresh = build_embedder()
    return (lambda: batch_all_triplet_loss(y, fresh(x, training=True))), list(fresh.trainable_variables)
