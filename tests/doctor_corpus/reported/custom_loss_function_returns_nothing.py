"""A custom loop with a custom loss function; tape.gradient(loss, model.trainable_variables) fails
with a TypeError about converting None."""
# cause: no_target
# depth: helper
# thread: tensorflow/tensorflow#42386
import tensorflow as tf
import keras

tf.random.set_seed(0)
x = tf.random.normal((8, 3))
y = tf.random.normal((8, 1))
model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.01)


def get_loss(y_true, y_pred):
    pass  # <- expected


def computation():
    return (lambda *params: get_loss(y, model(x))), model.trainable_variables


with tf.GradientTape() as tape:
    loss = get_loss(y, model(x))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
