"""Trains a small spectral-mask network for speech enhancement (mask * noisy magnitude
should match the clean magnitude); tape.gradient returns None for every weight of the
mask network, so the printed gradients are all None and nothing trains."""
# cause: outside_tape
# depth: main
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(5)
frames, bins = 64, 33
clean_mag = np.abs(rng.normal(size=(frames, bins))).astype("float32")
noise_mag = 0.5 * np.abs(rng.normal(size=(frames, bins))).astype("float32")
noisy_mag = tf.constant(clean_mag + noise_mag)
clean_mag = tf.constant(clean_mag)

mask_net = tf.keras.Sequential([
    tf.keras.Input((bins,)),
    tf.keras.layers.Dense(64, activation="relu"),
    tf.keras.layers.Dense(bins, activation="sigmoid"),
])
optimizer = tf.keras.optimizers.Adam(1e-3)
log_noisy = tf.math.log1p(noisy_mag)

for epoch in range(3):
    mask = mask_net(log_noisy, training=True)  # <- expected
    with tf.GradientTape() as tape:
        enhanced = mask * noisy_mag
        loss = tf.reduce_mean(tf.abs(enhanced - clean_mag))
    grads = tape.gradient(loss, mask_net.trainable_variables)
    print(f"epoch {epoch}: L1={float(loss):.4f}  grads={[g if g is None else g.shape for g in grads]}")
    if all(g is None for g in grads):
        continue
    optimizer.apply_gradients(zip(grads, mask_net.trainable_variables))


def computation():
    mask = mask_net(log_noisy, training=True)

    def compute():
        enhanced = mask * noisy_mag
        return tf.reduce_mean(tf.abs(enhanced - clean_mag))

    return compute, mask_net.trainable_variables
