"""A WGAN-GP critic update on 2-D toy data, compiled with tf.function. The critic never learns: every
entry of the gradient list it computes is None."""
# cause: inner_gradient_outside
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(11)
LATENT, GP_WEIGHT = 4, 10.0

generator = keras.Sequential([keras.Input((LATENT,)), keras.layers.Dense(16, activation="relu"),
                              keras.layers.Dense(2)])
critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(16, activation="relu"),
                           keras.layers.Dense(1)])


@tf.function
def critic_gradients(real):
    batch = tf.shape(real)[0]
    fake = generator(tf.random.normal([batch, LATENT]))
    eps = tf.random.uniform([batch, 1])
    x_hat = eps * real + (1.0 - eps) * fake
    with tf.GradientTape() as d_tape:
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(x_hat)
            d_hat = critic(x_hat)
        w_loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real))
    grad_x = gp_tape.gradient(d_hat, x_hat)  # <- expected
    slopes = tf.sqrt(tf.reduce_sum(tf.square(grad_x), axis=1) + 1e-12)
    d_loss = w_loss + GP_WEIGHT * tf.reduce_mean(tf.square(slopes - 1.0))
    return d_loss, d_tape.gradient(d_loss, critic.trainable_variables)


real = tf.random.normal([32, 2], mean=[2.0, -1.0], stddev=0.3)
d_loss, d_grads = critic_gradients(real)
print("critic loss", float(d_loss))
