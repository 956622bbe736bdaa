"""Each submission is graded in a sandbox of its own: nothing it does reaches the next student, the grader or the
machine. One class of 01 on one grading worker, as `python -m autograder grade 01_first_gradient --workers 1` runs
it: each hostile submission is followed on the same worker by a correct student, who must keep full marks and find
no trace of it (a probe in their answer prints what their kernel sees); afterwards the machine is checked too."""
import json
import os
import shutil
import textwrap
import uuid
from pathlib import Path

import nbformat
import pytest

from autograder.grading import demo, grade_class, report
from autograder.grading.demo import submit
from autograder.grading.limits import GIB

from conftest import ROOT
from submissions import full_marks
from test_roundtrip import hidden_lines, scores

pytestmark = [pytest.mark.notebooks, pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]
NAME = "01_first_gradient"
FIRST = f"{NAME}_slope"  # the first solution cell: each submission's extra code goes after its answer
CELL_SECONDS, BUDGET = 15, 45  # a cell's time limit and the whole submission's, for this class
MARK = f"planted-{uuid.uuid4().hex[:8]}"  # in every name and command line a hostile submission leaves behind

# What a correct student's kernel sees of the others: printed after their answer, read back from their notebook.
PROBE = """
import json as _json, os as _os, resource as _resource
print("PROBE", _json.dumps({
    "files": sorted(_os.path.join(folder, name) for folder in ("/tmp", _os.path.expanduser("~"), "/dev/shm", ".")
                    for name in _os.listdir(folder)),
    "ipc": {kind: open(f"/proc/sysvipc/{kind}").read().splitlines()[1:] for kind in ("shm", "msg", "sem")},
    "processes": sorted(int(p) for p in _os.listdir("/proc") if p.isdigit()),
    "address_space": _resource.getrlimit(_resource.RLIMIT_AS)[0], "cpu": _resource.getrlimit(_resource.RLIMIT_CPU)[0],
    "nice": _os.nice(0), "oom_score_adj": open("/proc/self/oom_score_adj").read().strip(),
    "folders": sorted(_os.listdir("/run")), "socket_folder": sorted(_os.listdir("/run/kernel"))}))
"""

