"""Traffic speed forecasting with a learned (adaptive) adjacency over road sensors.

The road graph is a fixed 0/1 mask stored as a non-trainable Variable, and the layer
learns positive edge weights on top of it, normalised as D^-1/2 A D^-1/2. Two sensors
are isolated (degree 0), which gave me NaN gradients in an earlier version, so I now use
tf.where. Before I launch the long run: are all the gradients I ask for finite now, and
is it fine that I don't ask for one on the mask?
"""
# cause: connected
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(9)
rng = np.random.RandomState(9)
n_sensors, n_steps = 8, 12

road = (rng.uniform(size=(n_sensors, n_sensors)) < 0.4).astype("float32")
road = np.maximum(road, road.T) * (1 - np.eye(n_sensors, dtype="float32"))
road[[2, 5], :] = 0.0
road[:, [2, 5]] = 0.0  # sensors 2 and 5 are not connected yet


class AdaptiveGraphConv(keras.layers.Layer):
    def __init__(self, mask, units, **kw):
        super().__init__(**kw)
        self.mask = tf.Variable(mask, trainable=False, name="road_mask")
        self.units = units

    def build(self, input_shape):
        n = self.mask.shape[0]
        self.edge_logits = self.add_weight(shape=(n, n), initializer="zeros", name="edge_logits")
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units), name="kernel")

    def call(self, h):
        adj = self.mask * tf.nn.softplus(self.edge_logits)
        deg = tf.reduce_sum(adj, axis=1)
        safe_deg = tf.where(deg > 0.0, deg, tf.ones_like(deg))
        inv_sqrt = tf.where(deg > 0.0, tf.math.rsqrt(safe_deg), tf.zeros_like(deg))
        norm_adj = inv_sqrt[:, None] * adj * inv_sqrt[None, :]
        return tf.nn.relu(tf.matmul(norm_adj, h) @ self.kernel + h @ self.kernel)


graph_conv = AdaptiveGraphConv(road, 16)
readout = keras.layers.Dense(1)
speeds = tf.constant(rng.normal(60, 8, size=(n_sensors, n_steps)).astype("float32") / 60.0)
target = tf.constant(rng.normal(1.0, 0.1, size=(n_sensors, 1)).astype("float32"))


def compute_loss():
    return tf.reduce_mean((readout(graph_conv(speeds)) - target) ** 2)


with tf.GradientTape() as tape:
    loss = compute_loss()
variables = graph_conv.trainable_variables + readout.trainable_variables
grads = tape.gradient(loss, variables)
print("loss", float(loss))
for v, g in zip(variables, grads):
    print(f"{v.name:12s} finite: {bool(tf.reduce_all(tf.math.is_finite(g)))}")


def computation():
    return compute_loss, graph_conv.trainable_variables + readout.trainable_variables
