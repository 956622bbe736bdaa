"""A DCGAN-style discriminator step under tf.function; Keras warns that some discriminator
variables have no gradient."""
# cause: wrong_variables
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(3)
latent_dim = 4

generator = keras.Sequential([
    keras.Input(shape=(latent_dim,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(2),
])
discriminator = keras.Sequential([
    keras.Input(shape=(2,)),
    keras.layers.Dense(8),
    keras.layers.BatchNormalization(),
    keras.layers.LeakyReLU(0.2),
    keras.layers.Dense(1),
])
bce = keras.losses.BinaryCrossentropy(from_logits=True)
d_opt = keras.optimizers.Adam(2e-4, beta_1=0.5)


def discriminator_loss(real, noise):
    fake = generator(noise, training=True)
    real_out = discriminator(real, training=True)
    fake_out = discriminator(fake, training=True)
    return bce(tf.ones_like(real_out), real_out) + bce(tf.zeros_like(fake_out), fake_out)


@tf.function
def d_step(real):
    noise = tf.random.normal((tf.shape(real)[0], latent_dim))
    with tf.GradientTape() as tape:
        d_loss = discriminator_loss(real, noise)
    grads = tape.gradient(d_loss, discriminator.variables)  # <- expected
    d_opt.apply_gradients(zip(grads, discriminator.variables))
    return d_loss


def computation():
    real = tf.random.normal((16, 2))
    noise = tf.random.normal((16, latent_dim))
    return (lambda *params: discriminator_loss(real, noise)), discriminator.variables


for step in range(2):
    batch = tf.random.normal((16, 2), mean=3.0)
    print("d_loss", float(d_step(batch)))
