"""Forces for a tiny molecular-dynamics step, taken as minus the gradient of a Coulomb energy. The
self-pairs (r = 0) are masked with tf.where, but every force comes out NaN."""
# cause: nan_unsafe_where
# depth: method
import tensorflow as tf

tf.random.set_seed(5)


class CoulombSystem(tf.Module):
    def __init__(self, charges, k=1.0):
        super().__init__()
        self.q = tf.constant(charges)
        self.k = k

    def pair_distances(self, pos):
        diff = pos[:, None, :] - pos[None, :, :]
        return tf.sqrt(tf.reduce_sum(diff ** 2, axis=-1))

    def energy(self, pos):
        r = self.pair_distances(pos)
        qq = self.q[:, None] * self.q[None, :]
        pair_energy = tf.where(r > 0, self.k * qq / r, 0.0)  # <- expected
        return 0.5 * tf.reduce_sum(pair_energy)


system = CoulombSystem([1.0, -1.0, 1.0, -1.0])
pos = tf.random.uniform((4, 3), -1.0, 1.0)
dt = 1e-3

with tf.GradientTape() as tape:
    tape.watch(pos)
    e = system.energy(pos)
forces = -tape.gradient(e, pos)
new_pos = pos + dt * forces
print("energy:", float(e))
print("forces:", forces.numpy()[0])


def computation():
    return system.energy, pos
