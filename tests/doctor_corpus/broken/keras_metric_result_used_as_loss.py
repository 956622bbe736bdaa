"""A regression trainer class using Keras' MeanSquaredError in its loss; apply_gradients
fails with "No gradients provided for any variable"."""
# cause: stateful
# depth: method
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(23)
x = np.random.randn(64, 3).astype("float32")
y = (x @ np.array([[1.0], [-2.0], [0.5]], dtype="float32")) + 0.3


class RegressionTrainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optimizer = keras.optimizers.Adam(lr)
        self.mse = keras.metrics.MeanSquaredError()

    def compute_loss(self, xb, yb):
        self.mse.reset_state()
        self.mse.update_state(yb, self.model(xb, training=True))
        return self.mse.result()  # <- expected

    def train_step(self, xb, yb):
        with tf.GradientTape() as tape:
            loss = self.compute_loss(xb, yb)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


model = keras.Sequential([
    keras.Input((3,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)
])
trainer = RegressionTrainer(model)


def computation():
    return (lambda *params: trainer.compute_loss(x, y)), model.trainable_variables


dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
for epoch in range(2):
    for xb, yb in dataset:
        loss = trainer.train_step(xb, yb)
    print("epoch", epoch, "mse", float(loss))
