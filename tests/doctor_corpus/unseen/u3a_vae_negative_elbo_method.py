"""Small variational autoencoder on random binary vectors; the negative ELBO is computed in a method of the model
class and minimized with a GradientTape. tape.gradient raises a TypeError saying the target is None."""
# cause: no_target
# depth: method
import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(9)
keras.utils.set_random_seed(9)

data = (rng.random((64, 24)) > 0.5).astype("float32")


class VAE(tf.Module):
    def __init__(self, input_dim, latent_dim):
        super().__init__()
        self.latent_dim = latent_dim
        self.encoder = keras.Sequential([keras.Input((input_dim,)), keras.layers.Dense(32, activation="relu"),
                                         keras.layers.Dense(2 * latent_dim)])
        self.decoder = keras.Sequential([keras.Input((latent_dim,)), keras.layers.Dense(32, activation="relu"),
                                         keras.layers.Dense(input_dim)])

    def encode(self, x):
        mean, logvar = tf.split(self.encoder(x), 2, axis=1)
        return mean, logvar

    def reparameterize(self, mean, logvar):
        eps = tf.random.normal(tf.shape(mean))
        return mean + tf.exp(0.5 * logvar) * eps

    def negative_elbo(self, x):
        mean, logvar = self.encode(x)
        z = self.reparameterize(mean, logvar)
        logits = self.decoder(z)
        recon = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=logits), axis=1)
        kl = -0.5 * tf.reduce_sum(1.0 + logvar - tf.square(mean) - tf.exp(logvar), axis=1)
        loss = tf.reduce_mean(recon + kl)  # <- expected


vae = VAE(input_dim=24, latent_dim=4)
optimizer = keras.optimizers.Adam(1e-3)
dataset = tf.data.Dataset.from_tensor_slices(data).batch(32)

for epoch in range(2):
    for batch in dataset:
        with tf.GradientTape() as tape:
            loss = vae.negative_elbo(batch)
        grads = tape.gradient(loss, vae.trainable_variables)
        optimizer.apply_gradients(zip(grads, vae.trainable_variables))
    print(f"epoch {epoch}: loss {loss}")
