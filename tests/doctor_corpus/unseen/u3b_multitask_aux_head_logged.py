"""Two-headed house-price model (price regression plus neighborhood classification) trained with
a custom loop; the category head's gradients are None and its loss never goes down."""
# cause: unused
# depth: helper
import numpy as np
import tensorflow as tf
import keras

rng = np.random.default_rng(31)
keras.utils.set_random_seed(31)

n, d, n_neighborhoods = 64, 8, 3
features = rng.normal(size=(n, d)).astype("float32")
neighborhood = rng.integers(0, n_neighborhoods, size=n)
prices = (features @ rng.normal(size=d) + 0.5 * neighborhood).astype("float32")

inputs = keras.Input(shape=(d,))
trunk = keras.layers.Dense(32, activation="relu", name="trunk")(inputs)
price_out = keras.layers.Dense(1, name="price_head")(trunk)
category_out = keras.layers.Dense(n_neighborhoods, name="category_head")(trunk)
model = keras.Model(inputs, [price_out, category_out])
optimizer = keras.optimizers.Adam(1e-2)
aux_weight = 0.3


def multitask_loss(model, x, price_true, category_true):
    price_pred, category_logits = model(x, training=True)
    price_loss = tf.reduce_mean(tf.square(price_pred[:, 0] - price_true))
    category_loss = tf.reduce_mean(
        keras.losses.sparse_categorical_crossentropy(category_true, category_logits, from_logits=True))
    logs = {"price_mse": price_loss, "category_ce": category_loss}
    return price_loss, logs  # <- expected


x = tf.constant(features)
y_price = tf.constant(prices)
y_cat = tf.constant(neighborhood)

for step in range(3):
    with tf.GradientTape() as tape:
        loss, logs = multitask_loss(model, x, y_price, y_cat)
    grads = tape.gradient(loss, model.trainable_variables)
    missing = [v.path for v, g in zip(model.trainable_variables, grads) if g is None]
    print(f"step {step}:", {k: round(float(v), 4) for k, v in logs.items()}, "None grads:", missing)
    optimizer.apply_gradients(
        [(g, v) for g, v in zip(grads, model.trainable_variables) if g is not None])


def computation():
    def compute():
        return multitask_loss(model, x, y_price, y_cat)[0]

    return compute, list(model.trainable_variables)
