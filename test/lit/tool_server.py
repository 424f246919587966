"""A fork server for lit's RUN lines: gir's tools with their imports already done.

Started once per lit run by lit.cfg.py; `python tool_server.py SOCKET` imports
`gir.tools.opt`, `gir.tools.translate`, `gir.tools.run` and FileCheck's
`filecheck.main` (most of a tool's start-up: 0.47 s of gir-opt's 0.57 s on
bfs.gt) and every other module of gir (`preload`), listens on the Unix socket
SOCKET and prints `ready`. Each RUN line's `gir-opt`, `gir-translate`,
`gir-run` or `filecheck` is `tool_client.py`, which sends its arguments,
working directory, environment and standard streams (as file descriptors). For
each request the server forks a handler, which forks the tool's process: that
process takes the client's streams, directory, environment, umask and resource
limits and runs the tool's `main` as `python -m gir.tools.TOOL` would, and the
handler sends back how it ended (an exit status, or the signal that killed
it), which the client exits with.

Every tool run is a process of its own, started from the same imported modules;
nothing one run does is seen by another.
"""

from __future__ import annotations

import atexit
import importlib
import json
import os
import pkgutil
import resource
import signal
import socket
import sys
import traceback

TOOLS = {
    "opt": "gir.tools.opt",
    "translate": "gir.tools.translate",
    "run": "gir.tools.run",
    "filecheck": "filecheck.main",
}
"""The tools served, by the name a client asks for: their modules (each with a
`main`). FileCheck is served too: the RUN lines call it ~750 times, 0.14 s of
start-up each as a process of its own."""

PARENT_CHECK_S = 5
"""How often the idle server checks that lit, which started it, still runs."""
LENGTH_BYTES = 8
"""A request is its length (big-endian) and then its JSON: tool, arguments,
directory, environment; the client's three streams come with its first bytes."""


def preload() -> None:
    """Imports every module of gir: the tools import their frontend, passes and
    printers when a run needs them, and each forked run importing them again
    was a sixth of lit's time (0.12 s here, once)."""
    import gir

    for module in pkgutil.walk_packages(gir.__path__, "gir."):
        if not module.name.endswith("__main__"):  # `python -m gir`'s, which runs on import
            importlib.import_module(module.name)


def serve(path: str) -> None:
    """Imports the tools, listens on `path` and forks a handler per connection."""
    modules = {name: importlib.import_module(module) for name, module in TOOLS.items()}
    preload()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # handlers are reaped by the kernel
    print("ready", flush=True)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, sys.stdout.fileno())  # lit stops reading after "ready"
    os.close(null)
    lit = os.getppid()
    listener.settimeout(PARENT_CHECK_S)
    while True:
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            if os.getppid() != lit:  # lit was killed before it could stop the server
                os.unlink(path)
                return
            continue
        connection.setblocking(True)
        if os.fork() == 0:
            listener.close()
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            try:
                handle(connection, modules)
            finally:
                os._exit(0)
        connection.close()


def handle(connection: socket.socket, modules: dict[str, object]) -> None:
    """Reads one request, runs its tool in a child process and answers with how
    the child ended: `exit N` or `signal N`."""
    message, fds, _, _ = socket.recv_fds(connection, 1 << 16, 3)
    length = int.from_bytes(message[:LENGTH_BYTES], "big")
    while len(message) < LENGTH_BYTES + length:
        chunk = connection.recv(1 << 16)
        if not chunk:
            raise EOFError("the client closed the connection mid-request")
        message += chunk
    request = json.loads(message[LENGTH_BYTES:])
    child = os.fork()
    if child == 0:
        connection.close()
        os._exit(run_tool(modules[request["tool"]], request, fds))
    for fd in fds:
        os.close(fd)
    _, status = os.waitpid(child, 0)
    if os.WIFSIGNALED(status):
        answer = f"signal {os.WTERMSIG(status)}"
    else:
        answer = f"exit {os.waitstatus_to_exitcode(status)}"
    connection.sendall(answer.encode())
    connection.close()


def run_tool(module, request: dict, fds: list[int]) -> int:
    """In the tool's process: takes the client's streams, directory, environment,
    umask, resource limits and arguments, runs the tool's `main` and returns its
    exit status."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    # Streams of their own over the client's descriptors: the server's were
    # opened on other files, and a stream decides whether it can seek when it
    # is opened (FileCheck reconfigures its streams, which seeks where it can).
    sys.stdin = open(0, encoding=sys.stdin.encoding, closefd=False)
    sys.stdout = open(1, "w", encoding=sys.stdout.encoding, closefd=False)
    sys.stderr = open(2, "w", encoding=sys.stderr.encoding, errors="backslashreplace", buffering=1, closefd=False)
    for name, limit in request["limits"].items():
        if tuple(limit) != resource.getrlimit(getattr(resource, name)):
            resource.setrlimit(getattr(resource, name), tuple(limit))
    os.umask(request["umask"])
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [module.__file__, *request["argv"]]
    try:
        code = module.main()
    except SystemExit as exit_:
        code = exit_.code
    except BaseException:
        traceback.print_exc()
        code = 1
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return code & 0xFF


if __name__ == "__main__":
    serve(sys.argv[1])
