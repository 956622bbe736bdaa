"""A Trainer class for a small regression MLP; every gradient its compute_gradients method returns is None."""
# cause: outside_tape
# depth: method
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(3)


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.loss_fn = keras.losses.MeanSquaredError()
        self.optimizer = keras.optimizers.SGD(lr)

    def compute_gradients(self, x, y):
        with tf.GradientTape() as tape:
            y_pred = self.model(x, training=True)
        grads = tape.gradient(self.loss_fn(y, y_pred), self.model.trainable_variables)  # <- expected
        return grads

    def apply(self, grads):
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))


model = keras.Sequential([
    keras.Input((3,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
trainer = Trainer(model)

x = np.random.rand(32, 3).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")).astype("float32")

grads = trainer.compute_gradients(x, y)
print(grads)


def computation():
    y_pred = model(x, training=True)
    return (lambda *variables: trainer.loss_fn(y, y_pred)), model.trainable_variables
