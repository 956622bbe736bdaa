"""Answers that reach for the grading machinery, read from the grader's side before they run.

Code in the kernel can reach everything in the kernel: the checks, NumPy, IPython's cell events that
run the grading guard (guard.py keeps the simple ways out). No answer can touch this reading: it
parses the submission's answer cells here, never runs them, and names each line that reaches for what
grading relies on. A flagged submission is still graded; the report, the class report and the
student's feedback say which lines and why, for the instructor to judge.
"""
from __future__ import annotations

import ast
import functools
from dataclasses import dataclass

IPYTHON = "reaches into IPython, whose cell events run the grading guard"
FRAMES = "inspects frames or the insides of functions, where the checks keep their state"
NAMESPACE = "reads or writes the notebook's names wholesale, the checks' among them"
RUNTIME_CODE = "runs code built while it runs, which nobody can read beforehand"
SHELL_PARTS = {"events", "callbacks", "user_ns", "user_global_ns", "InteractiveTB", "input_transformers_post",
               "input_transformers_cleanup", "ast_transformers", "displayhook", "run_cell", "run_cell_async"}
FRAME_PARTS = {"f_back", "f_globals", "f_locals", "f_builtins", "tb_frame", "gi_frame", "cr_frame", "__globals__",
               "__closure__", "__code__", "__defaults__", "__kwdefaults__", "__builtins__", "__subclasses__"}
SYS_PARTS = {"modules", "_getframe", "settrace", "setprofile", "addaudithook", "meta_path", "path_hooks"}
INSPECT_PARTS = {"currentframe", "stack", "getouterframes", "getinnerframes", "trace", "getclosurevars"}
MODULES = {"gc": FRAMES, "ctypes": "reaches the interpreter's memory directly", "builtins": NAMESPACE,
           "IPython": IPYTHON, "ipykernel": IPYTHON, "importlib": "reloads or swaps modules the checks use"}
LIBRARIES = {"numpy", "tensorflow", "keras", "matplotlib"}  # whose functions the checks call


@dataclass(frozen=True)
class Reach:
    """One line of an answer cell that reaches for the grading machinery."""

    cell: str  # the answer cell's grade id
    line: int  # its line number in that cell
    code: str  # the line as written
    why: str

    def __str__(self) -> str:
        return f"{self.cell}, line {self.line}: `{self.code}` ({self.why})"


@functools.lru_cache(maxsize=4)  # the same setup cell for every submission of a class
def setup_bindings(setup_source: str) -> tuple[set[str], dict[str, str]]:
    """The names the setup cell defines, and of those the modules it imports ({alias: module})."""
    names, modules = set(), {}
    for node in ast.parse(setup_source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Import):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                names.add(bound)
                modules[bound] = alias.name if alias.asname else bound
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                names.add(alias.asname or alias.name)
    return {name for name in names if not name.startswith("_")}, modules


def reaches(nb, setup_source: str) -> list[Reach]:
    """Every line of the notebook's answer cells (nbgrader solution cells) that reaches for the grading machinery."""
    names, modules = setup_bindings(setup_source)
    found = []
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.get("cell_type") != "code" or not meta.get("solution"):
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue  # it fails when it runs, with Python's own message
        lines = cell.source.splitlines()
        reader = _Reader(names, modules)
        reader.visit(tree)
        for line, why in sorted(set(reader.found)):
            found.append(Reach(meta.get("grade_id", cell.get("id", "?")), line, lines[line - 1].strip(), why))
    return found


def _root(node):
    """The name an attribute chain starts from: `np` for np.testing.assert_allclose."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


class _Reader(ast.NodeVisitor):
    def __init__(self, setup_names, setup_modules):
        self.setup_names, self.setup_modules = setup_names, setup_modules
        self.libraries = {alias for alias, module in setup_modules.items() if module.split(".")[0] in LIBRARIES}
        self.found = []
        self.depth = 0  # inside a function or class body: its assignments are local

    def flag(self, node, why):
        self.found.append((node.lineno, why))

    # -- what it reaches for
    def visit_Name(self, node):
        if node.id == "get_ipython":
            self.flag(node, IPYTHON)
        elif node.id in ("__builtins__", "__import__"):
            self.flag(node, NAMESPACE)
        self.generic_visit(node)

    def visit_Attribute(self, node):
        root = _root(node)
        if node.attr in SHELL_PARTS and root not in self.libraries:
            self.flag(node, IPYTHON)
        elif node.attr in FRAME_PARTS:
            self.flag(node, FRAMES)
        elif root == "sys" and node.attr in SYS_PARTS:
            self.flag(node, FRAMES if node.attr in ("_getframe", "settrace", "setprofile") else NAMESPACE)
        elif root == "inspect" and node.attr in INSPECT_PARTS:
            self.flag(node, FRAMES)
        self.generic_visit(node)

    def visit_Call(self, node):
        function = node.func.id if isinstance(node.func, ast.Name) else None
        if function in ("globals", "vars") and not node.args:
            self.flag(node, NAMESPACE)
        elif function in ("exec", "eval", "compile"):
            self.flag(node, RUNTIME_CODE)
        elif function in ("setattr", "delattr") and node.args:
            target = _root(node.args[0])
            if target in self.libraries or target in self.setup_names:
                self.flag(node, f"changes {target}'s attributes, which the checks rely on")
        if function in ("getattr", "setattr", "delattr", "hasattr") and len(node.args) > 1:
            name = node.args[1].value if isinstance(node.args[1], ast.Constant) else None
            if name in SHELL_PARTS:
                self.flag(node, IPYTHON)
            elif name in FRAME_PARTS:
                self.flag(node, FRAMES)
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            top = alias.name.split(".")[0]
            if top in MODULES:
                self.flag(node, MODULES[top])
            self._binds(node, alias.asname or top, module=alias.name if alias.asname else top)
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        top = (node.module or "").split(".")[0]
        if top in MODULES:
            self.flag(node, MODULES[top])
        for alias in node.names:
            self._binds(node, alias.asname or alias.name)
        self.generic_visit(node)

    # -- what it changes
    def visit_Assign(self, node):
        for target in node.targets:
            self._target(target)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self._target(node.target)
        self.generic_visit(node)

    visit_AnnAssign = visit_AugAssign

    def visit_Delete(self, node):
        for target in node.targets:
            self._target(target)
        self.generic_visit(node)

    def visit_Global(self, node):
        for name in node.names:
            if name in self.setup_names:
                self.flag(node, f"rebinds {name}, which the checks rely on")

    def _scope(self, node):
        if self.depth == 0:
            self._binds(node, node.name)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def _target(self, target):
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._target(element)
        elif isinstance(target, ast.Starred):
            self._target(target.value)
        elif isinstance(target, ast.Name):
            if self.depth == 0:
                self._binds(target, target.id)
        elif isinstance(target, (ast.Attribute, ast.Subscript)):
            root = _root(target)
            if root in self.libraries or root in self.setup_names:
                what = ast.unparse(target)
                self.flag(target, f"changes {what}, which the checks rely on")

    def _binds(self, node, name, module=None):
        if name not in self.setup_names:
            return
        if module is not None and self.setup_modules.get(name) == module:
            return  # `import numpy as np` again: the same module
        self.flag(node, f"rebinds {name}, which the checks rely on")
