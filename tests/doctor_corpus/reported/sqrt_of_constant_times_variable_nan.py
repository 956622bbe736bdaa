"""Minimizing a function with tf.sqrt(c * x) terms, x a Variable and c a constant that is
sometimes zero; the gradient inevitably turns into NaN."""
# cause: nan_at_zero
# depth: main
# thread: tensorflow/tensorflow#4914
import tensorflow as tf

x = tf.Variable([1.5, 2.0])
c = tf.constant([0.0, 3.0])
target = tf.constant(2.0)

with tf.GradientTape() as tape:
    f = tf.reduce_sum(tf.sqrt(c * x))  # <- expected
    loss = tf.square(f - target)
grad = tape.gradient(loss, x)
