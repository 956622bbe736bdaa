"""nbgrader's Execute on a kernel forked by the fork server, and the end of a kernel that is stuck.

Kept apart from pool.py, which a worker process imports first: the worker starts its fork server
(TensorFlow's import) before it imports nbgrader and jupyter_client for this module, so the two
imports overlap.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from queue import Empty

from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async
from nbgrader.preprocessors import Execute
from traitlets import Integer, Unicode

from . import forkserver, sandbox

SERVER_SCRIPT = Path(forkserver.__file__).resolve()


class ForkedKernelManager(AsyncKernelManager):
    """jupyter_client's kernel manager, with the kernel forked by a fork server instead of started."""

    sockets = Unicode(help="the folder of the fork server's socket, and of the kernel's connection file and "
                           "sockets, as the kernel sees it").tag(config=True)
    root = Unicode("/", help="the kernel's filesystem as seen from here: /proc/PID/root of its sandbox").tag(config=True)

    def _seen_here(self, path: str) -> str:
        return os.path.join(self.root, path.lstrip("/"))

    async def _async_pre_start_kernel(self, **kw):
        # Local sockets at absolute paths, in a folder of the kernel's sandbox that its client reaches
        # through the sandbox's root (TCP on 127.0.0.1 cannot cross the network namespace).
        self.transport = "ipc"
        self.ip = self._seen_here(f"{self.sockets}/kernel")
        self.connection_file = self._seen_here(f"{self.sockets}/kernel.json")
        # A signal would reach `attach`, not the kernel's own handler: interrupt over the control channel.
        self.kernel_spec.interrupt_mode = "message"
        kernel_cmd, kw = await super()._async_pre_start_kernel(**kw)
        # attach passes its environment on to the kernel: only what a kernel may take from grading
        kw["env"] = sandbox.from_grading(kw.get("env") or os.environ)
        kernel_args = kernel_cmd[kernel_cmd.index("-f"):]  # the connection file and nbgrader's extra arguments
        kernel_args[1] = f"{self.sockets}/kernel.json"
        return [sys.executable, str(SERVER_SCRIPT), "attach", self._seen_here(f"{self.sockets}/server"), *kernel_args], kw

    def write_connection_file(self, **kw):
        """The connection file names the sockets' paths as the kernel sees them; this client keeps its own."""
        here, self.ip = self.ip, f"{self.sockets}/kernel"
        try:
            super().write_connection_file(**kw)
        finally:
            self.ip = here


class KernelStuck(Exception):
    """The kernel still did not answer some seconds after a cell's time limit and an interrupt."""

    def __init__(self, cell_index: int, seconds: float):
        super().__init__(cell_index, seconds)
        self.cell_index, self.seconds = cell_index, seconds


class GradingExecute(Execute):
    """nbgrader's Execute, except that a kernel an interrupt cannot stop is ended.

    A loop inside a tf.function ignores the interrupt: stock nbgrader then sends every later cell to
    the busy kernel, and each waits its whole time limit in turn (minutes per cell, hours per
    submission). Here the kernel gets `interrupt_grace` seconds to answer after the interrupt.
    """

    interrupt_grace = Integer(10, help="seconds a kernel gets to answer after an interrupt").tag(config=True)

    async def _async_handle_timeout(self, timeout, cell=None):
        reply = await super()._async_handle_timeout(timeout, cell)
        asked = self.kc.kernel_info()  # answered, in turn, once the interrupted cell has stopped
        deadline = time.monotonic() + self.interrupt_grace
        while (left := deadline - time.monotonic()) > 0:
            try:
                answer = await ensure_async(self.kc.shell_channel.get_msg(timeout=left))
            except Empty:
                break
            if answer["parent_header"].get("msg_id") == asked:
                return reply
        raise KernelStuck(next(i for i, c in enumerate(self.nb.cells) if c is cell), self.interrupt_grace)


def _mark_not_run(nb, stuck: KernelStuck) -> None:
    """Every code cell from the stuck one on gets an error saying why it has no result (nbgrader scores 0)."""
    from nbformat.v4 import new_output

    first_line = next(iter(nb.cells[stuck.cell_index].source.strip().splitlines()), "")
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or index < stuck.cell_index:
            continue
        why = (f"the kernel was still busy {stuck.seconds:g} s after this cell's time limit and an interrupt "
               "(a loop inside a tf.function ignores interrupts)" if index == stuck.cell_index else
               f"not run: the kernel was stuck in an earlier cell, the one that begins {first_line[:60]!r}")
        cell.outputs.append(new_output("error", ename="KernelStuck", evalue=why, traceback=[f"KernelStuck: {why}"]))
