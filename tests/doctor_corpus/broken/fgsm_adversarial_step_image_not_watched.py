"""FGSM adversarial examples with a tf.function attack step; tf.sign fails on a None gradient while tracing."""
# cause: not_watched
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(10)

model = keras.Sequential([
    keras.Input((8, 8, 1)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.Flatten(),
    keras.layers.Dense(10),
])
loss_object = keras.losses.CategoricalCrossentropy(from_logits=True)


@tf.function
def create_adversarial_pattern(input_image, input_label):
    with tf.GradientTape() as tape:  # <- expected
        prediction = model(input_image)
        loss = loss_object(input_label, prediction)
    gradient = tape.gradient(loss, input_image)
    return tf.sign(gradient)


def computation():
    return (lambda img: loss_object(label, model(img))), image


image = tf.constant(np.random.rand(1, 8, 8, 1).astype("float32"))
label = tf.one_hot([3], 10)
eps = 0.05

perturbation = create_adversarial_pattern(image, label)
adv_image = tf.clip_by_value(image + eps * perturbation, 0.0, 1.0)
print("adversarial prediction:", int(tf.argmax(model(adv_image)[0])))
