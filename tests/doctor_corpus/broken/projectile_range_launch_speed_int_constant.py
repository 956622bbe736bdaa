"""Sensitivity of a projectile's range to its launch speed; the derivative prints as None."""
# cause: integer_dtype
# depth: main
import tensorflow as tf

g = 9.81
v0 = tf.constant(20)  # <- expected
angle = tf.constant(0.6)


def projectile_range(v0, angle):
    v = tf.cast(v0, tf.float32)
    return v ** 2 * tf.sin(2.0 * angle) / g


def computation():
    return (lambda v0: projectile_range(v0, angle)), v0


with tf.GradientTape() as tape:
    tape.watch(v0)
    tape.watch(angle)
    distance = projectile_range(v0, angle)

d_v0, d_angle = tape.gradient(distance, [v0, angle])
print("range:", float(distance))
print("d range / d v0:", d_v0)
print("d range / d angle:", d_angle)
