"""The worker pool: submissions run in parallel, each in a fresh kernel forked from a warm fork server.

The unit of work is hermetic: a sanitized notebook (nbgrader has put the release's locked cells and
hidden tests back) and its folder's other files go in, the executed notebook comes out. Workers
never see the gradebook; the coordinator alone writes it. Each worker owns one fork server (see
forkserver.py), started in the sandbox unless grading is unsandboxed, and one folder where a single
submission at a time is run. The same `Worker` serves the local process pool and Dask's workers.
"""
from __future__ import annotations

import json
import multiprocessing
import multiprocessing.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import forkserver, nbgrader_api, sandbox



@dataclass
class Task:
    """One submission to run: its sanitized notebook (JSON text) and the other files of its folder."""

    student: str
    notebook_name: str
    notebook: str
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class Result:
    student: str
    notebook: str | None = None  # the executed notebook (JSON text); None when it could not be run
    error: str | None = None
    seconds: float = 0.0


@dataclass
class Settings:
    """What every worker needs to know, the same on this machine and on a Dask worker."""

    execute_config: dict  # the course's `c.Execute` settings (timeouts and so on)
    sandboxed: bool = True
    hidden: list[str] = field(default_factory=list)  # folders the kernel must not see
    memory_limit: int = sandbox.MEMORY_LIMIT
    warm_cells: list[str] = field(default_factory=list)  # cells every submission runs as they are (the setup cell)


class Worker:
    """A fork server (sandboxed unless told otherwise) and the folder one submission at a time runs in."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.scratch = Path(tempfile.mkdtemp(prefix="grading-worker-"))
        self.slot = self.scratch / "submission"
        self.sockets = self.scratch / "sockets"
        self.server: subprocess.Popen | None = None

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the fork server; it is ready once `wait_ready` returns (TensorFlow's import takes seconds)."""
        self.stop_server()  # a server a kernel killed may leave its sandbox behind: end all of it
        self.slot.mkdir(exist_ok=True)
        self.sockets.mkdir(exist_ok=True)
        socket_path = self.sockets / "server"
        socket_path.unlink(missing_ok=True)
        (self.sockets / "warm.json").write_text(json.dumps(self.settings.warm_cells))
        serve = [sys.executable, "-c", Path(forkserver.__file__).read_text(), "serve", str(socket_path)]
        if self.settings.sandboxed:
            hidden = [Path(p) for p in self.settings.hidden]
            home = Path(os.path.expanduser("~")).resolve()
            command = sandbox.sandbox_command(self.slot, self.sockets, hidden, self.settings.memory_limit)
            command += serve + ["sandboxed", "/tmp", str(home), *map(str, hidden)]
        else:
            command = serve + ["unsandboxed"]
        self.log = open(self.scratch / "server.log", "w+")
        self.server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.log, stdin=subprocess.DEVNULL,
                                       text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def wait_ready(self) -> None:
        line = self.server.stdout.readline()  # "ready" once TensorFlow is imported
        if line.strip() != "ready":
            self.server.kill()
            self.log.seek(0)
            raise RuntimeError(f"the fork server did not start: {self.log.read()[-2000:] or 'no message'}")

    def alive(self) -> bool:
        return self.server is not None and self.server.poll() is None and forkserver.ping(str(self.sockets / "server"))

    def run(self, task: Task) -> Result:
        """Execute one submission as nbgrader's Execute preprocessor would, in a kernel forked for it."""
        import nbformat
        from nbgrader.utils import setenv
        from traitlets.config import Config

        from .forked_kernel import ForkedKernelManager, GradingExecute, KernelStuck, _mark_not_run

        started = time.perf_counter()
        if not self.alive():  # first use, or the last kernel stopped the server
            self.start()
        for entry in self.slot.iterdir():  # the folder itself stays: the sandbox has it bound in
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
        for name, data in task.files.items():
            (self.slot / name).parent.mkdir(parents=True, exist_ok=True)
            (self.slot / name).write_bytes(data)
        nb = nbformat.reads(task.notebook, as_version=4)
        (self.slot / f"{task.notebook_name}.ipynb").write_text(task.notebook)
        config = Config({"Execute": dict(self.settings.execute_config)})
        config.ForkedKernelManager.sockets = str(self.sockets)
        try:
            executor = GradingExecute(config=config, kernel_manager_class=ForkedKernelManager)
            with setenv(NBGRADER_EXECUTION="autograde"):
                nb, _ = executor.preprocess(nb, {"metadata": {"path": str(self.slot)}})
        except KernelStuck as stuck:  # graded with what ran before it; what did not run scores 0
            _mark_not_run(nb, stuck)
        except Exception as error:  # the kernel died, or never answered: this submission only
            return Result(task.student, error=f"{type(error).__name__}: {error}".strip(),
                          seconds=time.perf_counter() - started)
        return Result(task.student, nbformat.writes(nb), seconds=time.perf_counter() - started)

    def stop_server(self) -> None:
        """Kill the server: bubblewrap's --die-with-parent then ends everything in its sandbox."""
        if self.server is not None:
            self.server.kill()
            self.server.wait()
            self.server.stdout.close()
            self.log.close()
            self.server = None

    def stop(self) -> None:
        self.stop_server()
        shutil.rmtree(self.scratch, ignore_errors=True)


def task(root: Path, assignment: str, student: str) -> Task:
    """The unit of work for one sanitized submission: autograded/<student>/<assignment>/ as nbgrader prepared it."""
    folder = root / "autograded" / student / assignment
    notebook = folder / f"{assignment}.ipynb"
    files = {str(path.relative_to(folder)): path.read_bytes()
             for path in sorted(folder.rglob("*")) if path.is_file() and path != notebook}
    return Task(student, assignment, notebook.read_text(), files)


_worker: Worker | None = None


def _start_worker(settings: Settings) -> None:
    global _worker
    _worker = Worker(settings)
    _worker.launch()
    from . import forked_kernel  # noqa: F401  (nbgrader's import, while the server imports TensorFlow)

    _worker.wait_ready()
    multiprocessing.util.Finalize(_worker, _worker.stop, exitpriority=10)


def _no_op() -> None:
    """A task that does nothing: submitting one starts a worker process."""


def run_task(task: Task) -> Result:
    """A pool process's job: run one submission on this process's worker."""
    return _worker.run(task)


class LocalWorkers:
    """Worker processes on this machine, one per core by default, each with its fork server."""

    def __init__(self, settings: Settings, workers: int | None = None):
        self.size = workers or os.cpu_count() or 1
        self.processes = ProcessPoolExecutor(max_workers=self.size,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(settings,))
        for _ in range(self.size):  # start every worker now: fork servers warm up while submissions are prepared
            self.processes.submit(_no_op)

    def run(self, task: Task):
        return self.processes.submit(run_task, task)

    def feedback(self, root: Path, assignment: str, students: list[str], others: list[str]):
        return self.processes.submit(nbgrader_api.generate_feedback, str(root), assignment, students, others)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.processes.shutdown(cancel_futures=True)

