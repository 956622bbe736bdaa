"""Neural style transfer: the generated image starts from the content photo and is optimised so its
conv features match the content and its Gram matrices match the style image; tape.gradient(loss, image) prints None."""
# cause: not_watched
# depth: main
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(19)
rng = np.random.default_rng(19)
SIZE = 48

yy, xx = np.mgrid[0:SIZE, 0:SIZE] / SIZE
content_image = np.stack([xx, yy, 0.5 * np.ones_like(xx)], axis=-1)[None].astype("float32")     # smooth gradient "photo"
style_image = (0.5 + 0.5 * np.sin(2 * np.pi * 6 * np.stack([xx + yy, xx - yy, xx], -1)))[None].astype("float32")

# stand-in for a frozen VGG: a fixed random conv feature pyramid
inp = keras.Input((SIZE, SIZE, 3))
c1 = layers.Conv2D(16, 3, padding="same", activation="relu")(inp)
c2 = layers.Conv2D(32, 3, strides=2, padding="same", activation="relu")(c1)
c3 = layers.Conv2D(32, 3, strides=2, padding="same", activation="relu")(c2)
extractor = keras.Model(inp, [c1, c2, c3])
extractor.trainable = False


def gram(features):
    b, h, w, c = features.shape
    flat = tf.reshape(features, (-1, h * w, c))
    return tf.matmul(flat, flat, transpose_a=True) / float(h * w)


style_targets = [gram(f) for f in extractor(style_image)]
content_target = extractor(content_image)[2]
STYLE_WEIGHT, CONTENT_WEIGHT, LR = 1e-1, 1.0, 0.02

image = tf.convert_to_tensor(content_image)  # <- expected
for step in range(4):
    with tf.GradientTape() as tape:
        feats = extractor(image)
        style_loss = tf.add_n([tf.reduce_mean(tf.square(gram(f) - t)) for f, t in zip(feats, style_targets)])
        content_loss = tf.reduce_mean(tf.square(feats[2] - content_target))
        loss = STYLE_WEIGHT * style_loss + CONTENT_WEIGHT * content_loss
    grad = tape.gradient(loss, image)
    print(f"step {step}: loss={float(loss):.5f}  grad: {grad}")
    image = tf.clip_by_value(image - LR * grad, 0.0, 1.0)
