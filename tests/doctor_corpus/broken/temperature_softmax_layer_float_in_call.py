"""A classifier with a learnable softmax temperature; the temperature's gradient is None and it never moves."""
# cause: left_tensorflow
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(8)


class TemperatureSoftmax(keras.layers.Layer):
    def build(self, input_shape):
        # parametrise log(T) so that T stays positive
        self.log_temperature = self.add_weight(shape=(), initializer="zeros", name="log_temperature")

    def call(self, logits):
        temperature = float(tf.exp(self.log_temperature))  # <- expected
        return tf.nn.softmax(logits / temperature, axis=-1)


class Classifier(keras.Model):
    def __init__(self, n_classes):
        super().__init__()
        self.hidden = keras.layers.Dense(8, activation="relu")
        self.logits = keras.layers.Dense(n_classes)
        self.softmax = TemperatureSoftmax()

    def call(self, x):
        return self.softmax(self.logits(self.hidden(x)))


model = Classifier(3)
loss_fn = keras.losses.SparseCategoricalCrossentropy()
x = np.random.randn(16, 6).astype("float32")
y = np.random.randint(0, 3, size=16)

with tf.GradientTape() as tape:
    loss = loss_fn(y, model(x))
grads = tape.gradient(loss, model.trainable_variables)
for var, grad in zip(model.trainable_variables, grads):
    print(var.path, None if grad is None else grad.shape)


def computation():
    return (lambda log_t: loss_fn(y, model(x))), [model.softmax.log_temperature]
