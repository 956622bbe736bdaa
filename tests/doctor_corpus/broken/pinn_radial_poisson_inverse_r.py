"""Physics-informed network for the radial Poisson equation in a sphere,
u'' + (2/r) u' = -1 with u'(0) = 0 and u(1) = 0. The very first loss is inf and the gradients are
NaN, although the same code for the 1-D equation u'' = -1 trains."""
# cause: nan_at_zero
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(7)

net = keras.Sequential([
    keras.Input((1,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])

r = tf.reshape(tf.linspace(0.0, 1.0, 21), (-1, 1))  # collocation points
r_boundary = tf.constant([[1.0]])

with tf.GradientTape() as tape:
    with tf.GradientTape() as t2:
        t2.watch(r)
        with tf.GradientTape() as t1:
            t1.watch(r)
            u = net(r)
        u_r = t1.gradient(u, r)
    u_rr = t2.gradient(u_r, r)
    residual = u_rr + 2.0 * r ** -1 * u_r + 1.0  # <- expected
    loss = tf.reduce_mean(residual ** 2) + tf.reduce_mean(net(r_boundary) ** 2)
grads = tape.gradient(loss, net.trainable_variables)
print("loss:", float(loss))
print("grad of first kernel:", grads[0][0, :4].numpy())


def computation():
    def pinn_loss(*variables):
        with tf.GradientTape() as t2:
            t2.watch(r)
            with tf.GradientTape() as t1:
                t1.watch(r)
                u = net(r)
            u_r = t1.gradient(u, r)
        u_rr = t2.gradient(u_r, r)
        residual = u_rr + 2.0 * r ** -1 * u_r + 1.0
        return tf.reduce_mean(residual ** 2) + tf.reduce_mean(net(r_boundary) ** 2)
    return pinn_loss, net.trainable_variables
