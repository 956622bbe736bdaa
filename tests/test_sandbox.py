"""The sandbox and the fork server: probe submissions see nothing of the machine but what the kernel
needs, cannot reach the network, write outside their folder, outgrow its limits, or leave anything
behind for the next student; each limit they meet is reported with a reason."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import uuid
from pathlib import Path

import nbformat
import pytest

from autograder.grading import forkserver, limits, pool, sandbox

needs_bubblewrap = pytest.mark.skipif(shutil.which("bwrap") is None,
                                      reason="bubblewrap is not installed (`make sandbox-deps` installs it)")


def notebook(*cells) -> str:
    return nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(textwrap.dedent(c)) for c in cells]))


# A probe's first cell: each attempt prints what it tried and whether it was refused.
ATTEMPT = """
def attempt(what, action):
    try:
        action()
        print(what, "DONE")
    except Exception as error:
        print(what, "refused", type(error).__name__)
"""


def printed(result: pool.Result, cell: int = 0) -> str:
    assert result.notebook, result.error
    return "".join(o.get("text", "") for o in nbformat.reads(result.notebook, as_version=4).cells[cell].outputs)


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course folder with solutions, a gradebook and another student's work in it."""
    root = tmp_path_factory.mktemp("course")
    theirs = root / "autograded" / "bob" / "01_demo"
    for folder in (theirs, root / "source" / "01_demo"):
        folder.mkdir(parents=True)
    (root / "source" / "01_demo" / "01_demo.ipynb").write_text("hidden tests and solutions")
    (root / "gradebook.db").write_text("everyone's grades")
    (theirs / "01_demo.ipynb").write_text("bob's answers")
    return root


@pytest.fixture(scope="module")
def worker(course, outside):
    """One sandboxed worker for the module, with the limits instructors get: its fork server imports TensorFlow once."""
    worker = pool.Worker(pool.Settings(execute_config={"timeout": 5, "startup_timeout": 120}))
    worker.start()
    yield worker
    worker.stop()


