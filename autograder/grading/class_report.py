"""The class report room: what a class got wrong in an assignment, as HTML for the instructor and CSV.

Written from nbgrader's gradebook (points per test) and the autograded notebooks (the message of each
failing test: the checks name the mistake in teaching terms), so it works for any assignment.
"""
from __future__ import annotations

import base64
import collections
import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

REPORTS = "reports"  # under the course root, git-ignored: it names students
SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z(])")
NUMBER = re.compile(r"(?<![\w.])[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")  # not the digits of a name (causes_13)


@dataclass(frozen=True)
class CellResult:
    """One student's result on one test (a grade cell)."""

    student: str
    notebook: str
    test: str
    points: float
    max_points: float
    mistake: str | None  # None when the test passed

    @property
    def passed(self) -> bool:
        return self.points >= self.max_points


def mistake_of(outputs) -> str:
    """A short, student-independent label for why a test cell lost its points, from its outputs."""
    error = next((o for o in outputs if o.get("output_type") == "error"), None)
    if error is None:
        stderr = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream" and o.get("name") == "stderr")
        if stderr.strip():
            return "wrote to stderr (nbgrader scores that 0): " + _general(stderr.strip().splitlines()[0])
        return "no result: the cell did not finish (a time limit, or the kernel stopped)"
    ename, lines = error.get("ename", "Error"), (error.get("evalue") or "").strip().splitlines()
    if ename == "NotImplementedError" or (lines and lines[-1].startswith("(NotImplementedError")):
        return "not done: the exercise still raises NotImplementedError"
    first = _sentence(lines[0]) if lines else ""
    # A check's message: its first sentence says what is wrong, a line starting "It " names the mistake.
    named = next((_sentence(line) for line in lines[1:3] if line.startswith("It ")), "")
    label = _general(f"{first} {named}".strip())
    return label if ename in ("CheckFailed", "ExplainedError") else f"{ename}: {label}"


def _sentence(line: str) -> str:
    """The first sentence of a line (the rest explains it, and the student's feedback has it all)."""
    return SENTENCE_END.split(line, maxsplit=1)[0]


def _general(text: str) -> str:
    """The text with the numbers that differ between students replaced by '#'."""
    text = NUMBER.sub("#", text)
    return text if len(text) <= 300 else text[:297] + "..."


def collect(root: Path, db_url: str, assignment: str, students: list[str]) -> list[CellResult]:
    """Every graded student's result on every test of `assignment`, in notebook order."""
    from nbgrader.api import Gradebook, MissingEntry

    results = []
    with Gradebook(db_url) as gradebook:
        for student in students:
            try:
                submission = gradebook.find_submission(assignment, student)
            except MissingEntry:
                continue
            for notebook in submission.notebooks:
                points = {grade.name: (grade.score, grade.max_score) for grade in notebook.grades}
                graded = root / "autograded" / student / assignment / f"{notebook.name}.ipynb"
                cells = nbformat.read(graded, as_version=4).cells if graded.exists() else []
                order = [c.metadata.get("nbgrader", {}).get("grade_id") for c in cells]
                outputs = {c.metadata.nbgrader["grade_id"]: c.get("outputs", []) for c in cells
                           if c.metadata.get("nbgrader", {}).get("grade")}
                for name in sorted(points, key=lambda n: order.index(n) if n in order else len(order)):
                    score, max_score = points[name]
                    failed = score < max_score
                    results.append(CellResult(student, notebook.name, name, score, max_score,
                                              mistake_of(outputs.get(name, [])) if failed else None))
    return results


def write(root: Path, assignment: str, results: list[CellResult], not_graded: dict[str, list[str]],
          reaches: dict[str, list[str]] | None = None, limits: dict[str, list[str]] | None = None,
          unprotected: list[str] | None = None) -> tuple[Path, Path]:
    """Write reports/<assignment>.html and .csv; return their paths.

    reaches:     {student: [answer lines that reach for the grading machinery]} (grading/tampering.py);
    limits:      {student: [the sandbox's limits the submission met, with what happened]} (grading/limits.py);
    unprotected: the limits the grading machines could not set, with what that left open."""
    reaches, limits = reaches or {}, limits or {}
    folder = root / REPORTS
    folder.mkdir(parents=True, exist_ok=True)
    html_path, csv_path = folder / f"{assignment}.html", folder / f"{assignment}.csv"
    with open(csv_path, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["student", "notebook", "test", "points", "max_points", "mistake"])
        for r in results:
            writer.writerow([r.student, r.notebook, r.test, f"{r.points:g}", f"{r.max_points:g}", r.mistake or ""])
        for student, why in not_graded.items():
            writer.writerow([student, "", "", "", "", "not graded: " + "; ".join(why)])
        for student, lines in reaches.items():
            for line in lines:
                writer.writerow([student, "", "", "", "", "reaches for the grading machinery: " + line])
        for student, met in limits.items():
            for limit in met:
                writer.writerow([student, "", "", "", "", "a sandbox limit stopped it: " + limit])
        for why in unprotected or []:
            writer.writerow(["", "", "", "", "", "WARNING: " + why])
    html_path.write_text(html(assignment, results, not_graded, reaches, limits, unprotected))
    return html_path, csv_path


