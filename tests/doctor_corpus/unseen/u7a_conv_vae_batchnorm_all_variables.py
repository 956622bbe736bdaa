"""Small convolutional VAE on 16x16 patches, custom @tf.function step.

My encoder has BatchNormalization. When I inspect the gradients returned by my
compiled train step, two of them are None every time (always the same positions
in the list). The ELBO itself is finite and the other gradients look normal.
"""
# cause: wrong_variables
# depth: tf.function
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(8)

LATENT = 4


class ConvVAE(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.enc = tf.keras.Sequential([
            tf.keras.layers.Conv2D(8, 3, strides=2, padding="same"),
            tf.keras.layers.BatchNormalization(),
            tf.keras.layers.ReLU(),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(2 * LATENT),
        ])
        self.dec = tf.keras.Sequential([
            tf.keras.layers.Dense(8 * 8 * 8, activation="relu"),
            tf.keras.layers.Reshape((8, 8, 8)),
            tf.keras.layers.Conv2DTranspose(1, 3, strides=2, padding="same"),
        ])

    def call(self, x, training=False):
        mean, logvar = tf.split(self.enc(x, training=training), 2, axis=-1)
        eps = tf.random.normal(tf.shape(mean), seed=9)
        z = mean + tf.exp(0.5 * logvar) * eps
        return self.dec(z), mean, logvar


vae = ConvVAE()
x = tf.constant(np.random.rand(16, 16, 16, 1).astype(np.float32))
vae(x)


@tf.function
def train_step(x):
    with tf.GradientTape() as tape:
        logits, mean, logvar = vae(x, training=True)
        rec = tf.reduce_sum(tf.nn.sigmoid_cross_entropy_with_logits(labels=x, logits=logits), [1, 2, 3])
        kl = -0.5 * tf.reduce_sum(1 + logvar - mean ** 2 - tf.exp(logvar), axis=1)
        loss = tf.reduce_mean(rec + kl)
    grads = tape.gradient(loss, vae.variables)  # <- expected
    return loss, grads


loss, grads = train_step(x)
print("elbo loss:", float(loss))
for v, g in zip(vae.variables, grads):
    print(f"{v.path:55s}", "None" if g is None else "ok")
