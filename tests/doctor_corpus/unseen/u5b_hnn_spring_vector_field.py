"""Trains a Hamiltonian neural network on a mass-spring system by matching the symplectic
vector field (dH/dp, -dH/dq) to observed time derivatives; the inner tape returns None for
dH/d(q, p), so the vector field can never be formed."""
# cause: watched_too_late
# depth: main
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(7)
k_spring, mass = 2.0, 0.5
q = rng.uniform(-1.0, 1.0, size=(128, 1)).astype("float32")
p = rng.uniform(-1.0, 1.0, size=(128, 1)).astype("float32")
state = tf.constant(np.concatenate([q, p], axis=1))
state_mean = tf.reduce_mean(state, axis=0)
state_std = tf.math.reduce_std(state, axis=0)
# time derivatives from Hamilton's equations, plus sensor noise
dqdt = p / mass + 0.01 * rng.normal(size=q.shape).astype("float32")
dpdt = -k_spring * q + 0.01 * rng.normal(size=p.shape).astype("float32")
target_field = tf.constant(np.concatenate([dqdt, dpdt], axis=1))

hamiltonian = tf.keras.Sequential([
    tf.keras.Input((2,)),
    tf.keras.layers.Dense(64, activation="tanh"),
    tf.keras.layers.Dense(64, activation="tanh"),
    tf.keras.layers.Dense(1),
])
optimizer = tf.keras.optimizers.Adam(1e-3)

for step in range(5):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            energy = tf.reduce_sum(hamiltonian((state - state_mean) / state_std))
            inner.watch(state)  # <- expected
        dH = inner.gradient(energy, state)
        if dH is None:
            print(f"step {step}: dH/d(q,p) is None, cannot build the vector field")
            break
        dHdq, dHdp = dH[:, :1], dH[:, 1:]
        predicted_field = tf.concat([dHdp, -dHdq], axis=1)
        loss = tf.reduce_mean(tf.square(predicted_field - target_field))
    grads = outer.gradient(loss, hamiltonian.trainable_variables)
    optimizer.apply_gradients(zip(grads, hamiltonian.trainable_variables))
    print(f"step {step}: loss={float(loss):.4f}")
