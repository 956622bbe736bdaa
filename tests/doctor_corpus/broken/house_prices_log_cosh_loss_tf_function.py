"""House price regression (prices in thousands of dollars) with the log-cosh loss written by hand
as a tf.function. The loss is inf and the gradients are NaN from the first batch."""
# cause: nan_overflow
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(12)

n = 16
rooms = np.random.randint(1, 6, n)
area = np.random.uniform(40, 200, n)
X = np.stack([rooms, area / 100.0], axis=1).astype("float32")
prices = (50 + 1.8 * area + 20 * rooms).astype("float32")[:, None]  # 150 to 500

model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])


@tf.function
def log_cosh(y_true, y_pred):
    return tf.reduce_mean(tf.math.log(tf.cosh(y_pred - y_true)))  # <- expected


with tf.GradientTape() as tape:
    loss = log_cosh(prices, model(X, training=True))
grads = tape.gradient(loss, model.trainable_variables)
print("loss:", float(loss), "| grad norm:", float(tf.linalg.global_norm(grads)))


def computation():
    return (lambda *variables: log_cosh(prices, model(X))), model.trainable_variables
