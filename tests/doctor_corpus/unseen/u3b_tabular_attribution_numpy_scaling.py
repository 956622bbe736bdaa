"""Gradient x input attributions for a credit-default classifier on tabular features that are
standardized by a small helper before going into the model; the input gradient is None."""
# cause: watched_other_object
# depth: helper
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(21)
keras.utils.set_random_seed(21)

n_features = 6
X_train = rng.normal(loc=[40, 55000, 3, 0.3, 12, 700], scale=[10, 15000, 1.5, 0.1, 6, 50],
                     size=(200, n_features))
feature_mean = X_train.mean(axis=0)
feature_std = X_train.std(axis=0)

model = keras.Sequential([
    keras.Input(shape=(n_features,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1),
])


def standardize(batch):
    return tf.convert_to_tensor((np.asarray(batch) - feature_mean) / feature_std, dtype=tf.float32)  # <- expected


def default_logit(applicants):
    scaled = standardize(applicants)
    return model(scaled, training=False)[:, 0]


applicants = tf.constant(X_train[:5], dtype=tf.float32)

with tf.GradientTape() as tape:
    tape.watch(applicants)
    logits = default_logit(applicants)

input_grads = tape.gradient(logits, applicants)
print("default logits:", np.round(logits.numpy(), 3))
print("input gradients:", input_grads)
if input_grads is not None:
    attributions = input_grads * applicants
    print("attributions:", attributions.numpy())
