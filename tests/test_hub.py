"""A class on a real JupyterHub, in headless Chromium: an instructor and two students who are system users of this
machine (created here, removed after), nbgrader's exchange in a shared folder, the whole cycle of an assignment.

The instructor releases 01; each student logs in, fetches it from the Assignment List, answers, presses Validate
and submits; the instructor collects, grades with the course's grader (sandboxed) and releases the feedback; each
student fetches the feedback and opens it. Built by `make hub-env` (the hub from PyPI, its proxy from npm), run by
`make test-hub` (part of `make test`). Root only: it creates users.
"""
import contextlib
import csv
import html
import json
import os
import pwd
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import nbformat
import pytest

from autograder import course
from autograder.grading import demo
from submissions import scores_for

from conftest import ROOT
from test_browser import CHROMIUM, CHROMIUM_ARGS, _free_port, stop
from test_roundtrip import hidden_lines

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

HUB = (ROOT / ".hub-venv").resolve()  # where it really is: the users may not enter the clone's folder
NAME = "01_first_gradient"
INSTRUCTOR, ADA, BEN = "gtinstructor", "gtada", "gtben"
PASSWORD = "course-hub-test"
MISTAKE = "It is 1/201 of the answer"  # what the checks say to a mean where the sum belongs


def _required():
    if os.environ.get("COURSE_REQUIRE_HUB"):
        return pytest.fail
    return pytest.skip


if not (HUB / ".installed").exists():
    _required()("the hub's environment is missing: `make hub-env` builds it", allow_module_level=True)
if os.geteuid() != 0 or not shutil.which("useradd"):
    _required()("the hub test creates system users: it runs as root, with useradd", allow_module_level=True)


def _run(*command, user=None, cwd=None, env=None, timeout=600):
    """Run a command (as `user`, with a login's HOME and nothing of root's environment), and return its output."""
    if user is not None:
        home = pwd.getpwnam(user).pw_dir
        command = ("runuser", "-u", user, "--", "env", "-i", f"HOME={home}", f"USER={user}",
                   *(f"{key}={value}" for key, value in (env or {}).items()), *command)
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, command))}:\n{(done.stdout + done.stderr)[-4000:]}"
    return done.stdout + done.stderr


def _remove_user(name):
    if subprocess.run(["id", name], capture_output=True).returncode == 0:
        subprocess.run(["pkill", "-KILL", "-u", name], capture_output=True)
        subprocess.run(["userdel", "-r", name], capture_output=True)


@contextlib.contextmanager
def _users(names):
    """System users with homes only they can read, and a password PAM checks; removed afterwards."""
    for name in names:
        _remove_user(name)  # a run killed before its cleanup
        _run("useradd", "--create-home", "--shell", "/bin/bash", name)
        os.chmod(pwd.getpwnam(name).pw_dir, 0o700)
        # JupyterLab's question about news would cover the pages' corner
        settings = Path(pwd.getpwnam(name).pw_dir, ".jupyter", "lab", "user-settings", "@jupyterlab",
                        "apputils-extension", "notification.jupyterlab-settings")
        _write(settings, json.dumps({"fetchNews": "false"}))
        _run("chown", "-R", f"{name}:{name}", pwd.getpwnam(name).pw_dir)
        subprocess.run(["chpasswd"], input=f"{name}:{PASSWORD}\n", text=True, check=True)
    try:
        yield
    finally:
        for name in names:
            _remove_user(name)


def _write(path: Path, text: str, mode=0o644):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)


def _configuration(base: Path) -> dict:
    """The folders and configuration files a class needs, as the README's section describes them."""
    exchange = base / "exchange"
    exchange.mkdir()
    exchange.chmod(0o777)  # nbgrader's documented permissions: every user writes into it
    student, instructor = base / "etc" / "student", base / "etc" / "instructor"
    shared = (f'c = get_config()  # noqa: F821\nc.CourseDirectory.course_id = "gradient-tape"\n'
              f"c.Exchange.root = {str(exchange)!r}\n")
    _write(student / "nbgrader_config.py", shared)
    # students get no formgrader and no instructor's tools (nbgrader's docs: disable them for students)
    _write(student / "jupyter_server_config.json", json.dumps({"ServerApp": {"jpserver_extensions": {
        "nbgrader.server_extensions.formgrader": False, "nbgrader.server_extensions.course_list": False}}}))
    _write(student / "labconfig" / "page_config.json", json.dumps({"disabledExtensions": {
        "@jupyter/nbgrader:formgrader": True, "@jupyter/nbgrader:course-list": True,
        "@jupyter/nbgrader:create-assignment": True}}))
    home = pwd.getpwnam(INSTRUCTOR).pw_dir
    _write(instructor / "nbgrader_config.py", shared + f"c.CourseDirectory.root = {home + '/course'!r}\n")
    for folder in (base, base / "etc", student, instructor, student / "labconfig"):
        folder.chmod(0o755)
    return {"exchange": exchange, "student": student, "instructor": instructor}


