"""A SimCLR-style contrastive loss with a learned temperature; the encoder trains but the
temperature's gradient is None and it stays at 1."""
# cause: not_trainable
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(17)
x = tf.random.normal((16, 10))
view1 = x + 0.1 * tf.random.normal(tf.shape(x))
view2 = x + 0.1 * tf.random.normal(tf.shape(x))

encoder = keras.Sequential([
    keras.Input((10,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(8),
])
log_temperature = tf.Variable(0.0, trainable=False, name="log_temperature")  # <- expected
optimizer = keras.optimizers.Adam(1e-2)


def nt_xent(z1, z2, log_t):
    z1 = tf.math.l2_normalize(z1, axis=1)
    z2 = tf.math.l2_normalize(z2, axis=1)
    logits = tf.matmul(z1, z2, transpose_b=True) / tf.exp(log_t)
    labels = tf.range(tf.shape(z1)[0])
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits))


def computation():
    return (lambda log_t: nt_xent(encoder(view1), encoder(view2), log_t)), log_temperature


params = encoder.trainable_variables + [log_temperature]
for step in range(2):
    with tf.GradientTape() as tape:
        loss = nt_xent(encoder(view1), encoder(view2), log_temperature)
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params))
    print(step, float(loss), "temperature grad:", grads[-1])
