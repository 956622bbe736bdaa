"""A first-timer's first minutes with notebook 01 in JupyterLab, in headless Chromium.

The student opens `release/01_first_gradient`, runs every cell, meets the first exercise not done yet,
writes it with the classic slip (no tape.watch), reads the check's answer, fixes it, gets the next
exercise wrong by a constant factor and sees the failing check's plot, then presses Validate. Each
step waits for what the student would read. The times are printed and written to
.artifacts/first-minutes.txt; the README's screenshots come from here (`make screenshots`).
"""
import json
import re
import shutil
import time

import nbformat
import pytest

from conftest import ROOT
from test_browser import jupyter_lab, open_notebook, page  # noqa: F401 (page is a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
NAME = "01_first_gradient"

# Exercise 1 as a first-timer writes it from Demo 1: the tape.watch left out.
SLOPE_WITHOUT_WATCH = '''def slope(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        y = f(x)
    return tape.gradient(y, x)
'''
SLOPE = SLOPE_WITHOUT_WATCH.replace("    with tf.GradientTape() as tape:\n",
                                    "    with tf.GradientTape() as tape:\n        tape.watch(x)\n")
# Exercise 2 with a mean where the sum belongs: every derivative 201 times too small.
GRID_WITH_A_MEAN = '''def derivative_on_grid(f, x):
    x = tf.convert_to_tensor(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_mean(f(x))
    return tape.gradient(y, x)
'''


@pytest.fixture(scope="module")
def fresh_lab(lab, tmp_path_factory):
    """JupyterLab as a student gets it, on a scratch copy of the student edition, without the news prompt."""
    home = tmp_path_factory.mktemp("first-minutes")
    served = home / "course"
    shutil.copytree(ROOT / "release" / NAME, served / "release" / NAME)
    shutil.copy(ROOT / "nbgrader_config.py", served / "nbgrader_config.py")
    settings = home / "config" / "lab" / "user-settings" / "@jupyterlab"
    for plugin, values in {"apputils-extension/notification": {"fetchNews": "false"},
                           # every cell in the page, so that the n-th cell drawn is the notebook's n-th cell
                           "notebook-extension/tracker": {"windowingMode": "none"}}.items():
        (settings / plugin).parent.mkdir(parents=True, exist_ok=True)
        (settings / f"{plugin}.jupyterlab-settings").write_text(json.dumps(values))
    with jupyter_lab(served, home, lab.python) as url:
        yield url


def _cell(notebook, index):
    return notebook.locator(".jp-Cell").nth(index)


def _index_of(text):
    """The index of the first cell of the student edition whose source contains `text`."""
    cells = nbformat.read(ROOT / "release" / NAME / f"{NAME}.ipynb", as_version=4).cells
    return next(index for index, cell in enumerate(cells) if text in cell.source)


def _wait_until_run(cell, prompt_before):
    """Wait until the cell has run again: its prompt changed from `prompt_before` and shows a number."""
    from playwright.sync_api import expect

    prompt = cell.locator(".jp-InputArea-prompt")
    expect(prompt).not_to_have_text(prompt_before, timeout=60_000)
    expect(prompt).to_have_text(re.compile(r"\[\d+\]"), timeout=300_000)


def _write_cell(page, cell, code):
    """Replace a code cell's source as a student would, pasting text (no auto-indent), and run it."""
    before = cell.locator(".jp-InputArea-prompt").inner_text()
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")
    _wait_until_run(cell, before)


def _run(page, cell):
    before = cell.locator(".jp-InputArea-prompt").inner_text()
    cell.locator(".jp-InputArea-prompt").click()  # select the cell in command mode
    page.keyboard.press("Shift+Enter")
    _wait_until_run(cell, before)


