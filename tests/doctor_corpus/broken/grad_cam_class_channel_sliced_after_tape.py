"""Grad-CAM on a tiny CNN; tf.reduce_mean fails because the gradient w.r.t. the last conv output is None."""
# cause: outside_tape
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(1)

inputs = keras.Input((16, 16, 3))
x = keras.layers.Conv2D(4, 3, activation="relu", name="last_conv")(inputs)
x = keras.layers.GlobalAveragePooling2D()(x)
outputs = keras.layers.Dense(3, activation="softmax")(x)
model = keras.Model(inputs, outputs)

grad_model = keras.Model(model.inputs, [model.get_layer("last_conv").output, model.output])


def make_gradcam_heatmap(img_array, pred_index=None):
    with tf.GradientTape() as tape:
        last_conv_output, preds = grad_model(img_array)
    if pred_index is None:
        pred_index = tf.argmax(preds[0])
    class_channel = preds[:, pred_index]  # <- expected

    grads = tape.gradient(class_channel, last_conv_output)
    pooled_grads = tf.reduce_mean(grads, axis=(0, 1, 2))

    heatmap = last_conv_output[0] @ pooled_grads[..., tf.newaxis]
    heatmap = tf.squeeze(heatmap)
    heatmap = tf.maximum(heatmap, 0) / tf.math.reduce_max(heatmap)
    return heatmap.numpy()


img = np.random.rand(1, 16, 16, 3).astype("float32")
heatmap = make_gradcam_heatmap(img)
print(heatmap.shape)
