"""A NoisyNet Q-network for n-step TD with a self-written NoisyDense layer whose kernel and bias
are formed from the noisy weights in call."""
# cause: connected
# depth: layer
# thread: tensorflow/tensorflow#32729
import numpy as np
import tensorflow as tf
import keras
import keras.layers as kl

keras.utils.set_random_seed(0)


class NoisyDense(kl.Layer):
    def __init__(self, units, std_init=0.5):
        super().__init__()
        self.units = units
        self.std_init = std_init

    def build(self, input_shape):
        self.reset_noise(input_shape[-1])
        mu_range = 1 / np.sqrt(input_shape[-1])
        mu_initializer = keras.initializers.RandomUniform(-mu_range, mu_range)
        sigma_initializer = keras.initializers.Constant(self.std_init / np.sqrt(self.units))

        self.weight_mu = self.add_weight(shape=(input_shape[-1], self.units), initializer=mu_initializer,
                                         trainable=True, dtype='float32', name="w_mu")
        self.weight_sigma = self.add_weight(shape=(input_shape[-1], self.units), initializer=sigma_initializer,
                                            trainable=True, dtype='float32', name="w_sig")
        self.bias_mu = self.add_weight(shape=(self.units,), initializer=mu_initializer,
                                       trainable=True, dtype='float32', name="b_mu")
        self.bias_sigma = self.add_weight(shape=(self.units,), initializer=sigma_initializer,
                                          trainable=True, dtype='float32', name="b_sig")

    def call(self, inputs):
        self.kernel = self.weight_mu + self.weight_sigma * self.weights_eps
        self.bias = self.bias_mu + self.bias_sigma * self.bias_eps
        return tf.matmul(inputs, self.kernel) + self.bias

    def _scale_noise(self, dim):
        noise = tf.random.normal([dim])
        return tf.sign(noise) * tf.sqrt(tf.abs(noise))

    def reset_noise(self, input_shape):
        eps_in = self._scale_noise(input_shape)
        eps_out = self._scale_noise(self.units)
        self.weights_eps = tf.multiply(tf.expand_dims(eps_in, 1), eps_out)
        self.bias_eps = eps_out


class Model(keras.Model):
    def __init__(self, num_actions):
        super().__init__(name='basic_nstepTD')
        self.fc1 = kl.Dense(16, activation='relu')
        self.noisy = NoisyDense(num_actions)

    def build(self, input_shape):
        self.fc1.build(input_shape)
        self.noisy.build(self.fc1.compute_output_shape(input_shape))

    def call(self, inputs):
        return self.noisy(self.fc1(inputs))

    def action_value(self, obs):
        q_values = self(obs)
        best_action = np.argmax(q_values, axis=-1)
        return best_action[0], q_values[0]


model = Model(num_actions=3)
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss='mse')

obs = np.random.rand(1, 4).astype('float32')
best_action, q_values = model.action_value(obs)

s_batch = np.random.rand(8, 4).astype('float32')
target_q = np.random.rand(8, 3).astype('float32')


def computation():
    return (lambda *params: keras.losses.mean_squared_error(target_q, model(s_batch))), model.trainable_variables


losses = model.train_on_batch(s_batch, target_q)
