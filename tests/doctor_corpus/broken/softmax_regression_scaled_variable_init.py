"""Softmax regression from scratch with small initial weights; the gradient of W is None
while the bias gets one."""
# cause: variable_replaced
# depth: main
import numpy as np
import tensorflow as tf

np.random.seed(0)
tf.random.set_seed(0)
x = tf.constant(np.random.randn(40, 5).astype("float32"))
y = tf.constant(np.random.randint(0, 3, size=40))

W = tf.Variable(tf.random.normal([5, 3])) * 0.01  # <- expected
b = tf.Variable(tf.zeros([3]))
lr = 0.5


def loss_fn(W, b):
    logits = tf.matmul(x, W) + b
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))


def computation():
    return (lambda W: loss_fn(W, b)), W


for epoch in range(2):
    with tf.GradientTape() as tape:
        loss = loss_fn(W, b)
    dW, db = tape.gradient(loss, [W, b])
    print(epoch, float(loss), "dW:", dW, "db norm:", float(tf.norm(db)))
    b.assign_sub(lr * db)
