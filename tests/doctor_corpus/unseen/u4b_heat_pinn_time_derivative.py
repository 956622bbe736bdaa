"""Physics-informed network for the 1-D heat equation u_t = alpha * u_xx, with the
derivatives taken by nested tapes in a helper.  The time derivative comes back as
None, so building the PDE residual fails with a TypeError."""
# cause: swapped
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

ALPHA = 0.1

net = keras.Sequential([
    keras.Input(shape=(2,)),
    keras.layers.Dense(32, activation="tanh"),
    keras.layers.Dense(32, activation="tanh"),
    keras.layers.Dense(1),
])


def derivatives(model, x, t):
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tf.GradientTape(persistent=True) as inner:
            inner.watch([x, t])
            u = model(tf.concat([x, t], axis=1))
        u_x = inner.gradient(u, x)
        u_t = inner.gradient(t, u)  # <- expected
    u_xx = outer.gradient(u_x, x)
    del inner, outer
    return u_t, u_xx


x_col = tf.constant(np.random.uniform(0.0, 1.0, (128, 1)), dtype=tf.float32)
t_col = tf.constant(np.random.uniform(0.0, 1.0, (128, 1)), dtype=tf.float32)
x_ic = tf.constant(np.linspace(0.0, 1.0, 32)[:, None], dtype=tf.float32)
u_ic = tf.sin(np.pi * x_ic)

optimizer = keras.optimizers.Adam(1e-3)

with tf.GradientTape() as tape:
    u_t, u_xx = derivatives(net, x_col, t_col)
    print("u_t:", u_t)
    print("u_xx shape:", u_xx.shape)
    residual = u_t - ALPHA * u_xx
    ic_pred = net(tf.concat([x_ic, tf.zeros_like(x_ic)], axis=1))
    loss = tf.reduce_mean(residual ** 2) + tf.reduce_mean((ic_pred - u_ic) ** 2)

grads = tape.gradient(loss, net.trainable_variables)
optimizer.apply_gradients(zip(grads, net.trainable_variables))
print("loss", float(loss))
