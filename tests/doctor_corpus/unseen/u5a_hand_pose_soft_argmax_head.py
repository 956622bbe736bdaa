"""A tiny hand-pose network turns per-joint heatmaps into (x, y) keypoint coordinates inside a custom
Keras layer and regresses them against labelled joints; the asker wants to confirm every layer gets a gradient."""
# cause: connected
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(17)
rng = np.random.default_rng(17)

N, H, W, J = 16, 24, 24, 5
images = rng.normal(size=(N, H, W, 1)).astype("float32")
joints = rng.uniform(2, 21, size=(N, J, 2)).astype("float32")  # (x, y) in pixels


class HeatmapToKeypoints(keras.layers.Layer):
    def __init__(self, num_joints, **kwargs):
        super().__init__(**kwargs)
        self.num_joints = num_joints
        self.heat = keras.layers.Conv2D(num_joints, 1)

    def call(self, features):
        heatmaps = self.heat(features)                                  # (B, H, W, J)
        height, width = tf.shape(heatmaps)[1], tf.shape(heatmaps)[2]
        flat = tf.reshape(tf.transpose(heatmaps, [0, 3, 1, 2]),
                          [tf.shape(heatmaps)[0], self.num_joints, -1])  # (B, J, H*W)
        prob = tf.nn.softmax(flat, axis=-1)
        cells = tf.range(height * width)
        grid_x = tf.cast(cells % width, tf.float32)
        grid_y = tf.cast(cells // width, tf.float32)
        xs = tf.reduce_sum(prob * grid_x, axis=-1)
        ys = tf.reduce_sum(prob * grid_y, axis=-1)
        return tf.stack([xs, ys], axis=-1)                              # (B, J, 2)


model = keras.Sequential([
    keras.Input((H, W, 1)),
    keras.layers.Conv2D(16, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(16, 3, padding="same", activation="relu"),
    HeatmapToKeypoints(J),
])
opt = keras.optimizers.Adam(1e-3)

with tf.GradientTape() as tape:
    coords = model(images, training=True)
    loss = tf.reduce_mean(tf.reduce_sum(tf.square(coords - joints), axis=-1))
grads = tape.gradient(loss, model.trainable_variables)
print("mean squared pixel error:", float(loss))
for v, g in zip(model.trainable_variables, grads):
    print(v.path, None if g is None else float(tf.norm(g)))
opt.apply_gradients(zip(grads, model.trainable_variables))


def computation():
    def compute():
        c = model(images, training=True)
        return tf.reduce_mean(tf.reduce_sum(tf.square(c - joints), axis=-1))

    return compute, model.trainable_variables
