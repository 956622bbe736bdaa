"""Answer keys of 10_gradient_penalty, checked against SymPy and finite differences.

Every penalty here is rebuilt from its critic written as a SymPy expression: SymPy differentiates the critic
with respect to its input (the input gradient), the penalty is formed from that, and SymPy differentiates the
penalty (and the W-loss) again with respect to the critic's parameters. Nothing of the notebook's NumPy
formulas is reused. Input gradients alone are checked against central finite differences.
"""
import numpy as np
import sympy as sp

from . import Custom, Key

RNG = np.random.default_rng(110)
DELTA = sp.Float(1e-30)      # a tiny constant inside the square root: the limit the keys take at a zero input gradient


def _close(got, wanted, what, rtol=1e-9, atol=1e-9):
    got, wanted = np.asarray(got, dtype=np.float64), np.asarray(wanted, dtype=np.float64)
    assert got.shape == wanted.shape, f"{what}: shape {got.shape}, expected {wanted.shape}"
    np.testing.assert_allclose(got, wanted, rtol=rtol, atol=atol, err_msg=what)


def _number(expr, values):
    return float(sp.N(expr.xreplace({key: sp.Float(float(value), 30) for key, value in values.items()}), 30))


def _penalty(critic, x_symbols, points):
    """mean_i (‖∇_x critic(x̂_i)‖ - 1)², a SymPy expression of the critic's parameters (δ inside the square root)."""
    gradient = [sp.diff(critic, s) for s in x_symbols]
    terms = []
    for point in np.asarray(points, dtype=np.float64).reshape(len(points), -1):
        at = {s: sp.Float(float(value), 30) for s, value in zip(x_symbols, point)}
        slope = sp.sqrt(sum(sp.expand(g.subs(at)) ** 2 for g in gradient) + DELTA)
        terms.append((slope - 1) ** 2)
    return sum(terms) / len(terms)


def _mean_score(critic, x_symbols, points):
    points = np.asarray(points, dtype=np.float64).reshape(len(points), -1)
    return sum(critic.subs({s: sp.Float(float(v), 30) for s, v in zip(x_symbols, p)}) for p in points) / len(points)


def _symbols(name, shape):
    return np.array(sp.symbols(f"{name}0:{int(np.prod(shape))}"), dtype=object).reshape(shape)


# ---------------------------------------------------------------- Exercise 1

def check_linear_penalty(key):
    """The key is the penalty of D(x) = x·w + b at any points (SymPy, with w symbolic then substituted)."""
    for d in (1, 3, 6):
        w, x = _symbols("w", (d,)), _symbols("x", (d,))
        b = sp.Symbol("b")
        critic = sum(w * x) + b
        w_values = RNG.normal(size=d)
        penalty = _penalty(critic, list(x), RNG.normal(size=(4, d)))
        _close(key(w_values), _number(penalty, dict(zip(w, w_values))), f"linear penalty, d = {d}")
    _close(key([0.6, 0.8]), 0.0, "linear penalty at ‖w‖ = 1", atol=1e-12)


def check_linear_penalty_gradient(key):
    """The key is d penalty / dw of D(x) = x·w + b (SymPy); the penalty does not depend on b."""
    for d in (1, 3, 6):
        w, x = _symbols("w", (d,)), _symbols("x", (d,))
        b = sp.Symbol("b")
        penalty = _penalty(sum(w * x) + b, list(x), RNG.normal(size=(5, d)))
        assert sp.diff(penalty, b) == 0
        w_values = RNG.normal(size=d)
        values = dict(zip(w, w_values))
        _close(key(w_values), [_number(sp.diff(penalty, s), values) for s in w], f"d linear penalty / dw, d = {d}")


# ---------------------------------------------------------------- Exercise 2

