"""A small VAE on synthetic 8x8 images of Gaussian blobs.

The decoder trains, but the asker finds that every encoder gradient is None, so the
KL term and the latent space never change.
"""
# cause: outside_tape
# depth: main
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(1)
grid = np.mgrid[0:8, 0:8].astype("float32")
centers = rng.uniform(1.5, 6.5, (128, 2, 1, 1)).astype("float32")
blobs = np.exp(-((grid[0] - centers[:, 0]) ** 2 + (grid[1] - centers[:, 1]) ** 2) / 3.0)
images = tf.constant(blobs.reshape(128, 64))

latent_dim = 2
keras.utils.set_random_seed(1)
encoder = keras.Sequential([keras.Input((64,)), keras.layers.Dense(32, activation="relu"),
                            keras.layers.Dense(2 * latent_dim)], name="encoder")
decoder = keras.Sequential([keras.Input((latent_dim,)), keras.layers.Dense(32, activation="relu"),
                            keras.layers.Dense(64, activation="sigmoid")], name="decoder")
optimizer = keras.optimizers.Adam(1e-3)


def train_step(x):
    stats = encoder(x)  # <- expected
    z_mean, z_log_var = tf.split(stats, 2, axis=-1)
    with tf.GradientTape() as tape:
        eps = tf.random.normal(tf.shape(z_mean), seed=3)
        z = z_mean + tf.exp(0.5 * z_log_var) * eps
        recon = decoder(z)
        rec_loss = tf.reduce_mean(tf.reduce_sum(keras.losses.binary_crossentropy(
            x[..., None], recon[..., None]), axis=-1))
        kl = -0.5 * tf.reduce_mean(tf.reduce_sum(
            1.0 + z_log_var - z_mean**2 - tf.exp(z_log_var), axis=-1))
        loss = rec_loss + kl
    variables = encoder.trainable_variables + decoder.trainable_variables
    grads = tape.gradient(loss, variables)
    return loss, variables, grads


loss, variables, grads = train_step(images)
print("loss:", float(loss))
for v, g in zip(variables, grads):
    print(f"{v.path:28s}", "None" if g is None else f"{float(tf.norm(g)):.4f}")
