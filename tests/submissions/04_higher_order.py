"""Synthetic submissions of 04_higher_order for the nbgrader round trip (tests/test_roundtrip.py).

Each entry: "answers" maps a solution cell's grade id to the whole source the student wrote in it
(solution cells not listed keep the source notebook's solution); "scores" maps every grade cell id
of the notebook to the exact points that submission must get.
Grade cells and points: second_tanh 1, second_other_functions 2, mixed_seed 1, mixed_other_functions 2,
motion_free_fall 1, motion_other 1, motion_uniform 1, residual_solutions 1, residual_other 2,
nth_sin 1, nth_other_functions 2 (15 in all).
"""

from . import scores_for

P = "04_higher_order_"


scores = scores_for("04_higher_order")

FD = """

def _fd(f, x, n, h=None):
    # the n-th central difference of an elementwise f at x, in float64 (f behind its counter, if any)
    from math import comb
    f = getattr(f, "_function", f)
    x = tf.cast(tf.convert_to_tensor(x), tf.float64)
    h = 10.0 ** (n - 6) if h is None else h
    return sum((-1) ** k * comb(n, k) * f(x + (n / 2 - k) * h) for k in range(n + 1)) / h ** n
"""


SUBMISSIONS = {
    # Correct, written another way: one persistent tape whose gradient calls run inside its own block,
    # NumPy results, and a None acceleration replaced by zeros by hand.
    "one_persistent_tape_numpy": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = f(x)
        dy_dx = tape.gradient(y, x)      # inside the block: recorded
    d2y_dx2 = tape.gradient(dy_dx, x)
    del tape
    return d2y_dx2.numpy()
''',
            P + "mixed": '''def mixed_partial(f, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = f(x, y)
        dz_dx = tape.gradient(z, x)
    d2 = tape.gradient(dz_dx, y)
    del tape
    return dz_dx.numpy(), d2.numpy()
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(t)
        s = position(t)
        v = tape.gradient(s, t)
    a = tape.gradient(v, t)
    if a is None:                        # the speed does not depend on t: no acceleration
        a = tf.zeros_like(t)
    return v.numpy(), a.numpy()
''',
            P + "residual": '''def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        u_x = u(x)
        du = tape.gradient(u_x, x)
    d2u = tape.gradient(du, x)
    return (d2u + (np.pi ** 2) * u_x).numpy()
''',
            P + "nth": '''def nth_derivative(f, x, n):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        d = f(x)
        for _ in range(n - 1):
            d = tape.gradient(d, x)      # each call recorded on the same tape
    d = tape.gradient(d, x)
    del tape
    return d.numpy()
''',
        },
        "scores": scores(),
    },
    # Correct, written another way: Variables (watched by every tape), exercises built on each other
    # (Ex 4 calls Ex 1's second_derivative), and a stack of n tapes for Ex 5.
    "variables_and_reuse": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    x = tf.Variable(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = f(x)
        dy_dx = inner.gradient(y, x)
    return outer.gradient(dy_dx, x)
''',
            P + "mixed": '''def mixed_partial(f, x, y):
    x, y = tf.Variable(x), tf.Variable(y)
    with tf.GradientTape() as tape_y:
        with tf.GradientTape() as tape_x:
            z = f(x, y)
        dz_dx = tape_x.gradient(z, x)
    return dz_dx, tape_y.gradient(dz_dx, y)
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = tf.Variable(t)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            s = position(t)
        v = inner.gradient(s, t)
    a = outer.gradient(v, t, unconnected_gradients="zero")
    return v, a
''',
            P + "residual": '''def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    return second_derivative(u, x) + np.pi ** 2 * u(x)
''',
            P + "nth": '''import contextlib

def nth_derivative(f, x, n):
    x = tf.convert_to_tensor(x)
    with contextlib.ExitStack() as stack:
        tapes = [stack.enter_context(tf.GradientTape()) for _ in range(n)]
        for tape in tapes:
            tape.watch(x)
        d = f(x)
        for tape in reversed(tapes):     # innermost first
            d = tape.gradient(d, x)
    return d
''',
        },
        "scores": scores(),
    },
    # Wrong: every inner gradient call after the outer tape's block: the outer gradients are None. The checks
    # name the mistake (NESTED_TAPE_HINT: "Does the inner `gradient` call run inside the outer tape's `with`
    # block?"), Ex 4 and Ex 5 also where the None breaks the student's own code (u'' + π²u, a tape asked for None).
    "inner_gradient_outside": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
    dy_dx = inner.gradient(y, x)
    return outer.gradient(dy_dx, x)
