"""The fork server: TensorFlow is imported once per worker, and every submission still gets a sandbox of its own.

A stock kernel spends most of its start importing TensorFlow (3-5 s, longer than a notebook's
tests). Here one long-lived process, the server, imports the setup cell's heavy modules and never
runs student code. For each submission it forks, while it is single-threaded, a child that builds
the submission's own sandbox and becomes an ordinary IPython kernel, ready in a fraction of a second:

    server (PID 1 of the worker's sandbox, see sandbox.py)
      └─ keeper: new mount, PID, IPC, UTS and network namespaces; a fresh size-limited tmpfs on
         │       every folder the kernel may write to; the server's folders covered
         └─ init (PID 1 of the kernel's namespace): mounts its /proc, reaps, reports how the kernel ended
              └─ kernel (PID 2): every capability dropped, then IPython

The kernel sees no process but its own, no descriptor but its own, and nothing another kernel or
the server wrote: what it writes disappears with its mounts when it ends. It talks to its client
through sockets in its own tmpfs, which the keeper makes read-only once they are bound, so the
client (reaching them through /proc/KEEPER/root) never follows a link the kernel planted. The
server is out of reach: not dumpable, in no namespace of the kernel's, its configuration on its
stdin, its report to the worker on its stdout, neither of which a kernel inherits.

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
READY = "ready"  # made by the keeper in the kernel's socket folder once it is read-only
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_CAPBSET_DROP, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 1, 4, 24, 47, 4
CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWPID, CLONE_NEWNET = 0x20000, 0x4000000, 0x8000000, 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 32, 4096, 16384, 1 << 18
LOG_CAP = 64 * 1024  # what one kernel's stderr may add to the server's log


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


def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _call(result, what):
    if result != 0:
        import ctypes

        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _threads():
    return len(os.listdir("/proc/self/task"))


def serve(socket_path, config):
    """Preload, then fork one kernel per connection, one at a time, until killed.

    config (read from stdin, where no kernel can change it for the next server):
      sandboxed:     each kernel gets namespaces and folders of its own (see the module's docstring);
                     otherwise it runs with the grader's rights in `workdir`, emptied before each kernel;
      workdir:       the kernel's folder, filled from `inbox` (the submission's files);
      kernel_folder: the folder of the kernel's connection file and sockets;
      fresh:         {folder: size}: a new tmpfs of that size on each, for each kernel (sandboxed);
      covered:       folders of the server's the kernel must not see (its socket, the inbox; sandboxed);
      rebound:       the Python environment's folders under `fresh` ones, bound again over them (sandboxed);
      emptied:       folders emptied before each kernel (unsandboxed);
      rlimits:       {resource name: value} set in each kernel;
      from_grading:  the variables a kernel may take from its client's environment;
      warm_cells:    cells every submission runs as they are (see _warm_input_transforms).
    The server's own environment is every kernel's (sandbox.ENVIRONMENT).
    """
    # matplotlib reads its backend when imported: the kernel's own choice is applied after the fork.
    os.environ.pop("MPLBACKEND", None)
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    _warm_input_transforms(config["warm_cells"])
    libc = _libc()
    libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the worker that started it is gone: so is it
    # OpenBLAS's threads end before a fork (its pthread_atfork handler) and start again only when the
    # BLAS is next used, which the server never does: after this fork the server is single-threaded.
    warm = os.fork()
    if warm == 0:
        os._exit(0)
    os.waitpid(warm, 0)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(1)
    print("ready", flush=True)
    log_fd = sys.stderr.fileno()
    while True:
        conn, _ = listener.accept()
        with conn:
            request = json.loads(conn.makefile("r").readline() or "null")
            if not request:
                continue
            if request.get("ping"):  # the worker checks the server is still here before each submission
                _send(conn, {"pong": True, "threads": _threads()})
                continue
            if _threads() != 1:  # fork(2) copies one thread: a lock another held would stay locked in the kernel
                _send(conn, {"exit": 1, "server": f"not forked: the server runs {_threads()} threads"})
                continue
            pipes = {name: os.pipe() for name in ("init", "report", "bound", "go", "stderr")}
            keeper = os.fork()
            if keeper == 0:
                listener.close()
                conn.close()
                _keeper(request, config, pipes)
            for name in ("init", "report", "bound", "go", "stderr"):
                os.close(pipes[name][1])
            for name in ("bound", "go"):
                os.close(pipes[name][0])
            _send(conn, {"pid": keeper})
            init = os.read(pipes["init"][0], 64).decode()
            os.close(pipes["init"][0])
            status, cpu = _supervise(conn, keeper, int(init) if init.isdigit() else None, pipes["stderr"][0], log_fd)
            with os.fdopen(pipes["report"][0]) as report:
                said = report.read(65536)
            try:  # the kernel's own exit status and the folders it filled, from its init
                ended = json.loads(said)
                status, full = os.waitstatus_to_exitcode(ended["status"]), ended["full"]
            except (ValueError, KeyError, TypeError):
                full = []
            _reap()
            # The worker reads this on the server's stdout, which no kernel can write to.
            print(json.dumps({"exit": status, "cpu": cpu, "full": full}), flush=True)
            _send(conn, {"exit": status})


def _keeper(request, config, pipes):
    """The submission's sandbox, then its init and its kernel. Runs with the server's capabilities."""
    try:
        libc = _libc()
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the server is killed: so is all of this
        _only_descriptors({pipes[n][i] for n, i in (("init", 1), ("report", 1), ("bound", 0), ("go", 1),
                                                     ("stderr", 1), ("go", 0), ("bound", 1))},
                          stderr=pipes["stderr"][1])
        folder = config["kernel_folder"]
        if config["sandboxed"]:
            _call(libc.unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET), "unshare")
            _call(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "make the mounts private")
            held = {path: os.open(path, os.O_PATH | os.O_DIRECTORY) for path in config["rebound"]}
            for path, size in config["fresh"].items():
                _call(libc.mount(b"tmpfs", path.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                                 f"size={size},mode={'1777' if path in ('/tmp', '/dev/shm') else '0755'}".encode()),
                      f"mount a tmpfs on {path}")
            for path, fd in held.items():  # the Python environment, where a new tmpfs hid it
                os.makedirs(path, exist_ok=True)
                _call(libc.mount(f"/proc/self/fd/{fd}".encode(), path.encode(), None, MS_BIND | MS_REC, None), f"bind {path}")
                _call(libc.mount(b"none", path.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY, None), f"{path} read-only")
                os.close(fd)
        else:  # the grader's own folders: emptied of the last kernel's files
            for path in config["emptied"]:
                _empty(path)
        shutil.copytree(config["inbox"], config["workdir"], dirs_exist_ok=True)
        for path in config["covered"] if config["sandboxed"] else ():
            _call(libc.mount(b"tmpfs", path.encode(), b"tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                             b"size=4k,mode=0555"), f"cover {path}")
        with open(os.path.join(folder, "kernel.json"), "w") as connection:
            connection.write(request["connection"])
        init = os.fork()
        if init == 0:
            _init(request, config, pipes)
        os.write(pipes["init"][1], str(init).encode())
        os.close(pipes["init"][1])
        for name in ("report", "go", "stderr"):
            os.close(pipes[name][0] if name == "go" else pipes[name][1])
        os.close(pipes["bound"][1])
        bound = os.read(pipes["bound"][0], 1)  # the kernel's sockets are there, or it ended first
        if bound and _only_sockets(folder):
            open(os.path.join(folder, READY), "w").close()
            if config["sandboxed"]:  # no link the kernel could plant there from now on
                _call(libc.mount(b"none", folder.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
                                 None), "make the socket folder read-only")
            os.write(pipes["go"][1], b"1")
        os.close(pipes["go"][1])
        os.waitpid(init, 0)
    except BaseException:
        import traceback

        traceback.print_exc()
        os._exit(1)
    os._exit(0)


def _init(request, config, pipes):
    """PID 1 of the kernel's namespace: its /proc, then the kernel; passes signals on; reaps; reports."""
    try:
        libc = _libc()
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        for fd in (pipes["init"][1], pipes["bound"][0], pipes["go"][1]):
            os.close(fd)
        if config["sandboxed"]:  # a /proc that shows this namespace's processes only
            _call(libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None), "mount /proc")
        kernel = os.fork()
        if kernel == 0:
            _become_kernel(request, config, pipes)
        for name in ("bound", "go", "stderr"):
            os.close(pipes[name][1] if name != "go" else pipes[name][0])
        _drop_capabilities(libc)

        def relay(signum, frame):  # from attach, through the server
            _signal_session(kernel, signum)

        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(signum, relay)
        status = None
        while status is None:
            try:
                pid, waited = os.wait()
            except ChildProcessError:
                break
            if pid == kernel:
                status = waited
        if not config["sandboxed"]:  # not PID 1 of its own namespace: end what the kernel left running
            _signal_session(kernel, signal.SIGKILL)
        full = [path for path, size in config["fresh"].items() if _is_full(path, size)]
        os.write(pipes["report"][1], json.dumps({"status": status if status is not None else 256, "full": full}).encode())
    except BaseException:
        import traceback

        traceback.print_exc()
        os._exit(1)
    os._exit(0)  # as PID 1, its end kills whatever the kernel left running


