"""Skin-lesion segmentation with a tiny fully convolutional net and a soft Dice loss written as a
helper: every gradient of the Dice loss with respect to the network is None."""
# cause: not_differentiable
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(11)

model = keras.Sequential([
    keras.Input((32, 32, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(1, 1, activation="sigmoid"),
])


def dice_loss(y_true, y_prob, smooth=1.0):
    y_pred = tf.cast(y_prob > 0.5, tf.float32)  # <- expected
    intersection = tf.reduce_sum(y_true * y_pred, axis=[1, 2, 3])
    total = tf.reduce_sum(y_true, axis=[1, 2, 3]) + tf.reduce_sum(y_pred, axis=[1, 2, 3])
    return 1.0 - tf.reduce_mean((2.0 * intersection + smooth) / (total + smooth))


images = tf.random.uniform((4, 32, 32, 3))
masks = tf.cast(tf.random.uniform((4, 32, 32, 1)) > 0.7, tf.float32)

with tf.GradientTape() as tape:
    probs = model(images, training=True)
    loss = dice_loss(masks, probs)
grads = tape.gradient(loss, model.trainable_variables)
print("dice loss:", float(loss), "gradients:", grads)


def computation():
    return (lambda: dice_loss(masks, model(images, training=True))), model.trainable_variables
