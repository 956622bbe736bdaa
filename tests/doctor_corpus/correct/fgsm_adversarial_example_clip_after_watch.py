"""Iterative FGSM adversarial examples against a small classifier: the image is watched, perturbed
along the sign of its gradient and clipped back into the epsilon ball and into [0, 1]."""
# cause: connected
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(28)

model = keras.Sequential([
    keras.Input((8, 8, 1)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.Flatten(),
    keras.layers.Dense(10),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

image = tf.random.uniform((1, 8, 8, 1))
label = tf.constant([3])
eps, step_size = 0.03, 0.01

x_adv = tf.identity(image)
for _ in range(3):
    with tf.GradientTape() as tape:
        tape.watch(x_adv)
        x_in = tf.clip_by_value(x_adv, 0.0, 1.0)
        loss = loss_fn(label, model(x_in))
    grad = tape.gradient(loss, x_adv)
    x_adv = x_adv + step_size * tf.sign(grad)
    x_adv = tf.clip_by_value(x_adv, image - eps, image + eps)
print("loss on the adversarial image:", float(loss_fn(label, model(x_adv))))


def computation():
    return (lambda x: loss_fn(label, model(tf.clip_by_value(x, 0.0, 1.0)))), x_adv
