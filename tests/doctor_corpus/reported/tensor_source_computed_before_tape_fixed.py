"""tape.gradient(z, x) for z = x + y, x a tensor computed from a variable and watched by the tape."""
# cause: connected
# depth: main
# thread: tensorflow/tensorflow#29942
import tensorflow as tf

x0 = tf.Variable(1.0, name='x0', dtype=tf.float32)
x1 = tf.constant(3.)
x = x0 + x1
y = tf.constant(4.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    z = x + y
    tape_grad = tape.gradient(z, x)
