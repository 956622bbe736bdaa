"""Synthetic submissions per notebook, for the nbgrader round trip (tests/test_roundtrip.py).

Each NN_name.py defines SUBMISSIONS = {student: {"answers": ..., "scores": ...}}: "answers" maps a
solution cell's grade id to the whole source the student wrote in it (solution cells not listed
keep the source notebook's solution), "scores" maps every grade cell id to the exact points that
submission must get, and an optional "feedback" lists phrases that student's feedback must show
(what the checks and the gradient doctor told them), and an optional "reaches" the words of each flag the
grader's reading of the answers must raise (tests/test_tampering.py), for a submission that reaches for the
grading machinery on purpose, and an optional "games": True for an answer built to game the checks (left out of
`make bench-grading`, which compares scores with stock nbgrader's). The round trip adds two submissions of its own to every notebook: "correct"
(the source's solutions, full marks) and "blank" (the release stubs, no points).
"""
import nbformat

from autograder import course


def full_marks(name: str) -> dict:
    """{grade id: points} of every grade cell of the source notebook."""
    cells = nbformat.read(course.Assignment(name).source, as_version=4).cells
    meta = [cell.get("metadata", {}).get("nbgrader", {}) for cell in cells]
    return {m["grade_id"]: float(m["points"]) for m in meta if m.get("grade")}


def scores_for(name: str):
    """scores(**changed): full marks, except the grade cells named (by the part of the id after
    'NN_name_'), which get the points given: scores(vjp_linear=0)."""
    prefix = f"{name}_"

    def scores(**changed):
        full = full_marks(name)
        unknown = {prefix + short for short in changed} - set(full)
        assert not unknown, f"no such grade cells in {name}: {sorted(unknown)}"
        return {grade_id: float(changed.get(grade_id[len(prefix):], points)) for grade_id, points in full.items()}

    return scores
