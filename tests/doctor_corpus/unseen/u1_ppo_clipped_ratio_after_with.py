"""PPO on a toy discrete-action problem: the clipped surrogate objective trains nothing, and the
policy network's gradients come back as a list of None."""
# cause: outside_tape
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(1)
n_obs, n_act, clip = 4, 3, 0.2

policy = keras.Sequential([
    keras.Input((n_obs,)),
    keras.layers.Dense(32, activation="tanh"),
    keras.layers.Dense(n_act),
])

rng = np.random.default_rng(1)
obs = tf.constant(rng.normal(size=(16, n_obs)), tf.float32)
actions = tf.constant(rng.integers(0, n_act, size=16), tf.int32)
advantages = tf.constant(rng.normal(size=16), tf.float32)
old_logp = tf.gather(tf.nn.log_softmax(policy(obs)), actions, batch_dims=1) + 0.01

with tf.GradientTape() as tape:
    logits = policy(obs)
    new_logp = tf.gather(tf.nn.log_softmax(logits), actions, batch_dims=1)
ratio = tf.exp(new_logp - old_logp)  # <- expected
surr1 = ratio * advantages
surr2 = tf.clip_by_value(ratio, 1.0 - clip, 1.0 + clip) * advantages
policy_loss = -tf.reduce_mean(tf.minimum(surr1, surr2))
grads = tape.gradient(policy_loss, policy.trainable_variables)
