"""Random switch functions for the SimplifyCFG switch and lookup-table property tests,
and the ``lli-19`` check that a pipeline keeps what each function returns.

:func:`random_switch_module` writes ``@f(i8 %x)``: a switch on ``%x`` (or on a masked,
extended or offset copy of it) whose cases go to blocks that reach one common
block, where a phi (or two) takes a constant, the condition, or a value computed
in the case block; the default may be unreachable. Case values are random, strided,
powers of two or contiguous, so that each switch rule gets its turn. ``@main``
calls ``@f`` on every input the original defines (all 256, or the case values when
the default is unreachable) and prints the results; :func:`check_same_under_lli`
runs it before and after the pipeline and compares. :func:`random_switch_function`
and :func:`random_lookup_function` write wider switches for comparison with opt-19's
output.
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


def random_switch_function(seed: int) -> str:
    """A wider random switch for comparison with opt-19 (no ``@main``): conditions of
    1 to 128 bits (plain, masked or or-ed), optional ``!prof`` weights, case blocks
    that call, extend the condition or branch on ``%p`` through a second block, a
    default that is unreachable, its own block or the common block, and a common
    block with one or two phis or a compare of the phi."""
    r = random.Random(seed)
    ty = r.choice(("i8", "i16", "i32", "i64", "i3", "i2", "i128", "i1"))
    w = int(ty[1:])
    mask = (1 << w) - 1
    n = r.randint(1, 8)
    style = r.choice(("random", "strided", "pow2", "contiguous"))
    if style == "pow2":
        k = min(w, 10)
        vals = [1 << i for i in r.sample(range(k), min(n, k))]
    elif style == "strided":
        base = r.randint(-20, 20)
        stride = r.choice((2, 4, 3, 8))
        vals = [base + stride * i for i in range(n)]
    elif style == "contiguous":
        base = r.randint(-20, 20)
        vals = [base + i for i in range(n)]
    else:
        vals = [r.randint(-(1 << (w - 1)), (1 << (w - 1)) - 1) for _ in range(n)]
    seen: set[int] = set()
    cases: list[int] = []
    for v in vals:
        v &= mask
        if v not in seen:
            seen.add(v)
            cases.append(v)
    lines = ["define i32 @f(%s %%x, i1 %%p) {" % ty, "entry:"]
    cond = "%x"
    kind = r.choice(("plain", "plain", "mask", "or"))
    if kind == "mask":
        lines.append("  %%c = and %s %%x, %d" % (ty, r.choice((3, 6, 7, 12, mask >> 1))))
        cond = "%c"
    elif kind == "or":
        lines.append("  %%c = or %s %%x, %d" % (ty, r.choice((1, 4, 8))))
        cond = "%c"
    n_dest = r.randint(1, len(cases) + 1)
    unreachable = r.random() < 0.3
    default = "unr" if unreachable else r.choice(("d", "end"))
    prof = r.random() < 0.3
    lines.append("  switch %s %s, label %%%s [" % (ty, cond, default))
    for v in cases:
        lines.append("    %s %d, label %%b%d" % (ty, v, r.randrange(n_dest)))
    lines.append("  ]" + (", !prof !0" if prof else ""))
    inc: list[str] = []
    inc2: list[str] = []
    for d in range(n_dest):
        lines.append("b%d:" % d)
        k = r.random()
        if k < 0.2 and w != 32:
            lines.append("  %%z%d = %s %s %s to i32" % (d, "trunc" if w > 32 else "zext", ty, cond))
            value = "%%z%d" % d
        elif k < 0.3:
            lines.append("  call void @g()")
            value = str(r.randint(-3, 3))
        elif k < 0.4:
            lines.append("  br i1 %%p, label %%end, label %%b%dx" % d)
            inc.append("[ %d, %%b%d ]" % (r.randint(0, 9), d))
            inc2.append("[ 1, %%b%d ]" % d)
            lines += ["b%dx:" % d, "  br label %end"]
            inc.append("[ %d, %%b%dx ]" % (r.randint(0, 9), d))
            inc2.append("[ %d, %%b%dx ]" % (r.randint(0, 3), d))
            continue
        else:
            value = str(r.choice((r.randint(-3, 3), r.randint(-100000, 100000), 5 * d + 2, 2 * d)))
        lines.append("  br label %end")
        inc.append("[ %s, %%b%d ]" % (value, d))
        inc2.append("[ %d, %%b%d ]" % (r.randint(0, 3), d))
    if unreachable:
        lines += ["unr:", "  unreachable"]
    elif default == "d":
        lines += ["d:", "  br label %end"]
        inc.append("[ %d, %%d ]" % r.randint(-3, 3))
        inc2.append("[ 0, %d ]")
    else:
        inc.append("[ 77, %entry ]")
        inc2.append("[ 2, %entry ]")
    lines += ["end:", "  %%r = phi i32 %s" % ", ".join(inc)]
    tail = r.random()
    if tail < 0.3:
        lines.append("  %%s = phi i8 %s" % ", ".join(inc2))
        lines += ["  %t = zext i8 %s to i32", "  %u = add i32 %r, %t", "  ret i32 %u"]
    elif tail < 0.5:
        lines += ["  %q = icmp eq i32 %r, 77", "  br i1 %q, label %x1, label %x2", "x1:", "  call void @g()",
                  "  ret i32 %r", "x2:", "  ret i32 0"]
    else:
        lines.append("  ret i32 %r")
    lines += ["}", "declare void @g()"]
    if prof:
        lines.append('!0 = !{!"branch_weights", %s}' % ", ".join("i32 %d" % r.randint(0, 100) for _ in range(len(cases) + 1)))
    return r.choice(DATALAYOUTS) + "\n".join(lines) + "\n"


LOOKUP_DATALAYOUTS = (
    'target datalayout = "e-n8:16:32:64"\n',
    'target datalayout = "e-i64:64-n32:64"\n',
    'target datalayout = "e-p:32:32-n8:16:32"\n',
    "",
)


def random_lookup_function(seed: int) -> str:
    """A switch that only picks constants for one phi (for the lookup tables): 3 to 14
    cases of a 4- to 64-bit condition (sometimes masked), results of integer or
    pointer type (constants, or a linear function of the case), a default that is
    unreachable, another constant, or a hole that calls and returns; sometimes the
    phi is compared with a constant afterwards (the compare reuse)."""
    r = random.Random(seed)
    ty = r.choice(("i8", "i16", "i32", "i64", "i4"))
    mask = (1 << int(ty[1:])) - 1
    n = r.randint(3, 14)
    base = r.randint(-10, 30)
    cases = sorted({(base + r.randint(0, n * 2)) & mask for _ in range(n)})
    if len(cases) < 3:
        cases = [0, 1, 2]
    rty = r.choice(("i8", "i16", "i32", "i64", "i1", "i3", "ptr", "i24"))

    def const() -> str:
        if rty == "ptr":
            return r.choice(("null", "@g1", "@g2", "getelementptr inbounds (i8, ptr @g1, i64 4)"))
        rw = int(rty[1:])
        if r.random() < 0.5:
            return str(r.randint(-(1 << (rw - 1)), (1 << (rw - 1)) - 1))
        return str(r.randint(0, 3))

    linear = r.random() < 0.3 and rty != "ptr"
    a0, step = r.randint(-5, 5), r.randint(-3, 3)
    lines = ["@g1 = global [8 x i8] zeroinitializer", "@g2 = global i32 0",
             "define %s @f(%s %%x) {" % (rty, ty), "entry:"]
    cond = "%x"
    if r.random() < 0.3:
        lines.append("  %%c = and %s %%x, %d" % (ty, r.choice((7, 15, 31)) & mask))
        cond = "%c"
    unreachable = r.random() < 0.3
    default = "unr" if unreachable else r.choice(("d", "d", "hole"))
    lines.append("  switch %s %s, label %%%s [" % (ty, cond, default))
    for i, v in enumerate(cases):
        lines.append("    %s %d, label %%b%d" % (ty, v, i))
    lines.append("  ]")
    inc: list[str] = []
    for i, v in enumerate(cases):
        lines += ["b%d:" % i, "  br label %end"]
        value = str(a0 + step * v) if linear else const()
        if rty == "i1" and linear:
            value = str((a0 + step * v) & 1)
        inc.append("[ %s, %%b%d ]" % (value, i))
    if unreachable:
        lines += ["unr:", "  unreachable"]
    elif default == "d":
        lines += ["d:", "  br label %end"]
        inc.append("[ %s, %%d ]" % const())
    else:
        lines += ["hole:", "  call void @h()", "  ret %s %s" % (rty, const())]
    lines += ["end:", "  %%r = phi %s %s" % (rty, ", ".join(inc))]
    if r.random() < 0.3 and rty != "ptr":
        lines += ["  %%q = icmp eq %s %%r, %s" % (rty, const()), "  br i1 %q, label %x1, label %x2", "x1:",
                  "  call void @h()", "  br label %x2", "x2:"]
    lines += ["  ret %s %%r" % rty, "}", "declare void @h()"]
    return r.choice(LOOKUP_DATALAYOUTS) + "\n".join(lines) + "\n"
