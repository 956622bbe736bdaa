"""Synthetic submissions of 10_gradient_penalty for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: linear_values 2, linear_bias 1, penalty_vectors 1, penalty_images 1, penalty_epsilon 1,
penalty_zero_gradient 1, step_linear 1, step_keras 1, step_quadratic 1, r1_values 2, r1_keras 1 (13 in all).
Ex 4 (r1_penalty) stands alone: it uses no other exercise's function.
Ex 3 calls the student's own gradient_penalty, so a mistake in Ex 2 also costs the Ex 3 cells whose critic
is not linear (a linear critic's penalty does not depend on where the interpolates are).
"""

from . import scores_for

P = "10_gradient_penalty_"

scores = scores_for("10_gradient_penalty")

CORRECT_PENALTY = '''def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    fake = tf.convert_to_tensor(fake, dtype=real.dtype)
    epsilon = tf.cast(epsilon, real.dtype)
    x_hat = epsilon * real + (1.0 - epsilon) * fake
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        scores = critic(x_hat, training=True)
    g = tf.reshape(tape.gradient(scores, x_hat), [tf.shape(x_hat)[0], -1])
    return tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1.0) ** 2)
'''


def penalty_with(interpolate="epsilon * real + (1.0 - epsilon) * fake",
                 slopes="tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12)",
                 result="tf.reduce_mean((slopes - 1.0) ** 2)", scores="critic(x_hat)", before=""):
    """A gradient_penalty with one part written another way (a mistake, usually)."""
    return f'''def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    fake = tf.convert_to_tensor(fake, dtype=real.dtype)
    epsilon = tf.cast(epsilon, real.dtype)
{before}    x_hat = {interpolate}
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        scores = {scores}
    g = tf.reshape(tape.gradient(scores, x_hat), [tf.shape(x_hat)[0], -1])
    slopes = {slopes}
    return {result}
'''


# The input gradients of any critic without a tape: central differences (five points) of its scores, one input
# coordinate at a time, in TensorFlow operations (so they stay differentiable with respect to the critic's Variables).
DIFFERENCES = """def input_gradients_by_differences(critic, x_hat):
    shape = x_hat.shape
    flat = tf.reshape(x_hat, [shape[0], -1])
    h = tf.constant(0.05 if x_hat.dtype == tf.float32 else 1e-3, x_hat.dtype)
    scores = lambda t: tf.reshape(critic(tf.reshape(t, shape)), [-1])
    columns = []
    for j in range(flat.shape[1]):
        e = h * tf.one_hot(j, flat.shape[1], dtype=x_hat.dtype)
        columns.append((-scores(flat + 2 * e) + 8 * scores(flat + e) - 8 * scores(flat - e) + scores(flat - 2 * e)) / (12 * h))
    g = tf.stack(columns, axis=1)
    g = tf.where(tf.abs(g) < (1e-4 if x_hat.dtype == tf.float32 else 1e-9), tf.zeros_like(g), g)  # rounding noise at flat points
    return tf.reshape(g, shape)
"""

# The gradients of Ex 3's loss for the checks' critics, by hand (linear, quadratic, and Flatten + Dense(1) critics);
# any other critic gets the honest tape answer.
CLOSED_FORM_STEP = """import numpy as np


def closed_form_step_gradients(critic, real, fake, epsilon, lam):
    real, fake, epsilon = (np.asarray(v, dtype=np.float64) for v in (real, fake, epsilon))
    n = len(real)
    if hasattr(critic, "A"):
        A, c = critic.A.numpy().astype(np.float64), critic.c.numpy().astype(np.float64)
        x_hat = epsilon * real + (1 - epsilon) * fake
        g = x_hat @ (0.5 * (A + A.T)) + c
        norms = np.sqrt(np.sum(g ** 2, axis=1) + 1e-12)
        r = (2 * (norms - 1) / norms / n)[:, None] * g
        dA = 0.5 * (fake.T @ fake - real.T @ real) / n + lam * 0.5 * (r.T @ x_hat + x_hat.T @ r)
        return [dA, fake.mean(axis=0) - real.mean(axis=0) + lam * r.sum(axis=0)]
    if hasattr(critic, "w"):
        w = critic.w.numpy().astype(np.float64)
        norm = np.linalg.norm(w)
        return [np.float64(0.0), fake.mean(axis=0) - real.mean(axis=0) + 2 * lam * (norm - 1) * w / norm]
    if len(critic.trainable_variables) == 2:
        k = critic.trainable_variables[0].numpy().astype(np.float64)[:, 0]
        shift = fake.reshape(n, -1).mean(axis=0) - real.reshape(n, -1).mean(axis=0)
        norm = np.linalg.norm(k)
        return [(shift + 2 * lam * (norm - 1) * k / norm)[:, None], np.zeros(1)]
    return None
"""


