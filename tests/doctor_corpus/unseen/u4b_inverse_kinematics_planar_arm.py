"""Inverse kinematics for a 3-link planar arm by gradient descent on the joint angles,
with a hand-written update step.  The first iteration works, then the gradient for
the joint angles comes back as None and the loop crashes."""
# cause: variable_replaced
# depth: main
import numpy as np
import tensorflow as tf

np.random.seed(0)

LINK_LENGTHS = tf.constant([1.0, 0.8, 0.5])


def forward_kinematics(angles):
    cumulative = tf.cumsum(angles)
    xs = tf.reduce_sum(LINK_LENGTHS * tf.cos(cumulative))
    ys = tf.reduce_sum(LINK_LENGTHS * tf.sin(cumulative))
    return tf.stack([xs, ys])


target = tf.constant([1.2, 0.9])
theta = tf.Variable(np.random.uniform(-0.5, 0.5, 3).astype(np.float32), name="theta")
lr = 0.1

for it in range(50):
    with tf.GradientTape() as tape:
        effector = forward_kinematics(theta)
        error = tf.reduce_sum((effector - target) ** 2)
        error += 1e-3 * tf.reduce_sum(theta ** 2)
    grad = tape.gradient(error, theta)
    print(f"iter {it}: error={float(error):.4f} grad={grad}")
    theta = theta - lr * grad  # <- expected

print("solution", theta.numpy(), "reaches", forward_kinematics(theta).numpy())
