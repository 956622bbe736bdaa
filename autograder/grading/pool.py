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
from queue import Empty

from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async
from nbgrader.preprocessors import Execute
from traitlets import Integer, Unicode

from . import forkserver, sandbox

SERVER_SCRIPT = Path(forkserver.__file__).resolve()


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


class ForkedKernelManager(AsyncKernelManager):
    """jupyter_client's kernel manager, with the kernel forked by a fork server instead of started."""

    sockets = Unicode(help="the folder of the fork server's socket, and of the kernel's connection file and sockets").tag(config=True)

    async def _async_pre_start_kernel(self, **kw):
        # Local sockets at absolute paths, in a folder the sandboxed kernel shares with its client.
        self.transport = "ipc"
        self.ip = str(Path(self.sockets) / "kernel")
        self.connection_file = str(Path(self.sockets) / "kernel.json")
        # A signal would reach `attach`, not the kernel's own handler: interrupt over the control channel.
        self.kernel_spec.interrupt_mode = "message"
        kernel_cmd, kw = await super()._async_pre_start_kernel(**kw)
        kernel_args = kernel_cmd[kernel_cmd.index("-f"):]  # the connection file and nbgrader's extra arguments
        return [sys.executable, str(SERVER_SCRIPT), "attach", str(Path(self.sockets) / "server"), *kernel_args], kw


class KernelStuck(Exception):
    """The kernel still did not answer some seconds after a cell's time limit and an interrupt."""

    def __init__(self, cell_index: int, seconds: float):
        super().__init__(cell_index, seconds)
        self.cell_index, self.seconds = cell_index, seconds


class GradingExecute(Execute):
    """nbgrader's Execute, except that a kernel an interrupt cannot stop is ended.

    A loop inside a tf.function ignores the interrupt: stock nbgrader then sends every later cell to
    the busy kernel, and each waits its whole time limit in turn (minutes per cell, hours per
    submission). Here the kernel gets `interrupt_grace` seconds to answer after the interrupt.
    """

    interrupt_grace = Integer(10, help="seconds a kernel gets to answer after an interrupt").tag(config=True)

    async def _async_handle_timeout(self, timeout, cell=None):
        reply = await super()._async_handle_timeout(timeout, cell)
        asked = self.kc.kernel_info()  # answered, in turn, once the interrupted cell has stopped
        deadline = time.monotonic() + self.interrupt_grace
        while (left := deadline - time.monotonic()) > 0:
            try:
                answer = await ensure_async(self.kc.shell_channel.get_msg(timeout=left))
            except Empty:
                break
            if answer["parent_header"].get("msg_id") == asked:
                return reply
        raise KernelStuck(next(i for i, c in enumerate(self.nb.cells) if c is cell), self.interrupt_grace)


def _mark_not_run(nb, stuck: KernelStuck) -> None:
    """Every code cell from the stuck one on gets an error saying why it has no result (nbgrader scores 0)."""
    from nbformat.v4 import new_output

    first_line = next(iter(nb.cells[stuck.cell_index].source.strip().splitlines()), "")
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or index < stuck.cell_index:
            continue
        why = (f"the kernel was still busy {stuck.seconds:g} s after this cell's time limit and an interrupt "
               "(a loop inside a tf.function ignores interrupts)" if index == stuck.cell_index else
               f"not run: the kernel was stuck in an earlier cell, the one that begins {first_line[:60]!r}")
        cell.outputs.append(new_output("error", ename="KernelStuck", evalue=why, traceback=[f"KernelStuck: {why}"]))


class Worker:
    """A fork server (sandboxed unless told otherwise) and the folder one submission at a time runs in."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.scratch = Path(tempfile.mkdtemp(prefix="grading-worker-"))
        self.slot = self.scratch / "submission"
        self.sockets = self.scratch / "sockets"
        self.server: subprocess.Popen | None = None

    def start(self) -> None:
        self.stop_server()  # a server a kernel killed may leave its sandbox behind: end all of it
        self.slot.mkdir(exist_ok=True)
        self.sockets.mkdir(exist_ok=True)
        socket_path = self.sockets / "server"
        socket_path.unlink(missing_ok=True)
        (self.sockets / "warm.json").write_text(json.dumps(self.settings.warm_cells))
        serve = [sys.executable, "-c", SERVER_SCRIPT.read_text(), "serve", str(socket_path)]
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
    _worker.start()
    multiprocessing.util.Finalize(_worker, _worker.stop, exitpriority=10)


def run_task(task: Task) -> Result:
    """A pool process's job: run one submission on this process's worker."""
    return _worker.run(task)


def feedback_task(root: str, assignment: str, students: list[str], others: list[str]) -> tuple[dict[str, str], float]:
    """nbgrader's generate_feedback for `students`, in one run (its templates are compiled once);
    returns ({student: error} for those it failed, seconds). It reads the gradebook, never writes it."""
    from .coordinator import _api

    started = time.perf_counter()
    api = _api(Path(root), CourseDirectory={"student_id_exclude": ",".join(others)})
    if api.generate_feedback(assignment)["success"]:
        return {}, time.perf_counter() - started
    errors = {}  # one of them stopped the run: find which, one at a time
    for student in students:
        result = api.generate_feedback(assignment, student, force=True)
        if not result["success"]:
            errors[student] = (result.get("error") or "").strip()[-200:] or "no error message"
    return errors, time.perf_counter() - started


class LocalWorkers:
    """Worker processes on this machine, one per core by default, each with its fork server."""

    def __init__(self, settings: Settings, workers: int | None = None):
        self.size = workers or os.cpu_count() or 1
        self.processes = ProcessPoolExecutor(max_workers=self.size,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(settings,))

    def run(self, task: Task):
        return self.processes.submit(run_task, task)

    def feedback(self, root: Path, assignment: str, students: list[str], others: list[str]):
        return self.processes.submit(feedback_task, str(root), assignment, students, others)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.processes.shutdown(cancel_futures=True)


def executor(settings: Settings, workers: int | None = None, scheduler: str | None = None):
    """Where submissions run: this machine's processes, or a Dask cluster when given its scheduler."""
    if scheduler:
        from .dask_workers import DaskWorkers

        return DaskWorkers(settings, scheduler)
    return LocalWorkers(settings, workers)