''',
            P + "mixed": '''def mixed_partial(f, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(x)
            z = f(x, y)
    dz_dx = inner.gradient(z, x)
    return dz_dx, outer.gradient(dz_dx, y)
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as outer:
        outer.watch(t)
        with tf.GradientTape(persistent=True) as inner:
            inner.watch(t)
            s = position(t)
    v = inner.gradient(s, t)
    return v, outer.gradient(v, t)
''',
            P + "residual": '''def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            u_x = u(x)
    du = inner.gradient(u_x, x)
    return outer.gradient(du, x) + np.pi ** 2 * u_x
''',
            P + "nth": '''def nth_derivative(f, x, n):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
    lower = f(x) if n == 1 else nth_derivative(f, x, n - 1)
    return tape.gradient(lower, x)
''',
        },
        "scores": scores(second_tanh=0, second_other_functions=0, mixed_seed=0, mixed_other_functions=0,
                         motion_free_fall=0, motion_other=0, motion_uniform=0, residual_solutions=0,
                         residual_other=0, nth_sin=0, nth_other_functions=0),
        "feedback": ["The gradient doctor looked at your tape code: x: the inner gradient was taken after the outer"],
    },
    # Wrong: a first derivative where a second was asked (Ex 1 one tape, Ex 4 u' + π²u, Ex 5 one order short).
    "first_derivative_only": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
''',
            P + "residual": '''def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        u_x = u(x)
    return tape.gradient(u_x, x) + np.pi ** 2 * u_x
''',
            P + "nth": '''def nth_derivative(f, x, n):
    x = tf.convert_to_tensor(x)
    if n <= 1:
        return f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        lower = nth_derivative(f, x, n - 1)
    return tape.gradient(lower, x)
''',
        },
        "scores": scores(second_tanh=0, second_other_functions=0, residual_solutions=0, residual_other=0,
                         nth_sin=0, nth_other_functions=0),
    },
    # Wrong: the outer tape does not watch x (Ex 1); with unconnected_gradients=ZERO (Ex 3) the None
    # becomes zeros, which only the constant-speed motion accepts.
    "missing_outer_watch": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x)
    return outer.gradient(dy_dx, x)
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            inner.watch(t)
            s = position(t)
        v = inner.gradient(s, t)
    return v, outer.gradient(v, t, unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
        },
        "scores": scores(second_tanh=0, second_other_functions=0, motion_free_fall=0, motion_other=0),
    },
    # Wrong: both tapes watch x in Ex 2: the outer gradient is d²z/dx², not d²z/dy dx
    # (None for the seed's z = x·y², whose dz/dx = y² does not depend on x).
    "mixed_wrt_x_twice": {
        "answers": {
            P + "mixed": '''def mixed_partial(f, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            z = f(x, y)
        dz_dx = inner.gradient(z, x)
    return dz_dx, outer.gradient(dz_dx, x)
''',
        },
        "scores": scores(mixed_seed=0, mixed_other_functions=0),
    },
    # Wrong: no unconnected_gradients=ZERO: the acceleration of the constant-speed motion is None.
    "acceleration_none_at_constant_speed": {
        "answers": {
            P + "motion": '''def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as outer:
        outer.watch(t)
        with tf.GradientTape() as inner:
            inner.watch(t)
            s = position(t)
        v = inner.gradient(s, t)
    return v, outer.gradient(v, t)
''',
        },
        "scores": scores(motion_uniform=0),
    },
    # Wrong: the sign of the residual (u'' - π²u).
    "residual_wrong_sign": {
        "answers": {
            P + "residual": '''def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            u_x = u(x)
        du = inner.gradient(u_x, x)
    return outer.gradient(du, x) - np.pi ** 2 * u_x
''',
        },
        "scores": scores(residual_solutions=0, residual_other=0),
    },
    # Wrong: the closed form of the visible function (tanh''), whatever f is: its numbers pass the tanh cell,
    # but no tape was asked (TapeCalls), so no cell passes.
    "hard_coded_tanh": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    t = np.tanh(np.asarray(x, dtype=np.float64))
    return -2 * t * (1 - t ** 2)
