"""A TF 2 port of the "GANs in 50 lines" example: the discriminator sees the first four moments of
the generated samples. The discriminator trains, but the generator's gradients are all None."""
# cause: left_tensorflow
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
    mean = np.mean(d)
    diffs = d - mean
    var = np.mean(np.power(diffs, 2.0))
    std = np.power(var, 0.5)
    zscores = diffs / std
    skews = np.mean(np.power(zscores, 3.0))
    kurtoses = np.mean(np.power(zscores, 4.0)) - 3.0  # excess kurtosis, should be 0 for Gaussian
    final = np.concatenate((mean.reshape(1,), std.reshape(1,), skews.reshape(1,), kurtoses.reshape(1,)))
    return final


gen_input = np.random.rand(minibatch_size, g_input_size).astype("float32")

with tf.GradientTape() as tape:
    g_fake_data = G(gen_input)
    dg_fake_decision = D(get_moments(g_fake_data.numpy().T).reshape((1, 4)))  # <- expected
    g_error = criterion(tf.ones([1, 1]), dg_fake_decision)  # we want to fool, so pretend it's all genuine
grads = tape.gradient(g_error, G.trainable_variables)
