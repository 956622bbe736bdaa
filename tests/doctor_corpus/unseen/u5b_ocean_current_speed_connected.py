"""Trains a small ocean-current emulator that predicts surface current components (u, v)
on a grid and scores it with the mean vector current error, with land cells zeroed in both
fields; the asker wants to confirm this loss gives finite gradients for every weight."""
# cause: connected
# depth: helper
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(22)
batch, ny, nx = 8, 12, 12
forcing = tf.constant(rng.normal(size=(batch, ny, nx, 3)), tf.float32)  # wind stress x/y, SSH
ocean = tf.constant((rng.uniform(size=(1, ny, nx, 1)) > 0.3).astype("float32"))  # 0 over land
obs_uv = tf.constant(rng.normal(0.0, 0.3, size=(batch, ny, nx, 2)), tf.float32)

emulator = tf.keras.Sequential([
    tf.keras.Input((ny, nx, 3)),
    tf.keras.layers.Conv2D(16, 3, padding="same", activation="tanh"),
    tf.keras.layers.Conv2D(2, 3, padding="same"),
])
optimizer = tf.keras.optimizers.Adam(1e-3)


def vector_current_error(uv_pred, uv_obs, eps=1e-12):
    diff = uv_pred - uv_obs
    return tf.sqrt(tf.reduce_sum(tf.square(diff), axis=-1) + eps)


def emulator_loss():
    uv_pred = emulator(forcing, training=True) * ocean
    err = vector_current_error(uv_pred, obs_uv * ocean)
    return tf.reduce_mean(err)


for step in range(3):
    with tf.GradientTape() as tape:
        loss = emulator_loss()
    grads = tape.gradient(loss, emulator.trainable_variables)
    optimizer.apply_gradients(zip(grads, emulator.trainable_variables))
    print(f"step {step}: loss={float(loss):.4f}  grads finite: "
          f"{all(bool(tf.reduce_all(tf.math.is_finite(g))) for g in grads)}")


def computation():
    return emulator_loss, emulator.trainable_variables
