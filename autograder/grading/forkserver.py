"""The fork server: TensorFlow is imported once per worker, and every submission still gets a fresh kernel.

A stock kernel spends most of its start importing TensorFlow (3-5 s, longer than a notebook's
tests). Here one long-lived process, the server, imports the setup cell's heavy modules and never
runs student code; for each submission it forks a child that becomes an ordinary IPython kernel, ready
in a fraction of a second. The child is a new process with copy-on-write memory, so no student's
code can reach another's: when a kernel ends, the server kills anything it left running, reports on
its stdout how the kernel ended (for the limits it met, see limits.py), and before the next fork
empties the writable folders and copies the next submission in. The server itself is out of reach:
it is not dumpable (no ptrace, no /proc/PID/mem), its configuration comes on its stdin, and a kernel
that kills it only ends its own grading; the worker starts a new one.

jupyter_client starts kernels as commands, so the command it runs is `attach`: a small process that
asks the server for a kernel, passes signals on, and exits with the kernel's exit status. If attach
is killed, the server kills the kernel. This file runs as a script on both sides (the server inside
the sandbox, where the course's code is hidden, gets its text with `python -c`): the standard
library only, and nothing imported before it is needed.
"""
import json
import os
import select
import shutil
import signal
import socket
import sys

# Imported by every notebook's setup cell: paid once per server instead of once per submission.
PRELOAD = ("numpy", "matplotlib", "tensorflow", "keras", "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.debugger")
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4


def _send(conn, message):
    try:
        conn.sendall(json.dumps(message).encode() + b"\n")
    except OSError:  # the other side is gone (attach killed): nobody is left to tell
        pass


def _warm_input_transforms(cells):
    """Transform `cells` once, here, for every kernel forked later.

    IPython tokenizes a cell's whole text several times before running it: 0.6 s for the
    2,000-line setup cell on Python 3.11, paid by every submission, and as long as the rest of
    a notebook's cells together. The setup cell's text is the same for every submission, so its
    transformed text is kept, and handed out for exactly that text and only while the kernel's
    transformers are IPython's defaults; any other cell is transformed as usual.
    """
    from IPython.core.inputtransformer2 import TransformerManager

    transform = TransformerManager.transform_cell
    default = TransformerManager()
    known = {cell: transform(default, cell) for cell in cells}

    def transform_cell(self, cell):
        if (cell in known and self.cleanup_transforms == default.cleanup_transforms
                and self.line_transforms == default.line_transforms
                and self.token_transformers == default.token_transformers):
            return known[cell]
        return transform(self, cell)

    TransformerManager.transform_cell = transform_cell


def serve(socket_path, config):
    """Preload, then fork one kernel per connection, one at a time, until killed.

    config (read from stdin, where no kernel can change it for the next server):
      sandboxed:    the server is alone in its own process namespace (see sandbox.py), so whatever else
                    runs there after a kernel ends is the kernel's and is killed; otherwise only the
                    kernel's session is;
      workdir, inbox: the kernel's folder, filled from the inbox (the submission's files) before each fork;
      scratch:      folders emptied before each fork (the last kernel's files), the workdir among them;
      sockets:      the folder of the server's socket and the kernel's, emptied but for the server's after each kernel;
      sizes:        {folder: size} of those that are size-limited: the end-of-kernel report says which are full;
      rlimits:      {resource name: value} set in each kernel;
      from_grading: the variables a kernel may take from its client's environment;
      warm_cells:   cells every submission runs as they are (see _warm_input_transforms).
    The server's own environment is every kernel's (sandbox.ENVIRONMENT).
    """
    # matplotlib reads its backend when imported: the kernel's own choice is applied after the fork.
    os.environ.pop("MPLBACKEND", None)
    import importlib
    import ctypes

    for name in PRELOAD:
        importlib.import_module(name)
    _warm_input_transforms(config["warm_cells"])
    libc = ctypes.CDLL(None)
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the worker that started it is gone: so is it
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(1)
    print("ready", flush=True)
    while True:
        conn, _ = listener.accept()
        with conn:
            request = json.loads(conn.makefile("r").readline() or "null")
            if not request:
                continue
            if request.get("ping"):  # the worker checks the server is still here before each submission
                _send(conn, {"pong": True})
                continue
            mounts = _mount_points()
            for folder in config["scratch"]:
                _empty(folder, mounts)
            shutil.copytree(config["inbox"], config["workdir"], dirs_exist_ok=True)
            pid = os.fork()
            if pid == 0:
                listener.close()
                _become_kernel(request, conn, config)
            _send(conn, {"pid": pid})
            status, cpu = _supervise(conn, pid)
            _signal_session(pid, signal.SIGKILL)
            stopped = config["sandboxed"] and not _kill_leftovers()
            # The worker reads this on the server's stdout, which no kernel can write to.
            print(json.dumps({"exit": status, "cpu": cpu, "full": _full(config["sizes"])}), flush=True)
            _empty(config["sockets"], _mount_points(), keep=socket_path)
            if stopped:
                _send(conn, {"exit": status, "server": "stopped: a kernel left processes it could not kill"})
                return
            _send(conn, {"exit": status})


