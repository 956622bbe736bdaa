"""The TF 2 Iris custom-training walkthrough with a research loss: the distance between the
histogram of the per-sample losses and a normal distribution. The loss value looks right, but
tape.gradient returns None for every variable."""
# cause: left_tensorflow
# depth: helper
# thread: tensorflow/tensorflow#30190
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
features = np.random.rand(12, 4).astype("float32")
labels = np.random.randint(0, 3, 12)

model = keras.Sequential([
    keras.Input((4,)),
    keras.layers.Dense(10, activation="relu"),
    keras.layers.Dense(10, activation="relu"),
    keras.layers.Dense(3),
])
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def get_distance_between_samples_and_distribution(losses, if_plot=0):
    hist, edges = np.histogram(losses, bins=4, density=True)
    centers = (edges[:-1] + edges[1:]) / 2
    normal = np.exp(-(centers - np.mean(losses)) ** 2 / 2) / np.sqrt(2 * np.pi)
    return np.sum(np.abs(hist - normal))


def loss(model, x, y):
    y_ = model(x)  # y_.shape is (batch_size, 3)
    losses = []
    for i in range(y.shape[0]):
        loss = loss_object(y_true=y[i], y_pred=y_[i])
        losses.append(float(loss))  # <- expected
    dis = get_distance_between_samples_and_distribution(losses, if_plot=0)
    return tf.convert_to_tensor(dis, dtype=np.float32)


def grad(model, inputs, targets):
    with tf.GradientTape() as tape:
        loss_value = loss(model, inputs, targets)
    return loss_value, tape.gradient(loss_value, model.trainable_variables)


def computation():
    return (lambda *params: loss(model, features, labels)), model.trainable_variables


loss_value, grads = grad(model, features, labels)
