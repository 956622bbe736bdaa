"""Radar precipitation nowcasting: a small conv encoder/decoder predicts the next rain-rate frame
from the last four frames. The loss goes down a little, but every gradient for the encoder comes back None."""
# cause: outside_tape
# depth: main
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(11)
rng = np.random.default_rng(11)

# fake radar sequences: blobs of rain drifting one pixel per frame
n_seq, n_frames, size = 16, 5, 24
yy, xx = np.mgrid[0:size, 0:size]
frames = np.zeros((n_seq, n_frames, size, size), dtype="float32")
for s in range(n_seq):
    cy, cx = rng.uniform(6, 18, size=2)
    vy, vx = rng.uniform(-1, 1, size=2)
    for t in range(n_frames):
        r2 = (yy - cy - vy * t) ** 2 + (xx - cx - vx * t) ** 2
        frames[s, t] = 8.0 * np.exp(-r2 / 18.0) + rng.gamma(0.3, 0.2, size=(size, size))

past = np.transpose(frames[:, :4], (0, 2, 3, 1))      # (batch, H, W, 4 timesteps)
future = frames[:, 4, :, :, None]                      # (batch, H, W, 1)

encoder = keras.Sequential([
    keras.Input((size, size, 4)),
    layers.Conv2D(16, 3, padding="same", activation="relu"),
    layers.Conv2D(32, 3, strides=2, padding="same", activation="relu"),
], name="encoder")
decoder = keras.Sequential([
    keras.Input((size // 2, size // 2, 32)),
    layers.Conv2DTranspose(16, 3, strides=2, padding="same", activation="relu"),
    layers.Conv2D(1, 1, activation="softplus"),
], name="decoder")

optimizer = keras.optimizers.Adam(1e-3)
params = encoder.trainable_variables + decoder.trainable_variables
dataset = tf.data.Dataset.from_tensor_slices((past, future)).batch(8)

for epoch in range(3):
    for x, y in dataset:
        latent = encoder(x, training=True)  # <- expected
        with tf.GradientTape() as tape:
            rain_rate = decoder(latent, training=True)
            loss = tf.reduce_mean(tf.square(rain_rate - y))
        grads = tape.gradient(loss, params)
        optimizer.apply_gradients(zip(grads, params))
    n_missing = sum(g is None for g in grads)
    print(f"epoch {epoch}: mse={float(loss):.4f}  None gradients: {n_missing}/{len(grads)}")
