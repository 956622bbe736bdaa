"""Physics-informed fit of a damped harmonic oscillator x(t) = exp(-c t / 2) cos(w t) to noisy measurements,
with stiffness and damping as trainable parameters. The stiffness learns but the damping gradient is always None."""
# cause: integer_dtype
# depth: method
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(3)

t_obs = np.linspace(0.0, 6.0, 80).astype("float32")
x_obs = (np.exp(-0.4 * t_obs / 2) * np.cos(2.0 * t_obs) + rng.normal(0, 0.02, 80)).astype("float32")


class DampedOscillator(tf.Module):
    def __init__(self):
        super().__init__()
        self.stiffness = tf.Variable(3.0, name="stiffness")
        self.damping = tf.Variable(1, name="damping")  # <- expected

    def __call__(self, t):
        c = tf.cast(self.damping, tf.float32)
        omega = tf.sqrt(tf.nn.relu(self.stiffness - c ** 2 / 4.0) + 1e-6)
        return tf.exp(-c * t / 2.0) * tf.cos(omega * t)

    def loss(self, t, x):
        return tf.reduce_mean(tf.square(self(t) - x))


osc = DampedOscillator()
optimizer = tf.keras.optimizers.Adam(0.05)
params = [osc.stiffness, osc.damping]
t = tf.constant(t_obs)
x = tf.constant(x_obs)

for step in range(5):
    with tf.GradientTape() as tape:
        loss = osc.loss(t, x)
    grads = tape.gradient(loss, params)
    print(f"step {step}: loss {loss.numpy():.4f}, d/dstiffness {grads[0]}, d/ddamping {grads[1]}")
    optimizer.apply_gradients([(grads[0], osc.stiffness)])


def computation():
    return (lambda: osc.loss(t, x)), [osc.stiffness, osc.damping]
