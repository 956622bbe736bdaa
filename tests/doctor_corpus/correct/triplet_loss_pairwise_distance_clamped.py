"""Batch-hard triplet loss for a small embedding network, computed in a tf.function train step. The
pairwise distances take the square root of the squared distances clamped at 1e-12."""
# cause: connected
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(22)

embedder = keras.Sequential([
    keras.Input((10,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(4),
    keras.layers.UnitNormalization(),
])
optimizer = keras.optimizers.Adam(1e-3)

x = tf.random.normal((8, 10))
labels = tf.constant([0, 0, 1, 1, 2, 2, 3, 3])


def triplet_loss(emb, labels, margin=0.3):
    diff = emb[:, None, :] - emb[None, :, :]
    dist = tf.sqrt(tf.maximum(tf.reduce_sum(tf.square(diff), axis=-1), 1e-12))
    same = tf.cast(tf.equal(labels[:, None], labels[None, :]), tf.float32)
    mean_pos = tf.reduce_sum(dist * same, axis=1) / tf.reduce_sum(same, axis=1)
    hardest_neg = tf.reduce_min(dist + 1e6 * same, axis=1)
    return tf.reduce_mean(tf.nn.relu(mean_pos - hardest_neg + margin))


@tf.function
def train_step(x, labels):
    with tf.GradientTape() as tape:
        loss = triplet_loss(embedder(x, training=True), labels)
    grads = tape.gradient(loss, embedder.trainable_variables)
    optimizer.apply_gradients(zip(grads, embedder.trainable_variables))
    return loss


for step in range(2):
    loss = train_step(x, labels)
print("triplet loss:", float(loss))


def computation():
    return (lambda *variables: triplet_loss(embedder(x), labels)), embedder.trainable_variables
