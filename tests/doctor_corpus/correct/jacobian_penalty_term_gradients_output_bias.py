"""A regression net trained with an MSE term plus a Jacobian (smoothness) penalty taken with
batch_jacobian. To balance the two terms, a helper class measures the gradient norm of each term
per layer; for the penalty term the last layer's bias gets None."""
# cause: none_is_correct
# depth: method
import tensorflow as tf
import keras

keras.utils.set_random_seed(44)

model = keras.Sequential([
    keras.Input((3,)),
    keras.layers.Dense(8, activation="softplus"),
    keras.layers.Dense(2),
])
x = tf.random.normal((10, 3))
y = tf.random.normal((10, 2))


class TermBalancer:
    def __init__(self, model):
        self.model = model

    def jacobian_penalty(self, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = self.model(x)
        jac = tape.batch_jacobian(out, x)  # (batch, 2, 3)
        return tf.reduce_mean(tf.reduce_sum(tf.square(jac), axis=[1, 2]))

    def mse(self, x, y):
        return tf.reduce_mean(tf.square(self.model(x) - y))

    def grad_norms(self, term):
        with tf.GradientTape() as tape:
            value = term()
        grads = tape.gradient(value, self.model.trainable_variables)  # <- expected
        return {v.path: (None if g is None else float(tf.norm(g))) for g, v in zip(grads, self.model.trainable_variables)}


balancer = TermBalancer(model)
print("mse:", balancer.grad_norms(lambda: balancer.mse(x, y)))
print("jacobian:", balancer.grad_norms(lambda: balancer.jacobian_penalty(x)))


def computation():
    return (lambda *variables: balancer.jacobian_penalty(x)), model.trainable_variables