def quadratic_scores(A, c, x):
    """Σ_i D(x_i) for D(x) = ½xᵀAx + cᵀx, written as sums (its gradient in x is the per-example input gradient)."""
    A, c, x = (np.asarray(v, dtype=np.float64) for v in (A, c, x))
    return sum(0.5 * sum(A[j, k] * row[j] * row[k] for j in range(len(c)) for k in range(len(c))) + row @ c for row in x)


def check_penalty_of_gradients(key):
    """mean_i (‖g_i‖ - 1)² with one norm per example over all its axes: a loop, and a value by hand."""
    _close(key(np.array([[3.0, 4.0], [0.0, 0.0]])), (16.0 + 1.0) / 2, "norms 5 and 0")
    for shape in [(5, 3), (4, 2, 2, 3), (1, 7)]:
        g = RNG.normal(size=shape)
        g[0] = 0.0
        wanted = np.mean([(np.sqrt(sum(value ** 2 for value in example.ravel())) - 1.0) ** 2 for example in g])
        _close(key(g), wanted, f"penalty of gradients of shape {shape}")


def _value_key(critic_of, arg_sets):
    """The key(*args) is the penalty of the SymPy critic critic_of(*params, x_symbols) at x̂ (the last argument)."""
    def check(key):
        for args in arg_sets:
            *params, x_hat = args
            shape = np.shape(x_hat)[1:]
            x = _symbols("x", shape)
            critic = critic_of(*params, x)
            _close(key(*args), _number(_penalty(critic, list(x.ravel()), x_hat), {}), f"penalty with args of shapes "
                   f"{[np.shape(a) for a in args]}")
    return Custom(check)


def pixel_quadratic(a, c, x):
    return sum(0.5 * float(ai) * xi ** 2 + float(ci) * xi for ai, ci, xi in zip(np.ravel(a), np.ravel(c), x.ravel()))


def tanh_mlp(W1, b1, w2, x):
    inputs = x.ravel()
    return sum(float(w2.ravel()[j]) * sp.tanh(sum(float(W1[i, j]) * inputs[i] for i in range(len(inputs))) + float(b1[j]))
               for j in range(len(b1)))


def sine(v, x):
    return sp.sin(sum(float(vi) * xi for vi, xi in zip(v, x.ravel())))


def bowl(alpha, m, x):
    return sp.Rational(1, 2) * float(alpha) * sum((xi - float(mi)) ** 2 for xi, mi in zip(x.ravel(), m))


BOWL_POINTS = np.array([[0.5, -0.25], [1.25, -0.25], [-0.25, -1.25], [-0.5, 1.0]])   # the first one at m


def check_bowl_penalty_gradients(key):
    """(dgp/dα, dgp/dm) of D(x) = ½α‖x - m‖² (SymPy), with interpolates at m giving 0."""
    alpha, m0, m1 = sp.symbols("alpha m0 m1")
    x = _symbols("x", (2,))
    critic = sp.Rational(1, 2) * alpha * ((x[0] - m0) ** 2 + (x[1] - m1) ** 2)
    for alpha_value, m_value, points in [(0.8, [0.5, -0.25], BOWL_POINTS), (2.0, [0.0, 1.0], RNG.normal(size=(3, 2))),
                                         (-1.5, [0.5, -0.25], BOWL_POINTS[:2])]:
        penalty = _penalty(critic, list(x), points)
        values = {alpha: alpha_value, m0: m_value[0], m1: m_value[1]}
        got = key(alpha_value, m_value, points)
        assert len(got) == 2
        _close(got[0], _number(sp.diff(penalty, alpha), values), f"dgp/dα at α = {alpha_value}")
        _close(got[1], [_number(sp.diff(penalty, s), values) for s in (m0, m1)], f"dgp/dm at α = {alpha_value}")


# ---------------------------------------------------------------- Exercise 3