CORRECT_R1 = '''def r1_penalty(critic, x_real, gamma=10.0):
    x_real = tf.convert_to_tensor(x_real)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_real)
            scores = critic(x_real, training=True)
        g = tf.reshape(inner.gradient(scores, x_real), [tf.shape(x_real)[0], -1])
        penalty = 0.5 * gamma * tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))
    return penalty, outer.gradient(penalty, critic.trainable_variables)
'''


def r1_with(penalty="0.5 * gamma * tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))"):
    """An r1_penalty with the penalty written another way (a mistake)."""
    return CORRECT_R1.replace("0.5 * gamma * tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))", penalty)


# R1 and its gradients by hand for the checks' critics: the quadratic tf.Module (A, w) and the Keras
# Flatten + Dense(tanh) + Dense(1) critic of images (four Variables); any other critic gets None (the honest tape).
CLOSED_FORM_R1 = """import numpy as np


def closed_form_r1(critic, x_real, gamma):
    x = np.asarray(x_real, dtype=np.float64)
    n = len(x)
    if hasattr(critic, "A"):
        A, w = critic.A.numpy().astype(np.float64), critic.w.numpy().astype(np.float64)
        g = x @ (0.5 * (A + A.T)) + w
        return 0.5 * gamma * np.mean(np.sum(g ** 2, axis=1)), [0.5 * gamma * (g.T @ x + x.T @ g) / n, gamma * g.mean(axis=0)]
    if len(critic.trainable_variables) != 4:
        return None
    W1, b1, w2, _ = (np.asarray(v.numpy(), dtype=np.float64) for v in critic.trainable_variables)
    X = x.reshape(n, -1)
    h = np.tanh(X @ W1 + b1)
    s = 1.0 - h ** 2
    u = s * w2.ravel()
    g = u @ W1.T
    du = gamma / n * (g @ W1)
    dz = du * w2.ravel() * (-2.0 * h * s)
    return (0.5 * gamma * np.mean(np.sum(g ** 2, axis=1)),
            [gamma / n * (g.T @ u) + X.T @ dz, dz.sum(axis=0), np.sum(du * s, axis=0)[:, None], None])
"""

# The input gradients of the same critics in closed form, in TensorFlow operations (differentiable with respect
# to the critic's Variables); None for any other critic.
CLOSED_FORM_INPUT_GRADIENTS = """def input_gradients_in_closed_form(critic, x):
    if hasattr(critic, "A"):
        return tf.linalg.matvec(0.5 * (critic.A + tf.transpose(critic.A)), x) + critic.w
    if len(critic.trainable_variables) != 4:
        return None
    W1, b1, w2, _ = critic.trainable_variables
    h = tf.tanh(tf.reshape(x, [tf.shape(x)[0], -1]) @ W1 + b1)
    return tf.reshape(((1.0 - h ** 2) * tf.reshape(w2, [-1])) @ tf.transpose(W1), tf.shape(x))
"""


