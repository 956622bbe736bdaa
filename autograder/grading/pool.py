"""The worker pool: submissions run in parallel, each in a fresh kernel forked from a warm fork server.

The unit of work is hermetic: a sanitized notebook (nbgrader has put the release's locked cells and
hidden tests back) and its folder's other files go in, the executed notebook comes out. Workers
never see the gradebook; the coordinator alone writes it. Each worker owns one fork server (see
forkserver.py), started in the sandbox unless grading is unsandboxed, and one folder where a single
submission at a time is run. The same `Worker` serves the local process pool and Dask's workers.
"""
from __future__ import annotations

import functools
import json
import multiprocessing
import multiprocessing.util
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import forkserver, judge, limits, nbgrader_api, sandbox
from .limits import Limits

SCRATCH_PREFIX = "grading-worker-"  # each worker's folder: SCRATCH_PREFIX + its process id + a suffix


@dataclass
class Task:
    """One submission to run: its sanitized notebook (JSON text) and the other files of its folder."""

    student: str
    notebook: str
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class Result:
    student: str
    notebook: str | None = None  # the executed notebook (JSON text); None when it could not be run
    error: str | None = None
    seconds: float = 0.0
    limits: list[str] = field(default_factory=list)  # the sandbox's limits it met, each with what happened
    silent: list[str] = field(default_factory=list)  # judged test cells whose kernel sent nothing to check (judge.py)
    unprotected: list[str] = field(default_factory=list)  # the limits this worker could not set (limits.Cgroup)


@dataclass
class Settings:
    """What every worker needs to know, the same on this machine and on a Dask worker."""

    execute_config: dict  # the course's `c.Execute` settings (timeouts and so on)
    sandboxed: bool = True
    limits: Limits = field(default_factory=Limits)
    warm_cells: list[str] = field(default_factory=list)  # cells every submission runs as they are (the setup cell)
    judged: bool = False  # the judge decides the test cells' points (judge.py); warm_cells[0] is then the setup cell


