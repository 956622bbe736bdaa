"""Checks that compare a student's gradient with the closed-form answer and say what is wrong.

Each check is silent when the answer is right and raises AssertionError with a message written
for the student when it is not. They accept tensors, Variables, NumPy arrays, Python numbers and
lists of numbers, in any float dtype.
"""
import collections
import functools
import io
import sys

import numpy as np

from .doctor import CAUSES, _TOOL_FILES, _library_file, doctor_says, tape_doctor
from .messages import CheckFailed, NONE_GRADIENT_HINT, NONE_VALUE_HINT, UNCONNECTED_HINT
from .observations import Unreadable
from .plots import plot_mismatch

MAX_POINTS_LISTED = 5
_TOOL_FILES.add(sys._getframe().f_code.co_filename)  # the doctor looks past these checks to the student's code


def _to_numpy(value, what):
    """The value as a NumPy array, or a CheckFailed that names what came back instead."""
    if hasattr(value, "values") and hasattr(value, "indices") and hasattr(value, "dense_shape"):
        import tensorflow as tf  # IndexedSlices (the gradient of tf.gather) become a dense tensor

        value = tf.convert_to_tensor(value)
    if hasattr(value, "numpy"):
        value = value.numpy()
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as error:  # a ragged list, say
        raise CheckFailed(f"{what} should be a number or an array, but could not be read as one ({error}).") from None
    if array.dtype == object or array.dtype.kind not in "biuf":
        kind = value.kind if isinstance(value, Unreadable) else type(value).__name__  # Unreadable: what was observed
        raise CheckFailed(
            f"{what} should be a number or an array of numbers, but it is a {kind}"
            f" ({array.dtype}): {value!r:.120}"
        )
    return array


def tolerances(dtype, expected):
    """(rtol, atol) that fit the precision of the student's result.

    float64 results are usually computed in float32 somewhere along the way (or converted from a
    float32 tensor), so float32's tolerance is used for both; half precision gets its own.
    """
    scale = max(1.0, float(np.max(np.abs(expected)))) if expected.size else 1.0
    if np.dtype(dtype).itemsize <= 2:
        return 1e-2, 1e-2 * scale
    return 1e-5, 1e-5 * scale


def _describe_points(actual, expected, off, at, at_name="x"):
    """Lines like 'at x = 0.5: got 1.2, expected 0.9' for the first few points that are off."""
    lines = []
    indices = np.argwhere(off)
    for index in indices[:MAX_POINTS_LISTED]:
        index = tuple(int(i) for i in index)
        if not index:
            where = "it"
        elif at is not None and np.ndim(at) == 1 and len(index) == 1:
            where = f"at {at_name} = {float(np.asarray(at)[index[0]]):.4g}"
        else:
            where = f"at index {index[0] if len(index) == 1 else index}"
        lines.append(f"  {where}: got {float(actual[index]):.6g}, expected {float(expected[index]):.6g}")
    if len(indices) > MAX_POINTS_LISTED:
        lines.append(f"  ... and {len(indices) - MAX_POINTS_LISTED} more")
    return lines


def _diagnose(actual, expected, rtol, atol, mistakes=None):
    """A sentence on the likely mistake when the whole answer is off in a recognisable way.

    mistakes: {description: value} of known wrong answers ("the first derivative, not the second":
    f'(x)); an answer equal to one of them is named.
    """
    for description, wrong in (mistakes or {}).items():
        wrong = np.asarray(wrong, dtype=np.float64)
        if wrong.shape == actual.shape and np.allclose(actual, wrong, rtol=rtol, atol=atol):
            return f"It equals {description}."
    if np.allclose(actual, 0.0, atol=atol) and not np.allclose(expected, 0.0, atol=atol):
        return ("It is all zeros: along the path the tape recorded, the target does not change with the source "
                "(a value computed outside the tape and fed back in, an operation whose gradient is zero "
                "such as tf.round, or unconnected_gradients=ZERO?).")
    if np.allclose(actual, -expected, rtol=rtol, atol=atol):
        return "It has the wrong sign: check the signs in your function."
    nonzero = np.abs(expected) > atol
    if np.count_nonzero(nonzero) < 2:
        return None  # any wrong single number is "a constant factor" of the right one: that says nothing
    factor = float(np.median(actual[nonzero] / expected[nonzero]))
    if not np.allclose(actual, factor * expected, rtol=rtol, atol=atol):
        return None
    inverse = round(1.0 / factor) if factor != 0 else 0
    if inverse >= 2 and np.isclose(factor * inverse, 1.0, rtol=1e-4):
        return (f"It is 1/{inverse} of the answer: a missing factor of {inverse}, or a mean "
                f"(tf.reduce_mean) over {inverse} values where the sum was asked?")
    return f"It is off by a constant factor of {factor:.4g}: a missing or extra constant?"


