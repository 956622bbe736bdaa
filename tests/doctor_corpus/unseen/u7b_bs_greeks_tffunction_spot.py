"""Black-Scholes greeks with autodiff inside a tf.function (risk report over a spot grid).

I compute price, delta and vega for a grid of spot prices in one compiled function. Vega
comes out fine (the book vega, summed over the grid, matches the closed form), but delta
is None. Both come from the same tape and the same price tensor, the only difference is that
one is taken with respect to spot and the other with respect to vol.
"""
# cause: not_watched
# depth: tf.function
import numpy as np
import tensorflow as tf

tf.random.set_seed(1)

strike, rate, maturity = 100.0, 0.03, 0.5
implied_vol = tf.Variable(0.22, name="implied_vol")  # calibrated elsewhere


def norm_cdf(x):
    return 0.5 * (1.0 + tf.math.erf(x / np.sqrt(2.0)))


def bs_call(spot, vol):
    sqrt_t = np.sqrt(maturity)
    d1 = (tf.math.log(spot / strike) + (rate + 0.5 * vol ** 2) * maturity) / (vol * sqrt_t)
    d2 = d1 - vol * sqrt_t
    return spot * norm_cdf(d1) - strike * tf.exp(-rate * maturity) * norm_cdf(d2)


@tf.function
def risk_report(spot):
    with tf.GradientTape(persistent=True) as tape:  # <- expected
        price = bs_call(spot, implied_vol)
    delta = tape.gradient(price, spot)  # <- expected
    vega = tape.gradient(price, implied_vol)
    return price, delta, vega


spots = tf.linspace(80.0, 120.0, 5)
price, delta, vega = risk_report(spots)
print("price:", price.numpy())
print("delta:", delta)
print("vega :", vega)


def computation():
    return bs_call, [spots, implied_vol]
