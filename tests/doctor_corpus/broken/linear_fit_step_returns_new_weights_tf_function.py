"""Fitting y = 3x - 1 with a compiled training step that returns the updated weights;
the second call fails with a TypeError about NoneType."""
# cause: variable_replaced
# depth: tf.function
import tensorflow as tf

tf.random.set_seed(13)
x = tf.random.uniform((50, 1), -1.0, 1.0)
y = 3.0 * x - 1.0 + 0.05 * tf.random.normal((50, 1))

w = tf.Variable([[0.0]])
b = tf.Variable([0.0])


def mse(w, b):
    return tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))


@tf.function
def train_step(w, b, lr=0.1):
    with tf.GradientTape() as tape:
        loss = mse(w, b)
    dw, db = tape.gradient(loss, [w, b])
    w = w - lr * dw  # <- expected
    b = b - lr * db  # <- expected
    return w, b, loss


def computation():
    return mse, [w, b]


for step in range(3):
    w, b, loss = train_step(w, b)
    print(step, float(loss))
