"""A tiny hand-pose network turns per-joint heatmaps into (x, y) keypoint coordinates inside a custom
Keras layer and regresses them against labelled joints; every gradient of the model is None."""
# cause: not_differentiable
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(13)
rng = np.random.default_rng(13)

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
        width = tf.shape(heatmaps)[2]
        flat = tf.reshape(tf.transpose(heatmaps, [0, 3, 1, 2]),
                          [tf.shape(heatmaps)[0], self.num_joints, -1])  # (B, J, H*W)
        peak = tf.argmax(flat, axis=-1, output_type=tf.int32)  # <- expected
        xs = tf.cast(peak % width, tf.float32)
        ys = tf.cast(peak // width, tf.float32)
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


def computation():
    def compute():
        c = model(images, training=True)
        return tf.reduce_mean(tf.reduce_sum(tf.square(c - joints), axis=-1))

    return compute, model.trainable_variables
