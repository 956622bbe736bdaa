"""A message-passing network for molecular property regression (gather over senders, segment sum
over receivers) with edge-feature gates; the gate kernel's gradient is always None."""
# cause: unused
# depth: layer
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(15)


class GatedMessagePassing(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units = units

    def build(self, nodes_shape, edges_shape):
        self.w_node = self.add_weight(shape=(nodes_shape[-1], self.units), name="w_node")
        self.w_edge = self.add_weight(shape=(edges_shape[-1], self.units), name="w_edge")
        self.w_self = self.add_weight(shape=(nodes_shape[-1], self.units), name="w_self")

    def call(self, nodes, edges, senders, receivers):
        gate = tf.sigmoid(tf.matmul(edges, self.w_edge))
        messages = tf.gather(tf.matmul(nodes, self.w_node), senders)  # <- expected
        agg = tf.math.unsorted_segment_sum(messages, receivers, num_segments=tf.shape(nodes)[0])
        return tf.nn.relu(tf.matmul(nodes, self.w_self) + agg)


class MoleculeNet(keras.Model):
    def __init__(self):
        super().__init__()
        self.mp1 = GatedMessagePassing(16)
        self.mp2 = GatedMessagePassing(8)
        self.readout = keras.layers.Dense(1)

    def call(self, nodes, edges, senders, receivers, graph_ids):
        h = self.mp1(nodes, edges, senders, receivers)
        h = self.mp2(h, edges, senders, receivers)
        return self.readout(tf.math.segment_mean(h, graph_ids))


rng = np.random.default_rng(15)
nodes, edges = rng.normal(size=(7, 5)).astype("float32"), rng.normal(size=(10, 3)).astype("float32")
senders = tf.constant([0, 1, 1, 2, 3, 4, 5, 6, 4, 5])
receivers = tf.constant([1, 0, 2, 1, 4, 3, 6, 5, 5, 4])
graph_ids, targets = tf.constant([0, 0, 0, 1, 1, 1, 1]), tf.constant([[0.5], [-1.2]])
model = MoleculeNet()


def mse_loss():
    return tf.reduce_mean(tf.square(model(nodes, edges, senders, receivers, graph_ids) - targets))


def computation():
    return mse_loss, model.trainable_variables


with tf.GradientTape() as tape:
    loss = mse_loss()
grads = tape.gradient(loss, model.trainable_variables)
