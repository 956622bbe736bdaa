"""Trains a TARNet-style model (shared trunk, one outcome head per treatment arm) with a
custom train_step to estimate individual treatment effects for a marketing uplift study;
Keras warns that gradients do not exist for the bias variables and the factual loss barely
moves across epochs."""
# cause: stateful
# depth: fit
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(61)
n = 256
x = rng.normal(size=(n, 6)).astype("float32")
propensity = 1.0 / (1.0 + np.exp(-x[:, 0]))
t = (rng.uniform(size=n) < propensity).astype("float32")[:, None]
tau_true = 0.5 + 0.3 * x[:, 1:2]
y = (x[:, 2:3] + t * tau_true + 0.1 * rng.normal(size=(n, 1))).astype("float32")
reg = tf.keras.regularizers.L2(1e-4)


class TARNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.trunk = tf.keras.Sequential([
            tf.keras.layers.Dense(32, activation="elu", kernel_regularizer=reg),
            tf.keras.layers.Dense(32, activation="elu", kernel_regularizer=reg),
        ])
        self.head0 = tf.keras.layers.Dense(1, kernel_regularizer=reg)
        self.head1 = tf.keras.layers.Dense(1, kernel_regularizer=reg)
        self.factual_mse = tf.keras.metrics.MeanSquaredError(name="factual_mse")

    def call(self, x):
        phi = self.trunk(x)
        return self.head0(phi), self.head1(phi)

    @property
    def metrics(self):
        return [self.factual_mse]

    def train_step(self, data):
        (x, t), y = data
        with tf.GradientTape() as tape:
            y0, y1 = self(x, training=True)
            y_factual = t * y1 + (1.0 - t) * y0
            self.factual_mse.update_state(y, y_factual)
            loss = self.factual_mse.result() + tf.add_n(self.losses)  # <- expected
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"factual_mse": self.factual_mse.result()}


model = TARNet()
model.compile(optimizer=tf.keras.optimizers.Adam(1e-2))
history = model.fit((x, t), y, batch_size=64, epochs=3, verbose=0)
print("factual mse per epoch:", [round(v, 4) for v in history.history["factual_mse"]])
y0, y1 = model(x)
print("estimated ATE:", float(tf.reduce_mean(y1 - y0)), " true ATE:", float(tau_true.mean()))
