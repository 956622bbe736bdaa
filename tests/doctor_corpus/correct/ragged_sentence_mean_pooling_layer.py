"""Sentences of different lengths kept as a tf.RaggedTensor of word vectors; a custom layer averages
each sentence with a learned per-dimension weighting before a linear classifier."""
# cause: connected
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(36)


class WeightedRaggedMean(keras.layers.Layer):
    def __init__(self, dim, **kwargs):
        super().__init__(**kwargs)
        self.scale = self.add_weight(name="scale", shape=(dim,), initializer="ones")

    def call(self, words):  # words: (batch, None, dim) ragged
        return tf.reduce_mean(words * self.scale, axis=1)


dim = 5
pool = WeightedRaggedMean(dim)
classifier = keras.layers.Dense(2)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

lengths = [3, 1, 4]
flat = tf.random.normal((sum(lengths), dim))
sentences = tf.RaggedTensor.from_row_lengths(flat, lengths)
labels = tf.constant([1, 0, 1])


def forward():
    return loss_fn(labels, classifier(pool(sentences)))


forward()  # build the classifier
variables = pool.trainable_variables + classifier.trainable_variables
with tf.GradientTape() as tape:
    loss = forward()
grads = tape.gradient(loss, variables)
print("loss:", float(loss), "| scale grad:", grads[0].numpy())


def computation():
    return (lambda *v: forward()), variables
