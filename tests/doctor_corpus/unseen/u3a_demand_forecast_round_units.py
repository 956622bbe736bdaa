"""Forecasts daily unit sales from the previous 7 days with a small MLP; predictions are rounded to whole units
because you cannot sell half an item. The compiled train step returns None for every gradient."""
# cause: not_differentiable
# depth: tf.function
import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(2)
keras.utils.set_random_seed(2)

lookback = 7
series = 20 + 5 * np.sin(np.arange(200) / 7.0) + rng.normal(0, 1, 200)
windows = np.stack([series[i:i + lookback] for i in range(150)]).astype("float32")
targets = np.round(series[lookback:lookback + 150]).astype("float32")[:, None]

model = keras.Sequential([
    keras.Input((lookback,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-2)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        units = tf.round(model(x, training=True))  # <- expected
        loss = tf.reduce_mean(tf.abs(units - y))
    grads = tape.gradient(loss, model.trainable_variables)
    return loss, grads


x_train = tf.constant(windows)
y_train = tf.constant(targets)
for epoch in range(3):
    loss, grads = train_step(x_train, y_train)
    print(f"epoch {epoch}: MAE {loss.numpy():.3f}, grads None: {[g is None for g in grads]}")
    pairs = [(g, v) for g, v in zip(grads, model.trainable_variables) if g is not None]
    if pairs:
        optimizer.apply_gradients(pairs)


def computation():
    def compute():
        units = tf.round(model(x_train, training=True))
        return tf.reduce_mean(tf.abs(units - y_train))
    return compute, list(model.trainable_variables)
