"""Fast-gradient-sign adversarial examples for a small digit CNN; the perturbation comes from the
gradient of the loss with respect to the input images."""
# cause: connected
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(18)

model = keras.Sequential([
    keras.Input((12, 12, 1)),
    keras.layers.Conv2D(8, 3, activation="relu"),
    keras.layers.MaxPooling2D(),
    keras.layers.Flatten(),
    keras.layers.Dense(10),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def fgsm(model, images, labels, eps=0.05):
    images = tf.convert_to_tensor(images)
    with tf.GradientTape() as tape:
        tape.watch(images)
        loss = loss_fn(labels, model(images))
    grad = tape.gradient(loss, images)
    return tf.clip_by_value(images + eps * tf.sign(grad), 0.0, 1.0), grad


rng = np.random.default_rng(18)
images = rng.random((8, 12, 12, 1)).astype("float32")
labels = rng.integers(0, 10, 8)


def computation():
    x = tf.convert_to_tensor(images)
    return (lambda v: loss_fn(labels, model(v))), x


adversarial, input_grad = fgsm(model, images, labels)
print("max change", float(tf.reduce_max(tf.abs(adversarial - images))))
