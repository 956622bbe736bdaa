"""Supervised classification plus a SimCLR-style agreement term between two noisy views, in a custom
train_step under model.fit; Keras warns that the projection head's variables get no gradients."""
# cause: stateful
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(4)


class ContrastiveClassifier(keras.Model):
    def __init__(self, n_classes):
        super().__init__()
        self.encoder = keras.layers.Dense(16, activation="relu")
        self.classifier = keras.layers.Dense(n_classes)
        self.projector = keras.layers.Dense(8)
        self.ce = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        self.agreement = keras.metrics.CosineSimilarity()  # <- expected

    def call(self, x):
        return self.classifier(self.encoder(x))

    def train_step(self, data):
        x, y = data
        view1 = x + tf.random.normal(tf.shape(x), stddev=0.1)
        view2 = x + tf.random.normal(tf.shape(x), stddev=0.1)
        with tf.GradientTape() as tape:
            h1, h2 = self.encoder(view1), self.encoder(view2)
            ce = self.ce(y, self.classifier(h1))
            z1, z2 = self.projector(h1), self.projector(h2)
            loss = ce - 0.5 * self.agreement(z1, z2)  # <- expected
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss, "ce": ce}


rng = np.random.default_rng(4)
x = rng.normal(size=(64, 10)).astype("float32")
y = (x[:, 0] + x[:, 1] > 0).astype("int32")
model = ContrastiveClassifier(2)
model.compile(optimizer=keras.optimizers.Adam(1e-3))
history = model.fit(x, y, batch_size=64, epochs=1, verbose=0)
