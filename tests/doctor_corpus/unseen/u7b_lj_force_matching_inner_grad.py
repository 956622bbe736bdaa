"""Fitting Lennard-Jones parameters to reference forces (force matching).

I have forces from a DFT run for a small argon cluster and I want to fit epsilon and
sigma so that the LJ forces match them. Forces are -dE/dx, so I nest two tapes: one for
positions, one for the parameters. The forces come out with sensible values and the
loss prints fine, but the gradient of the loss with respect to log_eps and log_sigma
is None, so nothing can be fitted.
"""
# cause: inner_gradient_outside
# depth: main
import numpy as np
import tensorflow as tf

tf.random.set_seed(11)
rng = np.random.RandomState(11)

# 2x2x2 cube of atoms, slightly jittered, spacing ~ 3.8 Angstrom
grid = np.stack(np.meshgrid(*[np.arange(2)] * 3, indexing="ij"), -1).reshape(-1, 3)
positions = tf.constant(grid * 3.8 + rng.normal(0, 0.15, grid.shape), tf.float32)
n_atoms = positions.shape[0]
off_diag = 1.0 - tf.eye(n_atoms)


def lj_energy(pos, eps, sigma):
    diff = pos[:, None, :] - pos[None, :, :]
    r2 = tf.reduce_sum(diff ** 2, axis=-1) + tf.eye(n_atoms)  # keep the diagonal away from 0
    sr6 = (sigma ** 2 / r2) ** 3
    pair = 4.0 * eps * (sr6 ** 2 - sr6) * off_diag
    return 0.5 * tf.reduce_sum(pair)


# "DFT" reference: generated from the true argon parameters
with tf.GradientTape() as t:
    t.watch(positions)
    e_ref = lj_energy(positions, 0.0104, 3.40)
ref_forces = -t.gradient(e_ref, positions)

log_eps = tf.Variable(np.log(0.02), dtype=tf.float32)
log_sigma = tf.Variable(np.log(3.2), dtype=tf.float32)

with tf.GradientTape() as param_tape, tf.GradientTape() as pos_tape:
    pos_tape.watch(positions)
    energy = lj_energy(positions, tf.exp(log_eps), tf.exp(log_sigma))
forces = -pos_tape.gradient(energy, positions)  # <- expected
loss = tf.reduce_mean(tf.reduce_sum((forces - ref_forces) ** 2, axis=-1))

print("force loss:", float(loss))
print("grads:", param_tape.gradient(loss, [log_eps, log_sigma]))
