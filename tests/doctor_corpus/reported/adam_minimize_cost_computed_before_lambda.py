"""Minimizing -sum(log(y_N)) with Adam's minimize and a loss lambda; the optimizer raises "No
gradients provided for any variable: ['dd:0']"."""
# cause: outside_tape
# depth: main
# thread: tensorflow/tensorflow#42167
import tensorflow as tf

y_N = tf.Variable([1., 2., 3.], name="dd")
cost = -tf.reduce_mean(input_tensor=tf.reduce_sum(input_tensor=tf.math.log(y_N), axis=0))  # <- expected

loss = lambda: cost


def computation():
    return (lambda *params: loss()), [y_N]


train_step = tf.compat.v1.train.AdamOptimizer(0.5).minimize(loss, var_list=[y_N])
