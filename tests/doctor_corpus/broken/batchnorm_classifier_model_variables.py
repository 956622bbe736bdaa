"""A small classifier with BatchNorm trained in a custom loop; the optimizer warns that two
variables get no gradient."""
# cause: wrong_variables
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
x = np.random.randn(64, 8).astype("float32")
y = (x[:, 0] + x[:, 1] > 0).astype("int32")

model = keras.Sequential([
    keras.Input(shape=(8,)),
    keras.layers.Dense(16),
    keras.layers.BatchNormalization(),
    keras.layers.ReLU(),
    keras.layers.Dense(2),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-2)


def computation():
    def compute(*params):
        return loss_fn(y, model(x, training=True))
    return compute, model.variables


for step in range(3):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = loss_fn(y, logits)
    grads = tape.gradient(loss, model.variables)  # <- expected
    optimizer.apply_gradients(zip(grads, model.variables))
    print(f"step {step}: loss {float(loss):.4f}")
