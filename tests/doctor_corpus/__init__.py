"""The gradient doctor's corpus (README.md): load each program, run the doctor on it, score what it said."""
import collections
import re
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOLDERS = ("broken", "correct", "reported", "unseen")
MARKER = re.compile(r"\s*# <- expected.*$")
HEADER = re.compile(r"^# (cause|depth|thread): (.+)$")

# Mistakes in how a tape is used: gradient_doctor watches every source itself, so they cannot happen there.
TAPE_USAGE = {"not_watched", "watched_too_late", "watched_other_object", "variable_replaced", "swapped"}

Program = collections.namedtuple("Program", "name folder path causes depth lines code")


def load(path):
    """A program: its expected causes, depth and lines, and its code without the markers."""
    text = path.read_text()
    header, lines, code = {}, set(), []
    for number, line in enumerate(text.splitlines(), start=1):
        match = HEADER.match(line.strip())
        if match and match.group(1) not in header:
            header[match.group(1)] = match.group(2).strip()
        if MARKER.search(line):
            lines.add(number)
            line = MARKER.sub("", line)
        code.append(line)
    causes = frozenset(cause.strip() for cause in header.get("cause", "").split(","))
    return Program(path.stem, path.parent.name, path, causes, header.get("depth", "main"), frozenset(lines),
                   "\n".join(code) + "\n")


def programs(folders=FOLDERS):
    return [load(path) for folder in folders for path in sorted((HERE / folder).glob("*.py"))]


Result = collections.namedtuple("Result", "program doctor causes lines connected crashed text")


def _lines_named(findings):
    return {int(number) for finding in findings for number in re.findall(r"line (\d+)", finding.where or "")}


def run(program, workdir=None):
    """Run the program under tape_doctor, then gradient_doctor on its computation() when it has one."""
    from autograder.notebook_side.doctor import gradient_doctor, tape_doctor

    workdir = Path(workdir or tempfile.mkdtemp())
    path = workdir / f"{program.name}.py"
    path.write_text(program.code)  # the doctor reads the lines from the file that ran, markers gone
    namespace = {"__name__": "__main__", "__file__": str(path)}
    results = []
    with tape_doctor(report=False) as doctor:
        try:
            exec(compile(program.code, str(path), "exec"), namespace)
        except Exception:  # noqa: BLE001 (a broken program may crash on its None, as real ones do)
            pass
    results.append(Result(program, "tape_doctor", doctor.causes, _lines_named(doctor.findings), doctor.connected,
                          None, str(doctor)))
    if callable(namespace.get("computation")) and not program.causes & TAPE_USAGE:
        try:
            compute, sources = namespace["computation"]()
            diagnosis = gradient_doctor(compute, sources)
            results.append(Result(program, "gradient_doctor", diagnosis.causes, _lines_named(diagnosis.findings),
                                  diagnosis.connected, None, str(diagnosis)))
        except Exception as error:  # noqa: BLE001 (the doctor's crash is what is measured here)
            results.append(Result(program, "gradient_doctor", [], set(), False, f"{type(error).__name__}: {error}",
                                  ""))
    return results


def verdict(result):
    """(cause right, line right, false alarm, connected on a broken program) for one result."""
    program = result.program
    expected = program.causes
    said = set(result.causes)
    if expected == {"connected"}:
        return (not said and result.crashed is None), None, bool(said) or result.crashed is not None, False
    cause_right = bool(said) and said <= expected
    line_right = (cause_right and bool(result.lines & program.lines)) if program.lines else None
    return cause_right, line_right, False, result.connected


def table(results):
    """Rows of counts per doctor, and per cause and per depth: cause right, line right, connected, crashes."""
    rows = collections.defaultdict(lambda: collections.Counter())
    for result in results:
        cause_right, line_right, false_alarm, connected = verdict(result)
        keys = [(result.doctor, "all " + result.program.folder), (result.doctor, "depth " + result.program.depth)]
        if result.program.causes != {"connected"}:
            keys.append((result.doctor, "cause " + "/".join(sorted(result.program.causes))))
        for key in keys:
            row = rows[key]
            row["programs"] += 1
            row["cause right"] += bool(cause_right)
            row["found nothing"] += not result.causes
            if line_right is not None:
                row["lines asked"] += 1
                row["line right"] += bool(line_right)
            row["false alarm"] += bool(false_alarm)
            row["connected on broken"] += bool(connected)
            row["crashed"] += result.crashed is not None
    return rows
