"""Physics-informed network for the radial Poisson equation u'' + (2/r) u' = -1 on a shell
0.1 <= r <= 1, u = 0 on both spheres; the derivatives come from one persistent tape in a helper."""
# cause: connected
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(29)

net = keras.Sequential([
    keras.Input((1,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)
r = tf.reshape(tf.linspace(0.1, 1.0, 21), (-1, 1))
r_boundary = tf.constant([[0.1], [1.0]])


def residual(r):
    with tf.GradientTape(persistent=True) as t:
        t.watch(r)
        u = net(r)
        u_r = t.gradient(u, r)
    u_rr = t.gradient(u_r, r)
    del t
    return u_rr + 2.0 * r ** -1 * u_r + 1.0


def pinn_loss():
    return tf.reduce_mean(residual(r) ** 2) + tf.reduce_mean(net(r_boundary) ** 2)


for step in range(2):
    with tf.GradientTape() as tape:
        loss = pinn_loss()
    grads = tape.gradient(loss, net.trainable_variables)
    optimizer.apply_gradients(zip(grads, net.trainable_variables))
print("PINN loss:", float(loss))


def computation():
    return (lambda *variables: pinn_loss()), net.trainable_variables
