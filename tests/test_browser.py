"""In headless Chromium: the student's JupyterLab with nbgrader's Validate button and Assignment List,
and the instructor's formgrader and class report on the demo course; each with the newest JupyterLab the
course allows and with the oldest (conftest's `lab` fixture)."""
import contextlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from autograder import course
from autograder.grading import demo

from conftest import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "course-browser-test"
# The flags this machine's closed network needs (no background connections, no sandbox as root).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve_from_another_environment(python: str, env: dict, data_dir: Path):
    """Let `python`'s environment serve JupyterLab (it has no TensorFlow): its bin/ first on PATH, the
    course package importable (nbgrader_config.py names autograder.feedback), and a `python3` kernelspec
    that runs this Python. That kernelspec sits in the user data dir, which jupyter_core puts after the
    environment's own share/jupyter (with the server's python3 kernel) when the server runs in a virtualenv
    it owns; JUPYTER_PREFER_ENV_PATH=0 puts the user dir first."""
    env["PATH"] = str(Path(python).parent) + os.pathsep + env.get("PATH", "")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["JUPYTER_PREFER_ENV_PATH"] = "0"
    spec = data_dir / "kernels" / "python3"
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Python 3 (ipykernel)", "language": "python", "metadata": {"debugger": True}}))


def _started(server: subprocess.Popen, url: str) -> bool:
    """Wait until the server at `url` answers (True) or has exited (False: the port was taken, say)."""
    deadline = time.time() + 90
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
            return True
        except (OSError, http.client.HTTPException):  # not up yet, or another program on the port
            if server.poll() is not None:
                return False
            if time.time() > deadline:
                server.kill()
                pytest.fail(f"JupyterLab did not answer at {url} in 90 s")
            time.sleep(0.5)


@contextlib.contextmanager
def jupyter_lab(served: Path, home: Path, python: str):
    """`jupyter lab` as `make lab` starts it, from `python`'s environment, serving `served`, with
    Jupyter's folders in `home`; yields its address."""
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    env.pop("MPLBACKEND", None)  # kernels draw inline, as under `make lab` (conftest chose Agg for its own runs)
    if python != sys.executable:
        _serve_from_another_environment(python, env, home / "data")
    command = [python, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={served}"]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = open(home / "lab.log", "w")
    # Another process (a kernel's ZMQ socket, say) can take the free port before the server binds it: with
    # port_retries=0 the server then exits instead of moving to a port unknown here, and starts on another.
    for _ in range(3):
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(command + [f"--port={port}"], cwd=served, env=env, stdout=log,
                                  stderr=subprocess.STDOUT)
        try:
            if _started(server, url):
                break
        except BaseException:  # no server outlives the test
            server.kill()
            raise
    else:
        pytest.fail("JupyterLab did not start:\n" + (home / "lab.log").read_text()[-3000:])
    try:
        if python != sys.executable:  # the notebooks' kernel, and Validate's, must be this Python
            specs = json.load(urllib.request.urlopen(f"{url}/api/kernelspecs?token={TOKEN}", timeout=10))
            argv = specs["kernelspecs"]["python3"]["spec"]["argv"]
            assert argv[0] == sys.executable, f"python3 kernel runs {argv[0]}, not {sys.executable}"
        yield url
    finally:
        stop(server)
        log.close()


def stop(server: subprocess.Popen, seconds=20):
    """End a server, killed if it has not stopped after `seconds`."""
    server.terminate()
    try:
        server.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        server.kill()


@pytest.fixture(scope="module")
def student_lab(lab, tmp_path_factory):
    """JupyterLab on a scratch copy of the course (Validate saves the notebook first, and the
    committed editions must stay as the build wrote them)."""
    home = tmp_path_factory.mktemp("lab")
    served = home / "course"
    shutil.copytree(ROOT / "release", served / "release")
    shutil.copy(ROOT / "nbgrader_config.py", served / "nbgrader_config.py")
    with jupyter_lab(served, home, lab.python) as url:
        yield url


@pytest.fixture(scope="module")
def page():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        yield page
        browser.close()


NAMES = [a.name for a in course.assignments(ROOT)]


def open_notebook(lab, page, name):
    """Open the student edition of `name` and wait until its cells are drawn; return the notebook."""
    page.goto(f"{lab}/lab/tree/release/{name}/{name}.ipynb?token={TOKEN}")
    notebook = page.locator(".jp-NotebookPanel:visible .jp-Notebook")
    # the rendered title of this notebook (not of one opened before it), as markdown, not source
    notebook.locator(".jp-Cell").first.locator("h1", has_text=f"{name[:2]} · ").wait_for(timeout=60_000)
    return notebook


@pytest.mark.parametrize("name", NAMES)
def test_student_notebook_opens_with_validate_and_a_collapsed_setup_cell(lab, student_lab, page, name):
    notebook = open_notebook(student_lab, page, name)
    # nbgrader's labextension adds its button to the notebook toolbar
    page.locator(".jp-NotebookPanel:visible .jp-Toolbar").get_by_text("Validate").wait_for(timeout=30_000)
    # the generated setup cell shows as a collapsed placeholder, not 300 lines of helpers
    setup = notebook.locator(".jp-Cell").nth(1)
    setup.locator(".jp-InputPlaceholder").wait_for(timeout=30_000)
    assert "Setup: run this cell first" in setup.inner_text()
    lab.artifacts.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(lab.artifacts / f"lab-{name}.png"))


