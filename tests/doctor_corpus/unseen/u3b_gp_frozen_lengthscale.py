"""Gaussian process regression with an RBF kernel whose hyperparameters are fitted by
minimizing the negative log marginal likelihood; the gradient for the lengthscale is None."""
# cause: not_trainable
# depth: method
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(17)

X = np.sort(rng.uniform(-3.0, 3.0, size=(25, 1)), axis=0)
y = np.sin(1.5 * X[:, 0]) + 0.1 * rng.normal(size=25)


class GPRegression(tf.Module):
    def __init__(self, X, y):
        super().__init__()
        self.X = tf.constant(X, dtype=tf.float64)
        self.y = tf.constant(y, dtype=tf.float64)
        self.log_lengthscale = tf.Variable(np.log(1.0), dtype=tf.float64, trainable=False)  # <- expected
        self.log_signal_var = tf.Variable(0.0, dtype=tf.float64)
        self.log_noise_var = tf.Variable(np.log(0.1), dtype=tf.float64)

    def kernel(self, A, B):
        lengthscale = tf.exp(self.log_lengthscale)
        sqdist = tf.reduce_sum(tf.square(A[:, None, :] - B[None, :, :]), axis=-1)
        return tf.exp(self.log_signal_var) * tf.exp(-0.5 * sqdist / lengthscale ** 2)

    def neg_log_marginal_likelihood(self):
        n = tf.shape(self.X)[0]
        K = self.kernel(self.X, self.X) + tf.exp(self.log_noise_var) * tf.eye(n, dtype=tf.float64)
        L = tf.linalg.cholesky(K)
        alpha = tf.linalg.cholesky_solve(L, self.y[:, None])
        data_fit = 0.5 * tf.reduce_sum(self.y[:, None] * alpha)
        complexity = tf.reduce_sum(tf.math.log(tf.linalg.diag_part(L)))
        return data_fit + complexity + 0.5 * tf.cast(n, tf.float64) * np.log(2.0 * np.pi)


gp = GPRegression(X, y)
hyperparams = [gp.log_lengthscale, gp.log_signal_var, gp.log_noise_var]

with tf.GradientTape() as tape:
    nll = gp.neg_log_marginal_likelihood()
grads = tape.gradient(nll, hyperparams)

print("nll:", float(nll))
for name, g in zip(["log_lengthscale", "log_signal_var", "log_noise_var"], grads):
    print(f"d nll / d {name}:", None if g is None else float(g))


def computation():
    return gp.neg_log_marginal_likelihood, [gp.log_lengthscale, gp.log_signal_var, gp.log_noise_var]
