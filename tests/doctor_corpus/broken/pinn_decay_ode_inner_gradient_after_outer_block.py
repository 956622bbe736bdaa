"""A physics-informed network for u'(t) = -k u(t), u(0) = 1; the printed gradients of the
network's weights are all None."""
# cause: inner_gradient_outside
# depth: main
import tensorflow as tf
import keras

keras.utils.set_random_seed(29)
k = 2.0
t = tf.reshape(tf.linspace(0.0, 1.0, 32), (-1, 1))
t0 = tf.zeros((1, 1))

net = keras.Sequential([
    keras.Input((1,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        inner.watch(t)
        u = net(t)
    u0 = net(t0)
du_dt = inner.gradient(u, t)  # <- expected
residual = du_dt + k * u
loss = tf.reduce_mean(tf.square(residual)) + tf.reduce_mean(tf.square(u0 - 1.0))

grads = outer.gradient(loss, net.trainable_variables)
print("loss", float(loss))
print("grads", grads)
