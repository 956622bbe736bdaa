"""A persistent tape watches y and v and records w = y * y * v; the first gradient dw/dy is right,
but the gradient of that result with respect to v comes back None."""
# cause: inner_gradient_outside
# depth: main
# thread: tensorflow/tensorflow#41510
import tensorflow as tf

y = tf.constant(2.0,)
v = tf.Variable(3.0,)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(y)
    tape.watch(v)

    w = y * y * v

grads = tape.gradient(w, y)  # 2*y*v  # <- expected
dgradsdv = tape.gradient(grads, v)  # ?
