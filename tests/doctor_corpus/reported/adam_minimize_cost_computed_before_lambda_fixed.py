"""Minimizing -sum(log(y_N)) with Adam's minimize, the whole cost computed inside the loss lambda."""
# cause: connected
# depth: main
# thread: tensorflow/tensorflow#42167
import tensorflow as tf

y_N = tf.Variable([1., 2., 3.], name="dd")

loss = lambda: -tf.reduce_mean(input_tensor=tf.reduce_sum(input_tensor=tf.math.log(y_N), axis=0))


def computation():
    return (lambda *params: loss()), [y_N]


train_step = tf.compat.v1.train.AdamOptimizer(0.5).minimize(loss, var_list=[y_N])
