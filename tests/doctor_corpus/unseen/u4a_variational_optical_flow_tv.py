"""Classical variational optical flow (Horn-Schunck data term with a total-variation regulariser):
a dense flow field initialised at zero is optimised with Adam, and after the first step the energy and the flow are NaN."""
# cause: nan_at_zero
# depth: method
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(17)
H = W = 32

# smooth random texture, second frame shifted by one pixel in x and y
noise = rng.normal(size=(H + 8, W + 8))
kernel = np.outer(np.hanning(7), np.hanning(7))
texture = np.array([[np.sum(noise[i:i + 7, j:j + 7] * kernel) for j in range(W + 1)] for i in range(H + 1)])
frame0 = tf.constant(texture[:H, :W], dtype=tf.float32)
frame1 = tf.constant(texture[1:H + 1, 1:W + 1], dtype=tf.float32)


class VariationalFlow(tf.Module):
    def __init__(self, frame0, frame1, smoothness_weight=0.05):
        super().__init__()
        self.smoothness_weight = smoothness_weight
        self.flow = tf.Variable(tf.zeros((H, W, 2)), name="flow")      # (u, v) per pixel
        mean_frame = 0.5 * (frame0 + frame1)
        self.Ix = (tf.roll(mean_frame, -1, axis=1) - tf.roll(mean_frame, 1, axis=1)) / 2.0
        self.Iy = (tf.roll(mean_frame, -1, axis=0) - tf.roll(mean_frame, 1, axis=0)) / 2.0
        self.It = frame1 - frame0

    def data_term(self):
        u, v = self.flow[..., 0], self.flow[..., 1]
        return tf.reduce_mean(tf.square(self.Ix * u + self.Iy * v + self.It))

    def smoothness(self):
        d_dx = self.flow[:, 1:, :] - self.flow[:, :-1, :]
        d_dy = self.flow[1:, :, :] - self.flow[:-1, :, :]
        return tf.reduce_mean(tf.norm(d_dx, axis=-1)) + tf.reduce_mean(tf.norm(d_dy, axis=-1))  # <- expected

    def energy(self):
        return self.data_term() + self.smoothness_weight * self.smoothness()


estimator = VariationalFlow(frame0, frame1)
optimizer = keras.optimizers.Adam(0.1)
for it in range(5):
    with tf.GradientTape() as tape:
        energy = estimator.energy()
    grad = tape.gradient(energy, estimator.flow)
    optimizer.apply_gradients([(grad, estimator.flow)])
    mean_flow = tf.reduce_mean(estimator.flow, axis=[0, 1]).numpy()
    print(f"iter {it}: energy={float(energy):.4f}  mean flow (u, v)={mean_flow}")


def computation():
    fresh = VariationalFlow(frame0, frame1)
    return fresh.energy, [fresh.flow]
