"""A hand-written RNN layer that keeps its hidden state in a variable between batches; the
gradients of the cell's kernels W and U come back None."""
# cause: stateful
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(31)
batch, steps, features, units = 4, 5, 3, 6


class StatefulSimpleRNN(keras.layers.Layer):
    def __init__(self, units, batch_size, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.batch_size = batch_size

    def build(self, input_shape):
        self.W = self.add_weight(shape=(input_shape[-1], self.units), name="W")
        self.U = self.add_weight(shape=(self.units, self.units), name="U", initializer="orthogonal")
        self.state = self.add_weight(shape=(self.batch_size, self.units), name="state",
                                     initializer="zeros", trainable=False)

    def call(self, x):
        for t in range(x.shape[1]):
            h = tf.tanh(tf.matmul(x[:, t], self.W) + tf.matmul(self.state, self.U))
            self.state.assign(h)
        return self.state  # <- expected


rnn = StatefulSimpleRNN(units, batch)
head = keras.layers.Dense(1)
x = tf.random.normal((batch, steps, features))
y = tf.random.normal((batch, 1))


def loss_fn():
    return tf.reduce_mean(tf.square(head(rnn(x)) - y))


loss_fn()


def computation():
    return loss_fn, [rnn.W, rnn.U]


with tf.GradientTape() as tape:
    loss = loss_fn()
grads = tape.gradient(loss, [rnn.W, rnn.U] + head.trainable_variables)
print("loss", float(loss), "cell grads:", grads[:2])
