"""The asker does not understand why the gradient of class_channel with respect to a tensor of
ones is None."""
# cause: none_is_correct,not_watched
# depth: main
# thread: tensorflow/tensorflow#56968
import tensorflow as tf

ones = tf.ones([1, 8, 8, 1], tf.float32)
with tf.GradientTape() as tape:

    class_channel = tf.constant([4.4328732], dtype=tf.float32)  # <- expected
    grads = tape.gradient(class_channel, ones)