def _course_for_the_instructor() -> Path:
    """The course in the instructor's home: source/, release/ and the grader, readable by the instructor only."""
    home = Path(pwd.getpwnam(INSTRUCTOR).pw_dir)
    root = home / "course"
    for part in ("source", "release"):
        shutil.copytree(ROOT / part / NAME, root / part / NAME)
    shutil.copytree(ROOT / "autograder", root / "autograder", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "nbgrader_config.py", root)
    _run("chown", "-R", f"{INSTRUCTOR}:{INSTRUCTOR}", str(home))
    return root


def _hub_config(base: Path, folders: dict, port: int) -> Path:
    """jupyterhub_config.py: PAM logins for the three users, each server spawned as its own system user."""
    config = base / "hub" / "jupyterhub_config.py"
    student, instructor = folders["student"], folders["instructor"]
    _write(config, f"""c = get_config()  # noqa: F821
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{_free_port()}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{_free_port()}"
c.ConfigurableHTTPProxy.command = [{str(HUB / 'bin' / 'configurable-http-proxy')!r}]
c.JupyterHub.db_url = "sqlite:///{base / 'hub' / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = {str(base / 'hub' / 'cookie_secret')!r}
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = {{{INSTRUCTOR!r}, {ADA!r}, {BEN!r}}}
c.Authenticator.admin_users = {{{INSTRUCTOR!r}}}
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [{str(HUB / 'bin' / 'jupyterhub-singleuser')!r}]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
c.Spawner.environment = {{
    # the instructor's nbgrader configuration names the course; a student's only the course and the exchange
    "JUPYTER_CONFIG_PATH": lambda spawner: {str(instructor)!r} if spawner.user.name == {INSTRUCTOR!r} else {str(student)!r},
    "PATH": {str(HUB / 'bin') + ':/usr/bin:/bin'!r},
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "TF_ENABLE_ONEDNN_OPTS": "0",
}}
""", mode=0o600)
    return config


