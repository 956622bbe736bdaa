"""A TF 2 port of the "GANs in 50 lines" example: the discriminator sees the first four moments of
the generated samples, computed with TensorFlow operations."""
# cause: connected
# depth: main
# thread: tensorflow/tensorflow#31919
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)
g_input_size = 1
g_hidden_size = 8
g_output_size = 1
d_input_size = 4
d_hidden_size = 8
minibatch_size = 16

G = keras.Sequential([
    keras.Input((g_input_size,)),
    keras.layers.Dense(g_hidden_size, activation="elu"),
    keras.layers.Dense(g_hidden_size, activation="sigmoid"),
    keras.layers.Dense(g_output_size),
])
D = keras.Sequential([
    keras.Input((d_input_size,)),
    keras.layers.Dense(d_hidden_size, activation="elu"),
    keras.layers.Dense(d_hidden_size, activation="elu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
criterion = keras.losses.BinaryCrossentropy()
g_optimizer = keras.optimizers.SGD(learning_rate=2e-4, momentum=0.9)


def get_moments(d):
    # Return the first 4 moments of the data provided
    mean = tf.reduce_mean(d)
    diffs = d - mean
    var = tf.reduce_mean(tf.pow(diffs, 2.0))
    std = tf.pow(var, 0.5)
    zscores = diffs / std
    skews = tf.reduce_mean(tf.pow(zscores, 3.0))
    kurtoses = tf.reduce_mean(tf.pow(zscores, 4.0)) - 3.0  # excess kurtosis, should be 0 for Gaussian
    final = tf.stack([mean, std, skews, kurtoses])
    return final


gen_input = np.random.rand(minibatch_size, g_input_size).astype("float32")

with tf.GradientTape() as tape:
    g_fake_data = G(gen_input)
    dg_fake_decision = D(tf.reshape(get_moments(tf.transpose(g_fake_data)), (1, 4)))
    g_error = criterion(tf.ones([1, 1]), dg_fake_decision)  # we want to fool, so pretend it's all genuine
grads = tape.gradient(g_error, G.trainable_variables)
g_optimizer.apply_gradients(zip(grads, G.trainable_variables))
