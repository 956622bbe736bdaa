"""Vanilla saliency map for a digit classifier trained on normalised images; the saliency is None."""
# cause: watched_too_late
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(16)

model = keras.Sequential([
    keras.Input((8, 8, 1)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.MaxPooling2D(),
    keras.layers.Flatten(),
    keras.layers.Dense(10),
])
MEAN, STD = 0.1307, 0.3081

image = tf.convert_to_tensor(np.random.rand(1, 8, 8, 1).astype("float32"))
target_class = 7

with tf.GradientTape() as tape:
    x = (image - MEAN) / STD  # <- expected
    logits = model(x, training=False)
    tape.watch(image)  # <- expected
    score = logits[0, target_class]

saliency = tape.gradient(score, image)
print("saliency:", saliency)


def computation():
    return (lambda img: model((img - MEAN) / STD, training=False)[0, target_class]), image
