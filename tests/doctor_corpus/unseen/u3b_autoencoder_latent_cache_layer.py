"""Dense autoencoder whose bottleneck layer keeps the latest batch of codes around for
visualization; training shows the encoder's gradients are all None and only the decoder learns."""
# cause: stateful
# depth: layer
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(29)
keras.utils.set_random_seed(29)

batch_size, input_dim, code_dim = 16, 20, 3


class LatentCache(keras.layers.Layer):
    def __init__(self, batch_size, code_dim, **kwargs):
        super().__init__(**kwargs)
        self.latest_codes = self.add_weight(
            shape=(batch_size, code_dim), initializer="zeros", trainable=False, name="latest_codes")

    def call(self, codes):
        self.latest_codes.assign(codes)
        return self.latest_codes  # <- expected


class Autoencoder(keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = keras.Sequential([
            keras.layers.Dense(12, activation="relu"),
            keras.layers.Dense(code_dim),
        ], name="encoder")
        self.bottleneck = LatentCache(batch_size, code_dim, name="bottleneck")
        self.decoder = keras.Sequential([
            keras.layers.Dense(12, activation="relu"),
            keras.layers.Dense(input_dim),
        ], name="decoder")

    def call(self, x):
        return self.decoder(self.bottleneck(self.encoder(x)))


data = tf.constant(rng.normal(size=(batch_size, input_dim)), dtype=tf.float32)
autoencoder = Autoencoder()
autoencoder(data)
optimizer = keras.optimizers.Adam(1e-2)

with tf.GradientTape() as tape:
    reconstruction = autoencoder(data)
    loss = tf.reduce_mean(tf.square(reconstruction - data))
grads = tape.gradient(loss, autoencoder.trainable_variables)

print("reconstruction loss:", float(loss))
for var, g in zip(autoencoder.trainable_variables, grads):
    print(f"{var.path:35s}", "None" if g is None else f"norm={float(tf.norm(g)):.4f}")


def computation():
    def compute():
        return tf.reduce_mean(tf.square(autoencoder(data) - data))

    return compute, list(autoencoder.encoder.trainable_variables)
