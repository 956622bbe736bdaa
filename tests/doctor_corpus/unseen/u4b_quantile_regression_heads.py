"""Multi-quantile regression (10th/50th/90th percentile heads on a shared trunk) with
a pinball loss.  The trunk and the first head train, but the gradients for the
median and upper-quantile heads are None."""
# cause: unused
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

TAUS = (0.1, 0.5, 0.9)

x = np.random.uniform(-2, 2, (256, 4)).astype(np.float32)
noise = np.random.standard_t(df=3, size=256) * (0.3 + 0.3 * np.abs(x[:, 0]))
y = (np.sin(x[:, 0]) + 0.5 * x[:, 1] + noise).astype(np.float32)[:, None]

inputs = keras.Input(shape=(4,))
h = keras.layers.Dense(32, activation="relu")(inputs)
h = keras.layers.Dense(32, activation="relu")(h)
outputs = [keras.layers.Dense(1, name=f"q{int(tau * 100)}")(h) for tau in TAUS]
model = keras.Model(inputs, outputs)


def pinball_loss(y_true, predictions, taus):
    total = 0.0
    for tau, pred in zip(taus, predictions):
        err = y_true - pred
        total += tf.reduce_mean(tf.maximum(tau * err, (tau - 1.0) * err))
        return total  # <- expected


optimizer = keras.optimizers.Adam(1e-2)
for epoch in range(3):
    with tf.GradientTape() as tape:
        preds = model(x, training=True)
        loss = pinball_loss(y, preds, TAUS)
    grads = tape.gradient(loss, model.trainable_variables)
    missing = [v.path for v, g in zip(model.trainable_variables, grads) if g is None]
    print(f"epoch {epoch} loss={float(loss):.4f} no gradient for: {missing}")
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


def computation():
    return (lambda: pinball_loss(y, model(x), TAUS)), list(model.trainable_variables)
