"""Matrix-factorisation recommender (user/item embeddings plus biases) trained on
synthetic 1-5 star ratings with a tf.function train step.  The biases learn, but
Keras warns that the embedding tables get no gradients and RMSE plateaus."""
# cause: outside_tape
# depth: tf.function
import numpy as np
import tensorflow as tf
import keras

keras.utils.set_random_seed(0)

N_USERS, N_ITEMS, K, N_RATINGS = 200, 150, 8, 4000

true_u = np.random.randn(N_USERS, K)
true_i = np.random.randn(N_ITEMS, K)
users = np.random.randint(0, N_USERS, N_RATINGS).astype(np.int32)
items = np.random.randint(0, N_ITEMS, N_RATINGS).astype(np.int32)
ratings = np.clip(3.0 + 0.5 * np.sum(true_u[users] * true_i[items], axis=1)
                  + 0.3 * np.random.randn(N_RATINGS), 1, 5).astype(np.float32)
global_mean = float(ratings.mean())

user_emb = tf.Variable(tf.random.normal((N_USERS, K), stddev=0.1), name="user_emb")
item_emb = tf.Variable(tf.random.normal((N_ITEMS, K), stddev=0.1), name="item_emb")
user_bias = tf.Variable(tf.zeros(N_USERS), name="user_bias")
item_bias = tf.Variable(tf.zeros(N_ITEMS), name="item_bias")
params = [user_emb, item_emb, user_bias, item_bias]
optimizer = keras.optimizers.Adam(1e-2)
LAMBDA = 1e-4


@tf.function
def train_step(u_idx, i_idx, r):
    u = tf.nn.embedding_lookup(user_emb, u_idx)  # <- expected
    v = tf.nn.embedding_lookup(item_emb, i_idx)  # <- expected
    with tf.GradientTape() as tape:
        pred = (global_mean + tf.reduce_sum(u * v, axis=1)
                + tf.gather(user_bias, u_idx) + tf.gather(item_bias, i_idx))
        mse = tf.reduce_mean((pred - r) ** 2)
        loss = mse + LAMBDA * (tf.reduce_sum(u ** 2) + tf.reduce_sum(v ** 2))
    grads = tape.gradient(loss, params)
    optimizer.apply_gradients(zip(grads, params))
    return tf.sqrt(mse), grads


ds = tf.data.Dataset.from_tensor_slices((users, items, ratings)).shuffle(N_RATINGS, seed=0).batch(256)
for epoch in range(3):
    for u_idx, i_idx, r in ds:
        rmse, grads = train_step(u_idx, i_idx, r)
    print(f"epoch {epoch} rmse={float(rmse):.4f}",
          {p.name: (g is None) for p, g in zip(params, grads)})


def computation():
    u_idx, i_idx, r = tf.constant(users[:256]), tf.constant(items[:256]), tf.constant(ratings[:256])
    u = tf.nn.embedding_lookup(user_emb, u_idx)
    v = tf.nn.embedding_lookup(item_emb, i_idx)

    def compute():
        pred = (global_mean + tf.reduce_sum(u * v, axis=1)
                + tf.gather(user_bias, u_idx) + tf.gather(item_bias, i_idx))
        mse = tf.reduce_mean((pred - r) ** 2)
        return mse + LAMBDA * (tf.reduce_sum(u ** 2) + tf.reduce_sum(v ** 2))

    return compute, [user_emb, item_emb]
