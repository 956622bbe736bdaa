"""An MLP with a GELU activation layer written in NumPy; the first Dense layer's gradients are None."""
# cause: left_tensorflow
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(9)


def gelu_np(x):
    return (0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))).astype(np.float32)


class NumpyGELU(keras.layers.Layer):
    def call(self, x):
        y = tf.numpy_function(gelu_np, [x], tf.float32)  # <- expected
        y.set_shape(x.shape)
        return y


model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(8),
    NumpyGELU(),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-2)
loss_fn = keras.losses.MeanSquaredError()

x = tf.random.normal((32, 4))
y = tf.reduce_sum(x, axis=1, keepdims=True)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss, grads


loss, grads = train_step(x, y)
print([None if g is None else tuple(g.shape) for g in grads])


def computation():
    return (lambda *variables: loss_fn(y, model(x, training=True))), model.trainable_variables[:2]
