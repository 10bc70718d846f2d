"""``repr()`` of every instruction of a large csmith function, beside ``str()``.

``repr`` numbers the function once (the numbering is cached on the function and dropped on
edit); ``str(inst)`` numbers it again for each instruction, as LLVM's ``Value::print`` does.
The script finds a csmith program whose largest function has at least ``--min-insts``
instructions (clang-19 -O0), or takes ``--file``; it prints the time of repr over all
instructions, of str over a sample, and of repr with a rename between calls.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import llvmpy_mid
from llvmpy_mid.ir import Function


def _find_program(folder: Path, min_insts: int, first_seed: int, tries: int) -> Path | None:
    if shutil.which("csmith") is None or shutil.which("clang-19") is None:
        return None
    for seed in range(first_seed, first_seed + tries):
        c = folder / ("b%d.c" % seed)
        ll = folder / ("b%d.ll" % seed)
        with c.open("w") as out:
            if subprocess.run(
                ["csmith", "--seed", str(seed), "--max-funcs", "2", "--max-block-size", "8", "--max-expr-complexity", "12"],
                stdout=out, stderr=subprocess.DEVNULL,
            ).returncode:
                continue
        cmd = ["clang-19", "-O0", "-Xclang", "-disable-O0-optnone", "-S", "-emit-llvm", "-w", "-I/usr/include/csmith"]
        if subprocess.run(cmd + [str(c), "-o", str(ll)], stderr=subprocess.DEVNULL).returncode:
            continue
        m = llvmpy_mid.parse_file(ll)
        if max(f.instruction_count for f in m.functions) >= min_insts:
            return ll
    return None


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", type=Path, help="a .ll file to use instead of generating one")
    ap.add_argument("--min-insts", type=int, default=5000)
    ap.add_argument("--first-seed", type=int, default=200)
    ap.add_argument("--tries", type=int, default=60)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.file or _find_program(Path(tmp), args.min_insts, args.first_seed, args.tries)
        if path is None:
            print("no input: give --file, or install csmith and clang-19", file=sys.stderr)
            return 1
        m = llvmpy_mid.parse_file(path)
    fn: Function = max(m.functions, key=lambda f: f.instruction_count)
    insts = list(fn.instructions())
    print("function @%s: %d instructions, %d blocks" % (fn.name, len(insts), len(fn.blocks)))
    t = time.perf_counter()
    reprs = [repr(i) for i in insts]
    t_repr = time.perf_counter() - t
    print("repr of every instruction: %.3f s (%.1f us each)" % (t_repr, t_repr / len(insts) * 1e6))
    t = time.perf_counter()
    again = [repr(i) for i in insts]
    t_again = time.perf_counter() - t
    assert again == reprs
    print("again, numbering cached: %.3f s" % t_again)
    sample = insts[:: max(1, len(insts) // 100)]
    t = time.perf_counter()
    for i in sample:
        str(i)
    t_str = (time.perf_counter() - t) / len(sample)
    print("str() of one instruction: %.2f ms (all of them would take %.1f s)" % (t_str * 1e3, t_str * len(insts)))
    first = fn.entry_block.first_instruction
    assert first is not None
    t = time.perf_counter()
    for k in range(20):
        first.name = "renamed%d" % k
        repr(insts[-1])
    print("rename + repr (renumbers): %.1f ms each" % ((time.perf_counter() - t) / 20 * 1e3))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
