"""sqrt(square(v)) summed, for v = [[1, 0]]: written inline under the tape the gradient prints as
[[1 1]], but moved into a function (with or without tf.function) it becomes nan."""
# cause: nan_at_zero
# depth: tf.function
# thread: tensorflow/tensorflow#42602
import tensorflow as tf


@tf.function  # Happens in both eager and graph
def fun(v):
    v = tf.square(v)
    v = tf.sqrt(v)  # <- expected
    return tf.reduce_sum(v, axis=-1)


x = tf.Variable([[1.0, 0.0]])
with tf.GradientTape() as tape:
    z = fun(x)
    loss = tf.nn.l2_loss(z)

g = tape.gradient(loss, x)
