"""One critic step of a WGAN-GP on 2-D toy data, with the gradient penalty in a helper and an epsilon
inside the square root of the gradient norm."""
# cause: connected
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(20)

generator = keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(2)])
critic = keras.Sequential([keras.Input((2,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
critic_opt = keras.optimizers.Adam(1e-4, beta_1=0.0, beta_2=0.9)

real = tf.random.normal((8, 2)) * 0.2 + tf.constant([1.0, -1.0])
noise = tf.random.normal((8, 4))


def gradient_penalty(real, fake):
    alpha = tf.random.uniform((tf.shape(real)[0], 1))
    interp = alpha * real + (1.0 - alpha) * fake
    with tf.GradientTape() as gp_tape:
        gp_tape.watch(interp)
        score = critic(interp, training=True)
    grads = gp_tape.gradient(score, interp)
    norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=1) + 1e-12)
    return tf.reduce_mean(tf.square(norm - 1.0))


def critic_loss(real, noise, gp_weight=10.0):
    fake = generator(noise, training=True)
    wasserstein = tf.reduce_mean(critic(fake, training=True)) - tf.reduce_mean(critic(real, training=True))
    return wasserstein + gp_weight * gradient_penalty(real, fake)


with tf.GradientTape() as tape:
    d_loss = critic_loss(real, noise)
d_grads = tape.gradient(d_loss, critic.trainable_variables)
critic_opt.apply_gradients(zip(d_grads, critic.trainable_variables))
print("critic loss:", float(d_loss))


def computation():
    def loss(*variables):
        tf.random.set_seed(21)
        return critic_loss(real, noise)
    return loss, critic.trainable_variables
