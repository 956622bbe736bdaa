"""A neural ODE for a damped pendulum integrated with fixed-step RK4; the sensitivity of the final
state to the initial state, d y(T) / d y0, comes back as None."""
# cause: integer_dtype
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(10)

vector_field = keras.Sequential([
    keras.Input((2,)),
    keras.layers.Dense(32, activation="tanh"),
    keras.layers.Dense(2),
])


def rk4_solve(f, y0, t1=1.0, n_steps=20):
    y = tf.cast(y0, tf.float32)
    h = t1 / n_steps
    for _ in range(n_steps):
        k1 = f(y)
        k2 = f(y + 0.5 * h * k1)
        k3 = f(y + 0.5 * h * k2)
        k4 = f(y + h * k3)
        y = y + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
    return y


y0 = tf.constant([[1, 0]])  # <- expected


def computation():
    return (lambda y: tf.reduce_sum(tf.square(rk4_solve(vector_field, y)))), y0


with tf.GradientTape() as tape:
    tape.watch(y0)
    y_final = rk4_solve(vector_field, y0)
    energy = tf.reduce_sum(tf.square(y_final))
sensitivity = tape.gradient(energy, y0)
