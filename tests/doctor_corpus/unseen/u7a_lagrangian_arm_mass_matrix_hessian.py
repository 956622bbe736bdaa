"""Lagrangian neural network for a 2-link arm: recovering the mass matrix.

I learn a Lagrangian L(q, qdot) for a planar 2-link arm and want the generalised
mass matrix M(q) = d^2 L / d qdot^2 to plug into the Euler-Lagrange equations.
The first derivative dL/dqdot comes out fine, but the Hessian I get from the
outer tape is None, so the forward-dynamics step crashes on it.
"""
# cause: inner_gradient_outside
# depth: main
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(4)

lagrangian_net = tf.keras.Sequential([
    tf.keras.layers.Dense(64, activation="softplus"),
    tf.keras.layers.Dense(64, activation="softplus"),
    tf.keras.layers.Dense(1),
])


def lagrangian(q, qdot):
    feats = tf.concat([tf.sin(q), tf.cos(q), qdot], axis=-1)
    return tf.squeeze(lagrangian_net(feats), -1)


batch = 8
q = tf.constant(np.random.uniform(-np.pi, np.pi, (batch, 2)).astype(np.float32))
qdot = tf.constant(np.random.randn(batch, 2).astype(np.float32))

with tf.GradientTape(persistent=True) as outer:
    outer.watch(qdot)
    with tf.GradientTape() as inner:
        inner.watch(qdot)
        L = lagrangian(q, qdot)
dL_dqdot = inner.gradient(L, qdot)  # <- expected

rows = [outer.gradient(dL_dqdot[:, i], qdot) for i in range(2)]
print("dL/dqdot:", dL_dqdot.shape)
print("Hessian rows:", rows)
mass_matrix = tf.stack(rows, axis=1)

tau = tf.zeros((batch, 2))
qddot = tf.linalg.solve(mass_matrix + 1e-3 * tf.eye(2), (tau - dL_dqdot)[..., None])
print("qddot:", tf.squeeze(qddot, -1)[:2])