def _become_kernel(request, conn, config):
    """In the forked child: a new session, the kernel's limits and environment, then the IPython kernel."""
    try:
        conn.close()
        import ctypes
        import resource

        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the server is killed: so is this kernel
        os.setsid()
        for name, value in config["rlimits"].items():
            # soft below hard: at the soft CPU limit SIGXCPU ends Python; a kernel that ignores it is killed 2 s later
            hard = value + 2 if name == "RLIMIT_CPU" else value
            resource.setrlimit(getattr(resource, name), (value, hard))
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1):  # ipykernel's "connect another client with..." banner
            os.dup2(devnull, fd)
        os.chdir(config["workdir"])
        os.environ.update({name: request["env"][name] for name in config["from_grading"] if name in request["env"]})
        import matplotlib

        os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)  # what ipykernel sets when nothing is chosen
        matplotlib.rcParams["backend"] = os.environ["MPLBACKEND"]
        sys.argv = ["ipykernel_launcher"] + request["argv"]
        from ipykernel import kernelapp

        kernelapp.launch_new_instance(argv=request["argv"])
    except SystemExit as stop:
        os._exit(stop.code if isinstance(stop.code, int) else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        os._exit(1)
    os._exit(0)


def _supervise(conn, pid):
    """Pass attach's signals to the kernel until it exits; kill it if attach goes away.
    Returns its exit code and the CPU seconds it used."""
    exited = os.pidfd_open(pid)  # readable once the kernel has exited
    buffer = b""

    def reap():
        _, status, usage = os.wait4(pid, 0)
        return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime

    try:
        while True:
            readable, _, _ = select.select([conn, exited], [], [])
            if exited in readable:
                return reap()
            data = conn.recv(4096)
            if not data:  # attach was killed: so is its kernel
                _signal_session(pid, signal.SIGKILL)
                return reap()
            buffer += data
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                _signal_session(pid, json.loads(line)["signal"])
    finally:
        os.close(exited)


def _signal_session(pid, signum):
    try:
        os.killpg(pid, signum)
    except ProcessLookupError:
        pass


def _others():
    """Every process the server can see but itself and its sandbox's init."""
    keep = {os.getpid(), os.getppid(), 1}
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and int(p) not in keep]


def _kill_leftovers(rounds=100):
    """Kill what the last kernel left running (a daemon, a fork bomb); False if some of it survives."""
    import time

    for _ in range(rounds):
        others = _others()
        if not others:
            return True
        for pid in others:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
        time.sleep(0.01)
    return not _others()


def _full(sizes):
    """The size-limited folders the last kernel filled (less than 1% free)."""
    full = []
    for folder, size in sizes.items():
        try:
            stat = os.statvfs(folder)
        except OSError:
            continue
        if stat.f_bavail * stat.f_frsize < size / 100:
            full.append(folder)
    return full


def _mount_points():
    with open("/proc/self/mountinfo") as mountinfo:
        return {line.split()[4] for line in mountinfo}


def _empty(folder, mounts, keep=None):
    """Remove everything inside `folder` (the last kernel's /tmp, home, ...) but `keep`, the folders
    mounted into the sandbox (the worker's own, the Python environment) and the way to them."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for name in entries:
        path = os.path.join(folder, name)
        if path in mounts or path == keep:
            continue
        if any(mount.startswith(path + "/") for mount in mounts):
            _empty(path, mounts)
        elif os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def ping(socket_path):
    """True when a server answers on `socket_path`."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(10)
            conn.connect(socket_path)
            _send(conn, {"ping": True})
            return json.loads(conn.makefile("r").readline() or "null") == {"pong": True}
    except (OSError, ValueError):
        return False


def attach(socket_path, argv):
    """Ask the server for a kernel started with `argv`; relay signals; exit as the kernel exits."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(socket_path)
    _send(conn, {"argv": argv, "env": dict(os.environ)})  # its environment holds only what a kernel may take
    replies = conn.makefile("r")
    started = json.loads(replies.readline() or "null")
    if not started:
        sys.exit("the fork server closed the connection without starting a kernel")

    def relay(signum, frame):
        _send(conn, {"signal": signum})

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, relay)
    ended = json.loads(replies.readline() or "null")
    code = ended["exit"] if ended else 1
    sys.exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    if command == "serve":
        serve(rest[0], json.loads(sys.stdin.readline()))
    elif command == "attach":
        attach(rest[0], rest[1:])
    else:
        sys.exit("usage: forkserver.py serve SOCKET < CONFIG_JSON | attach SOCKET KERNEL_ARGS...")
