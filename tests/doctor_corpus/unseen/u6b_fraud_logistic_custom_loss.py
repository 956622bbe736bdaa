"""Fraud detection with a logistic model on raw transaction features, via model.fit.

The asker wrote their own logistic loss. model.fit reports loss: nan from the
very first epoch, and afterwards every weight of the model is nan.
"""
# cause: nan_overflow
# depth: fit
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(8)
n = 512
amount = rng.lognormal(4.0, 1.2, n)
hour = rng.integers(0, 24, n)
tx_last_day = rng.poisson(3, n)
account_age_days = rng.uniform(1, 3000, n)
features = np.stack([amount, hour, tx_last_day, account_age_days], axis=1).astype("float32")
score = 0.004 * amount + 0.3 * (hour < 5) + 0.2 * tx_last_day - 0.002 * account_age_days
is_fraud = (score + rng.normal(0, 0.5, n) > 0.5).astype("float32")[:, None]


def logistic_loss(y_true, logits):
    y_sign = 2.0 * y_true - 1.0
    return tf.reduce_mean(tf.math.log(1.0 + tf.exp(-y_sign * logits)))  # <- expected


keras.utils.set_random_seed(8)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.SGD(0.01), loss=logistic_loss)
history = model.fit(features, is_fraud, batch_size=64, epochs=2, verbose=2)
print("loss per epoch:", history.history["loss"])
print("kernel:", model.layers[0].kernel.numpy().ravel())

fresh = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
x_batch, y_batch = tf.constant(features[:64]), tf.constant(is_fraud[:64])


def batch_loss():
    return logistic_loss(y_batch, fresh(x_batch))


def computation():
    return batch_loss, fresh.trainable_variables
