"""Autoregressive forecaster for a noisy seasonal series, trained with a tf.function step.

I moved the gradient computation into a @tf.function to speed things up. Now the
gradients it returns are None and the loss never goes down.
"""
# cause: swapped
# depth: tf.function
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(1)
t = np.arange(400, dtype="float32")
series = np.sin(2 * np.pi * t / 24) + 0.1 * rng.normal(size=t.shape).astype("float32")
lags = 12
windows = np.stack([series[i:i + lags] for i in range(len(series) - lags)])
targets = series[lags:]
X = tf.constant(windows, tf.float32)
y = tf.constant(targets, tf.float32)

coef = tf.Variable(tf.zeros([lags]), name="ar_coef")
intercept = tf.Variable(0.0, name="intercept")
params = [coef, intercept]


@tf.function
def compute_gradients(x, y):
    with tf.GradientTape() as tape:
        pred = tf.linalg.matvec(x, coef) + intercept
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(params, loss)  # <- expected
    return loss, grads


lr = 0.05
for epoch in range(3):
    loss, grads = compute_gradients(X, y)
    print(f"epoch {epoch}: mse {loss.numpy():.4f}  grads {grads}")
    if grads is not None:
        for p, g in zip(params, grads):
            p.assign_sub(lr * g)
