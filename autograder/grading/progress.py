"""The progress room: a live bar while a class is graded (done, not graded, rate, time left), on rich."""
from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def progress_bar(what: str, total: int, console: Console | None = None):
    """Yield `advance(graded: bool)`, to call once per submission. The bar is drawn on a terminal
    (on stderr, so the report on stdout stays clean) and left out of logs and pipes."""
    console = console or Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("[red]{task.fields[failed]} not graded"), TextColumn("{task.fields[rate]}"),
               TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
    with Progress(*columns, console=console, disable=not console.is_terminal) as bar:
        task = bar.add_task(what, total=total, failed=0, rate="")
        failed = 0

        def advance(graded: bool) -> None:
            nonlocal failed
            failed += not graded
            bar.advance(task)
            speed = bar.tasks[task].speed  # submissions per second, over the last few
            bar.update(task, failed=failed, rate=f"{60 * speed:.1f}/min" if speed else "")

        yield advance
