"""nbgrader's Execute on a kernel forked by the fork server, and the end of a kernel that is stuck.

Kept apart from pool.py, which a worker process imports first: the worker starts its fork server
(TensorFlow's import) before it imports nbgrader and jupyter_client for this module, so the two
imports overlap.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import uuid
from pathlib import Path
from queue import Empty

from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import ensure_async
from nbgrader.preprocessors import Execute
from traitlets import Any, Float, Integer, Unicode

from . import forkserver, sandbox

SERVER_SCRIPT = Path(forkserver.__file__).resolve()


class ForkedKernelManager(AsyncKernelManager):
    """jupyter_client's kernel manager, with the kernel forked by a fork server instead of started."""

    server_socket = Unicode(help="the fork server's socket").tag(config=True)
    connection_dir = Unicode(help="where this side writes the kernel's connection file (its content goes to "
                                  "the server, which writes it in the kernel's own folder)").tag(config=True)
    kernel_folder = Unicode(help="the kernel's socket folder, as the kernel sees it").tag(config=True)
    server_pid = Integer(0, help="the fork server's process id, when each kernel has a filesystem of its own: the "
                                 "kernel's folder is reached through its keeper's /proc/PID/root").tag(config=True)
    ready_timeout = Float(180, help="seconds a kernel gets to bind its sockets").tag(config=True)
    on_started = Any(None, help="called once the kernel is up, before any cell runs").tag(config=True)

    async def _async_pre_start_kernel(self, **kw):
        # Local sockets at absolute paths, in the kernel's own folder (TCP on 127.0.0.1 cannot cross the
        # network namespace); the connection file names them as the kernel sees them.
        self.transport = "ipc"
        self.ip = f"{self.kernel_folder}/kernel"
        self.connection_file = os.path.join(self.connection_dir, f"kernel-{uuid.uuid4().hex}.json")
        # A signal would reach `attach`, not the kernel's own handler: interrupt over the control channel.
        self.kernel_spec.interrupt_mode = "message"
        kernel_cmd, kw = await super()._async_pre_start_kernel(**kw)
        # attach passes its environment on to the kernel: only what a kernel may take from grading
        kw["env"] = sandbox.from_grading(kw.get("env") or os.environ)
        kernel_args = kernel_cmd[kernel_cmd.index("-f"):]  # the connection file and nbgrader's extra arguments
        kernel_args[1] = f"{self.kernel_folder}/kernel.json"
        return [sys.executable, str(SERVER_SCRIPT), "attach", self.server_socket, self.connection_file, *kernel_args], kw

    async def _async_post_start_kernel(self, **kw):
        self.ip = f"{await self._kernel_folder_here()}/kernel"  # this side's way to the same sockets
        if self.on_started is not None:
            self.on_started()
        await super()._async_post_start_kernel(**kw)

    async def _kernel_folder_here(self) -> str:
        """The kernel's socket folder as this process reaches it, once the server's keeper has made it read-only
        (no link the kernel could plant is ever followed from here)."""
        deadline = time.monotonic() + self.ready_timeout
        while time.monotonic() < deadline:
            for folder in ([f"/proc/{pid}/root{self.kernel_folder}" for pid in children(self.server_pid)]
                           if self.server_pid else [self.kernel_folder]):
                if os.path.exists(os.path.join(folder, forkserver.READY)):
                    return folder
            if self.provisioner is not None and await self.provisioner.poll() is not None:
                raise RuntimeError("the kernel ended before its sockets were ready")
            await asyncio.sleep(0.02)
        raise TimeoutError(f"the kernel's sockets were not ready after {self.ready_timeout:g} s")


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid`."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                pass
    return found


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
    output_bytes = Integer(64 * 1024 ** 2, help="bytes of outputs one submission may send back, all cells "
                                                "together: past them its outputs are dropped").tag(config=True)
    running = 0  # the index of the cell last sent to the kernel
    received = 0  # bytes of outputs received so far

    def __init__(self, **kw):
        super().__init__(**kw)
        self.kept_past_cap = set()  # (cell index, kind) of the outputs kept past output_bytes

    def output(self, outs, msg, display_id, cell_index):
        """Keep an output while the submission's outputs fit `output_bytes` (a kernel could otherwise fill the
        grader's memory), and say once, where they stop, why the rest is missing. Past the cap, what nbgrader
        scores a cell by still comes through, cut short, once per cell: an error, anything on stderr, a result."""
        from nbformat.v4 import new_output

        if self.received <= self.output_bytes:
            self.received += len(json.dumps(msg.get("content", {})))
            if self.received <= self.output_bytes:
                return super().output(outs, msg, display_id, cell_index)
            outs.append(new_output("stream", name="stdout", text="[outputs dropped from here on: this submission's "
                                   f"outputs passed {self.output_bytes // 1024 ** 2} MiB]\n"))
        kind = msg["msg_type"] if msg["msg_type"] != "stream" else msg["content"].get("name")
        if kind not in ("error", "stderr", "execute_result") or (cell_index, kind) in self.kept_past_cap:
            return None
        self.kept_past_cap.add((cell_index, kind))
        content = msg["content"]
        if kind == "error":
            evalue = str(content.get("evalue", ""))[:1024]
            out = new_output("error", ename=str(content.get("ename", ""))[:200], evalue=evalue, traceback=[evalue])
        elif kind == "stderr":
            out = new_output("stream", name="stderr", text=str(content.get("text", ""))[:1024])
        else:
            out = new_output("execute_result", data={"text/plain": str(content.get("data", {}).get("text/plain", ""))[:1024]},
                             execution_count=content.get("execution_count"))
        outs.append(out)
        return out

    async def async_execute_cell(self, cell, cell_index, *args, **kw):
        self.running = cell_index
        return await super().async_execute_cell(cell, cell_index, *args, **kw)

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


def _mark_not_run(nb, first: int, why: str) -> None:
    """Every code cell from `first` on gets an error saying why it has no result (nbgrader scores 0)."""
    from nbformat.v4 import new_output

    first_line = next(iter(nb.cells[first].source.strip().splitlines()), "")
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code" or index < first:
            continue
        said = why if index == first else f"not run: the kernel was ended in an earlier cell, the one that begins {first_line[:60]!r}"
        cell.outputs.append(new_output("error", ename="KernelStuck", evalue=said, traceback=[f"KernelStuck: {said}"]))


def stuck_reason(stuck: KernelStuck) -> str:
    return (f"the kernel was still busy {stuck.seconds:g} s after this cell's time limit and an interrupt "
            "(a loop inside a tf.function ignores interrupts)")
