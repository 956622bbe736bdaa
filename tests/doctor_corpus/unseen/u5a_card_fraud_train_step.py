"""Trains a card-transaction fraud classifier (5% positives) with a compiled custom training step that
also tracks AUC; `apply_gradients` raised "No gradients provided", and printing them shows every gradient is None."""
# cause: stateful
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(31)
rng = np.random.default_rng(31)

N, F = 512, 20
X = rng.normal(size=(N, F)).astype("float32")
y = (rng.random((N, 1)) < 0.05).astype("float32")
X[y[:, 0] == 1, :3] += 1.5  # fraudulent transactions look a bit different

model = keras.Sequential([
    keras.Input((F,)),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
opt = keras.optimizers.Adam(1e-3)
bce = keras.metrics.BinaryCrossentropy()
auc = keras.metrics.AUC()
dataset = tf.data.Dataset.from_tensor_slices((X, y)).shuffle(N, seed=31).batch(128)


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        p = model(xb, training=True)
        bce.update_state(yb, p)  # <- expected
        loss = bce.result()  # <- expected
    grads = tape.gradient(loss, model.trainable_variables)
    auc.update_state(yb, p)
    return loss, grads


for xb, yb in dataset.take(2):
    loss, grads = train_step(xb, yb)
    print("loss", float(loss), "auc", float(auc.result()), "grads", [g is None for g in grads])


def computation():
    def compute():
        p = model(X, training=True)
        bce.update_state(y, p)
        return bce.result()

    return compute, model.trainable_variables
