"""DQN update with an online and a target Q-network; the first train step fails with
"No gradients provided for any variable"."""
# cause: unused
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(7)
n_states, n_actions, gamma = 4, 2, 0.99


def make_q_net():
    return keras.Sequential([
        keras.Input(shape=(n_states,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(n_actions),
    ])


online = make_q_net()
target = make_q_net()
target.set_weights(online.get_weights())
optimizer = keras.optimizers.Adam(1e-3)


def td_targets(r, s2, done):
    next_q = tf.reduce_max(target(s2), axis=1)
    return r + gamma * (1.0 - done) * next_q


def q_loss(s, a, y):
    q = tf.reduce_sum(online(s) * tf.one_hot(a, n_actions), axis=1)
    return tf.reduce_mean(tf.square(y - q))


@tf.function
def train_step(s, a, r, s2, done):
    y = td_targets(r, s2, done)
    with tf.GradientTape() as tape:
        loss = q_loss(s, a, y)
    grads = tape.gradient(loss, target.trainable_variables)  # <- expected
    optimizer.apply_gradients(zip(grads, online.trainable_variables))
    return loss


s = np.random.randn(32, n_states).astype("float32")
a = np.random.randint(0, n_actions, size=32)
r = np.random.rand(32).astype("float32")
s2 = np.random.randn(32, n_states).astype("float32")
done = (np.random.rand(32) < 0.1).astype("float32")


def computation():
    y = td_targets(r, s2, done)
    return (lambda *params: q_loss(s, a, y)), target.trainable_variables


for step in range(3):
    print("loss", float(train_step(s, a, r, s2, done)))
