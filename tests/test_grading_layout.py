"""The grading rooms import one another one way only: no room needs a room that needs it back."""
import ast
from pathlib import Path

import autograder.grading

PACKAGE = Path(autograder.grading.__file__).parent
ROOMS = {path.stem for path in PACKAGE.glob("*.py") if path.stem != "__init__"}


def imports(room: str) -> set[str]:
    """The rooms `room` imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse((PACKAGE / f"{room}.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module.split(".")[0]] if node.module else [alias.name for alias in node.names]
            found |= {name for name in names if name in ROOMS}
    return found


def test_the_rooms_import_each_other_without_a_cycle():
    graph = {room: imports(room) for room in ROOMS}
    done, path = set(), []

    def visit(room):
        assert room not in path, f"an import cycle: {' -> '.join(path[path.index(room):] + [room])}"
        if room in done:
            return
        path.append(room)
        for other in sorted(graph[room]):
            visit(other)
        path.pop()
        done.add(room)

    for room in sorted(graph):
        visit(room)


def test_the_workers_never_reach_up_to_the_coordinator():
    """It chooses where submissions run; the workers get nbgrader's API from the room below them."""
    assert imports("nbgrader_api") == set() and imports("forkserver") == set()
    for room in ("pool", "dask_workers", "forked_kernel"):
        assert "coordinator" not in imports(room), room
