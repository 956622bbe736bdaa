"""Local sensitivity of a fitted Hill dose-response curve to the drug concentration.

For a set of doses I want d(response)/d(concentration), i.e. how steep the curve is
at each dose. I do call tape.watch on the concentrations, but the gradient is None.
"""
# cause: watched_too_late
# depth: main
import numpy as np
import tensorflow as tf

# parameters fitted earlier on plate-reader data
emax = tf.constant(95.0)
ec50 = tf.constant(1.8)
hill_n = tf.constant(2.2)
baseline = tf.constant(4.0)

doses = tf.constant(np.geomspace(0.05, 50.0, num=9), dtype=tf.float32)


def hill(conc):
    c_n = tf.pow(conc, hill_n)
    return baseline + emax * c_n / (tf.pow(ec50, hill_n) + c_n)


with tf.GradientTape() as tape:
    response = hill(doses)  # <- expected
    tape.watch(doses)  # <- expected
    normalised = (response - baseline) / emax

slope = tape.gradient(normalised, doses)
print("fraction of max effect:", normalised.numpy().round(3))
print("d response / d dose:", slope)
