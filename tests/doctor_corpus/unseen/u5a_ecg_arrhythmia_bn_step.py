"""Trains a 1-D CNN with batch normalisation to flag arrhythmic ECG beats using a hand-written,
compiled training step; Keras warns that gradients do not exist for some variables on every step."""
# cause: wrong_variables
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(41)
rng = np.random.default_rng(41)

N, T = 96, 180  # beats of 180 samples (0.5 s at 360 Hz)
t = np.linspace(0, 1, T, dtype="float32")
beats = np.exp(-((t - 0.5) ** 2) / 0.002)[None, :] * rng.uniform(0.8, 1.2, size=(N, 1))
labels = (rng.random(N) < 0.3).astype("int32")
beats[labels == 1] += 0.4 * np.sin(40 * t)[None, :]
beats = (beats + 0.05 * rng.normal(size=(N, T))).astype("float32")[..., None]

model = keras.Sequential([
    keras.Input((T, 1)),
    keras.layers.Conv1D(16, 7, padding="same"),
    keras.layers.BatchNormalization(),
    keras.layers.ReLU(),
    keras.layers.MaxPooling1D(3),
    keras.layers.Conv1D(32, 5, padding="same"),
    keras.layers.BatchNormalization(),
    keras.layers.ReLU(),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(2),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
opt = keras.optimizers.Adam(1e-3)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = loss_fn(y, logits)
    grads = tape.gradient(loss, model.variables)  # <- expected
    opt.apply_gradients(zip(grads, model.variables))  # <- expected
    return loss, grads


for epoch in range(2):
    loss, grads = train_step(beats, labels)
    missing = [v.path for v, g in zip(model.variables, grads) if g is None]
    print(epoch, float(loss), "no gradient for:", missing)


def computation():
    def compute():
        return loss_fn(labels, model(beats, training=True))

    return compute, model.variables
