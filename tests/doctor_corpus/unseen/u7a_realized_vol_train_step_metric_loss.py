"""Realized-volatility forecaster with a custom train_step.

I forecast next-day realized volatility from the last 10 days of absolute returns.
I wrote my own train_step so that the log-space MSE I report and the loss I
train on are literally the same number. model.fit crashes immediately with a
ValueError about no gradients being provided for any variable.
"""
# cause: stateful
# depth: fit
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(3)


class VolForecaster(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(16, activation="tanh")
        self.out = tf.keras.layers.Dense(1, activation="softplus")
        self.train_mse = tf.keras.metrics.MeanSquaredError(name="mse")

    def call(self, x):
        return self.out(self.hidden(x))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            vol_pred = self(x, training=True)
            loss = self.train_mse(tf.math.log(y), tf.math.log(vol_pred))  # <- expected
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"mse": self.train_mse.result()}

    @property
    def metrics(self):
        return [self.train_mse]


returns = np.random.standard_t(df=4, size=(520,)).astype(np.float32) * 0.01
abs_ret = np.abs(returns)
X = np.stack([abs_ret[i:i + 10] for i in range(500)])
y = abs_ret[10:510, None] + 1e-4

model = VolForecaster()
model.compile(optimizer=tf.keras.optimizers.Adam(1e-3))
model.fit(X, y, batch_size=64, epochs=1, verbose=0)
print("trained, weights finite:",
      all(bool(tf.reduce_all(tf.math.is_finite(v))) for v in model.trainable_variables))
