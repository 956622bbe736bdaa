"""Forces from a screened Coulomb energy for a small ion cluster.

I compute forces as F = -dE/dpositions inside a @tf.function. The pairwise
distance matrix has zeros on the diagonal (each ion with itself), and I read that
sqrt and 1/r at zero give NaN gradients, so I masked those entries twice. Is this
correct, or am I still going to get NaNs once the cluster gets bigger? The forces
look finite to me, and so does the gradient for the learnable screening length.
"""
# cause: connected
# depth: tf.function
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(13)

N_IONS = 10
charges = tf.constant(np.where(np.arange(N_IONS) % 2 == 0, 1.0, -1.0).astype(np.float32))
log_screening = tf.Variable(0.0, name="log_screening")


def screened_coulomb(pos, log_screening):
    diff = pos[:, None, :] - pos[None, :, :]
    r2 = tf.reduce_sum(diff ** 2, axis=-1)
    off_diag = ~tf.eye(N_IONS, dtype=tf.bool)
    safe_r2 = tf.where(off_diag, r2, tf.ones_like(r2))
    r = tf.sqrt(safe_r2)
    pair = charges[:, None] * charges[None, :] * tf.exp(-r / tf.exp(log_screening)) / r
    pair = tf.where(off_diag, pair, tf.zeros_like(pair))
    return 0.5 * tf.reduce_sum(pair)


@tf.function
def energy_and_forces(pos):
    with tf.GradientTape() as tape:
        tape.watch(pos)
        energy = screened_coulomb(pos, log_screening)
    d_pos, d_screen = tape.gradient(energy, [pos, log_screening])
    return energy, -d_pos, d_screen


positions = tf.constant(np.random.uniform(0.0, 4.0, (N_IONS, 3)).astype(np.float32))
energy, forces, d_screen = energy_and_forces(positions)
print("energy:", float(energy))
print("forces finite:", bool(tf.reduce_all(tf.math.is_finite(forces))), forces.shape)
print("dE/dlog_screening:", float(d_screen))
print("net force (should be ~0):", tf.reduce_sum(forces, axis=0).numpy())


def computation():
    return screened_coulomb, [positions, log_screening]
