"""A classifier with a class-weighted loss in an overridden train_step; model.fit fails
inside tape.gradient because the target is None."""
# cause: no_target
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(43)
x = np.random.randn(64, 6).astype("float32")
y = np.random.choice(3, size=64, p=[0.7, 0.2, 0.1]).astype("int32")


class WeightedClassifier(keras.Model):
    def __init__(self, class_weights):
        super().__init__()
        self.class_weights = tf.constant(class_weights, dtype=tf.float32)
        self.hidden = keras.layers.Dense(16, activation="relu")
        self.out = keras.layers.Dense(3)

    def call(self, inputs):
        return self.out(self.hidden(inputs))

    def weighted_loss(self, y_true, logits):
        per_example = keras.losses.sparse_categorical_crossentropy(y_true, logits, from_logits=True)
        w = tf.gather(self.class_weights, y_true)
        loss = tf.reduce_sum(per_example * w) / tf.reduce_sum(w)  # <- expected

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            logits = self(x, training=True)
            loss = self.weighted_loss(y, logits)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}


model = WeightedClassifier([1.0, 3.0, 7.0])
model.compile(optimizer=keras.optimizers.Adam(1e-3))
model(x[:1])


def computation():
    return (lambda *params: model.weighted_loss(y, model(x))), model.trainable_variables


model.fit(x, y, batch_size=32, epochs=1, verbose=0)
