"""The sandbox room: a student's kernel runs where it can see and reach nothing but its own folder.

bubblewrap (`bwrap`) starts the kernel in new namespaces: no network, its own process tree, a private
/tmp and home, the course root (solutions, hidden tests, the gradebook, other students' work) replaced
by an empty folder, and only the submission's own folder writable; its address space is limited too.
The kernel talks to nbgrader over local sockets in a folder of its own, bound into the sandbox (TCP on
127.0.0.1 cannot cross the network namespace).

nbgrader uses it through its Execute preprocessor's `kernel_manager_class` (see `configure`).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from jupyter_client.manager import AsyncKernelManager
from traitlets import Int, List, Unicode

from .. import course

GIB = 1024 ** 3


class SandboxUnavailable(course.CourseError):
    """bubblewrap is missing or cannot create namespaces here."""


def check_bubblewrap() -> None:
    """Raise SandboxUnavailable, saying what to do, unless bwrap can start a sandbox here."""
    if shutil.which("bwrap") is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed, so student code cannot be sandboxed. Install it "
            "(`make sandbox-deps`, or your system's bubblewrap package), or pass --unsandboxed to run "
            "student code with your own rights.")
    probe = subprocess.run(["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise SandboxUnavailable(
            f"bubblewrap cannot create namespaces here ({probe.stderr.strip() or 'exit ' + str(probe.returncode)}), "
            "so student code cannot be sandboxed. Allow unprivileged user namespaces "
            "(kernel.unprivileged_userns_clone=1), or pass --unsandboxed to run student code with your own rights.")


class SandboxedKernelManager(AsyncKernelManager):
    """jupyter_client's kernel manager, with the kernel started inside bubblewrap."""

    hidden = List(Unicode(), help="folders the kernel must not see (the course root, the gradebook's folder)").tag(config=True)
    memory_limit = Int(4 * GIB, help="the kernel's address space in bytes (a graded TensorFlow notebook reaches about 2 GiB)").tag(config=True)

    async def _async_pre_start_kernel(self, **kw):
        workdir = Path(kw.get("cwd") or os.getcwd()).resolve()
        self._sockets = Path(tempfile.mkdtemp(prefix="kernel-sockets-"))
        # Absolute socket paths: the kernel runs in another folder than its client.
        self.transport = "ipc"
        self.ip = str(self._sockets / "kernel")
        self.connection_file = str(self._sockets / "kernel.json")
        # A signal would reach bubblewrap, not the kernel (and end both): interrupt over the control channel.
        self.kernel_spec.interrupt_mode = "message"
        kw.setdefault("stdout", subprocess.DEVNULL)  # ipykernel's "connect another client" banner
        kernel_cmd, kw = await super()._async_pre_start_kernel(**kw)
        return sandbox_command(workdir, self._sockets, [Path(p) for p in self.hidden], self.memory_limit) + kernel_cmd, kw

    async def _async_shutdown_kernel(self, now: bool = False, restart: bool = False):
        try:
            await super()._async_shutdown_kernel(now=now, restart=restart)
        finally:
            if not restart and getattr(self, "_sockets", None):
                shutil.rmtree(self._sockets, ignore_errors=True)


def sandbox_command(workdir: Path, sockets: Path, hidden: list[Path], memory_limit: int) -> list[str]:
    """The command line that runs a kernel command inside the sandbox."""
    home = Path(os.path.expanduser("~")).resolve()
    # --cap-drop ALL: run by root, bwrap would keep every capability inside, and CAP_SYS_ADMIN could
    # unmount the empty folders that hide the course.
    args = ["bwrap", "--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL",
            # ipykernel stops when its parent process disappears from view, as it does in a new PID namespace
            "--unsetenv", "JPY_PARENT_PID",
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    for folder in sorted({home, *(p.resolve() for p in hidden)}):
        args += ["--tmpfs", str(folder)]
    # Python itself may live under a hidden folder (a virtual environment in the course, pyenv in home).
    for keep in sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}):
        args += ["--ro-bind", str(keep), str(keep)]
    args += ["--bind", str(workdir), str(workdir), "--bind", str(sockets), str(sockets), "--chdir", str(workdir)]
    return args + ["prlimit", f"--as={memory_limit}", "--"]


def configure(config, root: Path, db_url: str) -> None:
    """Make nbgrader start every student kernel in the sandbox, hiding the course and its gradebook."""
    hidden = [str(root.resolve())]
    if db_url.startswith("sqlite:///"):
        hidden.append(str(Path(db_url[len("sqlite:///"):]).resolve().parent))
    config.Execute.kernel_manager_class = "autograder.grading.sandbox.SandboxedKernelManager"
    config.SandboxedKernelManager.hidden = hidden
