"""The asker takes the gradient of f(x) = x ** 2 at a watched tensor, with f(x) assigned to a local
variable inside the tape's block."""
# cause: connected
# depth: main
# thread: tensorflow/tensorflow#27660
import tensorflow as tf


def f(x):
    return x ** 2


def grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
        out = f(x)
    return t.gradient(out, x)


x = tf.convert_to_tensor(9.0)

dx = grad(x).numpy()
