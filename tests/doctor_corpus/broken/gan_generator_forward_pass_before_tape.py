"""A small GAN on 2-D toy points; the generator step stops with "No gradients provided for any variable"."""
# cause: outside_tape
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

latent_dim = 4
generator = keras.Sequential([
    keras.Input((latent_dim,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(2),
])
discriminator = keras.Sequential([
    keras.Input((2,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
bce = keras.losses.BinaryCrossentropy(from_logits=True)
g_opt = keras.optimizers.Adam(1e-3)
d_opt = keras.optimizers.Adam(1e-3)

real = tf.random.normal((16, 2), mean=3.0)


def generator_loss(fake_logits):
    return bce(tf.ones_like(fake_logits), fake_logits)


def discriminator_loss(real_logits, fake_logits):
    return bce(tf.ones_like(real_logits), real_logits) + bce(tf.zeros_like(fake_logits), fake_logits)


def computation():
    fake = generator(tf.random.normal((16, latent_dim)), training=True)

    def compute(*generator_variables):
        return generator_loss(discriminator(fake, training=True))

    return compute, generator.trainable_variables


for step in range(2):
    noise = tf.random.normal((16, latent_dim))
    # generate once and reuse the fakes for both updates
    fake = generator(noise, training=True)  # <- expected

    with tf.GradientTape() as d_tape:
        d_loss = discriminator_loss(discriminator(real, training=True),
                                    discriminator(fake, training=True))
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))

    with tf.GradientTape() as g_tape:
        g_loss = generator_loss(discriminator(fake, training=True))
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    print(f"step {step}: d_loss={float(d_loss):.3f} g_loss={float(g_loss):.3f}")