def _fail(what, actual, expected, off, at, at_name, rtol, atol, mistakes=None):
    """Raise the message for a value of the right shape that is wrong; show the curves for a grid."""
    count = int(np.count_nonzero(off))
    lines = [f"{what} is not correct at {count} of {off.size} point{'s' if off.size != 1 else ''}."]
    diagnosis = _diagnose(actual, expected, rtol, atol, mistakes)
    if diagnosis:
        lines.append(diagnosis)
    lines += _describe_points(actual, expected, off, at, at_name)
    if at is not None and np.ndim(at) == 1 and expected.ndim == 1 and expected.size > 2:
        _show(plot_mismatch(at, actual, expected, off=off, what=what, x_name=at_name))
    raise CheckFailed("\n".join(lines))


def _show(fig):
    """Display a figure now, as a PNG: a failing check raises, so the cell's figures would not be
    shown, and while grading no figure is drawn but this one."""
    try:
        from IPython.display import Image, display

        png = io.BytesIO()
        fig.savefig(png, format="png", bbox_inches="tight")
        display(Image(png.getvalue()))
    except ImportError:  # outside IPython there is nothing to show it on
        pass
    import matplotlib.pyplot as plt

    plt.close(fig)


def check_close(actual, expected, what="the result", *, at=None, at_name="x", mistakes=None,
                none_hint=NONE_VALUE_HINT, rtol=None, atol=None):
    """Check that `actual` equals the closed-form `expected` within the tolerance of its dtype.

    what:     how the message names the value ("dy/dx", "the gradient of the loss").
    at:       the grid of x values when the value is a function sampled on a grid (messages name
              the points that are off and show the student's curve against the correct one);
              at_name names the grid's variable ("t" for times).
    mistakes: {description: value} of plausible wrong answers, named when the answer equals one
              ({"the first derivative, not the second": 1 - np.tanh(x)**2}).
    none_hint: what a None answer most likely means here.
    """
    if actual is None:
        raise CheckFailed(f"{what} is None: {none_hint} {doctor_says()}".strip())
    actual = _to_numpy(actual, what)
    expected = np.asarray(expected, dtype=np.float64)
    if actual.shape != expected.shape:
        if actual.size == 1 and expected.size == 1:
            actual = actual.reshape(expected.shape)
        else:
            hint = ""
            if sorted(actual.shape) == sorted(expected.shape):
                hint = " The same axes in another order: is it transposed?"
            elif actual.size == 1:
                hint = (" A single number came back where one value per input was expected:"
                        " was the target summed, or the gradient taken with respect to the wrong source?")
            elif actual.ndim > expected.ndim:
                hint = (" It has more dimensions than asked: a Jacobian where a gradient was asked,"
                        " or the full Jacobian where one per example (batch_jacobian) was asked?")
            elif actual.ndim < expected.ndim:
                hint = (" It has fewer dimensions than asked: the gradient of the sum (tape.gradient)"
                        " where a Jacobian (tape.jacobian) was asked?")
            raise CheckFailed(f"{what} has shape {actual.shape}, but the answer has shape {expected.shape}.{hint}")
    default_rtol, default_atol = tolerances(actual.dtype, expected)
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    actual = actual.astype(np.float64)
    bad = ~np.isfinite(actual) & np.isfinite(expected)
    if bad.any():
        lines = [f"{what} contains NaN or inf at {int(np.count_nonzero(bad))} of {bad.size} points:"
                 " a division by zero, a log or sqrt of 0, or an overflow on the way?"]
        lines += _describe_points(actual, expected, bad, at, at_name)
        raise CheckFailed("\n".join(lines + [doctor_says()]).strip())
    off = ~np.isclose(actual, expected, rtol=rtol, atol=atol)
    if off.any():
        _fail(what, actual, expected, off, at, at_name, rtol, atol, mistakes)


