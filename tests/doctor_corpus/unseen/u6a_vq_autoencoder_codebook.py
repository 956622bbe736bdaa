"""Vector-quantised autoencoder on synthetic sensor frames.

encoder -> nearest codebook vector -> decoder. The decoder and the codebook get
gradients, but every encoder gradient prints as None, so the encoder never trains.
"""
# cause: not_differentiable
# depth: helper
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(9)
frames = rng.normal(size=(256, 20)).astype("float32")
frames[:, 10:] += np.sin(np.linspace(0, 3, 10)).astype("float32")

keras.utils.set_random_seed(9)
encoder = keras.Sequential([keras.Input((20,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(4)])
decoder = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(20)])
codebook = tf.Variable(tf.random.normal([32, 4], seed=9), name="codebook")


def quantize(z, codebook):
    dists = tf.reduce_sum(tf.square(z[:, None, :] - codebook[None, :, :]), axis=-1)
    codes = tf.argmin(dists, axis=1)  # <- expected
    return tf.gather(codebook, codes), codes


def vq_loss(x):
    z = encoder(x)
    z_q, _ = quantize(z, codebook)
    recon = decoder(z_q)
    return tf.reduce_mean(tf.square(recon - x))


x = tf.constant(frames)
params = encoder.trainable_variables + decoder.trainable_variables + [codebook]
with tf.GradientTape() as tape:
    loss = vq_loss(x)
grads = tape.gradient(loss, params)
print("reconstruction mse:", float(loss))
n_enc, n_dec = len(encoder.trainable_variables), len(decoder.trainable_variables)
print("encoder grads:", grads[:n_enc])
print("decoder grads None?", [g is None for g in grads[n_enc:n_enc + n_dec]])
print("codebook grad None?", grads[-1] is None)


def computation():
    return (lambda: vq_loss(x)), params
