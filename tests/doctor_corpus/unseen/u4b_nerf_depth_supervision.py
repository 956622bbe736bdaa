"""Tiny NeRF-style volume renderer: a radiance-field MLP is queried along rays and a
renderer layer returns colour and depth; the geometry is first warmed up against
sparse lidar depths.  During warm-up every gradient of the field is None."""
# cause: not_differentiable
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

N_RAYS, N_SAMPLES, N_FREQ = 64, 32, 4


class PositionalEncoding(keras.layers.Layer):
    def call(self, pts):
        freqs = 2.0 ** tf.range(N_FREQ, dtype=tf.float32) * np.pi
        angles = pts[..., None] * freqs
        enc = tf.concat([tf.sin(angles), tf.cos(angles)], axis=-1)
        return tf.concat([pts, tf.reshape(enc, (-1, 3 * 2 * N_FREQ))], axis=-1)


class VolumeRenderer(keras.layers.Layer):
    def __init__(self, near=2.0, far=6.0, n_samples=N_SAMPLES, **kwargs):
        super().__init__(**kwargs)
        self.near, self.far, self.n_samples = near, far, n_samples
        self.field = keras.Sequential([
            PositionalEncoding(),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(4),
        ])

    def call(self, rays_o, rays_d):
        n_rays = tf.shape(rays_o)[0]
        z_vals = tf.broadcast_to(tf.linspace(self.near, self.far, self.n_samples),
                                 (n_rays, self.n_samples))
        pts = rays_o[:, None, :] + rays_d[:, None, :] * z_vals[..., None]
        raw = tf.reshape(self.field(tf.reshape(pts, (-1, 3))), (n_rays, self.n_samples, 4))
        rgb = tf.sigmoid(raw[..., :3])
        sigma = tf.nn.relu(raw[..., 3])
        delta = tf.concat([z_vals[:, 1:] - z_vals[:, :-1],
                           tf.fill((n_rays, 1), 1e10)], axis=-1)
        alpha = 1.0 - tf.exp(-sigma * delta)
        trans = tf.math.cumprod(1.0 - alpha + 1e-10, axis=-1, exclusive=True)
        weights = alpha * trans
        color = tf.reduce_sum(weights[..., None] * rgb, axis=1)
        depth = tf.gather(z_vals, tf.argmax(weights, axis=-1), batch_dims=1)  # <- expected
        return color, depth


def random_rays(n):
    origins = np.tile([[0.0, 0.0, -4.0]], (n, 1))
    dirs = np.random.randn(n, 3) * 0.15 + [0.0, 0.0, 1.0]
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    return origins.astype(np.float32), dirs.astype(np.float32)


rays_o, rays_d = random_rays(N_RAYS)
# lidar depth to a unit sphere at the origin
b = np.sum(rays_o * rays_d, axis=1)
c = np.sum(rays_o ** 2, axis=1) - 1.0
lidar_depth = tf.constant(-b - np.sqrt(np.maximum(b ** 2 - c, 0.0)), dtype=tf.float32)

renderer = VolumeRenderer()
optimizer = keras.optimizers.Adam(5e-4)

for step in range(3):
    with tf.GradientTape() as tape:
        _, depth = renderer(rays_o, rays_d)
        depth_loss = tf.reduce_mean(tf.abs(depth - lidar_depth))
    grads = tape.gradient(depth_loss, renderer.trainable_variables)
    print(f"step {step} depth loss={float(depth_loss):.4f} grads={grads}")
    optimizer.apply_gradients(zip(grads, renderer.trainable_variables))


def computation():
    def compute():
        _, depth = renderer(rays_o, rays_d)
        return tf.reduce_mean(tf.abs(depth - lidar_depth))

    return compute, list(renderer.trainable_variables)
