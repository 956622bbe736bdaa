"""Physics-informed network for the harmonic oscillator u'' + omega^2 u = 0: nested GradientTapes compute
du/dt and d2u/dt2 at collocation points. The second derivative comes back None and the residual cannot be formed."""
# cause: inner_gradient_outside
# depth: main
import numpy as np
import tensorflow as tf
from tensorflow import keras

keras.utils.set_random_seed(10)
omega = 2.0

net = keras.Sequential([
    keras.Input((1,)),
    keras.layers.Dense(20, activation="tanh"),
    keras.layers.Dense(20, activation="tanh"),
    keras.layers.Dense(1),
])
t = tf.constant(np.linspace(0.0, 3.0, 50, dtype="float32")[:, None])
t0 = tf.zeros((1, 1))

with tf.GradientTape() as tape2:
    tape2.watch(t)
    with tf.GradientTape() as tape1:
        tape1.watch(t)
        u = net(t)
du_dt = tape1.gradient(u, t)  # <- expected
d2u_dt2 = tape2.gradient(du_dt, t)

print("du/dt shape:", du_dt.shape)
print("d2u/dt2:", d2u_dt2)

residual = d2u_dt2 + omega ** 2 * u
physics_loss = tf.reduce_mean(tf.square(residual)) + tf.reduce_mean(tf.square(net(t0) - 1.0))
print("physics loss:", float(physics_loss))
