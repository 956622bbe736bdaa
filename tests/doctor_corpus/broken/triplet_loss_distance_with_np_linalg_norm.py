"""Training a small embedding network with a triplet loss; all the encoder's gradients are None."""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(7)

encoder = keras.Sequential([
    keras.Input((10,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(4),
])
optimizer = keras.optimizers.Adam(1e-3)


def embed(x):
    z = encoder(x, training=True)
    return z / tf.norm(z, axis=1, keepdims=True)


def pairwise_distance(a, b):
    return np.linalg.norm(a - b, axis=1)  # <- expected


def triplet_loss(anchor, positive, negative, margin=1.0):
    d_pos = pairwise_distance(embed(anchor), embed(positive))
    d_neg = pairwise_distance(embed(anchor), embed(negative))
    return tf.reduce_mean(tf.maximum(d_pos - d_neg + margin, 0.0))


anchor = np.random.randn(8, 10).astype("float32")
positive = anchor + 0.1 * np.random.randn(8, 10).astype("float32")
negative = np.random.randn(8, 10).astype("float32")

with tf.GradientTape() as tape:
    loss = triplet_loss(anchor, positive, negative)
grads = tape.gradient(loss, encoder.trainable_variables)
print("loss:", float(loss))
print("encoder grads:", grads)


def computation():
    return (lambda *variables: triplet_loss(anchor, positive, negative)), encoder.trainable_variables
