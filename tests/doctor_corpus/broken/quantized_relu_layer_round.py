"""A small MLP with a 4-bit quantized activation layer; only the last Dense layer gets
gradients, the first one's are None."""
# cause: not_differentiable
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(4)


class QuantizedReLU(keras.layers.Layer):
    def __init__(self, bits=4, max_value=4.0, **kwargs):
        super().__init__(**kwargs)
        self.levels = 2.0 ** bits - 1.0
        self.max_value = max_value

    def call(self, x):
        x = tf.clip_by_value(x, 0.0, self.max_value) / self.max_value
        return tf.round(x * self.levels) / self.levels * self.max_value  # <- expected


model = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(12),
    QuantizedReLU(bits=4),
    keras.layers.Dense(1),
])
x = tf.random.normal((64, 6))
y = tf.reduce_sum(x[:, :3], axis=1, keepdims=True)
optimizer = keras.optimizers.SGD(0.01)


def computation():
    first = model.layers[0].trainable_variables
    return (lambda *params: tf.reduce_mean(tf.square(model(x) - y))), first


for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(step, float(loss), [g is None for g in grads])
