"""The limits room: what one submission may use, and what the grading report says when it meets a limit.

| limit                          | how                                     | when student code meets it              |
|--------------------------------|-----------------------------------------|-----------------------------------------|
| address space, each process    | RLIMIT_AS in each kernel (forkserver)   | MemoryError in the cell                 |
| CPU time, each process         | RLIMIT_CPU in each kernel               | the process is ended (SIGXCPU)          |
| processes and threads, sandbox | a cgroup's pids.max around the sandbox  | fork or thread start fails (EAGAIN)     |
| memory, whole sandbox          | the same cgroup's memory limit          | the kernel is killed (out of memory)    |
| disk                           | the size of each writable tmpfs         | writes fail (ENOSPC, No space left)     |

RLIMIT_NPROC cannot stand in for the cgroup: the kernel ignores it for root, even in a user
namespace. Where a cgroup cannot be had (no cgroup filesystem, no right to create one: no
delegation), grading goes on and `Cgroup.unprotected` says, loudly, what is then unprotected.
"""
from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

GIB, MIB = 1024 ** 3, 1024 ** 2
CGROUP_ROOT = Path("/sys/fs/cgroup")
CGROUP_PREFIX = "gradient-tape-grading-"  # each worker's sandbox: CGROUP_PREFIX + its process id + a suffix


def default_tasks() -> int:
    """Processes and threads for one sandbox: the fork server's and a kernel's (about 40 together with
    their thread pools sized for one kernel, see sandbox.ENVIRONMENT), what a notebook may start, and
    a share per core for the pools that still follow the core count."""
    return 128 + 8 * (os.cpu_count() or 1)


@dataclass(frozen=True)
class Limits:
    memory: int = 4 * GIB  # a kernel's address space: a graded TensorFlow notebook reaches about 2 GiB
    sandbox_memory: int = 8 * GIB  # the whole sandbox: fork server, kernel, what it starts and its tmpfs files
    cpu_seconds: int = 600  # a kernel's CPU time: a graded notebook uses well under a minute
    tasks: int | None = None  # processes and threads in the sandbox; None: default_tasks() where it runs
    folder_bytes: int = 512 * MIB  # the submission's folder, and /tmp
    scratch_bytes: int = 64 * MIB  # home and /dev/shm

    def rlimits(self) -> dict[str, int]:
        """The per-process limits the fork server sets in each kernel, by `resource` name."""
        return {"RLIMIT_AS": self.memory, "RLIMIT_CPU": self.cpu_seconds}


def _own_cgroups() -> dict[str, str]:
    """{controller ("" for cgroup v2): this process's cgroup path} from /proc/self/cgroup."""
    found = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            found[controller] = path
    return found


def _v1_mounts() -> dict[str, tuple[Path, str]]:
    """{controller: (mount point, the hierarchy's path at that mount)} of cgroup v1 hierarchies."""
    mounts = {}
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        dash = fields.index("-")
        if fields[dash + 1] == "cgroup":
            for option in fields[dash + 3].split(","):
                mounts.setdefault(option, (Path(fields[4]), fields[3]))
    return mounts