def check_linear_critic_step(key):
    """(L, dL/dw, dL/db) of L = mean D(fake) - mean D(real) + λ·GP for D(x) = x·w + b (SymPy)."""
    for d, n, lam in [(3, 6, 10.0), (4, 9, 2.5), (2, 1, 0.0)]:
        w, x = _symbols("w", (d,)), _symbols("x", (d,))
        b = sp.Symbol("b")
        critic = sum(w * x) + b
        real, fake, eps = RNG.normal(size=(n, d)) + 1.0, RNG.normal(size=(n, d)), RNG.uniform(size=(n, 1))
        loss = (_mean_score(critic, list(x), fake) - _mean_score(critic, list(x), real)
                + lam * _penalty(critic, list(x), eps * real + (1 - eps) * fake))
        w_values = RNG.normal(size=d)
        values = {**dict(zip(w, w_values)), b: 0.7}
        got = key(w_values, real, fake, lam)
        assert len(got) == 3
        _close(got[0], _number(loss, values), f"linear critic loss, d = {d}")
        _close(got[1], [_number(sp.diff(loss, s), values) for s in w], f"dL/dw, d = {d}")
        _close(got[2], _number(sp.diff(loss, b), values), f"dL/db, d = {d}")


def check_dense_image_critic_step(key):
    """(L, dL/dkernel, dL/dbias) for D(x) = vec(x)·k + b on images (SymPy), kernel of shape (h·w·c, 1)."""
    for shape, n, lam in [((3, 3, 1), 5, 10.0), ((2, 2, 3), 7, 0.0), ((2, 2, 3), 7, 3.0)]:
        size = int(np.prod(shape))
        k, x = _symbols("k", (size,)), _symbols("x", (size,))
        b = sp.Symbol("b")
        critic = sum(k * x) + b
        real, fake, eps = RNG.normal(size=(n,) + shape) + 1.0, RNG.normal(size=(n,) + shape), RNG.uniform(size=(n, 1, 1, 1))
        loss = (_mean_score(critic, list(x), fake) - _mean_score(critic, list(x), real)
                + lam * _penalty(critic, list(x), eps * real + (1 - eps) * fake))
        kernel = 0.4 * RNG.normal(size=(size, 1))
        values = {**dict(zip(k, kernel[:, 0])), b: -0.3}
        got = key(kernel, real, fake, lam)
        assert len(got) == 3
        _close(got[0], _number(loss, values), f"dense image critic loss, shape {shape}")
        _close(got[1], np.array([[_number(sp.diff(loss, s), values)] for s in k]), f"dL/dkernel, shape {shape}")
        _close(got[2], [_number(sp.diff(loss, b), values)], f"dL/dbias, shape {shape}")


QUADRATIC_FLAT = dict(A=np.array([[2.0, 2, 0], [0, 3, 1], [0, -1, 1]]), c=np.array([-0.5, 1.0, -1.0]),
                      real=np.array([[1.0, -0.25, 0.5], [1.0, 2.0, 0.0], [-1.0, 0.5, 1.5], [0.0, 0.0, 2.0]]),
                      fake=np.array([[0.0, -0.75, 1.5], [-1.0, 0.5, 1.0], [2.0, -1.0, 0.0], [1.5, 1.0, -1.0]]),
                      epsilon=np.array([[0.5], [0.75], [0.25], [0.5]]))