@pytest.fixture(scope="module")
def outside(tmp_path_factory):
    """What the grading machine holds outside the course: another course's hidden tests in /var/tmp,
    and a secret in the grader's environment (a token, a cloud credential), set before workers start."""
    folder = Path("/var/tmp") / f"another-course-{uuid.uuid4().hex}"
    folder.mkdir()
    (folder / "hidden_tests.py").write_text("assert answer == 42")
    os.environ["GRADER_SECRET_TOKEN"] = "hunter2"
    yield folder
    del os.environ["GRADER_SECRET_TOKEN"]
    shutil.rmtree(folder)


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_probe_sees_and_reaches_nothing_but_its_own_folder(course, worker):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    left_behind = Path("/tmp") / f"left-behind-{uuid.uuid4().hex}.txt"

    result = worker.run(pool.Task("ada", notebook(ATTEMPT, f"""
        import ctypes, os, socket
        libc = ctypes.CDLL(None, use_errno=True)
        def unmount(path):  # the empty folder that hides the course, as root could
            if libc.umount2(path.encode(), 2) != 0:
                raise PermissionError(os.strerror(ctypes.get_errno()))
        attempt("unmount /usr", lambda: unmount("/usr"))
        attempt("read source", lambda: open({str(course / 'source' / '01_demo' / '01_demo.ipynb')!r}).read())
        attempt("read gradebook", lambda: open({str(course / 'gradebook.db')!r}).read())
        attempt("read other student", lambda: open({str(course / 'autograded' / 'bob' / '01_demo' / '01_demo.ipynb')!r}).read())
        attempt("write course root", lambda: open({str(course / 'planted.txt')!r}, "w").write("x"))
        attempt("write own folder", lambda: open("answer.txt", "w").write("mine"))
        attempt("write tmp", lambda: open({str(left_behind)!r}, "w").write("x"))
        attempt("connect", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=3))
        attempt("allocate 5 GiB", lambda: bytearray(5 * 1024 ** 3))
        attempt("read the fork server's memory", lambda: open(f"/proc/{{os.getppid()}}/mem", "rb").read(1))
        print("home holds", sorted(os.listdir(os.path.expanduser("~"))))
    """, "bytearray(5 * 1024 ** 3)  # not caught: the report says why the cell failed")))
    listener.close()
    said = printed(result, 1)

    for refused in ("unmount /usr", "read source", "read gradebook", "read other student", "connect",
                    "read the fork server's memory"):
        assert f"{refused} refused" in said, said
    assert "allocate 5 GiB refused MemoryError" in said
    assert result.limits == ["a cell ran out of memory: a process may use 4 GiB of address space"]
    # its folder is a tmpfs inside the sandbox: the executed notebook is all that comes back
    assert "write own folder DONE" in said and not (worker.slot / "answer.txt").exists()
    assert not (course / "planted.txt").exists()  # it wrote into an empty stand-in, thrown away
    assert "write tmp DONE" in said and not left_behind.exists()  # a private /tmp
    assert (course / "gradebook.db").read_text() == "everyone's grades"


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_probe_sees_nothing_of_the_machine_but_what_the_kernel_needs(worker, outside):
    """An allow-list: the Python environment, /usr and a few files of /etc, read-only; nothing else."""
    result = worker.run(pool.Task("eve", notebook(ATTEMPT, f"""
        import json, os
        attempt("read another course", lambda: open({str(outside / 'hidden_tests.py')!r}).read())
        attempt("read /etc/shadow", lambda: open("/etc/shadow").read())
        attempt("write /etc", lambda: open("/etc/planted", "w").write("x"))
        attempt("write the root", lambda: open("/planted", "w").write("x"))
        top = dict()  # each mount point's last mount: the one the kernel sees (the server's are under its own)
        for m in (line.split() for line in open("/proc/self/mountinfo")):
            top[m[4]] = m
        writable = [(m[4], m[m.index("-") + 1]) for m in top.values() if m[5].split(",")[0] == "rw"]
        # what the sandbox was started with (a forked kernel's /proc/self/environ is its fork server's)
        started = dict(v.split("=", 1) for v in open("/proc/self/environ").read().split("\\0") if v)
        print(json.dumps({{"environ": dict(os.environ), "started": started, "root": os.listdir("/"),
                          "etc": os.listdir("/etc"), "writable": writable, "folder": os.listdir(".")}}))
    """), files={"data.csv": b"x,y"}))
    said = printed(result, 1)
    for refused in ("read another course", "read /etc/shadow", "write /etc", "write the root"):
        assert f"{refused} refused" in said, said
    seen = __import__("json").loads(said.splitlines()[-1])
    # nothing of the grader's environment entered the sandbox (bubblewrap's --chdir sets PWD)
    assert seen["started"] == {**sandbox.environment(), "PWD": "/"}
    assert "GRADER_SECRET_TOKEN" in os.environ and "GRADER_SECRET_TOKEN" not in seen["environ"]
    assert seen["environ"]["NBGRADER_EXECUTION"] == "autograde"  # the one variable taken from grading
    # (the rest of the kernel's variables are its libraries' own: ipykernel's PAGER, TensorFlow's TF2_BEHAVIOR...)
    python = {Path(folder).parts[1] for folder in sandbox.python_folders()}
    assert set(seen["root"]) <= {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "dev", "proc",
                                 "tmp", "home", "run", "submission", *python}, seen["root"]
    assert not {"var", "srv", "opt", "sys", "mnt", "media"} & (set(seen["root"]) - python)
    assert set(seen["etc"]) <= {"passwd", "group", "ld.so.cache", "fonts", "localtime"}, seen["etc"]
    assert seen["folder"] == ["data.csv"]  # its files, not the notebook with the hidden tests nbgrader put back
    # what it can write to is memory (size-limited tmpfs of its own), devices and /proc: never this machine's disk;
    # its socket folder was made read-only once its sockets were bound
    assert {kind for _, kind in seen["writable"]} <= {"tmpfs", "devtmpfs", "devpts", "proc"}, seen["writable"]
    assert {where for where, kind in seen["writable"] if kind == "tmpfs"} == set(
        sandbox.writable_folders(worker.settings.limits)) - {sandbox.KERNEL_FOLDER}, seen["writable"]
    assert result.limits == []


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_300_processes_are_refused_and_the_report_says_why(worker):
    assert "pids" in worker.cgroup.folders, f"this machine cannot limit processes: {worker.cgroup.unprotected}"
    result = worker.run(pool.Task("mallory", notebook("""
        import subprocess
        started = []
        try:
            for _ in range(300):
                started.append(subprocess.Popen(["sleep", "60"]))
        except OSError as error:
            print("refused after", len(started), type(error).__name__)
    """, "print('the next cell runs')")))
    said = printed(result)
    assert said.startswith("refused after ") and int(said.split()[2]) < limits.default_tasks(), said
    assert printed(result, 1) == "the next cell runs\n"
    assert any("limit of" in reason and "processes and threads" in reason for reason in result.limits), result.limits


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_3_gb_of_writes_are_refused_and_the_report_says_why(worker):
    result = worker.run(pool.Task("mallory", notebook("""
        import os
        def fill(path, gib=3):
            written = 0
            try:
                with open(path, "wb") as file:
                    for _ in range(gib * 1024):
                        file.write(b"x" * 2 ** 20)
                        written += 1
            except OSError as error:
                print(path, "refused after", written, "MiB", error.strerror)
        fill("answer.bin")
        fill("/tmp/answer.bin")
        fill(os.path.expanduser("~/answer.bin"))
        fill("/dev/shm/answer.bin")
        from ipykernel import get_connection_file  # the folder the kernel shares with its client
        fill(get_connection_file().replace("kernel.json", "answer.bin"))
    """)))
    said = printed(result).splitlines()
    assert len(said) == 5 and all("No space left on device" in line for line in said[:4]), said
    assert all(int(line.split()[3]) <= 512 for line in said), said
    assert said[4].endswith("refused after 0 MiB Read-only file system"), said  # the socket folder, once bound
    for where, size in (("its folder", 512), ("/tmp", 512), (sandbox.HOME, 64), ("/dev/shm", 64)):
        assert f"it filled {where} ({size} MiB, the sandbox's limit): writes there failed" in result.limits, result.limits
    assert not list(worker.scratch.rglob("answer.bin"))  # nothing reached this machine's disk


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_cpu_bound_loop_is_ended_at_its_cpu_time_and_the_report_says_why():
    """Besides each cell's wall-clock limit: here 3 s of CPU against a minute of wall clock."""
    strict = pool.Worker(pool.Settings(execute_config={"timeout": 60, "startup_timeout": 120},
                                       limits=limits.Limits(cpu_seconds=3)))
    try:
        result = strict.run(pool.Task("mallory", notebook("while True:\n    pass")))
        assert result.notebook is None and "DeadKernelError" in result.error, result
        assert result.limits == ["the kernel used up its 3 s of CPU time and was ended"]
        ignoring = strict.run(pool.Task("mallory", notebook(  # SIGXCPU ignored: killed at the hard limit
            "import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True:\n    pass")))
        assert ignoring.notebook is None and ignoring.limits == result.limits, ignoring
        assert printed(strict.run(pool.Task("bob", notebook("print('next')")))) == "next\n"
    finally:
        strict.stop()


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_outputs_past_the_cap_are_dropped_with_a_note_but_not_what_scores_a_cell():
    """The executed notebook is all that comes back, and it comes back size-capped; an error or stderr past
    the cap still gives its cell 0, as nbgrader scores it."""
    capped = pool.Worker(pool.Settings(execute_config={"timeout": 60, "startup_timeout": 120, "output_bytes": 2 ** 20}))
    try:
        result = capped.run(pool.Task("mallory", notebook(
            "for _ in range(3 * 1024):\n    print('x' * 1024)", "print('never shown')",
            "import sys\nfor _ in range(3):\n    print('e' * 10 ** 5, file=sys.stderr)", "raise ValueError('v' * 10 ** 5)")))
        nb = nbformat.reads(result.notebook, as_version=4)
        text = [o.get("text", "") for cell in nb.cells[:2] for o in cell.outputs]
        assert sum(map(len, text)) < 1.1 * 2 ** 20 and "never shown" not in "".join(text)
        assert text[-1] == "[outputs dropped from here on: this submission's outputs passed 1 MiB]\n", text[-1:]
        assert [(o.output_type, o.get("name")) for o in nb.cells[2].outputs] == [("stream", "stderr")]
        assert len(nb.cells[2].outputs[0].text) == 1024
        assert [(o.output_type, o.ename, len(o.evalue)) for o in nb.cells[3].outputs] == [("error", "ValueError", 1024)]
    finally:
        capped.stop()


