"""Transfer learning: a "pretrained" feature extractor frozen with backbone.trainable = False,
a new classification head on top, and a custom loop that asks the tape for the model's
trainable variables."""
# cause: connected
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(33)

backbone = keras.Sequential([
    keras.Input((8, 8, 3)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.BatchNormalization(),
    keras.layers.GlobalAveragePooling2D(),
], name="backbone")
backbone.trainable = False  # keep the pretrained weights

model = keras.Sequential([backbone, keras.layers.Dense(5)])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-3)

images = tf.random.uniform((6, 8, 8, 3))
labels = tf.constant([0, 4, 2, 1, 3, 0])

for step in range(2):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = loss_fn(labels, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
print(len(model.trainable_variables), "trainable variables, loss", float(loss))


def computation():
    return (lambda *variables: loss_fn(labels, model(images))), model.trainable_variables
