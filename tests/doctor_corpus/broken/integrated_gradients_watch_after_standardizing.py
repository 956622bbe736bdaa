"""Integrated Gradients for a tabular credit-risk model trained on standardised features; the path gradients are None."""
# cause: watched_too_late
# depth: method
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(18)


class IntegratedGradients:
    def __init__(self, model, mean, std, steps=16):
        self.model = model
        self.mean = mean
        self.std = std
        self.steps = steps

    def interpolate(self, baseline, x):
        alphas = tf.linspace(0.0, 1.0, self.steps + 1)[:, tf.newaxis]
        return baseline + alphas * (x - baseline)

    def path_gradients(self, path, target):
        with tf.GradientTape() as tape:
            z = (path - self.mean) / self.std  # <- expected
            probs = tf.nn.softmax(self.model(z), axis=-1)[:, target]
            tape.watch(path)  # <- expected
        return tape.gradient(probs, path)

    def attribute(self, x, target, baseline=None):
        if baseline is None:
            baseline = tf.zeros_like(x)
        grads = self.path_gradients(self.interpolate(baseline, x), target)
        return grads


features = (np.random.rand(100, 6) * [1, 10, 100, 1, 5, 50]).astype("float32")
mean = tf.constant(features.mean(axis=0), dtype=tf.float32)
std = tf.constant(features.std(axis=0), dtype=tf.float32)

model = keras.Sequential([
    keras.Input((6,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(2),
])
ig = IntegratedGradients(model, mean, std)
applicant = tf.constant(features[0])

grads = ig.attribute(applicant, target=1)
print("path gradients:", grads)


def computation():
    path = ig.interpolate(tf.zeros_like(applicant), applicant)
    return (lambda p: tf.nn.softmax(model((p - mean) / std), axis=-1)[:, 1]), path
