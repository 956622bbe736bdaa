"""Fits a tiny phoneme-duration predictor for a text-to-speech front end together with a
global log speaking-rate offset; the gradient for the speaking-rate offset is None on
every step, so it stays at 0.0 while the rest of the model trains."""
# cause: not_trainable
# depth: main
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(11)
n_phonemes, batch, seq_len = 40, 16, 12
phoneme_ids = tf.constant(rng.integers(0, n_phonemes, size=(batch, seq_len)), tf.int32)
base_dur = rng.uniform(1.0, 3.0, size=n_phonemes).astype("float32")
# the recorded speaker talks ~25% slower than the reference voice
log_durations = tf.constant(np.log(base_dur[phoneme_ids.numpy()] * 1.25), tf.float32)

embedding = tf.keras.layers.Embedding(n_phonemes, 16)
context = tf.keras.layers.Conv1D(16, 3, padding="same", activation="relu")
to_duration = tf.keras.layers.Dense(1)
_ = to_duration(context(embedding(phoneme_ids)))  # build the layers

log_rate = tf.Variable(0.0, trainable=False, name="log_speaking_rate")  # <- expected

params = (embedding.trainable_variables + context.trainable_variables
          + to_duration.trainable_variables + [log_rate])


def duration_loss():
    h = context(embedding(phoneme_ids))
    pred = tf.squeeze(to_duration(h), -1) + log_rate
    return tf.reduce_mean(tf.square(pred - log_durations))


learning_rate = 0.05
for step in range(20):
    with tf.GradientTape() as tape:
        loss = duration_loss()
    grads = tape.gradient(loss, params)
    for v, g in zip(params, grads):
        if g is not None:
            v.assign_sub(learning_rate * tf.convert_to_tensor(g))
    if step % 5 == 0:
        print(f"step {step}: loss={float(loss):.4f}  log_rate={float(log_rate.numpy()):.4f}  "
              f"grad(log_rate)={grads[-1]}")


def computation():
    return duration_loss, params
