"""A2C on a grid game with illegal-action masking and an entropy bonus. The first update is fine;
as soon as a state has an illegal action the actor-critic's gradients and then its weights are NaN."""
# cause: nan_unsafe_where
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(7)
N_ACT = 4


class ActorCritic(keras.Model):
    def __init__(self):
        super().__init__()
        self.body = keras.layers.Dense(32, activation="relu")
        self.pi = keras.layers.Dense(N_ACT)
        self.v = keras.layers.Dense(1)

    def call(self, obs):
        h = self.body(obs)
        return self.pi(h), tf.squeeze(self.v(h), -1)


net = ActorCritic()
optimizer = keras.optimizers.RMSprop(7e-4)


@tf.function
def train_step(obs, legal, actions, returns):
    with tf.GradientTape() as tape:
        logits, values = net(obs)
        probs = tf.nn.softmax(tf.where(legal, logits, -1e9))
        log_probs = tf.where(probs > 0.0, tf.math.log(probs), 0.0)  # <- expected
        entropy = -tf.reduce_sum(probs * log_probs, axis=-1)
        advantage = returns - values
        logp_a = tf.gather(log_probs, actions, batch_dims=1)
        actor = -tf.reduce_mean(logp_a * tf.stop_gradient(advantage))
        critic = tf.reduce_mean(tf.square(advantage))
        loss = actor + 0.5 * critic - 0.01 * tf.reduce_mean(entropy)
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    return loss


rng = np.random.default_rng(7)
obs = tf.constant(rng.normal(size=(8, 6)), tf.float32)
actions = tf.constant(rng.integers(0, 2, size=8), tf.int32)
returns = tf.constant(rng.normal(size=8), tf.float32)
all_legal = tf.ones([8, N_ACT], tf.bool)
walls = tf.constant(np.tile([True, True, False, True], (8, 1)))

for legal in (all_legal, walls):
    print("loss", float(train_step(obs, legal, actions, returns)))