def _shot(page, path, *, top=None, bottom=None):
    """A screenshot with the element `top` scrolled to the top of the view (or `bottom` to its bottom)."""
    if top is not None:
        top.evaluate("element => element.scrollIntoView({block: 'start'})")
    if bottom is not None:
        bottom.evaluate("element => element.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(300)  # let the scroll settle before the picture
    page.screenshot(path=str(path))


def test_a_first_timers_first_minutes(lab, fresh_lab, page):
    lab.artifacts.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    times = {}
    start = time.monotonic()

    notebook = open_notebook(fresh_lab, page, NAME)
    times["the notebook is drawn"] = time.monotonic() - start
    page.keyboard.press("Control+b")  # the file browser closed: the notebook gets the width

    # Run > Run All Cells once the kernel is up (a run asked for while it starts can be dropped): the lessons
    # run, and the run stops at the first exercise, which is not done yet
    page.locator(".jp-NotebookPanel:visible .jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(
        timeout=120_000)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").click()
    page.locator(".lm-Menu-itemLabel").get_by_text("Run All Cells", exact=True).click()
    not_done = notebook.locator(".jp-OutputArea-output").get_by_text("This exercise is not done yet").first
    not_done.wait_for(timeout=300_000)
    times["every lesson cell has run"] = time.monotonic() - start
    lesson_plot = _index_of("Check it against the closed form")

    assert _cell(notebook, lesson_plot + 1).locator(".jp-OutputArea-output img").count() == 1
    _shot(page, lab.artifacts / "first-minutes-lesson.png", top=_cell(notebook, lesson_plot))

    # Exercise 1 without tape.watch: the try-it cell prints None, the check says why and how to fix it
    exercise = _index_of("def slope(f, x):")
    _write_cell(page, _cell(notebook, exercise), SLOPE_WITHOUT_WATCH)
    _run(page, _cell(notebook, exercise + 1))
    _run(page, _cell(notebook, exercise + 2))
    check = _cell(notebook, exercise + 2)
    check.get_by_text("the tape does not watch").first.wait_for(timeout=120_000)
    times["the first check has answered"] = time.monotonic() - start
    said = check.locator(".jp-OutputArea-output").inner_text()
    assert "slope(square, 3.0) is None" in said and "tape.watch(x)" in said, said
    _shot(page, lab.artifacts / "first-minutes-none.png", bottom=check.locator(".jp-OutputArea-output").last)

    # fixed: both checks of exercise 1 pass (no error output)
    _write_cell(page, _cell(notebook, exercise), SLOPE)
    for offset in (1, 2, 3):
        _run(page, _cell(notebook, exercise + offset))
    for offset in (2, 3):
        checked = _cell(notebook, exercise + offset)
        assert checked.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']").count() == 0, \
            checked.inner_text()
    times["exercise 1 passes"] = time.monotonic() - start

    # Exercise 2 with a mean: the try-it plot and the failing check's plot show the dots far below the line
    grid = _index_of("def derivative_on_grid(f, x):")
    _write_cell(page, _cell(notebook, grid), GRID_WITH_A_MEAN)
    try_it = grid + 2  # the markdown, then the try-it cell that plots f' against the closed form
    _run(page, _cell(notebook, try_it))
    _run(page, _cell(notebook, try_it + 1))
    grid_check = _cell(notebook, try_it + 1)
    grid_check.get_by_text("It is 1/201 of the answer").first.wait_for(timeout=120_000)
    assert grid_check.locator(".jp-OutputArea-output img").count() >= 1, "the failing check shows no plot"
    times["the grid check has drawn its plot"] = time.monotonic() - start
    _shot(page, lab.artifacts / "first-minutes-failed-check.png", top=grid_check.locator(".jp-OutputArea-output").first)

    # Validate saves the notebook and runs it on the server: the dialog opens on the failing check
    page.locator(".jp-NotebookPanel:visible .jp-Toolbar").get_by_text("Validate").click()
    dialog = page.locator(".jp-Dialog")
    message = dialog.get_by_text("It is 1/201 of the answer").first
    message.wait_for(timeout=300_000)
    times["Validate has answered"] = time.monotonic() - start
    _shot(page, lab.artifacts / "first-minutes-validate.png", bottom=message)

    report = "\n".join(f"{seconds:6.1f} s  {step}" for step, seconds in times.items())
    (lab.artifacts / "first-minutes.txt").write_text(report + "\n")
    print("\nA first-timer's first minutes with 01 (seconds from opening it):\n" + report)
