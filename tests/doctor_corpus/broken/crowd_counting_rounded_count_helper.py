"""Crowd counting from density maps, trained on the people count per image; the printed
gradients are all None."""
# cause: not_differentiable
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(12)
images = tf.random.uniform((8, 16, 16, 1))
true_counts = tf.constant([3.0, 0.0, 5.0, 1.0, 2.0, 7.0, 4.0, 1.0])

density_net = keras.Sequential([
    keras.Input(shape=(16, 16, 1)),
    keras.layers.Conv2D(4, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(1, 1, activation="softplus"),
])


def people_count(density_map):
    # a count is a whole number of people
    return tf.round(tf.reduce_sum(density_map, axis=[1, 2, 3]))  # <- expected


def count_loss(images, counts):
    return tf.reduce_mean(tf.abs(people_count(density_net(images)) - counts))


def computation():
    return (lambda *params: count_loss(images, true_counts)), density_net.trainable_variables


with tf.GradientTape() as tape:
    loss = count_loss(images, true_counts)
grads = tape.gradient(loss, density_net.trainable_variables)
print("MAE", float(loss))
for v, g in zip(density_net.trainable_variables, grads):
    print(v.path, g)