def check_gradient(actual, expected, what="the gradient", *, at=None, at_name="x", mistakes=None,
                   none_hint=None, rtol=None, atol=None):
    """check_close for a gradient: a None answer gets the tape's reasons for None (or `none_hint`).

    Where the answer is an array of zeros, a None most likely means unconnected_gradients was left at NONE.
    """
    if none_hint is None:
        zeros = actual is None and np.ndim(expected) > 0 and not np.any(np.asarray(expected, dtype=np.float64))
        none_hint = UNCONNECTED_HINT if zeros else NONE_GRADIENT_HINT
    check_close(actual, expected, what, at=at, at_name=at_name, mistakes=mistakes, none_hint=none_hint,
                rtol=rtol, atol=atol)


def check_gradients(actual, expected, what="the gradients", *, at=None, at_name="x", mistakes=None, none_hint=None,
                    rtol=None, atol=None):
    """Check a list or dict of gradients (or lists and dicts nested in each other) against the same
    structure of closed forms, entry by entry.

    An expected entry of None means that gradient must be None (an unconnected source). Below the
    top level, a list of plain numbers is one array; give nested arrays as NumPy arrays.
    mistakes: plausible wrong answers, in the same structure as far as needed, with
              {description: value} for an entry ({"a": {"the gradient of the sum": 9 * a**2}}).
    at:       the grid, for entries that are functions sampled on it (as in check_gradient).
    none_hint: what a None entry most likely means here (default: the tape's reasons for None).
    """
    if actual is None:
        raise CheckFailed(f"{what} is None: {NONE_VALUE_HINT}")
    grid = dict(at=at, at_name=at_name, none_hint=none_hint, rtol=rtol, atol=atol)
    _check_nest(actual, expected, what, mistakes or {}, grid)


def _is_nest(expected):
    """A dict, or a list or tuple that holds more than plain numbers."""
    if isinstance(expected, dict):
        return True
    return isinstance(expected, (list, tuple)) and not all(
        isinstance(item, (int, float, np.number)) and not isinstance(item, bool) for item in expected)


def _check_nest(actual, expected, what, mistakes, options):
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            raise CheckFailed(f"{what} should be a dict with keys {sorted(expected)}, but it is a {type(actual).__name__}.")
        if set(actual) != set(expected):
            raise CheckFailed(f"{what} has keys {sorted(actual)}, but the answer has keys {sorted(expected)}.")
        entries = [(key, actual[key], expected[key], f"{what}[{key!r}]") for key in expected]
    else:
        if not isinstance(actual, (list, tuple)):
            raise CheckFailed(f"{what} should be a list of {len(expected)} gradients, but it is a {type(actual).__name__}"
                              " (one gradient call with a list of targets returns one tensor: the gradient of their sum).")
        if len(actual) != len(expected):
            raise CheckFailed(f"{what} has {len(actual)} entries, but the answer has {len(expected)}.")
        entries = [(index, got, want, f"{what}[{index}]") for index, (got, want) in enumerate(zip(actual, expected))]
    for key, got, want, name in entries:
        wrong = mistakes.get(key) if isinstance(mistakes, dict) else None
        # a list of numbers is one array, unless the student's list holds a None: then entry by entry
        if _is_nest(want) or (isinstance(want, (list, tuple)) and isinstance(got, (list, tuple))
                              and any(item is None for item in got)):
            _check_nest(got, want, name, wrong or {}, options)
        elif want is None:
            check_none(got, name, "the target does not depend on this source")
        else:
            at = options["at"] if np.shape(want) == np.shape(options["at"]) else None
            check_gradient(got, want, name, mistakes=wrong, **{**options, "at": at})


