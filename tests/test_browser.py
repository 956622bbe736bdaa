"""The student's view: JupyterLab serves the course, with nbgrader's Validate button, in headless Chromium."""
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from autograder import course

from conftest import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "course-browser-test"
ARTIFACTS = ROOT / ".artifacts"
# The flags this machine's closed network needs (no background connections, no sandbox as root).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """`jupyter lab` as `make lab` starts it, on a scratch copy of the course (Validate saves the
    notebook first, and the committed editions must stay as the build wrote them), with Jupyter's
    folders isolated."""
    home = tmp_path_factory.mktemp("lab")
    served = home / "course"
    shutil.copytree(ROOT / "release", served / "release")
    shutil.copy(ROOT / "nbgrader_config.py", served / "nbgrader_config.py")
    port = _free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_DATA_DIR": str(home / "data"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={served}"]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = open(home / "lab.log", "w")
    server = subprocess.Popen(command, cwd=served, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 90
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
            break
        except OSError:
            if server.poll() is not None or time.time() > deadline:
                server.kill()
                pytest.fail("JupyterLab did not start:\n" + (home / "lab.log").read_text()[-3000:])
            time.sleep(0.5)
    yield url
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


@pytest.fixture(scope="module")
def page(lab):
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
def test_student_notebook_opens_with_validate_and_a_collapsed_setup_cell(lab, page, name):
    notebook = open_notebook(lab, page, name)
    # nbgrader's labextension adds its button to the notebook toolbar
    page.locator(".jp-NotebookPanel:visible .jp-Toolbar").get_by_text("Validate").wait_for(timeout=30_000)
    # the generated setup cell shows as a collapsed placeholder, not 300 lines of helpers
    setup = notebook.locator(".jp-Cell").nth(1)
    setup.locator(".jp-InputPlaceholder").wait_for(timeout=30_000)
    assert "Setup: run this cell first" in setup.inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"lab-{name}.png"))


def test_validate_runs_nbgrader_and_reports_the_stubs(lab, page):
    """The Validate button runs nbgrader on the server: on the student edition the stubs fail, and the dialog says so."""
    name = NAMES[0]
    open_notebook(lab, page, name)
    page.locator(".jp-NotebookPanel:visible .jp-Toolbar").get_by_text("Validate").click()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=120_000)
    dialog.get_by_text("NotImplementedError").first.wait_for(timeout=120_000)
    page.screenshot(path=str(ARTIFACTS / f"lab-{name}-validate.png"))
