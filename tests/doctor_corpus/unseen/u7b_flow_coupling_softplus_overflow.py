"""Affine coupling flow for fraud-detection density estimation (amount, duration).

One conditional affine layer: the transaction duration is transformed with a shift and a
positive scale predicted from the amount. The NLL is inf on the first batch and every
gradient of the conditioner comes back NaN, so after one Adam step all weights are NaN.
The scale should be safe, I make it positive with softplus and add 1e-3 so the log never
sees zero.
"""
# cause: nan_overflow
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(23)
rng = np.random.RandomState(23)

amount = rng.lognormal(mean=6.0, sigma=1.0, size=(64, 1))        # in euros, ~400 typical
duration = rng.gamma(2.0, 30.0, size=(64, 1)) + 0.01 * amount     # seconds on the page
batch = tf.constant(np.concatenate([amount, duration], axis=1).astype("float32"))

conditioner = keras.Sequential([keras.layers.Dense(16, activation="relu"), keras.layers.Dense(2)])
conditioner.build((None, 1))
LOG_2PI = float(np.log(2.0 * np.pi))


@tf.function
def negative_log_likelihood(x):
    x1, x2 = x[:, :1], x[:, 1:]
    h = conditioner(x1)
    shift, raw_scale = h[:, :1], h[:, 1:]
    scale = tf.math.log(1.0 + tf.exp(raw_scale)) + 1e-3  # <- expected
    z2 = (x2 - shift) / scale
    log_det = -tf.math.log(scale)
    log_base = -0.5 * (tf.math.log(x1) ** 2 + z2 ** 2) - LOG_2PI
    return -tf.reduce_mean(log_base + log_det)


with tf.GradientTape() as tape:
    nll = negative_log_likelihood(batch)
grads = tape.gradient(nll, conditioner.trainable_variables)
print("nll:", float(nll))
for v, g in zip(conditioner.trainable_variables, grads):
    print(f"{v.path:24s} NaN in grad: {bool(tf.reduce_any(tf.math.is_nan(g)))}")


def computation():
    return (lambda: negative_log_likelihood(batch)), conditioner.trainable_variables
