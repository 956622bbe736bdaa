"""GraphSAGE-style node classifier written by hand (mean aggregator, no library).

In my full training loop the loss decreases, but Adam warns "Gradients do not exist for
variables ... w_self". Below is one step: printing the gradients per variable, the w_self
kernel of both SAGE layers is None, while w_neigh and the biases get gradients. The layer
is called normally in the model and w_self is created in build() with trainable=True.
"""
# cause: unused
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(4)
rng = np.random.RandomState(4)

n_nodes, n_feats, n_classes = 12, 6, 3
adj = (rng.uniform(size=(n_nodes, n_nodes)) < 0.25).astype("float32")
adj = np.maximum(adj, adj.T) * (1 - np.eye(n_nodes, dtype="float32"))
node_x = tf.constant(rng.normal(size=(n_nodes, n_feats)).astype("float32"))
node_y = tf.constant(rng.randint(0, n_classes, size=n_nodes))


class SageConv(keras.layers.Layer):
    def __init__(self, units, activation=None, **kw):
        super().__init__(**kw)
        self.units, self.activation = units, keras.activations.get(activation)

    def build(self, input_shape):
        d = input_shape[-1]
        self.w_self = self.add_weight(shape=(d, self.units), name="w_self")
        self.w_neigh = self.add_weight(shape=(d, self.units), name="w_neigh")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", name="b")

    def call(self, h, a):
        deg = tf.reduce_sum(a, axis=1, keepdims=True)
        neigh_mean = tf.matmul(a, h) / tf.maximum(deg, 1.0)
        out = tf.matmul(h, self.w_neigh) + tf.matmul(neigh_mean, self.w_neigh) + self.b  # <- expected
        return self.activation(out)


class NodeClassifier(keras.Model):
    def __init__(self):
        super().__init__()
        self.sage1 = SageConv(16, activation="relu")
        self.sage2 = SageConv(n_classes)

    def call(self, h, a):
        return self.sage2(self.sage1(h, a), a)


model = NodeClassifier()
a = tf.constant(adj)
xent = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def compute_loss():
    return xent(node_y, model(node_x, a))


with tf.GradientTape() as tape:
    loss = compute_loss()
grads = tape.gradient(loss, model.trainable_variables)
print("loss", float(loss))
for v, g in zip(model.trainable_variables, grads):
    print(f"{v.path:24s}", None if g is None else g.shape)


def computation():
    return compute_loss, model.trainable_variables
