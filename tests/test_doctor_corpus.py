"""The gradient doctor on programs it has never seen (tests/doctor_corpus/): held to what it reaches today.

`python -m tests.doctor_corpus` prints the table per cause and per depth. The floors below are the
measured rates, rounded down: a change that makes the doctor worse on unseen code fails here. The
goals of the course are higher (9 in 10 causes, 8 in 10 lines); the note of each change says where it stands.
"""
import pytest

pytest.importorskip("tensorflow")

# one worker runs the corpus once for all these tests (make test's `--dist loadgroup`): it takes minutes
pytestmark = pytest.mark.xdist_group("doctor_corpus")

from doctor_corpus import programs, run, table, verdict  # noqa: E402

CAUSE_FLOOR = 0.95  # tape_doctor, broken programs: the right cause
LINE_FLOOR = 0.9  # tape_doctor, broken programs: the right cause and a line an expert named
REPORTED_CAUSE_FLOOR = 0.85  # tape_doctor, real reports (their fixed versions are held to no false alarm)
GRADIENT_DOCTOR_CAUSE_FLOOR = 0.9
# unseen/ was measured once as it came (the notes keep those numbers); what the doctor has reached on it since
# may not slip back
UNSEEN_CAUSE_FLOOR = 0.9
UNSEEN_LINE_FLOOR = 0.8


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("corpus")
    return [result for program in programs() for result in run(program, workdir)]


def test_the_corpus_is_large_and_spread():
    chosen = programs()
    broken = [p for p in chosen if p.folder == "broken"]
    correct = [p for p in chosen if p.folder == "correct"]
    assert len(broken) >= 60 and len(correct) >= 25
    for depth in ("main", "helper", "method", "layer", "tf.function", "fit"):
        assert any(p.depth == depth for p in broken), f"no broken program at depth {depth}"
    assert all(p.lines for p in broken), [p.name for p in broken if not p.lines]


def test_the_doctor_never_crashes(results):
    crashed = [(r.program.name, r.doctor, r.crashed) for r in results if r.crashed]
    assert not crashed


def test_the_doctor_never_says_connected_on_a_broken_program(results):
    connected = [(r.program.name, r.doctor) for r in results if r.program.causes != {"connected"} and verdict(r)[3]]
    assert not connected


def test_no_false_alarm_on_working_code(results):
    alarms = [(r.program.name, r.doctor, r.causes) for r in results if r.program.causes == {"connected"} and verdict(r)[2]]
    assert not alarms


def test_the_cause_and_the_line_on_broken_programs(results):
    rows = table(results)
    row = rows[("tape_doctor", "all broken")]
    assert row["cause right"] / row["programs"] >= CAUSE_FLOOR, dict(row)
    assert row["line right"] / row["lines asked"] >= LINE_FLOOR, dict(row)
    reported = [r for r in results if r.doctor == "tape_doctor" and r.program.folder == "reported"
                and r.program.causes != {"connected"}]
    assert sum(verdict(r)[0] for r in reported) / len(reported) >= REPORTED_CAUSE_FLOOR
    row = rows[("gradient_doctor", "all broken")]
    assert row["cause right"] / row["programs"] >= GRADIENT_DOCTOR_CAUSE_FLOOR, dict(row)
    unseen = [r for r in results if r.doctor == "tape_doctor" and r.program.folder == "unseen"
              and r.program.causes != {"connected"}]
    assert sum(verdict(r)[0] for r in unseen) / len(unseen) >= UNSEEN_CAUSE_FLOOR
    with_lines = [r for r in unseen if r.program.lines]
    assert sum(bool(verdict(r)[1]) for r in with_lines) / len(with_lines) >= UNSEEN_LINE_FLOOR
