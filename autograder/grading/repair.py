"""The repair room: make a submitted notebook gradable, or say why it cannot be.

nbgrader aborts a whole batch on a copied locked cell and grades a notebook whose metadata was stripped
as 0 without a word; here both are repaired by cell id from the release notebook when possible.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat

ORIGINAL_SUFFIX = ".as-submitted"


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def _cell_id(cell):
    """The cell's id; Colab writes nbformat 4.0, where a cell keeps its id in its metadata."""
    return cell.get("id") or cell.get("metadata", {}).get("id")


def _grade_id(cell):
    meta = _meta(cell)
    if meta.get("grade") or meta.get("solution") or meta.get("locked") or meta.get("task"):
        return meta.get("grade_id")
    return None


def repair(nb, release_nb) -> list[str]:
    """Fix in place what would make nbgrader abort or grade silently as 0; return what was done.

    - cells whose nbgrader metadata was stripped (by an editor or a notebook cleaner) get it back
      from the release cell with the same cell id;
    - a locked or graded cell copied by the student (the same grade id twice) keeps its metadata
      only on the copy whose cell id is the release's, so nbgrader grades the real one.
    """
    notes = []
    release_meta = {_cell_id(cell): cell.metadata for cell in release_nb.cells if _grade_id(cell)}
    release_ids = {cell.metadata["nbgrader"]["grade_id"]: _cell_id(cell) for cell in release_nb.cells if _grade_id(cell)}
    restored = 0
    for cell in nb.cells:
        if not _grade_id(cell) and _cell_id(cell) in release_meta:
            for key in ("nbgrader", "deletable", "editable"):
                if key in release_meta[_cell_id(cell)]:
                    cell.metadata[key] = json.loads(json.dumps(release_meta[_cell_id(cell)][key]))
            restored += 1
    if restored:
        notes.append(f"restored nbgrader metadata on {restored} cell(s) by cell id (it had been stripped)")

    by_id: dict[str, list] = {}
    for cell in nb.cells:
        if _grade_id(cell):
            by_id.setdefault(_grade_id(cell), []).append(cell)
    for grade_id, cells in by_id.items():
        if len(cells) < 2:
            continue
        keep = next((c for c in cells if _cell_id(c) == release_ids.get(grade_id)), cells[-1])
        for cell in cells:
            if cell is not keep:
                cell.metadata.pop("nbgrader", None)
        notes.append(f"cell {grade_id!r} appeared {len(cells)} times (a copied cell); graded the original, ignored the copies")
    return notes


def preflight(path: Path, release_path: Path) -> tuple[bool, list[str]]:
    """Check (and repair) one submitted notebook. Returns (gradable, notes)."""
    if not path.exists():
        files = sorted(p.name for p in path.parent.iterdir()) if path.parent.exists() else []
        return False, [f"no {path.name} in the submission (found: {', '.join(files) or 'nothing'}); not graded"]
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as error:  # not JSON, not a notebook, a future format...
        return False, [f"{path.name} is not a readable notebook ({type(error).__name__}: {error}); not graded"]
    release_nb = nbformat.read(release_path, as_version=4)
    notes = repair(nb, release_nb)
    if not any(_grade_id(cell) for cell in nb.cells):
        return False, [f"{path.name} has no nbgrader cell metadata and no cell ids in common with the release: "
                       "it was rebuilt or cleaned by another tool; not graded (nbgrader would give 0 without saying why)"]
    if notes:
        original = path.with_name(path.name + ORIGINAL_SUFFIX)
        if not original.exists():
            shutil.copy2(path, original)
        nbformat.write(nb, path)
        notes.append(f"the file as submitted is kept as {original.name}")
    return True, notes
