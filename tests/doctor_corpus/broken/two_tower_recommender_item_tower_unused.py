"""Two-tower retrieval model (user tower, item tower) trained with in-batch softmax;
all of the item tower's gradients come back None."""
# cause: unused
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(2)
user_feats = tf.random.normal((32, 6))
item_feats = tf.random.normal((32, 6))


def make_tower():
    return keras.Sequential([
        keras.Input((6,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(8)
    ])


user_tower = make_tower()
item_tower = make_tower()
optimizer = keras.optimizers.Adam(1e-3)


def embed(users, items):
    u = tf.math.l2_normalize(user_tower(users), axis=1)
    v = tf.math.l2_normalize(user_tower(items), axis=1)  # <- expected
    return u, v


def in_batch_softmax_loss(users, items, temperature=0.1):
    u, v = embed(users, items)
    logits = tf.matmul(u, v, transpose_b=True) / temperature
    labels = tf.range(tf.shape(logits)[0])
    xent = keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True)
    return tf.reduce_mean(xent)


def computation():
    compute = lambda *params: in_batch_softmax_loss(user_feats, item_feats)
    return compute, item_tower.trainable_variables


params = user_tower.trainable_variables + item_tower.trainable_variables
with tf.GradientTape() as tape:
    loss = in_batch_softmax_loss(user_feats, item_feats)
grads = tape.gradient(loss, params)
optimizer.apply_gradients(zip(grads, params))
print("loss", float(loss))
print("item tower grads:", grads[len(user_tower.trainable_variables):])
