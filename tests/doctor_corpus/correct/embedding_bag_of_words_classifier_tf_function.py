"""A bag-of-words sentiment classifier: Embedding + GlobalAveragePooling1D + Dense, trained with a
tf.function train step. The embedding's gradient arrives as an IndexedSlices."""
# cause: connected
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(35)
vocab_size, maxlen = 50, 6

model = keras.Sequential([
    keras.Input((maxlen,), dtype="int32"),
    keras.layers.Embedding(vocab_size, 8, mask_zero=True),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(1),
])
loss_fn = keras.losses.BinaryCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-2)

tokens = tf.constant([[4, 12, 7, 0, 0, 0], [3, 3, 41, 9, 2, 0], [17, 8, 0, 0, 0, 0], [5, 6, 7, 8, 9, 10]])
labels = tf.constant([[1.0], [0.0], [1.0], [0.0]])


@tf.function
def train_step(tokens, labels):
    with tf.GradientTape() as tape:
        loss = loss_fn(labels, model(tokens, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for step in range(2):
    loss = train_step(tokens, labels)
print("loss:", float(loss))


def computation():
    return (lambda *variables: loss_fn(labels, model(tokens))), model.trainable_variables
