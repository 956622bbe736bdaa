"""A few warm-up steps that train a WGAN critic on its gradient penalty alone, to make it roughly
1-Lipschitz before the adversarial game starts. tape.gradient gives None for the critic's last
bias, so the None entries are filtered out before apply_gradients."""
# cause: none_is_correct
# depth: helper
import tensorflow as tf
import keras

keras.utils.set_random_seed(42)

critic = keras.Sequential([
    keras.Input((2,)),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(16, activation="tanh"),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-3)
real = tf.random.normal((16, 2))
fake = tf.random.normal((16, 2)) * 2.0 + 1.0


def gradient_penalty(real, fake):
    alpha = tf.random.uniform((tf.shape(real)[0], 1))
    interp = alpha * real + (1.0 - alpha) * fake
    with tf.GradientTape() as inner:
        inner.watch(interp)
        scores = critic(interp)
    g = inner.gradient(scores, interp)
    norm = tf.sqrt(tf.reduce_sum(tf.square(g), axis=1) + 1e-12)
    return tf.reduce_mean(tf.square(norm - 1.0))


for step in range(3):
    with tf.GradientTape() as tape:
        gp = gradient_penalty(real, fake)
    grads = tape.gradient(gp, critic.trainable_variables)  # <- expected
    pairs = [(g, v) for g, v in zip(grads, critic.trainable_variables) if g is not None]
    optimizer.apply_gradients(pairs)
print("penalty:", float(gp), "| no gradient for:", [v.path for g, v in zip(grads, critic.trainable_variables) if g is None])


def computation():
    def penalty(*variables):
        tf.random.set_seed(43)
        return gradient_penalty(real, fake)
    return penalty, critic.trainable_variables
