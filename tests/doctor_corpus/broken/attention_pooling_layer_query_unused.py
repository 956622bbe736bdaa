"""A text classifier with a hand-written attention-pooling layer; the attention query
vector's gradient is None."""
# cause: unused
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(5)


class AttentionPooling(keras.layers.Layer):
    """Pools a (batch, time, features) sequence into (batch, features)."""

    def build(self, input_shape):
        self.query = self.add_weight(shape=(input_shape[-1], 1), name="query")

    def call(self, x):
        scores = tf.matmul(x, self.query)          # (batch, time, 1)
        weights = tf.nn.softmax(scores, axis=1)
        return tf.reduce_mean(x, axis=1)  # <- expected


class TextClassifier(keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = keras.layers.Embedding(50, 8)
        self.pool = AttentionPooling()
        self.out = keras.layers.Dense(3)

    def call(self, tokens):
        return self.out(self.pool(self.embed(tokens)))


tokens = tf.random.uniform((16, 12), maxval=50, dtype=tf.int32)
labels = tf.random.uniform((16,), maxval=3, dtype=tf.int32)
model = TextClassifier()
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
model(tokens)


def computation():
    return (lambda query: loss_fn(labels, model(tokens))), [model.pool.query]


with tf.GradientTape() as tape:
    loss = loss_fn(labels, model(tokens))
grad_query, = tape.gradient(loss, [model.pool.query])
print("loss", float(loss), "query grad:", grad_query)
