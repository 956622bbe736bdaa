"""SimCLR-style contrastive pretraining on random feature vectors: two noisy views go through a backbone and a
projection head, and an NT-Xent loss pulls matching views together. The projection head's gradients are None."""
# cause: unused
# depth: helper
import numpy as np
import tensorflow as tf
from tensorflow import keras

rng = np.random.default_rng(5)
keras.utils.set_random_seed(5)

data = rng.normal(size=(32, 20)).astype("float32")

backbone = keras.Sequential([keras.Input((20,)), keras.layers.Dense(64, activation="relu"),
                             keras.layers.Dense(32, activation="relu")], name="backbone")
projection_head = keras.Sequential([keras.Input((32,)), keras.layers.Dense(32, activation="relu"),
                                    keras.layers.Dense(16)], name="projection_head")
optimizer = keras.optimizers.Adam(1e-3)
temperature = 0.5


def augment(x):
    noise = tf.random.normal(tf.shape(x), stddev=0.1)
    mask = tf.cast(tf.random.uniform(tf.shape(x)) > 0.1, tf.float32)
    return (x + noise) * mask


def embed(x):
    h = backbone(x, training=True)
    z = projection_head(h, training=True)
    return tf.math.l2_normalize(h, axis=1)  # <- expected


def nt_xent(z1, z2):
    n = tf.shape(z1)[0]
    z = tf.concat([z1, z2], axis=0)
    sim = tf.matmul(z, z, transpose_b=True) / temperature
    sim = sim - 1e9 * tf.eye(2 * n)
    labels = tf.concat([tf.range(n, 2 * n), tf.range(0, n)], axis=0)
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=sim))


variables = backbone.trainable_variables + projection_head.trainable_variables
x = tf.constant(data)
for step in range(3):
    view1, view2 = augment(x), augment(x)
    with tf.GradientTape() as tape:
        loss = nt_xent(embed(view1), embed(view2))
    grads = tape.gradient(loss, variables)
    print(f"step {step}: loss {loss.numpy():.4f}")
    for v, g in zip(variables, grads):
        if g is None:
            print("   no gradient for", v.path)
    optimizer.apply_gradients(zip(grads, variables))

fixed_view1, fixed_view2 = augment(x), augment(x)


def computation():
    def compute():
        return nt_xent(embed(fixed_view1), embed(fixed_view2))
    return compute, list(variables)
