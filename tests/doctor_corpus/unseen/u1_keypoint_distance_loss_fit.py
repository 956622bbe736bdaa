"""Hand keypoint regression with model.fit and a custom mean-Euclidean-distance loss that ignores
invisible keypoints; the first epoch's loss is finite, the second one's and every weight are NaN."""
# cause: nan_at_zero
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(5)
K = 5


def keypoint_distance(y_true, y_pred):
    xy, visible = y_true[..., :2], y_true[..., 2]
    offset = (y_pred - xy) * visible[..., None]
    dist = tf.norm(offset, axis=-1)  # <- expected
    return tf.reduce_sum(dist, axis=-1) / tf.maximum(tf.reduce_sum(visible, axis=-1), 1.0)


model = keras.Sequential([
    keras.Input((16, 16, 1)),
    keras.layers.Conv2D(8, 3, strides=2, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(K * 2),
    keras.layers.Reshape((K, 2)),
])
model.compile(optimizer=keras.optimizers.Adam(1e-3), loss=keypoint_distance)

rng = np.random.default_rng(5)
images = rng.random((32, 16, 16, 1)).astype("float32")
coords = rng.random((32, K, 2)).astype("float32")
visible = (rng.random((32, K, 1)) > 0.3).astype("float32")
targets = np.concatenate([coords * visible, visible], axis=-1)
history = model.fit(images, targets, batch_size=32, epochs=2, verbose=0)
print(history.history["loss"])