def test_validate_runs_nbgrader_and_reports_the_stubs(lab, student_lab, page):
    """The Validate button runs nbgrader on the server: on the student edition the stubs fail, and the dialog says so."""
    name = NAMES[0]
    open_notebook(student_lab, page, name)
    page.locator(".jp-NotebookPanel:visible .jp-Toolbar").get_by_text("Validate").click()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=120_000)
    dialog.get_by_text("NotImplementedError").first.wait_for(timeout=120_000)
    page.screenshot(path=str(lab.artifacts / f"lab-{name}-validate.png"))


# ---------------------------------------------------------------- the student's Assignment List

RELEASED = "01_first_gradient"


@pytest.fixture(scope="module")
def exchange_lab(lab, tmp_path_factory):
    """A course with its exchange in the tmp dir, `RELEASED` released into it, served by JupyterLab."""
    home = tmp_path_factory.mktemp("exchange")
    served = home / "course"
    shutil.copytree(ROOT / "release" / RELEASED, served / "release" / RELEASED)
    config = (ROOT / "nbgrader_config.py").read_text()
    (served / "nbgrader_config.py").write_text(f"{config}\nc.Exchange.root = {str(home / 'exchange')!r}\n")
    done = subprocess.run([sys.executable, "-m", "nbgrader", "release_assignment", RELEASED], cwd=served,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    course_id = course.nbgrader_config(ROOT).CourseDirectory.course_id
    assert (home / "exchange" / course_id / "outbound" / RELEASED).is_dir(), done.stderr[-3000:]
    with jupyter_lab(served, home, lab.python) as url:
        yield url


def test_assignment_list_shows_the_released_assignment(lab, exchange_lab, page):
    """Nbgrader > Assignment List asks the server's exchange and lists the release, ready to fetch."""
    page.goto(f"{exchange_lab}/lab?token={TOKEN}")
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click(timeout=60_000)
    page.locator(".lm-Menu-itemLabel").get_by_text("Assignment List", exact=True).click()
    released = page.locator("#released_assignments_list .list_item", has_text=RELEASED)
    released.wait_for(timeout=60_000)
    assert released.get_by_role("button", name="Fetch").is_visible(), released.inner_text()
    lab.artifacts.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(lab.artifacts / "assignment-list.png"))


# ---------------------------------------------------------------- the instructor, after `make demo`

DEMO_NOTEBOOK = "01_first_gradient"
DEMO_STUDENT = "wrong_factor"  # a mean where the sum was asked: partly wrong, and the checks say why
DEMO_MESSAGE = "It is 1/201 of the answer"