@contextlib.contextmanager
def _hub(base: Path, config: Path, url: str):
    log = open(base / "hub" / "hub.log", "w")
    env = {"PATH": f"{HUB / 'bin'}:/usr/bin:/bin", "HOME": str(base / "hub"), "LANG": "C.UTF-8"}
    server = subprocess.Popen([str(HUB / "bin" / "jupyterhub"), "-f", str(config)], cwd=base / "hub", env=env,
                              stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 120
        while True:
            try:
                urllib.request.urlopen(f"{url}/hub/api", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.time() > deadline:
                    pytest.fail("JupyterHub did not start:\n" + (base / "hub" / "hub.log").read_text()[-4000:])
                time.sleep(0.5)
        yield
    finally:
        stop(server, 30)  # the hub stops its users' servers first
        log.close()


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """A running hub with its three users, the exchange and the instructor's course; yields what the test needs."""
    artifacts = ROOT / ".artifacts" / "hub"
    shutil.rmtree(artifacts, ignore_errors=True)
    artifacts.mkdir(parents=True)
    with _users([INSTRUCTOR, ADA, BEN]):
        base = Path(tempfile.mkdtemp(prefix="gradient-tape-hub-", dir="/var/tmp"))
        try:
            folders = _configuration(base)
            root = _course_for_the_instructor()
            port = _free_port()
            url = f"http://127.0.0.1:{port}"
            with _hub(base, _hub_config(base, folders, port), url):
                yield {"url": url, "base": base, "course": root, "artifacts": artifacts, **folders}
        finally:
            for log in (base / "hub").glob("*.log"):
                shutil.copy(log, artifacts)
            shutil.rmtree(base, ignore_errors=True)


def as_instructor(hub, *command):
    """A command in the instructor's course, as the instructor, with the hub's environment (nbgrader runs alembic)."""
    env = {"PATH": f"{HUB / 'bin'}:/usr/bin:/bin", "JUPYTER_CONFIG_PATH": str(hub["instructor"]), "LANG": "C.UTF-8",
           "TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0"}
    return _run(*command, user=INSTRUCTOR, cwd=hub["course"], env=env, timeout=1200)


@contextlib.contextmanager
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def log_in(chromium, hub, user):
    """A browser of the user's own (cookies of nobody else), logged in, on JupyterLab in the user's server."""
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.goto(f"{hub['url']}/hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", PASSWORD)
    page.click("#login_submit")
    page.wait_for_url(f"**/user/{user}/lab**", timeout=240_000)
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").wait_for(timeout=120_000)
    return page


def press(page, section, button):
    """Press a button on 01's row of the Assignment List's `section` (released, fetched or submitted).

    JupyterLab restores the last session's tabs for a while after the page loads, and a restored notebook can come
    in front of the list after it opened: then the button is hidden, and the list is opened again.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    row = page.locator(f"#{section}_assignments_list .list_item:not(.nested_list_item)", has_text=NAME)
    for attempt in range(4):
        page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
        page.locator(".lm-Menu-itemLabel").get_by_text("Assignment List", exact=True).click()
        try:
            row.get_by_role("button", name=button).click(timeout=60_000)
            return
        except PlaywrightTimeout:
            if attempt == 3:
                raise


def in_list(page, section, text=None):
    """01's row in `section` once the server lists it there: in the page, even when another tab hides the list."""
    row = page.locator(f"#{section}_assignments_list .list_item:not(.nested_list_item)", has_text=NAME)
    (row.get_by_text(text) if text else row).first.wait_for(state="attached", timeout=120_000)


def _cell_source(cell, code):
    """Replace a code cell's source as a student pastes it (no auto-indent)."""
    cell.locator(".cm-content").click()
    cell.page.keyboard.press("Control+a")
    cell.page.keyboard.insert_text(code)


def answer(page, hub, user, answers: dict):
    """Open the fetched notebook, write the answers into their solution cells, save, and press Validate."""
    page.goto(f"{hub['url']}/user/{user}/lab/tree/{NAME}/{NAME}.ipynb")
    notebook = page.locator(".jp-NotebookPanel:visible .jp-Notebook")
    notebook.locator(".jp-Cell").first.locator("h1", has_text="01 · ").wait_for(timeout=120_000)
    cells = nbformat.read(ROOT / "release" / NAME / f"{NAME}.ipynb", as_version=4).cells
    for index, cell in enumerate(cells):
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            target = notebook.locator(".jp-Cell").nth(index)
            target.scroll_into_view_if_needed()
            _cell_source(target, answers[grade_id])
    page.keyboard.press("Control+s")
    page.wait_for_timeout(1000)
    page.locator(".jp-NotebookPanel:visible .jp-Toolbar").get_by_text("Validate").click()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=300_000)
    return dialog


def _solutions():
    source = nbformat.read(ROOT / "source" / NAME / f"{NAME}.ipynb", as_version=4).cells
    return {c.metadata["nbgrader"]["grade_id"]: c.source for c in source if c.metadata.get("nbgrader", {}).get("solution")}


def _probe(page, hub, user, other):
    """From the user's own session (a kernel of their server): what of the others' files can it read?"""
    probe = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"""import os
for path in [{str(hub['course'] / 'source' / NAME / (NAME + '.ipynb'))!r},
             {os.path.join(pwd.getpwnam(other).pw_dir, NAME, NAME + '.ipynb')!r},
             {str(hub['exchange'] / 'gradient-tape' / 'inbound')!r}]:
    try:
        (os.listdir if path.endswith('inbound') else open)(path)
        print('READ', path)
    except PermissionError:
        print('DENIED', path)
""")], metadata={"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}})
    path = Path(pwd.getpwnam(user).pw_dir, "probe.ipynb")
    path.write_text(nbformat.writes(probe))
    os.chown(path, pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)  # the user's own notebook
    page.goto(f"{hub['url']}/user/{user}/lab/tree/probe.ipynb")
    cell = page.locator(".jp-NotebookPanel:visible .jp-Cell").first
    cell.locator(".cm-content").wait_for(timeout=120_000)
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=120_000)
    cell.locator(".jp-InputArea-prompt").click()
    page.keyboard.press("Shift+Enter")
    output = cell.locator(".jp-OutputArea-output")
    try:
        output.filter(has_text="inbound").wait_for(timeout=180_000)
    finally:
        page.screenshot(path=str(hub["artifacts"] / f"{user}-probe.png"))
    return output.inner_text()