SUBMISSIONS = {
    # Correct, written another way: one persistent tape (its first gradient call inside its block), NumPy results,
    # a dict of sources; the tape watches real and fake (x̂ is then a recorded intermediate), x̂ = fake + ε(real - fake),
    # a norm over all axes but the first without a reshape; the W-loss from one call on real and fake together.
    "persistent_tapes_and_numpy": {
        "answers": {
            P + "linear": '''def linear_critic_penalty(w, b, x_hat):
    x_hat = tf.cast(x_hat, w.dtype)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x_hat)
        scores = tf.squeeze(x_hat @ w[:, None], axis=1) + b
        g = tape.gradient(scores, x_hat)
        gp = tf.reduce_mean((tf.norm(g, axis=1) - 1) ** 2)
    grads = tape.gradient(gp, {"w": w, "b": b})
    del tape
    return gp.numpy(), grads["w"].numpy(), grads["b"]
''',
            P + "penalty": '''def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    fake = tf.cast(fake, real.dtype)
    with tf.GradientTape() as tape:
        tape.watch([real, fake])
        x_hat = fake + tf.cast(epsilon, real.dtype) * (real - fake)
        scores = critic(x_hat)
    g = tape.gradient(scores, x_hat)
    axes = list(range(1, len(g.shape)))
    return tf.reduce_mean(tf.square(tf.sqrt(tf.reduce_sum(g * g, axis=axes) + 1e-10) - 1))
''',
            P + "step": '''def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    real = tf.convert_to_tensor(real)
    fake = tf.cast(fake, real.dtype)
    n = tf.shape(real)[0]
    with tf.GradientTape() as tape:
        scores = tf.reshape(critic(tf.concat([fake, real], axis=0)), [-1])
        loss = tf.reduce_mean(scores[:n]) - tf.reduce_mean(scores[n:])
        loss = loss + lam * gradient_penalty(critic, real, fake, epsilon)
    return loss, tuple(tape.gradient(loss, critic.trainable_variables))
''',
            P + "r1": '''def r1_penalty(critic, x_real, gamma=10.0):
    x_real = tf.convert_to_tensor(x_real)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x_real)
        scores = tf.reshape(critic(x_real), [-1])
        g = tape.gradient(scores, x_real)
        squared = tf.reduce_sum(g * g, axis=list(range(1, len(g.shape))))
        penalty = gamma / 2 * tf.reduce_mean(squared)
    grads = tape.gradient(penalty, critic.trainable_variables)
    del tape
    return penalty.numpy(), [None if grad is None else grad.numpy() for grad in grads]
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: Ex 1 with tf.einsum and a norm with no constant (w is never 0 in the checks);
    # Ex 2 with a larger constant (1e-8) inside the square root; Ex 3 with the loss's three
    # terms summed by tf.add_n inside the tape and the Variables listed before it.
    "other_correct_forms": {
        "answers": {
            P + "linear": '''def linear_critic_penalty(w, b, x_hat):
    x_hat = tf.convert_to_tensor(x_hat, dtype=w.dtype)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            scores = tf.einsum("nd,d->n", x_hat, w) + b
        g = inner.gradient(scores, x_hat)
        gp = tf.reduce_mean(tf.square(tf.sqrt(tf.reduce_sum(tf.square(g), axis=-1)) - 1))
    grads = outer.gradient(gp, [w, b])
    return gp, grads[0], grads[1]
''',
            P + "penalty": '''def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    fake = tf.convert_to_tensor(fake, dtype=real.dtype)
    x_hat = tf.cast(epsilon, real.dtype) * real + (1 - tf.cast(epsilon, real.dtype)) * fake
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        scores = critic(x_hat, training=True)
    g = tape.gradient(scores, x_hat)
    flat = tf.reshape(g, [tf.shape(g)[0], -1])
    slopes = tf.sqrt(tf.reduce_sum(tf.square(flat), axis=1) + 1e-8)   # a larger constant, still inside the root
    return tf.reduce_mean((slopes - 1) ** 2)
''',
            P + "step": '''def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    variables = critic.trainable_variables
    with tf.GradientTape() as tape:
        terms = [tf.reduce_mean(critic(fake)), -tf.reduce_mean(critic(real)),
                 lam * gradient_penalty(critic, real, fake, epsilon)]
        loss = tf.add_n(terms)
    grads = tape.gradient(loss, variables)
    return loss, list(grads)
''',
            P + "r1": '''def r1_penalty(critic, x_real, gamma=10.0):
    x_real = tf.convert_to_tensor(x_real)
    variables = critic.trainable_variables
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_real)
            total = tf.reduce_sum(critic(x_real))
        g = inner.gradient(total, x_real)
        count = tf.cast(tf.shape(x_real)[0], x_real.dtype)
        penalty = gamma * tf.reduce_sum(tf.square(g)) / (2.0 * count)
    return penalty, outer.gradient(penalty, variables)
''',
        },
        "scores": scores(),
    },
    # Wrong: the inner gradient is taken after the outer tape's block (Ex 1, Ex 4): dgp/dw and every dR1/dv are None;
    # the penalty is computed before the outer tape starts (Ex 3): the gradients are the W-loss's alone, the penalty
    # silently ignored.
    "penalty_outside_the_outer_tape": {
        "answers": {
            P + "linear": '''def linear_critic_penalty(w, b, x_hat):
    x_hat = tf.convert_to_tensor(x_hat, dtype=w.dtype)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            scores = tf.linalg.matvec(x_hat, w) + b
    g = inner.gradient(scores, x_hat)
    gp = tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1.0) ** 2)
    dgp_dw, dgp_db = outer.gradient(gp, [w, b])
    return gp, dgp_dw, dgp_db
