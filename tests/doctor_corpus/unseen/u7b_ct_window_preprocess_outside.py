"""Learnable CT window in front of a small lesion classifier.

Instead of hard-coding the soft-tissue preset (C=40, W=400) I want the network to learn
its own Hounsfield window, so centre and width are tf.Variables. The conv layers train
(loss moves a bit), but the window never changes: when I print the gradients of the two
window parameters they are None at every step. Both are trainable float32 Variables and
I pass them to the optimizer together with model.trainable_variables. Why None?
"""
# cause: outside_tape
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(3)
rng = np.random.RandomState(3)

# fake CT patches in Hounsfield units (air ~ -1000, soft tissue ~ 40, bone ~ 700)
hu = rng.normal(40.0, 350.0, size=(8, 24, 24, 1)).astype("float32")
labels = rng.randint(0, 2, size=(8, 1)).astype("float32")


def soft_window(volume, centre, width):
    """Differentiable version of the usual clip((hu - lo) / width, 0, 1)."""
    return tf.sigmoid((volume - centre) / (width / 8.0))


centre = tf.Variable(40.0, name="window_centre")
width = tf.Variable(400.0, name="window_width")

model = keras.Sequential([
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(1),
])
bce = keras.losses.BinaryCrossentropy(from_logits=True)
opt = keras.optimizers.Adam(1e-2)

for step in range(3):
    batch = {"image": soft_window(hu, centre, width), "label": labels}  # <- expected
    with tf.GradientTape() as tape:
        logits = model(batch["image"], training=True)
        loss = bce(batch["label"], logits)
    params = [centre, width] + model.trainable_variables
    grads = tape.gradient(loss, params)
    print(f"step {step} loss {float(loss):.4f}  d/dcentre={grads[0]}  d/dwidth={grads[1]}")
    opt.apply_gradients([(g, v) for g, v in zip(grads, params) if g is not None])
