"""Two-head model (age regression and gender classification) trained with a custom loop;
Keras warns the gender head's kernel and bias have no gradients."""
# cause: unused
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(11)
features = np.random.randn(48, 10).astype("float32")
age = np.random.uniform(18, 70, size=(48, 1)).astype("float32") / 100.0
gender = np.random.randint(0, 2, size=(48, 1)).astype("float32")

inputs = keras.Input(shape=(10,))
h = keras.layers.Dense(16, activation="relu")(inputs)
h = keras.layers.Dense(8, activation="relu")(h)
age_out = keras.layers.Dense(1, name="age")(h)
gender_out = keras.layers.Dense(1, activation="sigmoid", name="gender")(h)
model = keras.Model(inputs, [age_out, gender_out])

mse = keras.losses.MeanSquaredError()
bce = keras.losses.BinaryCrossentropy()
optimizer = keras.optimizers.Adam(1e-3)
alpha = 0.5  # weight of the gender task


def total_loss(x):
    age_pred, gender_pred = model(x, training=True)
    age_loss = mse(age, age_pred)
    gender_loss = bce(gender, gender_pred)
    return age_loss + alpha * age_loss  # <- expected


def computation():
    return (lambda *params: total_loss(features)), model.trainable_variables


for step in range(2):
    with tf.GradientTape() as tape:
        loss = total_loss(features)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(step, float(loss))
