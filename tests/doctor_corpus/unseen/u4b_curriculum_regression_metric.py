"""Curriculum learning for a noisy regression task: examples are ranked by a
difficulty score and the training pool grows from easy to hard over stages, with a
tf.function train step.  The first step fails: no gradients for any variable."""
# cause: stateful
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

n = 512
x = np.random.randn(n, 8).astype(np.float32)
difficulty = np.random.uniform(0, 1, n).astype(np.float32)
y = (x @ np.random.randn(8, 1) + np.sin(3 * x[:, :1])
     + difficulty[:, None] * np.random.randn(n, 1) * 2.0).astype(np.float32)
order = np.argsort(difficulty)
x, y = x[order], y[order]

model = keras.Sequential([
    keras.Input(shape=(8,)),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)
mse = keras.metrics.MeanSquaredError()


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        pred = model(xb, training=True)
        loss = mse(yb, pred)  # <- expected
    grads = tape.gradient(loss, model.trainable_variables)
    print("traced grads:", grads)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for stage, frac in enumerate([0.25, 0.5, 1.0]):
    pool = int(frac * n)
    ds = tf.data.Dataset.from_tensor_slices((x[:pool], y[:pool])).shuffle(pool, seed=stage).batch(64)
    for xb, yb in ds:
        loss = train_step(xb, yb)
    print(f"stage {stage} (pool={pool}) loss={float(loss):.4f}")


def computation():
    xb, yb = tf.constant(x[:64]), tf.constant(y[:64])
    return (lambda: mse(yb, model(xb, training=True))), list(model.trainable_variables)
