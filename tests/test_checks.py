"""The notebook-side checks: silent on every correct answer, a teaching message on each wrong one."""
import traceback

import numpy as np
import pytest
import tensorflow as tf

from autograder.notebook_side import checks, messages
from autograder.notebook_side.checks import CheckFailed, check_close, check_gradient, check_gradients, check_none

X = np.linspace(-2.0, 2.0, 9)
DF = np.cos(X)  # the closed form used as "expected" throughout


@pytest.fixture(autouse=True)
def no_display(monkeypatch):
    """Record the figures a failing grid check would show instead of displaying them."""
    shown = []
    monkeypatch.setattr(checks, "_show", shown.append)
    return shown


@pytest.mark.parametrize("answer", [
    tf.constant(DF, tf.float32), tf.constant(DF, tf.float64), DF.astype(np.float32), DF, list(DF),
    tf.Variable(DF, dtype=tf.float32),
], ids=["tf32", "tf64", "np32", "np64", "list", "variable"])
def test_every_correct_form_passes(answer):
    check_gradient(answer, DF, "f'", at=X)


@pytest.mark.parametrize("answer", [6.0, np.float32(6.0), tf.constant(6.0), tf.constant([6.0]), np.array([[6.0]])])
def test_scalars_in_any_form_pass(answer):
    check_gradient(answer, 6.0, "dy/dx")


def test_float32_round_off_passes_and_a_real_error_does_not():
    x = np.linspace(-4, 4, 201)
    exact = np.exp(-x**2 / 2) * (np.cos(x) - x * np.sin(x))
    check_gradient(exact.astype(np.float32), exact, at=x)
    with pytest.raises(CheckFailed):
        check_gradient(exact * (1 + 1e-3), exact, at=x)


def test_gather_gradient_as_indexed_slices_passes():
    params = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(params)
        y = tf.reduce_sum(tf.gather(params, [0, 2]))
    grad = tape.gradient(y, params)
    assert isinstance(grad, tf.IndexedSlices)
    check_gradient(grad, [1.0, 0.0, 1.0])


def test_none_explains_the_tape():
    with pytest.raises(CheckFailed, match=r"dy/dx is None: the tape recorded no path.*watch"):
        check_gradient(None, 6.0, "dy/dx")


def test_none_value_asks_for_a_return():
    with pytest.raises(CheckFailed, match="return"):
        check_close(None, 125.0, "the loss")


def test_a_summed_gradient_is_named():
    with pytest.raises(CheckFailed, match=r"shape \(\), but the answer has shape \(9,\).*summed"):
        check_gradient(tf.reduce_sum(DF), DF, "f'")


def test_a_jacobian_where_a_gradient_was_asked_is_named():
    with pytest.raises(CheckFailed, match="Jacobian"):
        check_gradient(np.diag(DF), DF, "f'")


def test_wrong_sign():
    with pytest.raises(CheckFailed, match="wrong sign"):
        check_gradient(-DF, DF, "f'", at=X)


def test_wrong_factor():
    with pytest.raises(CheckFailed, match="constant factor of 2"):
        check_gradient(2 * DF, DF, "f'", at=X)


def test_all_zeros():
    with pytest.raises(CheckFailed, match="all zeros"):
        check_gradient(np.zeros_like(DF), DF, "f'")


def test_nan_is_named_with_its_points():
    bad = DF.copy()
    bad[3] = np.nan
    with pytest.raises(CheckFailed, match=r"NaN or inf at 1 of 9 points[\s\S]*x = -0.5"):
        check_gradient(bad, DF, "f'", at=X)


def test_off_points_are_listed_and_the_curves_shown(no_display):
    bad = DF.copy()
    bad[[1, 7]] += 0.5
    with pytest.raises(CheckFailed) as failure:
        check_gradient(bad, DF, "f'", at=X)
    message = str(failure.value)
    assert "not correct at 2 of 9 points" in message
    assert "x = -1.5: got" in message and "x = 1.5: got" in message
    assert len(no_display) == 1
    lines = no_display[0].axes[0].get_lines()
    np.testing.assert_allclose(lines[0].get_ydata(), DF)       # the correct curve
    np.testing.assert_allclose(lines[1].get_ydata(), bad)      # the student's
    np.testing.assert_allclose(lines[2].get_xdata(), X[[1, 7]])  # the points that are off


def test_not_a_number():
    with pytest.raises(CheckFailed, match="should be a number"):
        check_close("6.0", 6.0, "dy/dx")


