"""A one-layer affine normalizing flow fitted by maximum likelihood; after one training step the
gradient of the negative log-likelihood for the scale parameter is None."""
# cause: variable_replaced
# depth: method
import numpy as np
import tensorflow as tf

tf.random.set_seed(3)
LOG_2PI = float(np.log(2.0 * np.pi))


class AffineFlow(tf.Module):
    def __init__(self, dim):
        super().__init__()
        self.shift = tf.Variable(tf.zeros([dim]), name="shift")
        self.scale = tf.Variable(tf.ones([dim]), name="scale")

    def log_prob(self, x):
        z = (x - self.shift) / self.scale
        log_base = -0.5 * (z ** 2 + LOG_2PI)
        return tf.reduce_sum(log_base - tf.math.log(self.scale), axis=-1)

    def fit_step(self, x, lr=0.05):
        with tf.GradientTape() as tape:
            nll = -tf.reduce_mean(self.log_prob(x))
        g_shift, g_scale = tape.gradient(nll, [self.shift, self.scale])
        self.shift.assign_sub(lr * g_shift)
        self.scale = tf.maximum(self.scale - lr * g_scale, 1e-3)  # <- expected
        return nll


data = tf.random.normal([256, 2], mean=[1.0, -2.0], stddev=[0.5, 2.0])
flow = AffineFlow(2)
flow.fit_step(data)

with tf.GradientTape() as tape:
    nll = -tf.reduce_mean(flow.log_prob(data))
grads = tape.gradient(nll, [flow.shift, flow.scale])
print("nll", float(nll))
