"""Bayes-by-backprop linear regression: a mean and a softplus-parametrised scale per weight, the
reparameterisation trick and a KL term, with a hand-written SGD update inside the module."""
# cause: connected
# depth: method
import numpy as np
import tensorflow as tf

tf.random.set_seed(20)


class BayesLinear(tf.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.w_mu = tf.Variable(tf.random.normal([d_in, d_out], stddev=0.1), name="w_mu")
        self.w_rho = tf.Variable(tf.fill([d_in, d_out], -3.0), name="w_rho")
        self.b = tf.Variable(tf.zeros([d_out]), name="b")

    def __call__(self, x):
        sigma = tf.nn.softplus(self.w_rho)
        w = self.w_mu + sigma * tf.random.normal(tf.shape(sigma))
        return tf.matmul(x, w) + self.b

    def kl(self):
        sigma = tf.nn.softplus(self.w_rho)
        return tf.reduce_sum(0.5 * (sigma ** 2 + self.w_mu ** 2 - 1.0) - tf.math.log(sigma))

    def sgd_step(self, x, y, n_data, lr=1e-3):
        with tf.GradientTape() as tape:
            nll = tf.reduce_mean(tf.square(self(x) - y))
            loss = nll + self.kl() / n_data
        grads = tape.gradient(loss, [self.w_mu, self.w_rho, self.b])
        for var, g in zip([self.w_mu, self.w_rho, self.b], grads):
            var.assign_sub(lr * g)
        self.w_rho.assign(tf.maximum(self.w_rho, -6.0))
        return loss, grads


rng = np.random.default_rng(20)
X = rng.normal(size=(100, 3)).astype("float32")
Y = (X @ np.array([[1.0], [-2.0], [0.5]]) + 0.1 * rng.normal(size=(100, 1))).astype("float32")
layer = BayesLinear(3, 1)
for _ in range(2):
    loss, grads = layer.sgd_step(X, Y, n_data=100)
print("elbo loss", float(loss))
