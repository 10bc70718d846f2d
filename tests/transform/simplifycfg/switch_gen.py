"""Random switch functions for the SimplifyCFG switch and lookup-table property tests,
and the ``lli-19`` check that a pipeline keeps what each function returns.

:func:`random_switch_module` writes ``@f(i8 %x)``: a switch on ``%x`` (or on a masked,
extended or offset copy of it) whose cases go to blocks that reach one common
block, where a phi (or two) takes a constant, the condition, or a value computed
in the case block; the default may be unreachable. Case values are random, strided,
powers of two or contiguous, so that each switch rule gets its turn. ``@main``
calls ``@f`` on every input the original defines (all 256, or the case values when
the default is unreachable) and prints the results; :func:`check_same_under_lli`
runs it before and after the pipeline and compares.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module

DATALAYOUTS = ("", 'target datalayout = "e-n8:16:32:64"\n', 'target datalayout = "e-n32"\n')


def _case_values(rng: random.Random) -> list[int]:
    n = rng.randint(2, 9)
    style = rng.choice(("random", "strided", "pow2", "contiguous"))
    if style == "pow2":
        vals = [1 << i for i in rng.sample(range(8), min(n, 8))]
    elif style == "strided":
        base = rng.randint(-100, 100)
        stride = rng.choice((2, 4, 8, 3))
        vals = [base + stride * i for i in range(n)]
    elif style == "contiguous":
        base = rng.randint(-128, 120)
        vals = [base + i for i in range(n)]
    else:
        vals = rng.sample(range(-128, 128), n)
    out: list[int] = []
    seen: set[int] = set()
    for v in vals:
        w = ((v + 128) & 255) - 128
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def random_switch_module(seed: int) -> tuple[str, list[int]]:
    """The module text and the inputs ``@main`` feeds to ``@f``."""
    rng = random.Random(seed)
    cases = _case_values(rng)
    unreachable_default = rng.random() < 0.3
    cond_kind = rng.choice(("plain", "plain", "masked", "sext", "offset"))
    lines = ["define i32 @f(i8 %x) {", "entry:"]
    cond = "%x"
    ty = "i8"
    if cond_kind == "masked":
        mask = rng.choice((3, 7, 15, 0x3C, 0xF0))
        lines.append("  %%c = and i8 %%x, %d" % mask)
        cond = "%c"
    elif cond_kind == "sext":
        lines.append("  %c = sext i8 %x to i32")
        cond, ty = "%c", "i32"
    elif cond_kind == "offset":
        lines.append("  %c = add i8 %x, 5")
        cond = "%c"
    n_dest = rng.randint(1, len(cases))
    default = "unr" if unreachable_default else "d"
    lines.append("  switch %s %s, label %%%s [" % (ty, cond, default))
    dests = [rng.randrange(n_dest) for _ in cases]
    for v, d in zip(cases, dests):
        lines.append("    %s %d, label %%b%d" % (ty, v, d))
    lines.append("  ]")
    two_phis = rng.random() < 0.3
    incoming_r: list[str] = []
    incoming_s: list[str] = []
    for d in range(n_dest):
        lines.append("b%d:" % d)
        kind = rng.random()
        if kind < 0.15:
            lines.append("  %%v%d = add i8 %%x, %d" % (d, rng.randint(-9, 9)))
            lines.append("  %%w%d = zext i8 %%v%d to i32" % (d, d))
            value = "%%w%d" % d
        elif kind < 0.25 and ty == "i32":
            value = cond
        else:
            value = str(rng.choice((rng.randint(-3, 3), rng.randint(-1000, 1000), 7 * d + 1)))
        lines.append("  br label %end")
        incoming_r.append("[ %s, %%b%d ]" % (value, d))
        incoming_s.append("[ %d, %%b%d ]" % (rng.randint(0, 50), d))
    if unreachable_default:
        lines += ["unr:", "  unreachable"]
    else:
        lines += ["d:", "  br label %end"]
        incoming_r.append("[ %d, %%d ]" % rng.randint(-5, 5))
        incoming_s.append("[ %d, %%d ]" % rng.randint(0, 50))
    lines.append("end:")
    lines.append("  %%r = phi i32 %s" % ", ".join(incoming_r))
    if two_phis:
        lines.append("  %%s = phi i16 %s" % ", ".join(incoming_s))
        lines += ["  %t = zext i16 %s to i32", "  %u = mul i32 %r, %t", "  ret i32 %u"]
    else:
        lines.append("  ret i32 %r")
    lines.append("}")
    if unreachable_default:
        inputs = _inputs_reaching_cases(cases, cond_kind)
    else:
        inputs = list(range(-128, 128))
    text = rng.choice(DATALAYOUTS) + "\n".join(lines) + "\n"
    return text, inputs


def _inputs_reaching_cases(cases: list[int], cond_kind: str) -> list[int]:
    """The i8 inputs whose condition is one of the case values."""
    out: list[int] = []
    wanted = set(cases)
    for x in range(-128, 128):
        if cond_kind == "masked":
            continue
        c = x
        if cond_kind == "offset":
            c = ((x + 5 + 128) & 255) - 128
        if c in wanted:
            out.append(x)
    return out


def with_main(module_text: str, inputs: list[int]) -> str:
    """``module_text`` plus a ``@main`` printing ``@f`` of each input."""
    lines = [
        module_text,
        '@fmt = private constant [4 x i8] c"%d\\0A\\00"',
        "declare i32 @printf(ptr, ...)",
        "define i32 @main() {",
    ]
    for i, x in enumerate(inputs):
        lines.append("  %%r%d = call i32 @f(i8 %d)" % (i, x))
        lines.append("  call i32 (ptr, ...) @printf(ptr @fmt, i32 %%r%d)" % i)
    lines += ["  ret i32 0", "}"]
    return "\n".join(lines) + "\n"


def run_lli(text: str, tmp: Path, name: str) -> str:
    path = tmp / name
    path.write_text(text)
    r = subprocess.run(["lli-19", str(path)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


def check_same_under_lli(module_text: str, inputs: list[int], pipeline: str, tmp: Path) -> str:
    """Run ``pipeline`` on the module; ``lli-19`` prints the same results for ``@f``
    before and after. Returns the transformed module's text."""
    module = parse_assembly(module_text)
    llvmpy_mid.run_passes(module, pipeline)
    llvmpy_mid.verify_module(module)
    after = print_module(module)
    after_body = "\n".join(line for line in after.splitlines() if not line.startswith(("; ModuleID", "source_filename")))
    if not inputs:
        return after
    expected = run_lli(with_main(module_text, inputs), tmp, "before.ll")
    got = run_lli(with_main(after_body, inputs), tmp, "after.ll")
    assert got == expected, after
    return after
