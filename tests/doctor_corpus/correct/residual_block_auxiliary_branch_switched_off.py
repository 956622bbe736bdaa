"""A residual block whose auxiliary branch is switched on only after a warm-up phase (a Python flag
checked in call). During warm-up the branch's weights exist but get None from tape.gradient,
and the loop skips them."""
# cause: none_is_correct
# depth: layer
import tensorflow as tf
import keras

keras.utils.set_random_seed(46)


class GatedResidual(keras.layers.Layer):
    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.main = keras.layers.Dense(units, activation="relu")
        self.aux = keras.layers.Dense(units)
        self.aux_enabled = False

    def build(self, input_shape):
        self.main.build(input_shape)
        self.aux.build(input_shape)

    def call(self, x):
        h = self.main(x)
        if self.aux_enabled:
            h = h + self.aux(x)
        return x + h


block = GatedResidual(6)
model = keras.Sequential([keras.Input((6,)), block, keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam(1e-2)
x = tf.random.normal((12, 6))
y = tf.reduce_sum(x, axis=1, keepdims=True)
warmup_steps = 5

for step in range(2):  # still in warm-up
    block.aux_enabled = step >= warmup_steps
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)  # <- expected
    optimizer.apply_gradients([(g, v) for g, v in zip(grads, model.trainable_variables) if g is not None])
print("loss:", float(loss), "| None:", [v.path for g, v in zip(grads, model.trainable_variables) if g is None])


def computation():
    return (lambda *v: tf.reduce_mean(tf.square(model(x) - y))), block.aux.trainable_variables
