"""A tiny image autoencoder whose call returns 8-bit images, like the inputs; every gradient
of the reconstruction loss is None."""
# cause: integer_dtype
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(6)
images = tf.cast(tf.random.uniform((8, 8, 8, 1), maxval=256, dtype=tf.int32), tf.uint8)


class TinyAutoencoder(keras.Model):
    def __init__(self):
        super().__init__()
        self.flatten = keras.layers.Flatten()
        self.encoder = keras.layers.Dense(16, activation="relu")
        self.decoder = keras.layers.Dense(64, activation="sigmoid")
        self.reshape = keras.layers.Reshape((8, 8, 1))

    def call(self, x):
        x = tf.cast(x, tf.float32) / 255.0
        out = self.reshape(self.decoder(self.encoder(self.flatten(x))))
        return tf.cast(out * 255.0, tf.uint8)  # <- expected


model = TinyAutoencoder()


def reconstruction_loss(batch):
    recon = model(batch)
    diff = tf.cast(recon, tf.float32) - tf.cast(batch, tf.float32)
    return tf.reduce_mean(tf.square(diff / 255.0))


model(images)


def computation():
    return (lambda *params: reconstruction_loss(images)), model.trainable_variables


with tf.GradientTape() as tape:
    loss = reconstruction_loss(images)
grads = tape.gradient(loss, model.trainable_variables)
print("loss", float(loss))
print("grads:", grads)
