"""Vanilla saliency maps for a small image classifier: the gradient of each image's top class
score with respect to the input pixels. The asker gets None back instead of a saliency tensor."""
# cause: not_watched
# depth: main
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(7)
keras.utils.set_random_seed(7)

images = tf.constant(rng.random((4, 16, 16, 3)), dtype=tf.float32)

model = keras.Sequential([
    keras.Input(shape=(16, 16, 3)),
    keras.layers.Conv2D(8, 3, activation="relu"),
    keras.layers.MaxPooling2D(),
    keras.layers.Conv2D(16, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(5),
])

with tf.GradientTape() as tape:  # <- expected
    logits = model(images, training=False)
    top_class = tf.argmax(logits, axis=-1)
    top_scores = tf.gather(logits, top_class, batch_dims=1)

saliency = tape.gradient(top_scores, images)
print("predicted classes:", top_class.numpy())
print("saliency:", saliency)

if saliency is not None:
    saliency_map = tf.reduce_max(tf.abs(saliency), axis=-1)
    print("saliency map shape:", saliency_map.shape)
