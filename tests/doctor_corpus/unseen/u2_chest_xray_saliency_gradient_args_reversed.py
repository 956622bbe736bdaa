"""Saliency map for a small chest X-ray classifier (normal vs. pneumonia): the gradient of the
pneumonia score with respect to the input image comes back None."""
# cause: swapped
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(1)

model = keras.Sequential([
    keras.Input((32, 32, 1)),
    keras.layers.Conv2D(8, 3, activation="relu"),
    keras.layers.MaxPooling2D(),
    keras.layers.Conv2D(16, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(2, activation="softmax"),
])

xray = tf.random.uniform((1, 32, 32, 1))
PNEUMONIA = 1


def saliency_map(image, class_index):
    image = tf.convert_to_tensor(image)
    with tf.GradientTape() as tape:
        tape.watch(image)
        probs = model(image, training=False)
        score = probs[:, class_index]
    grad = tape.gradient(image, score)  # <- expected
    return grad


saliency = saliency_map(xray, PNEUMONIA)
print("saliency:", saliency)


def computation():
    image = tf.convert_to_tensor(xray)
    return (lambda: model(image, training=False)[:, PNEUMONIA]), [image]