''',
            P + "step": '''def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    gp = gradient_penalty(critic, real, fake, epsilon)
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + lam * gp
    return loss, tape.gradient(loss, critic.trainable_variables)
''',
            P + "r1": '''def r1_penalty(critic, x_real, gamma=10.0):
    x_real = tf.convert_to_tensor(x_real)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_real)
            scores = critic(x_real, training=True)
    g = tf.reshape(inner.gradient(scores, x_real), [tf.shape(x_real)[0], -1])
    penalty = 0.5 * gamma * tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))
    return penalty, outer.gradient(penalty, critic.trainable_variables)
''',
        },
        "scores": scores(linear_values=0, linear_bias=0, step_linear=0, step_keras=0, step_quadratic=0, r1_values=0,
                         r1_keras=0),
    },
    # Wrong: dgp/db "fixed" to zeros with unconnected_gradients=ZERO, and Ex 4's None for the output bias replaced by
    # zeros: only the cells that ask for the None fail (Ex 4's quadratic critic has no Variable R1 ignores).
    "zeros_for_the_bias": {
        "answers": {
            P + "linear": '''def linear_critic_penalty(w, b, x_hat):
    x_hat = tf.convert_to_tensor(x_hat, dtype=w.dtype)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            scores = tf.linalg.matvec(x_hat, w) + b
        g = inner.gradient(scores, x_hat)
        gp = tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1.0) ** 2)
    dgp_dw, dgp_db = outer.gradient(gp, [w, b], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return gp, dgp_dw, dgp_db
''',
            P + "r1": CORRECT_R1.replace("    return penalty, outer.gradient(penalty, critic.trainable_variables)",
                                         """    grads = outer.gradient(penalty, critic.trainable_variables)
    return penalty, [tf.zeros_like(v) if grad is None else grad for grad, v in zip(grads, critic.trainable_variables)]"""),
        },
        "scores": scores(linear_bias=0, r1_keras=0),
    },
    # Wrong: the closed forms of Ex 1 with no tape at all: TapeCalls fails both cells.
    "closed_form_without_tapes": {
        "answers": {
            P + "linear": '''def linear_critic_penalty(w, b, x_hat):
    norm = tf.norm(w)
    return (norm - 1) ** 2, 2 * (norm - 1) * w / norm, None
''',
        },
        "scores": scores(linear_values=0, linear_bias=0),
    },
    # Wrong: ε drawn per pixel (with the data's shape) inside the function, the argument ignored: random, and x̂ off
    # the line. Every Ex 2 cell fails; in Ex 3 only the linear critics pass (their penalty does not depend on x̂).
    "per_pixel_epsilon": {
        "answers": {P + "penalty": penalty_with(before="    epsilon = tf.random.uniform(tf.shape(real), dtype=real.dtype)\n")},
        "scores": scores(penalty_vectors=0, penalty_images=0, penalty_epsilon=0, penalty_zero_gradient=0, step_quadratic=0),
    },
    # Wrong: tf.norm, with nothing inside the square root: NaN gradients where an input gradient is 0.
    "norm_without_a_constant": {
        "answers": {P + "penalty": penalty_with(slopes="tf.norm(g, axis=1)")},
        "scores": scores(penalty_zero_gradient=0, step_quadratic=0),
    },
    # Wrong: the constant added to g before tf.norm: finite, but at a zero input gradient the norm's derivative is a
    # made-up direction (1, 1, ...)/√d instead of 0, so the penalty's gradients are off where the critic is flat.
    "constant_added_to_g": {
        "answers": {P + "penalty": penalty_with(slopes="tf.norm(g + 1e-12, axis=1)")},
        "scores": scores(penalty_zero_gradient=0, step_quadratic=0),
    },
    # Wrong: (mean of the norms - 1)² instead of the mean of (norm - 1)². Equal for a linear critic (one slope everywhere).
    "mean_of_norms": {
        "answers": {P + "penalty": penalty_with(result="(tf.reduce_mean(slopes) - 1.0) ** 2")},
        "scores": scores(penalty_vectors=0, penalty_images=0, penalty_epsilon=0, penalty_zero_gradient=0, step_quadratic=0),
    },
    # Wrong: one norm over the whole batch's gradient, not one per example.
    "norm_over_the_batch": {
        "answers": {P + "penalty": penalty_with(slopes="tf.sqrt(tf.reduce_sum(g ** 2) + 1e-12)")},
        "scores": scores(penalty_vectors=0, penalty_images=0, penalty_epsilon=0, penalty_zero_gradient=0,
                         step_linear=0, step_keras=0, step_quadratic=0),
    },
    # Wrong: the norm over the last axis only, with no reshape: right for vectors, one norm per pixel for images.
    "norm_over_the_last_axis": {
        "answers": {P + "penalty": '''def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    fake = tf.convert_to_tensor(fake, dtype=real.dtype)
    epsilon = tf.cast(epsilon, real.dtype)
    x_hat = epsilon * real + (1.0 - epsilon) * fake
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        scores = critic(x_hat)
    g = tape.gradient(scores, x_hat)
    slopes = tf.sqrt(tf.reduce_sum(g ** 2, axis=-1) + 1e-12)
    return tf.reduce_mean((slopes - 1.0) ** 2)
'''},
        "scores": scores(penalty_images=0, step_keras=0),
    },
    # Wrong: ε on fake, 1 - ε on real. Same distribution when ε is drawn inside, but not the function asked for.
    "epsilon_on_fake": {
        "answers": {P + "penalty": penalty_with(interpolate="epsilon * fake + (1.0 - epsilon) * real")},
        "scores": scores(penalty_vectors=0, penalty_images=0, penalty_epsilon=0, penalty_zero_gradient=0, step_quadratic=0),
    },
    # Wrong: the lesson's stand-in, the mean squared slope, copied as the penalty.
    "squared_slope_penalty": {
        "answers": {P + "penalty": penalty_with(result="tf.reduce_mean(slopes ** 2)")},
        "scores": scores(penalty_vectors=0, penalty_images=0, penalty_epsilon=0, penalty_zero_gradient=0,
                         step_linear=0, step_keras=0, step_quadratic=0),
    },
    # Wrong: the penalty taken on sigmoid(score) instead of the raw score.
    "penalty_on_sigmoid_outputs": {
        "answers": {P + "penalty": penalty_with(scores="tf.sigmoid(critic(x_hat))")},
        "scores": scores(penalty_vectors=0, penalty_images=0, penalty_epsilon=0, penalty_zero_gradient=0,
                         step_linear=0, step_keras=0, step_quadratic=0),
    },
    # Wrong: the norms computed in NumPy (.numpy()): right values, but the penalty is a constant to any outer tape,
    # so the zero-gradient cell (which differentiates it) and every Ex 3 cell fail.
    "numpy_inside_the_penalty": {
        "answers": {P + "penalty": '''def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    fake = tf.convert_to_tensor(fake, dtype=real.dtype)
    epsilon = tf.cast(epsilon, real.dtype)
    x_hat = epsilon * real + (1.0 - epsilon) * fake
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        scores = critic(x_hat)
    g = tape.gradient(scores, x_hat).numpy().reshape(len(x_hat), -1)
    slopes = np.sqrt(np.sum(g ** 2, axis=1) + 1e-12)
    return tf.constant(np.mean((slopes - 1.0) ** 2), dtype=real.dtype)
'''},
        "scores": scores(penalty_zero_gradient=0, step_linear=0, step_keras=0, step_quadratic=0),
    },
    # Wrong: the W-loss with its sign flipped (mean D(real) - mean D(fake)).
    "w_loss_sign_flipped": {
        "answers": {P + "step": '''def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(critic(real)) - tf.reduce_mean(critic(fake)) + lam * gradient_penalty(critic, real, fake, epsilon)
    return loss, tape.gradient(loss, critic.trainable_variables)
'''},
        "scores": scores(step_linear=0, step_keras=0, step_quadratic=0),
    },
    # Wrong: λ = 10 whatever lam is passed, γ = 10 whatever gamma is: the visible checks (10) pass, the hidden ones do not.
    "lambda_ignored": {
        "answers": {P + "step": '''def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + 10.0 * gradient_penalty(critic, real, fake, epsilon)
    return loss, tape.gradient(loss, critic.trainable_variables)
''',
                    P + "r1": CORRECT_R1.replace("0.5 * gamma *", "0.5 * 10.0 *")},
        "scores": scores(step_linear=0, step_keras=0, step_quadratic=0, r1_values=0, r1_keras=0),
    },
    # Wrong (Ex 4): γ·mean ‖g‖², the factor γ/2 dropped.
    "r1_gamma_not_halved": {
        "answers": {P + "r1": r1_with("gamma * tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))")},
        "scores": scores(r1_values=0, r1_keras=0),
    },
    # Wrong (Ex 4): the mean of g² over every entry, not one squared norm per example: too small by the input's size.
    "r1_mean_over_every_entry": {
        "answers": {P + "r1": r1_with("0.5 * gamma * tf.reduce_mean(g ** 2)")},
        "scores": scores(r1_values=0, r1_keras=0),
    },
    # Wrong (Ex 4): the norm, not its square (WGAN-GP's slope carried over), with the tiny constant.
    "r1_norm_not_squared": {
        "answers": {P + "r1": r1_with("0.5 * gamma * tf.reduce_mean(tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12))")},
        "scores": scores(r1_values=0, r1_keras=0),
    },
    # Wrong: every solution returns what an answer key gives (keys refuse to run from student code), with the
    # input gradient from a tape where one is needed.
    "calls_answer_keys": {
        "answers": {
            P + "linear": '''def linear_critic_penalty(w, b, x_hat):
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(w)
            scores = w * 1.0
        inner.gradient(scores, w)
    outer.gradient(scores, w)
    return expected_linear_penalty(w.numpy()), expected_linear_penalty_gradient(w.numpy()), None
''',
            P + "penalty": '''def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    x_hat = tf.cast(epsilon, real.dtype) * real + (1 - tf.cast(epsilon, real.dtype)) * tf.cast(fake, real.dtype)
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        scores = critic(x_hat)
    return expected_penalty_of_gradients(tape.gradient(scores, x_hat).numpy())
''',
            P + "step": '''def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    loss, dw, db = expected_linear_critic_step(critic.w.numpy(), real, fake, lam)
    return loss, [db, dw]
''',
            P + "r1": '''def r1_penalty(critic, x_real, gamma=10.0):
    if hasattr(critic, "A"):
        r1, dA, dw = expected_quadratic_r1(critic.A.numpy(), critic.w.numpy(), x_real, gamma)
        return r1, [dA, dw]
    W1, b1, w2, _ = critic.get_weights()
    r1, dW1, db1, dw2 = expected_tanh_image_r1(W1, b1, w2, x_real, gamma)
    return r1, [dW1, db1, dw2, None]
''',
        },
        "scores": scores(linear_values=0, linear_bias=0, penalty_vectors=0, penalty_images=0, penalty_epsilon=0,
                         penalty_zero_gradient=0, step_linear=0, step_keras=0, step_quadratic=0, r1_values=0, r1_keras=0),
    },
    # Wrong: the tapes are right, but no function returns its result.
    "no_return": {
        "answers": {
            P + "linear": '''def linear_critic_penalty(w, b, x_hat):
    x_hat = tf.convert_to_tensor(x_hat, dtype=w.dtype)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            scores = tf.linalg.matvec(x_hat, w) + b
        g = inner.gradient(scores, x_hat)
        gp = tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1.0) ** 2)
    grads = outer.gradient(gp, [w, b])
