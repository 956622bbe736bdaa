"""Lint: the rules nbgrader's hidden cell metadata must follow, made visible.

Each rule is a function from (assignment, source notebook) to a list of problems, so a new rule
is one more function in RULES.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path


from . import course
from .build import COLAB_BADGE, title_and_promise
from .setup_cell import find_setup_cell, setup_source

SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")
HIDDEN_MARKERS = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
IMPORTS_AUTOGRADER = re.compile(r"^\s*(import|from)\s+autograder\b", re.MULTILINE)
NOTEBOOK_REFERENCE = re.compile(r"\b[Nn]otebooks? (\d\d)\b")


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def _is_marked(cell) -> bool:
    meta = _meta(cell)
    return bool(meta.get("grade") or meta.get("solution") or meta.get("locked") or meta.get("task"))


def grade_ids(a, nb):
    problems, seen = [], set()
    pattern = re.compile(rf"^{a.name}_[a-z0-9]+(_[a-z0-9]+)*$")
    for index, cell in enumerate(nb.cells):
        if not _is_marked(cell):
            continue
        grade_id = _meta(cell).get("grade_id", "")
        if not pattern.match(grade_id):
            problems.append(f"cell {index}: grade id {grade_id!r} should look like '{a.name}_what' (lower case, underscores)")
        if grade_id in seen:
            problems.append(f"cell {index}: grade id {grade_id!r} is used twice (nbgrader would abort grading the class)")
        seen.add(grade_id)
    return problems


def grade_cells(a, nb):
    problems = []
    for index, cell in enumerate(nb.cells):
        meta = _meta(cell)
        if not meta.get("grade"):
            continue
        where = f"cell {index} ({meta.get('grade_id')})"
        if cell.cell_type == "code":
            if not meta.get("locked"):
                problems.append(f"{where}: a grade cell must be locked")
            try:
                tree = ast.parse(cell.source)
            except SyntaxError as error:
                problems.append(f"{where}: does not parse: {error}")
                continue
            if ast.get_docstring(tree) is None:
                problems.append(f"{where}: open the grade cell with a one-line docstring saying what it checks")
        points = meta.get("points")
        if not isinstance(points, (int, float)) or points <= 0:
            problems.append(f"{where}: a grade cell needs points > 0 (has {points!r})")
    return problems


def markers(a, nb):
    problems = []
    for index, cell in enumerate(nb.cells):
        meta, where = _meta(cell), f"cell {index} ({_meta(cell).get('grade_id', cell.cell_type)})"
        for kind, pair, allowed in (("solution", SOLUTION_MARKERS, meta.get("solution")),
                                    ("hidden-test", HIDDEN_MARKERS, meta.get("grade"))):
            begins, ends = (cell.source.count(marker) for marker in pair)
            if (begins or ends) and not allowed:
                problems.append(f"{where}: {kind} markers outside a {'solution' if kind == 'solution' else 'grade'} cell")
            elif begins != ends:
                problems.append(f"{where}: {begins} '{pair[0]}' but {ends} '{pair[1]}'")
        if meta.get("solution") and cell.cell_type == "code" and SOLUTION_MARKERS[0] not in cell.source:
            problems.append(f"{where}: a solution cell keeps its signature visible and marks its body with {SOLUTION_MARKERS[0]}")
    return problems


def outputs(a, nb):
    return [f"cell {index}: has outputs or an execution count (source/ is committed clean; `make build` clears them)"
            for index, cell in enumerate(nb.cells)
            if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)]


def setup(a, nb):
    cell = find_setup_cell(nb, a.name)
    if cell is None:
        return [f"no setup cell with grade id '{a.name}_setup' (add an empty locked code cell after the title)"]
    if cell.source != setup_source():
        return ["the setup cell differs from autograder/notebook_side/ (run `make build`)"]
    return []


def self_contained(a, nb):
    return [f"cell {index}: imports autograder; notebooks must run where only TensorFlow, NumPy and Matplotlib exist"
            for index, cell in enumerate(nb.cells)
            if cell.cell_type == "code" and IMPORTS_AUTOGRADER.search(cell.source)]


def exercises(a, nb):
    """Every solution cell is followed by at least one grade cell before the next solution cell."""
    problems, open_solution = [], None
    for cell in nb.cells:
        meta = _meta(cell)
        if meta.get("solution"):
            if open_solution:
                problems.append(f"solution cell {open_solution} has no grade cell after it")
            open_solution = meta.get("grade_id")
        elif meta.get("grade"):
            open_solution = None
    if open_solution:
        problems.append(f"solution cell {open_solution} has no grade cell after it")
    return problems


def title(a, nb):
    heading, promise = title_and_promise(nb)
    problems = []
    if not heading.startswith(f"{a.number} · "):
        problems.append(f"the first cell should open with '# {a.number} · Title' (has {heading!r})")
    if not promise:
        problems.append("the first cell needs a one-line promise as a quote ('> ...') under the title")
    return problems


def badge(a, nb_unused):
    """The self-study edition's Colab badge points at its own path."""
    if not a.self_study.exists():
        return [f"{a.self_study.relative_to(a.root)} is missing (run `make build`)"]
    expected = course.colab_url(f"notebooks/{a.name}.ipynb", a.root)
    nb = course.read_notebook(a.self_study)
    links = re.findall(r"\]\((https://colab\.research\.google\.com/github/[^)]+)\)", "\n".join(c.source for c in nb.cells))
    if links != [expected]:
        return [f"Colab links in {a.self_study.name} {links} should be exactly [{expected!r}] (run `make build`)"]
    if COLAB_BADGE not in nb.cells[0].source + (nb.cells[1].source if len(nb.cells) > 1 else ""):
        return [f"{a.self_study.name}: the Colab badge should be at the top"]
    return []


