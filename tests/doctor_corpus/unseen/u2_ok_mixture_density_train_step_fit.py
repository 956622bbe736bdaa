"""Mixture density network for an inverse (multi-valued) regression problem, with the negative
log-likelihood computed in a custom train_step under model.fit and a Mean metric tracking it."""
# cause: connected
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(24)
K = 3


class MixtureDensityNet(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(32, activation="tanh")
        self.params = keras.layers.Dense(3 * K)
        self.nll_tracker = keras.metrics.Mean(name="nll")

    def call(self, x):
        logits, mu, log_sigma = tf.split(self.params(self.hidden(x)), 3, axis=-1)
        return logits, mu, tf.clip_by_value(log_sigma, -7.0, 7.0)

    def nll(self, y, logits, mu, log_sigma):
        log_pdf = (-0.5 * tf.square((y - mu) / tf.exp(log_sigma)) - log_sigma
                   - 0.5 * np.log(2.0 * np.pi))
        log_mix = tf.nn.log_softmax(logits, axis=-1)
        return -tf.reduce_mean(tf.reduce_logsumexp(log_mix + log_pdf, axis=-1))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = self.nll(y, *self(x, training=True))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.nll_tracker.update_state(loss)
        return {"nll": self.nll_tracker.result()}

    @property
    def metrics(self):
        return [self.nll_tracker]


rng = np.random.default_rng(24)
y_data = rng.uniform(-1, 1, size=(64, 1)).astype("float32")
x_data = (y_data + 0.3 * np.sin(3 * y_data) + 0.05 * rng.normal(size=(64, 1))).astype("float32")

model = MixtureDensityNet()
model.compile(optimizer=keras.optimizers.Adam(1e-3))
history = model.fit(x_data, y_data, batch_size=32, epochs=1, verbose=0)
print("nll:", history.history["nll"][-1])


def computation():
    return (lambda: model.nll(y_data, *model(x_data))), model.trainable_variables
