"""Sensitivity of a damped spring's final position to its initial conditions.

I simulate a mass on a damped spring with semi-implicit Euler and want
d x(T) / d v0, how much the final position depends on the launch velocity.
The derivative comes back as None.
"""
# cause: not_watched
# depth: main
import tensorflow as tf

k = tf.constant(4.0)       # spring constant
c = tf.constant(0.3)       # damping
m = tf.constant(1.0)       # mass
dt = 0.01
n_steps = 300

x0 = tf.constant(1.0)
v0 = tf.constant(2.0)  # <- expected


def simulate(x, v):
    for _ in range(n_steps):
        a = (-k * x - c * v) / m
        v = v + dt * a
        x = x + dt * v
    return x


with tf.GradientTape() as tape:  # <- expected
    x_final = simulate(x0, v0)

dx_dv0 = tape.gradient(x_final, v0)
print("x(T) =", float(x_final))
print("dx(T)/dv0 =", dx_dv0)
