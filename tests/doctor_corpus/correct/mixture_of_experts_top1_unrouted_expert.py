"""A mixture-of-experts layer with top-1 routing: each example is sent only to the expert the
router picks, scaled by the router's probability. In this batch no example is routed to one of
the experts, and tape.gradient gives None for that expert's weights."""
# cause: none_is_correct
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(48)


class Top1MoE(keras.Model):
    def __init__(self, n_experts=4, units=1):
        super().__init__()
        self.router = keras.layers.Dense(n_experts)
        self.experts = [keras.layers.Dense(units) for _ in range(n_experts)]
        self.units = units

    def build(self, input_shape):
        self.router.build(input_shape)
        for expert in self.experts:
            expert.build(input_shape)

    def call(self, x):
        probs = tf.nn.softmax(self.router(x))
        choice = tf.argmax(probs, axis=-1)
        gate = tf.reduce_max(probs, axis=-1, keepdims=True)
        out = tf.zeros((tf.shape(x)[0], self.units))
        for i, expert in enumerate(self.experts):
            idx = tf.where(choice == i)[:, 0]
            if tf.size(idx) == 0:  # nobody routed to this expert
                continue
            y_i = expert(tf.gather(x, idx)) * tf.gather(gate, idx)
            out = tf.tensor_scatter_nd_add(out, idx[:, None], y_i)
        return out


moe = Top1MoE()
x = tf.random.normal((6, 4))
y = tf.random.normal((6, 1))
moe.build(x.shape)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(moe(x) - y))
grads = tape.gradient(loss, moe.trainable_variables)  # <- expected
routed = tf.argmax(moe.router(x), axis=-1).numpy()
print("routing:", routed, "| None for:", [v.path for g, v in zip(grads, moe.trainable_variables) if g is None])


def computation():
    unrouted = [i for i in range(4) if i not in set(routed)]
    return (lambda *v: tf.reduce_mean(tf.square(moe(x) - y))), moe.experts[unrouted[0]].trainable_variables
