"""A ResNet-style block with BatchNormalization trained eagerly; some of the gradients come back
None, and they all belong to the BatchNormalization layers although those are trainable."""
# cause: wrong_variables
# depth: main
# thread: tensorflow/tensorflow#26404
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(0)
x = np.random.rand(4, 8, 8, 3).astype("float32")
label = np.random.rand(4, 5).astype("float32")

inputs = keras.Input(shape=(8, 8, 3))
h = layers.Conv2D(4, 3, padding="same")(inputs)
h = layers.BatchNormalization()(h)
h = layers.Activation("relu")(h)
shortcut = layers.Conv2D(4, 1)(inputs)
h = layers.Add()([h, shortcut])
h = layers.GlobalAveragePooling2D()(h)
outputs = layers.Dense(5)(h)
model = keras.Model(inputs, outputs)
optimizer = keras.optimizers.SGD(0.01)


def compute_loss(prediction, label, operation='L2'):
    return tf.reduce_mean(tf.square(prediction - label))


def computation():
    return (lambda *params: compute_loss(model(x, training=True), label)), model.variables


with tf.GradientTape() as tape:
    prediction = model(x, training=True)
    var_list = tape.watched_variables()
    loss = compute_loss(prediction, label, operation='L2')
grads = tape.gradient(loss, model.variables)  # <- expected
optimizer.apply_gradients(zip(grads, model.variables))