def test_gradients_dict():
    expected = {"w": np.array([70.0, 100.0]), "b": 30.0}
    check_gradients({"w": tf.constant([70.0, 100.0]), "b": tf.constant(30.0)}, expected)
    with pytest.raises(CheckFailed, match=r"keys \['w'\], but the answer has keys \['b', 'w'\]"):
        check_gradients({"w": [70.0, 100.0]}, expected)
    with pytest.raises(CheckFailed, match=r"the gradients\['b'\] is None"):
        check_gradients({"w": [70.0, 100.0], "b": None}, expected)
    with pytest.raises(CheckFailed, match="should be a dict"):
        check_gradients([[70.0, 100.0], 30.0], expected)


def test_gradients_list():
    check_gradients([tf.constant(1.0), np.array([2.0, 3.0])], [1.0, [2.0, 3.0]])
    with pytest.raises(CheckFailed, match="has 1 entries, but the answer has 2"):
        check_gradients([1.0], [1.0, 2.0])
    with pytest.raises(CheckFailed, match=r"the gradients\[1\] has the wrong sign|the gradients\[1\] is not correct"):
        check_gradients([1.0, -2.0], [1.0, 2.0])


def test_check_none():
    check_none(None, "dL/db", "the penalty does not depend on the bias")
    with pytest.raises(CheckFailed, match="should be None \\(the penalty"):
        check_none(tf.constant(1.0), "dL/db", "the penalty does not depend on the bias")


def test_gradient_of_the_mean_is_named_with_its_count():
    with pytest.raises(CheckFailed, match=r"1/9 of the answer: .*a mean \(tf.reduce_mean\) over 9 values"):
        check_gradient(DF / DF.size, DF, "f'")
    # a mean over the N = 5 examples of a loss, with D = 3 gradient entries
    with pytest.raises(CheckFailed, match="1/5 of the answer"):
        check_gradient(np.array([1.0, 2.0, 3.0]) / 5, [1.0, 2.0, 3.0], "dL/dw")


def test_a_wrong_single_number_gets_no_constant_factor_story():
    with pytest.raises(CheckFailed) as failure:
        check_gradient(6.0, -5.0, "dy/dx")
    assert "factor" not in str(failure.value) and "got 6, expected -5" in str(failure.value)


def test_a_none_hint_reaches_every_entry():
    with pytest.raises(CheckFailed, match=r"\['w'\] is None: is the loss computed inside the block\?"):
        check_gradients({"w": None}, {"w": [1.0]}, none_hint="is the loss computed inside the block?")


def test_expected_none_entries_in_gradients():
    check_gradients([None, 2.0], [None, 2.0])
    with pytest.raises(CheckFailed, match=r"the gradients\[0\] should be None"):
        check_gradients([1.0, 2.0], [None, 2.0])


def test_a_known_wrong_answer_is_named():
    second = -2 * np.tanh(X) * (1 - np.tanh(X) ** 2)
    first = 1 - np.tanh(X) ** 2
    with pytest.raises(CheckFailed, match="It equals the first derivative, not the second."):
        check_gradient(first, second, "f''", at=X, mistakes={"the first derivative, not the second": first})


def test_a_summed_jacobian_is_named():
    with pytest.raises(CheckFailed, match=r"fewer dimensions.*tape.jacobian"):
        check_gradient(DF[:3], np.diag(DF[:3]), "the Jacobian")


def test_grid_variable_and_none_hint_can_be_named(no_display):
    with pytest.raises(CheckFailed, match="at t = -2: got"):
        check_gradient(DF + 1, DF, "the speed", at=X, at_name="t")
    assert no_display[0].axes[0].get_xlabel() == "$t$"
    with pytest.raises(CheckFailed, match="is None: was the inner gradient taken inside the outer tape"):
        check_gradient(None, DF, "f''", none_hint="was the inner gradient taken inside the outer tape?")


def test_zeros_where_none_is_expected_name_unconnected_gradients():
    with pytest.raises(CheckFailed, match="UnconnectedGradients.ZERO"):
        check_none(tf.zeros(3), "dz/dw", "z does not depend on w")


def test_a_transposed_answer_is_named():
    with pytest.raises(CheckFailed, match="transposed"):
        check_gradient(np.zeros((4, 3, 2)), np.zeros((4, 2, 3)), "the per-example Jacobians")


