"""A physics-informed network for the viscous Burgers equation u_t + u u_x = nu u_xx; the residual's
derivatives come from nested tapes inside a tf.function training step."""
# cause: connected
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(19)
NU = 0.01 / np.pi

u_net = keras.Sequential([
    keras.Input((2,)),
    keras.layers.Dense(20, activation="tanh"),
    keras.layers.Dense(20, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)


@tf.function
def train_step(tx, tx0, u0):
    with tf.GradientTape() as outer:
        with tf.GradientTape(persistent=True) as inner:
            inner.watch(tx)
            u = u_net(tx)
            u_x = inner.gradient(u, tx)[:, 1:2]
        u_t = inner.gradient(u, tx)[:, 0:1]
        u_xx = inner.gradient(u_x, tx)[:, 1:2]
        residual = u_t + u * u_x - NU * u_xx
        loss = tf.reduce_mean(tf.square(residual)) + tf.reduce_mean(tf.square(u_net(tx0) - u0))
    grads = outer.gradient(loss, u_net.trainable_variables)
    optimizer.apply_gradients(zip(grads, u_net.trainable_variables))
    return loss, grads


rng = np.random.default_rng(19)
tx = tf.constant(np.column_stack([rng.uniform(0, 1, 64), rng.uniform(-1, 1, 64)]), tf.float32)
x0 = rng.uniform(-1, 1, (32, 1))
tx0 = tf.constant(np.column_stack([np.zeros(32), x0[:, 0]]), tf.float32)
u0 = tf.constant(-np.sin(np.pi * x0), tf.float32)
for _ in range(2):
    loss, grads = train_step(tx, tx0, u0)
print("pde loss", float(loss))
