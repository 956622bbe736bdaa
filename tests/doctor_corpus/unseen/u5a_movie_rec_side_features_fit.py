"""A two-task movie recommender (rating regression plus click prediction from item side features such
as genre and price) trained with model.fit and a custom train_step; Keras warns that the side-feature tower has no gradients."""
# cause: unused
# depth: fit
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(51)
rng = np.random.default_rng(51)

N, USERS, ITEMS, SIDE = 256, 40, 60, 12
user_ids = rng.integers(0, USERS, size=(N,)).astype("int32")
item_ids = rng.integers(0, ITEMS, size=(N,)).astype("int32")
side = rng.normal(size=(N, SIDE)).astype("float32")
rating = rng.uniform(1, 5, size=(N, 1)).astype("float32")
click = (rng.random((N, 1)) < 0.4).astype("float32")


class RatingClickRecommender(keras.Model):
    def __init__(self, dim=16):
        super().__init__()
        self.user_emb = keras.layers.Embedding(USERS, dim)
        self.item_emb = keras.layers.Embedding(ITEMS, dim)
        self.side_tower = keras.layers.Dense(dim, activation="relu")
        self.rating_head = keras.layers.Dense(1)
        self.click_head = keras.layers.Dense(1)
        self.mse = keras.losses.MeanSquaredError()
        self.bce = keras.losses.BinaryCrossentropy(from_logits=True)

    def call(self, inputs):
        u = self.user_emb(inputs["user"])
        i = self.item_emb(inputs["item"])
        s = self.side_tower(inputs["side"])
        rating = self.rating_head(tf.concat([u * i, u, i], axis=-1))
        click_logit = self.click_head(tf.concat([u * i, s], axis=-1))
        return {"rating": rating, "click": click_logit}

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            out = self(x, training=True)
            rating_loss = self.mse(y["rating"], out["rating"])
            click_loss = self.bce(y["click"], out["click"])
            loss = rating_loss  # <- expected
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss, "rating_loss": rating_loss, "click_loss": click_loss}


x = {"user": user_ids, "item": item_ids, "side": side}
y = {"rating": rating, "click": click}
model = RatingClickRecommender()
model(x)
model.compile(optimizer=keras.optimizers.Adam(1e-2))
history = model.fit(x, y, batch_size=64, epochs=2, verbose=0)
print({k: [round(float(v), 4) for v in vals] for k, vals in history.history.items()})


def computation():
    def compute():
        out = model(x, training=True)
        return model.mse(y["rating"], out["rating"])

    return compute, model.trainable_variables