def check_none(actual, what, why):
    """Check that a gradient is None on purpose; `why` says why None is the right answer here."""
    if actual is not None:
        hint = ""
        try:
            if not np.any(_to_numpy(actual, what)):
                hint = " Zeros in its place come from unconnected_gradients=tf.UnconnectedGradients.ZERO."
        except CheckFailed:
            pass
        raise CheckFailed(f"{what} should be None ({why}), but it is {actual!r:.120}.{hint}")


def as_sequence(result, length, what, entries, hint=""):
    """The result as a list of `length` entries (a tuple or list the student returned), or a failure
    that says what came back instead. entries names them for the message: "(dy/dx, dz/dx)"."""
    if result is None:
        raise CheckFailed(f"{what} is None: {NONE_VALUE_HINT}")
    if not isinstance(result, (tuple, list)):
        raise CheckFailed(f"{what} should be a tuple or list {entries}, but it is one {type(result).__name__}. {hint}".strip())
    if len(result) != length:
        raise CheckFailed(f"{what} has {len(result)} entries, but it should have {length}: {entries}.")
    return list(result)


def check_causes(answers, expected, what="causes"):
    """Check the causes a student named, one code of CAUSES per snippet or excerpt.

    answers:  the student's {snippet: "code"}.
    expected: the snippets to answer (a list: only that each answer is a code of the list), or
              {snippet: "code"} (or a set of codes where several are right) to check the answers too.
    """
    if not isinstance(answers, dict):
        raise CheckFailed(f"{what} should be a dict {{snippet: cause}}, but it is {type(answers).__name__}.")
    for snippet in expected:
        answer = answers.get(snippet)
        if answer is None or answer == "":
            raise CheckFailed(f"{what}[{snippet!r}] has no cause yet: give one code of the list (show_causes() prints it).")
        if answer not in CAUSES:
            codes = ", ".join(repr(code) for code in CAUSES)
            raise CheckFailed(f"{what}[{snippet!r}]: {answer!r} is not a cause of the list. Use one of: {codes}.")
    if not isinstance(expected, dict):
        return
    for snippet, right in expected.items():
        right = {right} if isinstance(right, str) else set(right)
        if answers[snippet] not in right:
            raise CheckFailed(f"{what}[{snippet!r}]: you named {answers[snippet]!r} ({CAUSES[answers[snippet]].title}), "
                              "but that is not what breaks it. Follow the path from the source to the target, line by "
                              "line, and find the first place it is lost (for a NaN: the first operation that makes an inf).")


# ---------------------------------------------------------------- what the student's code did

class Counted:
    """A function that counts its calls, for checks where computing something once is the point.

    f = Counted(g); answer = student_function(f, x); f.calls is how often the student called it.
    The function it counts is kept out of sight (no __wrapped__): calling it uncounted is not the exercise.
    """

    def __init__(self, function):
        self.__name__ = getattr(function, "__name__", "the computation")
        self.__doc__ = getattr(function, "__doc__", None)
        self._function = function
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self._function(*args, **kwargs)


def check_calls(counted, what, calls=1, hint="", name=None):
    """Check how often the student's code called a Counted computation.

    calls: 1 (record once), or a range (1, 2); name: how the message names the computation.
    """
    low, high = calls if isinstance(calls, tuple) else (calls, calls)
    name = name or getattr(counted, "__name__", "the computation")
    if counted.calls == 0 and low:
        raise CheckFailed(f"{what} never called {name}: the answer must come from a tape that recorded it, "
                          f"not from a formula worked out by hand. {hint}".strip())
    if counted.calls < low or (high is not None and counted.calls > high):
        allowed = f"{low}" if low == high else f"{low} to {high}"
        once = ": record once, ask several times" if high == 1 else ""
        raise CheckFailed(f"{what} ran {name} {counted.calls} times, but the exercise allows {allowed}{once}. "
                          f"{hint}".strip())


