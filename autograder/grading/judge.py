"""The grader decides: test cells' checks run here, outside the student's kernel, on what the kernel observed.

In a judged notebook every test cell calls the student's code through `observe` (notebook_side/
observations.py). The kernel runs each test cell cut down to what observing needs (`prune`: no
answer key, no check), and shows each observation as an output. A judge process, which runs no
student code, then runs the notebook's setup cell and every test cell as the instructor wrote them,
with `observe` handing back what the kernel observed, and says per cell whether its checks pass and
with what message. The cell's outputs are then rewritten from that verdict (`apply`), and nbgrader
scores them: a cell earns its points only when the judge's checks pass. Nothing the kernel did to
its own checks, outputs or IPython counts.
"""
from __future__ import annotations

import ast
import base64
import io
import json
import os
import subprocess
import sys
import threading

from ..notebook_side.observations import GRADING_SEED, OBSERVATION_MIME, OBSERVING, Observation, StudentCodeRaised  # noqa: F401 (the worker's names too)

KEY_DECORATOR = "answer_key"
MAX_RECORDS = 200  # observations one test cell may send
JUDGE_SECONDS = 120.0  # for one submission's cells: the judge runs only the course's own code


def is_test_cell(cell) -> bool:
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def is_judged(nb) -> bool:
    """A notebook whose every test cell observes the student's code: the judge decides all its points."""
    tests = [cell for cell in nb.cells if is_test_cell(cell)]
    return bool(tests) and all("observe(" in cell.source for cell in tests)


# ---------------------------------------------------------------- what the kernel runs of a test cell

def _is_key(node) -> bool:
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        (isinstance(d, ast.Name) and d.id == KEY_DECORATOR) or (isinstance(d, ast.Attribute) and d.attr == KEY_DECORATOR)
        for d in node.decorator_list)


def _calls_a_check(node) -> bool:
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            name = call.func.id if isinstance(call.func, ast.Name) else getattr(call.func, "attr", "")
            if name.startswith("check_"):
                return True
    return False


def _bound(node) -> set[str]:
    """The names a statement binds (a function's name, not its locals)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _used(node) -> set[str]:
    """The names a statement reads from outside itself (a function's free names, roughly: not its own arguments
    and locals)."""
    loaded = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        own = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        own |= {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        return loaded - own
    return loaded


def answer_keys(nb) -> set[str]:
    """The names of the answer keys the notebook's test cells define."""
    return {node.name for cell in nb.cells if is_test_cell(cell) for node in ast.parse(cell.source).body if _is_key(node)}


def prune(source: str, keys: set[str] = frozenset()) -> str:
    """The test cell as the kernel runs it while graded: no answer key (`keys`: those of earlier cells), no check,
    and no statement that needs one of them. What is left builds the inputs and observes the student's code."""
    tree = ast.parse(source)
    dropped: set[str] = set(keys)

    def keep(statements):
        kept = []
        for node in statements:
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
                continue  # the docstring
            if _is_key(node) or (not _observes(node) and (_calls_a_check(node) or _used(node) & dropped)):
                dropped.update(_bound(node))
                continue
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(node, field, None), list) and getattr(node, field):
                    setattr(node, field, keep(getattr(node, field)) or [ast.Pass()])
            if isinstance(node, ast.Try):
                for handler in node.handlers:
                    handler.body = keep(handler.body) or [ast.Pass()]
            kept.append(node)
        return kept

    tree.body = keep(tree.body)
    needed = [node for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
              and node.id in dropped and node.id not in _bound(tree)]
    if needed:  # the course's own mistake: an observation that needs a key or a check's result
        raise ValueError(f"the test cell observes with {needed[0].id}, which the kernel's cut leaves out "
                         f"(line {needed[0].lineno}): compute what is observed without answer keys and checks")
    return ast.unparse(tree) + "\n"


def _observes(node) -> bool:
    return any(isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", None)) == "observe"
               for n in ast.walk(node))


# ---------------------------------------------------------------- what the kernel sent

