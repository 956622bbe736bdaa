"""tf.where picks `a` (a = 10 < 15), yet the gradient of the result with respect to `a` is nan
instead of 1."""
# cause: nan_unsafe_where
# depth: main
# thread: tensorflow/tensorflow#38349
import tensorflow as tf

a = tf.Variable(10.)
with tf.GradientTape() as tape:
    out = tf.where(a < 15., a, tf.math.pow(10.0, tf.math.exp(a)))  # <- expected
    grads = tape.gradient(out, a)