def check_runs(counts, what, *, runs=None, points=None, hint=""):
    """Check how often the computation handed to the student's code ran (a RunCounter's counts, as `observe`
    returns them with count=...).

    runs:   the number of runs the exercise allows: 1 (record once), or a range (1, 2); None: at least one.
    points: the numbers every run must see at once (the whole grid), where one run per point is the mistake.
    """
    done, seen = counts["runs"], counts["elements"]
    if done == 0:
        raise CheckFailed(f"{what} never ran the computation it was given: the answer must come from a tape that "
                          f"recorded it, not from a formula worked out by hand. {hint}".strip())
    low, high = runs if isinstance(runs, tuple) else (runs, runs) if runs is not None else (1, None)
    if done < low or (high is not None and done > high):
        allowed = f"{low}" if low == high else f"{low} to {high}"
        once = ": record once, ask several times" if high == 1 else ""
        raise CheckFailed(f"{what} ran the computation {done} times, but the exercise allows {allowed}{once}. {hint}".strip())
    if points is not None and seen != done * points:
        raise CheckFailed(f"{what} ran the computation {done} time(s) on {seen} numbers in all, but each run should see "
                          f"all {points} points at once (one run for the whole grid, not one per point). {hint}".strip())


class TapeCalls:
    """Count what the tapes were asked while a block runs:

        with TapeCalls() as tapes:
            answer = student_function(x)
        tapes.calls["gradient"], tapes.calls["jacobian"], tapes.calls["batch_jacobian"], tapes.calls["jvp"]

    Only the student's own calls count (jacobian calls gradient inside TensorFlow; that is not counted).
    A function under tf.function asks its tapes only while it is traced (the first call per input shape).
    The gradient doctor watches the block too, so a check that then meets a None names its cause.

    shift=True is the provenance re-run of check_from_tape: every result the student's code gets
    from gradient, jacobian, batch_jacobian or jvp comes back with a random amount added (a
    constant, so a tape that differentiates it further is not changed), and `tapes.returned` keeps
    each shifted result (`tapes.results`: (method, [arrays]) per call, in the order of the calls).
    tf.function runs eagerly meanwhile, so a function traced before asks its tapes again, and
    tf.vectorized_map maps example by example (it traces its function, whose tape results have no
    value to shift).
    """

    METHODS = (("GradientTape", ("gradient", "jacobian", "batch_jacobian")), ("ForwardAccumulator", ("jvp",)))

    def __init__(self, shift=False, size=1.0):
        self.shift = shift
        self.size = size  # the shift is size × (1 to 2) × (1 + |value|), entry by entry

    def __enter__(self):
        import tensorflow as tf

        self.calls = collections.Counter()
        self.returned = []  # every shifted tensor (a NumPy float64 array), with shift=True
        self.results = []  # (method, [its shifted tensors]) per call
        self._saved = []
        self._depth = 0
        self._rng = np.random.default_rng()  # from the OS's entropy: no answer can know the shifts in advance
        self._eager = tf.config.functions_run_eagerly()
        self._vectorized_map = tf.vectorized_map
        if self.shift:
            tf.config.run_functions_eagerly(True)
            tf.vectorized_map = _map_eagerly
        self._doctor = tape_doctor(report=False, observe=False).__enter__()  # patched first: counting wraps it
        for owner in (tf.GradientTape, tf.autodiff.ForwardAccumulator):
            for name in dict(self.METHODS)[owner.__name__]:
                original = owner.__dict__[name]
                self._saved.append((owner, name, original))
                setattr(owner, name, self._counting(name, original))
        self._plain_jvp = self._saved[-1][2]
        self._accumulators = []  # those entered while shifting: a shifted jvp keeps its tangents for them
        if self.shift:
            enter = tf.autodiff.ForwardAccumulator.__dict__["__enter__"]
            self._saved.append((tf.autodiff.ForwardAccumulator, "__enter__", enter))

            def entering(accumulator):
                self._accumulators.append(accumulator)
                return enter(accumulator)
            tf.autodiff.ForwardAccumulator.__enter__ = entering
        return self

    def _counting(self, name, original):
        @functools.wraps(original)
        def counting(tape, *args, **kwargs):
            caller = sys._getframe(1).f_code.co_filename
            # TensorFlow asks tapes itself (jacobian loops over gradient; a ForwardAccumulator
            # computes some JVPs with a tape): only calls from the student's code count. Under
            # tf.function the student's calls come through autograph, which is theirs too.
            internal = "/tensorflow/" in caller and "/autograph/" not in caller
            theirs = self._depth == 0 and not internal
            if theirs:
                self.calls[name] += 1
            self._depth += 1
            try:
                result = original(tape, *args, **kwargs)
            finally:
                self._depth -= 1
            return self._shifted(name, result, tape) if theirs and self.shift else result
        return counting

    def _shifted(self, method, result, asked):
        """The result with a random amount added to every float tensor in it, each shifted value kept."""
        import tensorflow as tf

        def shift(value):
            if isinstance(value, tf.IndexedSlices):
                value = tf.convert_to_tensor(value)
            if not isinstance(value, tf.Tensor) or not value.dtype.is_floating or not hasattr(value, "numpy"):
                return value  # None, or a symbolic tensor: nothing to shift
            array = value.numpy().astype(np.float64)
            # 1 to 2 times the value's own size, either sign: far outside any tolerance, never zero
            amount = self._rng.choice([-1.0, 1.0], size=array.shape) * self._rng.uniform(1.0, 2.0, size=array.shape)
            amount *= self.size * (1.0 + np.abs(np.nan_to_num(array, posinf=0.0, neginf=0.0)))
            shifted = value + tf.constant(amount, dtype=value.dtype)
            if method == "jvp":
                self._keep_tangents(value, shifted, asked)
            self.returned.append(shifted.numpy().astype(np.float64))
            return shifted

        first = len(self.returned)
        result = tf.nest.map_structure(shift, result)
        self.results.append((method, self.returned[first:]))
        return result

    def _keep_tangents(self, value, shifted, asked):
        """An inner jvp read after an outer accumulator's block has ended (as forward mode allows) has a
        tangent there that the shifted sum, made afterwards, would lack: give it the same one."""
        for other in self._accumulators:
            if other is asked:
                continue
            tangent = self._plain_jvp(other, value)
            if tangent is not None and self._plain_jvp(other, shifted) is None:
                other._watch(shifted, tangent)

    def __exit__(self, *exc):
        import tensorflow as tf

        for owner, name, original in self._saved:
            setattr(owner, name, original)
        self._doctor.__exit__(None, None, None)
        tf.config.run_functions_eagerly(self._eager)
        tf.vectorized_map = self._vectorized_map
        return False


