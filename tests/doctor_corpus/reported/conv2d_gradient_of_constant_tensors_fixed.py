"""Checking the gradient of a 2D convolution under tf.GradientTape, the input and the filter
watched by the tape."""
# cause: connected
# depth: main
# thread: tensorflow/tensorflow#50661
import numpy as np
import tensorflow as tf

np.random.seed(0)

# sizes, fixed strides, in_channel, out_channel be 1 for now
with tf.GradientTape() as g:
    x_size = 4
    w_size = 3  # use an odd number here
    x_shape = (1, x_size, x_size, 1)
    w_shape = (w_size, w_size, 1, 1)
    out_shape = (1, x_size - w_size + 1, x_size - w_size + 1, 1)
    strides = (1, 1, 1, 1)

    # numpy value
    x_np = np.random.randint(10, size=x_shape)
    w_np = np.random.randint(10, size=w_shape)

    # tf value
    x = tf.constant(x_np, dtype=tf.float32)
    w = tf.constant(w_np, dtype=tf.float32)
    g.watch(x)
    g.watch(w)
    out = tf.nn.conv2d(x, w, strides=strides, padding='VALID')
    loss = tf.reduce_sum(out)

dx, dw = g.gradient(loss, [x, w])
