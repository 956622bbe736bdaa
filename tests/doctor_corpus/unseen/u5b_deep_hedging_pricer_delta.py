"""Fits a small neural option pricer to Black-Scholes call prices and then asks it for
hedge ratios (dPrice/dSpot) on a grid of spots; the delta method returns None instead of
a tensor of hedge ratios."""
# cause: swapped
# depth: method
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(13)
n = 512
spot = rng.uniform(60.0, 140.0, size=(n, 1)).astype("float32")
tau = rng.uniform(0.1, 1.0, size=(n, 1)).astype("float32")
strike, rate, vol = 100.0, 0.01, 0.2
d1 = (np.log(spot / strike) + (rate + 0.5 * vol ** 2) * tau) / (vol * np.sqrt(tau))
d2 = d1 - vol * np.sqrt(tau)
ncdf = lambda x: 0.5 * (1.0 + tf.math.erf(x / np.sqrt(2.0)).numpy())
bs_price = (spot * ncdf(d1) - strike * np.exp(-rate * tau) * ncdf(d2)).astype("float32")


class NeuralPricer:
    def __init__(self, strike):
        self.strike = strike
        self.net = tf.keras.Sequential([
            tf.keras.Input((2,)),
            tf.keras.layers.Dense(32, activation="softplus"),
            tf.keras.layers.Dense(32, activation="softplus"),
            tf.keras.layers.Dense(1, activation="softplus"),
        ])
        self.optimizer = tf.keras.optimizers.Adam(1e-2)

    def price(self, spot, tau):
        moneyness = spot / self.strike
        return self.strike * self.net(tf.concat([moneyness, tau], axis=1))

    def fit(self, spot, tau, target, steps=30):
        spot, tau, target = map(tf.constant, (spot, tau, target))
        for _ in range(steps):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self.price(spot, tau) - target))
            grads = tape.gradient(loss, self.net.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.net.trainable_variables))
        return float(loss)

    def delta(self, spot, tau):
        spot = tf.convert_to_tensor(spot, tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(spot)
            value = self.price(spot, tf.convert_to_tensor(tau, tf.float32))
        return tape.gradient(spot, value)  # <- expected


pricer = NeuralPricer(strike)
print("pricing MSE:", pricer.fit(spot, tau, bs_price))
grid = np.linspace(70.0, 130.0, 7, dtype="float32").reshape(-1, 1)
hedge = pricer.delta(grid, np.full_like(grid, 0.5))
print("hedge ratios:", hedge)
