"""A RUN line's `gir-opt`, `gir-translate`, `gir-run` or `filecheck` when lit runs
them through `tool_server.py`: `python -I -S tool_client.py SOCKET TOOL ARGS...`
hands its arguments, working directory, environment, umask, resource limits (a
RUN line's `ulimit`) and standard streams to the server, waits for the tool's
process to end and ends the same way (its exit status, or
128 + the signal that killed it). Only the standard library, without `site`: it
starts in a few milliseconds."""

import json
import os
import resource
import socket
import sys

LENGTH_BYTES = 8


def main() -> int:
    path, tool, *argv = sys.argv[1:]
    umask = os.umask(0)
    os.umask(umask)
    limits = {
        name: resource.getrlimit(getattr(resource, name))
        for name in dir(resource)
        if name.startswith("RLIMIT_")
    }
    request = json.dumps(
        {
            "tool": tool,
            "argv": argv,
            "cwd": os.getcwd(),
            "env": dict(os.environ),
            "umask": umask,
            "limits": limits,
        }
    ).encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(path)
        message = len(request).to_bytes(LENGTH_BYTES, "big") + request
        sent = socket.send_fds(connection, [message], [0, 1, 2])
        connection.sendall(message[sent:])
        answer = b""
        while chunk := connection.recv(64):
            answer += chunk
    if not answer:
        print(f"tool_client: the tool server gave no answer for {tool}", file=sys.stderr)
        return 1
    how, number = answer.decode().split()
    return int(number) if how == "exit" else 128 + int(number)


if __name__ == "__main__":
    sys.exit(main())
