"""Sentiment classifier for product reviews of different lengths, fed as a RaggedTensor of token
ids: mean of the token embeddings, then a small dense head, trained with a custom loop."""
# cause: connected
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(20)


class BagOfEmbeddings(keras.Model):
    def __init__(self, vocab_size, dim):
        super().__init__()
        self.table = self.add_weight(shape=(vocab_size, dim), initializer="uniform",
                                     name="embeddings")
        self.hidden = keras.layers.Dense(16, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, token_ids):
        vectors = tf.ragged.map_flat_values(tf.nn.embedding_lookup, self.table, token_ids)
        review = tf.reduce_mean(vectors, axis=1)
        return self.out(self.hidden(review))


reviews = tf.ragged.constant([[4, 17, 9], [23, 5], [8, 8, 41, 2, 30], [11], [7, 19, 3, 3]],
                             dtype=tf.int32)
liked = tf.constant([[1.0], [0.0], [1.0], [0.0], [1.0]])

model = BagOfEmbeddings(vocab_size=50, dim=8)
loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-2)

for step in range(3):
    with tf.GradientTape() as tape:
        loss = loss_fn(liked, model(reviews))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("loss:", float(loss))


def computation():
    return (lambda: loss_fn(liked, model(reviews))), model.trainable_variables