def test_where_no_cgroup_can_be_had_the_report_says_what_is_unprotected(monkeypatch, tmp_path):
    monkeypatch.setattr(limits, "_v1_mounts", dict)
    monkeypatch.setattr(limits, "CGROUP_ROOT", tmp_path)  # no cgroup v2 either
    group = limits.Cgroup.create(limits.Limits())
    assert group.folders == {} and len(group.unprotected) == 3
    assert "no process limit" in group.unprotected[0] and "fork bomb" in group.unprotected[0]
    assert "no memory limit for the sandbox as a whole" in group.unprotected[1]
    assert "no CPU limit per submission" in group.unprotected[2]
    from autograder.grading.coordinator import Outcome, report
    said = report("01_demo", [Outcome("ada", unprotected=group.unprotected), Outcome("bob", unprotected=group.unprotected)])
    assert said.splitlines()[:3] == [f"WARNING: {why}" for why in sorted(group.unprotected)]


def test_on_cgroup_v2_each_submission_gets_its_own_cgroup_with_the_limits(monkeypatch, tmp_path):
    """Checked on a copy of the files cgroup v2 shows (this machine mounts cgroup v1): the worker's cgroup holds
    no process (v2 hands controllers only to the children of such a cgroup), its server's and its submissions' do."""
    (tmp_path / "grading.slice").mkdir()
    (tmp_path / "cgroup.controllers").write_text("cpu memory pids\n")
    (tmp_path / "grading.slice" / "cgroup.subtree_control").write_text("memory\n")
    monkeypatch.setattr(limits, "_v1_mounts", dict)
    monkeypatch.setattr(limits, "_own_cgroups", lambda: {"": "/grading.slice"})
    monkeypatch.setattr(limits, "CGROUP_ROOT", tmp_path)
    mkdir, write_text = Path.mkdir, Path.write_text

    def kernels_mkdir(self, *args, **kwargs):  # as the kernel does, a new cgroup comes with its files
        new = not self.exists()
        mkdir(self, *args, **kwargs)
        for name in ("pids.max", "memory.max", "cpu.max", "cgroup.procs", "cgroup.kill", "cgroup.subtree_control") if new else ():
            write_text(self / name, "" if name.startswith("cgroup") else "max\n")

    def kernels_write_text(self, text):  # as the kernel does, "+pids" adds pids to the enabled controllers
        if self.name == "cgroup.subtree_control":
            text = " ".join(sorted({*self.read_text().split(), text.lstrip("+")}))
        return write_text(self, text)

    monkeypatch.setattr(Path, "mkdir", kernels_mkdir)
    monkeypatch.setattr(Path, "write_text", kernels_write_text)
    group = limits.Cgroup.create(limits.Limits(tasks=77, cpus=1.5))
    assert group.unprotected == []
    worker = tmp_path / "grading.slice" / group.folders["pids"].name
    assert (tmp_path / "grading.slice" / "cgroup.subtree_control").read_text() == "cpu memory pids"
    assert group.folders == dict.fromkeys(("pids", "memory", "cpu"), worker)
    assert (worker / "cgroup.subtree_control").read_text() == "cpu memory pids"
    assert group.procs_files() == [worker / "server" / "cgroup.procs"]
    submission = group.submission()
    assert submission.unprotected == [] and set(submission.folders.values()) == {worker / submission.folders["pids"].name}
    folder = submission.folders["pids"]
    assert (folder / "pids.max").read_text() == "77"
    assert (folder / "memory.max").read_text() == str(8 * limits.GIB)
    assert (folder / "cpu.max").read_text() == "150000 100000"
    assert submission.kill() and (folder / "cgroup.kill").read_text() == "1"


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_the_next_student_finds_nothing_the_last_one_left(worker):
    """A fresh process per submission, and /tmp, home and the folder emptied: no state crosses over."""
    first = worker.run(pool.Task("ada", notebook("""
        import builtins, os, subprocess
        builtins.planted = "ada was here"
        for path in ("/tmp/planted.txt", os.path.expanduser("~/planted.txt"), "planted.txt"):
            open(path, "w").write("ada")
        daemon = subprocess.Popen(["sleep", "600"], start_new_session=True)
        started = open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]  # since boot: no namespace hides it
        print("kernel", started, "daemon", daemon.pid)
    """)))
    kernel, daemon = printed(first).split()[1::2]

    second = worker.run(pool.Task("bob", notebook(f"""
        import builtins, os
        print("planted global", hasattr(builtins, "planted"))
        for path in ("/tmp/planted.txt", os.path.expanduser("~/planted.txt"), "planted.txt"):
            print(path, os.path.exists(path))
        print("daemon alive", os.path.exists("/proc/{daemon}"))
        print("same kernel", open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19] == "{kernel}")
        print("pid", os.getpid())  # never its namespace's init, which ends everything in it
    """)))
    said = printed(second)
    assert "planted global False" in said and "daemon alive False" in said and "same kernel False" in said, said
    assert "pid 2" in said, said
    # fork(2) copies only the calling thread: the server forks while it has no other
    assert forkserver.ping(str(worker.server_folder / "server"))["threads"] == 1
    assert "True" not in said, said


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_kernel_that_signals_every_process_it_can_ends_only_itself(worker):
    """Its own PID namespace: kill(-1) and its parent reach nothing of the server's, whose next kernel is forked
    from the same warm process; a process it left to write into the next submission's folder dies with it."""
    server = worker.server_pid
    worker.run(pool.Task("mallory", notebook("""
        import os, signal, subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time\\nwhile True:\\n    open('intruder.txt', 'w').write('x')\\n    time.sleep(0.05)"],
                         start_new_session=True)
        print("parent", os.getppid())
        os.kill(os.getppid(), signal.SIGKILL)  # its namespace's init ignores it
        os.kill(-1, signal.SIGKILL)  # every process it may signal: its own, and itself
    """)))
    after = worker.run(pool.Task("bob", notebook("""
        import os, time
        time.sleep(1)
        print(6 * 7, os.path.exists("intruder.txt"))
    """)))
    assert printed(after) == "42 False\n"
    assert worker.server_pid == server and worker.server.poll() is None