class Worker:
    """A fork server (sandboxed unless told otherwise) that gives each submission a sandbox of its own, one at a time."""

    def __init__(self, settings: Settings):
        self.settings = settings
        _remove_stale_scratch()
        self.scratch = Path(tempfile.mkdtemp(prefix=f"{SCRATCH_PREFIX}{os.getpid()}-"))
        self.server_folder = self.scratch / "server"  # the fork server's socket (bound into its sandbox)
        self.inbox = self.scratch / "inbox"  # the submission's files, copied into the kernel's folder
        self.connection = self.scratch / "connection"  # the kernel manager's connection files
        # unsandboxed, the kernel's folders are the worker's own
        self.slot, self.home, self.kernel_folder = (self.scratch / name for name in ("submission", "home", "kernel"))
        self.server: subprocess.Popen | None = None
        self.server_pid = 0  # the server's process id (sandboxed: PID 1 of its sandbox)
        self.cgroup = limits.Cgroup.create(settings.limits) if settings.sandboxed else None
        self.unprotected = self.cgroup.unprotected if self.cgroup else [sandbox.UNSANDBOXED]
        self._said = b""  # what the server wrote on its stdout and was not read yet
        self._ran_out = False  # the submission running now used up its time budget
        self.judge = judge.Judge() if settings.judged else None

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start the fork server; it is ready once `wait_ready` returns (TensorFlow's import takes seconds)."""
        self.stop_server()  # a server a kernel killed may leave its sandbox behind: end all of it
        for folder in (self.server_folder, self.inbox, self.connection, self.slot, self.home, self.kernel_folder):
            folder.mkdir(exist_ok=True)
        (self.server_folder / "server").unlink(missing_ok=True)
        sandboxed = self.settings.sandboxed
        python = sandbox.python_executable() if sandboxed else sys.executable
        listen = f"{sandbox.SERVER_FOLDER}/server" if sandboxed else str(self.server_folder / "server")
        serve = [python, "-c", Path(forkserver.__file__).read_text(), "serve", listen]
        if sandboxed:
            config = {"workdir": sandbox.WORKDIR, "inbox": sandbox.INBOX, "kernel_folder": sandbox.KERNEL_FOLDER,
                      "fresh": sandbox.writable_folders(self.settings.limits), "covered": [sandbox.SERVER_FOLDER, sandbox.INBOX],
                      "rebound": sandbox.rebound_folders(), "emptied": []}
        else:
            config = {"workdir": str(self.slot), "inbox": str(self.inbox), "kernel_folder": str(self.kernel_folder),
                      "fresh": {}, "covered": [], "rebound": [], "emptied": [str(self.slot), str(self.home)]}
        config.update(sandboxed=sandboxed, rlimits=self.settings.limits.rlimits(), from_grading=list(sandbox.FROM_GRADING),
                      warm_cells=self.settings.warm_cells)
        self.log = open(self.scratch / "server.log", "w+")
        self._said, self._info = b"", None
        if sandboxed:
            self._info, info_fd = os.pipe()
            command = limits.enter(sandbox.sandbox_command(self.scratch, self.server_folder, self.inbox, info_fd) + serve,
                                   self.cgroup)
            self.server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                           env=sandbox.environment(), bufsize=0, pass_fds=(info_fd,))
            os.close(info_fd)
        else:
            self.server = subprocess.Popen(serve, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
                                           env=sandbox.environment(home=str(self.home)), bufsize=0)
            self.server_pid = self.server.pid
        self.server.stdin.write(json.dumps(config).encode() + b"\n")  # no kernel can change it: see forkserver.serve
        self.server.stdin.close()
        if self.judge is not None:
            self.judge.start()  # it imports TensorFlow meanwhile

    def wait_ready(self) -> None:
        if self._info is not None:  # bubblewrap's report, once the sandbox is made: the server is its PID 1
            with os.fdopen(self._info) as info:
                said = info.read()
            self._info = None
            self.server_pid = json.loads(said)["child-pid"] if said else 0
        line = self._next_line(timeout=None)  # "ready" once TensorFlow is imported
        if line != "ready" or not self.server_pid:
            self.server.kill()
            self.log.seek(0)
            raise RuntimeError(f"the fork server did not start: {self.log.read()[-2000:] or 'no message'}")

    def _next_line(self, timeout: float | None) -> str | None:
        """The server's next line on its stdout; None if none comes within `timeout` seconds or it ended."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._said:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self.server.stdout], [], [], left)[0]:
                return None
            data = os.read(self.server.stdout.fileno(), 65536)
            if not data:
                return None
            self._said += data
        line, self._said = self._said.split(b"\n", 1)
        return line.decode().strip()

    def alive(self) -> bool:
        return (self.server is not None and self.server.poll() is None
                and forkserver.ping(str(self.server_folder / "server")) is not None)

    def run(self, task: Task) -> Result:
        """Execute one submission as nbgrader's Execute preprocessor would, in a kernel forked for it into a
        sandbox and a cgroup of its own, within its time budget."""
        import nbformat
        from nbgrader.utils import setenv
        from traitlets.config import Config

        from .forked_kernel import ForkedKernelManager, GradingExecute, KernelStuck, _mark_not_run, stuck_reason

        started = time.perf_counter()
        if not self.alive():  # first use, or the last kernel stopped the server
            self.start()
        while self._next_line(timeout=0) is not None:  # a report no run read (a kernel that never answered)
            pass
        for folder in (self.inbox, self.kernel_folder):  # the folders stay: the sandbox has the inbox bound in
            for entry in folder.iterdir():
                shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
        # Its other files only: the kernel runs the notebook's cells as nbclient sends them, and the
        # notebook's file would show it the hidden tests nbgrader has put back.
        for name, data in task.files.items():
            (self.inbox / name).parent.mkdir(parents=True, exist_ok=True)
            (self.inbox / name).write_bytes(data)
        nb = nbformat.reads(task.notebook, as_version=4)
        # judged: the kernel runs each test cell without its answer keys and checks (judge.prepare)
        originals = judge.prepare(nb) if self.judge is not None else {}
        seed = secrets.randbits(62)  # the hidden tests' computations, new for each submission
        submission = self.cgroup.submission() if self.cgroup else None
        config = Config({"Execute": dict(self.settings.execute_config)})
        config.ForkedKernelManager.server_socket = str(self.server_folder / "server")
        config.ForkedKernelManager.connection_dir = str(self.connection)
        config.ForkedKernelManager.kernel_folder = sandbox.KERNEL_FOLDER if self.settings.sandboxed else str(self.kernel_folder)
        config.ForkedKernelManager.server_pid = self.server_pid if self.settings.sandboxed else 0
        # (a function of plain values: traitlets copies the configuration)
        config.ForkedKernelManager.on_started = functools.partial(
            _move_quietly, self.server_pid, self.cgroup.procs_files() if submission else [])
        result = Result(task.student, unprotected=list(self.unprotected) + (submission.unprotected if submission else []))
        self._ran_out = False
        budget = threading.Timer(self.settings.limits.wall_seconds, self._out_of_time, (submission,))
        executor = GradingExecute(config=config, kernel_manager_class=ForkedKernelManager)
        try:
            if submission:  # what the server forks now is the submission's: the kernel and all it starts
                limits.move(self.server_pid, submission.procs_files())
            budget.start()
            observing = {judge.OBSERVING: "1", judge.GRADING_SEED: str(seed)} if originals else {}
            with setenv(NBGRADER_EXECUTION="autograde", **observing):
                nb, _ = executor.preprocess(nb, {"metadata": {"path": str(self.slot)}})
        except KernelStuck as stuck:  # graded with what ran before it; what did not run scores 0
            _mark_not_run(nb, stuck.cell_index, stuck_reason(stuck))
            ran = True
        except Exception as error:  # the kernel died, or never answered: this submission only
            ran = self._ran_out  # graded with what ran in time
            if ran:
                _mark_not_run(nb, executor.running, self._budget_reason())
            else:
                result.error = f"{type(error).__name__}: {error}".strip()
        else:
            ran = True
        finally:
            budget.cancel()
            if submission:
                self._server_out_of_submission()
                submission.kill()
            for index, source in originals.items():  # the notebook as prepared, as the record step expects it
                nb.cells[index].source = source
        if ran:
            if originals:
                self._judge(nb, originals, seed, result)
            if result.error is None:
                result.notebook = nbformat.writes(nb)
        result.limits = self._limits_met(nb, submission)
        if submission:
            submission.remove()
        result.seconds = time.perf_counter() - started
        return result

    def _judge(self, nb, originals: dict[int, str], seed: int, result: Result) -> None:
        """The judge's verdicts in place of what the kernel's test cells showed (judge.py)."""
        cells = judge.requests(nb, originals)
        try:
            verdicts = self.judge.judge(self.settings.warm_cells[0], cells, seed) if cells else {}
        except RuntimeError as error:  # the grader's own failure: no score, rather than a wrong one
            result.error = f"the grader could not check its test cells: {error}"
            return
        result.silent = judge.apply(nb, cells, verdicts)

    def _server_out_of_submission(self) -> None:
        """Back to the server's own cgroup, once the kernel is forked (or could not be)."""
        if self.cgroup:
            _move_quietly(self.server_pid, self.cgroup.procs_files())

    def _out_of_time(self, submission) -> None:
        """The submission's time budget is up: end it from outside, whatever its kernel is doing."""
        self._ran_out = True
        if submission and submission.folders:
            self._server_out_of_submission()
            submission.kill()
        elif self.server is not None:  # no cgroup: the server and everything in its sandbox
            self.server.kill()

    def _budget_reason(self) -> str:
        return (f"it used up the submission's time budget of {self.settings.limits.wall_seconds} s: its kernel was "
                "ended, and the cells it had not run score nothing")

    def _limits_met(self, nb, submission) -> list[str]:
        """What the sandbox stopped in this run, with why: from the server's report on its kernel, the
        cgroup's counters (both out of the kernel's reach) and the errors in the notebook's outputs."""
        limits_set = self.settings.limits
        report = json.loads(self._next_line(timeout=30) or "{}")
        met = []
        if self._ran_out:
            met.append(self._budget_reason())
        # SIGXCPU comes from RLIMIT_CPU alone; SIGKILL at its hard limit, 2 s later, when a kernel ignored it.
        # (The CPU time wait4 reports is rounded, and can read a hair under the limit the kernel counted.)
        if report.get("exit") == -signal.SIGXCPU or (report.get("exit") == -signal.SIGKILL
                                                      and report.get("cpu", 0) >= limits_set.cpu_seconds):
            met.append(f"the kernel used up its {limits_set.cpu_seconds} s of CPU time and was ended")
        names = {sandbox.WORKDIR: "its folder", sandbox.KERNEL_FOLDER: "its kernel's socket folder"}
        for folder in report.get("full", []):
            size = sandbox.writable_folders(limits_set).get(folder, 0)
            met.append(f"it filled {names.get(folder, folder)} ({size // limits.MIB} MiB, the sandbox's limit): "
                       "writes there failed")
        if submission:
            met += submission.met()
        errors = [o for cell in nb.cells for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if any(o.get("ename") == "MemoryError" for o in errors):
            met.append(f"a cell ran out of memory: a process may use {limits_set.memory // limits.GIB} GiB of address space")
        if not report.get("full") and any("No space left on device" in o.get("evalue", "") for o in errors):
            met.append("a write failed for lack of space: the sandbox's folders are size-limited")
        return met

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
        if self.judge is not None:
            self.judge.stop()
        if self.cgroup:
            self.cgroup.remove()
        shutil.rmtree(self.scratch, ignore_errors=True)


def _move_quietly(pid: int, procs_files: list[Path]) -> None:
    try:
        limits.move(pid, procs_files)
    except OSError:  # the server is gone: the next run starts a new one
        pass


def _remove_stale_scratch() -> None:
    """Remove the folders of this user's workers whose process is gone: one killed (a Dask worker's process
    ended by its nanny, say) never ran its `stop`."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*"):
        pid = folder.name[len(SCRATCH_PREFIX):].split("-")[0]
        try:
            stale = pid.isdigit() and not Path(f"/proc/{pid}").exists() and folder.stat().st_uid == os.getuid()
        except OSError:  # removed meanwhile by another worker
            continue
        if stale:
            shutil.rmtree(folder, ignore_errors=True)


def task(root: Path, assignment: str, student: str) -> Task:
    """The unit of work for one sanitized submission: autograded/<student>/<assignment>/ as nbgrader prepared it."""
    folder = root / "autograded" / student / assignment
    notebook = folder / f"{assignment}.ipynb"
    files = {str(path.relative_to(folder)): path.read_bytes()
             for path in sorted(folder.rglob("*")) if path.is_file() and path != notebook}
    return Task(student, notebook.read_text(), files)


_worker: Worker | None = None
_not_started = ""  # why this process's worker could not start: said with every submission it is then given


def _start_worker(settings: Settings) -> None:
    global _worker, _not_started
    _worker = Worker(settings)
    try:
        _worker.launch()
        from . import forked_kernel  # noqa: F401  (nbgrader's import, while the server imports TensorFlow)

        _worker.wait_ready()
    except Exception as error:  # raised here, it would break the whole pool and the report would not say why
        _not_started = f"{type(error).__name__}: {error}"
        _worker.stop()
        return
    multiprocessing.util.Finalize(_worker, _worker.stop, exitpriority=10)


def _no_op() -> None:
    """A task that does nothing: submitting one starts a worker process."""


def run_task(task: Task) -> Result:
    """A pool process's job: run one submission on this process's worker."""
    if _not_started:
        raise RuntimeError(f"this grading worker could not start: {_not_started}")
    return _worker.run(task)


class LocalWorkers:
    """Worker processes on this machine, one per core by default, each with its fork server."""

    def __init__(self, settings: Settings, workers: int | None = None):
        self.size = workers or os.cpu_count() or 1
        self.processes = ProcessPoolExecutor(max_workers=self.size,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker, initargs=(settings,))
        # Where a worker dies (its fork server could not start, say), Python before 3.11.3 joins the thread that
        # feeds the dead worker's queue, which never returns: grading hung instead of reporting why.
        self.processes._call_queue.cancel_join_thread()
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