def _map_eagerly(fn, elems, fallback_to_while_loop=True, warn=True):
    """tf.vectorized_map's results, one example at a time, eagerly."""
    import tensorflow as tf

    count = int(tf.nest.flatten(elems)[0].shape[0])
    rows = [fn(tf.nest.map_structure(lambda element: element[index], elems)) for index in range(count)]
    return tf.nest.map_structure(lambda *parts: tf.stack(parts), *rows)


def _answer_leaves(answer, path):
    """(name, value) for every number, array or None in a nest of dicts, lists and tuples."""
    if isinstance(answer, dict):
        for key, value in answer.items():
            yield from _answer_leaves(value, key if not path else f"{path}[{key!r}]")
    elif isinstance(answer, (list, tuple)) and not all(isinstance(item, (int, float, np.number)) for item in answer):
        for index, value in enumerate(answer):
            yield from _answer_leaves(value, f"{path}[{index}]")
    else:
        yield path, answer


def _from_returned(values, returned):
    """A mask of the entries of `values` that equal an entry of some shifted result (within float32's tolerance)."""
    pool = np.sort(np.concatenate([array.ravel() for array in returned])) if returned else np.zeros(0)
    flat = values.ravel()
    if not pool.size:
        return np.zeros(flat.shape, bool).reshape(values.shape)
    places = np.clip(np.searchsorted(pool, flat), 1, max(pool.size - 1, 1))
    nearest = np.minimum(np.abs(pool[places - 1] - flat), np.abs(pool[np.minimum(places, pool.size - 1)] - flat))
    return (nearest <= 1e-5 * np.maximum(1.0, np.abs(flat))).reshape(values.shape)