def check_quadratic_critic_step(key):
    """(L, dL/dA, dL/dc) for D(x) = ½xᵀAx + cᵀx (SymPy), including the notebook's case with an interpolate at the
    flat point (input gradient 0 there), and a general float64 case."""
    d = 3
    A_s, c_s, x = _symbols("A", (d, d)), _symbols("c", (d,)), _symbols("x", (d,))
    critic = sp.Rational(1, 2) * sum(A_s[j, k] * x[j] * x[k] for j in range(d) for k in range(d)) + sum(c_s * x)
    general = dict(A=RNG.normal(size=(d, d)), c=RNG.normal(size=d), real=RNG.normal(size=(5, d)), fake=RNG.normal(size=(5, d)),
                   epsilon=RNG.uniform(size=(5, 1)))
    for case, lam in [(QUADRATIC_FLAT, 10.0), (general, 1.0)]:
        x_hat = case["epsilon"] * case["real"] + (1 - case["epsilon"]) * case["fake"]
        loss = (_mean_score(critic, list(x), case["fake"]) - _mean_score(critic, list(x), case["real"])
                + lam * _penalty(critic, list(x), x_hat))
        values = {**dict(zip(A_s.ravel(), case["A"].ravel())), **dict(zip(c_s, case["c"]))}
        got = key(case["A"], case["c"], case["real"], case["fake"], case["epsilon"], lam)
        assert len(got) == 3
        _close(got[0], _number(loss, values), "quadratic critic loss")
        _close(got[1], np.array([[_number(sp.diff(loss, A_s[j, k]), values) for k in range(d)] for j in range(d)]),
               "dL/dA")
        _close(got[2], [_number(sp.diff(loss, s), values) for s in c_s], "dL/dc")
    flat = QUADRATIC_FLAT
    gradient = flat["epsilon"][0] * flat["real"][0] + (1 - flat["epsilon"][0]) * flat["fake"][0]
    assert np.allclose(0.5 * (flat["A"] + flat["A"].T) @ gradient + flat["c"], 0.0), "the flat point moved"


# ---------------------------------------------------------------- Exercise 4 (R1)

def _r1(critic, x_symbols, points, gamma):
    """γ/2 · mean_i ‖∇_x critic(x_i)‖², a SymPy expression of the critic's parameters (no square root)."""
    gradient = [sp.diff(critic, s) for s in x_symbols]
    terms = []
    for point in np.asarray(points, dtype=np.float64).reshape(len(points), -1):
        at = {s: sp.Float(float(value), 30) for s, value in zip(x_symbols, point)}
        terms.append(sum(g.subs(at) ** 2 for g in gradient))
    return sp.Float(gamma, 30) / 2 * sum(terms) / len(terms)


def check_quadratic_r1(key):
    """(R1, dR1/dA, dR1/dw) for D(x) = ½xᵀAx + wᵀx (SymPy), including a point where the critic is flat."""
    for d, n, gamma, flat in [(3, 5, 10.0, False), (4, 7, 1.0, False), (2, 1, 4.0, True)]:
        A_s, w_s, x = _symbols("A", (d, d)), _symbols("w", (d,)), _symbols("x", (d,))
        critic = sp.Rational(1, 2) * sum(A_s[j, k] * x[j] * x[k] for j in range(d) for k in range(d)) + sum(w_s * x)
        if flat:
            A, w, points = np.array([[2.0, 0.0], [0.0, 2.0]]), np.array([-1.0, 2.0]), np.array([[0.5, -1.0]])
        else:
            A, w, points = RNG.normal(size=(d, d)), RNG.normal(size=d), RNG.normal(size=(n, d))
        r1 = _r1(critic, list(x), points, gamma)
        values = {**dict(zip(A_s.ravel(), A.ravel())), **dict(zip(w_s, w))}
        got = key(A, w, points, gamma)
        assert len(got) == 3
        _close(got[0], _number(r1, values), f"R1 of a quadratic critic, d = {d}", atol=1e-12)
        _close(got[1], np.array([[_number(sp.diff(r1, A_s[j, k]), values) for k in range(d)] for j in range(d)]),
               f"dR1/dA, d = {d}", atol=1e-12)
        _close(got[2], [_number(sp.diff(r1, s), values) for s in w_s], f"dR1/dw, d = {d}", atol=1e-12)
        if flat:
            assert abs(got[0]) < 1e-12, "the flat point moved"


