"""Universal adversarial perturbation against a small traffic-sign classifier. The perturbed images
are snapped to valid 8-bit pixel values before the classifier sees them, and the gradient of the
attack loss with respect to the perturbation is None."""
# cause: integer_dtype
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(4)

classifier = keras.Sequential([
    keras.Input((16, 16, 3)),
    keras.layers.Conv2D(8, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(5),
])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

images = tf.random.uniform((8, 16, 16, 3))
labels = tf.random.uniform((8,), 0, 5, dtype=tf.int32)
delta = tf.Variable(tf.zeros((1, 16, 16, 3)), name="perturbation")


def to_valid_pixels(x):
    pixels = tf.clip_by_value(x * 255.0, 0.0, 255.0)
    pixels = tf.cast(pixels, tf.int32)  # <- expected
    return tf.cast(pixels, tf.float32) / 255.0


def attack_loss():
    adversarial = to_valid_pixels(images + delta)
    logits = classifier(adversarial, training=False)
    return -loss_fn(labels, logits)


with tf.GradientTape() as tape:
    loss = attack_loss()
grad = tape.gradient(loss, delta)
print("attack loss:", float(loss), "perturbation gradient:", grad)


def computation():
    return attack_loss, [delta]
