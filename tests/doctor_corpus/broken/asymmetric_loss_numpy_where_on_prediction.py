"""Demand forecasting with an asymmetric loss (under-forecasts cost 3x); the gradients of the model are None."""
# cause: left_tensorflow
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(6)


def asymmetric_loss(y_true, y_pred):
    # under-forecasting (err > 0) is three times as expensive as over-forecasting
    err = y_true - y_pred.numpy()  # <- expected
    weights = np.where(err > 0, 3.0, 1.0).astype("float32")
    return tf.reduce_mean(weights * tf.square(err))


model = keras.Sequential([
    keras.Input((5,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-2)

features = np.random.rand(64, 5).astype("float32")
demand = (features.sum(axis=1, keepdims=True) * 10).astype("float32")

with tf.GradientTape() as tape:
    forecast = model(features, training=True)
    loss = asymmetric_loss(demand, forecast)
grads = tape.gradient(loss, model.trainable_variables)
for var, grad in zip(model.trainable_variables, grads):
    print(var.path, grad)


def computation():
    return (lambda *variables: asymmetric_loss(demand, model(features, training=True))), model.trainable_variables
