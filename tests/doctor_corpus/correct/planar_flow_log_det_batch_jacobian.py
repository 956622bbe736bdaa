"""A planar normalizing flow fitted to a banana-shaped 2-D density by reverse KL; the flow's
log-determinant comes from tape.batch_jacobian inside a method of the tf.Module."""
# cause: connected
# depth: method
import math
import tensorflow as tf

tf.random.set_seed(31)


class PlanarFlow(tf.Module):
    def __init__(self, dim=2):
        super().__init__()
        self.u = tf.Variable(tf.random.normal((dim,), stddev=0.1), name="u")
        self.w = tf.Variable(tf.random.normal((dim,), stddev=0.1), name="w")
        self.b = tf.Variable(0.0, name="b")

    def __call__(self, z):
        return z + self.u * tf.tanh(tf.reduce_sum(z * self.w, axis=1, keepdims=True) + self.b)

    def forward_and_log_det(self, z):
        with tf.GradientTape() as tape:
            tape.watch(z)
            x = self(z)
        jac = tape.batch_jacobian(x, z)  # (batch, 2, 2)
        _, log_abs_det = tf.linalg.slogdet(jac)
        return x, log_abs_det


def log_target(x):  # unnormalised banana density
    return -0.5 * (x[:, 0] ** 2 + (x[:, 1] - x[:, 0] ** 2) ** 2 / 0.25)


flow = PlanarFlow()
optimizer = tf.keras.optimizers.Adam(1e-2)
z = tf.random.normal((64, 2))
log_q0 = -0.5 * tf.reduce_sum(z ** 2, axis=1) - math.log(2 * math.pi)


def reverse_kl():
    x, log_det = flow.forward_and_log_det(z)
    return tf.reduce_mean(log_q0 - log_det - log_target(x))


with tf.GradientTape() as tape:
    kl = reverse_kl()
grads = tape.gradient(kl, flow.trainable_variables)
optimizer.apply_gradients(zip(grads, flow.trainable_variables))
print("reverse KL:", float(kl))


def computation():
    return (lambda *variables: reverse_kl()), flow.trainable_variables
