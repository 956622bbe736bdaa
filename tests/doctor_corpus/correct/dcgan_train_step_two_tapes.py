"""The DCGAN-tutorial train step on tiny 4x4 images: one tape for the generator, one for the
discriminator, both opened before the generator runs, under tf.function."""
# cause: connected
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(27)

generator = keras.Sequential([
    keras.Input((8,)),
    keras.layers.Dense(4 * 4 * 4, activation="relu"),
    keras.layers.Reshape((4, 4, 4)),
    keras.layers.Conv2DTranspose(1, 3, padding="same", activation="tanh"),
])
discriminator = keras.Sequential([
    keras.Input((4, 4, 1)),
    keras.layers.Conv2D(4, 3, padding="same"),
    keras.layers.LeakyReLU(0.2),
    keras.layers.Flatten(),
    keras.layers.Dense(1),
])
bce = keras.losses.BinaryCrossentropy(from_logits=True)
g_opt, d_opt = keras.optimizers.Adam(1e-4), keras.optimizers.Adam(1e-4)
images = tf.random.uniform((6, 4, 4, 1), -1.0, 1.0)


@tf.function
def train_step(images):
    noise = tf.random.normal((tf.shape(images)[0], 8))
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        fake = generator(noise, training=True)
        real_out = discriminator(images, training=True)
        fake_out = discriminator(fake, training=True)
        gen_loss = bce(tf.ones_like(fake_out), fake_out)
        disc_loss = bce(tf.ones_like(real_out), real_out) + bce(tf.zeros_like(fake_out), fake_out)
    g_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    d_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
    return gen_loss, disc_loss


for step in range(2):
    g_loss, d_loss = train_step(images)
print("gen", float(g_loss), "disc", float(d_loss))


def computation():
    noise = tf.random.normal((6, 8))

    def generator_loss(*variables):
        fake_out = discriminator(generator(noise))
        return bce(tf.ones_like(fake_out), fake_out)
    return generator_loss, generator.trainable_variables
