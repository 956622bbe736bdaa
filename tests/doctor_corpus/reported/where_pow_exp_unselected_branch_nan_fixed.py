"""tf.where picks `a` (a = 10 < 15); the other branch is computed from a safe input, so the
gradient with respect to `a` is 1."""
# cause: connected
# depth: main
# thread: tensorflow/tensorflow#38349
import tensorflow as tf

a = tf.Variable(10.)
with tf.GradientTape() as tape:
    safe_a = tf.where(a < 15., 0., a)
    out = tf.where(a < 15., a, tf.math.pow(10.0, tf.math.exp(safe_a)))
    grads = tape.gradient(out, a)
