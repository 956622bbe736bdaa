"""Binary segmentation net with BatchNorm and a custom train_step run through model.fit;
training prints warnings that gradients do not exist for some variables (they are None)."""
# cause: wrong_variables
# depth: fit
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(5)
keras.utils.set_random_seed(5)


class TinySegNet(keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = keras.layers.Conv2D(8, 3, padding="same", use_bias=False)
        self.bn1 = keras.layers.BatchNormalization()
        self.conv2 = keras.layers.Conv2D(8, 3, padding="same", activation="relu")
        self.head = keras.layers.Conv2D(1, 1)

    def call(self, x, training=False):
        h = self.conv1(x)
        h = tf.nn.relu(self.bn1(h, training=training))
        h = self.conv2(h)
        return self.head(h)

    def train_step(self, data):
        images, masks = data
        with tf.GradientTape() as tape:
            logits = self(images, training=True)
            loss = tf.reduce_mean(
                tf.nn.sigmoid_cross_entropy_with_logits(labels=masks, logits=logits))
        params = self.variables  # <- expected
        grads = tape.gradient(loss, params)
        self.optimizer.apply_gradients(zip(grads, params))
        return {"bce": loss}


images = rng.random((16, 16, 16, 1)).astype("float32")
masks = (images > 0.6).astype("float32")

model = TinySegNet()
model(images[:2])
model.compile(optimizer=keras.optimizers.Adam(1e-2), jit_compile=False)
history = model.fit(images, masks, batch_size=8, epochs=2, verbose=0)
print("loss per epoch:", history.history["bce"])


def computation():
    x = tf.constant(images[:8])
    y = tf.constant(masks[:8])

    def compute():
        logits = model(x, training=True)
        return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits))

    return compute, list(model.variables)
