"""A softmax classifier on raw pixel intensities (0 to 255) trained with model.fit and a
hand-written categorical cross-entropy that adds an epsilon inside the log."""
# cause: connected
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(41)


def categorical_crossentropy(y_true, y_pred):
    return -tf.reduce_sum(y_true * tf.math.log(y_pred + 1e-7), axis=-1)


x = np.random.randint(0, 256, (24, 16)).astype("float32")  # 4x4 grey images, not rescaled
y = keras.utils.to_categorical(np.random.randint(0, 3, 24), 3)

model = keras.Sequential([
    keras.Input((16,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(3, activation="softmax"),
])
model.compile(optimizer=keras.optimizers.SGD(1e-4), loss=categorical_crossentropy)
history = model.fit(x, y, batch_size=8, epochs=1, verbose=0)
print("loss:", history.history["loss"][-1])


def computation():
    return (lambda *variables: tf.reduce_mean(categorical_crossentropy(y, model(x)))), model.trainable_variables
