"""A SchNet-style interaction layer predicting toy molecular energies.

Forces are the negative gradient of the predicted energy with respect to the atom
positions. The energy is a normal finite number, but every predicted force comes
out NaN, for every atom of every molecule.
"""
# cause: nan_at_zero
# depth: layer
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(2)
n_mol, n_atoms, n_types = 4, 5, 3
positions = tf.constant(rng.normal(0, 1.2, (n_mol, n_atoms, 3)).astype("float32"))
atom_types = tf.one_hot(rng.integers(0, n_types, (n_mol, n_atoms)), n_types)


class Interaction(keras.layers.Layer):
    def __init__(self, units=16, n_rbf=12, cutoff=5.0, **kwargs):
        super().__init__(**kwargs)
        self.centers = tf.linspace(0.0, cutoff, n_rbf)
        self.gamma = 4.0
        self.cutoff = cutoff
        self.filter_net = keras.layers.Dense(units, activation="tanh")

    def call(self, pos, features):
        diff = pos[:, :, None, :] - pos[:, None, :, :]
        dist = tf.norm(diff, axis=-1)  # <- expected
        rbf = tf.exp(-self.gamma * (dist[..., None] - self.centers) ** 2)
        envelope = 0.5 * (tf.cos(np.pi * tf.minimum(dist, self.cutoff) / self.cutoff) + 1.0)
        filters = self.filter_net(rbf) * envelope[..., None]
        messages = tf.reduce_sum(filters * features[:, None, :, :], axis=2)
        return features + messages


class EnergyModel(keras.Model):
    def __init__(self, units=16):
        super().__init__()
        self.embed = keras.layers.Dense(units, use_bias=False)
        self.interaction = Interaction(units)
        self.readout = keras.layers.Dense(1)

    def call(self, pos, types):
        h = self.interaction(pos, self.embed(types))
        return tf.reduce_sum(self.readout(h), axis=[1, 2])


keras.utils.set_random_seed(2)
model = EnergyModel()


def total_energy():
    return tf.reduce_sum(model(positions, atom_types))


with tf.GradientTape() as tape:
    tape.watch(positions)
    energy = total_energy()
forces = -tape.gradient(energy, positions)
print("energy:", float(energy))
print("forces on molecule 0:\n", forces[0].numpy())
print("any NaN force:", bool(tf.reduce_any(tf.math.is_nan(forces))))


def computation():
    return total_energy, [positions]
