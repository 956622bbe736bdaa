"""Hourly electricity load forecasting with a small 1D-CNN, custom training loop.

I log MAPE and gradient norms with NumPy (one of them even inside the tape, because
that's where the predictions are). A colleague says converting to NumPy kills the
gradients, but my run looks normal to me. Is this loop actually training every layer, or
are some gradients silently missing?
"""
# cause: connected
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(31)
rng = np.random.RandomState(31)

hours = np.arange(24 * 20, dtype="float32")
load = 50 + 10 * np.sin(2 * np.pi * hours / 24) + rng.normal(0, 1.5, hours.shape)
load = load.astype("float32")
window, horizon = 48, 6
idx = np.arange(0, len(load) - window - horizon, 12)
x = np.stack([load[i:i + window] for i in idx])[..., None]
y = np.stack([load[i + window:i + window + horizon] for i in idx])
mu, sd = x.mean(), x.std()

model = keras.Sequential([
    keras.layers.Conv1D(8, 5, activation="relu"),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(horizon),
])
opt = keras.optimizers.Adam(1e-2)
history = []

for epoch in range(3):
    xb, yb = tf.constant((x - mu) / sd), tf.constant((y - mu) / sd)
    with tf.GradientTape() as tape:
        pred = model(xb, training=True)
        loss = tf.reduce_mean(tf.square(pred - yb))
        mape = np.mean(np.abs((pred.numpy() * sd + mu) - y) / y) * 100.0  # logging only
    grads = tape.gradient(loss, model.trainable_variables)
    grad_norms = [float(np.linalg.norm(g.numpy())) for g in grads]
    history.append((float(loss), mape))
    print(f"epoch {epoch} mse {float(loss):.4f} mape {mape:.1f}% grad norms {np.round(grad_norms, 3)}")
    print("  all finite:", all(bool(tf.reduce_all(tf.math.is_finite(g))) for g in grads))
    opt.apply_gradients(zip(grads, model.trainable_variables))
