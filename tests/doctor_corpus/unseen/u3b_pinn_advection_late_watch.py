"""Physics-informed network for the 1D advection equation u_t + c u_x = 0; the module's
derivatives() method uses a GradientTape to get u_x and u_t, but both come back as None."""
# cause: watched_too_late
# depth: method
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(11)
keras.utils.set_random_seed(11)


class AdvectionPINN(tf.Module):
    def __init__(self, speed=0.5):
        super().__init__()
        self.speed = speed
        self.net = keras.Sequential([
            keras.Input(shape=(2,)),
            keras.layers.Dense(32, activation="tanh"),
            keras.layers.Dense(32, activation="tanh"),
            keras.layers.Dense(1),
        ])

    def u(self, x, t):
        return self.net(tf.concat([x, t], axis=1))

    def derivatives(self, x, t):
        with tf.GradientTape(persistent=True) as tape:
            u = self.u(x, t)
            tape.watch([x, t])  # <- expected
        u_x = tape.gradient(u, x)
        u_t = tape.gradient(u, t)
        del tape
        return u, u_x, u_t

    def residual(self, x, t):
        u, u_x, u_t = self.derivatives(x, t)
        return u_t + self.speed * u_x


pinn = AdvectionPINN()
x_col = tf.constant(rng.uniform(-1.0, 1.0, size=(64, 1)), dtype=tf.float32)
t_col = tf.constant(rng.uniform(0.0, 1.0, size=(64, 1)), dtype=tf.float32)

u, u_x, u_t = pinn.derivatives(x_col, t_col)
print("u shape:", u.shape)
print("u_x:", u_x)
print("u_t:", u_t)

pde_loss = tf.reduce_mean(tf.square(pinn.residual(x_col, t_col)))
print("pde loss:", float(pde_loss))
