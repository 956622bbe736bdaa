"""FGSM adversarial examples for a tiny 8x8 digit classifier: the gradient of the loss with
respect to the input batch is None, so the perturbation cannot be built."""
# cause: watched_too_late
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(2)

model = keras.Sequential([
    keras.Input((8, 8, 1)),
    keras.layers.Flatten(),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(10),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

images = tf.random.uniform((16, 8, 8, 1))
labels = tf.random.uniform((16,), 0, 10, dtype=tf.int32)
epsilon = 0.1

with tf.GradientTape() as tape:
    logits = model(images, training=False)  # <- expected
    tape.watch(images)  # <- expected
    loss = loss_fn(labels, logits)

input_grad = tape.gradient(loss, images)
print("loss:", float(loss), "input gradient:", input_grad)
