"""A one-layer sigmoid classifier whose loss compares the labels with the thresholded
prediction; GradientDescentOptimizer.minimize raises "No gradients provided for any variable"."""
# cause: not_differentiable
# depth: helper
# thread: tensorflow/tensorflow#8625
import numpy as np
import tensorflow as tf

np.random.seed(0)
tf.random.set_seed(0)
x = tf.constant(np.random.rand(16, 6), tf.float32)
y_true = tf.constant(np.random.randint(0, 2, (16, 1)), tf.float32)

W = tf.Variable(tf.random.normal([6, 1], stddev=0.1))
b = tf.Variable(tf.zeros([1]))


def loss_op():
    layer_dropped = tf.nn.dropout(tf.matmul(x, W) + b, rate=0.2)
    y_prob = tf.sigmoid(layer_dropped)

    # Set a thresholds value
    y_pred = tf.floor(y_prob)  # <- expected

    # Loss Operation
    return tf.reduce_mean(tf.abs(y_true - y_pred))


def computation():
    return (lambda *params: loss_op()), [W, b]


optimizer_op = tf.compat.v1.train.GradientDescentOptimizer(0.005).minimize(loss_op, var_list=[W, b])
