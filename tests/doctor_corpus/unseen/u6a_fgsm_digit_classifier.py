"""FGSM adversarial examples for a small 8x8 image classifier.

I train a tiny CNN on synthetic 8x8 "digits", then want the gradient of the loss
with respect to the input images to build the adversarial perturbation. I convert
the batch to a tensor and watch it, but the input gradient is None.
"""
# cause: watched_other_object
# depth: main
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(3)
n, n_classes = 256, 4
labels = rng.integers(0, n_classes, size=n)
prototypes = rng.uniform(0, 1, size=(n_classes, 8, 8, 1)).astype("float32")
images = np.clip(prototypes[labels] + 0.2 * rng.normal(size=(n, 8, 8, 1)), 0, 1).astype("float32")

keras.utils.set_random_seed(3)
model = keras.Sequential([
    keras.Input((8, 8, 1)),
    keras.layers.Conv2D(8, 3, activation="relu"),
    keras.layers.Flatten(),
    keras.layers.Dense(n_classes),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
model.compile(optimizer="adam", loss=loss_fn, metrics=["accuracy"])
model.fit(images, labels, epochs=2, batch_size=64, verbose=0)

batch = images[:16]
batch_labels = labels[:16]
x = tf.convert_to_tensor(batch)

with tf.GradientTape() as tape:
    tape.watch(x)
    logits = model(batch, training=False)  # <- expected
    loss = loss_fn(batch_labels, logits)

input_grad = tape.gradient(loss, x)
print("loss on clean batch:", float(loss))
print("input gradient:", input_grad)
if input_grad is not None:
    adversarial = tf.clip_by_value(x + 0.1 * tf.sign(input_grad), 0.0, 1.0)
    print("adv accuracy:", np.mean(np.argmax(model(adversarial), 1) == batch_labels))


def computation():
    return (lambda: loss_fn(batch_labels, model(batch, training=False))), [x]
