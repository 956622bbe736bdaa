"""Deep Weibull survival model for time-to-churn with right censoring.

A small network outputs a Weibull shape k (kept >= 1) and scale lambda per
customer. Some customers are censored on day 0 (signed up and we lost them the
same day). The negative log-likelihood is finite, I checked it, and I even guard
the log-hazard so censored rows do not contribute. Still, every gradient of the
network is NaN and training blows up on the first step.
"""
# cause: nan_unsafe_where
# depth: helper
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(11)

net = tf.keras.Sequential([
    tf.keras.Input((5,)),
    tf.keras.layers.Dense(16, activation="relu"),
    tf.keras.layers.Dense(2),
])


def weibull_nll(t, event, raw):
    k = 1.0 + tf.nn.softplus(raw[:, 0])
    lam = tf.nn.softplus(raw[:, 1]) + 1e-3
    z = t / lam
    log_hazard = tf.math.log(k) - tf.math.log(lam) + (k - 1.0) * tf.math.log(z)
    log_hazard = tf.where(event > 0, log_hazard, tf.zeros_like(log_hazard))  # <- expected
    cum_hazard = tf.pow(z, k)
    return -tf.reduce_mean(event * log_hazard - cum_hazard)


x = tf.constant(np.random.randn(20, 5).astype(np.float32))
t = np.random.exponential(30.0, size=20).astype(np.float32)
event = (np.random.rand(20) < 0.6).astype(np.float32)
t[[3, 7, 12]] = 0.0
event[[3, 7, 12]] = 0.0
t, event = tf.constant(t), tf.constant(event)


def compute_loss():
    return weibull_nll(t, event, net(x))


with tf.GradientTape() as tape:
    loss = compute_loss()
grads = tape.gradient(loss, net.trainable_variables)
print("nll:", float(loss))
for v, g in zip(net.trainable_variables, grads):
    print(f"{v.path:28s} finite: {bool(tf.reduce_all(tf.math.is_finite(g)))}")


def computation():
    return compute_loss, net.trainable_variables