def _become_kernel(request, config, pipes):
    """The kernel: no capability, a new session, its limits and environment, then IPython, which runs
    student code only once its sockets are in the read-only folder."""
    try:
        import resource

        libc = _libc()
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        os.close(pipes["report"][1])
        _drop_capabilities(libc)
        os.setsid()
        for name, value in config["rlimits"].items():
            # soft below hard: at the soft CPU limit SIGXCPU ends Python; a kernel that ignores it is killed 2 s later
            hard = value + 2 if name == "RLIMIT_CPU" else value
            resource.setrlimit(getattr(resource, name), (value, hard))
        os.environ.update({name: request["env"][name] for name in config["from_grading"] if name in request["env"]})
        import matplotlib

        os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)  # what ipykernel sets when nothing is chosen
        matplotlib.rcParams["backend"] = os.environ["MPLBACKEND"]
        argv = request["argv"]
        sys.argv = ["ipykernel_launcher"] + argv
        from ipykernel.kernelapp import IPKernelApp

        os.chdir("/")  # IPython starts where no submitted file is, then the kernel runs in the submission's folder
        app = IPKernelApp.instance()
        app.initialize(argv)
        os.write(pipes["bound"][1], b"1")
        os.close(pipes["bound"][1])
        if os.read(pipes["go"][0], 1) != b"1":
            os._exit(1)
        os.close(pipes["go"][0])
        os.chdir(config["workdir"])
        app.start()
    except SystemExit as stop:
        os._exit(stop.code if isinstance(stop.code, int) else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        os._exit(1)
    os._exit(0)


def _only_descriptors(keep, stderr):
    """Close every descriptor but `keep`; standard input and output on /dev/null, standard error on `stderr`
    (never the server's: its stdout is the worker's report, its stderr the worker's log)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.dup2(stderr, 2)
    for fd in map(int, os.listdir("/proc/self/fd")):
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _drop_capabilities(libc):
    """Give up every capability, for good: nothing the process runs later can mount, trace or unshare."""
    import ctypes

    for cap in range(64):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the last capability: nothing to drop
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable (two words each): none
    _call(libc.capset(header, data), "drop capabilities")


def _only_sockets(folder):
    """True when the kernel's folder holds its connection file and sockets and nothing else (no link)."""
    import stat

    for name in os.listdir(folder):
        mode = os.lstat(os.path.join(folder, name)).st_mode
        if not (stat.S_ISSOCK(mode) or (name == "kernel.json" and stat.S_ISREG(mode))):
            return False
    return True


def _supervise(conn, keeper, init, stderr, log_fd):
    """Pass attach's signals to the kernel until it ends; end it if attach goes away; copy the start of
    its stderr to the log. Returns the keeper's exit code and the CPU seconds the kernel's processes used."""
    exited = os.pidfd_open(keeper)  # readable once the keeper has exited
    buffer, logged = b"", 0
    watched = [conn, exited, stderr]

    def reap():
        _, status, usage = os.wait4(keeper, 0)
        return os.waitstatus_to_exitcode(status), usage.ru_utime + usage.ru_stime

    def end(signum):
        if init is not None:  # the init of the kernel's namespace: its end ends every process in it
            _signal(init, signum)
        else:
            _signal(keeper, signal.SIGKILL)

    try:
        while True:
            readable, _, _ = select.select(watched, [], [])
            if stderr in readable:
                data = os.read(stderr, 65536)
                if not data:
                    watched.remove(stderr)
                elif logged < LOG_CAP:  # read on past the cap: a kernel never blocks on its stderr
                    os.write(log_fd, data[:LOG_CAP - logged])
                    logged += len(data)
            if exited in readable:
                return reap()
            if conn in readable:
                data = conn.recv(4096)
                if not data:  # attach was killed: so is its kernel
                    end(signal.SIGKILL)
                    watched.remove(conn)
                    continue
                buffer += data
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    end(json.loads(line)["signal"])
    finally:
        os.close(exited)
        os.close(stderr)


def _signal(pid, signum):
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass


def _signal_session(pid, signum):
    try:
        os.killpg(pid, signum)
    except ProcessLookupError:
        pass


def _reap():
    """The server is PID 1 of its sandbox: it waits for whatever ended there."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def _is_full(folder, size):
    """True when less than 1% of a size-limited folder is free."""
    try:
        stat = os.statvfs(folder)
    except OSError:
        return False
    return stat.f_bavail * stat.f_frsize < size / 100


def _empty(folder):
    """Remove everything inside `folder` (unsandboxed grading only: the kernel ran with the grader's rights)."""
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass


def ping(socket_path):
    """The server's answer on `socket_path` ({"pong": True, "threads": N}), or None."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(10)
            conn.connect(socket_path)
            _send(conn, {"ping": True})
            answer = json.loads(conn.makefile("r").readline() or "null")
            return answer if isinstance(answer, dict) and answer.get("pong") else None
    except (OSError, ValueError):
        return None


def attach(socket_path, connection_file, argv):
    """Ask the server for a kernel started with `argv` and the connection file's content; relay signals;
    exit as the kernel exits."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(socket_path)
    with open(connection_file) as file:
        connection = file.read()
    # its environment holds only what a kernel may take
    _send(conn, {"argv": argv, "env": dict(os.environ), "connection": connection})
    replies = conn.makefile("r")
    started = json.loads(replies.readline() or "null")
    if not started or "pid" not in started:
        sys.exit(f"the fork server started no kernel: {(started or {}).get('server', 'it closed the connection')}")

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
        attach(rest[0], rest[1], rest[2:])
    else:
        sys.exit("usage: forkserver.py serve SOCKET < CONFIG_JSON | attach SOCKET CONNECTION_FILE KERNEL_ARGS...")
