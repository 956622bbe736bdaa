"""A residual super-resolution model with batch normalisation and a custom train_step that mixes an
L1 loss with a gradient-magnitude (edge) loss, trained with model.fit."""
# cause: connected
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(21)


class EdgeAwareSR(keras.Model):
    def __init__(self):
        super().__init__()
        self.up = keras.layers.UpSampling2D(2, interpolation="bilinear")
        self.conv1 = keras.layers.Conv2D(16, 3, padding="same")
        self.bn = keras.layers.BatchNormalization()
        self.conv2 = keras.layers.Conv2D(1, 3, padding="same")

    def call(self, x, training=False):
        base = self.up(x)
        h = tf.nn.relu(self.bn(self.conv1(base), training=training))
        return base + self.conv2(h)

    def train_step(self, data):
        lr_img, hr_img = data
        with tf.GradientTape() as tape:
            sr = self(lr_img, training=True)
            l1 = tf.reduce_mean(tf.abs(sr - hr_img))
            dy_sr, dx_sr = tf.image.image_gradients(sr)
            dy_hr, dx_hr = tf.image.image_gradients(hr_img)
            edge = tf.reduce_mean(tf.abs(dy_sr - dy_hr) + tf.abs(dx_sr - dx_hr))
            loss = l1 + 0.1 * edge
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss, "l1": l1}


rng = np.random.default_rng(21)
hr = rng.random((16, 16, 16, 1)).astype("float32")
lr = tf.image.resize(hr, (8, 8), method="area").numpy()
model = EdgeAwareSR()
model.compile(optimizer=keras.optimizers.Adam(1e-3))
history = model.fit(lr, hr, batch_size=8, epochs=1, verbose=0)
