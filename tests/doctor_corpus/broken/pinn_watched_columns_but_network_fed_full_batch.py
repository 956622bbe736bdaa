"""A PINN on (x, t) collocation points stored as one array; the tf.function derivatives u_x and u_t come back None."""
# cause: watched_other_object
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(20)

net = keras.Sequential([
    keras.Input((2,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])


@tf.function
def derivatives(X):
    x = X[:, 0:1]
    t = X[:, 1:2]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.watch(t)
        u = net(X)  # <- expected
    u_x = tape.gradient(u, x)
    u_t = tape.gradient(u, t)
    return u, u_x, u_t


X = tf.constant(np.random.uniform([-1.0, 0.0], [1.0, 1.0], size=(64, 2)), dtype=tf.float32)
u, u_x, u_t = derivatives(X)
print("u_x:", u_x)
print("u_t:", u_t)


def computation():
    x, t = X[:, 0:1], X[:, 1:2]
    return (lambda x, t: net(X)), [x, t]
