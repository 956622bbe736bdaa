"""Keyword spotting with a learnable mel filterbank.

I'm training a small keyword-spotting model where the mel filterbank itself is a
trainable matrix (initialised from a triangular bank). The classifier weights get
gradients, but the gradient for `filterbank` always comes back None, so the
frontend never moves. The spectrogram values look perfectly fine when I print them.
"""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(0)

N_FFT_BINS, N_MELS, N_FRAMES, N_CLASSES = 65, 16, 20, 4


def triangular_bank(n_bins, n_mels):
    centers = np.linspace(0, n_bins - 1, n_mels + 2)
    bank = np.zeros((n_bins, n_mels), dtype=np.float32)
    for m in range(n_mels):
        lo, c, hi = centers[m], centers[m + 1], centers[m + 2]
        k = np.arange(n_bins)
        bank[:, m] = np.clip(np.minimum((k - lo) / (c - lo), (hi - k) / (hi - c)), 0, None)
    return bank


filterbank = tf.Variable(triangular_bank(N_FFT_BINS, N_MELS), name="filterbank")
classifier = tf.keras.Sequential([
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(32, activation="relu"),
    tf.keras.layers.Dense(N_CLASSES),
])


def log_mel(power_spec, bank):
    mel = tf.einsum("btf,fm->btm", power_spec, tf.nn.relu(bank))
    return np.log(mel + 1e-6).astype(np.float32)  # <- expected


def compute_loss(power_spec, labels):
    feats = log_mel(power_spec, filterbank)
    logits = classifier(feats)
    return tf.reduce_mean(
        tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))


power_spec = tf.constant(np.random.rand(8, N_FRAMES, N_FFT_BINS).astype(np.float32) ** 2)
labels = tf.constant(np.random.randint(0, N_CLASSES, size=8))
classifier.build((None, N_FRAMES, N_MELS))

with tf.GradientTape() as tape:
    loss = compute_loss(power_spec, labels)
grads = tape.gradient(loss, [filterbank] + classifier.trainable_variables)
print("loss:", float(loss))
print("filterbank grad:", grads[0])
print("classifier grads are None:", [g is None for g in grads[1:]])


def computation():
    return (lambda: compute_loss(power_spec, labels)), [filterbank]
