"""Differentiable harmonic synthesiser (DDSP style): an MLP maps f0/loudness frames to harmonic
amplitudes and is trained with a log-magnitude spectral loss in a tf.function train step; all its gradients are None."""
# cause: left_tensorflow
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(3)
rng = np.random.default_rng(3)

SR, HOP, N_FRAMES, N_HARM = 8000, 64, 32, 8
N_SAMPLES = HOP * N_FRAMES
FFT, FFT_HOP = 256, 128
window = np.hanning(FFT).astype(np.float32)

# control signals: f0 in Hz and loudness in [0, 1], one per frame
f0 = rng.uniform(110, 330, size=(4, 1, 1)) * np.ones((1, N_FRAMES, 1))
loudness = np.clip(rng.normal(0.6, 0.2, size=(4, N_FRAMES, 1)), 0, 1).astype("float32")
controls = np.concatenate([f0 / 500.0, loudness], axis=-1).astype("float32")
f0 = f0.astype("float32")


def render(harm_amps, f0_frames):
    """Additive synthesis: sum of harmonics with frame-wise amplitudes upsampled to audio rate."""
    amps = tf.repeat(harm_amps, HOP, axis=1)                        # (B, N_SAMPLES, N_HARM)
    f0_audio = tf.repeat(f0_frames, HOP, axis=1)                    # (B, N_SAMPLES, 1)
    harmonics = tf.range(1, N_HARM + 1, dtype=tf.float32)
    phase = 2 * np.pi * tf.cumsum(f0_audio * harmonics / SR, axis=1)
    return tf.reduce_sum(amps * tf.sin(phase), axis=-1)             # (B, N_SAMPLES)


# target audio from a "teacher" set of harmonic amplitudes
true_amps = (loudness * (0.5 ** np.arange(N_HARM))).astype("float32")   # (B, N_FRAMES, N_HARM)
target_audio = render(tf.constant(true_amps), f0)
target_frames = tf.signal.frame(target_audio, FFT, FFT_HOP)
target_mag = np.abs(np.fft.rfft(target_frames.numpy() * window, axis=-1)).astype(np.float32)

amp_net = keras.Sequential([
    keras.Input((N_FRAMES, 2)),
    layers.Dense(64, activation="relu"),
    layers.Dense(64, activation="relu"),
    layers.Dense(N_HARM, activation="softplus"),
])
optimizer = keras.optimizers.Adam(1e-3)


def stft_mag(frames):
    return np.abs(np.fft.rfft(frames * window, axis=-1)).astype(np.float32)


@tf.function
def train_step(controls, f0):
    with tf.GradientTape() as tape:
        audio = render(amp_net(controls, training=True), f0)
        frames = tf.signal.frame(audio, FFT, FFT_HOP)
        mag = tf.numpy_function(stft_mag, [frames], tf.float32)  # <- expected
        loss = tf.reduce_mean(tf.abs(tf.math.log(mag + 1e-5) - tf.math.log(target_mag + 1e-5)))
    grads = tape.gradient(loss, amp_net.trainable_variables)
    return loss, grads


for step in range(3):
    loss, grads = train_step(controls, f0)
    print(f"step {step}: spectral loss={float(loss):.4f}  grads={grads}")
    optimizer.apply_gradients(zip(grads, amp_net.trainable_variables))
