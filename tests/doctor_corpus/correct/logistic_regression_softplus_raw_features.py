"""Logistic regression with labels in {-1, +1} on raw customer data (age in years, income in
dollars), the logistic loss written as softplus(-y f(x)), plain gradient descent on two
Variables."""
# cause: connected
# depth: main
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(1)
age = rng.uniform(20, 70, 32)
income = rng.uniform(20_000, 120_000, 32)
X = tf.constant(np.stack([age, income], axis=1), dtype=tf.float32)
y = tf.constant(np.where(income > 60_000, 1.0, -1.0)[:, None], dtype=tf.float32)

tf.random.set_seed(1)
w = tf.Variable(tf.random.normal((2, 1), stddev=0.01))
b = tf.Variable(0.0)
lr = 1e-9

for step in range(3):
    with tf.GradientTape() as tape:
        f = X @ w + b
        loss = tf.reduce_mean(tf.nn.softplus(-y * f))  # log(1 + exp(-y f))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(lr * dw)
    b.assign_sub(lr * db)
    print(f"step {step}: loss {float(loss):.2f}")


def computation():
    return (lambda w, b: tf.reduce_mean(tf.nn.softplus(-y * (X @ w + b)))), [w, b]