def summary(results: list[CellResult]):
    """Per test: (test, max points, students, passed, [(mistake, [students])] most frequent first)."""
    tests = collections.OrderedDict()
    for r in results:
        tests.setdefault(r.test, []).append(r)
    rows = []
    for test, rs in tests.items():
        mistakes = collections.defaultdict(list)
        for r in rs:
            if r.mistake:
                mistakes[r.mistake].append(r.student)
        ranked = sorted(mistakes.items(), key=lambda item: (-len(item[1]), item[0]))
        rows.append((test, rs[0].max_points, len(rs), sum(r.passed for r in rs), ranked))
    return rows


def totals(results: list[CellResult]) -> tuple[dict[str, float], float]:
    """Each graded student's total, and the assignment's maximum."""
    scores, maxima = collections.defaultdict(float), {}
    for r in results:
        scores[r.student] += r.points
        maxima[r.test] = r.max_points
    return dict(scores), sum(maxima.values())


def score_plot(scores: dict[str, float], max_score: float) -> str:
    """The distribution of total scores as a PNG, base64-encoded for an <img> tag."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 2.8), dpi=100)
    bins = [x - 0.5 for x in range(int(max_score) + 2)] if max_score <= 40 else 20
    ax.hist(list(scores.values()), bins=bins, color="#4c72b0", edgecolor="white")
    ax.set_xlim(-0.5, max_score + 0.5)
    ax.set_xlabel(f"total score (out of {max_score:g})")
    ax.set_ylabel("students")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode()


TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Class report: {{ assignment }}</title>
<style>
 body { font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
 table { border-collapse: collapse; width: 100%; margin: 1rem 0 2rem; }
 th, td { text-align: left; vertical-align: top; padding: .35rem .6rem; border-bottom: 1px solid #ddd; }
 th { background: #f4f4f4; } td.mistakes { width: 58%; } td.num { text-align: right; white-space: nowrap; }
 .bar { display: inline-block; height: .7rem; background: #4c72b0; vertical-align: middle; }
 .who { color: #666; font-size: 90%; } code { background: #f4f4f4; padding: 0 .2rem; }
 .warning { background: #fff3cd; border-left: 4px solid #c99a00; padding: .5rem .8rem; }
</style></head><body>
<h1>Class report: {{ assignment }}</h1>
{% for why in unprotected %}<p class="warning"><b>Warning:</b> {{ why }}.</p>{% endfor %}
<p>{{ graded }} of {{ graded + not_graded|length }} submissions graded{% if graded %};
mean score {{ "%.1f"|format(mean) }} of {{ "%g"|format(max_score) }}{% endif %}.</p>
{% if graded %}<img alt="distribution of total scores" src="data:image/png;base64,{{ plot }}">{% endif %}
<h2>Tests</h2>
<table><tr><th>test</th><th>points</th><th>passed</th><th>mistakes the checks named (students)</th></tr>
{% for test, points, count, passed, mistakes in rows %}<tr>
 <td><code>{{ test }}</code></td><td class="num">{{ "%g"|format(points) }}</td>
 <td class="num">{{ passed }} / {{ count }} <span class="bar" style="width: {{ (60 * passed / count)|round|int }}px"></span></td>
 <td class="mistakes">{% for mistake, students in mistakes %}<p><b>{{ students|length }}</b> × {{ mistake }}<br>
 <span class="who">{{ students|join(", ") }}</span></p>{% endfor %}</td>
</tr>{% endfor %}</table>
{% if reaches %}<h2>Answers that reach for the grading machinery</h2>
<p>Read from the answer cells before they ran. These submissions were graded as usual; their
scores may not mean what they seem. Each student's feedback lists the same lines.</p>
<table><tr><th>student</th><th>answer lines</th></tr>
{% for student, lines in reaches.items() %}<tr><td>{{ student }}</td><td>{% for line in lines %}<p>{{ line }}</p>{% endfor %}</td></tr>{% endfor %}
</table>{% endif %}
{% if limits %}<h2>Stopped by the sandbox's limits</h2>
<p>Each limit keeps one submission from taking the grading machine, and every other student's
grading, down with it. These submissions were graded as usual: the cell that met the limit failed,
and the cells after it ran.</p>
<table><tr><th>student</th><th>what happened</th></tr>
{% for student, met in limits.items() %}<tr><td>{{ student }}</td><td>{% for limit in met %}<p>{{ limit }}</p>{% endfor %}</td></tr>{% endfor %}
</table>{% endif %}
{% if not_graded %}<h2>Not graded</h2>
<table><tr><th>student</th><th>why</th></tr>
{% for student, why in not_graded.items() %}<tr><td>{{ student }}</td><td>{{ why|join("; ") }}</td></tr>{% endfor %}
</table>{% endif %}
</body></html>
"""


def html(assignment: str, results: list[CellResult], not_graded: dict[str, list[str]],
         reaches: dict[str, list[str]] | None = None, limits: dict[str, list[str]] | None = None,
         unprotected: list[str] | None = None) -> str:
    import jinja2

    scores, max_score = totals(results)
    return jinja2.Environment(autoescape=True).from_string(TEMPLATE).render(
        assignment=assignment, rows=summary(results), not_graded=not_graded, reaches=reaches or {},
        limits=limits or {}, unprotected=unprotected or [], graded=len(scores),
        mean=sum(scores.values()) / len(scores) if scores else 0.0, max_score=max_score,
        plot=score_plot(scores, max_score) if scores else "",
    )
