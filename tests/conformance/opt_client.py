"""``opt`` for LLVM's RUN lines: hand this process's stdin/stdout/stderr to the fork server.

Run as ``python -I -S opt_client.py ARGS...`` (no site import: start-up in milliseconds). With
``$LLVMPY_MID_OPT_SOCKET`` unset or the server gone, it runs ``python -m llvmpy_mid`` itself.
Exit code: the served llvmpy-opt's (it aborts when the served one aborted).
"""

import json
import os
import socket
import struct
import sys


def main() -> int:
    path = os.environ.get("LLVMPY_MID_OPT_SOCKET", "")
    argv = sys.argv[1:]
    if path:
        payload = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        try:
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            conn.connect(path)
        except OSError:
            conn = None
        if conn is not None:
            conn.sendall(struct.pack("!I", len(payload)))
            socket.send_fds(conn, [payload], [0, 1, 2])
            data = b""
            while len(data) < 4:
                chunk = conn.recv(4 - len(data))
                if not chunk:
                    return 124  # the child was stopped (time limit) or died
                data += chunk
            code = int(struct.unpack("!i", data)[0])
            if code == -6:  # the served llvmpy-opt aborted (as opt-19 does): crash likewise
                os.abort()
            return code
    os.execv(sys.executable, [sys.executable, "-m", "llvmpy_mid"] + argv)
    return 2


if __name__ == "__main__":
    sys.exit(main())
