"""One DQN update on a random replay batch; the optimizer says no gradients were provided for the Q-network."""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(5)

n_states, n_actions, gamma = 4, 2, 0.99


def build_q_net():
    return keras.Sequential([
        keras.Input((n_states,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(n_actions),
    ])


q_net = build_q_net()
target_net = build_q_net()
target_net.set_weights(q_net.get_weights())
optimizer = keras.optimizers.Adam(1e-3)


def q_values(net, states):
    return net.predict(states, verbose=0)  # <- expected


def dqn_loss(states, actions, rewards, next_states, dones):
    next_q = target_net(next_states)
    targets = rewards + gamma * (1.0 - dones) * tf.reduce_max(next_q, axis=1)
    q = q_values(q_net, states)
    q_taken = tf.reduce_sum(q * tf.one_hot(actions, n_actions), axis=1)
    return tf.reduce_mean(tf.square(targets - q_taken))


def computation():
    return (lambda *variables: dqn_loss(states, actions, rewards, next_states, dones)), q_net.trainable_variables


batch = 32
states = np.random.randn(batch, n_states).astype("float32")
actions = np.random.randint(0, n_actions, size=batch)
rewards = np.random.rand(batch).astype("float32")
next_states = np.random.randn(batch, n_states).astype("float32")
dones = (np.random.rand(batch) < 0.1).astype("float32")

with tf.GradientTape() as tape:
    loss = dqn_loss(states, actions, rewards, next_states, dones)
grads = tape.gradient(loss, q_net.trainable_variables)
optimizer.apply_gradients(zip(grads, q_net.trainable_variables))
print("loss:", float(loss))
