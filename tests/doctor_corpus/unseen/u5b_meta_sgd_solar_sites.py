"""Meta-trains a Meta-SGD regressor (shared weights plus learned per-parameter inner step
sizes) so it adapts in one step to a new solar site's irradiance-to-power curve; the
meta-gradient for both the weights and the step sizes comes back as None."""
# cause: inner_gradient_outside
# depth: tf.function
import numpy as np
import tensorflow as tf

rng = np.random.default_rng(55)
n_tasks, k_shot = 4, 10


def make_site():
    capacity = rng.uniform(0.5, 2.0)
    knee = rng.uniform(0.6, 0.9)
    irr = rng.uniform(0.0, 1.0, size=(2 * k_shot, 1)).astype("float32")
    power = (capacity * np.minimum(irr / knee, 1.0) + 0.02 * rng.normal(size=irr.shape)).astype("float32")
    return irr[:k_shot], power[:k_shot], irr[k_shot:], power[k_shot:]


sites = [make_site() for _ in range(n_tasks)]
xs, ys, xq, yq = (tf.constant(np.stack(a)) for a in zip(*sites))

init = tf.keras.initializers.GlorotUniform(seed=1)
weights = [tf.Variable(init((1, 32)), name="w1"), tf.Variable(tf.zeros(32), name="b1"),
           tf.Variable(init((32, 1)), name="w2"), tf.Variable(tf.zeros(1), name="b2")]
step_sizes = [tf.Variable(tf.fill(w.shape, 0.05), name="alpha_" + w.name.split(":")[0]) for w in weights]
meta_params = weights + step_sizes
meta_opt = tf.keras.optimizers.Adam(1e-3)


def forward(params, x):
    w1, b1, w2, b2 = params
    return tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2


def mse(pred, y):
    return tf.reduce_mean(tf.square(pred - y))


@tf.function
def meta_step(xs, ys, xq, yq):
    total_loss = 0.0
    task_grads = []
    for i in range(n_tasks):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                support_loss = mse(forward(weights, xs[i]), ys[i])
        inner_grads = inner.gradient(support_loss, weights)  # <- expected
        fast = [w - a * g for w, a, g in zip(weights, step_sizes, inner_grads)]
        query_loss = mse(forward(fast, xq[i]), yq[i])
        total_loss += query_loss
        task_grads.append(outer.gradient(query_loss, meta_params))
    return total_loss / n_tasks, task_grads


for it in range(2):
    meta_loss, task_grads = meta_step(xs, ys, xq, yq)
    print(f"iteration {it}: meta loss={float(meta_loss):.4f}  meta grads of task 0: {task_grads[0]}")
    if any(g is None for grads in task_grads for g in grads):
        continue
    mean_grads = [tf.add_n(list(gs)) / n_tasks for gs in zip(*task_grads)]
    meta_opt.apply_gradients(zip(mean_grads, meta_params))
