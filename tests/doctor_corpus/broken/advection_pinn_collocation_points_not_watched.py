"""A PINN for the advection equation u_t + c u_x = 0; the derivatives method returns None for u_t and u_x."""
# cause: not_watched
# depth: method
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(11)


class AdvectionPINN(tf.Module):
    def __init__(self, c=1.0):
        super().__init__()
        self.c = c
        self.net = keras.Sequential([
            keras.Input((2,)),
            keras.layers.Dense(16, activation="tanh"),
            keras.layers.Dense(16, activation="tanh"),
            keras.layers.Dense(1),
        ])

    def u(self, x, t):
        return self.net(tf.concat([x, t], axis=1))

    def derivatives(self, x, t):
        with tf.GradientTape(persistent=True) as tape:  # <- expected
            u = self.u(x, t)
        u_x = tape.gradient(u, x)
        u_t = tape.gradient(u, t)
        del tape
        return u, u_x, u_t

    def residual(self, x, t):
        u, u_x, u_t = self.derivatives(x, t)
        return u_t + self.c * u_x


pinn = AdvectionPINN(c=0.5)
x_col = tf.constant(np.random.uniform(-1, 1, (64, 1)), dtype=tf.float32)
t_col = tf.constant(np.random.uniform(0, 1, (64, 1)), dtype=tf.float32)

u, u_x, u_t = pinn.derivatives(x_col, t_col)
print("u_x:", u_x, "u_t:", u_t)


def computation():
    return (lambda x, t: pinn.u(x, t)), [x_col, t_col]
