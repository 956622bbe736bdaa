"""Physics-informed network for the 1-D heat equation u_t = alpha * u_xx on [0, 1].

The residual needs u_t and the second derivative u_xx, taken with nested tapes. The
asker is unsure whether the second derivative reaches the network weights, or whether
some of them will come back None.
"""
# cause: connected
# depth: main
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(9)
alpha = 0.1
x_col = tf.constant(rng.uniform(0, 1, (128, 1)).astype("float32"))
t_col = tf.constant(rng.uniform(0, 1, (128, 1)).astype("float32"))
x_ic = tf.constant(np.linspace(0, 1, 32, dtype="float32")[:, None])
u_ic = tf.sin(np.pi * x_ic)

keras.utils.set_random_seed(9)
net = keras.Sequential([keras.Input((2,)), keras.layers.Dense(32, activation="tanh"),
                        keras.layers.Dense(32, activation="tanh"), keras.layers.Dense(1)])


def pinn_loss():
    with tf.GradientTape() as tape2:
        tape2.watch(x_col)
        with tf.GradientTape(persistent=True) as tape1:
            tape1.watch([x_col, t_col])
            u = net(tf.concat([x_col, t_col], axis=1))
        u_x = tape1.gradient(u, x_col)
    u_t = tape1.gradient(u, t_col)
    u_xx = tape2.gradient(u_x, x_col)
    residual = u_t - alpha * u_xx
    u0 = net(tf.concat([x_ic, tf.zeros_like(x_ic)], axis=1))
    boundary = net(tf.constant([[0.0, 0.5], [1.0, 0.5]]))
    return (tf.reduce_mean(residual**2) + tf.reduce_mean((u0 - u_ic) ** 2)
            + tf.reduce_mean(boundary**2))


with tf.GradientTape() as tape:
    loss = pinn_loss()
grads = tape.gradient(loss, net.trainable_variables)
print("loss:", float(loss))
for v, g in zip(net.trainable_variables, grads):
    print(f"{v.path:26s}", "None" if g is None else f"{float(tf.norm(g)):.5f}")


def computation():
    return pinn_loss, net.trainable_variables
