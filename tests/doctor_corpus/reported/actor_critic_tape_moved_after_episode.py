"""The Keras actor-critic CartPole example with the `with tf.GradientTape()` line moved down to
where the tape is used; apply_gradients now raises "No gradients provided for any variable"."""
# cause: outside_tape
# depth: main
# thread: keras-team/keras-io#406
import numpy as np
import tensorflow as tf
import keras
from keras import layers

# Configuration parameters for the whole setup
seed = 42
gamma = 0.99  # Discount factor for past rewards
max_steps_per_episode = 6
eps = np.finfo(np.float32).eps.item()  # Smallest number such that 1.0 + eps != 1.0
keras.utils.set_random_seed(seed)


class CartPole:
    """A stand-in for gym's CartPole: random states, reward 1 per step."""

    def reset(self):
        self.t = 0
        return np.random.uniform(-0.05, 0.05, 4).astype("float32")

    def step(self, action):
        self.t += 1
        state = np.random.uniform(-0.05, 0.05, 4).astype("float32")
        return state, 1.0, self.t >= 4, {}


env = CartPole()

num_inputs = 4
num_actions = 2
num_hidden = 8

inputs = layers.Input(shape=(num_inputs,))
common = layers.Dense(num_hidden, activation="relu")(inputs)
action = layers.Dense(num_actions, activation="softmax")(common)
critic = layers.Dense(1)(common)

model = keras.Model(inputs=inputs, outputs=[action, critic])

optimizer = keras.optimizers.Adam(learning_rate=0.01)
huber_loss = keras.losses.Huber()
action_probs_history = []
critic_value_history = []
rewards_history = []
running_reward = 0
episode_count = 0

state = env.reset()
episode_reward = 0
for timestep in range(1, max_steps_per_episode):
    state = tf.convert_to_tensor(state)
    state = tf.expand_dims(state, 0)

    # Predict action probabilities and estimated future rewards
    # from environment state
    action_probs, critic_value = model(state)  # <- expected
    critic_value_history.append(critic_value[0, 0])

    # Sample action from action probability distribution
    action = np.random.choice(num_actions, p=np.squeeze(action_probs))
    action_probs_history.append(tf.math.log(action_probs[0, action]))

    # Apply the sampled action in our environment
    state, reward, done, _ = env.step(action)
    rewards_history.append(reward)
    episode_reward += reward

    if done:
        break

# Update running reward to check condition for solving
running_reward = 0.05 * episode_reward + (1 - 0.05) * running_reward

# Calculate expected value from rewards
returns = []
discounted_sum = 0
for r in rewards_history[::-1]:
    discounted_sum = r + gamma * discounted_sum
    returns.insert(0, discounted_sum)

# Normalize
returns = np.array(returns)
returns = (returns - np.mean(returns)) / (np.std(returns) + eps)
returns = returns.tolist()

# Calculating loss values to update our network
history = zip(action_probs_history, critic_value_history, returns)
actor_losses = []
critic_losses = []
for log_prob, value, ret in history:
    diff = ret - value
    actor_losses.append(-log_prob * diff)  # actor loss
    critic_losses.append(
        huber_loss(tf.expand_dims(value, 0), tf.expand_dims(ret, 0))
    )

# Backpropagation
with tf.GradientTape() as tape:
    loss_value = sum(actor_losses) + sum(critic_losses)
    grads = tape.gradient(loss_value, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