@dataclass
class Cgroup:
    """The cgroup (or, on cgroup v1, one per controller) a worker's whole sandbox runs in."""

    limits: Limits
    folders: dict[str, Path] = field(default_factory=dict)  # {"pids": ..., "memory": ...}, those it has
    unprotected: list[str] = field(default_factory=list)  # what could not be limited, and what that leaves open

    @classmethod
    def create(cls, limits: Limits) -> "Cgroup":
        group = cls(limits)
        name = f"{CGROUP_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
        tasks = limits.tasks or default_tasks()
        wanted = {"pids": [("pids.max", tasks)],
                  "memory": [("memory.max", limits.sandbox_memory), ("memory.limit_in_bytes", limits.sandbox_memory)]}
        for controller, settings in wanted.items():
            try:
                folder = _make(controller, name)
                for file, value in settings:
                    if (folder / file).exists():
                        (folder / file).write_text(str(value))
                group.folders[controller] = folder
            except OSError as error:
                group.unprotected.append(_UNPROTECTED[controller].format(why=_why(error), tasks=tasks,
                                                                           memory=limits.memory // GIB))
        return group

    def procs_files(self) -> list[Path]:
        return sorted({folder / "cgroup.procs" for folder in self.folders.values()})

    def counters(self) -> dict[str, int]:
        """How often the sandbox met each limit so far (read from outside it, where no kernel can write)."""
        counts = {}
        if "pids" in self.folders:
            counts["tasks"] = _field(self.folders["pids"] / "pids.events", "max")
        if "memory" in self.folders:
            events = self.folders["memory"] / "memory.events"  # v2; v1 counts in memory.oom_control
            counts["memory"] = _field(events if events.exists() else self.folders["memory"] / "memory.oom_control",
                                      "oom_kill")
        return counts

    def met(self, before: dict[str, int]) -> list[str]:
        """The reasons for each limit met since `before` (an earlier `counters()`)."""
        now = self.counters()
        reasons = []
        if now.get("tasks", 0) > before.get("tasks", 0):
            reasons.append(f"it reached the sandbox's limit of {self.limits.tasks or default_tasks()} processes "
                           "and threads: starting more failed")
        if now.get("memory", 0) > before.get("memory", 0):
            reasons.append(f"it used up the sandbox's {self.limits.sandbox_memory / GIB:g} GiB of memory: "
                           "a process was killed")
        return reasons

    def remove(self) -> None:
        """Remove the cgroups once their processes are gone (bubblewrap ends them with the fork server)."""
        for folder in self.folders.values():
            for _ in range(50):
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # its last processes are still exiting
                    time.sleep(0.1)
        self.folders.clear()


_UNPROTECTED = {
    "pids": "no process limit ({why}): student code can start processes and threads without limit "
            "(a fork bomb can take this machine down) instead of {tasks}",
    "memory": "no memory limit for the sandbox as a whole ({why}): only each process's address space "
              "is limited ({memory} GiB), so many processes together can exhaust this machine's memory",
}


def _make(controller: str, name: str) -> Path:
    """Create cgroup `name` beside this process's own cgroup (where it may create one), with `controller`."""
    own = _own_cgroups()
    mounts = _v1_mounts()
    if controller in mounts and controller in own:  # cgroup v1 (alone, or hybrid with v2)
        mount, mount_root = mounts[controller]
        parent = mount / os.path.relpath(own[controller], mount_root)
    elif "" in own and (CGROUP_ROOT / "cgroup.controllers").exists():  # cgroup v2
        parent = CGROUP_ROOT / own[""].lstrip("/")
        enabled = (parent / "cgroup.subtree_control").read_text().split()
        if controller not in enabled:
            (parent / "cgroup.subtree_control").write_text(f"+{controller}")
    else:
        raise FileNotFoundError(f"no cgroup hierarchy has the {controller} controller")
    _remove_stale(parent)
    folder = parent / name
    folder.mkdir(exist_ok=True)  # on cgroup v2 one folder holds every controller
    return folder


def _remove_stale(parent: Path) -> None:
    """Remove the empty cgroups of workers that were killed before they could remove their own."""
    for folder in parent.glob(f"{CGROUP_PREFIX}*"):
        pid = folder.name[len(CGROUP_PREFIX):].split("-")[0]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists():
            try:
                folder.rmdir()
            except OSError:
                pass


def _why(error: OSError) -> str:
    if not error.filename:
        return str(error)
    path = Path(error.filename)
    # a worker's own cgroup has its pid in its name: say where it was to be made, the same words for every worker
    where = f"creating a cgroup in {path.parent}" if path.name.startswith(CGROUP_PREFIX) else str(path)
    return f"{error.strerror or type(error).__name__}: {where}"


def _field(path: Path, name: str) -> int:
    try:
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == name:
                return int(value)
    except OSError:
        pass
    return 0


# The command that enters the cgroups, then runs the sandbox: its arguments are the cgroup.procs
# files, "--", then the command (a shell, so the cgroups hold the sandbox from its first process on).
ENTER = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'


def enter(command: list[str], cgroup: Cgroup) -> list[str]:
    files = cgroup.procs_files()
    return ["/bin/sh", "-c", ENTER, "sh", *map(str, files), "--", *command] if files else command
