"""Keyword spotting on zero-padded 1-second clips with a learnable log-mel frontend layer followed by a
small CNN; the first gradient step turns the filterbank weights (and then every prediction) into NaN."""
# cause: nan_unsafe_where
# depth: layer
import numpy as np
import tensorflow as tf
import keras
from keras import layers

SR, CLIP = 8000, 8000
N_FFT, HOP, N_MELS, N_KEYWORDS = 256, 128, 20, 4
rng = np.random.default_rng(41)

# fake utterances: short chirps of different base pitch per keyword, padded with zeros to 1 s
n_clips = 32
labels = rng.integers(0, N_KEYWORDS, size=n_clips).astype("int32")
clips = np.zeros((n_clips, CLIP), dtype="float32")
for i, k in enumerate(labels):
    n = rng.integers(3000, 6000)
    t = np.arange(n) / SR
    f = 300 + 250 * k + 400 * t
    clips[i, :n] = np.sin(2 * np.pi * f * t) * np.hanning(n) + 0.01 * rng.normal(size=n)


class LearnableLogMel(layers.Layer):
    """STFT power -> trainable mel filterbank -> log compression."""

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
        log_mel = tf.where(mel > 0.0, tf.math.log(mel), self.log_floor)  # <- expected
        return log_mel[..., None]


def build_model():
    keras.utils.set_random_seed(41)
    return keras.Sequential([
        keras.Input((CLIP,)),
        LearnableLogMel(N_MELS),
        layers.Conv2D(16, 3, activation="relu"),
        layers.GlobalAveragePooling2D(),
        layers.Dense(N_KEYWORDS),
    ])


model = build_model()
optimizer = keras.optimizers.Adam(1e-3)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

for step in range(3):
    with tf.GradientTape() as tape:
        logits = model(clips, training=True)
        loss = loss_fn(labels, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    nan_grads = [v.path for g, v in zip(grads, model.trainable_variables) if tf.reduce_any(tf.math.is_nan(g))]
    print(f"step {step}: loss={float(loss):.4f}  NaN gradients for {nan_grads}")


def computation():
    fresh = build_model()
    return (lambda: loss_fn(labels, fresh(clips))), fresh.trainable_variables
