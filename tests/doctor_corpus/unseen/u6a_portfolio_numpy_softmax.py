"""Long-only portfolio: learn allocation logits that maximise the Sharpe ratio.

The weights come from a softmax over the logits so they sum to one. The loss prints
a sensible number, but `tape.gradient(loss, logits)` is None and the allocation
never changes.
"""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(42)
n_days, n_assets = 250, 6
mu = rng.uniform(0.0002, 0.0010, size=n_assets)
sigma = rng.uniform(0.005, 0.02, size=n_assets)
daily_returns = tf.constant(rng.normal(mu, sigma, size=(n_days, n_assets)), tf.float32)

logits = tf.Variable(tf.zeros([n_assets]), name="allocation_logits")


def allocation(logits):
    exps = np.exp(logits - np.max(logits))  # <- expected
    return tf.convert_to_tensor(exps / exps.sum(), dtype=tf.float32)


def neg_sharpe(weights, returns):
    port = tf.linalg.matvec(returns, weights)
    mean = tf.reduce_mean(port)
    std = tf.math.reduce_std(port) + 1e-8
    return -tf.sqrt(252.0) * mean / std


def compute_loss():
    return neg_sharpe(allocation(logits), daily_returns)


with tf.GradientTape() as tape:
    loss = compute_loss()
grad = tape.gradient(loss, logits)
print("annualised Sharpe:", -loss.numpy())
print("weights:", allocation(logits).numpy().round(3))
print("gradient:", grad)


def computation():
    return compute_loss, [logits]
