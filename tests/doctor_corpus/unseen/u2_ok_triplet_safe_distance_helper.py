"""Batch-hard triplet loss for a speaker-embedding network; the pairwise distances go through a
helper that keeps the square root away from the zero diagonal."""
# cause: connected
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(23)
margin = 0.3

embedder = keras.Sequential([
    keras.Input((24,)),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(8),
    keras.layers.UnitNormalization(),
])
optimizer = keras.optimizers.Adam(1e-3)

utterances = tf.random.normal((12, 24))
speakers = tf.constant([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3])


def pairwise_distances(emb):
    sq_dist = tf.reduce_sum(tf.square(emb[:, None, :] - emb[None, :, :]), axis=-1)
    positive = sq_dist > 0.0
    safe_sq_dist = tf.where(positive, sq_dist, tf.ones_like(sq_dist))
    return tf.where(positive, tf.sqrt(safe_sq_dist), tf.zeros_like(sq_dist))


def triplet_loss(emb, ids):
    dist = pairwise_distances(emb)
    same = tf.cast(tf.equal(ids[:, None], ids[None, :]), tf.float32)
    hardest_pos = tf.reduce_max(dist * same, axis=1)
    hardest_neg = tf.reduce_min(dist + 1e3 * same, axis=1)
    return tf.reduce_mean(tf.nn.relu(hardest_pos - hardest_neg + margin))


for step in range(2):
    with tf.GradientTape() as tape:
        loss = triplet_loss(embedder(utterances, training=True), speakers)
    grads = tape.gradient(loss, embedder.trainable_variables)
    optimizer.apply_gradients(zip(grads, embedder.trainable_variables))
print("triplet loss:", float(loss))


def computation():
    return (lambda: triplet_loss(embedder(utterances, training=True), speakers)), \
        embedder.trainable_variables
