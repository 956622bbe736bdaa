"""News-topic classifier (embedding, average pooling, hidden layer, dropout, softmax head) trained
with a custom loop: the gradients for the hidden Dense layer's kernel and bias are None."""
# cause: unused
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(10)


class NewsClassifier(keras.Model):
    def __init__(self, vocab_size, num_topics):
        super().__init__()
        self.embedding = keras.layers.Embedding(vocab_size, 32)
        self.pool = keras.layers.GlobalAveragePooling1D()
        self.hidden = keras.layers.Dense(32, activation="relu")
        self.dropout = keras.layers.Dropout(0.3)
        self.head = keras.layers.Dense(num_topics)

    def call(self, tokens, training=False):
        x = self.pool(self.embedding(tokens))
        h = self.hidden(x)
        h = self.dropout(x, training=training)  # <- expected
        return self.head(h)


model = NewsClassifier(vocab_size=500, num_topics=4)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-3)

tokens = tf.random.uniform((16, 20), 1, 500, dtype=tf.int32)
topics = tf.random.uniform((16,), 0, 4, dtype=tf.int32)

for step in range(2):
    with tf.GradientTape() as tape:
        loss = loss_fn(topics, model(tokens, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("loss:", float(loss))


def computation():
    return (lambda: loss_fn(topics, model(tokens, training=True))), model.trainable_variables
