"""Neural style transfer in miniature: the generated image is a tf.Variable, a small frozen conv
net stands in for VGG, and helpers compute the Gram matrices and the weighted style + content
loss."""
# cause: connected
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(40)

inp = keras.Input((16, 16, 3))
f1 = keras.layers.Conv2D(4, 3, activation="relu", padding="same")(inp)
f2 = keras.layers.Conv2D(8, 3, activation="relu", padding="same", strides=2)(f1)
extractor = keras.Model(inp, [f1, f2])
extractor.trainable = False

content_image = tf.random.uniform((1, 16, 16, 3))
style_image = tf.random.uniform((1, 16, 16, 3))
image = tf.Variable(content_image)
opt = keras.optimizers.Adam(0.02)


def gram_matrix(features):
    result = tf.linalg.einsum("bijc,bijd->bcd", features, features)
    n = tf.cast(tf.shape(features)[1] * tf.shape(features)[2], tf.float32)
    return result / n


style_targets = [gram_matrix(f) for f in extractor(style_image)]
content_target = extractor(content_image)[1]


def style_content_loss(img, style_weight=1e-1, content_weight=1.0):
    feats = extractor(img)
    style = tf.add_n([tf.reduce_mean(tf.square(gram_matrix(f) - t)) for f, t in zip(feats, style_targets)])
    content = tf.reduce_mean(tf.square(feats[1] - content_target))
    return style_weight * style + content_weight * content


for step in range(3):
    with tf.GradientTape() as tape:
        loss = style_content_loss(image)
    grad = tape.gradient(loss, image)
    opt.apply_gradients([(grad, image)])
    image.assign(tf.clip_by_value(image, 0.0, 1.0))
print("style+content loss:", float(loss))


def computation():
    return style_content_loss, image