# The hostile submissions, by what they try (each one's code runs after a correct answer to the first exercise).
HOSTILE = {
    # read-only folders with files in every writable place, an IPython startup file that fails every later check
    "planter": """
        import os
        for folder in ("/tmp", os.path.expanduser("~"), "/dev/shm", "."):
            os.makedirs(f"{folder}/MARK/deep", exist_ok=True)
            open(f"{folder}/MARK/deep/file", "w").write("x")
            os.chmod(f"{folder}/MARK/deep", 0o555)
            os.chmod(f"{folder}/MARK", 0o555)
        startup = os.path.expanduser("~/.ipython/profile_default/startup")
        os.makedirs(startup, exist_ok=True)
        open(f"{startup}/00-MARK.py", "w").write("import numpy\\nnumpy.allclose = lambda *a, **k: False\\nprint('MARK startup')\\n")
        os.chmod(startup, 0o555)
    """,
    # SysV shared memory, a message queue and semaphores, left behind
    "sysv_ipc": """
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        for key in (0x5eed, 0x5eee):
            libc.shmget(key, 1 << 20, 0o1666)
            libc.msgget(key, 0o1666)
            libc.semget(key, 4, 0o1666)
    """,
    # a daemon in a new session, and a child that ignores every signal it can
    "daemon": """
        import os, signal, subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time\\nwhile True:\\n    open('/tmp/MARK-daemon', 'w').write('x')\\n"
                          "    time.sleep(0.1)  # MARK"], start_new_session=True)
        if os.fork() == 0:
            for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                signal.signal(signum, signal.SIG_IGN)
            os.setsid()
            os.execv("/bin/sleep", ["sleep", "600"])
    """,
    # every process it can see: lower its limits, renice it, raise its OOM score, write into its memory and into
    # its descriptors (a forged end-of-kernel report); make every folder it can read-only
    "server": """
        import os, resource
        forged = b'{"exit": -24, "cpu": 600, "full": ["/submission"]}\\n'
        for pid in [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) != os.getpid()] + [0]:
            for attempt in (lambda: resource.prlimit(pid, resource.RLIMIT_AS, (1 << 20, 1 << 20)),
                            lambda: resource.prlimit(pid, resource.RLIMIT_CPU, (1, 1)),
                            lambda: os.setpriority(os.PRIO_PROCESS, pid, 19),
                            lambda: open(f"/proc/{pid}/oom_score_adj", "w").write("1000"),
                            lambda: open(f"/proc/{pid}/mem", "wb").write(b"x")):
                try:
                    attempt()
                except Exception:
                    pass
            for fd in os.listdir(f"/proc/{pid}/fd") if os.access(f"/proc/{pid}/fd", os.R_OK) else []:
                try:
                    with open(f"/proc/{pid}/fd/{fd}", "wb") as descriptor:
                        descriptor.write(forged)
                except Exception:
                    pass
        for who in (os.PRIO_USER, os.PRIO_PGRP):
            try:
                os.setpriority(who, 0, 19)
            except OSError:
                pass
        for folder, _, _ in os.walk("/run"):
            try:
                os.chmod(folder, 0o555)
            except OSError:
                pass
        print("MARK done")
    """,
    # every folder that holds its mounts renamed and a link to a folder of this machine put in its place, its
    # socket folder's files too: a grader that follows one, cleaning up, deletes this machine's files
    "links": """
        import os
        holders = set()
        for line in open("/proc/self/mountinfo"):
            path = line.split()[4]
            while path not in ("/", ""):
                holders.add(path)
                path = os.path.dirname(path)
        for folder in sorted(holders, key=len, reverse=True) + ["/run/kernel/" + name for name in os.listdir("/run/kernel")]:
            try:
                os.rename(folder, folder + "-MARK")
                os.symlink("CANARY", folder)
            except OSError:
                pass
    """,
    # a module on disk that prints the source of every cell that runs after it: the hidden tests
    "printer": """
        open("MARK_spy.py", "w").write("def show(info):\\n    print(info.raw_cell)\\n"
                                       "get_ipython().events.register('pre_run_cell', show)\\n")
        __import__("MARK_spy")
    """,
    # a kernel that ignores the interrupt, in a cell that never ends
    "ignores_interrupts": """
        import signal, time
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        time.sleep(3600)
    """,
    # a 100-thread storm that burns the CPU, in the kernel and in a process it leaves behind
    "thread_storm": """
        import subprocess, sys, threading
        def burn():
            while True:
                pass
        for _ in range(100):
            threading.Thread(target=burn, daemon=True).start()
        subprocess.Popen([sys.executable, "-c", "import threading  # MARK\\ndef burn():\\n    while True:\\n        pass\\n"
                          "for _ in range(100):\\n    threading.Thread(target=burn).start()"], start_new_session=True)
    """,
}
# The one that sleeps in every answer cell: each cell is interrupted at its limit, the whole at the budget.
SLEEPS_EVERYWHERE = "import time\ntime.sleep(3600)"


def _answers(a, extra: str) -> dict:
    source = next(c.source for c in nbformat.read(a.source, as_version=4).cells
                  if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == FIRST)
    return {FIRST: f"{source}\n\n{textwrap.dedent(extra)}"}


def _probed(a, student) -> dict:
    nb = nbformat.read(a.root / "autograded" / student / NAME / f"{NAME}.ipynb", as_version=4)
    said = "".join(o.get("text", "") for cell in nb.cells for o in cell.get("outputs", []))
    return json.loads(said.split("PROBE ", 1)[1].splitlines()[0])


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("isolation")
    canary = Path("/var/tmp") / f"canary-{uuid.uuid4().hex}"
    for folder in (canary, canary / "sockets"):  # what a grader that followed a link would clean up
        folder.mkdir(parents=True)
        for name in ("keep.txt", "kernel.json", *(f"kernel-{port}" for port in range(1, 6)), "ready"):
            (folder / name).write_text("this machine's file")
    a = demo.make_course(ROOT, root, [NAME], f"c.Execute.timeout = {CELL_SECONDS}\n")[0]
    order = []
    for number, (kind, code) in enumerate(HOSTILE.items(), 1):
        order += [f"h{number:02}_{kind}", f"h{number:02}z_correct_after_{kind}"]
        submit(a, order[-2], _answers(a, code.replace("MARK", MARK).replace("CANARY", str(canary))))
        submit(a, order[-1], _answers(a, PROBE))
    sleeper = {c.metadata["nbgrader"]["grade_id"]: SLEEPS_EVERYWHERE for c in nbformat.read(a.release, as_version=4).cells
               if c.get("metadata", {}).get("nbgrader", {}).get("solution")}
    submit(a, "h99_sleeps_everywhere", sleeper)
    submit(a, "h99z_correct_after_sleeps_everywhere", _answers(a, PROBE))
    outcomes = {o.student: o for o in grade_class(NAME, root, csv_path=root / "grades.csv", workers=1, time_budget=BUDGET)}
    print(report(NAME, list(outcomes.values())))
    yield a, outcomes, canary
    shutil.rmtree(canary)


