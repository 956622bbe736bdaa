"""y = where(x > 0, 0, exp(x)) evaluated at x = 1e10: y is correctly 0, but dy/dx is nan where it
should be 0."""
# cause: nan_overflow,nan_unsafe_where
# depth: main
# thread: tensorflow/tensorflow#2540
import tensorflow as tf

x = tf.constant(1e10)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.where(x > 0, 0., tf.exp(x))  # <- expected
z = tape.gradient(y, x)

yv, zv = y.numpy(), z.numpy()  # yv is 0, zv is nan but should be 0
