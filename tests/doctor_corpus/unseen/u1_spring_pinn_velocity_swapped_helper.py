"""A coordinate network x(t) fitted to a noisy mass-spring trajectory; after fitting, the velocity
dx/dt from a small helper is None instead of a tensor of shape (50, 1)."""
# cause: swapped
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(16)

net = keras.Sequential([
    keras.Input((1,)),
    keras.layers.Dense(32, activation="tanh"),
    keras.layers.Dense(32, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-2)

t_obs = np.linspace(0.0, 2.0, 50, dtype=np.float32)[:, None]
x_obs = np.cos(3.0 * t_obs) + np.random.default_rng(16).normal(0, 0.02, t_obs.shape).astype(np.float32)

for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(t_obs) - x_obs))
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))


def velocity(model, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as tape:
        tape.watch(t)
        x = model(t)
    return tape.gradient(t, x)  # <- expected


v = velocity(net, t_obs)
