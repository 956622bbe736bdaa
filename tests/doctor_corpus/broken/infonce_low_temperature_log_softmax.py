"""SimCLR-style contrastive loss between two noisy views of the same samples, with the
cross-entropy written out by hand. With temperature 0.01 the loss is NaN from the very first batch
and so are the encoder's gradients; with 0.5 it trains."""
# cause: nan_at_zero
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(3)

encoder = keras.Sequential([
    keras.Input((12,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(8),
])

x = tf.random.normal((6, 12))
view_a = x + 0.1 * tf.random.normal(x.shape)
view_b = x + 0.1 * tf.random.normal(x.shape)
temperature = 0.01
targets = tf.eye(6)  # sample i of view a matches sample i of view b

with tf.GradientTape() as tape:
    za = tf.math.l2_normalize(encoder(view_a), axis=1)
    zb = tf.math.l2_normalize(encoder(view_b), axis=1)
    sim = tf.matmul(za, zb, transpose_b=True) / temperature
    probs = tf.nn.softmax(sim, axis=1)
    log_probs = tf.math.log(probs)  # <- expected
    loss = -tf.reduce_mean(tf.reduce_sum(targets * log_probs, axis=1))
grads = tape.gradient(loss, encoder.trainable_variables)
print("loss:", float(loss))
print("first kernel grad:", grads[0][0, :4].numpy())


def computation():
    def contrastive_loss(*variables):
        za = tf.math.l2_normalize(encoder(view_a), axis=1)
        zb = tf.math.l2_normalize(encoder(view_b), axis=1)
        probs = tf.nn.softmax(tf.matmul(za, zb, transpose_b=True) / temperature, axis=1)
        return -tf.reduce_mean(tf.reduce_sum(targets * tf.math.log(probs), axis=1))
    return contrastive_loss, encoder.trainable_variables
