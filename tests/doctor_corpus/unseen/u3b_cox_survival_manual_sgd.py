"""Fits a Cox proportional hazards model by plain gradient descent on the negative partial
log-likelihood; the first step works, then the gradient for the coefficients is None."""
# cause: variable_replaced
# depth: main
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(13)

n, p = 60, 3
true_beta = np.array([0.8, -0.5, 0.0])
X = rng.normal(size=(n, p))
hazard = np.exp(X @ true_beta)
event_times = rng.exponential(1.0 / hazard)
censor_times = rng.exponential(1.5, size=n)
times = np.minimum(event_times, censor_times)
events = (event_times <= censor_times).astype("float32")

order = np.argsort(-times)
X_sorted = tf.constant(X[order], dtype=tf.float32)
events_sorted = tf.constant(events[order])

beta = tf.Variable(tf.zeros(p), name="beta")
lr = 0.5

for step in range(5):
    with tf.GradientTape() as tape:
        risk = tf.linalg.matvec(X_sorted, beta)
        log_risk_set = tf.math.cumulative_logsumexp(risk)
        nll = -tf.reduce_sum((risk - log_risk_set) * events_sorted) / tf.reduce_sum(events_sorted)
    grad = tape.gradient(nll, beta)
    print(f"step {step}: nll={float(nll):.4f} grad={None if grad is None else grad.numpy()}")
    beta = beta - lr * grad  # <- expected

print("estimated beta:", beta.numpy())
