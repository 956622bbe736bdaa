"""House-price regressor with a custom train_step that uses the model's MeanAbsoluteError metric as the loss it
minimizes. model.fit stops with "No gradients provided for any variable"."""
# cause: stateful
# depth: fit
import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(4)
keras.utils.set_random_seed(4)

features = rng.normal(size=(256, 6)).astype("float32")
true_w = rng.normal(size=(6, 1)).astype("float32")
prices = (features @ true_w + 0.1 * rng.normal(size=(256, 1))).astype("float32")


class PriceRegressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(32, activation="relu")
        self.out = keras.layers.Dense(1)
        self.mae = keras.metrics.MeanAbsoluteError(name="mae")

    def call(self, x):
        return self.out(self.hidden(x))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            self.mae.update_state(y, y_pred)
            loss = self.mae.result()  # <- expected
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"mae": self.mae.result()}

    @property
    def metrics(self):
        return [self.mae]


model = PriceRegressor()
model.compile(optimizer=keras.optimizers.Adam(1e-2))
model.fit(features, prices, batch_size=64, epochs=2, verbose=2)
