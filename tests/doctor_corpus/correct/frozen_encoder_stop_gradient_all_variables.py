"""Linear probing of a pretrained encoder: the encoder's features go through tf.stop_gradient so
only the linear head learns, and the tape is asked for the variables of both models; the
encoder's entries come back None and are skipped."""
# cause: none_is_correct
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(45)

encoder = keras.Sequential([keras.Input((12,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(4)])
head = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.SGD(0.1)

x = tf.random.normal((10, 12))
y = tf.random.uniform((10,), 0, 3, dtype=tf.int32)
variables = encoder.trainable_variables + head.trainable_variables


def probe_loss(x, y):
    features = tf.stop_gradient(encoder(x))  # linear probe: the encoder stays as it is
    return loss_fn(y, head(features))


for step in range(2):
    with tf.GradientTape() as tape:
        loss = probe_loss(x, y)
    grads = tape.gradient(loss, variables)  # <- expected
    optimizer.apply_gradients([(g, v) for g, v in zip(grads, variables) if g is not None])
print("loss:", float(loss), "| None grads:", sum(g is None for g in grads))


def computation():
    return (lambda *v: probe_loss(x, y)), encoder.trainable_variables
