"""Where things are in the course: its root, its assignments, its editions and its settings."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
CONFIG_FILE = "nbgrader_config.py"


class CourseError(Exception):
    """A problem in the course's own files, with a message that says which file and what to do."""


def read_notebook(path: Path):
    """nbformat's reading of a course notebook, or a CourseError naming the file."""
    import nbformat

    try:
        return nbformat.read(path, as_version=4)
    except Exception as error:  # not JSON, not a notebook, an unknown format version...
        raise CourseError(f"{path}: not a readable notebook ({type(error).__name__}: {error})") from None
ASSIGNMENT_NAME = re.compile(r"^(\d\d)_([a-z][a-z0-9_]*)$")


@dataclass(frozen=True)
class Assignment:
    """One notebook of the course: `NN_name`, the nbgrader assignment id and notebook name at once."""

    name: str
    root: Path = ROOT

    @property
    def number(self) -> str:
        return self.name[:2]

    @property
    def source(self) -> Path:
        return self.root / "source" / self.name / f"{self.name}.ipynb"

    @property
    def release(self) -> Path:
        return self.root / "release" / self.name / f"{self.name}.ipynb"

    @property
    def self_study(self) -> Path:
        return self.root / "notebooks" / f"{self.name}.ipynb"


def assignments(root: Path = ROOT) -> list[Assignment]:
    """Every `source/NN_name/NN_name.ipynb`, in course order."""
    if not (root / "source").is_dir():
        raise CourseError(f"{root} has no source/ folder: the course's notebooks are source/NN_name/NN_name.ipynb")
    found = []
    for folder in sorted((root / "source").iterdir()):
        if folder.is_dir() and ASSIGNMENT_NAME.match(folder.name) and (folder / f"{folder.name}.ipynb").exists():
            found.append(Assignment(folder.name, root))
    return found


def nbgrader_config(root: Path = ROOT):
    """The course's nbgrader_config.py as a traitlets Config: the one place it is read."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader(CONFIG_FILE, path=str(root)).load_config()


def find_root(folder: Path) -> Path:
    """The course a command works on, found the way nbgrader finds it: `folder` (the current one)
    holds nbgrader_config.py, whose `c.CourseDirectory.root` may name another folder."""
    folder = folder.resolve()
    if not (folder / CONFIG_FILE).exists():
        above = next((p for p in folder.parents if (p / CONFIG_FILE).exists()), None)
        where = f"; the nearest course above is {above}: cd there" if above else ""
        raise CourseError(f"{folder} is not a course root (it has no {CONFIG_FILE}){where}, or pass --root FOLDER")
    named = nbgrader_config(folder).CourseDirectory.get("root")
    return (folder / named).resolve() if named else folder


# The address the course shipped with before it had a public one: no such repository exists on GitHub.
PLACEHOLDER_REPOSITORY = "gradient-tape-course/gradient-tape-course"
OWNER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$")
GITHUB_REMOTE = re.compile(r"^(?:https://(?:[^@/]+@)?github\.com/|git@github\.com:|ssh://git@github\.com/)"
                           r"(?P<repository>[^/]+/[^/]+?)(?:\.git)?/?$")


def github_origin(root: Path = ROOT) -> str | None:
    """owner/name of the GitHub repository `git remote get-url origin` names, or None (no git, no origin, not GitHub)."""
    import subprocess

    try:
        done = subprocess.run(["git", "-C", str(root), "remote", "get-url", "origin"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    match = GITHUB_REMOTE.match(done.stdout.strip()) if done.returncode == 0 else None
    return match["repository"] if match else None


def settings(root: Path = ROOT) -> dict:
    """Where the Colab links point: `repository` (owner/name) and `branch` of `[tool.course]` in pyproject.toml.

    A missing or placeholder `repository` gives way to the GitHub repository origin names, so a clone of a fork
    needs no setting; with neither it is None. `source` says where it came from. A missing `branch` is main.
    """
    path = root / "pyproject.toml"
    table = {}
    if path.exists():
        with open(path, "rb") as file:
            table = tomllib.load(file).get("tool", {}).get("course", {})
    repository, branch = table.get("repository") or None, table.get("branch", "main")
    if repository and repository != PLACEHOLDER_REPOSITORY:
        return {"repository": repository, "branch": branch, "source": "[tool.course] repository in pyproject.toml"}
    origin = github_origin(root)
    if origin:
        return {"repository": origin, "branch": branch, "source": "git remote get-url origin"}
    return {"repository": repository, "branch": branch, "source": "[tool.course] repository in pyproject.toml"}


def repository_problems(root: Path = ROOT, published: bool = True) -> list[str]:
    """Why the Colab links would not open this course, as lint reports it; the placeholder only when `published`."""
    found = settings(root)
    repository, branch = found["repository"], found["branch"]
    if repository is None:
        return ["pyproject.toml: no repository for the Colab links: set [tool.course] repository = \"owner/name\" "
                "(this folder's git origin names no GitHub repository)"]
    problems = []
    if not OWNER_NAME.match(repository):
        problems.append(f"pyproject.toml: the Colab links' repository {repository!r} (from {found['source']}) "
                        "should be a GitHub owner/name, such as \"ada/gradient-tape-course\"")
    elif repository == PLACEHOLDER_REPOSITORY and published:
        problems.append(f"pyproject.toml: the Colab links' repository is the placeholder {repository!r}, which does "
                        "not exist on GitHub: every badge would open an error. Set [tool.course] repository to "
                        "the course's public owner/name, or build in a clone whose origin names it, and run `make build`")
    if not re.fullmatch(r"[A-Za-z0-9._/-]+", str(branch)):
        problems.append(f"pyproject.toml: [tool.course] branch {branch!r} is not a branch name")
    return problems


def colab_url(relative_path: str, root: Path = ROOT) -> str:
    """The "Open in Colab" address of a notebook given by its path in the repository."""
    course = settings(root)
    if course["repository"] is None:
        raise CourseError(repository_problems(root)[0])
    return f"https://colab.research.google.com/github/{course['repository']}/blob/{course['branch']}/{relative_path}"
