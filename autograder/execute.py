"""Run a notebook top to bottom in a fresh kernel, the way a student's Run All does."""
from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from nbclient import NotebookClient

# Quiet TensorFlow even before the setup cell runs (a kernel inherits these).
KERNEL_ENV = {"TF_CPP_MIN_LOG_LEVEL": "3", "TF_ENABLE_ONEDNN_OPTS": "0", "MPLBACKEND": "Agg"}


def run(nb, cwd: Path, *, timeout: int = 300, allow_errors: bool = False, env: dict | None = None,
        kernel_name: str = "python3"):
    """Execute `nb` in place in a kernel started in `cwd`; returns (nb, seconds per code cell).

    env: more environment variables for the kernel (NBGRADER_EXECUTION, to run it as nbgrader does).
    kernel_name: the kernelspec (another environment's Python, say); python3 is this environment's.
    """
    timings = {}
    started = {}

    def on_cell_execute(cell, cell_index):
        started[cell_index] = time.perf_counter()

    def on_cell_executed(cell, cell_index, execute_reply):
        timings[cell_index] = time.perf_counter() - started.get(cell_index, time.perf_counter())

    client = NotebookClient(
        nb, timeout=timeout, kernel_name=kernel_name, allow_errors=allow_errors,
        resources={"metadata": {"path": str(cwd)}},
        on_cell_execute=on_cell_execute, on_cell_executed=on_cell_executed,
    )
    # The kernel process's own stderr (ipykernel's start-up notices) is not the notebook's output.
    client.execute(env={**os.environ, **KERNEL_ENV, **(env or {})}, stderr=subprocess.DEVNULL)
    return nb, timings


def stderr_outputs(nb) -> list[tuple[int, str]]:
    """(cell index, text) of every stderr stream in the executed notebook."""
    return [(index, output.get("text", ""))
            for index, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for output in cell.get("outputs", [])
            if output.get("output_type") == "stream" and output.get("name") == "stderr"]


def errors(nb) -> list[tuple[int, str]]:
    """(cell index, 'Name: value') of every error output in the executed notebook."""
    return [(index, f"{output.get('ename')}: {output.get('evalue')}")
            for index, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for output in cell.get("outputs", []) if output.get("output_type") == "error"]
