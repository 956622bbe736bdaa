"""WGAN-GP critic update on a 2-D ring-of-Gaussians toy dataset.

The asker says the gradient penalty does nothing: the gradients of the penalty with
respect to the critic's weights come back as None, while the Wasserstein term's
gradients look normal.
"""
# cause: inner_gradient_outside
# depth: main
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(0)
angles = rng.integers(0, 8, 256) * (2 * np.pi / 8)
ring = 2.0 * np.stack([np.cos(angles), np.sin(angles)], axis=1) + rng.normal(0, 0.05, (256, 2))
real = tf.constant(ring, tf.float32)

keras.utils.set_random_seed(0)
generator = keras.Sequential([keras.Input((4,)), keras.layers.Dense(32, activation="relu"),
                              keras.layers.Dense(2)])
critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(64, activation="relu"),
                           keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1)])
gp_weight = 10.0


def critic_step(real_batch):
    n = real_batch.shape[0]
    fake = generator(tf.random.normal([n, 4], seed=1))
    eps = tf.random.uniform([n, 1], seed=2)
    interp = eps * real_batch + (1.0 - eps) * fake
    with tf.GradientTape(persistent=True) as tape:
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interp)
            critic_interp = critic(interp)
        wasserstein = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real_batch))
    grad_interp = gp_tape.gradient(critic_interp, interp)  # <- expected
    slopes = tf.sqrt(tf.reduce_sum(grad_interp**2, axis=1) + 1e-12)
    penalty = gp_weight * tf.reduce_mean((slopes - 1.0) ** 2)
    w_grads = tape.gradient(wasserstein, critic.trainable_variables)
    gp_grads = tape.gradient(penalty, critic.trainable_variables)
    return wasserstein, penalty, w_grads, gp_grads


wasserstein, penalty, w_grads, gp_grads = critic_step(real)
print("wasserstein:", float(wasserstein), "penalty:", float(penalty))
for v, gw, gp in zip(critic.trainable_variables, w_grads, gp_grads):
    print(v.path, "| W grad None:", gw is None, "| GP grad None:", gp is None)