def answer_keys(a, nb):
    """Closed forms named expected_* live in grade cells and are marked @answer_key (out of the student's reach)."""
    problems = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue  # grade_cells reports it
        for node in tree.body:
            if not (isinstance(node, ast.FunctionDef) and node.name.startswith("expected_")):
                continue
            if not _meta(cell).get("grade"):
                problems.append(f"cell {index}: answer key {node.name} outside a grade cell")
            elif not any(isinstance(d, ast.Name) and d.id == "answer_key" for d in node.decorator_list):
                problems.append(f"cell {index} ({_meta(cell).get('grade_id')}): mark {node.name} with @answer_key, "
                                "or a solution can pass by calling it")
    return problems


def _missing_notebooks(text: str, root: Path) -> list[str]:
    have = {a.number for a in course.assignments(root)}
    return sorted({number for number in NOTEBOOK_REFERENCE.findall(text) if number not in have})


def references(a, nb):
    """A notebook names another ("notebook 10") only when that notebook exists."""
    return [f"names notebook {number}, which does not exist (yet): say what it will teach instead"
            for number in _missing_notebooks("\n".join(cell.source for cell in nb.cells), a.root)]


RULES = (title, setup, grade_ids, grade_cells, markers, exercises, outputs, self_contained, badge, answer_keys,
         references)


def lint(root: Path = course.ROOT, publish: bool = False) -> list[str]:
    """Every problem in every source notebook and in the Colab links' setting, as 'path: message' lines.

    `publish` adds the placeholder address: harmless for a class on nbgrader, wrong once the course is public.
    """
    assignments = course.assignments(root)
    problems = course.repository_problems(root, published=publish)
    if course.settings(root)["repository"] is None:
        return problems  # no badge can be checked against an address nobody gave
    for a in assignments:
        where = a.source.relative_to(root)
        try:
            nb = course.read_notebook(a.source)
        except course.CourseError as error:
            problems.append(str(error))
            continue
        for rule in RULES:
            problems += [f"{where}: {problem}" for problem in rule(a, nb)]
    readme = root / "README.md"
    if readme.exists():
        problems += [f"README.md: names notebook {number}, which does not exist (yet)"
                     for number in _missing_notebooks(readme.read_text(), root)]
    return problems
