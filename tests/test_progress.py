"""The progress bar drawn while a class is graded."""
import io

from rich.console import Console

from autograder.grading.progress import progress_bar


def test_the_bar_counts_done_and_not_graded_on_a_terminal():
    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    with progress_bar("grading 01_demo", 3, console) as advance:
        for graded in (True, False, True):
            advance(graded)
    drawn = screen.getvalue()
    assert "grading 01_demo" in drawn and "3/3" in drawn and "1 not graded" in drawn


def test_no_bar_in_a_log_or_a_pipe():
    screen = io.StringIO()
    with progress_bar("grading 01_demo", 2, Console(file=screen, force_terminal=False)) as advance:
        advance(True)
        advance(True)
    assert screen.getvalue() == ""
