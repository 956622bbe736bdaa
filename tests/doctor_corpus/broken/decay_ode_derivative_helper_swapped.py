"""A network solving du/dt = -k u with a derivative helper; the residual line fails with "Attempt to convert a value (None)"."""
# cause: swapped
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(15)

k = 2.0
net = keras.Sequential([
    keras.Input((1,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-2)


def d(tape, y, x):
    """dy/dx, with x watched by `tape`."""
    return tape.gradient(x, y)  # <- expected


t = tf.constant(np.linspace(0.0, 1.0, 32)[:, None], dtype=tf.float32)
t0 = tf.zeros((1, 1))

for step in range(2):
    with tf.GradientTape() as tape:
        with tf.GradientTape() as inner:
            inner.watch(t)
            u = net(t)
        u_t = d(inner, u, t)
        ode_residual = u_t + k * u
        initial = net(t0) - 1.0
        loss = tf.reduce_mean(tf.square(ode_residual)) + tf.reduce_mean(tf.square(initial))
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
    print(step, float(loss))
