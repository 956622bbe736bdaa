"""A subclassed model of four Dense layers trained in a custom loop, the layers applied one after
the other in call."""
# cause: connected
# depth: layer
# thread: tensorflow/tensorflow#36880
import tensorflow as tf
import keras

tf.random.set_seed(0)
x = tf.random.normal((16, 4))
y = tf.random.normal((16, 1))


class MyModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.linear1 = keras.layers.Dense(8, activation="relu")
        self.linear2 = keras.layers.Dense(8, activation="relu")
        self.linear3 = keras.layers.Dense(8, activation="relu")
        self.linear4 = keras.layers.Dense(1)

    def call(self, x):
        output = self.linear1(x)
        output = self.linear2(output)
        output = self.linear3(output)
        output = self.linear4(output)
        return output


model = MyModel()
model(x)
loss_fn = keras.losses.MeanSquaredError()
optimizer = keras.optimizers.Adam(0.01)


def computation():
    return (lambda *params: loss_fn(y, model(x))), model.trainable_variables


with tf.GradientTape() as tape:
    loss = loss_fn(y, model(x))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
