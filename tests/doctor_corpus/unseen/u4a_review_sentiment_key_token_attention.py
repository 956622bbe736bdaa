"""Review sentiment classifier whose custom attention-pooling layer scores every token and keeps
the most relevant one; the embedding and output layer train, but the attention scoring vector's gradient is always None."""
# cause: not_differentiable
# depth: layer
import numpy as np
import tensorflow as tf
import keras
from keras import layers

keras.utils.set_random_seed(21)
rng = np.random.default_rng(21)

VOCAB, MAX_LEN, DIM = 200, 20, 16
POSITIVE_WORDS, NEGATIVE_WORDS = np.arange(10, 20), np.arange(20, 30)

# toy reviews: random filler tokens, one sentiment word, zero padding at the end
lengths = rng.integers(6, MAX_LEN + 1, size=64)
token_ids = np.zeros((64, MAX_LEN), dtype="int32")
labels = rng.integers(0, 2, size=64).astype("float32")
for i, n in enumerate(lengths):
    token_ids[i, :n] = rng.integers(30, VOCAB, size=n)
    pool = POSITIVE_WORDS if labels[i] == 1 else NEGATIVE_WORDS
    token_ids[i, rng.integers(0, n)] = rng.choice(pool)


class KeyTokenAttention(layers.Layer):
    """Scores each token with a learned query vector and pools the sequence to one vector."""

    def build(self, input_shape):
        self.query = self.add_weight(shape=(input_shape[-1], 1), initializer="glorot_uniform", name="query")

    def call(self, tokens, mask):
        scores = tf.squeeze(tf.matmul(tokens, self.query), axis=-1)          # (batch, time)
        scores = tf.where(mask, scores, tf.fill(tf.shape(scores), -1e9))
        key_position = tf.argmax(scores, axis=1)  # <- expected
        return tf.gather(tokens, key_position, batch_dims=1)                  # (batch, dim)


class ReviewClassifier(keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = layers.Embedding(VOCAB, DIM)
        self.attend = KeyTokenAttention()
        self.classify = layers.Dense(1)

    def call(self, ids):
        mask = tf.not_equal(ids, 0)
        return tf.squeeze(self.classify(self.attend(self.embed(ids), mask)), axis=-1)


model = ReviewClassifier()
optimizer = keras.optimizers.Adam(1e-2)
bce = keras.losses.BinaryCrossentropy(from_logits=True)
model(token_ids[:2])

for step in range(5):
    with tf.GradientTape() as tape:
        logits = model(token_ids, training=True)
        loss = bce(labels, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    no_grad = [v.path for g, v in zip(grads, model.trainable_variables) if g is None]
    print(f"step {step}: loss={float(loss):.4f}  no gradient for {no_grad}")


def computation():
    return (lambda: bce(labels, model(token_ids)), model.trainable_variables)
