"""REINFORCE with a Gaussian policy on a continuous "reach the target" bandit.

The policy mean learns fine, but the asker reports that the gradient for the
policy's log standard deviation is always None, so exploration never shrinks.
"""
# cause: not_trainable
# depth: method
import math

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)


class GaussianPolicy:
    def __init__(self, obs_dim, act_dim):
        self.w = tf.Variable(rng.normal(0, 0.1, (obs_dim, act_dim)).astype("float32"), name="w")
        self.b = tf.Variable(tf.zeros([act_dim]), name="b")
        self.log_std = tf.Variable(tf.fill([act_dim], -0.5), trainable=False, name="log_std")  # <- expected

    @property
    def variables(self):
        return [self.w, self.b, self.log_std]

    def mean(self, obs):
        return obs @ self.w + self.b

    def sample(self, obs):
        eps = rng.normal(size=(obs.shape[0], self.b.shape[0])).astype("float32")
        return self.mean(obs) + tf.exp(self.log_std) * eps

    def log_prob(self, obs, actions):
        z = (actions - self.mean(obs)) / tf.exp(self.log_std)
        return tf.reduce_sum(-0.5 * z**2 - self.log_std - 0.5 * math.log(2 * math.pi), axis=-1)


obs = tf.constant(rng.normal(size=(256, 3)).astype("float32"))
true_w = tf.constant([[0.5, -1.0], [1.5, 0.2], [-0.7, 0.8]])
targets = obs @ true_w
policy = GaussianPolicy(obs_dim=3, act_dim=2)

actions = policy.sample(obs)
rewards = -tf.reduce_sum((actions - targets) ** 2, axis=-1)
advantages = (rewards - tf.reduce_mean(rewards)) / (tf.math.reduce_std(rewards) + 1e-8)


def policy_loss():
    return -tf.reduce_mean(policy.log_prob(obs, actions) * advantages)


with tf.GradientTape() as tape:
    loss = policy_loss()
grads = tape.gradient(loss, policy.variables)
print("loss:", float(loss))
for var, g in zip(policy.variables, grads):
    print(var.name, "grad:", None if g is None else g.numpy().round(3))


def computation():
    return policy_loss, policy.variables
