"""Fast gradient sign method: perturbs a batch of digit-like images along the sign of the loss
gradient with respect to the pixels and checks how many predictions flip."""
# cause: connected
# depth: main
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(41)
keras.utils.set_random_seed(41)

images = rng.random((8, 12, 12, 1)).astype("float32")
labels = rng.integers(0, 10, size=8)

classifier = keras.Sequential([
    keras.Input(shape=(12, 12, 1)),
    keras.layers.Conv2D(6, 3, activation="relu"),
    keras.layers.Flatten(),
    keras.layers.Dense(10),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

x = tf.constant(images)
y = tf.constant(labels)
epsilon = 0.05

with tf.GradientTape() as tape:
    tape.watch(x)
    logits = classifier(x, training=False)
    loss = loss_fn(y, logits)

grad_x = tape.gradient(loss, x)
x_adv = tf.clip_by_value(x + epsilon * tf.sign(grad_x), 0.0, 1.0)

clean_pred = tf.argmax(logits, axis=-1)
adv_pred = tf.argmax(classifier(x_adv, training=False), axis=-1)
print("gradient abs max:", float(tf.reduce_max(tf.abs(grad_x))))
print("predictions flipped:", int(tf.reduce_sum(tf.cast(clean_pred != adv_pred, tf.int32))), "of", len(labels))
