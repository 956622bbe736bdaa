"""beta-VAE on binarised 8x8 images with a @tf.function training step: tape.gradient returns None
for every weight of the encoder and the decoder."""
# cause: outside_tape
# depth: tf.function
import tensorflow as tf
import keras

keras.utils.set_random_seed(13)
latent_dim, beta = 2, 4.0

enc_in = keras.Input((64,))
h = keras.layers.Dense(32, activation="relu")(enc_in)
encoder = keras.Model(enc_in, [keras.layers.Dense(latent_dim)(h), keras.layers.Dense(latent_dim)(h)])
decoder = keras.Sequential([
    keras.Input((latent_dim,)),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(64, activation="sigmoid"),
])
variables = encoder.trainable_variables + decoder.trainable_variables


@tf.function
def train_step(x):
    with tf.GradientTape() as tape:
        z_mean, z_log_var = encoder(x, training=True)
        eps = tf.random.normal(tf.shape(z_mean))
        z = z_mean + tf.exp(0.5 * z_log_var) * eps
        x_recon = decoder(z, training=True)
        recon = tf.reduce_mean(tf.reduce_sum(keras.losses.binary_crossentropy(
            x[..., None], x_recon[..., None]), axis=1))
        kl = -0.5 * tf.reduce_mean(tf.reduce_sum(
            1.0 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var), axis=1))
    loss = recon + beta * kl  # <- expected
    grads = tape.gradient(loss, variables)
    return loss, grads


images = tf.cast(tf.random.uniform((32, 64)) > 0.5, tf.float32)
loss, grads = train_step(images)
print("loss:", float(loss), "first gradient:", grads[0])
