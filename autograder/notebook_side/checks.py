"""Checks that compare a student's gradient with the closed-form answer and say what is wrong.

Each check is silent when the answer is right and raises AssertionError with a message written
for the student when it is not. They accept tensors, Variables, NumPy arrays, Python numbers and
lists of numbers, in any float dtype.
"""
import numpy as np

from .plots import plot_mismatch

NONE_GRADIENT_HINT = (
    "the tape recorded no path from the source to the target. Did you watch the source "
    "(tape.watch(x) for a tf.constant or any tensor that is not a trainable Variable), "
    "and is every operation from the source to the target inside the `with` block? "
    "(A function without `return` gives None too.)"
)
UNCONNECTED_HINT = (
    "the answer is zeros of the source's shape: the target does not depend on this source, and for such a "
    "source tape.gradient returns None unless you pass unconnected_gradients=tf.UnconnectedGradients.ZERO."
)
NONE_VALUE_HINT = "did the function `return` its result?"
MAX_POINTS_LISTED = 5


class CheckFailed(AssertionError):
    """A check that failed; the message says what is wrong in teaching terms."""


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
        raise CheckFailed(
            f"{what} should be a number or an array of numbers, but it is a {type(value).__name__}"
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
        return ("It is all zeros: the target does not depend on the source along the recorded path "
                "(a tf.stop_gradient, unconnected_gradients=ZERO, or a value computed outside the tape?).")
    if np.allclose(actual, -expected, rtol=rtol, atol=atol):
        return "It has the wrong sign: check the signs in your function."
    nonzero = np.abs(expected) > atol
    if nonzero.any():
        ratios = actual[nonzero] / expected[nonzero]
        factor = float(np.median(ratios))
        if np.allclose(actual, factor * expected, rtol=rtol, atol=atol):
            if expected.size > 1 and np.isclose(factor * expected.size, 1.0):
                return (f"It is 1/{expected.size} of the answer: the gradient of the mean "
                        "(tf.reduce_mean) where the gradient of the sum was asked?")
            return f"It is off by a constant factor of {factor:.4g}: a missing or extra constant?"
    return None


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
    """Display a figure now (a failing check raises, so the cell's figures would not be shown)."""
    try:
        from IPython.display import display

        display(fig)
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
        raise CheckFailed(f"{what} is None: {none_hint}")
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
        raise CheckFailed("\n".join(lines))
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


def check_gradients(actual, expected, what="the gradients", *, mistakes=None, rtol=None, atol=None):
    """Check a list or dict of gradients (or lists and dicts nested in each other) against the same
    structure of closed forms, entry by entry.

    An expected entry of None means that gradient must be None (an unconnected source). Below the
    top level, a list of plain numbers is one array; give nested arrays as NumPy arrays.
    mistakes: plausible wrong answers, in the same structure as far as needed, with
              {description: value} for an entry ({"a": {"the gradient of the sum": 9 * a**2}}).
    """
    if actual is None:
        raise CheckFailed(f"{what} is None: {NONE_VALUE_HINT}")
    _check_nest(actual, expected, what, mistakes or {}, rtol, atol)


def _is_nest(expected):
    """A dict, or a list or tuple that holds more than plain numbers."""
    if isinstance(expected, dict):
        return True
    return isinstance(expected, (list, tuple)) and not all(
        isinstance(item, (int, float, np.number)) and not isinstance(item, bool) for item in expected)


def _check_nest(actual, expected, what, mistakes, rtol, atol):
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            raise CheckFailed(f"{what} should be a dict with keys {sorted(expected)}, but it is a {type(actual).__name__}.")
        if set(actual) != set(expected):
            raise CheckFailed(f"{what} has keys {sorted(actual)}, but the answer has keys {sorted(expected)}.")
        entries = [(key, actual[key], expected[key], f"{what}[{key!r}]") for key in expected]
    else:
        if not isinstance(actual, (list, tuple)):
            raise CheckFailed(f"{what} should be a list of {len(expected)} gradients, but it is a {type(actual).__name__}.")
        if len(actual) != len(expected):
            raise CheckFailed(f"{what} has {len(actual)} entries, but the answer has {len(expected)}.")
        entries = [(index, got, want, f"{what}[{index}]") for index, (got, want) in enumerate(zip(actual, expected))]
    for key, got, want, name in entries:
        wrong = mistakes.get(key) if isinstance(mistakes, dict) else None
        if _is_nest(want):
            _check_nest(got, want, name, wrong or {}, rtol, atol)
        elif want is None:
            check_none(got, name, "the target does not depend on this source")
        else:
            check_gradient(got, want, name, mistakes=wrong, rtol=rtol, atol=atol)


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
