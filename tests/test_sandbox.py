"""The sandbox: a probe submission's kernel cannot see the course, reach the network or write outside its folder."""
import shutil
import socket
import textwrap
import uuid
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from traitlets.config import Config

from autograder.grading import sandbox

needs_bubblewrap = pytest.mark.skipif(shutil.which("bwrap") is None,
                                      reason="bubblewrap is not installed (`make sandbox-deps` installs it)")


def run_probe(course, code, workdir):
    """Run `code` in a sandboxed kernel started in `workdir`; return what it printed."""
    config = Config()
    sandbox.configure(config, course, f"sqlite:///{course / 'gradebook.db'}")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(textwrap.dedent(code))])
    client = NotebookClient(nb, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(workdir)}},
                            kernel_manager_class=sandbox.SandboxedKernelManager, config=config)
    client.execute()
    return "".join(output.get("text", "") for output in nb.cells[0].outputs)


@needs_bubblewrap
def test_a_probe_sees_and_reaches_nothing_but_its_own_folder(tmp_path):
    course = tmp_path / "course"
    mine, theirs = course / "autograded" / "ada" / "01_demo", course / "autograded" / "bob" / "01_demo"
    for folder in (mine, theirs, course / "source" / "01_demo"):
        folder.mkdir(parents=True)
    (course / "source" / "01_demo" / "01_demo.ipynb").write_text("hidden tests and solutions")
    (course / "gradebook.db").write_text("everyone's grades")
    (theirs / "01_demo.ipynb").write_text("bob's answers")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    left_behind = Path("/tmp") / f"left-behind-{uuid.uuid4().hex}.txt"

    printed = run_probe(course, f"""
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
        attempt("read other student", lambda: open({str(theirs / '01_demo.ipynb')!r}).read())
        attempt("write course root", lambda: open({str(course / 'planted.txt')!r}, "w").write("x"))
        attempt("write own folder", lambda: open("answer.txt", "w").write("mine"))
        attempt("write tmp", lambda: open({str(left_behind)!r}, "w").write("x"))
        attempt("connect", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=3))
        attempt("allocate 5 GiB", lambda: bytearray(5 * 1024 ** 3))
        print("home holds", sorted(os.listdir(os.path.expanduser("~"))))
    """, mine)
    listener.close()

    for refused in ("unmount the stand-in", "read source", "read gradebook", "read other student", "connect"):
        assert f"{refused} refused" in printed, printed
    assert "allocate 5 GiB refused MemoryError" in printed
    assert "write own folder DONE" in printed and (mine / "answer.txt").read_text() == "mine"
    assert not (course / "planted.txt").exists()  # it wrote into an empty stand-in, thrown away
    assert "write tmp DONE" in printed and not left_behind.exists()  # a private /tmp
    assert (course / "gradebook.db").read_text() == "everyone's grades"


def test_without_bubblewrap_grading_is_refused_with_what_to_do(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(sandbox.SandboxUnavailable, match="bubblewrap \\(bwrap\\) is not installed.*--unsandboxed"):
        sandbox.check_bubblewrap()


@needs_bubblewrap
def test_bubblewrap_works_here():
    sandbox.check_bubblewrap()  # the machine the course is tested on can sandbox


@needs_bubblewrap
def test_an_endless_loop_is_interrupted_and_the_next_cell_runs(tmp_path):
    """A signal would end bubblewrap and the kernel with it; the interrupt goes over the control channel."""
    config = Config()
    sandbox.configure(config, tmp_path, f"sqlite:///{tmp_path / 'gradebook.db'}")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("while True:\n    pass"),
                                         nbformat.v4.new_code_cell("print('after the loop')")])
    NotebookClient(nb, timeout=5, interrupt_on_timeout=True, allow_errors=True, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}, kernel_manager_class=sandbox.SandboxedKernelManager,
                   config=config).execute()
    assert [o.get("ename") for o in nb.cells[0].outputs] == ["KeyboardInterrupt"]
    assert nb.cells[1].outputs[0]["text"] == "after the loop\n"
