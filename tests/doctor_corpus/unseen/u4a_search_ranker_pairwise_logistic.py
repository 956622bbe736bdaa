"""Learning-to-rank for search results: a per-document scoring MLP trained with model.fit and a custom
pairwise logistic loss over each query's list of 10 documents; the loss is nan from the very first epoch."""
# cause: nan_overflow
# depth: fit
import numpy as np
import tensorflow as tf
import keras
from keras import layers

rng = np.random.default_rng(29)
N_QUERIES, LIST_SIZE = 128, 10

# raw ranking features per (query, document): bm25, click count, dwell seconds, doc length, pagerank
bm25 = rng.gamma(2.0, 4.0, size=(N_QUERIES, LIST_SIZE))
clicks = rng.poisson(40, size=(N_QUERIES, LIST_SIZE)).astype(float)
dwell = rng.gamma(2.0, 30.0, size=(N_QUERIES, LIST_SIZE))
doc_len = rng.integers(200, 3000, size=(N_QUERIES, LIST_SIZE)).astype(float)
pagerank = rng.uniform(0, 1, size=(N_QUERIES, LIST_SIZE))
features = np.stack([bm25, clicks, dwell, doc_len, pagerank], axis=-1).astype("float32")
quality = 0.3 * bm25 + 0.05 * clicks + 0.02 * dwell + 2.0 * pagerank
relevance = np.digitize(quality, np.quantile(quality, [0.5, 0.75, 0.9])).astype("float32")  # grades 0..3


def pairwise_logistic_loss(y_true, y_pred):
    """RankNet loss: for every pair with rel_i > rel_j, penalise log(1 + exp(-(s_i - s_j)))."""
    score_diff = y_pred[:, :, None] - y_pred[:, None, :]
    should_rank_higher = tf.cast(y_true[:, :, None] > y_true[:, None, :], tf.float32)
    pair_loss = tf.math.log(1.0 + tf.exp(-score_diff))  # <- expected
    n_pairs = tf.reduce_sum(should_rank_higher, axis=[1, 2]) + 1e-6
    return tf.reduce_sum(should_rank_higher * pair_loss, axis=[1, 2]) / n_pairs


def build_ranker():
    keras.utils.set_random_seed(29)
    return keras.Sequential([
        keras.Input((LIST_SIZE, 5)),
        layers.Dense(32, activation="relu"),
        layers.Dense(1),
        layers.Reshape((LIST_SIZE,)),
    ])


ranker = build_ranker()
ranker.compile(optimizer=keras.optimizers.Adam(1e-3), loss=pairwise_logistic_loss)
history = ranker.fit(features, relevance, epochs=3, batch_size=32, verbose=2)
print("loss per epoch:", history.history["loss"])


def computation():
    fresh = build_ranker()
    return (lambda: tf.reduce_mean(pairwise_logistic_loss(relevance, fresh(features)))), fresh.trainable_variables
