"""Predicting a distribution over precipitation bins, trained with a KL-divergence loss inside a
@tf.function step; empty bins of the target histogram are skipped with tf.where. The loss printed
is finite, yet after one step every weight is NaN."""
# cause: nan_unsafe_where
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(6)
NUM_BINS = 8

model = keras.Sequential([
    keras.Input((10,)),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(NUM_BINS, activation="softmax"),
])
optimizer = keras.optimizers.Adam(1e-3)

rng = np.random.default_rng(6)
weather = rng.normal(size=(32, 10)).astype("float32")
counts = rng.poisson(1.0, size=(32, NUM_BINS)).astype("float32")
counts[:, 0] += 1.0
target_hist = counts / counts.sum(axis=1, keepdims=True)


@tf.function
def train_step(x, p):
    with tf.GradientTape() as tape:
        q = model(x, training=True)
        terms = tf.where(p > 0.0, p * tf.math.log(p / q), tf.zeros_like(p))  # <- expected
        loss = tf.reduce_mean(tf.reduce_sum(terms, axis=1))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for step in range(2):
    loss = train_step(weather, target_hist)
    print(f"step {step}: loss {float(loss):.4f}")