def records(cell) -> list[dict]:
    """The observations a test cell's outputs hold, in order; malformed ones are left out."""
    found = []
    for output in cell.get("outputs", []):
        data = output.get("data", {}) if output.get("output_type") == "display_data" else {}
        record = data.get(OBSERVATION_MIME)
        if isinstance(record, dict) and isinstance(record.get("label"), str) and len(found) < MAX_RECORDS:
            found.append(record)
    return found


class Replay:
    """`observe` in the judge: each call hands back the next observation of that label the kernel sent."""

    def __init__(self, records):
        self.records = list(records)

    def observe(self, label, compute=None, count=None):
        label = str(label)
        record = next((r for r in self.records if r.get("label") == label), None)
        if record is None:
            raise AssertionError(f"The grader received nothing it could check for {label}: this test cell did not "
                                 "run as written in your notebook (did code change it, or stop it early?).")
        self.records.remove(record)
        counts = record.get("counts")
        if count is not None and not (isinstance(counts, dict) and set(counts) == {"runs", "elements"} and all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts.values())):
            raise AssertionError(f"The grader received no count of the computation's runs for {label}.")
        raised = record.get("raised")
        if raised is not None:
            name, message = (raised + ["", ""])[:2] if isinstance(raised, list) else ("an error", "")
            raise StudentCodeRaised(label, str(name)[:100], str(message)[:2000])
        try:
            value = Observation.decode(record.get("value"))
        except (ValueError, TypeError, KeyError) as error:
            raise AssertionError(f"The grader could not read what your code returned for {label} ({error}).") from None
        return value if count is None else (value, counts)


def judge_cells(setup: str, cells: list[dict], seed: int) -> dict[str, dict]:
    """In this process: run the setup cell, then each test cell with its observations replayed.

    cells: [{"id": grade id, "source": as the instructor wrote it, "records": [observations]}].
    Returns {grade id: {"passed", "message", "images" (base64 PNGs the checks drew), "stdout"}}.
    """
    import matplotlib

    matplotlib.use("agg")
    os.environ[GRADING_SEED] = str(seed)
    os.environ.pop(OBSERVING, None)
    out = io.StringIO()
    sys.stdout = sys.stderr = out
    namespace = {"__name__": "__main__"}
    exec(compile(setup, "<setup cell>", "exec"), namespace)
    namespace["answer_key"] = lambda key: key  # no student code runs here: no call of a key to refuse
    verdicts = {}
    for cell in cells:
        images = []

        def show(figure, images=images):
            import matplotlib.pyplot as plt

            png = io.BytesIO()
            figure.savefig(png, format="png", bbox_inches="tight")
            plt.close(figure)
            images.append(base64.b64encode(png.getvalue()).decode("ascii"))

        namespace["observe"] = Replay(cell["records"]).observe
        namespace["_show"] = show
        out = io.StringIO()
        sys.stdout = sys.stderr = out
        try:
            exec(compile(cell["source"], f"<test cell {cell['id']}>", "exec"), namespace)
        except StudentCodeRaised as error:
            verdicts[cell["id"]] = {"passed": False, "message": _as_the_kernel_says(namespace, error), "images": images}
        except Exception as error:
            verdicts[cell["id"]] = {"passed": False, "message": f"{type(error).__name__}: {error}", "images": images}
        else:
            verdicts[cell["id"]] = {"passed": True, "message": None, "images": []}
        verdicts[cell["id"]]["stdout"] = out.getvalue()[-10_000:]
    return verdicts


def _as_the_kernel_says(namespace, raised: StudentCodeRaised) -> str:
    """An error of the student's code as the setup cell shows it in the kernel: with its explanation where it
    has one (a stub's NotImplementedError: "This exercise is not done yet"), else as Python names it."""
    import builtins

    said = f"{raised.name}: {raised.message}" if raised.message else raised.name
    kind = getattr(builtins, raised.name, None)
    if not (isinstance(kind, type) and issubclass(kind, Exception)):  # TensorFlow's, say: known by its name
        kind = type(raised.name if raised.name.isidentifier() else "Error", (Exception,), {})
    try:
        explanation = namespace["explain_error"](kind(raised.message))
    except Exception:  # an error whose arguments are not one message
        explanation = None
    return f"ExplainedError: {explanation}\n({said})" if explanation else said


