"""Fitting a power law y = a * x**k with a tf.Module; the gradient for k prints as None."""
# cause: not_trainable
# depth: method
import numpy as np
import tensorflow as tf

np.random.seed(1)
x = tf.constant(np.linspace(1.0, 5.0, 20).astype("float32"))
y = 2.0 * x ** 1.5 * (1.0 + 0.02 * tf.constant(np.random.randn(20).astype("float32")))


class PowerLaw(tf.Module):
    def __init__(self):
        super().__init__()
        self.a = tf.Variable(1.0, name="a")
        self.k = tf.Variable(1.0, name="k", trainable=False)  # <- expected

    def __call__(self, x):
        return self.a * tf.pow(x, self.k)

    def loss(self, x, y):
        return tf.reduce_mean(tf.square(tf.math.log(self(x)) - tf.math.log(y)))

    def fit_step(self, x, y, lr=0.05):
        with tf.GradientTape() as tape:
            loss = self.loss(x, y)
        da, dk = tape.gradient(loss, [self.a, self.k])
        print("da:", da, "dk:", dk)
        self.a.assign_sub(lr * da)
        if dk is not None:
            self.k.assign_sub(lr * dk)
        return loss


law = PowerLaw()


def computation():
    return (lambda k: law.loss(x, y)), law.k


for it in range(2):
    law.fit_step(x, y)
