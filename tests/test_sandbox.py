"""The sandbox and the fork server: probe submissions cannot see the course, reach the network, write
outside their folder, or leave anything behind for the next student."""
import shutil
import socket
import textwrap
import uuid
from pathlib import Path

import nbformat
import pytest

from autograder.grading import pool, sandbox

needs_bubblewrap = pytest.mark.skipif(shutil.which("bwrap") is None,
                                      reason="bubblewrap is not installed (`make sandbox-deps` installs it)")


def notebook(*cells) -> str:
    return nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(textwrap.dedent(c)) for c in cells]))


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
def worker(course):
    """One sandboxed worker for the module: its fork server imports TensorFlow once."""
    worker = pool.Worker(pool.Settings(execute_config={"timeout": 5, "startup_timeout": 120},
                                       hidden=[str(course)]))
    worker.start()
    yield worker
    worker.stop()


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_probe_sees_and_reaches_nothing_but_its_own_folder(course, worker):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    left_behind = Path("/tmp") / f"left-behind-{uuid.uuid4().hex}.txt"

    result = worker.run(pool.Task("ada", "01_demo", notebook(f"""
        import ctypes, os, socket
        def attempt(what, action):
            try:
                action()
                print(what, "DONE")
            except Exception as error:
                print(what, "refused", type(error).__name__)
        libc = ctypes.CDLL(None, use_errno=True)
        def unmount(path):  # the empty folder that hides the course, as root could
            if libc.umount2(path.encode(), 2) != 0:
                raise PermissionError(os.strerror(ctypes.get_errno()))
        attempt("unmount the stand-in", lambda: unmount({str(course)!r}))
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
    """)))
    listener.close()
    said = printed(result)

    for refused in ("unmount the stand-in", "read source", "read gradebook", "read other student", "connect",
                    "read the fork server's memory"):
        assert f"{refused} refused" in said, said
    assert "allocate 5 GiB refused MemoryError" in said
    assert "write own folder DONE" in said and (worker.slot / "answer.txt").read_text() == "mine"
    assert not (course / "planted.txt").exists()  # it wrote into an empty stand-in, thrown away
    assert "write tmp DONE" in said and not left_behind.exists()  # a private /tmp
    assert (course / "gradebook.db").read_text() == "everyone's grades"


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_the_next_student_finds_nothing_the_last_one_left(worker):
    """A fresh process per submission, and /tmp, home and the folder emptied: no state crosses over."""
    first = worker.run(pool.Task("ada", "01_demo", notebook("""
        import builtins, os, subprocess
        builtins.planted = "ada was here"
        for path in ("/tmp/planted.txt", os.path.expanduser("~/planted.txt"), "planted.txt"):
            open(path, "w").write("ada")
        daemon = subprocess.Popen(["sleep", "600"], start_new_session=True)
        print("kernel", os.getpid(), "daemon", daemon.pid)
    """)))
    kernel, daemon = printed(first).split()[1::2]

    second = worker.run(pool.Task("bob", "01_demo", notebook(f"""
        import builtins, os
        print("planted global", hasattr(builtins, "planted"))
        for path in ("/tmp/planted.txt", os.path.expanduser("~/planted.txt"), "planted.txt"):
            print(path, os.path.exists(path))
        print("daemon alive", os.path.exists("/proc/{daemon}"))
        print("same kernel", os.getpid() == {kernel})
    """)))
    said = printed(second)
    assert "planted global False" in said and "daemon alive False" in said and "same kernel False" in said, said
    assert "True" not in said, said


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_kernel_that_kills_its_fork_server_only_ends_its_own_grading(worker):
    """Its sandbox goes with the server: a process it left to write into the next submission's folder dies too."""
    worker.run(pool.Task("mallory", "01_demo", notebook("""
        import os, signal, subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time\\nwhile True:\\n    open('intruder.txt', 'w').write('x')\\n    time.sleep(0.05)"],
                         start_new_session=True)
        os.kill(os.getppid(), signal.SIGKILL)
    """)))
    after = worker.run(pool.Task("bob", "01_demo", notebook("""
        import os, time
        time.sleep(1)
        print(6 * 7, os.path.exists("intruder.txt"))
    """)))
    assert printed(after) == "42 False\n"


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_kernel_that_exits_is_reported_and_the_next_one_runs(worker):
    gone = worker.run(pool.Task("mallory", "01_demo", notebook("import os\nos._exit(3)", "print('after')")))
    assert gone.notebook is None and "DeadKernelError" in gone.error, gone
    assert printed(worker.run(pool.Task("bob", "01_demo", notebook("print('next')")))) == "next\n"


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_an_endless_loop_is_interrupted_and_the_next_cell_runs(worker):
    """A signal would end bubblewrap and the kernel with it; the interrupt goes over the control channel."""
    result = worker.run(pool.Task("ada", "01_demo", notebook("while True:\n    pass", "print('after the loop')")))
    nb = nbformat.reads(result.notebook, as_version=4)
    assert "KeyboardInterrupt" in [o.get("ename") for o in nb.cells[0].outputs]  # and nbgrader's CellTimeoutError
    assert nb.cells[1].outputs[0]["text"] == "after the loop\n"


@needs_bubblewrap
@pytest.mark.notebooks  # a kernel forked from a fork server that imports TensorFlow
def test_a_loop_no_interrupt_stops_ends_the_kernel_and_what_did_not_run_scores_nothing(worker):
    """Stock nbgrader would wait each later cell's whole time limit for a kernel stuck in a tf.function."""
    result = worker.run(pool.Task("ada", "01_demo", notebook(
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
    assert printed(worker.run(pool.Task("bob", "01_demo", notebook("print('next')")))) == "next\n"


def test_without_bubblewrap_grading_is_refused_with_what_to_do(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(sandbox.SandboxUnavailable, match="bubblewrap \\(bwrap\\) is not installed.*--unsandboxed"):
        sandbox.check_bubblewrap()


@needs_bubblewrap
def test_bubblewrap_works_here():
    sandbox.check_bubblewrap()  # the machine the course is tested on can sandbox
