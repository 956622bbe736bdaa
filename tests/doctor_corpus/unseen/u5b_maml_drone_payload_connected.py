"""Meta-trains a MAML dynamics model so that one gradient step on a few logged transitions
adapts it to a quadrotor carrying a new payload (thrust -> vertical acceleration); the
asker wants to confirm the second-order meta-gradient reaches every shared weight."""
# cause: connected
# depth: tf.function
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(56)
n_tasks, k_shot, inner_lr = 4, 10, 0.05


def make_payload_task():
    mass = 1.0 + rng.uniform(0.0, 0.8)            # frame + payload, kg
    drag = rng.uniform(0.05, 0.2)
    thrust = rng.uniform(5.0, 20.0, size=(2 * k_shot, 1)).astype("float32")
    vz = rng.uniform(-2.0, 2.0, size=(2 * k_shot, 1)).astype("float32")
    acc = (thrust / mass - 9.81 - drag * vz * np.abs(vz) / mass).astype("float32")
    x = np.concatenate([thrust / 20.0, vz / 2.0], axis=1).astype("float32")
    return x[:k_shot], acc[:k_shot], x[k_shot:], acc[k_shot:]


tasks = [make_payload_task() for _ in range(n_tasks)]
xs, ys, xq, yq = (tf.constant(np.stack(a)) for a in zip(*tasks))

init = tf.keras.initializers.GlorotUniform(seed=2)
params = [tf.Variable(init((2, 32)), name="w1"), tf.Variable(tf.zeros(32), name="b1"),
          tf.Variable(init((32, 1)), name="w2"), tf.Variable(tf.zeros(1), name="b2")]
meta_opt = tf.keras.optimizers.Adam(1e-3)


def forward(p, x):
    w1, b1, w2, b2 = p
    return tf.matmul(tf.nn.tanh(tf.matmul(x, w1) + b1), w2) + b2


def mse(pred, y):
    return tf.reduce_mean(tf.square(pred - y))


def meta_loss_fn(xs, ys, xq, yq):
    total = 0.0
    for i in range(n_tasks):
        with tf.GradientTape() as inner:
            support_loss = mse(forward(params, xs[i]), ys[i])
        grads = inner.gradient(support_loss, params)
        fast = [p - inner_lr * g for p, g in zip(params, grads)]
        total += mse(forward(fast, xq[i]), yq[i])
    return total / n_tasks


@tf.function
def meta_step(xs, ys, xq, yq):
    with tf.GradientTape() as outer:
        meta_loss = meta_loss_fn(xs, ys, xq, yq)
    meta_grads = outer.gradient(meta_loss, params)
    meta_opt.apply_gradients(zip(meta_grads, params))
    finite = tf.reduce_all([tf.reduce_all(tf.math.is_finite(g)) for g in meta_grads])
    return meta_loss, finite


for it in range(3):
    meta_loss, finite = meta_step(xs, ys, xq, yq)
    print(f"iteration {it}: meta loss={float(meta_loss):.4f}  meta grads finite: {bool(finite)}")


def computation():
    return (lambda: meta_loss_fn(xs, ys, xq, yq)), params
