"""The worker pool's Dask twin: submissions run on a Dask cluster's workers, beyond this machine.

The unit of work is the local pool's (pool.Task in, pool.Result out), so a Dask worker needs
neither the course folder nor the gradebook: only this package and its environment installed, and
bubblewrap for the sandbox. Each thread of a Dask worker keeps a fork server of its own. Feedback
reads the gradebook, so it is written by processes on this machine.
"""
from __future__ import annotations

import multiprocessing.util
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from . import nbgrader_api, pool, sandbox

_local = threading.local()  # one fork server per thread of a Dask worker


def run_on_dask_worker(settings: pool.Settings, task: pool.Task) -> pool.Result:
    """A Dask task: run one submission on this thread's worker, started (TensorFlow imported) on first use."""
    worker = getattr(_local, "worker", None)
    if worker is None or worker.settings != settings:
        if settings.sandboxed:
            sandbox.check_bubblewrap()  # say so on the instructor's side, not just here
        if worker is not None:
            worker.stop()
        worker = _local.worker = pool.Worker(settings)
        # stopped as the Dask worker's process ends; where its nanny kills it instead, the next worker started
        # on this machine removes its folder (pool._remove_stale_scratch)
        multiprocessing.util.Finalize(worker, worker.stop, exitpriority=10)
        worker.start()
    return worker.run(task)


def _as_future(dask_future) -> Future:
    """A concurrent.futures Future that follows a Dask one (the coordinator waits on these)."""
    future = Future()

    def settle(done):
        try:
            future.set_result(done.result())
        except BaseException as error:  # the task's error, or the worker's loss
            future.set_exception(error)

    dask_future.add_done_callback(settle)
    return future


class DaskWorkers:
    """Submissions on the Dask cluster whose scheduler is at `address`; feedback on this machine."""

    def __init__(self, settings: pool.Settings, address: str):
        from distributed import Client

        self.settings = settings
        self.client = Client(address)
        self.size = os.cpu_count() or 1  # feedback shares, written here
        self.feedback_processes = ProcessPoolExecutor(max_workers=self.size)

    def run(self, task: pool.Task) -> Future:
        return _as_future(self.client.submit(run_on_dask_worker, self.settings, task, pure=False))

    def feedback(self, root: Path, assignment: str, students: list[str], others: list[str]) -> Future:
        return self.feedback_processes.submit(nbgrader_api.generate_feedback, str(root), assignment, students, others)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.feedback_processes.shutdown(cancel_futures=True)
        self.client.close()
