"""Beyond one machine: a real Dask scheduler and two workers on loopback grade a class with the same
scores as this machine's pool."""
import importlib
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.grading import demo, grade_class, report

from test_roundtrip import full_marks, make_course, scores

pytestmark = pytest.mark.notebooks
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def cluster(tmp_path):
    """`dask scheduler` and two `dask worker`s (one thread each), as an instructor would start them."""
    distributed = pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{free_port()}"
    logs = open(tmp_path / "dask.log", "w")
    processes = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                                   "--no-dashboard"], stdout=logs, stderr=logs, cwd=tmp_path)]
    processes += [subprocess.Popen([str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-dashboard",
                                    "--memory-limit", "0", "--name", f"worker-{n}"], stdout=logs, stderr=logs, cwd=tmp_path)
                  for n in (1, 2)]
    try:
        with distributed.Client(address, timeout=120) as client:
            client.wait_for_workers(2, timeout=180)
        yield address
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(timeout=60)
        logs.close()


def test_a_dask_cluster_grades_as_this_machine_does(tmp_path, cluster):
    name = "01_first_gradient"
    course_folder = tmp_path / "course"
    a = make_course(course_folder, name)
    cases = importlib.import_module(f"submissions.{name}").SUBMISSIONS
    expected = {"correct": full_marks(name)}
    demo.submit(a, "correct")
    for student in ("missing_watch", "wrong_factor", "debug_output_on_stderr"):
        demo.submit(a, student, cases[student]["answers"])
        expected[student] = cases[student]["scores"]

    outcomes = grade_class(name, course_folder, csv_path=course_folder / "grades.csv", scheduler=cluster)
    print(report(name, outcomes))

    assert all(o.graded for o in outcomes), report(name, outcomes)
    for student, wanted in expected.items():
        assert scores(a, student) == pytest.approx(wanted), student
        assert (course_folder / "feedback" / student / name / f"{name}.html").exists()