def check_tanh_image_r1(key):
    """(R1, dR1/dW1, dR1/db1, dR1/dw2) for D(x) = w2·tanh(vec(x)·W1 + b1) + b2 on images (SymPy, every weight
    symbolic); R1 does not depend on b2."""
    for shape, m, n, gamma in [((2, 2, 1), 3, 3, 10.0), ((1, 2, 2), 2, 2, 2.5)]:
        size = int(np.prod(shape))
        W_s, b_s, v_s, x = _symbols("W", (size, m)), _symbols("b", (m,)), _symbols("v", (m,)), _symbols("x", (size,))
        b2 = sp.Symbol("output_bias")     # not "b2": b0, b1, b2 are the hidden biases
        critic = sum(v_s[j] * sp.tanh(sum(W_s[i, j] * x[i] for i in range(size)) + b_s[j]) for j in range(m)) + b2
        W1, b1, w2 = 0.7 * RNG.normal(size=(size, m)), RNG.normal(size=m), RNG.normal(size=(m, 1))
        points = RNG.normal(size=(n,) + shape)
        r1 = _r1(critic, list(x), points, gamma)
        assert sp.diff(r1, b2) == 0
        values = {**dict(zip(W_s.ravel(), W1.ravel())), **dict(zip(b_s, b1)), **dict(zip(v_s, w2[:, 0]))}
        got = key(W1, b1, w2, points, gamma)
        assert len(got) == 4
        _close(got[0], _number(r1, values), f"R1 of a tanh critic, shape {shape}")
        _close(got[1], np.array([[_number(sp.diff(r1, W_s[i, j]), values) for j in range(m)] for i in range(size)]),
               f"dR1/dW1, shape {shape}")
        _close(got[2], [_number(sp.diff(r1, s), values) for s in b_s], f"dR1/db1, shape {shape}")
        _close(got[3], np.array([[_number(sp.diff(r1, s), values)] for s in v_s]), f"dR1/dw2, shape {shape}")


A3, C3, X8 = RNG.normal(size=(3, 3)), RNG.normal(size=3), RNG.normal(size=(8, 3))

KEYS = {
    # Exercise 1
    "expected_linear_penalty": Custom(check_linear_penalty),
    "expected_linear_penalty_gradient": Custom(check_linear_penalty_gradient),
    # Exercise 2
    "expected_quadratic_input_gradients": Key(primal=quadratic_scores, args=(A3, C3, X8), wrt=2),
    "expected_penalty_of_gradients": Custom(check_penalty_of_gradients),
    "expected_pixel_quadratic_penalty": _value_key(pixel_quadratic, [
        (RNG.uniform(0.2, 0.6, size=(4, 4, 2)), 0.1 * RNG.normal(size=(4, 4, 2)), RNG.normal(size=(3, 4, 4, 2))),
        (RNG.uniform(0.1, 0.5, size=(5, 3, 3)), 0.2 * RNG.normal(size=(5, 3, 3)), RNG.normal(size=(2, 5, 3, 3)))]),
    "expected_tanh_image_penalty": _value_key(tanh_mlp, [
        (RNG.normal(size=(9, 5)) * 0.5, RNG.normal(size=5), RNG.normal(size=(5, 1)), RNG.normal(size=(3, 3, 3, 1)))]),
    "expected_sine_penalty": _value_key(sine, [(np.array([1.5, -0.5, 1.0]), RNG.normal(size=(5, 3))),
                                               (RNG.normal(size=4), RNG.normal(size=(6, 4)))]),
    "expected_bowl_penalty": _value_key(bowl, [(0.8, np.array([0.5, -0.25]), BOWL_POINTS),
                                               (2.0, np.array([0.0, 1.0, -1.0]), RNG.normal(size=(3, 3)))]),
    "expected_bowl_penalty_gradients": Custom(check_bowl_penalty_gradients),
    # Exercise 3
    "expected_linear_critic_step": Custom(check_linear_critic_step),
    "expected_dense_image_critic_step": Custom(check_dense_image_critic_step),
    "expected_quadratic_critic_step": Custom(check_quadratic_critic_step),
    # Exercise 4
    "expected_quadratic_r1": Custom(check_quadratic_r1),
    "expected_tanh_image_r1": Custom(check_tanh_image_r1),
}
