"""Differentiable sampling of a discrete action with the Gumbel-softmax trick, written by hand.
It works at temperature 1.0; once the temperature is annealed down to 0.05 the gradients of the policy
network are NaN."""
# cause: nan_overflow
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(10)

policy = keras.Sequential([
    keras.Input((6,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(4),  # logits of 4 actions
])
action_values = tf.constant([[1.0], [0.5], [-0.5], [2.0]])  # reward of each action


def gumbel_softmax(logits, tau):
    u = tf.random.uniform(tf.shape(logits), minval=1e-9, maxval=1.0)
    g = -tf.math.log(-tf.math.log(u))
    e = tf.exp((logits + g) / tau)  # <- expected
    return e / tf.reduce_sum(e, axis=-1, keepdims=True)


def policy_loss(states, tau):
    tf.random.set_seed(11)  # same Gumbel noise every call, for comparing runs
    soft_actions = gumbel_softmax(policy(states), tau)
    return -tf.reduce_mean(soft_actions @ action_values)


states = 10.0 * tf.random.normal((8, 6))  # raw observations
tau = 0.05
with tf.GradientTape() as tape:
    loss = policy_loss(states, tau)
grads = tape.gradient(loss, policy.trainable_variables)
print("loss:", float(loss), "| grad norm:", float(tf.linalg.global_norm(grads)))


def computation():
    return (lambda *variables: policy_loss(states, tau)), policy.trainable_variables
