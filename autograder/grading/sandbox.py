"""The sandbox room: student code sees only what it needs, from an allow-list, and the grader's environment never.

bubblewrap (`bwrap`) starts each worker's fork server (see forkserver.py and pool.py), and so every
kernel it forks, in new namespaces with no capabilities: no network, its own process tree, and a
filesystem built from nothing but

- read-only: the Python environment the worker runs (its prefix and the Python it was made from),
  /usr (the system's programs and libraries, with /bin, /lib and /lib64), and from /etc only what
  Python and TensorFlow read (ETC_FILES) plus a passwd and group naming the sandbox's one user;
- writable, each a size-limited tmpfs the fork server empties between kernels: the submission's
  folder, /tmp, the home folder, /dev/shm, and the socket folder where the kernel and its client
  talk (the client reaches it through /proc/PID/root of the sandbox: TCP on 127.0.0.1 cannot cross
  the network namespace);
- the worker's inbox, read-only, from which the submission's files are copied into its folder.

Everything else is absent: the course (solutions, hidden tests, other students' work), the
gradebook, /home, /root, /var, /srv, /opt, /sys, the rest of /etc. The root and /dev are read-only.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from .. import course
from .limits import Limits

HOME = "/home/student"  # the kernel's home inside the sandbox: empty, private, emptied between students

# /etc, file by file: the dynamic loader's cache (TensorFlow's libraries are found through it),
# fontconfig's configuration (matplotlib lists the system's fonts with it once per fork server; without
# it fontconfig prints an error), the time zone (datetime's local time).
ETC_FILES = ("/etc/ld.so.cache", "/etc/fonts", "/etc/localtime")

# The kernel's whole environment. Nothing of the grader's environment (tokens, credentials, paths of
# other courses) reaches student code; only these, each for a reason:
ENVIRONMENT = {
    "PATH": "{prefix}/bin:/usr/bin:/bin",  # the environment's programs first, then the system's (`uname` for platform)
    "HOME": HOME,  # where Keras, matplotlib and IPython keep their caches
    "LANG": "C.UTF-8",  # text files and outputs in UTF-8 whatever the grader's locale
    "TF_CPP_MIN_LOG_LEVEL": "3",  # TensorFlow's C++ log lines go to stderr, which nbgrader scores 0 in a test cell
    "TF_ENABLE_ONEDNN_OPTS": "0",  # the same arithmetic as the notebooks' setup cell asks for
    # One kernel per core already runs: TensorFlow's and the BLAS's thread pools are sized for one
    # kernel, not one per core each (which also keeps a correct notebook far under the task limit
    # on a many-core machine).
    "TF_NUM_INTRAOP_THREADS": "2",
    "TF_NUM_INTEROP_THREADS": "2",
    "OMP_NUM_THREADS": "2",
    "OPENBLAS_NUM_THREADS": "2",
    "MKL_NUM_THREADS": "2",
}
# ...and these, from the grading process that starts the kernel, when it sets them:
FROM_GRADING = (
    "NBGRADER_EXECUTION",  # nbgrader's "this is autograding": the notebooks run fewer training steps
)


# What an instructor who grades with --unsandboxed reads at the top of the report.
UNSANDBOXED = ("grading ran unsandboxed (--unsandboxed): student code had your rights, could read your files "
               "and reach the network; only each process's address space and CPU time were limited")


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


def environment(home: str = HOME) -> dict[str, str]:
    """The fork server's and so every kernel's environment (FROM_GRADING is added per kernel)."""
    return {name: value.format(prefix=sys.prefix) for name, value in {**ENVIRONMENT, "HOME": home}.items()}


def from_grading(env) -> dict[str, str]:
    """The variables of `env` (the grading process's) a kernel may be given."""
    return {name: env[name] for name in FROM_GRADING if name in env}


def python_folders() -> list[Path]:
    """The Python environment, read-only: the worker's prefix and the installation it was made from."""
    folders = {Path(p).resolve() for p in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix)}
    return sorted(f for f in folders if not f.is_relative_to("/usr"))  # /usr is there already


def python_executable() -> str:
    """The worker's Python by a path that exists in the sandbox, which binds the environment where it really is:
    an environment reached through a link (`.hub-venv -> /var/cache/...`) runs from its real folder, where its
    pyvenv.cfg is too."""
    try:
        return str(Path(sys.prefix).resolve() / Path(sys.executable).relative_to(sys.prefix))
    except ValueError:  # a Python outside its prefix: bound as it is
        return sys.executable


def writable_folders(workdir: Path, sockets: Path, limits: Limits) -> dict[str, int]:
    """{folder inside the sandbox: its size}, every folder student code can write to (mounted in this
    order: the worker's folders may be inside /tmp)."""
    return {"/tmp": limits.folder_bytes, HOME: limits.scratch_bytes, "/dev/shm": limits.scratch_bytes,
            str(workdir): limits.folder_bytes, str(sockets): limits.scratch_bytes}


def _passwd_files(scratch: Path) -> dict[str, Path]:
    """/etc/passwd and /etc/group naming the sandbox's one user (the grader's own users stay unseen)."""
    folder = scratch / "etc"
    folder.mkdir(exist_ok=True)
    uid, gid = os.getuid(), os.getgid()
    (folder / "passwd").write_text(f"student:x:{uid}:{gid}:student:{HOME}:/usr/sbin/nologin\n")
    (folder / "group").write_text(f"student:x:{gid}:\n")
    return {"/etc/passwd": folder / "passwd", "/etc/group": folder / "group"}


def sandbox_command(scratch: Path, workdir: Path, sockets: Path, inbox: Path, limits: Limits, info_fd: int) -> list[str]:
    """The command line that runs a command (the fork server) inside the sandbox; bubblewrap writes
    the process id of the sandbox's first process on `info_fd` (its /proc/PID/root is the sandbox's root)."""
    # --cap-drop ALL: run by root, bwrap would keep every capability inside, and CAP_SYS_ADMIN could
    # mount what the allow-list leaves out.
    args = ["bwrap", "--die-with-parent", "--new-session", "--unshare-all", "--cap-drop", "ALL", "--clearenv",
            "--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):  # merged /usr: /lib -> usr/lib
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    for path in ETC_FILES:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    for path, source in _passwd_files(scratch).items():
        args += ["--ro-bind", str(source), path]
    args += ["--dev", "/dev", "--proc", "/proc"]
    for folder, size in writable_folders(workdir, sockets, limits).items():
        args += ["--size", str(size), "--tmpfs", folder]
    # after the tmpfs mounts, or one would hide them: a clone's environment may live in /tmp
    for folder in python_folders():
        args += ["--ro-bind", str(folder), str(folder)]
    args += ["--ro-bind", str(inbox), str(inbox), "--remount-ro", "/dev", "--remount-ro", "/",
             "--chdir", str(workdir), "--info-fd", str(info_fd)]
    for name, value in environment().items():
        args += ["--setenv", name, value]
    return args
