"""Neural style transfer on a tiny random image: the pixels are optimized so that their conv-feature Gram matrix
matches the Gram matrix of a style image. The gradient of the style loss with respect to the image is None."""
# cause: outside_tape
# depth: main
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
tf.keras.utils.set_random_seed(0)

feature_extractor = tf.keras.Sequential([
    tf.keras.Input((16, 16, 3)),
    tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    tf.keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
])
feature_extractor.trainable = False

style_image = tf.constant(rng.random((1, 16, 16, 3)), dtype=tf.float32)
generated = tf.Variable(rng.random((1, 16, 16, 3)).astype("float32"), name="generated_image")


def gram_matrix(features):
    b, h, w, c = features.shape
    flat = tf.reshape(features, (b, h * w, c))
    return tf.matmul(flat, flat, transpose_a=True) / float(h * w)


style_gram = gram_matrix(feature_extractor(style_image))
generated_gram = gram_matrix(feature_extractor(generated))  # <- expected

optimizer = tf.keras.optimizers.Adam(learning_rate=0.02)

for step in range(3):
    with tf.GradientTape() as tape:
        style_loss = tf.reduce_sum(tf.square(generated_gram - style_gram))
    grad = tape.gradient(style_loss, generated)
    print(f"step {step}: style loss {style_loss.numpy():.3e}, gradient = {grad}")
    if grad is not None:
        optimizer.apply_gradients([(grad, generated)])


def computation():
    def compute():
        return tf.reduce_sum(tf.square(generated_gram - style_gram))
    return compute, [generated]
