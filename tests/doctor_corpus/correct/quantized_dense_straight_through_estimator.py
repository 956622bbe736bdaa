"""Quantization-aware training of a small classifier: a custom Dense layer rounds its weights to a
4-bit grid in the forward pass and passes the gradient straight through to the float weights."""
# cause: connected
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(25)


class QuantDense(keras.layers.Layer):
    def __init__(self, units, bits=4, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.levels = 2 ** (bits - 1) - 1

    def build(self, input_shape):
        self.kernel = self.add_weight(name="kernel", shape=(input_shape[-1], self.units), initializer="glorot_uniform")
        self.bias = self.add_weight(name="bias", shape=(self.units,), initializer="zeros")

    def call(self, x):
        scale = tf.stop_gradient(tf.reduce_max(tf.abs(self.kernel))) / self.levels
        w = self.kernel / scale
        w_q = w + tf.stop_gradient(tf.round(w) - w)  # straight-through estimator
        return tf.matmul(x, w_q * scale) + self.bias


model = keras.Sequential([keras.Input((6,)), QuantDense(8), keras.layers.ReLU(), QuantDense(3)])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-2)
x = tf.random.normal((16, 6))
y = tf.random.uniform((16,), 0, 3, dtype=tf.int32)

for step in range(2):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("loss:", float(loss))


def computation():
    return (lambda *variables: loss_fn(y, model(x))), model.trainable_variables
