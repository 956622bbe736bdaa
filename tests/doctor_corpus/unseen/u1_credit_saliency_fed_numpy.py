"""Input-gradient saliency for a tabular credit-default model with a Normalization layer; the
gradient of the default probability with respect to the applicant features is None."""
# cause: watched_other_object
# depth: main
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(13)
FEATURES = ["age", "income", "debt_ratio", "n_loans", "months_employed"]

rng = np.random.default_rng(13)
X = np.column_stack([rng.integers(20, 70, 200), rng.lognormal(10, 0.5, 200), rng.random(200),
                     rng.integers(0, 6, 200), rng.integers(0, 240, 200)]).astype("float32")

norm = keras.layers.Normalization()
norm.adapt(X)
model = keras.Sequential([keras.Input((len(FEATURES),)), norm,
                          keras.layers.Dense(16, activation="relu"),
                          keras.layers.Dense(1, activation="sigmoid")])

applicants = X[:4]
x = tf.convert_to_tensor(applicants)
with tf.GradientTape() as tape:
    tape.watch(x)
    p_default = model(applicants)  # <- expected
saliency = tape.gradient(p_default, x)
