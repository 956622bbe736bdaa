"""Checking the velocity dx/dt of a network trajectory x(t) before fitting it to measured speeds; the tf.function returns None."""
# cause: swapped
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(14)

trajectory = keras.Sequential([
    keras.Input((1,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])


@tf.function
def velocity(t):
    """dx/dt of the learned trajectory at times t."""
    with tf.GradientTape() as tape:
        tape.watch(t)
        x = trajectory(t)
    return tape.gradient(t, x)  # <- expected


t = tf.constant(np.linspace(0.0, 1.0, 20)[:, None], dtype=tf.float32)
v = velocity(t)
print("velocity:", v)
