"""Input-gradient regularisation ("double backprop") on a small image classifier. The loss is a
normal number but every gradient comes back NaN."""
# cause: nan_at_zero
# depth: helper
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

model = keras.Sequential([
    keras.Input((16,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dense(3),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

# 4x4 images, the last batch is padded with blank images to keep the batch size fixed
x = np.random.rand(6, 16).astype("float32")
x[4:] = 0.0
y = np.array([0, 1, 2, 1, 0, 0])


def input_gradient_norm(x, y):
    with tf.GradientTape() as inner:
        inner.watch(x)
        ce = loss_fn(y, model(x, training=True))
    g = inner.gradient(ce, x)
    return tf.norm(g, axis=1)  # <- expected


def total_loss(x, y, lam=0.1):
    logits = model(x, training=True)
    return loss_fn(y, logits) + lam * tf.reduce_mean(input_gradient_norm(x, y))


x = tf.convert_to_tensor(x)
with tf.GradientTape() as tape:
    loss = total_loss(x, y)
grads = tape.gradient(loss, model.trainable_variables)
print("loss:", float(loss), "grad norm:", float(tf.linalg.global_norm(grads)))


def computation():
    return (lambda *variables: total_loss(x, y)), model.trainable_variables
