"""Fitting an exponential-disk galaxy light profile in magnitude space.

The model image is sky-subtracted and clipped at zero with relu (no negative flux);
pixels with zero flux get the sentinel magnitude 30, like the survey catalogue.
The loss prints as a finite number, but every gradient is NaN.
"""
# cause: nan_unsafe_where
# depth: tf.function
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(4)
yy, xx = np.mgrid[-12:13, -12:13].astype("float32")
radius = tf.constant(np.sqrt(xx**2 + yy**2))


@tf.function
def to_magnitude(flux, zero_point=25.0):
    return tf.where(flux > 0.0, zero_point - 2.5 * tf.math.log(flux) / tf.math.log(10.0), 30.0)  # <- expected


def model_flux(log_amp, log_scale, sky):
    return tf.nn.relu(tf.exp(log_amp) * tf.exp(-radius / tf.exp(log_scale)) - sky)


true_flux = model_flux(tf.constant(6.0), tf.constant(1.3), tf.constant(2.0))
observed_mag = to_magnitude(true_flux) + rng.normal(0, 0.02, radius.shape).astype("float32")

log_amp = tf.Variable(5.5, name="log_amp")
log_scale = tf.Variable(1.0, name="log_scale")
sky = tf.Variable(1.5, name="sky")
params = [log_amp, log_scale, sky]


def magnitude_loss():
    mag = to_magnitude(model_flux(log_amp, log_scale, sky))
    return tf.reduce_mean((mag - observed_mag) ** 2)


with tf.GradientTape() as tape:
    loss = magnitude_loss()
grads = tape.gradient(loss, params)
print("loss:", float(loss))
for p, g in zip(params, grads):
    print(p.name, "grad:", float(g))


def computation():
    return magnitude_loss, params
