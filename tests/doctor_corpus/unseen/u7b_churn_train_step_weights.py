"""Churn model with a custom train_step (I want to add a fairness penalty later).

With the built-in fit everything was fine. Since I override train_step, Keras prints
"Gradients do not exist for variables [...moving_mean, ...moving_variance]" and my debug
print inside train_step shows two None entries in the gradient list. The loss is computed
inside the tape and I pass every weight of the model, so how can some have no gradient?
"""
# cause: wrong_variables
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(2)
rng = np.random.RandomState(2)

# tenure, monthly charges, n_support_calls, contract_months, has_fiber
x = rng.normal(size=(96, 5)).astype("float32")
y = (x[:, 2] - x[:, 0] + 0.3 * rng.normal(size=96) > 0).astype("float32")[:, None]


class ChurnModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(16, activation="relu")
        self.norm = keras.layers.BatchNormalization()
        self.out = keras.layers.Dense(1)
        self.loss_tracker = keras.metrics.Mean(name="loss")

    def call(self, inputs, training=False):
        return self.out(self.norm(self.hidden(inputs), training=training))

    def train_step(self, data):
        features, labels = data
        with tf.GradientTape() as tape:
            logits = self(features, training=True)
            loss = self.compute_loss(x=features, y=labels, y_pred=logits)
        params = self.weights  # <- expected
        grads = tape.gradient(loss, params)
        print("None grads:", [p.path for p, g in zip(params, grads) if g is None])
        self.optimizer.apply_gradients(zip(grads, params))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}


model = ChurnModel()
model.compile(optimizer=keras.optimizers.Adam(1e-2),
              loss=keras.losses.BinaryCrossentropy(from_logits=True))
model.fit(x, y, batch_size=32, epochs=1, verbose=2)
