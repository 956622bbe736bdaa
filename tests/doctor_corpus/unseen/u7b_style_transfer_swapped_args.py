"""Neural style transfer wrapped in a small class (Gatys-style, Gram matrices).

I moved my working notebook code into a class so I can run it for several style images.
Since then the first optimisation step dies with "No gradients provided for any
variable" from Adam. The print just before it shows the gradient is None. The image is a
tf.Variable and the loss is a scalar tensor that depends on it (it changes when I change
the image by hand), so I don't understand where the gradient goes.
"""
# cause: swapped
# depth: method
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(8)
rng = np.random.RandomState(8)


def gram(features):
    b, h, w, c = features.shape
    flat = tf.reshape(features, (b, h * w, c))
    return tf.matmul(flat, flat, transpose_a=True) / float(h * w)


class StyleTransfer:
    def __init__(self, content, style, style_weight=10.0):
        # stand-in for the VGG feature extractor (random but fixed filters)
        self.convs = [keras.layers.Conv2D(8, 3, activation="relu", padding="same"),
                      keras.layers.Conv2D(16, 3, strides=2, activation="relu", padding="same")]
        self.style_weight = style_weight
        self.content_target = self.features(content)[-1]
        self.style_targets = [gram(f) for f in self.features(style)]
        self.image = tf.Variable(content, name="generated")
        self.opt = keras.optimizers.Adam(0.02)

    def features(self, img):
        outs, h = [], img
        for conv in self.convs:
            h = conv(h)
            outs.append(h)
        return outs

    def loss(self):
        feats = self.features(self.image)
        content = tf.reduce_mean((feats[-1] - self.content_target) ** 2)
        style = tf.add_n([tf.reduce_mean((gram(f) - t) ** 2)
                          for f, t in zip(feats, self.style_targets)])
        return content + self.style_weight * style

    def step(self):
        with tf.GradientTape() as tape:
            total = self.loss()
        grad = tape.gradient(self.image, total)  # <- expected
        print("loss", float(total), "grad:", grad)
        self.opt.apply_gradients([(grad, self.image)])
        self.image.assign(tf.clip_by_value(self.image, 0.0, 1.0))


content_img = rng.uniform(size=(1, 32, 32, 3)).astype("float32")
stripes = 0.5 + 0.5 * np.sin(np.arange(32) / 2.0)
style_img = np.broadcast_to(stripes[None, None, :, None], (1, 32, 32, 3)).astype("float32")
st = StyleTransfer(content_img, style_img)
for _ in range(2):
    st.step()


def computation():
    return st.loss, [st.image]
