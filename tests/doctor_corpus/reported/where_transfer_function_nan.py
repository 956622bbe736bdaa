"""A piecewise transfer function, 1/(1-x) for x < 0 and log(x+1) otherwise, built with tf.where;
its derivative is nan at x = 1 and at x = -1, where both pieces are smooth."""
# cause: nan_unsafe_where
# depth: helper
# thread: tensorflow/tensorflow#20355
import tensorflow as tf

transfer = lambda x: tf.where(x < 0, 1./(1.-x), tf.math.log(x+1))  # <- expected


def f(x):
    xt = tf.constant([x])
    with tf.GradientTape() as tape:
        tape.watch(xt)
        yt = transfer(xt)
    dydx = tape.gradient(yt, xt)
    return [xt, yt, dydx]


r1 = f(1.)  # [1, 2, nan]
r2 = f(-1.)  # [-1, 0.5, nan]
r3 = f(0.)  # [0, 0, 1] (no nan here, interestingly)