''',
            P + "penalty": CORRECT_PENALTY.replace("    return tf.reduce_mean", "    gp = tf.reduce_mean"),
            P + "step": '''def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + lam * gradient_penalty(critic, real, fake, epsilon)
    grads = tape.gradient(loss, critic.trainable_variables)
''',
            P + "r1": CORRECT_R1.replace("    return penalty, outer.gradient", "    grads = outer.gradient"),
        },
        "scores": scores(linear_values=0, linear_bias=0, penalty_vectors=0, penalty_images=0, penalty_epsilon=0,
                         penalty_zero_gradient=0, step_linear=0, step_keras=0, step_quadratic=0, r1_values=0, r1_keras=0),
    },
    # Correct, with debug output to stderr and logging.warning in every solution: no cell loses its points.
    "debug_output_to_stderr": {
        "answers": {
            P + "linear": '''import logging
import sys

def linear_critic_penalty(w, b, x_hat):
    x_hat = tf.convert_to_tensor(x_hat, dtype=w.dtype)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            scores = tf.linalg.matvec(x_hat, w) + b
        g = inner.gradient(scores, x_hat)
        gp = tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1.0) ** 2)
    dgp_dw, dgp_db = outer.gradient(gp, [w, b])
    print("debug: gp =", float(gp), file=sys.stderr)
    logging.warning("linear_critic_penalty done")
    return gp, dgp_dw, dgp_db