def test_nested_gradients():
    expected = {"w": np.array([1.0, 2.0]), "head": [np.zeros((2, 3)), {"b": 4.0}]}
    check_gradients({"w": [1.0, 2.0], "head": (tf.zeros((2, 3)), {"b": tf.constant(4.0)})}, expected)
    with pytest.raises(CheckFailed, match=r"the gradients\['head'\]\[1\]\['b'\] is not correct|wrong sign"):
        check_gradients({"w": [1.0, 2.0], "head": [np.zeros((2, 3)), {"b": -4.0}]}, expected)
    with pytest.raises(CheckFailed, match=r"the gradients\['head'\] should be a list of 2"):
        check_gradients({"w": [1.0, 2.0], "head": np.zeros((2, 3))}, expected)


def test_none_where_zeros_are_asked_names_unconnected_gradients():
    with pytest.raises(CheckFailed, match=r"\['aux'\] is None: the answer is zeros.*UnconnectedGradients.ZERO"):
        check_gradients({"w": 1.0, "aux": None}, {"w": 1.0, "aux": np.zeros(3)})
    with pytest.raises(CheckFailed, match="Did you watch"):  # a scalar zero is no sign of an unconnected source
        check_gradient(None, 0.0, "dy/dx at 0")


def test_known_wrong_answers_in_a_dict_are_named():
    a = np.array([1.0, 2.0])
    v = np.array([3.0, -1.0])
    expected = {"a": 9 * a**2 * v, "b": -2 * a * v}
    mistakes = {"a": {"the gradient of the sum, without v": 9 * a**2}, "b": {"the gradient of the sum, without v": -2 * a}}
    with pytest.raises(CheckFailed, match=r"the gradients\['b'\] .*\nIt equals the gradient of the sum, without v"):
        check_gradients({"a": 9 * a**2 * v, "b": -2 * a}, expected, mistakes=mistakes)
    with pytest.raises(CheckFailed, match=r"\[1\] .*\nIt equals half of it"):
        check_gradients([1.0, [1.0, 2.0]], [1.0, [2.0, 4.0]], mistakes={1: {"half of it": [1.0, 2.0]}})


def test_as_sequence_explains_what_came_back():
    assert checks.as_sequence((1, 2), 2, "f(x)", "(a, b)") == [1, 2]
    with pytest.raises(CheckFailed, match="f\\(x\\) is None: did the function `return`"):
        checks.as_sequence(None, 2, "f(x)", "(a, b)")
    with pytest.raises(CheckFailed, match="should be a tuple or list \\(a, b\\), but it is one EagerTensor. One call"):
        checks.as_sequence(tf.constant([1.0, 2.0]), 2, "f(x)", "(a, b)", hint="One call sums the targets.")
    with pytest.raises(CheckFailed, match="has 3 entries, but it should have 2"):
        checks.as_sequence([1, 2, 3], 2, "f(x)", "(a, b)")


def test_counted_counts_calls_and_keeps_the_name():
    f = checks.Counted(tf.sin)
    f(tf.constant(1.0)), f(tf.constant(2.0))
    assert f.calls == 2 and f.__name__ == "sin"
    assert not hasattr(f, "__wrapped__") and not hasattr(f, "function")  # nothing to call uncounted by the book
    with pytest.raises(CheckFailed, match="two_derivatives ran sin 2 times, but the exercise allows 1: record once"):
        checks.check_calls(f, "two_derivatives", calls=1)
    checks.check_calls(f, "it", calls=2)
    checks.check_calls(f, "it", calls=(1, 2))
    with pytest.raises(CheckFailed, match="it ran u 2 times, but the exercise allows 3 to 4. Hint.$"):
        checks.check_calls(f, "it", calls=(3, 4), hint="Hint.", name="u")
    with pytest.raises(CheckFailed, match="it never called cos: the answer must come from a tape"):
        checks.check_calls(checks.Counted(tf.cos), "it")