def serve() -> None:
    """The judge process: one JSON request per line on stdin, one JSON answer per line on the first stdout."""
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # what TensorFlow or a check prints cannot mix with the answers
    import tensorflow  # noqa: F401 (once, before the first request)

    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"verdicts": judge_cells(request["setup"], request["cells"], request["seed"])}
        except Exception as error:  # the setup cell itself failed: nothing was judged
            answer = {"error": f"{type(error).__name__}: {error}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


class Judge:
    """A judge process of this worker's, started once and asked once per submission."""

    def __init__(self, env: dict[str, str] | None = None):
        self.env = env
        self.process = None
        self.lock = threading.Lock()

    def start(self) -> None:
        if self.process is None or self.process.poll() is not None:
            env = {**(self.env or os.environ), "NBGRADER_EXECUTION": "autograde", "TF_CPP_MIN_LOG_LEVEL": "3"}
            self.process = subprocess.Popen([sys.executable, "-m", "autograder.grading.judge"], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True,
                                            cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))

    def judge(self, setup: str, cells: list[dict], seed: int) -> dict[str, dict]:
        """{grade id: verdict}; RuntimeError when the judge could not say (it is then started again next time)."""
        with self.lock:
            self.start()
            timer = threading.Timer(JUDGE_SECONDS, self.process.kill)
            timer.start()
            try:
                self.process.stdin.write(json.dumps({"setup": setup, "cells": cells, "seed": seed}) + "\n")
                self.process.stdin.flush()
                line = self.process.stdout.readline()
            except OSError as error:
                line, why = "", str(error)
            else:
                why = "it ended" if timer.is_alive() else f"it took more than {JUDGE_SECONDS:g} s"
            finally:
                timer.cancel()
            if not line:
                self.stop()
                raise RuntimeError(f"the judge gave no verdict: {why}")
            answer = json.loads(line)
            if "error" in answer:
                raise RuntimeError(f"the judge could not run the setup cell: {answer['error']}")
            return answer["verdicts"]

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


# ---------------------------------------------------------------- the verdicts, as nbgrader scores them

def prepare(nb) -> dict[int, str]:
    """Cut every test cell down to what the kernel runs (`prune`); returns {index: the cell's own source}."""
    originals = {index: cell.source for index, cell in enumerate(nb.cells) if is_test_cell(cell)}
    keys = answer_keys(nb)
    for index, source in originals.items():
        nb.cells[index].source = prune(source, keys)
    return originals


def requests(nb, originals: dict[int, str]) -> list[dict]:
    """What the judge is asked: each test cell that ran, as written, with what it observed."""
    cells = []
    for index, source in originals.items():
        cell = nb.cells[index]
        found = records(cell)
        if not found and any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
            continue  # it stopped before observing anything (or did not run): its error is its verdict
        cells.append({"id": cell.metadata["nbgrader"]["grade_id"], "source": source, "records": found, "index": index})
    return cells


def apply(nb, cells: list[dict], verdicts: dict[str, dict]) -> list[str]:
    """Rewrite each judged test cell's outputs from its verdict: what the student's code printed, then the
    checks' figures and, when they fail, their message as the cell's error. Returns the grade ids of cells
    that sent the judge nothing to check (a test cell changed or stopped in the kernel)."""
    silent = []
    for request in cells:
        cell = nb.cells[request["index"]]
        verdict = verdicts.get(request["id"]) or {"passed": False, "message": "AssertionError: the grader did not judge it",
                                                  "images": [], "stdout": ""}
        kept = [o for o in cell.get("outputs", [])
                if (o.get("output_type") == "stream" and o.get("name") == "stdout")
                or (o.get("output_type") == "display_data" and OBSERVATION_MIME not in o.get("data", {}))]
        import nbformat

        kept += [nbformat.v4.new_output("display_data", data={"image/png": png}) for png in verdict["images"]]
        if not verdict["passed"]:
            name, _, message = verdict["message"].partition(": ")
            kept.append(nbformat.v4.new_output("error", ename=name, evalue=message, traceback=[verdict["message"]]))
            if not request["records"]:
                silent.append(request["id"])
        cell.outputs = kept
    return silent


if __name__ == "__main__":
    serve()
