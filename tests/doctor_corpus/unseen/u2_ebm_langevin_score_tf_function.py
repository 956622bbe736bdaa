"""Energy-based model on 2-D points; the Langevin sampler needs the gradient of the energy with
respect to the samples, and that gradient is None inside the compiled function."""
# cause: not_watched
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(14)

energy_net = keras.Sequential([
    keras.Input((2,)),
    keras.layers.Dense(32, activation="swish"),
    keras.layers.Dense(32, activation="swish"),
    keras.layers.Dense(1),
])


@tf.function
def energy_and_score(x):
    with tf.GradientTape() as tape:  # <- expected
        energy = tf.reduce_sum(energy_net(x, training=False))
    score = tape.gradient(energy, x)  # <- expected
    return energy, score


samples = tf.random.normal((64, 2))
energy, score = energy_and_score(samples)
print("energy:", float(energy), "score:", score)
