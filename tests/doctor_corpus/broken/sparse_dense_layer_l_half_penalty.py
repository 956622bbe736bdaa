"""A dense layer with an L1/2 sparsity penalty (sparser than L1), added with add_loss. With the
penalty the layer's bias gets a NaN gradient from the first step; without the add_loss line the
model trains."""
# cause: nan_at_zero
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(2)


class SparseDense(keras.layers.Layer):
    def __init__(self, units, lam=1e-3, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.lam = lam

    def build(self, input_shape):
        self.w = self.add_weight(name="kernel", shape=(input_shape[-1], self.units), initializer="glorot_uniform")
        self.b = self.add_weight(name="bias", shape=(self.units,), initializer="zeros")

    def call(self, x):
        # L1/2 regulariser: sum of sqrt(|w|)
        penalty = tf.reduce_sum(tf.abs(self.w) ** 0.5) + tf.reduce_sum(tf.abs(self.b) ** 0.5)  # <- expected
        self.add_loss(self.lam * penalty)
        return tf.matmul(x, self.w) + self.b


model = keras.Sequential([keras.Input((5,)), SparseDense(4), keras.layers.ReLU(), keras.layers.Dense(1)])
x = tf.random.normal((16, 5))
y = tf.reduce_sum(x[:, :2], axis=1, keepdims=True)


def compute_loss(x, y):
    pred = model(x, training=True)
    return tf.reduce_mean(tf.square(pred - y)) + tf.add_n(model.losses)


with tf.GradientTape() as tape:
    loss = compute_loss(x, y)
grads = tape.gradient(loss, model.trainable_variables)
for v, g in zip(model.trainable_variables, grads):
    print(v.path, "finite" if bool(tf.reduce_all(tf.math.is_finite(g))) else "NOT finite")


def computation():
    return (lambda *variables: compute_loss(x, y)), model.trainable_variables
