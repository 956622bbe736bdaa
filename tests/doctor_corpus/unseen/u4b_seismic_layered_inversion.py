"""1-D seismic inversion of a layered velocity model: the synthetic trace is the
reflectivity convolved with a Ricker wavelet, and only interior cells are updated
(the two boundary cells stay fixed).  The asker is unsure the gradient taken for the
whole model and then masked is really non-empty for the interior cells."""
# cause: connected
# depth: method
import numpy as np
import tensorflow as tf

np.random.seed(1)


def ricker(n=21, f=0.15):
    t = np.arange(n) - n // 2
    a = (np.pi * f * t) ** 2
    return ((1.0 - 2.0 * a) * np.exp(-a)).astype(np.float32)


class LayeredInversion:
    def __init__(self, observed, initial_velocity, wavelet):
        self.observed = tf.constant(observed, dtype=tf.float32)
        self.velocity = tf.constant(initial_velocity, dtype=tf.float32)
        self.wavelet = tf.constant(wavelet, dtype=tf.float32)
        n = int(self.velocity.shape[0])
        self.interior_mask = tf.constant([0.0] + [1.0] * (n - 2) + [0.0])

    def forward(self, velocity):
        refl = (velocity[1:] - velocity[:-1]) / (velocity[1:] + velocity[:-1])
        trace = tf.nn.conv1d(refl[None, :, None], self.wavelet[:, None, None],
                             stride=1, padding="SAME")
        return tf.reshape(trace, [-1])

    def misfit_and_gradient(self):
        with tf.GradientTape() as tape:
            tape.watch(self.velocity)
            synthetic = self.forward(self.velocity)
            misfit = 0.5 * tf.reduce_sum((synthetic - self.observed) ** 2)
        grad = tape.gradient(misfit, self.velocity)
        return misfit, grad * self.interior_mask

    def step(self, lr):
        misfit, grad = self.misfit_and_gradient()
        print(f"misfit {float(misfit):.6f} |grad| {float(tf.norm(grad)):.3e}")
        self.velocity = self.velocity - lr * grad
        return misfit


n_cells = 80
true_v = 1500.0 + np.cumsum(np.random.choice([0.0, 0.0, 0.0, 150.0, -80.0], n_cells))
true_v = np.maximum(true_v, 1200.0).astype(np.float32)
start_v = np.convolve(true_v, np.ones(9) / 9.0, mode="same").astype(np.float32)
start_v[:4], start_v[-4:] = true_v[:4], true_v[-4:]

w = ricker()
probe = LayeredInversion(np.zeros(n_cells - 1, np.float32), true_v, w)
observed = probe.forward(probe.velocity).numpy()

inv = LayeredInversion(observed, start_v, w)
for it in range(10):
    inv.step(lr=1e6)