def check_from_tape(compute, what, hint="", *, zeros_may_be_written=False, follows=None, size=1.0):
    """Check that the answer's value comes from what the tapes returned, not from a formula.

    compute: a function of no arguments that calls the student's code and returns its answer (a
             tensor, an array, a number, or a dict, list or tuple of them; name the entries with a
             dict: {"square_slope(3.0)": square_slope(3.0), ...}). It is run again, with every result
             of gradient, jacobian, batch_jacobian and jvp shifted by a random amount (TapeCalls(shift=True)):
             an answer the tape gave moves with the shift, a closed form (or a tape's result combined
             with one) does not. Build fresh inputs inside compute where the student's code changes them.
    what:    how the message names the student's code ("square_slope").
    hint:    where the lesson shows the pattern.
    zeros_may_be_written: entries that are exactly 0 may be written by hand (zeros for unconnected sources).
    follows: for an answer computed *from* the tape's results (a Newton step, a trained weight), a
             function of the shifted results (a list of (method, [arrays]) per call, in order) that
             returns what the answer must then be, in the answer's structure; None where the calls
             cannot give one (the answer then fails). Without it, every number of the answer must be
             a number some tape returned.
    size:    how large the shifts are (1: as large as the values); smaller where the student's code
             goes on computing with the tape's results (an iteration that must still converge).
    Run it after the value checks, on an answer they accepted.
    """
    try:
        with TapeCalls(shift=True, size=size) as shifted:
            answer = compute()
    except Exception as error:
        raise CheckFailed(f"{what} raised {type(error).__name__} ({error}) when the checks ran it again with the "
                          "tape's results changed by a known amount, to see that the answer comes from them.") from None
    if not sum(shifted.calls.values()):
        raise CheckFailed(f"{what} asked no tape for its answer: the numbers must be what tape.gradient (or the "
                          f"exercise's tape method) returns, not a formula worked out by hand. {hint}".strip())
    leaves = list(_answer_leaves(answer, ""))
    nones = {name for name, value in leaves if value is None}
    if nones:  # right where the answer is None without the shifts too (an unconnected source), lost elsewhere
        right = {name for name, value in _answer_leaves(compute(), "") if value is None}
        lost_nones = sorted(nones - right)
        leaves = [(name, value) for name, value in leaves if value is not None]
    else:
        lost_nones = []
    if follows is None:
        lost = [name for name, value in leaves if not _follows_the_pool(value, name, what, shifted.returned,
                                                                          zeros_may_be_written)]
    else:
        wanted = follows(shifted.results)
        wanted = dict(_answer_leaves(wanted, "")) if wanted is not None else {}
        lost = [name for name, value in leaves if wanted.get(name) is None or not _same_numbers(value, wanted[name], name, what)]
    lost = lost_nones + lost
    if lost:
        lost = [_entry_name(what, name) for name in lost]
        listed = ", ".join(lost[:MAX_POINTS_LISTED]) + (f" and {len(lost) - MAX_POINTS_LISTED} more" if len(lost) > MAX_POINTS_LISTED else "")
        raise CheckFailed(
            f"The numbers are right, but they do not come from the tape: {listed}. To see where an answer "
            "comes from, the checks ran your code again with every result the tape returned changed by a "
            "known amount, and these values did not follow. The answer must come from what the tape returns (a "
            "formula worked out by hand, or the tape's result for another function combined with one, "
            f"gives the same numbers without the tape). {hint}".strip())


def last_returned(results, shape):
    """The last result of this shape the tapes returned in a check_from_tape re-run (None if there is none):
    for a `follows` that computes the answer from one of them (a penalty from the input gradients)."""
    found = [array for _, arrays in results for array in arrays if array.shape == tuple(shape)]
    return found[-1] if found else None


def after_descent(start, learning_rate):
    """A `follows` for check_from_tape where the student's code takes gradient-descent steps.

    start: {name: a weight's value before}, named as the answer names the weights after. Each weight
    moves by -learning_rate times the gradients of its shape that the tapes returned, one call per
    step (within a call, gradients of one shape go to the weights of that shape in the order given).
    """
    def follows(results):
        after = {name: np.array(value, dtype=np.float64) for name, value in start.items()}
        for _, arrays in results:
            free = list(after)
            for array in arrays:
                name = next((name for name in free if after[name].shape == array.shape), None)
                if name is not None:
                    after[name] -= learning_rate * array
                    free.remove(name)
        return after
    return follows