def test_a_killed_workers_folder_is_removed_when_the_next_worker_starts(monkeypatch, tmp_path):
    """A worker killed before its `stop` (a Dask worker's process ended by its nanny) leaves its folder in
    /tmp: the next worker removes it, and leaves a living worker's folder alone."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ended = subprocess.Popen(["true"])
    ended.wait()
    stale = tmp_path / f"{pool.SCRATCH_PREFIX}{ended.pid}-k1ll3d"
    (stale / "submission").mkdir(parents=True)
    (stale / "submission" / "answers.ipynb").write_text("{}")
    living = tmp_path / f"{pool.SCRATCH_PREFIX}{os.getppid()}-al1ve0"
    living.mkdir()
    worker = pool.Worker(pool.Settings(execute_config={}, sandboxed=False))
    try:
        assert not stale.exists()
        assert living.exists()
        assert worker.scratch.parent == tmp_path and worker.scratch.name.startswith(f"{pool.SCRATCH_PREFIX}{os.getpid()}-")
    finally:
        worker.stop()
    assert not worker.scratch.exists()


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_kernel_that_exits_is_reported_and_the_next_one_runs(worker):
    gone = worker.run(pool.Task("mallory", notebook("import os\nos._exit(3)", "print('after')")))
    assert gone.notebook is None and "DeadKernelError" in gone.error, gone
    assert printed(worker.run(pool.Task("bob", notebook("print('next')")))) == "next\n"


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_an_endless_loop_is_interrupted_and_the_next_cell_runs(worker):
    """A signal would end bubblewrap and the kernel with it; the interrupt goes over the control channel."""
    result = worker.run(pool.Task("ada", notebook("while True:\n    pass", "print('after the loop')")))
    nb = nbformat.reads(result.notebook, as_version=4)
    assert "KeyboardInterrupt" in [o.get("ename") for o in nb.cells[0].outputs]  # and nbgrader's CellTimeoutError
    assert nb.cells[1].outputs[0]["text"] == "after the loop\n"


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_loop_no_interrupt_stops_ends_the_kernel_and_what_did_not_run_scores_nothing(worker):
    """Stock nbgrader would wait each later cell's whole time limit for a kernel stuck in a tf.function."""
    result = worker.run(pool.Task("ada", notebook(
        "print('before')",
        "import tensorflow as tf\n@tf.function\ndef forever():\n    i = tf.constant(0)\n"
        "    while tf.constant(True):\n        i += 1\n    return i\nforever()",
        "print('after')", "print('and after')")))
    nb = nbformat.reads(result.notebook, as_version=4)
    assert nb.cells[0].outputs[0]["text"] == "before\n"
    errors = [[o for o in cell.outputs if o.output_type == "error"] for cell in nb.cells[1:]]
    assert all(e and e[-1]["ename"] == "KernelStuck" for e in errors), errors
    assert "a loop inside a tf.function ignores interrupts" in errors[0][-1]["evalue"]
    assert "not run" in errors[1][-1]["evalue"] and not any(o.get("text") for o in nb.cells[2].outputs)
    assert printed(worker.run(pool.Task("bob", notebook("print('next')")))) == "next\n"


