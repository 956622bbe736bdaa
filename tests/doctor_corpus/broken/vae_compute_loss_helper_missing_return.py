"""A small VAE trained with a custom loop; tape.gradient raises "Argument `target` should be
a list or nested structure of Tensors ... but received None"."""
# cause: no_target
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(41)
latent_dim = 2
x_train = tf.cast(tf.random.uniform((32, 16)) > 0.5, tf.float32)

encoder = keras.Sequential([
    keras.Input((16,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(2 * latent_dim)
])
decoder = keras.Sequential([
    keras.Input((latent_dim,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(16)
])
optimizer = keras.optimizers.Adam(1e-3)


def compute_loss(x):
    mean, logvar = tf.split(encoder(x), 2, axis=1)
    eps = tf.random.normal(tf.shape(mean))
    z = mean + tf.exp(0.5 * logvar) * eps
    logits = decoder(z)
    recon = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=logits), axis=1)
    kl = -0.5 * tf.reduce_sum(1.0 + logvar - tf.square(mean) - tf.exp(logvar), axis=1)
    loss = tf.reduce_mean(recon + kl)  # <- expected


params = encoder.trainable_variables + decoder.trainable_variables


def computation():
    return (lambda *p: compute_loss(x_train)), params


for epoch in range(2):
    with tf.GradientTape() as tape:
        loss = compute_loss(x_train)
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params))
    print("epoch", epoch, "loss", float(loss))