def _entry_name(what, path):
    """How a message names an entry of the answer: a label the checks gave ("square_slope(3.0)") as it
    is, an entry of the student's own answer after the function's name ("lstsq_gradients['w']")."""
    head = path.split("[", 1)[0]
    if head and ("(" in head or " " in head):
        return path
    if not head:
        return f"{what}{path}"
    return f"{what}[{head!r}]{path[len(head):]}"


def _follows_the_pool(value, name, what, returned, zeros_may_be_written):
    values = _to_numpy(value, f"{what}{name}").astype(np.float64)
    moved = _from_returned(values, returned)
    if zeros_may_be_written:
        moved |= values == 0.0
    return bool(moved.all())


def _same_numbers(value, wanted, name, what):
    actual = _to_numpy(value, f"{what}{name}")
    wanted = np.asarray(wanted, dtype=np.float64)
    if actual.size != wanted.size:
        return False
    rtol, atol = tolerances(actual.dtype, wanted)
    return bool(np.allclose(actual.astype(np.float64).ravel(), wanted.ravel(), rtol=rtol, atol=atol))


def check_tape_calls(tapes, what, hint="", **rules):
    """Check what the tapes were asked (a TapeCalls) while `what` ran.

    rules: gradient=1 (exactly once), jacobian=0 (never), gradient=(1, None) (at least once),
           any=(1, None) (some tape method at all).
    hint:  what the student should do instead, in the exercise's own terms.
    """
    for name, rule in rules.items():
        count = sum(tapes.calls.values()) if name == "any" else tapes.calls[name]
        low, high = rule if isinstance(rule, tuple) else (rule, rule)
        if count >= (low or 0) and (high is None or count <= high):
            continue
        asked = ("a tape" if name == "any" else "the accumulator's jvp" if name == "jvp" else f"tape.{name}")
        allowed = ("asks you not to call it" if high == 0 else f"asks for exactly {low}" if low == high
                   else f"asks for at least {low}" if high is None else f"asks for {low} to {high}")
        doer = "accumulator" if name == "jvp" else "tape"
        why = f" The {doer} is meant to do this work, not a formula worked out by hand." if count == 0 else ""
        raise CheckFailed(f"{what} called {asked} {count} time(s), but the exercise {allowed}.{why} {hint}".strip())


# ---------------------------------------------------------------- answer keys out of the student's reach

_GRADER_FILES = set()  # the cells (code files) that define answer keys


def _called_from_student_code():
    """True when some code on the call stack comes from a cell that is neither a check cell nor the setup cell.

    The outermost cell on the stack is the one being run: a check cell when a key is used as meant.
    A key called from inside the student's function has that function's cell on the stack too.
    """
    cells = []
    frame = sys._getframe(2)  # the caller of the key
    while frame is not None:
        if frame.f_code.co_name == "run_code" and _library_file(frame.f_code.co_filename):
            break  # IPython runs the cell here: further out is the kernel's own code, wherever it lives
        if not _library_file(frame.f_code.co_filename):
            cells.append(frame.f_code.co_filename)
        frame = frame.f_back
    allowed = _GRADER_FILES | {_called_from_student_code.__code__.co_filename} | set(cells[-1:])
    return any(filename not in allowed for filename in cells)


def answer_key(function):
    """Mark a check cell's closed form as an answer key: it works in check cells and refuses to run
    from inside the student's code, so an exercise cannot be passed by calling it."""
    _GRADER_FILES.add(function.__code__.co_filename)

    @functools.wraps(function)
    def key(*args, **kwargs):
        if _called_from_student_code():
            raise CheckFailed(
                f"{function.__name__} is an answer key of the checks, and your code called it. "
                "Compute the answer yourself, with the tape: that is the exercise.")
        return function(*args, **kwargs)

    key.answer_key = True
    return key
