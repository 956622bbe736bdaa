"""alpha * log(x) where x >= 0, zero elsewhere, with x replaced by a safe copy before the log; the
gradient with respect to alpha is finite."""
# cause: connected
# depth: main
# thread: tensorflow/tensorflow#27684
import tensorflow as tf
import numpy as np

np.random.seed(0)
x = tf.convert_to_tensor(np.random.randn(10).astype(np.float32))
alpha = tf.Variable(1, name='asdf', dtype=tf.float32, trainable=True)
with tf.GradientTape(persistent=True) as t:
    safe_x = tf.where(x > 0, x, tf.ones_like(x))
    x = safe_x
    s = tf.where(x >= 0, alpha * tf.math.log(x), tf.zeros_like(x))
gradients = t.gradient(s, [alpha])