def _correct_students(outcomes):
    return [student for student in outcomes if "z_correct_after_" in student]


def test_every_correct_student_after_a_hostile_one_keeps_full_marks_and_finds_no_trace(graded):
    a, outcomes, _ = graded
    full = full_marks(NAME)
    for student in _correct_students(outcomes):
        assert outcomes[student].graded and scores(a, student) == pytest.approx(full), (student, outcomes[student].notes)
        assert outcomes[student].limits == [], (student, outcomes[student].limits)
        seen = _probed(a, student)
        assert not [path for path in seen["files"] if MARK in path], (student, seen["files"])
        assert seen["ipc"] == {"shm": [], "msg": [], "sem": []}, (student, seen["ipc"])
        assert seen["processes"] == [1, 2], (student, seen["processes"])  # its namespace's init and itself
        assert (seen["address_space"], seen["cpu"], seen["nice"], seen["oom_score_adj"]) == (4 * GIB, 600, 0, "0"), seen
        assert seen["folders"] == ["inbox", "kernel", "server"], seen["folders"]  # the server's covered, empty
        assert all(name in ("kernel.json", "ready") or name.startswith("kernel-")  # its own sockets only
                   for name in seen["socket_folder"]), seen["socket_folder"]
        feedback = (a.root / "feedback" / student / NAME / f"{NAME}.html").read_text()
        assert MARK not in feedback, student


def test_the_machine_keeps_nothing_of_them(graded):
    a, outcomes, canary = graded
    kept = sorted(path.relative_to(canary) for path in canary.rglob("*") if path.is_file())
    assert len(kept) == 16 and all(path.read_text() == "this machine's file" for path in canary.rglob("*") if path.is_file()), kept
    leftovers = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if MARK.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                leftovers.append(pid)
        except OSError:
            pass
    assert leftovers == []  # the daemon and the thread storm ended with their submissions
    keys = {line.split()[0] for kind in ("shm", "msg", "sem") for line in Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]}
    assert not {str(0x5eed), str(0x5eee)} & keys
    assert not list(Path(a.root).rglob(f"*{MARK}*"))  # nothing they wrote came back into the course


def test_the_grader_reports_stay_the_graders(graded):
    """The forged end-of-kernel report ("600 s of CPU", a full folder) reached no report."""
    _, outcomes, _ = graded
    assert outcomes["h04_server"].graded and outcomes["h04_server"].limits == [], outcomes["h04_server"].limits


def test_no_line_of_a_hidden_test_reaches_the_printers_feedback(graded):
    a, outcomes, _ = graded
    feedback = (a.root / "feedback" / "h06_printer" / NAME / f"{NAME}.html").read_text()
    leaked = [line for line in hidden_lines(a) if line in feedback or line.replace("'", "&#39;") in feedback]
    assert not leaked, leaked
    assert any("hidden tests are left out of its feedback" in note for note in outcomes["h06_printer"].notes)


def test_a_stuck_or_slow_submission_costs_only_its_own_time_and_points(graded):
    a, outcomes, _ = graded
    stuck = outcomes["h07_ignores_interrupts"]
    assert stuck.graded and all(score == 0 for score in scores(a, "h07_ignores_interrupts").values())
    slow = outcomes["h99_sleeps_everywhere"]
    assert slow.graded and all(score == 0 for score in scores(a, "h99_sleeps_everywhere").values())
    assert slow.limits == [f"it used up the submission's time budget of {BUDGET} s: its kernel was ended, and the "
                           "cells it had not run score nothing"], slow.limits
    assert slow.seconds["run"] < BUDGET + 30, slow.seconds  # ended at its budget, not after every cell's limit
