"""Tiny GAN on 8x8 grayscale patches stored as uint8, with a tf.function train step.

The real patches are uint8 (0-255), so I turn the generator output into the same
format before the discriminator sees it. The discriminator trains, but the
generator gradients are all None (g_opt.apply_gradients raised "No gradients
provided for any variable", so for now I only print them).
"""
# cause: integer_dtype
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(21)
xx, yy = np.meshgrid(np.arange(8), np.arange(8))
stripes = [(127 + 120 * np.sin(xx * f + yy * (1 - f))) for f in rng.uniform(0.2, 1.0, 128)]
real_patches = tf.constant(np.stack(stripes)[..., None].astype("uint8"))

keras.utils.set_random_seed(21)
latent = 8
generator = keras.Sequential([keras.Input((latent,)), keras.layers.Dense(32, activation="relu"),
                              keras.layers.Dense(64, activation="tanh"), keras.layers.Reshape((8, 8, 1))])
discriminator = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Flatten(),
                                  keras.layers.Dense(32, activation="relu"), keras.layers.Dense(1)])
bce = keras.losses.BinaryCrossentropy(from_logits=True)
d_opt = keras.optimizers.Adam(1e-3)


def to_unit(images):
    return tf.cast(images, tf.float32) / 127.5 - 1.0


@tf.function
def train_step(real):
    noise = tf.random.normal([tf.shape(real)[0], latent], seed=1)
    with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
        fake = generator(noise, training=True)
        fake_images = tf.cast(fake * 127.5 + 127.5, tf.uint8)  # <- expected
        real_logits = discriminator(to_unit(real), training=True)
        fake_logits = discriminator(to_unit(fake_images), training=True)
        d_loss = bce(tf.ones_like(real_logits), real_logits) + bce(tf.zeros_like(fake_logits), fake_logits)
        g_loss = bce(tf.ones_like(fake_logits), fake_logits)
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    print("generator grads:", g_grads)
    print("discriminator grads None?", [g is None for g in d_grads])
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
    return g_loss, d_loss


for step in range(3):
    g_loss, d_loss = train_step(real_patches)
    print(f"step {step}: g_loss {float(g_loss):.3f}  d_loss {float(d_loss):.3f}")
