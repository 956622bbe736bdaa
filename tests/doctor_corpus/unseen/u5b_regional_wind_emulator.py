"""Trains a small regional climate emulator that predicts 10 m wind components (u, v) on a
grid and scores it with the mean vector wind error; both fields are zeroed outside the
regional domain, and after the first optimizer step every weight and the loss are NaN."""
# cause: nan_at_zero
# depth: helper
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(21)
batch, ny, nx = 8, 12, 12
coarse = tf.constant(rng.normal(size=(batch, ny, nx, 3)), tf.float32)  # slp, t2m, z500 anomalies
domain_mask = np.zeros((1, ny, nx, 1), "float32")
domain_mask[:, 2:10, 2:10, :] = 1.0          # regional domain; the halo is boundary padding
domain_mask = tf.constant(domain_mask)
obs_uv = tf.constant(rng.normal(0.0, 3.0, size=(batch, ny, nx, 2)), tf.float32)

emulator = tf.keras.Sequential([
    tf.keras.Input((ny, nx, 3)),
    tf.keras.layers.Conv2D(16, 3, padding="same", activation="tanh"),
    tf.keras.layers.Conv2D(2, 3, padding="same"),
])
optimizer = tf.keras.optimizers.Adam(1e-3)
initial_weights = emulator.get_weights()


def vector_wind_error(uv_pred, uv_obs):
    return tf.norm(uv_pred - uv_obs, axis=-1)  # <- expected


def emulator_loss():
    uv_pred = emulator(coarse, training=True) * domain_mask
    err = vector_wind_error(uv_pred, obs_uv * domain_mask)
    return tf.reduce_mean(err)


for step in range(3):
    with tf.GradientTape() as tape:
        loss = emulator_loss()
    grads = tape.gradient(loss, emulator.trainable_variables)
    optimizer.apply_gradients(zip(grads, emulator.trainable_variables))
    kernel = emulator.trainable_variables[0]
    print(f"step {step}: loss={float(loss):.4f}  nan in first kernel: "
          f"{bool(tf.reduce_any(tf.math.is_nan(kernel)))}")


def computation():
    emulator.set_weights(initial_weights)
    return emulator_loss, emulator.trainable_variables
