"""A keras.Model subclass with its own train_step; model.fit stops with "No gradients provided for any variable"."""
# cause: outside_tape
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(4)


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.out = keras.layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="loss")

    def call(self, x, training=False):
        return self.out(self.hidden(x))

    def train_step(self, data):
        x, y = data
        y_pred = self(x, training=True)  # <- expected
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(keras.losses.mean_squared_error(y, y_pred))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}

    @property
    def metrics(self):
        return [self.loss_tracker]


x = np.random.rand(32, 3).astype("float32")
y = x.sum(axis=1, keepdims=True)

model = Regressor()
model.compile(optimizer="adam")
history = model.fit(x, y, epochs=1, batch_size=16, verbose=0)
print(history.history["loss"])
