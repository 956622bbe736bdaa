"""Daily sales forecaster trained on the mean absolute percentage error. Days with zero sales are
left out of the percentage with tf.where, but the gradients that loss_and_grads returns are all NaN."""
# cause: nan_unsafe_where
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(6)

x = np.random.rand(10, 4).astype("float32")
sales = (50 * np.random.rand(10, 1)).astype("float32")
sales[[2, 7]] = 0.0  # shop closed

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])


@tf.function
def loss_and_grads(x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        ape = tf.where(y != 0, tf.abs((y - pred) / y), tf.zeros_like(y))  # <- expected
        loss = 100.0 * tf.reduce_mean(ape)
    grads = tape.gradient(loss, model.trainable_variables)
    return loss, grads


loss, grads = loss_and_grads(x, sales)
print("MAPE:", float(loss), "| grad norm:", float(tf.linalg.global_norm(grads)))


def computation():
    def mape(*variables):
        pred = model(x)
        return 100.0 * tf.reduce_mean(tf.where(sales != 0, tf.abs((sales - pred) / sales), tf.zeros_like(sales)))
    return mape, model.trainable_variables