def _square_with_tape(x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


def test_tape_calls_count_what_the_student_asked():
    x = tf.constant([1.0, 2.0])
    with checks.TapeCalls() as tapes:
        _square_with_tape(3.0)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x
        tape.jacobian(y, x)  # runs gradient inside TensorFlow: counted as one jacobian only
        tape.batch_jacobian(y[:, None], x[:, None])
        with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as accumulator:
            z = x * x
        accumulator.jvp(z)
    assert tapes.calls == {"gradient": 1, "jacobian": 1, "batch_jacobian": 1, "jvp": 1}
    checks.check_tape_calls(tapes, "it", gradient=1, jacobian=(1, None), any=(4, 4))
    with pytest.raises(CheckFailed, match="called tape.gradient 1 time\\(s\\), but the exercise asks for exactly 2"):
        checks.check_tape_calls(tapes, "it", gradient=2)
    with pytest.raises(CheckFailed, match="called tape.jacobian 1 time\\(s\\), but the exercise asks you not to call it. Use a VJP"):
        checks.check_tape_calls(tapes, "it", jacobian=0, hint="Use a VJP.")
    with pytest.raises(CheckFailed, match="called the accumulator's jvp 1 time\\(s\\), but the exercise asks for at least 2"):
        checks.check_tape_calls(tapes, "it", jvp=(2, None))


def test_tape_calls_restore_the_tape_and_catch_a_closed_form():
    original = tf.GradientTape.gradient
    with checks.TapeCalls() as tapes:
        answer = 2 * 3.0  # the closed form, worked out by hand
    assert tf.GradientTape.gradient is original
    assert answer == 6.0
    with pytest.raises(CheckFailed, match="called a tape 0 time\\(s\\), but the exercise asks for at least 1. The tape is meant"):
        checks.check_tape_calls(tapes, "square_slope(3.0)", any=(1, None))


# ---------------------------------------------------------------- check_from_tape: the answer's provenance

def _watched(x):
    return tf.convert_to_tensor(np.asarray(x, dtype=np.float64))


def _slope_plain(x):
    x = _watched(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


def _slope_persistent_numpy(x):
    x = _watched(x)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.square(x)
    tape.gradient(y, x)  # asked twice: the second answer is returned
    return float(tape.gradient(y, x).numpy())


@tf.function
def _slope_compiled(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x)


def _second_derivative_nested(x):
    x = _watched(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
        dy = inner.gradient(y, x)
    return outer.gradient(dy, x)  # 6x


def _grads_of_a_split_source(x):
    both = _watched(x)
    with tf.GradientTape() as tape:
        tape.watch(both)
        a, b = both[0], both[1]
        loss = a * a * b
    grad = tape.gradient(loss, both)
    return {"a": grad[0], "b": grad[1]}  # slices of the tape's answer come from the tape too


def _jvp_of_square(x):
    x = _watched(x)
    with tf.autodiff.ForwardAccumulator(x, tf.ones_like(x)) as accumulator:
        y = x * x
    return accumulator.jvp(y)


def _jacobian_diagonal(x):
    x = _watched(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tf.linalg.diag_part(tape.jacobian(y, x))


@pytest.mark.parametrize("compute", [
    lambda: _slope_plain(3.0), lambda: {"at 3": _slope_persistent_numpy(3.0), "at -1": _slope_persistent_numpy(-1.0)},
    lambda: _slope_compiled(tf.constant(3.0)), lambda: _second_derivative_nested(2.0),
    lambda: _grads_of_a_split_source([2.0, 3.0]), lambda: _jvp_of_square([1.0, -2.0]),
    lambda: _jacobian_diagonal([1.0, 2.0, 3.0]), lambda: [_slope_plain(p) for p in (0.0, 1.0, 2.0)],
], ids=["plain", "persistent-numpy-float", "tf.function-traced-before", "nested", "slices", "jvp", "jacobian", "list"])
def test_an_answer_the_tape_gave_passes_check_from_tape(compute):
    _slope_compiled(tf.constant(3.0))  # traced before the re-run: it must ask its tape again all the same
    checks.check_from_tape(compute, "it")
    assert not tf.config.functions_run_eagerly()


def _closed_form_after_a_throwaway_call(x):
    _slope_plain(x)
    return 2.0 * x


def _another_function_plus_the_closed_form(x):
    x = _watched(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = 0.0 * x * x
    return tape.gradient(y, x) + 2.0 * x


def _closed_form_times_a_trivial_gradient(x):
    x = _watched(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.identity(x)
    return 2.0 * x * tape.gradient(y, x)


def _tape_of_zero_plus_closed_form_in_a_dict(x):
    return {"w": _another_function_plus_the_closed_form(x), "b": _slope_plain(x)}


@pytest.mark.parametrize("compute, message", [
    (lambda: 2.0 * 3.0, "asked no tape for its answer"),
    (lambda: _closed_form_after_a_throwaway_call(3.0), r"do not come from the tape: it\."),
    (lambda: _another_function_plus_the_closed_form(3.0), r"do not come from the tape: it\."),
    (lambda: _closed_form_times_a_trivial_gradient(3.0), r"do not come from the tape: it\."),
    (lambda: _tape_of_zero_plus_closed_form_in_a_dict(3.0), r"do not come from the tape: it\['w'\]\."),
    (lambda: {"at 3.0 (labelled)": _closed_form_after_a_throwaway_call(3.0)}, r"do not come from the tape: at 3.0 \(labelled\)\."),
    (lambda: [_slope_plain(1.0), _closed_form_after_a_throwaway_call(2.0)], r"do not come from the tape: it\[1\]\."),
], ids=["no-tape", "throwaway-call", "another-function", "times-a-trivial-gradient", "dict-entry", "label", "list-entry"])
def test_a_closed_form_fails_check_from_tape_whatever_tape_calls_surround_it(compute, message):
    original = tf.GradientTape.__dict__["gradient"]
    with pytest.raises(CheckFailed, match=message):
        checks.check_from_tape(compute, "it", hint="Demo 1 shows how.")
    assert tf.GradientTape.__dict__["gradient"] is original
    assert not tf.config.functions_run_eagerly()


def test_check_from_tape_can_let_hand_written_zeros_stand_for_unconnected_sources():
    def with_zeros(x):
        return {"used": _slope_plain(x), "unused": np.zeros(2)}
    with pytest.raises(CheckFailed, match="unused"):
        checks.check_from_tape(lambda: with_zeros(1.0), "it")
    checks.check_from_tape(lambda: with_zeros(1.0), "it", zeros_may_be_written=True)


def test_tape_calls_restore_every_tape_method_and_let_the_checks_name_the_doctors_cause():
    originals = {name: tf.GradientTape.__dict__[name] for name in ("__enter__", "__exit__", "watch", "gradient")}

    def unwatched_slope(x):
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            y = x * x
        return tape.gradient(y, x)

    def norm_slope(x):
        x = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.norm(x)
        return tape.gradient(y, x)
    with checks.TapeCalls():
        answer = unwatched_slope(3.0)
    assert {name: tf.GradientTape.__dict__[name] for name in originals} == originals
    with pytest.raises(CheckFailed, match="The gradient doctor looked at your tape code: x: the source is a tensor the tape does not watch"):
        check_gradient(answer, 6.0)
    with checks.TapeCalls():
        answer = norm_slope([0.0, 0.0])
    with pytest.raises(CheckFailed, match="contains NaN or inf(.|\n)*The gradient doctor(.|\n)*infinite derivative"):
        check_gradient(answer, [1.0, 1.0])


def _compiled(source, filename, namespace):
    """Run `source` as if it were the notebook cell `filename`."""
    exec(compile(source, filename, "exec"), namespace)
    return namespace


def test_an_answer_key_works_in_check_code_and_refuses_student_code(monkeypatch):
    # In a notebook the cell being run is the outermost code on the stack; under pytest-xdist the
    # worker's own bootstrap code is, so this file is declared check code the way a grade cell is.
    monkeypatch.setattr(checks, "_GRADER_FILES", checks._GRADER_FILES | {__file__})
    namespace = _compiled("@answer_key\ndef expected_double(x):\n    return 2.0 * x\n", "<grade cell>",
                          {"answer_key": checks.answer_key})
    key = namespace["expected_double"]
    assert key(3.0) == 6.0 and [key(p) for p in (1.0, 2.0)] == [2.0, 4.0]
    _compiled("def direct(x):\n    return expected_double(x)\n"
              "def in_a_comprehension(x):\n    return [expected_double(v) for v in [x]][0]\n"
              "def through_eval(x):\n    return eval('expected_double(x)')\n", "<solution cell>", namespace)
    for student in ("direct", "in_a_comprehension", "through_eval"):
        with pytest.raises(CheckFailed, match="expected_double is an answer key of the checks, and your code called it"):
            namespace[student](3.0)


def _gradient_of(target):
    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
    return tape.gradient(target, x)


def _zero_for_an_unconnected_keras_variable():
    import keras

    used, unused = keras.Variable(1.0), keras.Variable(2.0)
    with tf.GradientTape() as tape:
        y = used * 3.0
    return tape.gradient(y, [used, unused], unconnected_gradients=tf.UnconnectedGradients.ZERO)


def _custom_gradient_with_a_setting_as_argument():
    """A gradient reversal whose λ is an argument of the decorated function, and grad_fn returns one gradient."""
    @tf.custom_gradient
    def reverse(x, lam):
        return tf.identity(x), lambda upstream: -lam * upstream

    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = reverse(x, 0.5)
    return tape.gradient(y, x)


def _gradient_of_an_operation_without_one():
    """tf.image.resize with method="area" runs ResizeArea, which has no registered gradient."""
    x = tf.constant([0.5, 1.0, 2.0, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(tf.reshape(x, [1, 4, 1, 1]), [2, 1], method="area")
    return tape.gradient(y, x)


def _gradient_of_python_numbers(target, source):
    with tf.GradientTape() as tape:
        pass
    return tape.gradient(target, source)


def _accumulate_along_a_keras_variable():
    import keras

    dense = keras.layers.Dense(2)
    dense.build((None, 3))
    with tf.autodiff.ForwardAccumulator(primals=dense.kernel, tangents=tf.ones((3, 2))):
        dense(tf.ones((1, 3)))


def _watch_a_keras_variable(value):
    import keras

    with tf.GradientTape() as tape:
        tape.watch(keras.Variable(value))


def _apply(gradient, variable):
    """An SGD step on one (gradient, variable) pair; "variable" stands for a Keras Variable."""
    import keras

    gradient, variable = (keras.Variable(1.0) if isinstance(value, str) else value for value in (gradient, variable))
    keras.optimizers.SGD(0.1).apply_gradients([(gradient, variable)])


@pytest.mark.parametrize("make_error, explanation", [
    (lambda: _watch_a_keras_variable(1.0), "tape.watch cannot take a Keras 3 variable"),
    (lambda: _watch_a_keras_variable([[1.0, 2.0], [3.0, 4.0]]), "tape.watch cannot take a Keras 3 variable"),  # printed on 2 lines
    (_accumulate_along_a_keras_variable, "If this came from tf.autodiff.ForwardAccumulator: a Keras 3 variable"),
    (lambda: tf.constant(1.0, tf.float64) * tf.constant(2.0), "Two tensors of different dtypes met in one operation (Mul)"),
    (lambda: tf.GradientTape().__enter__().watch(3.0), "tape.watch needs a tensor, and this is a Python float"),
    (lambda: tf.constant(tf.constant([1.0, 2.0], tf.float64), dtype=tf.float32),
     "tf.constant(x, dtype=tf.float32) got a tensor that is already float64"),
    (lambda: tf.constant(tf.constant(3, tf.int32), dtype=tf.float32),
     "tf.constant(x, dtype=tf.float32) got a tensor that is already int32"),
    (lambda: _gradient_of_python_numbers(9.0, 3.0), "A Python float came where a tensor was expected"),
    (lambda: eval("square_slope(3.0)"), "Python does not know `square_slope` yet. If a cell above defines it"),
    (lambda: tf.constant(1.0) * None, "A value that should be a tensor is None"),
    (lambda: dict.get({}, "grads")["w"], "A value that should be a result is None"),
    (lambda: iter(None), "A value that should be a result is None"),
    (lambda: [a for a, b in [None]], "A value that should be a result is None"),
    (lambda: _gradient_of(None), "tape.gradient was asked for the gradient of None"),
    (lambda: dict.get({}, "dy_dx").numpy(), "A value that should be a tensor is None, so it has no .numpy"),
    (lambda: tf.reshape(tf.constant([5.0]), [3]), "One number came where 3 were expected. If this comes from tape.gradient"),
    (_zero_for_an_unconnected_keras_variable, "unconnected_gradients=ZERO cannot make zeros for a Keras 3 Variable"),
    (lambda: 10.0 * dict.get({}, "penalty"), "A value that should be a tensor is None, and arithmetic met it"),
    (lambda: _apply(None, "variable"), "The optimizer got None for every gradient"),
    (lambda: _apply("variable", tf.constant(1.0)),
     "optimizer.apply_gradients got a tensor where a Variable belongs"),
    (lambda: dict.get({}, "penalty") + 1.0, "A value that should be a tensor is None, and arithmetic met it"),
    (lambda: _custom_gradient_with_a_setting_as_argument(), "A @tf.custom_gradient function's grad_fn returns one "
     "gradient per tensor argument of the decorated function: 2 here, but it returned 1"),
    (lambda: _gradient_of_an_operation_without_one(), "The operation ResizeArea has no gradient in TensorFlow"),
    (lambda: tf.autodiff.ForwardAccumulator(np.array([1.0, 2.0]), np.array([1.0, 0.0])),
     "tf.autodiff.ForwardAccumulator needs tensors as its primals, and this is a NumPy array"),
    (lambda: tf.autodiff.ForwardAccumulator(tf.constant([1.0]), tf.constant([1.0], tf.float64)),
     "A float64 tensor was given where a float32 one was needed"),
])
def test_errors_a_learner_meets_are_explained(make_error, explanation):
    with pytest.raises(Exception) as failure:
        make_error()
    assert messages.explain_error(failure.value).startswith(explanation)


def test_a_failed_checks_traceback_stops_at_the_line_that_called_the_check(no_display):
    with pytest.raises(CheckFailed) as failure:
        check_gradient(None, np.array(6.0), "the slope")
    frames = traceback.extract_tb(messages._without_helper_frames(failure.value.__traceback__))
    assert frames[-1].filename == __file__ and "check_gradient(None" in frames[-1].line, frames


def test_a_reused_tape_and_a_stub_are_explained_and_other_errors_are_not():
    assert "persistent=True" in messages.explain_error(RuntimeError(
        "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)"))
    assert messages.explain_error(NotImplementedError()).startswith("This exercise is not done yet")
    assert messages.explain_error(NotImplementedError("the method is abstract")) is None
    assert messages.explain_error(KeyError("w")) is None
    assert messages.explain_error(LookupError("unknown encoding: utf-9")) is None
    assert messages.explain_error(RuntimeError("something else")) is None
    assert messages.explain_error(TypeError("unsupported operand type(s) for +: 'int' and 'str'")) is None
    assert messages.explain_error(AttributeError("'float' object has no attribute 'numpy'")) is None
    assert messages.explain_error(NameError("cannot access free variable 'x' where it is not associated with a value")) is None


def test_gradients_on_a_grid_name_their_points(no_display):
    with pytest.raises(CheckFailed, match=r"the pair\[1\] is not correct at 1 of 9 points[\s\S]*at t = 2: got"):
        check_gradients([DF, np.append(DF[:-1], 9.0)], [DF, DF], "the pair", at=X, at_name="t")
    assert no_display[0].axes[0].get_xlabel() == "$t$"
    with pytest.raises(CheckFailed, match=r"\[1\] is not correct at 1 of 1 point\.\n  it: got 3"):
        check_gradients([DF, 3.0], [DF, 2.0], "the pair", at=X)  # a scalar entry is not on the grid
    with pytest.raises(CheckFailed, match="one gradient call with a list of targets returns one tensor"):
        check_gradients(tf.constant(DF), [DF, DF], "the pair")


def test_a_row_of_numbers_is_checked_entry_by_entry_when_the_answer_is_a_list():
    table = [[np.float64(1.0), np.float64(2.0)], [np.float64(3.0), np.float64(4.0)]]
    check_gradients([[1.0, 2.0], np.array([3.0, 4.0])], table, "the table")
    with pytest.raises(CheckFailed, match=r"the table\[1\]\[0\] is None"):
        check_gradients([[1.0, 2.0], [None, 4.0]], table, "the table")


def _newton_step(x):
    """x - f'(x)/f''(x) for f = x⁴, from two tapes: the answer is computed from what they return."""
    x = _watched(x)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x ** 4
        slope = inner.gradient(y, x)
    return x - slope / outer.gradient(slope, x)


def _newton_follows(results):
    """The step made from the shifted slope and curvature."""
    (_, [slope]), (_, [curvature]) = results
    return 2.0 - slope / curvature


def test_an_answer_computed_from_the_tapes_results_follows_them_and_a_formula_does_not():
    checks.check_from_tape(lambda: _newton_step(2.0), "newton_step", follows=_newton_follows, size=1e-2)

    def by_hand(x):
        _newton_step(x)  # the tapes are asked, but the answer is the formula x - x/3
        return x - x / 3
    with pytest.raises(CheckFailed, match="do not come from the tape: newton_step"):
        checks.check_from_tape(lambda: by_hand(2.0), "newton_step", follows=_newton_follows, size=1e-2)


def test_check_from_tape_explains_an_error_raised_in_the_re_run():
    def fragile(x):
        if not np.isclose(_slope_plain(x), 2 * x):
            raise ValueError("not the slope I expected")
        return _slope_plain(x)
    with pytest.raises(CheckFailed, match="fragile raised ValueError \\(not the slope I expected\\) when the checks ran it again"):
        checks.check_from_tape(lambda: fragile(1.0), "fragile")


def test_check_causes_says_which_entry_is_missing_unknown_or_wrong():
    expected = {"A": "outside_tape", "B": {"inner_gradient_outside", "outside_tape"}}
    checks.check_causes({"A": "outside_tape", "B": "inner_gradient_outside"}, expected, "causes_1")
    checks.check_causes({"A": "outside_tape", "B": "outside_tape"}, ["A", "B"], "causes_1")
    with pytest.raises(CheckFailed, match=r"causes_1\['B'\] has no cause yet"):
        checks.check_causes({"A": "outside_tape", "B": ""}, expected, "causes_1")
    with pytest.raises(CheckFailed, match=r"causes_1\['A'\]: 'tape' is not a cause of the list"):
        checks.check_causes({"A": "tape", "B": "outside_tape"}, ["A", "B"], "causes_1")
    with pytest.raises(CheckFailed, match=r"causes_1\['A'\]: you named 'not_watched' .* not what breaks it. Follow the path"):
        checks.check_causes({"A": "not_watched", "B": "outside_tape"}, expected, "causes_1")
    with pytest.raises(CheckFailed, match="causes_1 should be a dict"):
        checks.check_causes(["outside_tape"], expected, "causes_1")


def _descend(w, b, steps, lr=0.1):
    """Gradient descent on L = sum((w·x + b)²) at x = (1, 2), asking a tape at every step."""
    w, b = tf.Variable(np.asarray(w, dtype=np.float64)), tf.Variable(np.float64(b))
    x = tf.constant([1.0, 2.0], tf.float64)
    for _ in range(steps):
        with tf.GradientTape() as tape:
            loss = (tf.reduce_sum(w * x) + b) ** 2
        grad_w, grad_b = tape.gradient(loss, [w, b])
        w.assign_sub(lr * grad_w)
        b.assign_sub(lr * grad_b)
    return {"w": w.numpy(), "b": b.numpy()}


def test_after_descent_follows_the_steps_a_tape_gave_and_not_a_formula():
    start = {"w": [0.5, -0.25], "b": 0.1}
    checks.check_from_tape(lambda: _descend(**start, steps=3), "descend", follows=checks.after_descent(start, 0.1),
                           size=1e-3)

    def by_hand(w, b, steps, lr=0.1):
        _descend(w, b, 1)  # a tape is asked, but the steps are the formula's
        w, b, x = np.asarray(w, dtype=np.float64), np.float64(b), np.array([1.0, 2.0])
        for _ in range(steps):
            s = w @ x + b
            w, b = w - lr * 2 * s * x, b - lr * 2 * s
        return {"w": w, "b": b}
    with pytest.raises(CheckFailed, match="do not come from the tape"):
        checks.check_from_tape(lambda: by_hand(**start, steps=3), "descend", follows=checks.after_descent(start, 0.1),
                               size=1e-3)


def test_a_per_example_map_is_re_run_example_by_example_and_put_back():
    original = tf.vectorized_map

    def per_example_slopes(xs):
        def slope(x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = x ** 3
            return tape.gradient(y, x)
        return tf.vectorized_map(slope, xs)  # traced: its tape's results are symbolic
    checks.check_from_tape(lambda: per_example_slopes(tf.constant([1.0, -2.0, 0.5])), "per_example_slopes")
    assert tf.vectorized_map is original


def test_last_returned_picks_the_last_result_of_a_shape():
    results = [("gradient", [np.ones(3), np.zeros((2, 2))]), ("gradient", [np.full(3, 2.0)])]
    assert checks.last_returned(results, (3,)).tolist() == [2.0, 2.0, 2.0]
    assert checks.last_returned(results, (4,)) is None


def test_an_inner_jvp_read_after_both_blocks_keeps_its_outer_tangent_in_the_re_run():
    def second_directional(x, v):
        x, v = _watched(x), _watched(v)
        with tf.autodiff.ForwardAccumulator(x, v) as outer:
            with tf.autodiff.ForwardAccumulator(x, v) as inner:
                y = tf.reduce_sum(x ** 3)
        return outer.jvp(inner.jvp(y))  # both read after the blocks: vᵀ∇²f v = Σ 6x v²
    checks.check_from_tape(lambda: second_directional([1.0, 2.0], [0.5, -1.0]), "second_directional")


def test_a_none_in_the_re_run_fails_unless_the_answer_is_none_without_the_shifts_too():
    def unconnected(x):
        x, other = _watched(x), _watched(1.0)
        with tf.GradientTape() as tape:
            tape.watch([x, other])
            y = x * x
        return tape.gradient(y, [x, other])  # [2x, None]: None is right for the unconnected source
    checks.check_from_tape(lambda: unconnected(3.0), "unconnected")
    state = {"runs": 0}

    def none_when_shifted(x):
        state["runs"] += 1
        slope = _slope_plain(x)
        return None if state["runs"] == 1 else slope  # None in the re-run only
    with pytest.raises(CheckFailed, match="do not come from the tape: none_when_shifted"):
        checks.check_from_tape(lambda: none_when_shifted(3.0), "none_when_shifted")
