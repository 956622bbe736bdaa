"""The limits room: what one submission may use, and what the grading report says when it meets a limit.

| limit                          | how                                          | when student code meets it              |
|--------------------------------|----------------------------------------------|-----------------------------------------|
| address space, each process    | RLIMIT_AS in each kernel (forkserver)        | MemoryError in the cell                 |
| CPU time, each process         | RLIMIT_CPU in each kernel                    | the process is ended (SIGXCPU)          |
| processes and threads          | pids.max of the submission's own cgroup      | fork or thread start fails (EAGAIN)     |
| memory, the whole submission   | the same cgroup's memory limit               | the kernel is killed (out of memory)    |
| CPU, the whole submission      | the same cgroup's CPU bandwidth (cpu.max)    | its processes share `cpus` cores        |
| wall clock, the whole submission | the worker kills the cgroup at `wall_seconds` | the cells not run score nothing       |
| disk                           | the size of each writable tmpfs              | writes fail (ENOSPC, No space left)     |

Each worker has a cgroup for its sandbox (`Cgroup`), holding the fork server's (`server`) and, one
at a time, a submission's (`Cgroup.submission`): the server is moved into a new one just before it
forks a kernel and back out once the kernel is up, so everything the kernel starts is in it, and
when the submission ends every process in it is killed (`SubmissionCgroup.kill`) and it is removed.
RLIMIT_NPROC cannot stand in for pids.max: the kernel ignores it for root, even in a user
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
    scratch_bytes: int = 64 * MIB  # home, /dev/shm and the kernel's socket folder
    cpus: float = 1.0  # cores one submission's processes share: grading runs one worker per core
    # The whole submission, start to end: a graded notebook takes well under 30 s (`make bench` holds it
    # there) and a class's share of a slow, loaded grader a few times that; a cell's own limit is 120 s.
    wall_seconds: int = 300

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


CONTROLLERS = ("pids", "memory", "cpu")
CPU_PERIOD = 100_000  # microseconds


@dataclass
class Cgroup:
    """A worker's cgroup (or, on cgroup v1, one per controller): its fork server's, and its submissions' below it."""

    limits: Limits
    folders: dict[str, Path] = field(default_factory=dict)  # {"pids": ..., "memory": ..., "cpu": ...}, those it has
    unprotected: list[str] = field(default_factory=list)  # what could not be limited, and what that leaves open

    @classmethod
    def create(cls, limits: Limits) -> "Cgroup":
        group = cls(limits)
        name = f"{CGROUP_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
        for controller in CONTROLLERS:
            try:
                folder = _make(controller, name)
                # cgroup v2 lets only a cgroup without processes hand controllers to its children: the
                # server has a child of its own, beside the submissions'
                subtree = folder / "cgroup.subtree_control"
                if subtree.exists():
                    subtree.write_text(f"+{controller}")
                (folder / "server").mkdir(exist_ok=True)
                group.folders[controller] = folder
            except OSError as error:
                group.unprotected.append(_UNPROTECTED[controller].format(
                    why=_why(error), tasks=limits.tasks or default_tasks(), memory=limits.memory // GIB))
        return group

    def procs_files(self) -> list[Path]:
        """Where the fork server's sandbox is put: the worker's `server` cgroups."""
        return sorted({folder / "server" / "cgroup.procs" for folder in self.folders.values()})

    def submission(self) -> "SubmissionCgroup":
        """A new cgroup for one submission, with its limits; the unprotected list says what it could not set."""
        limits = self.limits
        wanted = {"pids": [("pids.max", limits.tasks or default_tasks())],
                  "memory": [("memory.max", limits.sandbox_memory), ("memory.limit_in_bytes", limits.sandbox_memory)],
                  "cpu": [("cpu.max", f"{int(limits.cpus * CPU_PERIOD)} {CPU_PERIOD}"),
                          ("cpu.cfs_period_us", CPU_PERIOD), ("cpu.cfs_quota_us", int(limits.cpus * CPU_PERIOD))]}
        name = f"submission-{uuid.uuid4().hex[:8]}"
        group = SubmissionCgroup(limits)
        for controller, parent in {**self.folders}.items():  # v2: one folder for them all
            folder = parent / name
            try:
                folder.mkdir(exist_ok=True)
                group.folders[controller] = folder
                for file, value in wanted[controller]:
                    if (folder / file).exists():
                        (folder / file).write_text(str(value))
            except OSError as error:
                group.unprotected.append(_UNPROTECTED[controller].format(
                    why=_why(error), tasks=limits.tasks or default_tasks(), memory=limits.memory // GIB))
        return group

    def remove(self) -> None:
        """Remove the cgroups once their processes are gone (bubblewrap ends them with the fork server)."""
        for folder in self.folders.values():
            _rmdir(folder / "server")
            _rmdir(folder)
        self.folders.clear()


@dataclass
class SubmissionCgroup:
    """One submission's cgroup: its limits, what it met, and the end of every process in it."""

    limits: Limits
    folders: dict[str, Path] = field(default_factory=dict)
    unprotected: list[str] = field(default_factory=list)

    def procs_files(self) -> list[Path]:
        return sorted({folder / "cgroup.procs" for folder in self.folders.values()})

    def counters(self) -> dict[str, int]:
        """How often the submission met each limit (read from outside its sandbox, where no kernel can write)."""
        counts = {}
        if "pids" in self.folders:
            counts["tasks"] = _field(self.folders["pids"] / "pids.events", "max")
        if "memory" in self.folders:
            events = self.folders["memory"] / "memory.events"  # v2; v1 counts in memory.oom_control
            counts["memory"] = _field(events if events.exists() else self.folders["memory"] / "memory.oom_control",
                                      "oom_kill")
        return counts

    def met(self) -> list[str]:
        """The reasons for each limit it met."""
        now = self.counters()
        reasons = []
        if now.get("tasks", 0):
            reasons.append(f"it reached the sandbox's limit of {self.limits.tasks or default_tasks()} processes "
                           "and threads: starting more failed")
        if now.get("memory", 0):
            reasons.append(f"it used up the sandbox's {self.limits.sandbox_memory / GIB:g} GiB of memory: "
                           "a process was killed")
        return reasons

    def pids(self) -> set[int]:
        found = set()
        for procs in self.procs_files():
            try:
                found |= {int(pid) for pid in procs.read_text().split()}
            except OSError:
                pass
        return found

    def kill(self) -> bool:
        """End every process in it, whatever it does (cgroup.kill on v2; v1: SIGKILL until none is left,
        which pids.max bounds). False if some survive."""
        for folder in self.folders.values():
            if (folder / "cgroup.kill").exists():
                try:
                    (folder / "cgroup.kill").write_text("1")
                except OSError:
                    pass
        for _ in range(500):
            pids = self.pids()
            if not pids:
                return True
            for pid in pids:
                try:
                    os.kill(pid, 9)
                except (ProcessLookupError, PermissionError):
                    pass
            time.sleep(0.01)
        return not self.pids()

    def remove(self) -> None:
        self.kill()
        for folder in self.folders.values():
            _rmdir(folder)
        self.folders.clear()


def _rmdir(folder: Path) -> None:
    for _ in range(50):
        try:
            folder.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:  # its last processes are still exiting
            time.sleep(0.1)


_UNPROTECTED = {
    "pids": "no process limit ({why}): student code can start processes and threads without limit "
            "(a fork bomb can take this machine down) instead of {tasks}",
    "memory": "no memory limit for the sandbox as a whole ({why}): only each process's address space "
              "is limited ({memory} GiB), so many processes together can exhaust this machine's memory",
    "cpu": "no CPU limit per submission ({why}): a submission's threads can take every core, and slow the "
           "other workers' students down (its CPU time is still limited per process)",
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
            for child in [*folder.glob("submission-*"), folder / "server", folder]:
                try:
                    child.rmdir()
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


def move(pid: int, procs_files: list[Path]) -> None:
    """Put process `pid` (not its children already running) into the cgroups whose cgroup.procs files are given."""
    for procs in procs_files:
        procs.write_text(str(pid))