''',
        },
        "scores": scores(second_tanh=0, second_other_functions=0),
    },
    # Wrong: the closed forms of each exercise's visible function (Ex 2 z = x·y², Ex 3 the falling ball,
    # Ex 4 a zero residual, Ex 5 sin), whatever function comes in. Their numbers pass the first grade cell
    # of each exercise; TapeCalls fails them there, and the other cells fail on the values.
    "hard_coded_closed_forms": {
        "answers": {
            P + "mixed": '''def mixed_partial(f, x, y):
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return y ** 2 + 0 * x, 2 * y + 0 * x
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = np.asarray(t, dtype=np.float64)
    return 9.8 * t, np.full(t.shape, 9.8)
''',
            P + "residual": '''def ode_residual(u, x):
    return np.zeros(np.shape(x))    # sin(πx) solves the equation
''',
            P + "nth": '''def nth_derivative(f, x, n):
    return np.sin(np.asarray(x, dtype=np.float64) + n * np.pi / 2)
''',
        },
        "scores": scores(mixed_seed=0, mixed_other_functions=0, motion_free_fall=0, motion_other=0, motion_uniform=0,
                         residual_solutions=0, residual_other=0, nth_sin=0, nth_other_functions=0),
    },
    # Wrong: finite differences in float64, no tape at all. Accurate to about 1e-8, so their numbers pass
    # most checks (Ex 5's repeated differences do not); TapeCalls (no gradient asked) fails every cell.
    "finite_differences": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    x = np.asarray(x, dtype=np.float64)
    h = 1e-4
    return (f(tf.constant(x + h)) - 2 * f(tf.constant(x)) + f(tf.constant(x - h))) / h ** 2
''',
            P + "mixed": '''def mixed_partial(f, x, y):
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    h = 1e-4
    z = lambda a, b: f(tf.constant(a), tf.constant(b))
    dz_dx = (z(x + h, y) - z(x - h, y)) / (2 * h)
    d2z = (z(x + h, y + h) - z(x + h, y - h) - z(x - h, y + h) + z(x - h, y - h)) / (4 * h ** 2)
    return dz_dx, d2z
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = np.asarray(t, dtype=np.float64)
    h = 1e-4
    s = lambda time: position(tf.constant(time))
    return (s(t + h) - s(t - h)) / (2 * h), (s(t + h) - 2 * s(t) + s(t - h)) / h ** 2
''',
            P + "residual": '''def ode_residual(u, x):
    x = np.asarray(x, dtype=np.float64)
    h = 1e-4
    u_x = u(tf.constant(x))
    return (u(tf.constant(x + h)) - 2 * u_x + u(tf.constant(x - h))) / h ** 2 + np.pi ** 2 * u_x
''',
            P + "nth": '''def nth_derivative(f, x, n):
    x = np.asarray(x, dtype=np.float64)
    h = 1e-3
    lower = (lambda s: f(tf.constant(s))) if n == 1 else (lambda s: nth_derivative(f, s, n - 1))
    return (lower(x + h) - lower(x - h)) / (2 * h)
''',
        },
        "scores": scores(second_tanh=0, second_other_functions=0, mixed_seed=0, mixed_other_functions=0,
                         motion_free_fall=0, motion_other=0, motion_uniform=0, residual_solutions=0,
                         residual_other=0, nth_sin=0, nth_other_functions=0),
    },
    # Wrong: the first derivative from a tape, the second from a finite difference of it. Two gradient calls,
    # like nested tapes, and numbers that pass; Counted (f called twice or more) fails every cell.
    "tape_then_finite_difference": {
        "answers": {
            P + "second": '''def first_derivative(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def second_derivative(f, x):
    x = tf.cast(tf.convert_to_tensor(x), tf.float64)
    h = 1e-5
    return (first_derivative(f, x + h) - first_derivative(f, x - h)) / (2 * h)
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = tf.cast(tf.convert_to_tensor(t), tf.float64)
    h = 1e-5
    def speed(time):
        with tf.GradientTape() as tape:
            tape.watch(time)
            s = position(time)
        return tape.gradient(s, time)
    return speed(t), (speed(t + h) - speed(t - h)) / (2 * h)
''',
            P + "residual": '''def ode_residual(u, x):
    x = tf.cast(tf.convert_to_tensor(x), tf.float64)
    h = 1e-5
    def du(s):
        with tf.GradientTape() as tape:
            tape.watch(s)
            value = u(s)
        return tape.gradient(value, s)
    return (du(x + h) - du(x - h)) / (2 * h) + np.pi ** 2 * u(x)
''',
        },
        "scores": scores(second_tanh=0, second_other_functions=0, motion_free_fall=0, motion_other=0,
                         motion_uniform=0, residual_solutions=0, residual_other=0),
    },
    # Wrong: a first derivative where a second was asked: Ex 2 returns (dz/dx, dz/dy) from one tape,
    # Ex 3 returns the speed twice.
    "first_derivative_where_second_asked": {
        "answers": {
            P + "mixed": '''def mixed_partial(f, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as tape:
        tape.watch([x, y])
        z = f(x, y)
    return tape.gradient(z, [x, y])
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as tape:
        tape.watch(t)
        s = position(t)
    v = tape.gradient(s, t)
    return v, v
''',
        },
        "scores": scores(mixed_seed=0, mixed_other_functions=0, motion_free_fall=0, motion_other=0, motion_uniform=0),
    },
    # Wrong: every solution returns what the matching answer key gives (keys refuse to run from student code).
    "calls_answer_keys": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    return expected_tanh_second_derivative(x)