def test_a_class_on_jupyterhub_from_release_to_feedback(hub):
    url, shots = hub["url"], hub["artifacts"]
    full = scores_for(NAME)()
    solutions = _solutions()
    wrong = demo.synthetic_submissions(ROOT, NAME)["wrong_factor"]
    mistaken = {grade_id: code for grade_id, code in wrong["answers"].items() if grade_id.endswith("_grid")}
    stub = demo.stubs(course.Assignment(NAME))[f"{NAME}_loss"]
    unfinished = {grade_id: 0.0 for grade_id in full if grade_id.startswith(f"{NAME}_loss_")}
    wanted = {ADA: full, BEN: {**wrong["scores"], **unfinished}}  # Ben's grid has a mean, and Ex 3 is not done
    answers = {ADA: solutions, BEN: {**solutions, **mistaken, f"{NAME}_loss": stub}}

    # 1. the instructor releases 01 into the exchange
    as_instructor(hub, str(HUB / "bin" / "nbgrader"), "release_assignment", NAME)

    with browser() as chromium:
        pages = {}
        for user in (ADA, BEN):
            # 2. each student logs in, fetches 01, answers, validates, submits
            page = pages[user] = log_in(chromium, hub, user)
            press(page, "released", "Fetch")
            in_list(page, "fetched")
            page.screenshot(path=str(shots / f"{user}-fetched.png"))
            dialog = answer(page, hub, user, answers[user])
            if user == ADA:
                dialog.get_by_text("Success! Your notebook passes all the tests.").wait_for(timeout=300_000)
            else:
                dialog.get_by_text(MISTAKE).first.wait_for(timeout=300_000)
                dialog.get_by_text("NotImplementedError").first.wait_for(timeout=60_000)
            page.screenshot(path=str(shots / f"{user}-validated.png"))
            page.keyboard.press("Escape")
            press(page, "fetched", "Submit")
            in_list(page, "submitted")
            page.screenshot(path=str(shots / f"{user}-submitted.png"))

        # neither student reads the instructor's course, the other's work or the exchange's submissions
        for user, other in ((ADA, BEN), (BEN, ADA)):
            seen = _probe(pages[user], hub, user, other)
            assert "READ" not in seen and seen.count("DENIED") == 3, seen

        # 3. the instructor collects, grades (sandboxed) and releases the feedback
        as_instructor(hub, str(HUB / "bin" / "nbgrader"), "collect", NAME)
        report = as_instructor(hub, str(HUB / "bin" / "python"), "-m", "autograder", "grade", NAME)
        (shots / "grading-report.txt").write_text(report)
        assert "WARNING: grading is unsandboxed" not in report and "unsandboxed" not in report.lower(), report
        as_instructor(hub, str(HUB / "bin" / "nbgrader"), "release_feedback", NAME)

        # the gradebook holds the grader's scores, as grades.csv gives them
        from nbgrader.api import Gradebook

        with Gradebook(f"sqlite:///{hub['course'] / 'gradebook.db'}") as gradebook:
            for user, scores in wanted.items():
                notebook = gradebook.find_submission_notebook(NAME, NAME, user)
                assert {grade.name: grade.score for grade in notebook.grades} == pytest.approx(scores), user
        with open(hub["course"] / "grades.csv") as file:
            totals = {row["student_id"]: float(row["score"]) for row in csv.DictReader(file)}
        assert totals == pytest.approx({user: sum(scores.values()) for user, scores in wanted.items()}), totals

        # 4. each student fetches the feedback and opens it: the mistake's message, no hidden test
        secret = hidden_lines(course.Assignment(NAME))
        for user, page in pages.items():
            page.reload()
            page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").wait_for(timeout=120_000)
            press(page, "submitted", "Fetch Feedback")
            in_list(page, "submitted", "view feedback")
            page.screenshot(path=str(shots / f"{user}-feedback-fetched.png"))
            [feedback] = Path(pwd.getpwnam(user).pw_dir, NAME, "feedback").glob(f"*/{NAME}.html")
            relative = feedback.relative_to(pwd.getpwnam(user).pw_dir)
            page.goto(f"{url}/user/{user}/files/{relative}")
            text = html.unescape(page.content())
            page.screenshot(path=str(shots / f"{user}-feedback.png"), full_page=False)
            assert "BEGIN HIDDEN TESTS" not in text and not [line for line in secret if line in text], user
            assert (MISTAKE in text) == (user == BEN), user
