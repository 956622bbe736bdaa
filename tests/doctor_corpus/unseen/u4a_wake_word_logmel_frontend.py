"""Wake-word detector on zero-padded clips with a trainable log-mel frontend layer (log floor for silent
frames) and a small CNN; the asker worries the silent padding could give NaN gradients in the filterbank."""
# cause: connected
# depth: layer
import numpy as np
import tensorflow as tf
import keras
from keras import layers

SR, CLIP = 8000, 8000
N_FFT, HOP, N_MELS = 256, 128, 24
rng = np.random.default_rng(43)

# fake clips: the wake word is a rising two-tone chirp, negatives are single tones; zero padded to 1 s
n_clips = 32
is_wake = rng.integers(0, 2, size=n_clips).astype("float32")
clips = np.zeros((n_clips, CLIP), dtype="float32")
for i in range(n_clips):
    n = rng.integers(2500, 6500)
    t = np.arange(n) / SR
    if is_wake[i]:
        wave = np.sin(2 * np.pi * (500 + 600 * t) * t) + 0.5 * np.sin(2 * np.pi * (1200 + 600 * t) * t)
    else:
        wave = np.sin(2 * np.pi * rng.uniform(300, 2000) * t)
    clips[i, :n] = wave * np.hanning(n) + 0.01 * rng.normal(size=n)


class TrainableLogMel(layers.Layer):
    def __init__(self, n_mels, log_floor=-10.0, **kwargs):
        super().__init__(**kwargs)
        self.n_mels = n_mels
        self.log_floor = log_floor

    def build(self, input_shape):
        mel_init = tf.signal.linear_to_mel_weight_matrix(self.n_mels, N_FFT // 2 + 1, SR, 20.0, SR / 2)
        self.filterbank = self.add_weight(shape=mel_init.shape, name="filterbank",
                                          initializer=keras.initializers.Constant(mel_init.numpy()))

    def call(self, waveform):
        spec = tf.signal.stft(waveform, frame_length=N_FFT, frame_step=HOP)
        power = tf.square(tf.abs(spec))
        mel = tf.matmul(power, self.filterbank)
        has_energy = mel > 0.0
        safe_mel = tf.where(has_energy, mel, tf.ones_like(mel))
        log_mel = tf.where(has_energy, tf.math.log(safe_mel), self.log_floor)
        return log_mel[..., None]


def build_model():
    keras.utils.set_random_seed(43)
    return keras.Sequential([
        keras.Input((CLIP,)),
        TrainableLogMel(N_MELS),
        layers.Conv2D(16, 3, activation="relu"),
        layers.GlobalMaxPooling2D(),
        layers.Dense(1),
    ])


model = build_model()
optimizer = keras.optimizers.Adam(1e-3)
loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)

for step in range(3):
    with tf.GradientTape() as tape:
        logits = tf.squeeze(model(clips, training=True), axis=-1)
        loss = loss_fn(is_wake, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    nan_grads = [v.path for g, v in zip(grads, model.trainable_variables) if tf.reduce_any(tf.math.is_nan(g))]
    print(f"step {step}: loss={float(loss):.4f}  NaN gradients for {nan_grads}")


def computation():
    fresh = build_model()
    return (lambda: loss_fn(is_wake, tf.squeeze(fresh(clips), axis=-1))), fresh.trainable_variables
