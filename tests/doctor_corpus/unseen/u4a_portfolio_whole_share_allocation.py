"""Mean-variance portfolio optimisation: softmax allocation logits are trained to maximise a
risk-adjusted return of the positions actually bought (whole shares). tape.gradient returns None for the logits."""
# cause: integer_dtype
# depth: helper
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(5)
tf.random.set_seed(5)

N_ASSETS, N_DAYS = 6, 250
CAPITAL = 100_000.0
prices = tf.constant(rng.uniform(20, 400, size=N_ASSETS), dtype=tf.float32)
mean_daily = rng.uniform(-0.0002, 0.0012, size=N_ASSETS)
vol_daily = rng.uniform(0.008, 0.03, size=N_ASSETS)
daily_returns = tf.constant(rng.normal(mean_daily, vol_daily, size=(N_DAYS, N_ASSETS)), dtype=tf.float32)

logits = tf.Variable(tf.zeros(N_ASSETS), name="allocation_logits")
RISK_AVERSION = 5.0


def positions_from_weights(weights, capital, prices):
    """Turn target weights into the dollar value of the shares we can actually buy."""
    budget = weights * capital
    n_shares = tf.cast(budget / prices, tf.int32)  # <- expected
    return tf.cast(n_shares, tf.float32) * prices


def objective():
    weights = tf.nn.softmax(logits)
    invested = positions_from_weights(weights, CAPITAL, prices)
    pnl = tf.linalg.matvec(daily_returns, invested) / CAPITAL        # daily portfolio return
    mean, var = tf.nn.moments(pnl, axes=[0])
    return -(252.0 * mean - RISK_AVERSION * 252.0 * var)


with tf.GradientTape() as tape:
    loss = objective()
grad = tape.gradient(loss, logits)
print(f"objective={float(loss):.5f}")
print("d objective / d logits:", grad)


def computation():
    return objective, [logits]
