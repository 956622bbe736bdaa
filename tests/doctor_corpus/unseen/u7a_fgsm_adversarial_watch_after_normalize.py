"""FGSM adversarial training for a small CNN on 28x28 grayscale digits.

To build the adversarial batch I need the gradient of the loss with respect to the
input images. I do call tape.watch on the images, since they are constants and
not Variables, but the gradient I get back is None, so tf.sign() fails and the
adversarial batch is never built.
"""
# cause: watched_too_late
# depth: main
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(12)

model = tf.keras.Sequential([
    tf.keras.Input((28, 28, 1)),
    tf.keras.layers.Conv2D(8, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(16, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(10),
])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.SGD(0.05)

images = tf.constant(np.random.rand(32, 28, 28, 1).astype(np.float32))
labels = tf.constant(np.random.randint(0, 10, size=(32,)))
EPS = 0.1
MEAN, STD = 0.1307, 0.3081


def normalize(x):
    return (x - MEAN) / STD


def adversarial_batch(images, labels):
    with tf.GradientTape() as tape:
        x = normalize(images)  # <- expected
        tape.watch(images)  # <- expected
        logits = model(x, training=False)
        loss = loss_fn(labels, logits)
    grad = tape.gradient(loss, images)
    print("d loss / d images:", grad)
    return tf.clip_by_value(images + EPS * tf.sign(grad), 0.0, 1.0)


x_adv = adversarial_batch(images, labels)
with tf.GradientTape() as tape:
    loss = 0.5 * loss_fn(labels, model(normalize(images), training=True)) + \
        0.5 * loss_fn(labels, model(normalize(x_adv), training=True))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("adversarial training loss:", float(loss))
