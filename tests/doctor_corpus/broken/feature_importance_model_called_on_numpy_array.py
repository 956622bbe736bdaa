"""Gradient-based feature importance for a churn classifier; tf.abs fails because the input gradient is None."""
# cause: watched_other_object
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(19)

feature_names = ["tenure", "monthly_charges", "support_calls", "contract_months", "late_payments"]
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
importance = tf.reduce_mean(tf.abs(grads), axis=0)
for name, score in zip(feature_names, importance.numpy()):
    print(f"{name:>16s}: {score:.4f}")
