"""A persistent tape watches y and v and records w = y * y * v; the first gradient is taken inside
the tape's block, so the second one, with respect to v, is 2 * y."""
# cause: connected
# depth: main
# thread: tensorflow/tensorflow#41510
import tensorflow as tf

y = tf.constant(2.0,)
v = tf.Variable(3.0,)

with tf.GradientTape(persistent=True) as tape:
    tape.watch(y)
    tape.watch(v)

    w = y * y * v

    grads = tape.gradient(w, y)  # 2*y*v
dgradsdv = tape.gradient(grads, v)  # 2 * y
