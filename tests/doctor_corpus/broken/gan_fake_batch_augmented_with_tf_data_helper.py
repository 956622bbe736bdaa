"""A small GAN that runs generated batches through a tf.data augmentation; the generator's
gradients print as None."""
# cause: stateful
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(19)
latent_dim, data_dim, batch = 3, 4, 16

generator = keras.Sequential([
    keras.Input((latent_dim,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(data_dim)
])
critic = keras.Sequential([
    keras.Input((data_dim,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)
])
bce = keras.losses.BinaryCrossentropy(from_logits=True)


def jitter(sample):
    return sample + tf.random.normal(tf.shape(sample), stddev=0.05)


def augment(samples):
    ds = tf.data.Dataset.from_tensor_slices(samples).map(jitter).batch(batch)  # <- expected
    return next(iter(ds))  # <- expected


def generator_loss(noise):
    fake = augment(generator(noise, training=True))
    fake_logits = critic(fake, training=True)
    return bce(tf.ones_like(fake_logits), fake_logits)


def computation():
    noise = tf.random.normal((batch, latent_dim))
    return (lambda *params: generator_loss(noise)), generator.trainable_variables


for step in range(2):
    noise = tf.random.normal((batch, latent_dim))
    with tf.GradientTape() as g_tape:
        g_loss = generator_loss(noise)
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    print(step, "g_loss", float(g_loss), "generator grads:", g_grads)
