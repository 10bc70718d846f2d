"""Inputs that are big in one dimension: a 10 MB string of ``\\XX`` escapes and values nested
thousands of levels deep, read and printed by llvmpy_mid beside ``opt-19 -S`` in one run.

Each input is generated into a temporary folder, then run twice as a separate process: ``python
-c 'parse_file + print'`` and ``opt-19 -S FILE -o OUT``. For both the wall-clock time (process
start included) and the peak resident memory (``ru_maxrss`` of the child, as ``/usr/bin/time -v``
reports it: the script needs ``/usr/bin/time``) are printed side by side, with whether our output equals opt-19's (apart from the
``; ModuleID`` line).

Inputs:

* ``string-c``: ``@s = constant [N x i8] c"\\XX\\XX..."`` of ``--string-mb`` MB (default 10);
* ``string-md``: the same bytes as a metadata string ``!{!"\\XX..."}``;
* ``nest-*``: ``--depth`` levels (default 5,000) of nested array and struct types, constant
  getelementptr expressions and metadata tuples (aggregate constants nest at ``--depth`` / 5,
  since opt-19 prints their type at every level: the output grows with the square of the depth).

    python benchmarks/bench_big_inputs.py [--string-mb 10] [--depth 5000] [--only NAME]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]

_OURS = (
    "import sys; sys.path.insert(0, %r)\n"
    "from llvmpy_mid import parse_file, print_module\n"
    "text = print_module(parse_file(sys.argv[1]))\n"
    "open(sys.argv[2], 'w').write(text)\n"
) % str(REPO_ROOT)


def string_inputs(mb: float) -> dict[str, str]:
    rng = random.Random(1)
    n = int(mb * 1_000_000) // 3
    body = "".join("\\%02X" % b for b in rng.randbytes(n))
    return {
        "string-c": '@s = constant [%d x i8] c"%s"\n' % (n, body),
        "string-md": '!named = !{!0}\n!0 = !{!"%s"}\n' % body,
    }


def nest_inputs(depth: int) -> dict[str, str]:
    out: dict[str, str] = {}
    t = "i32"
    for _ in range(depth):
        t = "[1 x %s]" % t
    out["nest-array-type"] = "@g = external global %s\n" % t
    t = "i32"
    for i in range(depth):
        t = ("{ i8, %s }" if i % 2 else "[2 x %s]") % t
    out["nest-mixed-type"] = "@g = external global %s\n" % t
    v = "ptr @a"
    for _ in range(depth):
        v = "ptr getelementptr (i8, %s, i64 1)" % v
    out["nest-gep"] = "@a = global [4 x i8] zeroinitializer\n@g = global %s\n" % v
    v = "!{}"
    for _ in range(depth):
        v = "!{%s}" % v
    out["nest-md-tuple"] = "!named = !{!0}\n!0 = %s\n" % v
    shallow = max(1, depth // 5)
    t, v = "i32", "i32 7"
    for _ in range(shallow):
        v = "{ %s } { %s }" % (t, v)
        t = "{ %s }" % t
    out["nest-struct-const"] = "@g = global %s\n" % v
    return out


def run(argv: list[str]) -> tuple[float, int, int, str]:
    """(seconds, peak RSS in MB, exit status, stderr tail) of one child process. The peak is
    measured by ``/usr/bin/time`` (a small process of its own: a child forked straight from this
    one would count this process's memory as its own)."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - start
    lines = proc.stderr.decode(errors="replace").rstrip("\n").split("\n")
    peak_kb = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    return seconds, peak_kb // 1024, proc.returncode, "\n".join(lines[:-1])[-300:]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--string-mb", type=float, default=10.0)
    ap.add_argument("--depth", type=int, default=5000)
    ap.add_argument("--only", default="", help="run only the inputs whose name contains this")
    args = ap.parse_args()
    print("%-18s %9s %10s %9s %10s %6s  %s" % ("input", "ours s", "ours MB", "opt s", "opt MB", "ratio", "same"))
    with tempfile.TemporaryDirectory() as tmp:
        # All inputs are written first and dropped: a child forked from a big parent would
        # report the parent's memory as its peak.
        names: list[str] = []
        for make in (lambda: string_inputs(args.string_mb), lambda: nest_inputs(args.depth)):
            for name, text in make().items():
                if args.only in name:
                    (Path(tmp) / (name + ".ll")).write_text(text)
                    names.append(name)
        for name in names:
            src = Path(tmp) / (name + ".ll")
            ours_out, opt_out = Path(tmp) / (name + ".ours"), Path(tmp) / (name + ".opt")
            t_ours, m_ours, rc_ours, err_ours = run([sys.executable, "-c", _OURS, str(src), str(ours_out)])
            t_opt, m_opt, rc_opt, _ = run(["opt-19", "-S", str(src), "-o", str(opt_out)])
            if rc_ours != 0:
                same = "ours failed: " + err_ours.strip().splitlines()[-1] if err_ours.strip() else "ours failed"
            elif rc_opt != 0:
                same = "opt-19 failed"
            else:
                a = ours_out.read_text().split("\n", 1)[1]
                b = opt_out.read_text().split("\n", 1)[1]
                same = "yes" if a == b else "NO"
            print(
                "%-18s %9.2f %10d %9.2f %10d %6.1f  %s"
                % (name, t_ours, m_ours, t_opt, m_opt, t_ours / max(t_opt, 1e-9), same)
            )


if __name__ == "__main__":
    main()
