"""Gradient-based feature importance for a churn classifier; the gradient w.r.t. the customer features is None."""
# cause: watched_other_object
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(19)

model = keras.Sequential([
    keras.Input((5,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])


def computation():
    return (lambda inputs: tf.reduce_sum(model(customers))), x


customers = np.random.rand(16, 5).astype("float32")
x = tf.convert_to_tensor(customers)

with tf.GradientTape() as tape:
    tape.watch(x)
    churn_prob = model(customers)  # <- expected
    total = tf.reduce_sum(churn_prob)

grads = tape.gradient(total, x)
print("d churn / d features:", grads)
