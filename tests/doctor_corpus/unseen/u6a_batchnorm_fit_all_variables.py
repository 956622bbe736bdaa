"""Protein solubility regressor with a custom train_step, trained with model.fit.

I override train_step so I can log which variables get gradients. With the
BatchNormalization layer in the model, several gradients print as None and Keras
warns "Gradients do not exist for variables ... when minimizing the loss".
"""
# cause: wrong_variables
# depth: fit
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(11)
n, n_feats = 512, 10
features = rng.normal(size=(n, n_feats)).astype("float32")
true_w = rng.normal(size=(n_feats, 1)).astype("float32")
solubility = (np.tanh(features @ true_w) + 0.05 * rng.normal(size=(n, 1))).astype("float32")


class SolubilityNet(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(32, activation="relu")
        self.norm = keras.layers.BatchNormalization()
        self.out = keras.layers.Dense(1)

    def call(self, x, training=False):
        return self.out(self.norm(self.hidden(x), training=training))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        params = self.variables  # <- expected
        grads = tape.gradient(loss, params)
        print("no gradient for:", [v.path for v, g in zip(params, grads) if g is None])
        self.optimizer.apply_gradients(zip(grads, params))
        for metric in self.metrics:
            if metric.name == "loss":
                metric.update_state(loss)
            else:
                metric.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


keras.utils.set_random_seed(11)
model = SolubilityNet()
model.compile(optimizer=keras.optimizers.Adam(1e-2), loss="mse")
history = model.fit(features, solubility, epochs=3, batch_size=64, verbose=0)
print("loss per epoch:", np.round(history.history["loss"], 4))
