"""Prices a batch of European calls with Black-Scholes inside a tf.function and uses a
GradientTape to get each option's delta; the returned delta is None."""
# cause: swapped
# depth: tf.function
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)

SQRT2 = np.sqrt(2.0)


def norm_cdf(x):
    return 0.5 * (1.0 + tf.math.erf(x / SQRT2))


@tf.function
def price_and_delta(spot, strike, vol, rate, maturity):
    with tf.GradientTape() as tape:
        tape.watch(spot)
        sqrt_t = tf.sqrt(maturity)
        d1 = (tf.math.log(spot / strike) + (rate + 0.5 * vol ** 2) * maturity) / (vol * sqrt_t)
        d2 = d1 - vol * sqrt_t
        price = spot * norm_cdf(d1) - strike * tf.exp(-rate * maturity) * norm_cdf(d2)
    delta = tape.gradient(spot, price)  # <- expected
    return price, delta


spot = tf.constant(rng.uniform(80.0, 120.0, size=6), dtype=tf.float64)
strike = tf.constant(100.0, dtype=tf.float64)
vol = tf.constant(rng.uniform(0.15, 0.35, size=6), dtype=tf.float64)
rate = tf.constant(0.03, dtype=tf.float64)
maturity = tf.constant(rng.uniform(0.25, 2.0, size=6), dtype=tf.float64)

price, delta = price_and_delta(spot, strike, vol, rate, maturity)
print("prices:", np.round(price.numpy(), 3))
print("deltas:", delta)