def test_a_python_environment_in_tmp_is_mounted_over_the_sandboxs_tmp(monkeypatch, tmp_path):
    """Mounts are made in order: the environment's read-only view must come after /tmp's tmpfs, and each
    kernel binds it again over its own new /tmp."""
    monkeypatch.setattr(sandbox, "python_folders", lambda: [Path("/tmp/clone/.venv"), Path("/opt/python")])
    args = sandbox.sandbox_command(tmp_path, Path("/tmp/w/server"), Path("/tmp/w/inbox"), info_fd=3)
    mounted = [args[i + 1] for i, arg in enumerate(args) if arg in ("--tmpfs", "--ro-bind", "--bind")]
    assert mounted.index("/tmp/clone/.venv") > mounted.index("/tmp")
    assert mounted.index("/tmp/w/inbox") > mounted.index("/tmp") and mounted.index("/tmp/w/server") > mounted.index("/tmp")
    assert sandbox.rebound_folders() == ["/tmp/clone/.venv"]


def test_a_worker_whose_fork_server_cannot_start_says_why_with_each_submission(monkeypatch):
    """Its pool process stays up (a failed initializer would break the pool, unexplained) and every submission it
    is given fails with the reason, which the report then gives for each student."""
    def cannot(self):
        raise RuntimeError("the fork server did not start: bwrap: execvp /env/bin/python: No such file or directory")

    monkeypatch.setattr(pool.Worker, "launch", cannot)
    monkeypatch.setattr(pool, "_not_started", "")
    monkeypatch.setattr(pool, "_worker", None)
    pool._start_worker(pool.Settings(execute_config={}, sandboxed=False))
    with pytest.raises(RuntimeError, match="this grading worker could not start: RuntimeError: the fork server did "
                                           "not start: bwrap: execvp /env/bin/python"):
        pool.run_task(pool.Task("ada", nbformat.writes(nbformat.v4.new_notebook())))


