"""Triplet-style loss for a small embedding network: mean distance to the positives against the
hardest negative. The loss prints fine, but the gradients of the embedder are all NaN, so one
optimizer step turns every weight into NaN."""
# cause: nan_at_zero
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(1)

embedder = keras.Sequential([
    keras.Input((10,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(4),
])

x = tf.random.normal((8, 10))
labels = tf.constant([0, 0, 1, 1, 2, 2, 3, 3])


@tf.function
def triplet_loss(emb, labels, margin=0.5):
    diff = emb[:, None, :] - emb[None, :, :]
    dist = tf.sqrt(tf.reduce_sum(tf.square(diff), axis=-1))  # <- expected
    same = tf.cast(tf.equal(labels[:, None], labels[None, :]), tf.float32)
    mean_pos = tf.reduce_sum(dist * same, axis=1) / tf.reduce_sum(same, axis=1)
    hardest_neg = tf.reduce_min(dist + 1e6 * same, axis=1)
    return tf.reduce_mean(tf.nn.relu(mean_pos - hardest_neg + margin))


with tf.GradientTape() as tape:
    emb = embedder(x, training=True)
    loss = triplet_loss(emb, labels)
grads = tape.gradient(loss, embedder.trainable_variables)
print("loss", loss.numpy(), "| kernel grad has NaN:", bool(tf.reduce_any(tf.math.is_nan(grads[0]))))


def computation():
    return (lambda *variables: triplet_loss(embedder(x), labels)), embedder.trainable_variables
