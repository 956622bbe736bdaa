"""Fits a linear crop-yield model (rainfall, temperature, nitrogen, soil pH) with a hand-written
gradient-descent loop; the first step works, then the weight gradient comes back as None and the update crashes."""
# cause: variable_replaced
# depth: main
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(7)
X = rng.normal(size=(200, 4)).astype("float32")
true_w = np.array([[1.8], [-0.6], [2.4], [0.3]], dtype="float32")
y = X @ true_w + 5.0 + 0.2 * rng.normal(size=(200, 1)).astype("float32")

w = tf.Variable(tf.zeros([4, 1]), name="w")
b = tf.Variable(0.0, name="b")
lr = 0.1

for step in range(20):
    with tf.GradientTape() as tape:
        pred = tf.matmul(X, w) + b
        loss = tf.reduce_mean(tf.square(pred - y))
    dw, db = tape.gradient(loss, [w, b])
    print(f"step {step}: loss={float(loss):.4f} dw={'None' if dw is None else 'ok'}")
    w = w - lr * dw  # <- expected
    b = b - lr * db  # <- expected

print("fitted w:", w.numpy().ravel(), "b:", float(b))