# The demo class's students the pages below show. The whole class's scores are the round trip's to test.
DEMO_GRADED = ("correct", DEMO_STUDENT, "blank")


@pytest.fixture(scope="session")
def graded_demo(tmp_path_factory):
    """The course `make demo` builds, with `DEMO_GRADED` graded by `python -m autograder grade`: graded
    once, served by each JupyterLab in turn."""
    folder = tmp_path_factory.mktemp("demo") / "demo"
    demo.build(ROOT, folder)
    students = [arg for student in DEMO_GRADED for arg in ("--student", student)]
    done = subprocess.run([sys.executable, "-m", "autograder", "--root", str(folder), "grade", DEMO_NOTEBOOK, *students],
                          cwd=folder, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0 and (folder / "gradebook.db").exists(), (done.stdout + done.stderr)[-3000:]
    return folder


@pytest.fixture(scope="module")
def demo_lab(lab, graded_demo, tmp_path_factory):
    """The graded demo course served by JupyterLab; yields (address, folder)."""
    home = tmp_path_factory.mktemp("instructor")
    with jupyter_lab(graded_demo, home, lab.python) as url:
        yield url, graded_demo


def _gradebook_score(folder: Path, student: str) -> tuple[float, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{folder / 'gradebook.db'}") as gradebook:
        submission = gradebook.find_submission(DEMO_NOTEBOOK, student)
        return submission.score, submission.max_score


def test_formgrader_in_jupyterlab_shows_a_students_score_and_what_the_failing_check_said(lab, demo_lab, page):
    url, folder = demo_lab
    score, max_score = _gradebook_score(folder, DEMO_STUDENT)
    assert 0 < score < max_score  # partly wrong, as the demo class has it
    page.goto(f"{url}/lab?token={TOKEN}")
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click(timeout=60_000)
    page.locator(".lm-Menu-itemLabel").get_by_text("Formgrader", exact=True).click()
    formgrader = page.frame_locator(".jp-MainAreaWidget:visible iframe")
    for name in demo.NOTEBOOKS:  # Manage Assignments lists the demo's notebooks
        formgrader.get_by_role("link", name=name).first.wait_for(timeout=60_000)
    lab.artifacts.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(lab.artifacts / "formgrader-assignments.png"))

    formgrader.get_by_role("link", name="Manage Students").first.click()
    student = formgrader.locator("tr").filter(has=formgrader.locator(f'td.id[data-order="{DEMO_STUDENT}"]'))
    student.locator("a").first.click()
    row = formgrader.locator("tr", has_text=DEMO_NOTEBOOK).first
    row.wait_for(timeout=60_000)
    assert f"{score:g} / {max_score:g}" in " ".join(row.inner_text().split()), row.inner_text()
    page.screenshot(path=str(lab.artifacts / "formgrader-student.png"))

    row.locator("a").first.click()  # the student's notebooks of that assignment
    formgrader.get_by_text("Notebook ID").wait_for(timeout=60_000)
    formgrader.locator("tr", has_text=DEMO_NOTEBOOK).first.locator("a").first.click()  # the graded notebook
    message = formgrader.get_by_text(DEMO_MESSAGE).first
    message.wait_for(timeout=60_000)
    message.scroll_into_view_if_needed()
    page.screenshot(path=str(lab.artifacts / "formgrader-submission.png"))


def test_the_class_report_opens_with_pass_rates_and_the_mistakes_named(lab, demo_lab, page):
    url, folder = demo_lab
    page.goto(f"{url}/files/reports/{DEMO_NOTEBOOK}.html?token={TOKEN}")
    page.get_by_text(DEMO_STUDENT).first.wait_for(timeout=60_000)
    text = page.inner_text("body")
    assert "submissions graded" in text and "passed" in text, text[:2000]  # the summary, each test's pass count
    mistake = text.index("a mean (tf.reduce_mean)")  # the mistake the check named, then who made it
    assert DEMO_STUDENT in text[mistake:mistake + 300], text[mistake:mistake + 300]
    page.screenshot(path=str(lab.artifacts / "class-report.png"), full_page=True)
