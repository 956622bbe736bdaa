"""A small ESPCN-style super-resolution net with batch norm, trained by a Trainer class; Keras warns
that some variables have no gradients, and two entries of the returned gradient list are None."""
# cause: wrong_variables
# depth: method
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(8)


class ESPCN(keras.Model):
    def __init__(self, scale=2):
        super().__init__()
        self.scale = scale
        self.conv1 = keras.layers.Conv2D(16, 3, padding="same")
        self.bn = keras.layers.BatchNormalization()
        self.conv2 = keras.layers.Conv2D(3 * scale ** 2, 3, padding="same")

    def call(self, x, training=False):
        h = tf.nn.relu(self.bn(self.conv1(x), training=training))
        return tf.nn.depth_to_space(self.conv2(h), self.scale)


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = keras.optimizers.Adam(lr)

    def step(self, lr_img, hr_img):
        with tf.GradientTape() as tape:
            sr = self.model(lr_img, training=True)
            loss = tf.reduce_mean(tf.abs(sr - hr_img))
        params = self.model.variables  # <- expected
        grads = tape.gradient(loss, params)
        self.optimizer.apply_gradients(zip(grads, params))
        return loss, grads


rng = np.random.default_rng(8)
hr = tf.constant(rng.random((4, 16, 16, 3)), tf.float32)
lr = tf.image.resize(hr, (8, 8), method="area")
model = ESPCN()
model(lr)
trainer = Trainer(model)
loss, grads = trainer.step(lr, hr)
