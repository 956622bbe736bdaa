"""One DQN update on a replay batch: TD targets come from a separate target network and the
Huber loss is minimized with respect to the online Q-network's weights."""
# cause: connected
# depth: helper
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(43)
keras.utils.set_random_seed(43)

state_dim, n_actions, batch = 4, 2, 32
gamma = 0.99


def make_q_net():
    return keras.Sequential([
        keras.Input(shape=(state_dim,)),
        keras.layers.Dense(24, activation="relu"),
        keras.layers.Dense(n_actions),
    ])


online_net = make_q_net()
target_net = make_q_net()
target_net.set_weights(online_net.get_weights())
optimizer = keras.optimizers.Adam(1e-3)
huber = keras.losses.Huber()

states = tf.constant(rng.normal(size=(batch, state_dim)), dtype=tf.float32)
actions = tf.constant(rng.integers(0, n_actions, size=batch))
rewards = tf.constant(rng.random(batch), dtype=tf.float32)
next_states = tf.constant(rng.normal(size=(batch, state_dim)), dtype=tf.float32)
dones = tf.constant(rng.random(batch) < 0.1, dtype=tf.float32)


def td_loss(states, actions, rewards, next_states, dones):
    next_q = tf.reduce_max(target_net(next_states, training=False), axis=-1)
    targets = tf.stop_gradient(rewards + gamma * (1.0 - dones) * next_q)
    q_taken = tf.gather(online_net(states, training=True), actions, batch_dims=1)
    return huber(targets, q_taken)


with tf.GradientTape() as tape:
    loss = td_loss(states, actions, rewards, next_states, dones)
grads = tape.gradient(loss, online_net.trainable_variables)
optimizer.apply_gradients(zip(grads, online_net.trainable_variables))

print("td loss:", float(loss))
print("grad norms:", [round(float(tf.norm(g)), 4) for g in grads])


def computation():
    def compute():
        return td_loss(states, actions, rewards, next_states, dones)

    return compute, list(online_net.trainable_variables)
