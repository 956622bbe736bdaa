"""PPO with a clipped surrogate objective on a small discrete-action policy: the policy gradients
are all None."""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(15)

policy = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(32, activation="tanh"),
    keras.layers.Dense(2),
])

obs = tf.random.normal((32, 4))
actions = tf.random.uniform((32,), 0, 2, dtype=tf.int32)
advantages = tf.random.normal((32,))
old_log_probs = tf.gather(tf.nn.log_softmax(policy(obs)), actions, batch_dims=1)


def clipped_surrogate(new_log_probs, old_log_probs, advantages, clip=0.2):
    ratio = np.exp(new_log_probs - old_log_probs)  # <- expected
    clipped_ratio = tf.clip_by_value(ratio, 1.0 - clip, 1.0 + clip)
    return -tf.reduce_mean(tf.minimum(ratio * advantages, clipped_ratio * advantages))


def policy_loss():
    new_log_probs = tf.gather(tf.nn.log_softmax(policy(obs)), actions, batch_dims=1)
    return clipped_surrogate(new_log_probs, old_log_probs, advantages)


with tf.GradientTape() as tape:
    loss = policy_loss()
grads = tape.gradient(loss, policy.trainable_variables)
print("surrogate loss:", float(loss), "gradients:", grads)


def computation():
    return policy_loss, policy.trainable_variables
