"""The sandbox room: student code sees only what it needs, from an allow-list, and the grader's environment never.

bubblewrap (`bwrap`) starts each worker's fork server (see forkserver.py and pool.py) as PID 1 of
new namespaces: no network, its own process tree, and a filesystem built from nothing but

- read-only: the Python environment the worker runs (its prefix and the Python it was made from),
  /usr (the system's programs and libraries, with /bin, /lib and /lib64), and from /etc only what
  Python and TensorFlow read (ETC_FILES) plus a passwd and group naming the sandbox's one user;
- the server's socket (SERVER_FOLDER) and, read-only, the worker's inbox (INBOX): the submission's files.

Each kernel the server forks then gets a sandbox of its own inside that one (forkserver.py): its own
mount, PID, IPC, UTS and network namespaces, and a fresh size-limited tmpfs on every folder it may
write to (`writable_folders`: its folder, /tmp, the home folder, /dev/shm and the folder of the
sockets its client talks to it through), made for it and gone with it. The server's socket and the
inbox are covered. The server keeps CAP_SYS_ADMIN inside its own user namespace to build those
sandboxes (it runs no student code); every kernel drops every capability before it starts.

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

HOME = "/home/student"  # the kernel's home inside the sandbox: empty, private, new for each student
WORKDIR = "/submission"  # the kernel's folder: the submission's files, copied from INBOX
KERNEL_FOLDER = "/run/kernel"  # the kernel's connection file and sockets
SERVER_FOLDER = "/run/server"  # the fork server's socket: covered in every kernel's sandbox
INBOX = "/run/inbox"  # the submission's files, read-only: covered in every kernel's sandbox
SERVER_SCRATCH = 64 * 1024 ** 2  # the server's own /tmp, home and /dev/shm (caches written as it imports)

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
    "COURSE_OBSERVE",  # test cells show what they observe, for the judge (judge.py)
    "COURSE_GRADING_SEED",  # the hidden tests' computations of this submission
)


# What an instructor who grades with --unsandboxed reads at the top of the report.
UNSANDBOXED = ("grading ran unsandboxed (--unsandboxed): student code had your rights, could read your files "
               "and reach the network; only each process's address space and CPU time, and each submission's time budget, were limited")


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


def writable_folders(limits: Limits) -> dict[str, int]:
    """{folder inside a kernel's sandbox: its size}, every folder student code can write to: each a new tmpfs."""
    return {"/tmp": limits.folder_bytes, HOME: limits.scratch_bytes, "/dev/shm": limits.scratch_bytes,
            WORKDIR: limits.folder_bytes, KERNEL_FOLDER: limits.scratch_bytes}


def rebound_folders() -> list[str]:
    """The Python environment's folders that lie inside a kernel's writable folders (a clone in /tmp):
    bound again, read-only, over the kernel's new tmpfs."""
    fresh = [Path(folder) for folder in writable_folders(Limits())]
    return [str(folder) for folder in python_folders() if any(folder.is_relative_to(f) for f in fresh)]


def _passwd_files(scratch: Path) -> dict[str, Path]:
    """/etc/passwd and /etc/group naming the sandbox's one user (the grader's own users stay unseen)."""
    folder = scratch / "etc"
    folder.mkdir(exist_ok=True)
    uid, gid = 0, 0  # bubblewrap's --uid and --gid: the grader's own ids, as the sandbox's user namespace sees them
    (folder / "passwd").write_text(f"student:x:{uid}:{gid}:student:{HOME}:/usr/sbin/nologin\n")
    (folder / "group").write_text(f"student:x:{gid}:\n")
    return {"/etc/passwd": folder / "passwd", "/etc/group": folder / "group"}


def sandbox_command(scratch: Path, server_folder: Path, inbox: Path, info_fd: int) -> list[str]:
    """The command line that runs a command (the fork server) as PID 1 of the sandbox; bubblewrap writes
    its process id on `info_fd`."""
    # --cap-drop ALL, then CAP_SYS_ADMIN and CAP_SETPCAP inside the sandbox's own user namespace only:
    # the server mounts each kernel's folders with them, and each kernel drops them before it starts.
    args = ["bwrap", "--die-with-parent", "--new-session", "--unshare-all", "--unshare-user", "--as-pid-1",
            "--uid", "0", "--gid", "0", "--cap-drop", "ALL", "--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP",
            "--clearenv", "--ro-bind", "/usr", "/usr"]
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
    for folder in ("/tmp", HOME, "/dev/shm"):
        args += ["--size", str(SERVER_SCRATCH), "--tmpfs", folder]
    # after the tmpfs mounts, or one would hide them: a clone's environment may live in /tmp
    for folder in python_folders():
        args += ["--ro-bind", str(folder), str(folder)]
    args += ["--dir", WORKDIR, "--dir", KERNEL_FOLDER, "--bind", str(server_folder), SERVER_FOLDER,
             "--ro-bind", str(inbox), INBOX, "--remount-ro", "/dev", "--remount-ro", "/",
             "--chdir", "/", "--info-fd", str(info_fd)]
    for name, value in environment().items():
        args += ["--setenv", name, value]
    return args
