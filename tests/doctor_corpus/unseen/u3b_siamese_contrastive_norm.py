"""Siamese embedding network for matching product images trained with model.fit and a custom
contrastive loss on Euclidean distance; the loss turns to NaN right after training starts."""
# cause: nan_at_zero
# depth: fit
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(37)
keras.utils.set_random_seed(37)

n_pairs, d = 64, 12
left = rng.normal(size=(n_pairs, d)).astype("float32")
right = rng.normal(size=(n_pairs, d)).astype("float32")
is_match = rng.integers(0, 2, size=n_pairs).astype("float32")
# matching pairs are listings of the same product photo
right[is_match == 1] = left[is_match == 1]

encoder = keras.Sequential([
    keras.Input(shape=(d,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(4),
], name="encoder")

in_a = keras.Input(shape=(d,))
in_b = keras.Input(shape=(d,))
pair_embeddings = keras.layers.Concatenate()([encoder(in_a), encoder(in_b)])
siamese = keras.Model([in_a, in_b], pair_embeddings)


def contrastive_loss(y_true, y_pred, margin=1.0):
    emb_a, emb_b = tf.split(y_pred, 2, axis=-1)
    dist = tf.norm(emb_a - emb_b, axis=-1)  # <- expected
    y_true = tf.cast(tf.reshape(y_true, [-1]), dist.dtype)
    positive = y_true * dist
    negative = (1.0 - y_true) * tf.maximum(margin - dist, 0.0)
    return tf.reduce_mean(positive + negative)


siamese.compile(optimizer=keras.optimizers.Adam(1e-3), loss=contrastive_loss, jit_compile=False)
history = siamese.fit([left, right], is_match, batch_size=16, epochs=3, verbose=0)
print("loss per epoch:", history.history["loss"])
