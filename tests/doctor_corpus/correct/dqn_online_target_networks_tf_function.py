"""A DQN update with an online and a target network: the TD target comes from the target network
under tf.stop_gradient, the tape is asked for the online network's variables, and the target
network is synced every few steps."""
# cause: connected
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(26)
n_actions, gamma = 3, 0.99


def make_q_net():
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(n_actions)])


online, target = make_q_net(), make_q_net()
target.set_weights(online.get_weights())
optimizer = keras.optimizers.Adam(1e-3)
huber = keras.losses.Huber()

# a minibatch from the replay buffer
states = np.random.randn(8, 4).astype("float32")
actions = np.random.randint(0, n_actions, 8)
rewards = np.random.rand(8).astype("float32")
next_states = np.random.randn(8, 4).astype("float32")
dones = (np.random.rand(8) < 0.2).astype("float32")


def td_loss(s, a, r, s2, done):
    next_q = tf.reduce_max(target(s2), axis=1)
    y = tf.stop_gradient(r + gamma * (1.0 - done) * next_q)
    q = tf.gather(online(s, training=True), a, axis=1, batch_dims=1)
    return huber(y, q)


@tf.function
def train_step(s, a, r, s2, done):
    with tf.GradientTape() as tape:
        loss = td_loss(s, a, r, s2, done)
    grads = tape.gradient(loss, online.trainable_variables)
    optimizer.apply_gradients(zip(grads, online.trainable_variables))
    return loss


for step in range(3):
    loss = train_step(states, actions, rewards, next_states, dones)
    if step % 2 == 0:
        target.set_weights(online.get_weights())
print("TD loss:", float(loss))


def computation():
    return (lambda *variables: td_loss(states, actions, rewards, next_states, dones)), online.trainable_variables
