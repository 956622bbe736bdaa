"""Advantage actor-critic agent (tf.Module) with separate actor and critic networks, updated from a
batch of rollout data; the actor learns but every gradient for the critic network is None."""
# cause: unused
# depth: method
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(13)
rng = np.random.default_rng(13)

OBS_DIM, N_ACTIONS, GAMMA = 4, 2, 0.99

# one fake cart-pole-like rollout
T = 64
observations = rng.normal(0, 0.5, size=(T, OBS_DIM)).astype("float32")
actions = rng.integers(0, N_ACTIONS, size=T).astype("int32")
rewards = np.ones(T, dtype="float32")
returns = np.zeros(T, dtype="float32")
running = 0.0
for i in reversed(range(T)):
    running = rewards[i] + GAMMA * running
    returns[i] = running
returns = (returns - returns.mean()) / (returns.std() + 1e-8)


class ActorCritic(tf.Module):
    def __init__(self, entropy_coef=0.01, value_coef=0.5):
        super().__init__()
        self.actor = keras.Sequential([keras.Input((OBS_DIM,)), layers.Dense(64, activation="tanh"),
                                       layers.Dense(N_ACTIONS)])
        self.critic = keras.Sequential([keras.Input((OBS_DIM,)), layers.Dense(64, activation="tanh"),
                                        layers.Dense(1)])
        self.entropy_coef = entropy_coef
        self.value_coef = value_coef
        self.optimizer = keras.optimizers.Adam(3e-3)

    @property
    def variables_to_train(self):
        return self.actor.trainable_variables + self.critic.trainable_variables

    def loss(self, obs, acts, rets):
        logits = self.actor(obs)
        values = tf.squeeze(self.critic(obs), axis=-1)
        advantage = rets - values
        log_probs = -tf.nn.sparse_softmax_cross_entropy_with_logits(labels=acts, logits=logits)
        probs = tf.nn.softmax(logits)
        entropy = -tf.reduce_mean(tf.reduce_sum(probs * tf.nn.log_softmax(logits), axis=-1))
        policy_loss = -tf.reduce_mean(log_probs * tf.stop_gradient(advantage))
        value_loss = tf.reduce_mean(tf.square(advantage))
        return policy_loss - self.entropy_coef * entropy  # <- expected

    def update(self, obs, acts, rets):
        with tf.GradientTape() as tape:
            loss = self.loss(obs, acts, rets)
        grads = tape.gradient(loss, self.variables_to_train)
        self.optimizer.apply_gradients(zip(grads, self.variables_to_train))
        return loss, grads


agent = ActorCritic()
for epoch in range(3):
    loss, grads = agent.update(observations, actions, returns)
    critic_grads = grads[len(agent.actor.trainable_variables):]
    print(f"epoch {epoch}: loss={float(loss):.4f}  critic grads: {critic_grads}")


def computation():
    return (lambda: agent.loss(observations, actions, returns)), agent.variables_to_train
