"""A small VAE as a keras.Model subclass: the encoder gives mean and log-variance, call samples z
with the reparameterization trick, and a custom loop adds the reconstruction and KL terms."""
# cause: connected
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(38)


class VAE(keras.Model):
    def __init__(self, latent_dim=2):
        super().__init__()
        self.enc = keras.layers.Dense(16, activation="relu")
        self.mean = keras.layers.Dense(latent_dim)
        self.log_var = keras.layers.Dense(latent_dim)
        self.dec_hidden = keras.layers.Dense(16, activation="relu")
        self.dec_out = keras.layers.Dense(10)

    def call(self, x):
        h = self.enc(x)
        mean, log_var = self.mean(h), self.log_var(h)
        eps = tf.random.normal(tf.shape(mean))
        z = mean + tf.exp(0.5 * log_var) * eps
        return self.dec_out(self.dec_hidden(z)), mean, log_var


def vae_loss(model, x):
    logits, mean, log_var = model(x)
    recon = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=logits), axis=1)
    kl = -0.5 * tf.reduce_sum(1.0 + log_var - tf.square(mean) - tf.exp(log_var), axis=1)
    return tf.reduce_mean(recon + kl)


vae = VAE()
optimizer = keras.optimizers.Adam(1e-3)
x = tf.cast(tf.random.uniform((8, 10)) > 0.5, tf.float32)  # binary "images"

for step in range(2):
    with tf.GradientTape() as tape:
        loss = vae_loss(vae, x)
    grads = tape.gradient(loss, vae.trainable_variables)
    optimizer.apply_gradients(zip(grads, vae.trainable_variables))
print("ELBO loss:", float(loss))


def computation():
    return (lambda *variables: vae_loss(vae, x)), vae.trainable_variables
