"""A one-weight custom layer y = var * x trained with model.fit; training always raises "No
gradients provided for any variable"."""
# cause: integer_dtype
# depth: layer
# thread: keras-team/keras#20058
import keras
import tensorflow as tf
import numpy as np

variable_dtype = tf.int32


class BugTestLayer(keras.layers.Layer):
    # Layer is just y = self.var * x
    def build(self, input_shape):
        self.var = self.add_variable(
            (1,), initializer="zeros", dtype=variable_dtype)  # <- expected

    def call(self, input):
        return input * self.var


input_layer = keras.Input((1,), dtype=tf.int32)
test_layer = BugTestLayer()

output = test_layer(input_layer)
model = keras.Model(inputs=[input_layer], outputs=[output])

values = np.array([[i] for i in range(8)])

model.compile(
    loss=[keras.losses.MeanSquaredError()],
    optimizer=keras.optimizers.RMSprop(),
    metrics=[keras.metrics.MeanSquaredError()],
)


def computation():
    return (lambda *params: keras.losses.MeanSquaredError()(values, model([values]))), [test_layer.var]


history = model.fit(values, values, batch_size=4, epochs=1, verbose=0)
