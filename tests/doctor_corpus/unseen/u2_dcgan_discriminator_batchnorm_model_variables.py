"""DCGAN-style discriminator with BatchNormalization, trained in a @tf.function step: several
entries of the gradient list are None and Keras warns about them at every step."""
# cause: wrong_variables
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(9)
latent_dim = 8

generator = keras.Sequential([
    keras.Input((latent_dim,)),
    keras.layers.Dense(7 * 7 * 8, activation="relu"),
    keras.layers.Reshape((7, 7, 8)),
    keras.layers.Conv2DTranspose(1, 4, strides=2, padding="same", activation="tanh"),
])
discriminator = keras.Sequential([
    keras.Input((14, 14, 1)),
    keras.layers.Conv2D(8, 3, strides=2, padding="same"),
    keras.layers.BatchNormalization(),
    keras.layers.LeakyReLU(0.2),
    keras.layers.Flatten(),
    keras.layers.Dense(1),
])
bce = keras.losses.BinaryCrossentropy(from_logits=True)
d_optimizer = keras.optimizers.Adam(2e-4, beta_1=0.5)


@tf.function
def discriminator_step(real_images):
    noise = tf.random.normal((tf.shape(real_images)[0], latent_dim))
    fake_images = generator(noise, training=False)
    with tf.GradientTape() as tape:
        real_logits = discriminator(real_images, training=True)
        fake_logits = discriminator(fake_images, training=True)
        d_loss = (bce(tf.ones_like(real_logits), real_logits)
                  + bce(tf.zeros_like(fake_logits), fake_logits))
    grads = tape.gradient(d_loss, discriminator.variables)  # <- expected
    d_optimizer.apply_gradients(zip(grads, discriminator.variables))  # <- expected
    return d_loss


real_batch = tf.random.uniform((16, 14, 14, 1), -1.0, 1.0)
for step in range(3):
    d_loss = discriminator_step(real_batch)
print("d_loss:", float(d_loss))


def computation():
    def d_loss_on_real():
        logits = discriminator(real_batch, training=True)
        return bce(tf.ones_like(logits), logits)
    return d_loss_on_real, discriminator.variables
