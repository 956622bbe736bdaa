"""Fit a logistic growth curve to synthetic bacterial OD600 readings.

I wrote a small model class with its own SGD update. The first step works and the
loss goes down, but from the second step on every gradient is None.
"""
# cause: variable_replaced
# depth: method
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(4)
hours = np.linspace(0, 24, 49).astype("float32")
true_r, true_k, true_n0 = 0.45, 1.6, 0.02
od = true_k / (1 + (true_k - true_n0) / true_n0 * np.exp(-true_r * hours))
od = (od + 0.02 * rng.normal(size=od.shape)).astype("float32")
t = tf.constant(hours)
y = tf.constant(od)


class LogisticGrowth:
    def __init__(self):
        self.log_r = tf.Variable(np.log(0.3), dtype=tf.float32, name="log_r")
        self.log_k = tf.Variable(0.0, name="log_k")
        self.log_n0 = tf.Variable(np.log(0.05), dtype=tf.float32, name="log_n0")

    def params(self):
        return [self.log_r, self.log_k, self.log_n0]

    def __call__(self, t):
        r, k, n0 = tf.exp(self.log_r), tf.exp(self.log_k), tf.exp(self.log_n0)
        return k / (1.0 + (k - n0) / n0 * tf.exp(-r * t))

    def sgd_update(self, grads, lr):
        self.log_r, self.log_k, self.log_n0 = [p - lr * g for p, g in zip(self.params(), grads)]  # <- expected


model = LogisticGrowth()
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(t) - y))
    grads = tape.gradient(loss, model.params())
    print(f"step {step}: mse {loss.numpy():.5f}  grads {[None if g is None else round(float(g), 4) for g in grads]}")
    if any(g is None for g in grads):
        break
    model.sgd_update(grads, lr=0.1)
