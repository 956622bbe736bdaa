"""Physics-informed net for the 1-D heat equation u_t = alpha * u_xx on [0, 1] x [0, 1] with an
initial sine profile: nested tapes for u_t and u_xx, one Adam step on the residual and initial
losses."""
# cause: connected
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(21)
alpha = 0.1

net = keras.Sequential([
    keras.Input((2,)),
    keras.layers.Dense(20, activation="tanh"),
    keras.layers.Dense(20, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)

x = tf.random.uniform((64, 1))
t = tf.random.uniform((64, 1))
x0 = tf.random.uniform((32, 1))
u0 = tf.sin(np.pi * x0)


def pinn_loss():
    with tf.GradientTape() as tape2:
        tape2.watch(x)
        with tf.GradientTape(persistent=True) as tape1:
            tape1.watch([x, t])
            u = net(tf.concat([x, t], axis=1))
        u_x = tape1.gradient(u, x)
        u_t = tape1.gradient(u, t)
    u_xx = tape2.gradient(u_x, x)
    residual = u_t - alpha * u_xx
    u_init = net(tf.concat([x0, tf.zeros_like(x0)], axis=1))
    return tf.reduce_mean(residual ** 2) + tf.reduce_mean((u_init - u0) ** 2)


with tf.GradientTape() as tape:
    loss = pinn_loss()
grads = tape.gradient(loss, net.trainable_variables)
optimizer.apply_gradients(zip(grads, net.trainable_variables))
print("PINN loss:", float(loss))


def computation():
    return pinn_loss, net.trainable_variables
