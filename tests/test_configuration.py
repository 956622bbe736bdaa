"""The set-up files agree with each other: pins, the conda environment, CI and the README's commands."""
import re

import yaml
from packaging.requirements import Requirement

from autograder import course
from autograder.course import nbgrader_config

from conftest import ROOT

try:
    import tomllib
except ModuleNotFoundError:
    import tomli as tomllib


def _pyproject():
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)


def _normal(spec):
    requirement = Requirement(spec)
    return requirement.name.lower().replace("_", "-"), str(requirement.specifier)


def test_environment_yml_pip_section_installs_exactly_pyprojects_pins():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    python = next(d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python="))
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    assert "--editable ." in pip, "the conda environment must install the course package too"
    env_pins = {_normal(spec) for spec in pip if not spec.startswith("-")}
    version = python.split("=")[1]
    wanted = {_normal(spec) for spec in _pyproject()["project"]["dependencies"]
              if Requirement(spec).marker is None
              or Requirement(spec).marker.evaluate({"python_version": version, "python_full_version": version + ".0"})}
    assert env_pins == wanted


def test_key_pins():
    pins = dict(_normal(spec) for spec in _pyproject()["project"]["dependencies"])
    assert pins["tensorflow-cpu"] == "==2.21.0"
    assert pins["nbgrader"] == "==0.9.6"
    assert pins["sqlalchemy"] == "<2.1,>=2.0"


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    assert "make test" in readme and "make lab" in readme
    assert re.search(r"^make test\b", (ROOT / ".ci" / "run").read_text(), re.MULTILINE)


def test_nbgrader_configuration():
    config = nbgrader_config(ROOT)
    assert config.Execute.timeout >= 60
    assert config.Execute.startup_timeout >= 120  # a loaded grading machine starts kernels slowly
    assert config.Execute.raise_on_iopub_timeout is False
    assert config.IgnorePattern.enabled is True
    assert config.OverwriteCells.add_missing_cells is True
    assert "nbgrader.preprocessors.ClearHiddenTests" in config.GenerateFeedback.preprocessors
    assert "autograder.feedback.ShortenTracebacks" in config.GenerateFeedback.preprocessors


def test_ignore_pattern_drops_tensorflow_log_lines_only():
    pattern = re.compile(nbgrader_config(ROOT).IgnorePattern.pattern)
    tensorflow_lines = [
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR\n",
        "I0000 00:00:1796041162.649526    2082 port.cc:153] oneDNN custom operations are on.\n",
        "E0000 00:00:1796041162.699315    2082 cuda_executor.cc:1] failed call to cuInit\n",
        "2019-10-08 12:00:00.123456: W tensorflow/core/framework/op_kernel.cc:1] something\n",
    ]
    assert all(pattern.search(line) for line in tensorflow_lines)
    for line in ("Traceback (most recent call last):\n", "UserWarning: Gradients do not exist for variables\n",
                 "AssertionError: dy/dx is None\n"):
        assert not pattern.search(line), line


def test_gitignore_keeps_student_data_out():
    ignored = (ROOT / ".gitignore").read_text().split()
    for folder in ("/submitted/", "/autograded/", "/feedback/", "/gradebook.db", "/.venv/"):
        assert folder in ignored


def test_every_colab_link_of_every_edition_follows_the_setting():
    """The README's map and each self-study notebook link to that notebook on the set repository; release/ has none."""
    link = re.compile(r"\]\((https://colab\.research\.google\.com/github/[^)]+)\)")
    settings = course.settings(ROOT)
    names = [a.name for a in course.assignments(ROOT)]
    expected = [f"https://colab.research.google.com/github/{settings['repository']}/blob/{settings['branch']}"
                f"/notebooks/{name}.ipynb" for name in names]
    assert link.findall((ROOT / "README.md").read_text()) == expected
    for name, address in zip(names, expected):
        assert link.findall((ROOT / "notebooks" / f"{name}.ipynb").read_text()) == [address], name
        assert link.findall((ROOT / "release" / name / f"{name}.ipynb").read_text()) == [], name


def test_the_readmes_pictures_are_the_ones_make_screenshots_copies_from_the_browser_test():
    pictures = re.findall(r"!\[[^\]]+\]\((docs/images/[^)]+)\)", (ROOT / "README.md").read_text())
    copied = re.search(r"^SCREENSHOTS := (.+)$", (ROOT / "Makefile").read_text(), re.M).group(1).split()
    assert pictures == [f"docs/images/first-minutes-{shot}.png" for shot in copied]
    taken = (ROOT / "tests" / "test_first_minutes.py").read_text()
    for picture in pictures:
        assert (ROOT / picture).stat().st_size > 10_000, picture
        assert f'"{picture.rsplit("/", 1)[1]}"' in taken, f"{picture} is not one the browser test takes"


def test_the_lab_floor_is_the_oldest_jupyterlab_and_notebook_pyproject_allows():
    """The browser tests run a second time with JupyterLab served from tests/lab-floor: that must be the
    range's lower end (the upper end is what .venv installs)."""
    floor = dict(_normal(line) for line in (ROOT / "tests" / "lab-floor" / "requirements.txt").read_text().splitlines()
                 if line and not line.startswith("#"))
    pins = {Requirement(spec).name: Requirement(spec).specifier for spec in _pyproject()["project"]["dependencies"]}
    for name in ("jupyterlab", "notebook"):
        [lower] = [spec.version for spec in pins[name] if spec.operator == ">="]
        assert floor[name] == f"=={lower}.0", (name, floor[name], lower)
    assert floor["nbgrader"] == str(pins["nbgrader"])


def test_the_hubs_environment_has_the_courses_pins_and_jupyterhub():
    """make test-hub serves the course from tests/hub/requirements.txt: the course's own pins, and the hub."""
    lines = [line for line in (ROOT / "tests" / "hub" / "requirements.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    hub = dict(_normal(line) for line in lines)
    pins = dict(_normal(spec) for spec in _pyproject()["project"]["dependencies"] if "python_version" not in spec)
    assert {name: hub.get(name) for name in pins} == pins
    assert hub["jupyterhub"].startswith("==")
