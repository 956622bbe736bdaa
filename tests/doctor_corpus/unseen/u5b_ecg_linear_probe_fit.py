"""Evaluates a pretrained ECG encoder with a linear probe: a custom train_step fits a logistic
arrhythmia head on top of the encoder's features; Keras warns that gradients do not exist
for the encoder's convolution weights, and the asker wants to know why they are None."""
# cause: none_is_correct
# depth: fit
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(71)
n, length = 128, 250
beats = rng.normal(size=(n, length, 1)).astype("float32")
labels = (rng.uniform(size=(n, 1)) < 0.3).astype("float32")
beats[labels[:, 0] == 1, 100:120, 0] += 2.0     # a wide ectopic complex


def build_encoder():
    return tf.keras.Sequential([
        tf.keras.Input((length, 1)),
        tf.keras.layers.Conv1D(8, 7, strides=2, activation="relu"),
        tf.keras.layers.Conv1D(16, 5, strides=2, activation="relu"),
        tf.keras.layers.GlobalAveragePooling1D(),
    ], name="ecg_encoder")


class LinearProbe(tf.keras.Model):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder              # weights come from self-supervised pretraining
        self.head = tf.keras.layers.Dense(1)
        self.bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    def call(self, x, training=False):
        return self.head(self.encoder(x, training=False))

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            features = tf.stop_gradient(self.encoder(x, training=False))  # <- expected
            logits = self.head(features)
            loss = self.bce(y, logits)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"bce": loss}


probe = LinearProbe(build_encoder())
probe(beats[:2])
probe.compile(optimizer=tf.keras.optimizers.Adam(1e-2))
history = probe.fit(beats, labels, batch_size=32, epochs=3, verbose=0)
print("probe loss per epoch:", [round(v, 4) for v in history.history["bce"]])


def computation():
    def compute():
        features = tf.stop_gradient(probe.encoder(beats, training=False))
        return probe.bce(labels, probe.head(features))

    return compute, probe.trainable_variables
