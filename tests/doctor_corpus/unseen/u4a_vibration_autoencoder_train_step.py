"""Anomaly detection on machine-vibration windows with a dense autoencoder and a custom train_step;
model.fit stops immediately with "ValueError: No gradients provided for any variable"."""
# cause: stateful
# depth: fit
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(8)
rng = np.random.default_rng(8)

WINDOW = 64
t = np.arange(WINDOW) / 1000.0
# healthy machine: 50 Hz hum + 120 Hz harmonic with random phase + sensor noise
phases = rng.uniform(0, 2 * np.pi, size=(256, 2))
healthy = (np.sin(2 * np.pi * 50 * t + phases[:, :1]) + 0.3 * np.sin(2 * np.pi * 120 * t + phases[:, 1:])
           + 0.05 * rng.normal(size=(256, WINDOW))).astype("float32")


class VibrationAutoencoder(keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = keras.Sequential([layers.Dense(32, activation="relu"), layers.Dense(8, activation="relu")])
        self.decoder = keras.Sequential([layers.Dense(32, activation="relu"), layers.Dense(WINDOW)])
        self.reconstruction_error = keras.metrics.MeanSquaredError(name="recon_mse")

    def call(self, x):
        return self.decoder(self.encoder(x))

    @property
    def metrics(self):
        return [self.reconstruction_error]

    def train_step(self, data):
        x = data
        with tf.GradientTape() as tape:
            reconstruction = self(x, training=True)
            loss = self.reconstruction_error(x, reconstruction)  # <- expected
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"recon_mse": self.reconstruction_error.result()}


model = VibrationAutoencoder()
model.compile(optimizer=keras.optimizers.Adam(1e-3))
model.fit(healthy, epochs=3, batch_size=64, verbose=2)

# score new windows: large reconstruction error => anomaly
errors = np.mean((model.predict(healthy, verbose=0) - healthy) ** 2, axis=1)
threshold = np.percentile(errors, 99)
print("anomaly threshold:", threshold)