''',
            P + "mixed": '''def mixed_partial(f, x, y):
    return expected_seed_mixed_partial(x, y)
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    return expected_free_fall_motion(t)
''',
            P + "residual": '''def ode_residual(u, x):
    return expected_solution_residual(x)
''',
            P + "nth": '''def nth_derivative(f, x, n):
    return expected_sin_nth_derivative(x, n)
''',
        },
        "scores": scores(second_tanh=0, second_other_functions=0, mixed_seed=0, mixed_other_functions=0,
                         motion_free_fall=0, motion_other=0, motion_uniform=0, residual_solutions=0,
                         residual_other=0, nth_sin=0, nth_other_functions=0),
    },
    # Wrong: the tapes are right, but no function returns its result (None everywhere).
    "no_return": {
        "answers": {
            P + "second": '''def second_derivative(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x)
    d2y_dx2 = outer.gradient(dy_dx, x)
''',
            P + "mixed": '''def mixed_partial(f, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(x)
            z = f(x, y)
        dz_dx = inner.gradient(z, x)
    pair = dz_dx, outer.gradient(dz_dx, y)
''',
            P + "motion": '''def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as outer:
        outer.watch(t)
        with tf.GradientTape() as inner:
            inner.watch(t)
            s = position(t)
        v = inner.gradient(s, t)
    a = outer.gradient(v, t, unconnected_gradients=tf.UnconnectedGradients.ZERO)
''',
            P + "residual": '''def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            u_x = u(x)
        du = inner.gradient(u_x, x)
    r = outer.gradient(du, x) + np.pi ** 2 * u_x
''',
            P + "nth": '''def nth_derivative(f, x, n):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        lower = f(x) if n == 1 else nth_derivative(f, x, n - 1)
    d = tape.gradient(lower, x)
''',
        },
        "scores": scores(second_tanh=0, second_other_functions=0, mixed_seed=0, mixed_other_functions=0,
                         motion_free_fall=0, motion_other=0, motion_uniform=0, residual_solutions=0,
                         residual_other=0, nth_sin=0, nth_other_functions=0),
    },
    # Correct, with debug output to stderr and logging.warning in every solution: the setup cell shows
    # them as ordinary output, so no cell loses its points.
    "debug_output_to_stderr": {
        "answers": {
            P + "second": '''import logging
import sys

def second_derivative(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x)
    d2 = outer.gradient(dy_dx, x)
    print("debug: d2 has shape", d2.shape, file=sys.stderr)
    logging.warning("second_derivative done")
    return d2
''',
            P + "mixed": '''import logging
import sys

def mixed_partial(f, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(x)
            z = f(x, y)
        dz_dx = inner.gradient(z, x)
    print("debug: dz/dx =", dz_dx, file=sys.stderr)
    logging.warning("mixed_partial done")
    return dz_dx, outer.gradient(dz_dx, y)
''',
            P + "motion": '''import logging
import sys

def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as outer:
        outer.watch(t)
        with tf.GradientTape() as inner:
            inner.watch(t)
            s = position(t)
        v = inner.gradient(s, t)
    a = outer.gradient(v, t, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    print("debug: a =", a, file=sys.stderr)
    logging.warning("speed_and_acceleration done")
    return v, a
''',
            P + "residual": '''import logging
import sys

def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            u_x = u(x)
        du = inner.gradient(u_x, x)
    d2u = outer.gradient(du, x)
    print("debug: u'' =", d2u, file=sys.stderr)
    logging.warning("ode_residual done")
    return d2u + np.pi ** 2 * u_x
''',
            P + "nth": '''import logging
import sys

def nth_derivative(f, x, n):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        lower = f(x) if n == 1 else nth_derivative(f, x, n - 1)
    print("debug: order", n, file=sys.stderr)
    logging.warning("nth_derivative order %d", n)
    return tape.gradient(lower, x)
''',
        },
        "scores": scores(),
    },
    # Shortcut: nested tapes asked as the counts demand (f called once), their results dropped; the answer
    # central differences in float64 of the function behind the counter. Every count is met and every number
    # is right, but none of them is the tapes'.
    "closed_form_after_a_throwaway_tape_call": {
        "answers": {
            P + "second": """def second_derivative(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy_dx = inner.gradient(y, x)
    outer.gradient(dy_dx, x)  # asked, then dropped
    return tf.cast(_fd(f, x, 2), x.dtype)
""" + FD,
            P + "mixed": """def mixed_partial(f, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(x)
            z = f(x, y)
        dz_dx = inner.gradient(z, x)
    outer.gradient(dz_dx, y)
    g = getattr(f, "_function", f)
    wide_x, wide_y, h = tf.cast(x, tf.float64), tf.cast(y, tf.float64), 1e-4
    first = (g(wide_x + h, wide_y) - g(wide_x - h, wide_y)) / (2 * h)
    mixed = (g(wide_x + h, wide_y + h) - g(wide_x + h, wide_y - h) - g(wide_x - h, wide_y + h)
             + g(wide_x - h, wide_y - h)) / (4 * h * h)
    return tf.cast(first, x.dtype), tf.cast(mixed, x.dtype)
""",
            P + "motion": """def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as outer:
        outer.watch(t)
        with tf.GradientTape() as inner:
            inner.watch(t)
            s = position(t)
        v = inner.gradient(s, t)
    outer.gradient(v, t, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return tf.cast(_fd(position, t, 1), t.dtype), tf.cast(_fd(position, t, 2), t.dtype)
""" + FD,
            P + "residual": """def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            u_x = u(x)
        du_dx = inner.gradient(u_x, x)
    outer.gradient(du_dx, x)
    return tf.cast(_fd(u, x, 2), x.dtype) + np.pi ** 2 * u_x
""" + FD,
            P + "nth": """def nth_derivative(f, x, n):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        d = f(x)
        for _ in range(n):
            d = tape.gradient(d, x)  # n calls, as counted, then dropped
    return tf.cast(_fd(f, x, n), x.dtype)
""" + FD,
        },
        "scores": scores(second_tanh=0, second_other_functions=0, mixed_seed=0, mixed_other_functions=0,
                         motion_free_fall=0, motion_other=0, motion_uniform=0, residual_solutions=0, residual_other=0,
                         nth_sin=0, nth_other_functions=0),
        "feedback": ["they do not come from the tape"],
    },
    # Shortcut: the nested tapes' derivatives of another function (0 · f) plus the same central differences.
    "tape_of_another_function_plus_the_closed_form": {
        "answers": {
            P + "second": """def second_derivative(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            zero = 0 * f(x)
        first = inner.gradient(zero, x)
    return outer.gradient(first, x) + tf.cast(_fd(f, x, 2), x.dtype)
""" + FD,
            P + "mixed": """def mixed_partial(f, x, y):
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    with tf.GradientTape() as outer:
        outer.watch(y)
        with tf.GradientTape() as inner:
            inner.watch(x)
            zero = 0 * f(x, y)
        start = inner.gradient(zero, x)
    second = outer.gradient(start, y)
    g = getattr(f, "_function", f)
    wide_x, wide_y, h = tf.cast(x, tf.float64), tf.cast(y, tf.float64), 1e-4
    first = (g(wide_x + h, wide_y) - g(wide_x - h, wide_y)) / (2 * h)
    mixed = (g(wide_x + h, wide_y + h) - g(wide_x + h, wide_y - h) - g(wide_x - h, wide_y + h)
             + g(wide_x - h, wide_y - h)) / (4 * h * h)
    return start + tf.cast(first, x.dtype), second + tf.cast(mixed, x.dtype)
""",
            P + "motion": """def speed_and_acceleration(position, t):
    t = tf.convert_to_tensor(t)
    with tf.GradientTape() as outer:
        outer.watch(t)
        with tf.GradientTape() as inner:
            inner.watch(t)
            zero = 0 * position(t)
        v = inner.gradient(zero, t)
    a = outer.gradient(v, t, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return v + tf.cast(_fd(position, t, 1), t.dtype), a + tf.cast(_fd(position, t, 2), t.dtype)
""" + FD,
            P + "residual": """def ode_residual(u, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            u_x = u(x)
            zero = 0 * u_x
        first = inner.gradient(zero, x)
    second = outer.gradient(first, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return second + tf.cast(_fd(u, x, 2), x.dtype) + np.pi ** 2 * u_x
""" + FD,
            P + "nth": """def nth_derivative(f, x, n):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        d = 0 * f(x)
        for _ in range(n):
            d = tape.gradient(d, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return d + tf.cast(_fd(f, x, n), x.dtype)
""" + FD,
        },
        "scores": scores(second_tanh=0, second_other_functions=0, mixed_seed=0, mixed_other_functions=0,
                         motion_free_fall=0, motion_other=0, motion_uniform=0, residual_solutions=0, residual_other=0,
                         nth_sin=0, nth_other_functions=0),
    },
}
