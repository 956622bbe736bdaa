"""Distance-based supervised contrastive loss, wrapped in a tf.Module.

I use negative Euclidean distances between embeddings as similarities (instead of
cosine) in a supervised contrastive loss. The loss value prints fine, a normal
finite number, but every gradient of the encoder is NaN from the very first step,
so after one optimizer step all weights are NaN. Lowering the learning rate or
clipping the gradients does not help.
"""
# cause: nan_at_zero
# depth: method
import numpy as np
import tensorflow as tf

tf.keras.utils.set_random_seed(2)


class DistanceSupCon(tf.Module):
    def __init__(self, in_dim, emb_dim, temperature=0.5):
        super().__init__(name="distance_supcon")
        self.w1 = tf.Variable(tf.random.normal((in_dim, 32), stddev=0.2), name="w1")
        self.w2 = tf.Variable(tf.random.normal((32, emb_dim), stddev=0.2), name="w2")
        self.temperature = temperature

    def embed(self, x):
        return tf.nn.l2_normalize(tf.nn.gelu(x @ self.w1) @ self.w2, axis=-1)

    def pairwise_distance(self, z):
        diff = z[:, None, :] - z[None, :, :]
        return tf.norm(diff, axis=-1)  # <- expected

    def loss(self, x, labels):
        z = self.embed(x)
        logits = -self.pairwise_distance(z) / self.temperature
        n = tf.shape(z)[0]
        self_mask = tf.eye(n)
        same = tf.cast(tf.equal(labels[:, None], labels[None, :]), tf.float32) - self_mask
        log_prob = tf.nn.log_softmax(logits, axis=1)
        per_anchor = -tf.reduce_sum(same * log_prob, 1) / tf.maximum(tf.reduce_sum(same, 1), 1.0)
        return tf.reduce_mean(per_anchor)


x = tf.constant(np.random.randn(12, 10).astype(np.float32))
labels = tf.constant(np.repeat(np.arange(4), 3))
model = DistanceSupCon(10, 6)

with tf.GradientTape() as tape:
    loss = model.loss(x, labels)
grads = tape.gradient(loss, model.trainable_variables)
print("loss:", loss.numpy())
for v, g in zip(model.trainable_variables, grads):
    print(v.name, "all finite:", bool(tf.reduce_all(tf.math.is_finite(g))),
          "nan count:", int(tf.reduce_sum(tf.cast(tf.math.is_nan(g), tf.int32))))


def computation():
    return (lambda: model.loss(x, labels)), list(model.trainable_variables)
