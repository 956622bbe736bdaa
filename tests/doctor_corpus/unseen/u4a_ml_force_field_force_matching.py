"""Machine-learned interatomic potential trained by force matching: an MLP predicts per-atom energies
from radial features, forces are -dE/dpositions, and the tf.function train step gets None for every weight gradient."""
# cause: inner_gradient_outside
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(31)
rng = np.random.default_rng(31)

N_CONF, N_ATOMS, N_RBF, CUTOFF = 32, 6, 16, 5.0
pairs_i, pairs_j = np.triu_indices(N_ATOMS, k=1)


def lennard_jones_forces(pos, eps=1.0, sigma=1.2):
    pos = tf.convert_to_tensor(pos)
    with tf.GradientTape() as g:
        g.watch(pos)
        d = tf.norm(tf.gather(pos, pairs_i, axis=1) - tf.gather(pos, pairs_j, axis=1), axis=-1)
        e = tf.reduce_sum(4 * eps * ((sigma / d) ** 12 - (sigma / d) ** 6))
    return -g.gradient(e, pos)


# reference data: jittered small clusters with Lennard-Jones forces as "DFT" labels
base = rng.normal(0, 1.0, size=(1, N_ATOMS, 3)) * 1.5
positions = (base + rng.normal(0, 0.1, size=(N_CONF, N_ATOMS, 3))).astype("float32")
ref_forces = lennard_jones_forces(positions)
ref_forces = ref_forces / tf.math.reduce_std(ref_forces)

centers = tf.constant(np.linspace(0.5, CUTOFF, N_RBF), dtype=tf.float32)


def radial_features(pos):
    """Per-atom sum of Gaussian radial basis functions over neighbours."""
    diff = tf.gather(pos, pairs_i, axis=1) - tf.gather(pos, pairs_j, axis=1)
    dist = tf.sqrt(tf.reduce_sum(tf.square(diff), axis=-1))                    # (conf, pairs)
    rbf = tf.exp(-4.0 * tf.square(dist[..., None] - centers))                  # (conf, pairs, rbf)
    to_i = tf.one_hot(pairs_i, N_ATOMS)
    to_j = tf.one_hot(pairs_j, N_ATOMS)
    return tf.einsum("cpr,pa->car", rbf, to_i) + tf.einsum("cpr,pa->car", rbf, to_j)


atomic_energy = keras.Sequential([
    keras.Input((N_ATOMS, N_RBF)),
    layers.Dense(32, activation="tanh"),
    layers.Dense(32, activation="tanh"),
    layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)


@tf.function
def train_step(pos, target_forces):
    with tf.GradientTape() as weight_tape:
        with tf.GradientTape() as force_tape:
            force_tape.watch(pos)
            energy = tf.reduce_sum(atomic_energy(radial_features(pos)), axis=[1, 2])
    forces = -force_tape.gradient(energy, pos)  # <- expected
    loss = tf.reduce_mean(tf.square(forces - target_forces))
    grads = weight_tape.gradient(loss, atomic_energy.trainable_variables)
    return loss, grads


for step in range(3):
    loss, grads = train_step(tf.constant(positions), ref_forces)
    print(f"step {step}: force MSE={float(loss):.4f}  grads={grads}")
    optimizer.apply_gradients(zip(grads, atomic_energy.trainable_variables))
