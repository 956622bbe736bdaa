"""Physics-informed network for radioactive decay, also estimating the decay rate.

The ODE residual du/dt + lam * u needs du/dt, so I take it with an inner tape over
the collocation times (a constant that I watch). I update with assign_sub. I want
to be sure every gradient, including the one for lam, is a real finite tensor.
"""
# cause: connected
# depth: main
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(8)
true_lam = 0.7
t_obs = np.sort(rng.uniform(0, 4, size=12)).astype("float32")[:, None]
u_obs = (np.exp(-true_lam * t_obs) + 0.01 * rng.normal(size=t_obs.shape)).astype("float32")
t_colloc = tf.constant(np.linspace(0, 4, 64, dtype="float32")[:, None])

keras.utils.set_random_seed(8)
net = keras.Sequential([keras.Input((1,)), keras.layers.Dense(20, activation="tanh"),
                        keras.layers.Dense(20, activation="tanh"), keras.layers.Dense(1)])
lam = tf.Variable(0.2, name="decay_rate")
params = net.trainable_variables + [lam]


def pinn_loss():
    with tf.GradientTape() as inner:
        inner.watch(t_colloc)
        u = net(t_colloc)
    du_dt = inner.gradient(u, t_colloc)
    residual = du_dt + lam * u
    data_term = tf.reduce_mean(tf.square(net(t_obs) - u_obs))
    return data_term + tf.reduce_mean(tf.square(residual))


lr = 0.01
for step in range(5):
    with tf.GradientTape() as tape:
        loss = pinn_loss()
    grads = tape.gradient(loss, params)
    finite = [g is not None and bool(tf.reduce_all(tf.math.is_finite(g))) for g in grads]
    print(f"step {step}: loss {loss.numpy():.4f} lam {lam.numpy():.4f} all finite: {all(finite)}")
    for p, g in zip(params, grads):
        p.assign_sub(lr * g)
print("d loss / d lam:", grads[-1])


def computation():
    return pinn_loss, params
