"""A fork server for ``llvmpy-opt``, so that LLVM's tests do not pay Python's start-up per RUN line.

What it does: :class:`OptServer` starts one process that imports the whole package once, then
listens on a Unix socket. ``opt_client.py`` (what the conformance runner puts where a RUN line says
``opt``) connects, passes its standard input, output and error as file descriptors, its arguments,
working folder and environment; the server forks, and the child becomes that ``llvmpy-opt``
invocation (``llvmpy_mid.cli.main``) on the client's descriptors, then reports its exit code. A
child that runs past the time limit is stopped by ``SIGALRM`` (exit 124, as ``timeout`` says).

It is a test tool: one user, a socket in a private temporary folder, no authentication beyond the
folder's permissions. It does not serve ``python -m llvmpy_mid`` callers that do not go through the
client.
"""

from __future__ import annotations

import array
import os
import pkgutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOCKET_ENV = "LLVMPY_MID_OPT_SOCKET"
CLIENT = Path(__file__).resolve().parent / "opt_client.py"
REPO_ROOT = Path(__file__).resolve().parents[2]


def _preload() -> None:
    """Import every module of the package, so a forked child imports nothing."""
    import llvmpy_mid

    for info in pkgutil.walk_packages(llvmpy_mid.__path__, "llvmpy_mid."):
        if info.name.endswith("__main__"):
            continue
        try:
            __import__(info.name)
        except Exception:  # an optional module that cannot import here: the child will say so
            pass


def _recv_exact(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _child(conn: socket.socket, fds: list[int], payload: bytes, limit: float) -> None:
    """Runs in the forked child: become the client's llvmpy-opt process, report the exit code."""
    import json

    import llvmpy_mid.cli as cli
    from llvmpy_mid.cli import main

    request = json.loads(payload)
    for target, fd in enumerate(fds[:3]):
        os.dup2(fd, target)
    for fd in fds:
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["llvmpy-opt"] + request["argv"]
    signal.signal(signal.SIGALRM, lambda *_: os._exit(124))
    cli.BEFORE_ABORT = lambda: conn.sendall(struct.pack("!i", -6))  # the client aborts in turn
    signal.setitimer(signal.ITIMER_REAL, limit)
    code = 2
    try:
        code = main(request["argv"])
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        try:
            conn.sendall(struct.pack("!i", code))
        finally:
            os._exit(0)


def serve(path: str, limit: float) -> None:
    """Accept clients on the Unix socket ``path`` until killed."""
    _preload()
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(64)
    while True:
        conn, _ = server.accept()
        try:
            (size,) = struct.unpack("!I", _recv_exact(conn, 4))
            fds_array = array.array("i")
            msg, anc, _flags, _addr = conn.recvmsg(size, socket.CMSG_LEN(3 * fds_array.itemsize))
            while len(msg) < size:
                msg += _recv_exact(conn, size - len(msg))
            fds: list[int] = []
            for level, kind, data in anc:
                if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    fds_array.frombytes(data[: len(data) - len(data) % fds_array.itemsize])
                    fds.extend(fds_array)
        except (EOFError, OSError, struct.error):
            conn.close()
            continue
        pid = os.fork()
        if pid == 0:
            server.close()
            _child(conn, fds, msg, limit)
        for fd in fds:
            os.close(fd)
        conn.close()


class OptServer:
    """A running fork server; ``env()`` gives the variable that points clients at it."""

    def __init__(self, limit: float = 60.0) -> None:
        self._dir = tempfile.mkdtemp(prefix="llvmpy-opt-server-")
        self.path = os.path.join(self._dir, "opt.sock")
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        self._proc = subprocess.Popen(
            [sys.executable, __file__, self.path, str(limit)], env=env, stdin=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 60
        while not os.path.exists(self.path):
            if self._proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("llvmpy-opt fork server did not start")
            time.sleep(0.02)

    def env(self) -> dict[str, str]:
        return {SOCKET_ENV: self.path}

    def close(self) -> None:
        self._proc.terminate()
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
        try:
            os.unlink(self.path)
            os.rmdir(self._dir)
        except OSError:
            pass

    def __enter__(self) -> "OptServer":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    serve(sys.argv[1], float(sys.argv[2]))
