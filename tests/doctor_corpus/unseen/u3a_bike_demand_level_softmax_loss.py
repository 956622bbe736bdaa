"""Classifies each day's bike-rental demand into 5 levels from raw weather/calendar features, using a hand-written
softmax cross-entropy passed to model.compile. model.fit prints loss: nan from the very first epoch."""
# cause: nan_overflow
# depth: fit
import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(8)
keras.utils.set_random_seed(8)

n = 256
temperature_f = rng.uniform(30, 95, n)
humidity_pct = rng.uniform(20, 100, n)
day_of_year = rng.integers(1, 366, n).astype(float)
registered_users = rng.uniform(1500, 6000, n)
features = np.stack([temperature_f, humidity_pct, day_of_year, registered_users], axis=1).astype("float32")
level = np.clip(((temperature_f - 30) / 13).astype(int), 0, 4)
levels_onehot = np.eye(5, dtype="float32")[level]


def demand_level_loss(y_true, logits):
    probs = tf.exp(logits) / tf.reduce_sum(tf.exp(logits), axis=-1, keepdims=True)  # <- expected
    return -tf.reduce_mean(tf.reduce_sum(y_true * tf.math.log(probs + 1e-9), axis=-1))


def build_model():
    return keras.Sequential([
        keras.Input((4,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(5),
    ])


model = build_model()
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=demand_level_loss)
model.fit(features, levels_onehot, batch_size=64, epochs=2, verbose=2)


def computation():
    fresh = build_model()
    x = tf.constant(features)
    y = tf.constant(levels_onehot)
    return (lambda: demand_level_loss(y, fresh(x))), list(fresh.trainable_variables)
