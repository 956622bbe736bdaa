"""Pointwise logistic ranking loss for a click model trained with model.fit on raw engagement
features (dwell seconds, impressions, position): the loss turns to nan in the first epoch."""
# cause: nan_overflow
# depth: fit
import numpy as np
import tensorflow as tf
import keras


def logistic_ranking_loss(y_true, y_pred):
    signs = 2.0 * tf.cast(y_true, tf.float32) - 1.0
    return tf.reduce_mean(tf.math.log(1.0 + tf.exp(-signs * y_pred)))  # <- expected


def build_model():
    keras.utils.set_random_seed(7)
    model = keras.Sequential([
        keras.Input((3,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(1),
    ])
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=logistic_ranking_loss)
    return model


rng = np.random.default_rng(7)
features = np.stack([
    rng.uniform(0, 600, 64),       # dwell time in seconds
    rng.integers(1, 5000, 64),     # impressions
    rng.integers(1, 50, 64),       # position on the page
], axis=1).astype("float32")
clicked = (rng.uniform(size=(64, 1)) < 0.3).astype("float32")

model = build_model()
history = model.fit(features, clicked, batch_size=32, epochs=1, verbose=0)
print("loss:", history.history["loss"])


def computation():
    fresh = build_model()
    return (lambda: logistic_ranking_loss(clicked, fresh(features))), fresh.trainable_variables
