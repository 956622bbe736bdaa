"""tape.gradient(z, x) returns None for z = x + y, where tf.gradients gives 1; x is a tensor
computed from a variable."""
# cause: not_watched
# depth: main
# thread: tensorflow/tensorflow#29942
import tensorflow as tf

x0 = tf.Variable(1.0, name='x0', dtype=tf.float32)
x1 = tf.constant(3.)
x = x0 + x1
# x = tf.constant(3.0)
y = tf.constant(4.0)
with tf.GradientTape() as tape:
    z = x + y
    tape_grad = tape.gradient(z, x)  # <- expected
