"""SimCLR-style contrastive (InfoNCE) loss between two noisy views at temperature 0.01, with the
cross-entropy taken from the logits by tf.nn.sparse_softmax_cross_entropy_with_logits."""
# cause: connected
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(24)

encoder = keras.Sequential([
    keras.Input((12,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(8),
])
optimizer = keras.optimizers.SGD(0.01)

x = tf.random.normal((6, 12))
view_a = x + 0.3 * tf.random.normal(x.shape)
view_b = x + 0.3 * tf.random.normal(x.shape)
temperature = 0.01
positives = tf.range(6)

with tf.GradientTape() as tape:
    za = tf.math.l2_normalize(encoder(view_a, training=True), axis=1)
    zb = tf.math.l2_normalize(encoder(view_b, training=True), axis=1)
    logits = tf.matmul(za, zb, transpose_b=True) / temperature
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(positives, logits))
grads = tape.gradient(loss, encoder.trainable_variables)
optimizer.apply_gradients(zip(grads, encoder.trainable_variables))
print("InfoNCE:", float(loss))


def computation():
    def infonce(*variables):
        za = tf.math.l2_normalize(encoder(view_a), axis=1)
        zb = tf.math.l2_normalize(encoder(view_b), axis=1)
        logits = tf.matmul(za, zb, transpose_b=True) / temperature
        return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(positives, logits))
    return infonce, encoder.trainable_variables
