"""A SensitivityAnalyzer class for a sensor regression model; the input gradients it returns are None."""
# cause: watched_other_object
# depth: method
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(21)


class SensitivityAnalyzer:
    def __init__(self, model, mean, std):
        self.model = model
        self.mean = mean
        self.std = std

    def standardize(self, raw):
        return (raw - self.mean) / self.std

    def input_gradients(self, raw):
        x = tf.convert_to_tensor(raw, dtype=tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(x)
            x = tf.convert_to_tensor(self.standardize(raw), dtype=tf.float32)  # <- expected
            y = self.model(x, training=False)
        return tape.gradient(y, x)


readings = np.random.normal(20.0, 5.0, size=(200, 4)).astype("float32")
model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
analyzer = SensitivityAnalyzer(model, readings.mean(axis=0), readings.std(axis=0))

grads = analyzer.input_gradients(readings[:8])
print("d output / d standardised input:", grads)
