"""Mean-variance portfolio optimisation over softmax allocation logits with a hand-written
gradient step: the first step works, the second one gets a None gradient."""
# cause: variable_replaced
# depth: method
import numpy as np
import tensorflow as tf


class MeanVariancePortfolio(tf.Module):
    def __init__(self, n_assets, risk_aversion=3.0, learning_rate=0.1):
        super().__init__()
        self.logits = tf.Variable(tf.zeros(n_assets), name="allocation_logits")
        self.risk_aversion = risk_aversion
        self.learning_rate = learning_rate

    def allocation(self):
        return tf.nn.softmax(self.logits)

    def objective(self, mu, cov):
        w = self.allocation()
        expected_return = tf.tensordot(w, mu, 1)
        variance = tf.tensordot(w, tf.linalg.matvec(cov, w), 1)
        return -(expected_return - 0.5 * self.risk_aversion * variance)

    def update(self, grad):
        self.logits = self.logits - self.learning_rate * grad  # <- expected


rng = np.random.default_rng(12)
daily_returns = rng.normal(0.0005, 0.01, size=(250, 5)).astype("float32")
mu = tf.constant(daily_returns.mean(axis=0) * 252)
cov = tf.constant(np.cov(daily_returns, rowvar=False).astype("float32") * 252)

portfolio = MeanVariancePortfolio(n_assets=5)
for step in range(3):
    with tf.GradientTape() as tape:
        loss = portfolio.objective(mu, cov)
    grad = tape.gradient(loss, portfolio.logits)
    if grad is None:
        print(f"step {step}: gradient is None")
        break
    portfolio.update(grad)