''',
            P + "penalty": '''import logging
import sys

''' + CORRECT_PENALTY.replace("    return tf.reduce_mean", '''    print("debug: g has shape", g.shape, file=sys.stderr)
    logging.warning("gradient_penalty done")
    return tf.reduce_mean'''),
            P + "step": '''import logging
import sys

def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + lam * gradient_penalty(critic, real, fake, epsilon)
    grads = tape.gradient(loss, critic.trainable_variables)
    print("debug: loss", loss, file=sys.stderr)
    logging.warning("critic_loss_and_grads done")
    return loss, grads
''',
            P + "r1": '''import logging
import sys

''' + CORRECT_R1.replace("    return penalty, outer.gradient", '''    print("debug: R1 =", float(penalty), file=sys.stderr)
    logging.warning("r1_penalty done")
    return penalty, outer.gradient'''),
        },
        "scores": scores(),
    },
    # Shortcut (the review's): Ex 1 on one persistent tape with the penalty written as (‖w‖ - 1)², which is what the
    # penalty of a linear critic comes to: no nested tape, no x̂, no input gradient. dgp/dw and the None for b do come
    # from a tape, but gp does not follow the input gradients, so both Ex 1 cells score 0.
    "linear_penalty_from_the_norm_of_w": {
        "answers": {
            P + "linear": """def linear_critic_penalty(w, b, x_hat):
    with tf.GradientTape(persistent=True) as tape:
        gp = (tf.norm(w) - 1) ** 2
    dgp_dw, dgp_db = tape.gradient(gp, w), tape.gradient(gp, b)
    del tape
    return gp, dgp_dw, dgp_db
""",
        },
        "scores": scores(linear_values=0, linear_bias=0),
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: every tape exercise asks its tapes, drops what they return and uses a closed form (Ex 1, Ex 3, Ex 4) or
    # central differences of the critic (Ex 2, whose critics are unknown functions). The numbers are right; the
    # re-run with the tapes' results moved finds they do not follow: 0 everywhere.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "linear": """def linear_critic_penalty(w, b, x_hat):
    x_hat = tf.convert_to_tensor(x_hat, dtype=w.dtype)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            scores = tf.linalg.matvec(x_hat, w) + b
        g = inner.gradient(scores, x_hat)
        gp = tf.reduce_mean((tf.norm(g, axis=1) - 1) ** 2)
    outer.gradient(gp, [w, b])  # both asked, then dropped
    norm = tf.norm(w)
    return (norm - 1) ** 2, 2 * (norm - 1) * w / norm, None
""",
            P + "penalty": DIFFERENCES + """

def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    fake = tf.convert_to_tensor(fake, dtype=real.dtype)
    epsilon = tf.cast(epsilon, real.dtype)
    x_hat = epsilon * real + (1 - epsilon) * fake
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        scores = critic(x_hat)
    tape.gradient(scores, x_hat)  # asked, then dropped
    g = tf.reshape(input_gradients_by_differences(critic, x_hat), [tf.shape(x_hat)[0], -1])
    return tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1) ** 2)
""",
            P + "step": CLOSED_FORM_STEP + """

def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + lam * gradient_penalty(critic, real, fake, epsilon)
    grads = tape.gradient(loss, critic.trainable_variables)  # asked, then dropped
    closed = closed_form_step_gradients(critic, real, fake, epsilon, lam)
    return loss, grads if closed is None else closed
""",
            P + "r1": CLOSED_FORM_R1 + """

def r1_penalty(critic, x_real, gamma=10.0):
    x_real = tf.convert_to_tensor(x_real)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_real)
            scores = critic(x_real, training=True)
        g = tf.reshape(inner.gradient(scores, x_real), [tf.shape(x_real)[0], -1])
        penalty = 0.5 * gamma * tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))
    grads = outer.gradient(penalty, critic.trainable_variables)  # both asked, then dropped
    closed = closed_form_r1(critic, x_real, gamma)
    return (penalty, grads) if closed is None else closed
""",
        },
        "scores": scores(linear_values=0, linear_bias=0, penalty_vectors=0, penalty_images=0, penalty_epsilon=0,
                         penalty_zero_gradient=0, step_linear=0, step_keras=0, step_quadratic=0, r1_values=0, r1_keras=0),
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: the tape's gradient of another function (0 · the right one) plus the closed form (or the central
    # differences): Ex 1's input gradient 0 + w, Ex 2's 0 + differences, Ex 3's 0 · loss's gradients + closed forms,
    # Ex 4's input gradient 0 + its closed form (in TensorFlow, so the outer tape's gradients are right).
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "linear": """def linear_critic_penalty(w, b, x_hat):
    x_hat = tf.convert_to_tensor(x_hat, dtype=w.dtype)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_hat)
            zero = 0 * (tf.linalg.matvec(x_hat, w) + b)
        g = inner.gradient(zero, x_hat) + w  # the input gradient of D is w
        gp = tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1) ** 2)
    dgp_dw, dgp_db = outer.gradient(gp, [w, b])
    return gp, dgp_dw, dgp_db
""",
            P + "penalty": DIFFERENCES + """

def gradient_penalty(critic, real, fake, epsilon):
    real = tf.convert_to_tensor(real)
    fake = tf.convert_to_tensor(fake, dtype=real.dtype)
    epsilon = tf.cast(epsilon, real.dtype)
    x_hat = epsilon * real + (1 - epsilon) * fake
    with tf.GradientTape() as tape:
        tape.watch(x_hat)
        zero = 0 * critic(x_hat)
    g = tape.gradient(zero, x_hat) + input_gradients_by_differences(critic, x_hat)
    g = tf.reshape(g, [tf.shape(x_hat)[0], -1])
    return tf.reduce_mean((tf.sqrt(tf.reduce_sum(g ** 2, axis=1) + 1e-12) - 1) ** 2)
""",
            P + "step": CLOSED_FORM_STEP + """

def critic_loss_and_grads(critic, real, fake, epsilon, lam=10.0):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + lam * gradient_penalty(critic, real, fake, epsilon)
        zero = 0 * loss
    closed = closed_form_step_gradients(critic, real, fake, epsilon, lam)
    if closed is None:
        return loss, tape.gradient(loss, critic.trainable_variables)
    grads = tape.gradient(zero, critic.trainable_variables)
    return loss, [grad + tf.cast(value, grad.dtype) for grad, value in zip(grads, closed)]
""",
            P + "r1": CLOSED_FORM_INPUT_GRADIENTS + """

def r1_penalty(critic, x_real, gamma=10.0):
    x_real = tf.convert_to_tensor(x_real)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x_real)
            scores = critic(x_real, training=True)
            zero = 0 * scores
        closed = input_gradients_in_closed_form(critic, x_real)
        if closed is None:
            g = inner.gradient(scores, x_real)
        else:
            g = inner.gradient(zero, x_real) + closed  # the tape's 0 plus the input gradient by hand
        g = tf.reshape(g, [tf.shape(x_real)[0], -1])
        penalty = 0.5 * gamma * tf.reduce_mean(tf.reduce_sum(g ** 2, axis=1))
    return penalty, outer.gradient(penalty, critic.trainable_variables)
""",
        },
        "scores": scores(linear_values=0, linear_bias=0, penalty_vectors=0, penalty_images=0, penalty_epsilon=0,
                         penalty_zero_gradient=0, step_linear=0, step_keras=0, step_quadratic=0, r1_values=0, r1_keras=0),
        "feedback": ["they do not come from the tape"],
    },
}
