"""Predicts drug IC50 values from cell-line gene expression plus a drug fingerprint and trains on the
error in log10 space; every gradient returned by the tape is None."""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)

n, n_genes, n_bits = 128, 50, 32
expression = rng.normal(size=(n, n_genes)).astype("float32")
fingerprint = (rng.random((n, n_bits)) < 0.2).astype("float32")
ic50 = (10 ** rng.normal(0.0, 1.0, size=(n, 1))).astype("float32")  # micromolar

expr_in = keras.Input((n_genes,))
fp_in = keras.Input((n_bits,))
h = keras.layers.Concatenate()([
    keras.layers.Dense(32, activation="relu")(expr_in),
    keras.layers.Dense(16, activation="relu")(fp_in),
])
h = keras.layers.Dense(32, activation="relu")(h)
out = keras.layers.Dense(1, activation="softplus")(h)
model = keras.Model([expr_in, fp_in], out)
opt = keras.optimizers.Adam(1e-3)


def log_ic50_error(ic50_true, ic50_pred):
    log_pred = np.log10(ic50_pred + 1e-6)  # <- expected
    log_true = np.log10(ic50_true)
    return tf.reduce_mean(tf.square(log_pred - log_true))


with tf.GradientTape() as tape:
    pred = model([expression, fingerprint], training=True)
    loss = log_ic50_error(ic50, pred)
grads = tape.gradient(loss, model.trainable_variables)
print("loss:", float(loss))
print("grads:", [None if g is None else float(tf.norm(g)) for g in grads])


def computation():
    def compute():
        return log_ic50_error(ic50, model([expression, fingerprint], training=True))

    return compute, model.trainable_variables
