"""PINN for the inviscid Burgers equation with a tf.function train step; tracing fails on a None derivative."""
# cause: watched_too_late
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(17)

u_net = keras.Sequential([
    keras.Input((2,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, t, x0, u0):
    with tf.GradientTape() as tape:
        with tf.GradientTape(persistent=True) as pde_tape:
            u = u_net(tf.concat([x, t], axis=1))  # <- expected
            pde_tape.watch(x)  # <- expected
            pde_tape.watch(t)
        u_x = pde_tape.gradient(u, x)
        u_t = pde_tape.gradient(u, t)
        residual = u_t + u * u_x
        u_init = u_net(tf.concat([x0, tf.zeros_like(x0)], axis=1))
        loss = tf.reduce_mean(tf.square(residual)) + tf.reduce_mean(tf.square(u_init - u0))
    grads = tape.gradient(loss, u_net.trainable_variables)
    optimizer.apply_gradients(zip(grads, u_net.trainable_variables))
    return loss


def computation():
    return (lambda x, t: u_net(tf.concat([x, t], axis=1))), [x, t]


x = tf.constant(np.random.uniform(-1, 1, (64, 1)), dtype=tf.float32)
t = tf.constant(np.random.uniform(0, 1, (64, 1)), dtype=tf.float32)
x0 = tf.constant(np.linspace(-1, 1, 16)[:, None], dtype=tf.float32)
u0 = -tf.sin(np.pi * x0)

for step in range(2):
    print(step, float(train_step(x, t, x0, u0)))
