"""Feature visualisation by gradient ascent with random jitter: optimise an input
image so that one channel of a small conv net fires strongly.  tape.gradient for
the image returns None on the first step, so the image cannot be updated."""
# cause: watched_too_late
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

extractor = keras.Sequential([
    keras.Input(shape=(32, 32, 3)),
    keras.layers.Conv2D(8, 3, activation="relu", padding="same"),
    keras.layers.Conv2D(16, 3, activation="relu", padding="same"),
    keras.layers.MaxPooling2D(),
    keras.layers.Conv2D(16, 3, activation="relu", padding="same"),
])

CHANNEL = 5
STEP_SIZE = 0.05
MAX_JITTER = 4

image = tf.constant(np.random.uniform(0.4, 0.6, (1, 32, 32, 3)), dtype=tf.float32)

for step in range(5):
    dx, dy = np.random.randint(-MAX_JITTER, MAX_JITTER + 1, size=2)
    with tf.GradientTape() as tape:
        jittered = tf.roll(image, shift=[int(dx), int(dy)], axis=[1, 2])
        activations = extractor(jittered)
        tape.watch(image)  # <- expected
        score = tf.reduce_mean(activations[..., CHANNEL])
    grads = tape.gradient(score, image)
    print("step", step, "score", float(score), "grad is None:", grads is None)
    grads = grads / (tf.math.reduce_std(grads) + 1e-8)
    image = tf.clip_by_value(image + STEP_SIZE * grads, 0.0, 1.0)

print("final score", float(tf.reduce_mean(extractor(image)[..., CHANNEL])))
