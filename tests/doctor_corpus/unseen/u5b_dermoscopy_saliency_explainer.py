"""Computes vanilla-gradient saliency maps for a small skin-lesion (dermoscopy) classifier
through an explainer class; the gradient of the predicted class score with respect to the
image comes back as None, so no saliency map can be drawn."""
# cause: watched_other_object
# depth: method
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(31)
images = rng.uniform(0.0, 255.0, size=(4, 32, 32, 3)).astype("float32")
channel_mean = np.array([180.0, 140.0, 130.0], "float32")
channel_std = np.array([40.0, 45.0, 50.0], "float32")

classifier = tf.keras.Sequential([
    tf.keras.Input((32, 32, 3)),
    tf.keras.layers.Conv2D(8, 3, activation="relu"),
    tf.keras.layers.MaxPooling2D(),
    tf.keras.layers.Conv2D(16, 3, activation="relu"),
    tf.keras.layers.GlobalAveragePooling2D(),
    tf.keras.layers.Dense(3, activation="softmax"),  # nevus / melanoma / keratosis
])


class SaliencyExplainer:
    def __init__(self, model, mean, std):
        self.model = model
        self.mean = mean
        self.std = std

    def normalize(self, image):
        return (image - self.mean) / self.std

    def explain(self, image):
        x = tf.convert_to_tensor(image, tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(x)
            probs = self.model(self.normalize(image))  # <- expected
            top = tf.argmax(probs, axis=-1)
            score = tf.gather(probs, top, batch_dims=1)
        grads = tape.gradient(score, x)
        if grads is None:
            return None
        return tf.reduce_max(tf.abs(grads), axis=-1)


explainer = SaliencyExplainer(classifier, channel_mean, channel_std)
saliency = explainer.explain(images)
print("saliency map:", saliency if saliency is None else saliency.shape)
