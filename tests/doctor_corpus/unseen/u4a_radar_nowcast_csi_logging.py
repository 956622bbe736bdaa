"""Radar precipitation nowcasting with a conv encoder/decoder, logging a NumPy critical-success-index
score for heavy rain at every step; the asker wonders whether the .numpy() calls break the gradients of the encoder."""
# cause: connected
# depth: main
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(12)
rng = np.random.default_rng(12)

n_seq, n_frames, size = 16, 5, 24
yy, xx = np.mgrid[0:size, 0:size]
frames = np.zeros((n_seq, n_frames, size, size), dtype="float32")
for s in range(n_seq):
    cy, cx = rng.uniform(6, 18, size=2)
    vy, vx = rng.uniform(-1, 1, size=2)
    for t in range(n_frames):
        r2 = (yy - cy - vy * t) ** 2 + (xx - cx - vx * t) ** 2
        frames[s, t] = 8.0 * np.exp(-r2 / 18.0) + rng.gamma(0.3, 0.2, size=(size, size))

past = np.transpose(frames[:, :4], (0, 2, 3, 1))
future = frames[:, 4, :, :, None]
HEAVY_RAIN = 4.0


def critical_success_index(pred, obs, threshold):
    hits = np.sum((pred >= threshold) & (obs >= threshold))
    misses = np.sum((pred < threshold) & (obs >= threshold))
    false_alarms = np.sum((pred >= threshold) & (obs < threshold))
    return hits / max(hits + misses + false_alarms, 1)


encoder = keras.Sequential([
    keras.Input((size, size, 4)),
    layers.Conv2D(16, 3, padding="same", activation="relu"),
    layers.Conv2D(32, 3, strides=2, padding="same", activation="relu"),
])
decoder = keras.Sequential([
    keras.Input((size // 2, size // 2, 32)),
    layers.Conv2DTranspose(16, 3, strides=2, padding="same", activation="relu"),
    layers.Conv2D(1, 1, activation="softplus"),
])
optimizer = keras.optimizers.Adam(1e-3)
params = encoder.trainable_variables + decoder.trainable_variables
dataset = tf.data.Dataset.from_tensor_slices((past, future)).batch(8)


def nowcast_loss(x, y):
    rain_rate = decoder(encoder(x, training=True), training=True)
    return tf.reduce_mean(tf.square(rain_rate - y)), rain_rate


for epoch in range(3):
    for x, y in dataset:
        with tf.GradientTape() as tape:
            loss, rain_rate = nowcast_loss(x, y)
            csi = critical_success_index(rain_rate.numpy(), y.numpy(), HEAVY_RAIN)
            log_line = f"mse={loss.numpy():.4f} csi={csi:.3f}"
        grads = tape.gradient(loss, params)
        optimizer.apply_gradients(zip(grads, params))
    print(f"epoch {epoch}: {log_line}  grad norms: {[round(float(tf.norm(g)), 4) for g in grads]}")


def computation():
    x, y = past[:8], future[:8]
    return (lambda: nowcast_loss(x, y)[0]), params
