"""The asker takes the gradient of f(x) = x ** 2 at a watched tensor and gets None, although the
same code works once f(x) is first assigned to a local variable."""
# cause: outside_tape
# depth: main
# thread: tensorflow/tensorflow#27660
import tensorflow as tf


def f(x):
    return x ** 2


def grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
        # out = f(x)
    return t.gradient(f(x), x)  # <- expected


x = tf.convert_to_tensor(9.0)

dx = grad(x)
