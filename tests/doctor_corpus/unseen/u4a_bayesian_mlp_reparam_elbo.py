"""Bayesian neural network regression (mean-field Gaussian weights, reparameterisation trick) trained
by minimising the negative ELBO; the very first tape.gradient call fails because the target it receives is None."""
# cause: no_target
# depth: helper
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(2)
tf.random.set_seed(2)

# 1-D heteroscedastic toy regression
x_train = rng.uniform(-3, 3, size=(100, 1)).astype("float32")
y_train = (np.sin(x_train) + 0.1 * np.abs(x_train) * rng.normal(size=x_train.shape)).astype("float32")
N_DATA, HIDDEN = len(x_train), 32
PRIOR_STD, NOISE_STD = 1.0, 0.2


def variational_param(shape, name):
    mu = tf.Variable(tf.random.normal(shape, stddev=0.1), name=f"{name}_mu")
    rho = tf.Variable(tf.fill(shape, -4.0), name=f"{name}_rho")       # std = softplus(rho)
    return mu, rho


w1_mu, w1_rho = variational_param((1, HIDDEN), "w1")
b1_mu, b1_rho = variational_param((HIDDEN,), "b1")
w2_mu, w2_rho = variational_param((HIDDEN, 1), "w2")
b2_mu, b2_rho = variational_param((1,), "b2")
posterior = [(w1_mu, w1_rho), (b1_mu, b1_rho), (w2_mu, w2_rho), (b2_mu, b2_rho)]
trainable = [v for pair in posterior for v in pair]


def sample_weights():
    samples = []
    for mu, rho in posterior:
        eps = tf.random.normal(mu.shape)
        samples.append(mu + tf.nn.softplus(rho) * eps)
    return samples


def kl_to_prior(mu, rho):
    std = tf.nn.softplus(rho)
    return tf.reduce_sum(tf.math.log(PRIOR_STD / std) + (std ** 2 + mu ** 2) / (2 * PRIOR_STD ** 2) - 0.5)


def negative_elbo(x, y):
    w1, b1, w2, b2 = sample_weights()
    pred = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
    nll = tf.reduce_sum(0.5 * tf.square((y - pred) / NOISE_STD))
    kl = tf.add_n([kl_to_prior(mu, rho) for mu, rho in posterior])
    loss = nll * (N_DATA / len(x)) + kl  # <- expected


optimizer = tf.keras.optimizers.Adam(1e-2)
dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(100, seed=2).batch(25)
for epoch in range(3):
    for xb, yb in dataset:
        with tf.GradientTape() as tape:
            loss = negative_elbo(xb, yb)
        grads = tape.gradient(loss, trainable)
        optimizer.apply_gradients(zip(grads, trainable))
    print(f"epoch {epoch}: -ELBO = {float(loss):.2f}")
