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


def settings(root: Path = ROOT) -> dict:
    """The `[tool.course]` table of pyproject.toml: the repository's public address and branch."""
    with open(root / "pyproject.toml", "rb") as file:
        table = tomllib.load(file)["tool"]["course"]
    return {"repository": table["repository"], "branch": table["branch"]}


def colab_url(relative_path: str, root: Path = ROOT) -> str:
    """The "Open in Colab" address of a notebook given by its path in the repository."""
    course = settings(root)
    return f"https://colab.research.google.com/github/{course['repository']}/blob/{course['branch']}/{relative_path}"
