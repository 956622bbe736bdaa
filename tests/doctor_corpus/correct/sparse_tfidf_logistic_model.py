"""A linear text classifier on sparse TF-IDF features (a tf.sparse.SparseTensor), with the sparse
matmul in a helper and plain SGD on two Variables."""
# cause: connected
# depth: helper
import tensorflow as tf

tf.random.set_seed(37)
vocab = 20

features = tf.sparse.SparseTensor(
    indices=[[0, 1], [0, 7], [1, 3], [1, 7], [1, 15], [2, 0], [3, 19], [3, 2]],
    values=[0.5, 1.2, 0.3, 0.8, 1.1, 2.0, 0.7, 0.4],
    dense_shape=[4, vocab],
)
labels = tf.constant([[1.0], [0.0], [1.0], [0.0]])

w = tf.Variable(tf.random.normal((vocab, 1), stddev=0.1), name="w")
b = tf.Variable(tf.zeros((1,)), name="b")


def logits(x):
    return tf.sparse.sparse_dense_matmul(x, w) + b


def loss_fn(x, y):
    return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=logits(x)))


for step in range(3):
    with tf.GradientTape() as tape:
        loss = loss_fn(features, labels)
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.5 * dw)
    b.assign_sub(0.5 * db)
print("loss:", float(loss))


def computation():
    return (lambda w, b: loss_fn(features, labels)), [w, b]
