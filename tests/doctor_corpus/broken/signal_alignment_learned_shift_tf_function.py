"""Aligning two recorded signals by gradient descent on a time shift; the printed gradient
is None and the shift stays at 0."""
# cause: integer_dtype
# depth: tf.function
import numpy as np
import tensorflow as tf

n = 64
t = np.arange(n, dtype="float32")
reference = tf.constant(np.sin(t / 5.0))
recorded = tf.constant(np.sin((t + 3.0) / 5.0))

shift = tf.Variable(0.0, name="shift")
lr = 2.0


@tf.function
def alignment_loss(s):
    positions = tf.range(n, dtype=tf.float32) + s
    idx = tf.clip_by_value(tf.cast(positions, tf.int32), 0, n - 1)  # <- expected
    shifted = tf.gather(reference, idx)
    return tf.reduce_mean(tf.square(shifted - recorded))


def computation():
    return alignment_loss, shift


for step in range(2):
    with tf.GradientTape() as tape:
        loss = alignment_loss(shift)
    grad = tape.gradient(loss, shift)
    print(step, "loss", float(loss), "grad", grad)
    if grad is not None:
        shift.assign_sub(lr * grad)
print("shift", shift.numpy())
