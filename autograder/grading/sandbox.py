"""The sandbox room: student code runs where it can see and reach nothing but its submission's folder.

bubblewrap (`bwrap`) starts each worker's fork server (see forkserver.py and pool.py), and so every
kernel it forks, in new namespaces with no capabilities: no network, its own process tree, a private
/tmp and home, the course root (solutions, hidden tests, the gradebook, other students' work) replaced
by an empty folder, and only the worker's submission folder writable; its address space is limited
too. Kernels talk to their client over local sockets in a folder bound into the sandbox (TCP on
127.0.0.1 cannot cross the network namespace).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .. import course

GIB = 1024 ** 3
MEMORY_LIMIT = 4 * GIB  # a kernel's address space: a graded TensorFlow notebook reaches about 2 GiB


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


def sandbox_command(workdir: Path, sockets: Path, hidden: list[Path], memory_limit: int) -> list[str]:
    """The command line that runs a kernel command inside the sandbox."""
    home = Path(os.path.expanduser("~")).resolve()
    # --cap-drop ALL: run by root, bwrap would keep every capability inside, and CAP_SYS_ADMIN could
    # unmount the empty folders that hide the course.
    args = ["bwrap", "--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL",
            # ipykernel stops when its parent process disappears from view, as it does in a new PID namespace
            "--unsetenv", "JPY_PARENT_PID",
            "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    for folder in sorted({home, *(p.resolve() for p in hidden if p.exists())}):  # (a Dask worker may lack some)
        args += ["--tmpfs", str(folder)]
    # Python itself may live under a hidden folder (a virtual environment in the course, pyenv in home).
    for keep in sorted({Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}):
        args += ["--ro-bind", str(keep), str(keep)]
    args += ["--bind", str(workdir), str(workdir), "--bind", str(sockets), str(sockets), "--chdir", str(workdir)]
    return args + ["prlimit", f"--as={memory_limit}", "--"]
