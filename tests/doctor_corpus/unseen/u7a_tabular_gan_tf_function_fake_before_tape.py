"""Tabular GAN for synthetic transaction records.

Two separate tapes, one for the critic and one for the generator, inside a
@tf.function train step. The discriminator trains (its loss moves), but the
generator never changes. I returned the generator gradients from the step to
look at them, and they are all None.
"""
# cause: outside_tape
# depth: tf.function
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(6)

N_FEATURES, LATENT, BATCH = 6, 8, 32

generator = tf.keras.Sequential([
    tf.keras.Input((LATENT,)),
    tf.keras.layers.Dense(32, activation="relu"),
    tf.keras.layers.Dense(N_FEATURES),
])
discriminator = tf.keras.Sequential([
    tf.keras.Input((N_FEATURES,)),
    tf.keras.layers.Dense(32),
    tf.keras.layers.LeakyReLU(0.2),
    tf.keras.layers.Dense(1),
])
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
d_opt = tf.keras.optimizers.Adam(2e-4)


@tf.function
def train_step(real):
    z = tf.random.normal((BATCH, LATENT), seed=7)
    fake = generator(z, training=True)  # <- expected
    with tf.GradientTape() as d_tape:
        real_logits = discriminator(real, training=True)
        fake_logits = discriminator(fake, training=True)
        d_loss = bce(tf.ones_like(real_logits), real_logits) + \
            bce(tf.zeros_like(fake_logits), fake_logits)
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))

    with tf.GradientTape() as g_tape:
        fake_logits = discriminator(fake, training=True)
        g_loss = bce(tf.ones_like(fake_logits), fake_logits)
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    return d_loss, g_loss, g_grads


real = tf.constant(np.random.lognormal(size=(BATCH, N_FEATURES)).astype(np.float32))
d_loss, g_loss, g_grads = train_step(real)
print("d_loss:", float(d_loss), "g_loss:", float(g_loss))
print("generator grads:", g_grads)
