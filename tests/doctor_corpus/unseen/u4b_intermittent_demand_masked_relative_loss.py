"""Forecasting intermittent store demand (many zero-sales days) with a small Keras MLP
and a relative-error loss that falls back to absolute error on zero-sales days.
The asker checks whether the zero-sales rows break training through model.fit."""
# cause: connected
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

n, n_lags = 512, 7
rate = np.random.gamma(0.6, 2.0, size=n)
history = np.random.poisson(rate[:, None], size=(n, n_lags)).astype(np.float32)
promo = np.random.binomial(1, 0.2, size=(n, 1)).astype(np.float32)
features = np.concatenate([history, promo], axis=1)
sales = np.random.poisson(rate * (1 + promo[:, 0])).astype(np.float32)[:, None]
print("fraction of zero-sales days:", float(np.mean(sales == 0)))


def relative_error(y_true, y_pred):
    abs_err = tf.abs(y_true - y_pred)
    has_sales = y_true > 0
    denom = tf.where(has_sales, y_true, tf.ones_like(y_true))
    per_day = tf.where(has_sales, abs_err / denom, abs_err)
    return tf.reduce_mean(per_day)


def build_model():
    model = keras.Sequential([
        keras.Input(shape=(n_lags + 1,)),
        keras.layers.Dense(32, activation="relu"),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(1, activation="softplus"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=relative_error)
    return model


model = build_model()
history_cb = model.fit(features, sales, batch_size=64, epochs=3, verbose=2)
print("loss per epoch:", history_cb.history["loss"])
print("any NaN weight:", any(np.isnan(w).any() for w in model.get_weights()))


def computation():
    fresh = build_model()
    xb, yb = tf.constant(features[:64]), tf.constant(sales[:64])
    return (lambda: relative_error(yb, fresh(xb))), list(fresh.trainable_variables)
