"""Trains a vector-quantized autoencoder on pump vibration windows so that reconstruction
error can serve as an anomaly score; Keras warns that gradients do not exist for the encoder
weights, and the encoder never changes while the decoder and codebook train."""
# cause: not_differentiable
# depth: layer
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(17)
t = np.linspace(0.0, 1.0, 64, dtype="float32")
freqs = rng.uniform(20.0, 30.0, size=(96, 1)).astype("float32")
windows = np.sin(2 * np.pi * freqs * t) + 0.1 * rng.normal(size=(96, 64)).astype("float32")
windows = tf.constant(windows, tf.float32)


class CodebookQuantizer(tf.keras.layers.Layer):
    def __init__(self, num_codes, dim, **kwargs):
        super().__init__(**kwargs)
        self.num_codes = num_codes
        self.dim = dim

    def build(self, input_shape):
        self.codebook = self.add_weight(shape=(self.num_codes, self.dim),
                                        initializer="random_normal", name="codebook")

    def call(self, z):
        d = (tf.reduce_sum(z ** 2, axis=-1, keepdims=True)
             - 2.0 * tf.matmul(z, self.codebook, transpose_b=True)
             + tf.reduce_sum(self.codebook ** 2, axis=-1))
        codes = tf.argmin(d, axis=-1)  # <- expected
        quantized = tf.gather(self.codebook, codes)
        return quantized  # <- expected


encoder = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(32, activation="relu"),
                               tf.keras.layers.Dense(8)], name="encoder")
quantizer = CodebookQuantizer(16, 8, name="quantizer")
decoder = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(32, activation="relu"),
                               tf.keras.layers.Dense(64)], name="decoder")
inputs = tf.keras.Input((64,))
autoencoder = tf.keras.Model(inputs, decoder(quantizer(encoder(inputs))))
optimizer = tf.keras.optimizers.Adam(1e-3)


def reconstruction_loss():
    recon = autoencoder(windows, training=True)
    return tf.reduce_mean(tf.square(recon - windows))


for step in range(3):
    with tf.GradientTape() as tape:
        loss = reconstruction_loss()
    grads = tape.gradient(loss, autoencoder.trainable_variables)
    optimizer.apply_gradients(zip(grads, autoencoder.trainable_variables))
    enc_grads = grads[:len(encoder.trainable_variables)]
    print(f"step {step}: loss={float(loss):.4f}  encoder grads: {[g is None for g in enc_grads]}")

scores = tf.reduce_mean(tf.square(autoencoder(windows) - windows), axis=-1)
print("anomaly scores (first 5):", scores.numpy()[:5])


def computation():
    return reconstruction_loss, autoencoder.trainable_variables
