"""Forecasts next-day hourly electricity load for households from weather and calendar features with a
masked per-household RMSE (missing meter readings are -1); model.fit reports loss: nan after the first batch."""
# cause: nan_at_zero
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(61)
rng = np.random.default_rng(61)

N, F, HOURS = 256, 10, 24
features = rng.normal(size=(N, F)).astype("float32")
profile = 0.6 + 0.4 * np.sin(np.linspace(0, 2 * np.pi, HOURS))
load = (profile[None, :] * rng.uniform(0.5, 2.0, size=(N, 1))
        + 0.1 * rng.normal(size=(N, HOURS))).astype("float32")
load[rng.random((N, HOURS)) < 0.1] = -1.0           # sporadic missing readings
load[rng.random(N) < 0.08] = -1.0                   # meters offline for the whole day


def masked_rmse(y_true, y_pred):
    mask = tf.cast(y_true >= 0.0, y_pred.dtype)
    sq = tf.square(y_true - y_pred) * mask
    count = tf.maximum(tf.reduce_sum(mask, axis=-1), 1.0)
    return tf.sqrt(tf.reduce_sum(sq, axis=-1) / count)  # <- expected


def build_model():
    keras.utils.set_random_seed(61)
    m = keras.Sequential([
        keras.Input((F,)),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dense(HOURS, activation="softplus"),
    ])
    m.compile(optimizer=keras.optimizers.Adam(1e-3), loss=masked_rmse)
    return m


model = build_model()
history = model.fit(features, load, batch_size=64, epochs=2, verbose=0)
print("loss per epoch:", history.history["loss"])


def computation():
    fresh = build_model()

    def compute():
        return tf.reduce_mean(masked_rmse(load, fresh(features, training=True)))

    return compute, fresh.trainable_variables
