"""Logistic regression with labels in {-1, +1} and the logistic loss log(1 + exp(-y f(x))) written by
hand, on raw customer data (age in years, yearly income in dollars). The loss is inf and both
gradients are NaN."""
# cause: nan_overflow
# depth: main
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
age = rng.uniform(20, 70, 32)
income = rng.uniform(20_000, 120_000, 32)
X = tf.constant(np.stack([age, income], axis=1), dtype=tf.float32)
y = tf.constant(np.where(income > 60_000, 1.0, -1.0)[:, None], dtype=tf.float32)

tf.random.set_seed(0)
w = tf.Variable(tf.random.normal((2, 1), stddev=0.01))
b = tf.Variable(0.0)

with tf.GradientTape() as tape:
    f = X @ w + b
    loss = tf.reduce_mean(tf.math.log(1.0 + tf.exp(-y * f)))  # <- expected
dw, db = tape.gradient(loss, [w, b])
print("loss:", float(loss))
print("dw:", dw.numpy().ravel(), "db:", float(db))


def computation():
    return (lambda w, b: tf.reduce_mean(tf.math.log(1.0 + tf.exp(-y * (X @ w + b))))), [w, b]
