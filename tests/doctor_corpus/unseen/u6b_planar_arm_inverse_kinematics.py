"""Inverse kinematics for a 3-link planar robot arm by gradient descent on the joint angles.

The asker says tape.gradient returns None for the joint angles, so the arm never
moves toward the target.
"""
# cause: left_tensorflow
# depth: method
import numpy as np
import tensorflow as tf


class PlanarArm:
    def __init__(self, link_lengths):
        self.lengths = tf.constant(link_lengths, tf.float32)

    def forward_kinematics(self, joint_angles):
        cumulative = tf.cumsum(joint_angles)
        directions = np.stack([np.cos(cumulative), np.sin(cumulative)], axis=-1)  # <- expected
        return tf.reduce_sum(self.lengths[:, None] * directions, axis=0)

    def joint_positions(self, joint_angles):
        cumulative = tf.cumsum(joint_angles)
        steps = self.lengths[:, None] * tf.stack([tf.cos(cumulative), tf.sin(cumulative)], -1)
        return tf.cumsum(steps, axis=0)


arm = PlanarArm([1.0, 0.8, 0.5])
theta = tf.Variable([0.3, 0.2, 0.1], name="theta")
target = tf.constant([0.6, 1.6])
learning_rate = 0.1


def reach_loss():
    tip = arm.forward_kinematics(theta)
    return tf.reduce_sum((tip - target) ** 2)


for step in range(3):
    with tf.GradientTape() as tape:
        loss = reach_loss()
    grad = tape.gradient(loss, theta)
    print(f"step {step}: loss={float(loss):.4f} grad={grad}")
    if grad is not None:
        theta.assign_sub(learning_rate * grad)

print("joint positions:\n", arm.joint_positions(theta).numpy())


def computation():
    return reach_loss, [theta]
