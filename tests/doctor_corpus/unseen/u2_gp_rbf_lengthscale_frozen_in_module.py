"""Gaussian-process regression, RBF kernel, hyperparameters fitted by minimising the negative log
marginal likelihood with Adam: the lengthscale never changes and its gradient is None."""
# cause: not_trainable
# depth: method
import numpy as np
import tensorflow as tf
import keras


class RBFGaussianProcess(tf.Module):
    def __init__(self):
        super().__init__()
        self.log_lengthscale = tf.Variable(0.0, trainable=False, name="log_lengthscale")  # <- expected
        self.log_variance = tf.Variable(0.0, name="log_variance")
        self.log_noise = tf.Variable(-2.0, name="log_noise")

    def kernel(self, a, b):
        sq_dist = tf.reduce_sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1)
        lengthscale = tf.exp(self.log_lengthscale)
        return tf.exp(self.log_variance) * tf.exp(-0.5 * sq_dist / lengthscale ** 2)

    def neg_log_marginal_likelihood(self, x, y):
        n = x.shape[0]
        k = self.kernel(x, x) + tf.exp(self.log_noise) * tf.eye(n)
        chol = tf.linalg.cholesky(k)
        alpha = tf.linalg.cholesky_solve(chol, y)
        data_fit = 0.5 * tf.reduce_sum(y * alpha)
        complexity = tf.reduce_sum(tf.math.log(tf.linalg.diag_part(chol)))
        return data_fit + complexity + 0.5 * n * np.log(2 * np.pi)


rng = np.random.default_rng(3)
x_train = rng.uniform(-3, 3, size=(40, 1)).astype("float32")
y_train = (np.sin(2 * x_train) + 0.1 * rng.normal(size=(40, 1))).astype("float32")

gp = RBFGaussianProcess()
hyperparameters = [gp.log_lengthscale, gp.log_variance, gp.log_noise]
optimizer = keras.optimizers.Adam(0.05)

for step in range(3):
    with tf.GradientTape() as tape:
        nlml = gp.neg_log_marginal_likelihood(x_train, y_train)
    grads = tape.gradient(nlml, hyperparameters)
    optimizer.apply_gradients(zip(grads, hyperparameters))
print("nlml:", float(nlml), "lengthscale:", float(tf.exp(gp.log_lengthscale)))


def computation():
    return (lambda: gp.neg_log_marginal_likelihood(x_train, y_train)), hyperparameters
