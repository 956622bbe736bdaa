"""WGAN-GP critic step under @tf.function: the gradient penalty on interpolated samples is
computed with a tape nested inside the critic's tape."""
# cause: connected
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(22)
latent_dim, gp_weight = 4, 10.0

generator = keras.Sequential([keras.Input((latent_dim,)), keras.layers.Dense(16, activation="relu"),
                              keras.layers.Dense(2)])
critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(16, activation="relu"),
                           keras.layers.Dense(1)])
c_optimizer = keras.optimizers.Adam(1e-4, beta_1=0.5, beta_2=0.9)


@tf.function
def critic_step(real):
    batch = tf.shape(real)[0]
    fake = generator(tf.random.normal((batch, latent_dim)), training=False)
    eps = tf.random.uniform((batch, 1))
    interpolated = eps * real + (1.0 - eps) * fake
    with tf.GradientTape() as c_tape:
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interpolated)
            critic_interp = critic(interpolated, training=True)
        slopes = gp_tape.gradient(critic_interp, interpolated)
        penalty = tf.reduce_mean((tf.norm(slopes + 1e-12, axis=1) - 1.0) ** 2)
        wasserstein = (tf.reduce_mean(critic(fake, training=True))
                       - tf.reduce_mean(critic(real, training=True)))
        c_loss = wasserstein + gp_weight * penalty
    grads = c_tape.gradient(c_loss, critic.trainable_variables)
    c_optimizer.apply_gradients(zip(grads, critic.trainable_variables))
    return c_loss


real_points = tf.random.normal((32, 2)) * 0.5 + 1.0
for step in range(2):
    c_loss = critic_step(real_points)
print("critic loss:", float(c_loss))