def test_workers_that_cannot_make_their_cgroups_give_the_report_one_warning_per_limit(monkeypatch):
    """A grader without the right to make cgroups (not root): each worker fails on a folder named after its pid."""
    def refused(controller, name):
        raise PermissionError(13, "Permission denied", f"/sys/fs/cgroup/{controller}/grading/{name}")

    monkeypatch.setattr(limits, "_make", refused)
    groups = [limits.Cgroup.create(limits.Limits()) for _ in range(2)]
    assert groups[0].unprotected == groups[1].unprotected, groups
    assert "Permission denied: creating a cgroup in /sys/fs/cgroup/pids/grading" in groups[0].unprotected[0]
    from autograder.grading.coordinator import Outcome, report
    said = report("01_demo", [Outcome("ada", unprotected=groups[0].unprotected),
                              Outcome("bob", unprotected=groups[1].unprotected)])
    assert [line for line in said.splitlines() if line.startswith("WARNING")] == [
        f"WARNING: {why}" for why in sorted(groups[0].unprotected)]


def test_an_environment_reached_through_a_link_runs_from_the_folder_the_sandbox_binds(monkeypatch, tmp_path):
    """`.hub-venv -> /var/cache/...`: the sandbox binds the real folder, so the fork server must start from it."""
    real = tmp_path / "cache" / "env"
    (real / "bin").mkdir(parents=True)
    (tmp_path / "clone").mkdir()
    (tmp_path / "clone" / ".venv").symlink_to(real)
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "clone" / ".venv"))
    monkeypatch.setattr(sys, "exec_prefix", str(tmp_path / "clone" / ".venv"))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "clone" / ".venv" / "bin" / "python"))
    assert sandbox.python_executable() == str(real / "bin" / "python")
    assert real in sandbox.python_folders()


def test_without_bubblewrap_grading_is_refused_with_what_to_do(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(sandbox.SandboxUnavailable, match="bubblewrap \\(bwrap\\) is not installed.*--unsandboxed"):
        sandbox.check_bubblewrap()


@needs_bubblewrap
def test_bubblewrap_works_here():
    sandbox.check_bubblewrap()  # the machine the course is tested on can sandbox
