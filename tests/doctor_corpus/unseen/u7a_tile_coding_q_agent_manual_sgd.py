"""Linear semi-gradient Q-learning agent on tile-coded features.

I'm porting a textbook linear Q-learning agent to TensorFlow. I do the SGD step
myself instead of using a Keras optimizer because I want the exact Sutton & Barto
update. The first update works fine, but from the second
update on the gradient for my weights is None and the agent crashes.
"""
# cause: variable_replaced
# depth: method
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(5)

N_FEATURES, N_ACTIONS = 32, 3


class LinearQAgent:
    def __init__(self, n_features, n_actions, lr=0.1, gamma=0.99):
        self.w = tf.Variable(tf.zeros((n_features, n_actions)), name="q_weights")
        self.lr, self.gamma = lr, gamma

    def q_values(self, phi):
        return tf.linalg.matvec(self.w, phi, transpose_a=True)

    def update(self, phi, action, reward, phi_next, done):
        target = reward + self.gamma * (1.0 - done) * tf.reduce_max(self.q_values(phi_next))
        target = tf.stop_gradient(target)
        with tf.GradientTape() as tape:
            td_error = target - self.q_values(phi)[action]
            loss = 0.5 * td_error ** 2
        grad = tape.gradient(loss, self.w)
        print("  grad is None:", grad is None)
        self.w = self.w - self.lr * grad  # <- expected
        return float(loss)


def tile_features(state):
    phi = np.zeros(N_FEATURES, dtype=np.float32)
    phi[np.random.choice(N_FEATURES, 4, replace=False)] = 1.0
    return tf.constant(phi)


agent = LinearQAgent(N_FEATURES, N_ACTIONS)
phi = tile_features(None)
for step in range(3):
    action = int(np.random.randint(N_ACTIONS))
    phi_next = tile_features(None)
    reward = tf.constant(float(np.random.randn()))
    print(f"step {step}:")
    loss = agent.update(phi, action, reward, phi_next, tf.constant(0.0))
    print("  td loss:", loss)
    phi = phi_next
