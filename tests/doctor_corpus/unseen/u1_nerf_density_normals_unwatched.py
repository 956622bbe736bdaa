"""A NeRF-style coordinate network: surface normals are the negative gradient of the density with
respect to the 3-D sample points, but surface_normals() returns None for every batch of rays."""
# cause: not_watched
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(2)
N_FREQ = 4


def positional_encoding(p):
    freqs = 2.0 ** tf.range(N_FREQ, dtype=tf.float32) * np.pi
    angles = p[..., None] * freqs
    enc = tf.concat([tf.sin(angles), tf.cos(angles)], axis=-1)
    return tf.concat([p, tf.reshape(enc, [-1, 3 * 2 * N_FREQ])], axis=-1)


density_mlp = keras.Sequential([
    keras.Input((3 + 3 * 2 * N_FREQ,)),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(1, activation="softplus"),
])


@tf.function
def surface_normals(points):
    with tf.GradientTape() as tape:  # <- expected
        sigma = density_mlp(positional_encoding(points))
    grad = tape.gradient(sigma, points)  # <- expected
    return grad


def sample_rays(n, seed):
    origins = tf.zeros([n, 3])
    dirs = tf.math.l2_normalize(tf.random.stateless_normal([n, 3], seed=[seed, 0]), axis=-1)
    depths = tf.random.stateless_uniform([n, 1], seed=[seed, 1], minval=2.0, maxval=6.0)
    return origins + depths * dirs


first = surface_normals(sample_rays(32, 0))
normals = surface_normals(sample_rays(32, 1))
