"""Plot helpers return figures whose data is what they were given."""
import matplotlib

matplotlib.use("Agg")
import numpy as np
import pytest
import tensorflow as tf

from autograder.notebook_side.messages import CheckFailed
from autograder.notebook_side.plots import plot_derivative, plot_mismatch


def test_plot_derivative_draws_f_the_closed_form_and_the_tape():
    x = np.linspace(-3, 3, 121)
    fig = plot_derivative(tf.constant(x), np.tanh(x), tf.constant(1 - np.tanh(x) ** 2), 1 - np.tanh(x) ** 2, name="g")
    ax_f, ax_df = fig.axes
    np.testing.assert_allclose(ax_f.get_lines()[0].get_ydata(), np.tanh(x))
    exact, tape = ax_df.get_lines()[:2]
    np.testing.assert_allclose(exact.get_ydata(), 1 - np.tanh(x) ** 2)
    assert tape.get_marker() == "o" and len(tape.get_xdata()) < len(x)  # thinned dots over the line
    assert [t.get_text() for t in ax_df.get_legend().get_texts()] == ["closed form", "tf.GradientTape"]
    assert ax_df.get_title() == "$g'(x)$"


def test_plot_derivative_names_its_variable():
    M = np.linspace(0, 6, 7)
    fig = plot_derivative(M, np.sin(M), np.cos(M), name="E", variable="M")
    assert [ax.get_title() for ax in fig.axes] == ["$E(M)$", "$E'(M)$"]
    assert [ax.get_xlabel() for ax in fig.axes] == ["$M$", "$M$"]


def test_plot_derivative_without_closed_form():
    x = np.linspace(0, 1, 5)
    fig = plot_derivative(x, x**2, 2 * x)
    assert len(fig.axes[1].get_lines()) == 2  # the tape's dots and the zero line


def test_plot_mismatch_marks_the_points_that_are_off():
    x = np.linspace(0, 1, 5)
    off = np.array([False, True, False, False, True])
    fig = plot_mismatch(x, x + off, x, off=off, what="f'")
    marks = fig.axes[0].get_lines()[2]
    np.testing.assert_allclose(marks.get_xdata(), x[off])
    assert "f'" in fig.axes[0].get_title()


def test_a_none_is_explained_not_a_numpy_traceback():
    x = np.linspace(0, 1, 5)
    with pytest.raises(CheckFailed, match="Nothing to plot: the tape's derivative is None.*tape recorded no path"):
        plot_derivative(x, x**2, None)
    with pytest.raises(CheckFailed, match="Nothing to plot: f'' is None"):
        plot_mismatch(x, None, x, what="f''")
