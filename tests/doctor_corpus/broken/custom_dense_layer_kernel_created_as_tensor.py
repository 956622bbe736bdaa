"""A hand-written Dense layer trained with an explicit parameter list; the gradient of every kernel is None."""
# cause: not_watched
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(13)


class MyDense(keras.layers.Layer):
    def __init__(self, units, activation=None, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.activation = keras.activations.get(activation)

    def build(self, input_shape):
        self.w = tf.random.normal((input_shape[-1], self.units), stddev=0.1)  # <- expected
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, x):
        return self.activation(tf.matmul(x, self.w) + self.b)


hidden = MyDense(8, activation="relu")
out = MyDense(1)


def forward(x):
    return out(hidden(x))


x = np.random.rand(32, 3).astype("float32")
y = (x[:, :1] - 2.0 * x[:, 1:2]).astype("float32")
forward(x)  # build the layers

params = [hidden.w, hidden.b, out.w, out.b]
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(forward(x) - y))
grads = tape.gradient(loss, params)
print("loss:", float(loss))
print([None if g is None else tuple(g.shape) for g in grads])


def computation():
    return (lambda w1, w2: tf.reduce_mean(tf.square(forward(x) - y))), [hidden.w, out.w]
