"""Plots of functions and their derivatives. Every helper returns its Figure, so tests can inspect it."""
import numpy as np
import matplotlib.pyplot as plt

from .messages import CheckFailed, NONE_GRADIENT_HINT


def _as_array(values, what="a value"):
    """A float64 NumPy array from a tensor, an array, a list or a number; a None is explained."""
    if values is None:
        raise CheckFailed(f"Nothing to plot: {what} is None. If it is a gradient, {NONE_GRADIENT_HINT}")
    if hasattr(values, "numpy"):
        values = values.numpy()
    return np.asarray(values, dtype=np.float64)


def plot_derivative(x, f, tape_derivative, exact_derivative=None, *, name="f", variable="x", title=None):
    """Draw f on the left and its derivative on the right: the tape's as dots, the closed form as a line.

    x, f, tape_derivative and exact_derivative are 1-D (tensors, arrays or lists of the same length).
    name and variable are set in LaTeX math ("f", "\\tanh", "u"; "x", "M"): no spaces or bare underscores.
    """
    x, f = _as_array(x, variable), _as_array(f, f"{name}({variable})")
    tape_derivative = _as_array(tape_derivative, "the tape's derivative")
    fig, (ax_f, ax_df) = plt.subplots(1, 2, figsize=(10, 3.6), constrained_layout=True)
    ax_f.plot(x, f, color="C0", lw=2)
    ax_f.set_title(f"${name}({variable})$")
    ax_f.set_xlabel(f"${variable}$")
    if exact_derivative is not None:
        ax_df.plot(x, _as_array(exact_derivative, "the closed form"), color="C1", lw=2, label="closed form")
    # Dots, thinned out so the closed-form line stays visible under them.
    step = max(1, len(x) // 40)
    ax_df.plot(x[::step], tape_derivative[::step], "o", color="C2", ms=4, label="tf.GradientTape")
    ax_df.set_title(f"${name}'({variable})$")
    ax_df.set_xlabel(f"${variable}$")
    ax_df.legend(loc="best")
    for ax in (ax_f, ax_df):
        ax.axhline(0, color="0.8", lw=0.8, zorder=0)
        ax.grid(alpha=0.3)
    if title:
        fig.suptitle(title)
    return fig


def plot_mismatch(x, actual, expected, *, off=None, what="the derivative", x_name="x"):
    """Draw the student's curve against the correct one; `off` (a boolean mask) marks the points that are off."""
    x, expected = _as_array(x, x_name).ravel(), _as_array(expected, "the correct answer").ravel()
    actual = _as_array(actual, what).ravel()
    step = max(1, len(x) // 40)  # at most ~40 marks, so a curve that is off everywhere stays visible
    fig, ax = plt.subplots(figsize=(7, 3.6), constrained_layout=True)
    ax.plot(x, expected, color="C1", lw=2, label="correct")
    ax.plot(x, actual, color="C3", lw=1.5, ls="--", label="yours")
    if off is not None and np.any(off):
        marked = np.flatnonzero(np.asarray(off).ravel())[::step]
        ax.plot(x[marked], np.nan_to_num(actual[marked]), "x", color="C3", ms=6, label="points that are off")
    ax.set_title(f"{what}: yours against the correct one")
    ax.set_xlabel(f"${x_name}$")
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    return fig
