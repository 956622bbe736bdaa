"""Outputs that show lines of the hidden tests, found in an executed notebook from the grader's side.

An answer can make a cell print the source of the cells that ran (IPython's `In` and history, `inspect`,
from a module it wrote to disk, out of tampering.py's sight). nbgrader's ClearHiddenTests takes the hidden
lines out of the grade cells' sources in the feedback, not out of the outputs. The grader knows the hidden
tests, so it looks for their lines in every output: printed, quoted (repr, JSON), coloured (ANSI) or
written as HTML, escaped or highlighted. Lines encoded otherwise (base64, reversed) are beyond a text
search. The feedback shows a note in place of each such output (feedback.py); the report names the cells.
"""
from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass

BEGIN, END = "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"  # as nbgrader's ClearHiddenTests finds them
SHORTEST = 10  # characters: a shorter line (`)`, `pass`, `x = 0.5`) says little and turns up by chance
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
TAG = re.compile(r"<[^>]*>")
BACKSLASH = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.DOTALL)  # repr's, JSON's and Markdown's escapes
ESCAPED = {"n": "\n", "t": "\t", "r": "\r"}


@dataclass(frozen=True)
class Echo:
    """One cell output that shows a line of a hidden test."""

    cell: int  # the cell's index in the notebook
    output: int  # the output's index in the cell
    name: str  # the cell's grade id, or "cell N" (counted from 1)
    line: str  # a hidden line it shows


def echoes(nb) -> list[Echo]:
    """Every output of the notebook that shows a line of its hidden tests, in notebook order.

    `nb` has its hidden tests in the grade cells' sources (nbgrader's autograded notebook). A line
    counts when it has SHORTEST characters or more (whitespace runs count as one space) and appears
    nowhere in the sources students can read: a line written in the visible part of a cell, or in
    any other cell, shows nothing hidden."""
    visible, hidden = [], []
    for cell in nb.cells:
        inside, grade = False, _is_grade(cell)
        for line in _join(cell.get("source", "")).split("\n"):
            if grade and BEGIN in line:
                inside = True
            elif grade and END in line:
                inside = False
            else:
                (hidden if inside else visible).append(_squeeze(line))
    public = "\n".join(visible)
    lines = [line for line in dict.fromkeys(hidden) if len(line) >= SHORTEST and line not in public]
    if not lines:
        return []
    found = []
    for index, cell in enumerate(nb.cells):
        for number, output in enumerate(cell.get("outputs", [])):
            views = _views(_text(cell, output))
            line = next((line for line in lines if any(line in view for view in views)), None)
            if line is not None:
                name = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") or f"cell {index + 1}"
                found.append(Echo(index, number, name, line))
    return found


def _is_grade(cell) -> bool:
    # only grade cells hold hidden tests: a student's own cell that writes the markers hides nothing
    return cell.get("cell_type") == "code" and bool(cell.get("metadata", {}).get("nbgrader", {}).get("grade"))


def _squeeze(text: str) -> str:
    return " ".join(text.split())


def _text(cell, output) -> str:
    """All the text of one output that a page can show."""
    kind = output.get("output_type")
    if kind == "stream":
        return _join(output.get("text", ""))
    if kind == "error":
        shown = [output.get("ename", ""), output.get("evalue", "")]
        if not _is_grade(cell):
            # a grade cell's traceback quotes its hidden lines by design, and the feedback cuts it
            # to "ename: evalue" (feedback.ShortenTracebacks); elsewhere it is shown whole
            shown += output.get("traceback", [])
        return "\n".join(_join(part) for part in shown)
    parts = []
    for mime, value in output.get("data", {}).items():
        if mime.startswith("image/") and mime != "image/svg+xml":
            continue  # base64 pixels
        parts.append(_join(value) if isinstance(value, (str, list)) else json.dumps(value, ensure_ascii=False))
    return "\n".join(parts)


def _join(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _views(text: str) -> set[str]:
    """The text as a reader sees it: without colours, as HTML renders it (entities decoded, tags
    dropped), and with repr's or JSON's escapes undone; each with whitespace squeezed."""
    plain = ANSI.sub("", text)
    views = {plain, _unescape(plain), _unescape(TAG.sub("", plain))}
    views |= {BACKSLASH.sub(_unbackslash, view) for view in views}
    return {_squeeze(view) for view in views}


def _unescape(text: str) -> str:
    for _ in range(3):  # escaped twice over, `<` shows as `&lt;`: still readable
        unescaped = html.unescape(text)
        if unescaped == text:
            break
        text = unescaped
    return text


def _unbackslash(match) -> str:
    escape = match.group(1)
    if len(escape) > 1:
        return chr(int(escape[1:], 16))
    return ESCAPED.get(escape, escape)
