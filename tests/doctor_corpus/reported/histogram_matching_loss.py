"""Matching the histogram of one variable to the histogram of another with an l2 loss on
tf.histogram_fixed_width; AdamOptimizer raises "No gradients provided for any variable"."""
# cause: not_differentiable,integer_dtype
# depth: helper
# thread: tensorflow/tensorflow#14894
import tensorflow as tf

input1 = tf.Variable([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], name='input1')
input2 = tf.Variable([2.0, 3.0, 4.0, 6.0, 8.0, 9.0], name='input2')
values_range = tf.constant([0., 10.], dtype=tf.float32)


def loss():
    source_hist = tf.histogram_fixed_width(tf.cast(input1, tf.float32), values_range, 11)  # <- expected
    template_hist = tf.histogram_fixed_width(tf.cast(input2, tf.float32), values_range, 11)
    source_hist = tf.cast(source_hist, tf.float32)
    template_hist = tf.cast(template_hist, tf.float32)
    return 2 * tf.nn.l2_loss(source_hist - template_hist)


def computation():
    return (lambda *params: loss()), [input1, input2]


optimizer = tf.compat.v1.train.AdamOptimizer(0.001)
for i in range(0, 2, 1):
    train_step = optimizer.minimize(loss, var_list=[input1, input2])
