"""WGAN-GP critic step under tf.function; tf.norm raises because the penalty's gradient is None."""
# cause: not_watched
# depth: tf.function
import tensorflow as tf
import keras

tf.random.set_seed(12)

latent_dim, data_dim, gp_weight = 3, 2, 10.0
generator = keras.Sequential([keras.Input((latent_dim,)), keras.layers.Dense(8, activation="relu"),
                              keras.layers.Dense(data_dim)])
critic = keras.Sequential([keras.Input((data_dim,)), keras.layers.Dense(8, activation="relu"),
                           keras.layers.Dense(1)])
critic_opt = keras.optimizers.Adam(1e-4, beta_1=0.5, beta_2=0.9)


@tf.function
def critic_step(real):
    batch = tf.shape(real)[0]
    noise = tf.random.normal((batch, latent_dim))
    with tf.GradientTape() as tape:
        fake = generator(noise, training=True)
        real_score = critic(real, training=True)
        fake_score = critic(fake, training=True)

        alpha = tf.random.uniform((batch, 1), 0.0, 1.0)
        interpolated = real + alpha * (fake - real)
        with tf.GradientTape() as gp_tape:  # <- expected
            interp_score = critic(interpolated, training=True)
        gp_grads = gp_tape.gradient(interp_score, interpolated)
        gp = tf.reduce_mean((tf.norm(gp_grads, axis=1) - 1.0) ** 2)

        loss = tf.reduce_mean(fake_score) - tf.reduce_mean(real_score) + gp_weight * gp
    grads = tape.gradient(loss, critic.trainable_variables)
    critic_opt.apply_gradients(zip(grads, critic.trainable_variables))
    return loss


real = tf.random.normal((16, data_dim), mean=2.0)
print("critic loss:", float(critic_step(real)))
