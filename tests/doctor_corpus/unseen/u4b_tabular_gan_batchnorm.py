"""A small GAN for synthetic tabular rows, trained with model.fit through a custom
train_step.  Every step Keras warns that gradients do not exist for some generator
variables (the moving_mean / moving_variance ones)."""
# cause: wrong_variables
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

N_FEATURES = 6
LATENT_DIM = 8


def make_table(n=256):
    cov = 0.5 * np.eye(N_FEATURES) + 0.5
    rows = np.random.multivariate_normal(np.zeros(N_FEATURES), cov, size=n)
    rows[:, 0] = np.exp(0.3 * rows[:, 0])  # a skewed "income" column
    return rows.astype(np.float32)


def build_generator():
    return keras.Sequential([
        keras.Input(shape=(LATENT_DIM,)),
        keras.layers.Dense(32),
        keras.layers.BatchNormalization(),
        keras.layers.LeakyReLU(0.2),
        keras.layers.Dense(32),
        keras.layers.BatchNormalization(),
        keras.layers.LeakyReLU(0.2),
        keras.layers.Dense(N_FEATURES),
    ], name="generator")


def build_discriminator():
    return keras.Sequential([
        keras.Input(shape=(N_FEATURES,)),
        keras.layers.Dense(32),
        keras.layers.LeakyReLU(0.2),
        keras.layers.Dense(1),
    ], name="discriminator")


class TabularGAN(keras.Model):
    def __init__(self, generator, discriminator, latent_dim):
        super().__init__()
        self.generator = generator
        self.discriminator = discriminator
        self.latent_dim = latent_dim
        self.bce = keras.losses.BinaryCrossentropy(from_logits=True)
        self.d_loss_tracker = keras.metrics.Mean(name="d_loss")
        self.g_loss_tracker = keras.metrics.Mean(name="g_loss")

    def compile(self, d_optimizer, g_optimizer):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer

    @property
    def metrics(self):
        return [self.d_loss_tracker, self.g_loss_tracker]

    def generator_loss(self, z):
        fake = self.generator(z, training=True)
        fake_logits = self.discriminator(fake, training=True)
        return self.bce(tf.ones_like(fake_logits), fake_logits)

    def train_step(self, real_rows):
        batch = tf.shape(real_rows)[0]

        z = tf.random.normal((batch, self.latent_dim))
        with tf.GradientTape() as tape:
            fake = self.generator(z, training=True)
            real_logits = self.discriminator(real_rows, training=True)
            fake_logits = self.discriminator(fake, training=True)
            d_loss = (self.bce(tf.ones_like(real_logits), real_logits)
                      + self.bce(tf.zeros_like(fake_logits), fake_logits))
        d_vars = self.discriminator.trainable_variables
        d_grads = tape.gradient(d_loss, d_vars)
        self.d_optimizer.apply_gradients(zip(d_grads, d_vars))

        z = tf.random.normal((batch, self.latent_dim))
        with tf.GradientTape() as tape:
            g_loss = self.generator_loss(z)
        gen_vars = self.generator.variables  # <- expected
        g_grads = tape.gradient(g_loss, gen_vars)
        self.g_optimizer.apply_gradients(zip(g_grads, gen_vars))

        self.d_loss_tracker.update_state(d_loss)
        self.g_loss_tracker.update_state(g_loss)
        return {"d_loss": self.d_loss_tracker.result(), "g_loss": self.g_loss_tracker.result()}


table = make_table()
gan = TabularGAN(build_generator(), build_discriminator(), LATENT_DIM)
gan.compile(d_optimizer=keras.optimizers.Adam(2e-4), g_optimizer=keras.optimizers.Adam(2e-4))
gan.fit(table, batch_size=64, epochs=1, verbose=2)


def computation():
    z = tf.random.normal((64, LATENT_DIM), seed=1)

    def compute():
        return gan.generator_loss(z)

    return compute, list(gan.generator.variables)
