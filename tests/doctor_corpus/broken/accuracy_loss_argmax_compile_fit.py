"""Optimizing accuracy directly: a custom loss passed to model.compile; model.fit fails with
"No gradients provided for any variable"."""
# cause: not_differentiable
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(8)
x = np.random.randn(96, 5).astype("float32")
y = (x[:, 0] > x[:, 1]).astype("int32") + (x[:, 2] > 1.0).astype("int32")


def accuracy_loss(y_true, y_pred):
    """1 - accuracy, so that minimizing it maximizes the accuracy."""
    y_true = tf.cast(tf.reshape(y_true, [-1]), tf.int64)
    predicted = tf.argmax(y_pred, axis=-1)  # <- expected
    correct = tf.cast(tf.equal(predicted, y_true), tf.float32)
    return 1.0 - tf.reduce_mean(correct)


model = keras.Sequential([
    keras.Input(shape=(5,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(3, activation="softmax"),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=accuracy_loss, metrics=["accuracy"])


def computation():
    return (lambda *params: accuracy_loss(y, model(x))), model.trainable_variables


model.fit(x, y, batch_size=32, epochs=1, verbose=0)
print(model.evaluate(x, y, verbose=0))
