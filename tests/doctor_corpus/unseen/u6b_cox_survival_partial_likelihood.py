"""Cox proportional-hazards regression on synthetic patient data.

The asker fits the log-hazard coefficients by minimising the negative partial
log-likelihood. The printed loss is None and tape.gradient fails with "Argument
`target` should be a list or nested structure of Tensors ... but received None".
"""
# cause: no_target
# depth: helper
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(5)
n_patients, n_covariates = 200, 5
covariates = rng.normal(size=(n_patients, n_covariates)).astype("float32")
true_beta = np.array([0.8, -0.5, 0.0, 0.3, 1.2], dtype="float32")
event_time = rng.exponential(1.0 / np.exp(covariates @ true_beta))
censor_time = rng.exponential(2.0, n_patients)
times = tf.constant(np.minimum(event_time, censor_time), tf.float32)
events = tf.constant((event_time <= censor_time).astype("float32"))
x = tf.constant(covariates)

beta = tf.Variable(tf.zeros([n_covariates, 1]), name="beta")


def cox_neg_log_likelihood(risk, time, event):
    order = tf.argsort(time, direction="DESCENDING")
    risk = tf.gather(risk, order)
    event = tf.gather(event, order)
    log_risk_set = tf.math.cumulative_logsumexp(risk)
    nll = -tf.reduce_sum((risk - log_risk_set) * event) / tf.reduce_sum(event)  # <- expected


def training_loss():
    risk = tf.reshape(x @ beta, [-1])
    return cox_neg_log_likelihood(risk, times, events)


def computation():
    return training_loss, [beta]


print("events observed:", int(tf.reduce_sum(events)), "of", n_patients)
with tf.GradientTape() as tape:
    loss = training_loss()
print("loss:", loss)
grads = tape.gradient(loss, [beta])
print("grad:", grads)

