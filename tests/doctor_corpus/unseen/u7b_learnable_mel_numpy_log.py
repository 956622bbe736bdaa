"""Keyword spotting with a learnable filterbank on top of the STFT.

I replaced the fixed mel matrix with a trainable one (initialised randomly for now) and
ported the dB conversion from librosa so the features look like what I had before.
The classifier head gets gradients, but the filterbank gradient is always None, so the
filterbank stays exactly at its initial values. The spectrogram itself is a constant,
I don't need gradients through the STFT, only through the filterbank.
"""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(5)
rng = np.random.RandomState(5)

waves = tf.constant(rng.normal(0, 0.1, size=(4, 4000)).astype("float32"))  # 0.25 s at 16 kHz
labels = tf.constant([0, 1, 2, 1])
spec = tf.abs(tf.signal.stft(waves, frame_length=256, frame_step=128)) ** 2  # (4, T, 129)

filterbank = tf.Variable(rng.uniform(0, 0.1, size=(129, 20)).astype("float32"), name="fbank")
head = keras.Sequential([keras.layers.Dense(16, activation="relu"), keras.layers.Dense(3)])
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def power_to_db(S, ref=1.0, amin=1e-10, top_db=80.0):
    """Same as librosa.power_to_db."""
    log_spec = 10.0 * np.log10(np.maximum(amin, S))  # <- expected
    log_spec -= 10.0 * np.log10(np.maximum(amin, ref))
    log_spec = np.maximum(log_spec, log_spec.max() - top_db)
    return tf.convert_to_tensor(log_spec, dtype=tf.float32)


def filterbank_features(power_spec, fb):
    energies = tf.einsum("btf,fm->btm", power_spec, tf.nn.relu(fb))
    db = power_to_db(energies)
    return (db - tf.reduce_mean(db)) / 20.0


def compute_loss(fb):
    feats = filterbank_features(spec, fb)
    pooled = tf.reduce_mean(feats, axis=1)
    return xent(labels, head(pooled))


with tf.GradientTape() as tape:
    loss = compute_loss(filterbank)
grads = tape.gradient(loss, [filterbank] + head.trainable_variables)
print("loss", float(loss))
print("filterbank grad:", grads[0])
print("head grads are None:", [g is None for g in grads[1:]])


def computation():
    return compute_loss, [filterbank]
