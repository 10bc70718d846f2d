"""Synthetic modules for the mergefunc benchmark and differential tests.

``make_module(n, seed)`` returns the text of a module with ``n`` defined functions of 20-60
instructions each (arithmetic, compares, a conditional diamond or a counted loop, loads and stores
through a pointer argument, calls to earlier functions and to an external declaration), where:

* about a quarter are renamed exact copies of another function (mergefunc must merge them);
* about an eighth are near-copies that differ in one constant only — same opcodes in the same
  order, so the structural hash collides and only the comparator can tell them apart;
* the rest are distinct.

Functions are ``internal`` or external at random and a few are called from others, so thunks,
RAUW and erasure all happen. The module is valid (opt-19 accepts it) and deterministic in ``seed``.
"""

from __future__ import annotations

import random

_BINOPS = ("add", "sub", "mul", "and", "or", "xor", "shl", "lshr")
_PREDS = ("eq", "ne", "slt", "sgt", "ule", "uge")


def _body(rng: random.Random, name: str, callees: list[str]) -> list[str]:
    """The instruction lines of one function ``i32 (i32 %a, i32 %b, ptr %p)``."""
    lines: list[str] = ["entry:"]
    vals = ["%a", "%b"]
    n = 0

    def fresh() -> str:
        nonlocal n
        n += 1
        return "%%v%d" % n

    def arith(count: int) -> None:
        for _ in range(count):
            op = rng.choice(_BINOPS)
            lhs = rng.choice(vals)
            rhs = rng.choice(vals) if rng.random() < 0.6 else str(rng.randint(1, 31))
            v = fresh()
            lines.append("  %s = %s i32 %s, %s" % (v, op, lhs, rhs))
            vals.append(v)

    arith(rng.randint(4, 12))
    v = fresh()
    lines.append("  %s = load i32, ptr %%p, align 4" % v)
    vals.append(v)
    if callees and rng.random() < 0.5:
        c = fresh()
        lines.append("  %s = call i32 @%s(i32 %s, i32 %s, ptr %%p)" % (c, rng.choice(callees), vals[-1], vals[-2]))
        vals.append(c)
    if rng.random() < 0.3:
        c = fresh()
        lines.append("  %s = call i32 @ext(i32 %s)" % (c, vals[-1]))
        vals.append(c)
    cond = fresh()
    lines.append("  %s = icmp %s i32 %s, %s" % (cond, rng.choice(_PREDS), vals[-1], rng.choice(vals)))
    if rng.random() < 0.5:  # a diamond
        lines.append("  br i1 %s, label %%then, label %%else" % cond)
        lines.append("then:")
        before = len(vals)
        arith(rng.randint(3, 10))
        t = vals[-1]
        del vals[before:]
        lines.append("  br label %join")
        lines.append("else:")
        arith(rng.randint(3, 10))
        e = vals[-1]
        del vals[before:]
        lines.append("  br label %join")
        lines.append("join:")
        m = fresh()
        lines.append("  %s = phi i32 [ %s, %%then ], [ %s, %%else ]" % (m, t, e))
        vals.append(m)
    else:  # a counted loop
        trip = rng.randint(2, 9)
        lines.append("  br i1 %s, label %%loop, label %%exit" % cond)
        lines.append("loop:")
        lines.append("  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]")
        lines.append("  %%acc = phi i32 [ %s, %%entry ], [ %%acc.next, %%loop ]" % vals[-1])
        vals.append("%acc")
        before = len(vals)
        arith(rng.randint(3, 10))
        lines.append("  %%acc.next = add i32 %s, %%i" % vals[-1])
        del vals[before - 1 :]
        lines.append("  %i.next = add i32 %i, 1")
        lines.append("  %%done = icmp eq i32 %%i.next, %d" % trip)
        lines.append("  br i1 %done, label %exit, label %loop")
        lines.append("exit:")
        m = fresh()
        lines.append("  %s = phi i32 [ %s, %%entry ], [ %%acc.next, %%loop ]" % (m, vals[-1]))
        vals.append(m)
    arith(rng.randint(2, 8))
    lines.append("  store i32 %s, ptr %%p, align 4" % vals[-1])
    lines.append("  ret i32 %s" % vals[-1])
    return lines


def _tweak_constant(lines: list[str], rng: random.Random) -> list[str]:
    """A near-copy: one integer constant operand changed (same opcodes, so the same hash)."""
    candidates = [i for i, ln in enumerate(lines) if ln.startswith("  %v") and ln.split(", ")[-1].isdigit()]
    if not candidates:
        return list(lines)
    i = rng.choice(candidates)
    head, _, last = lines[i].rpartition(", ")
    out = list(lines)
    out[i] = "%s, %d" % (head, (int(last) % 31) + 1)
    return out


def make_module(n: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    out = ["; mergefunc benchmark module: %d functions, seed %d" % (n, seed), "", "declare i32 @ext(i32)", ""]
    bodies: list[list[str]] = []
    names: list[str] = []
    for k in range(n):
        name = "f%d" % k
        r = rng.random()
        if bodies and r < 0.25:
            lines = list(rng.choice(bodies))  # exact copy
        elif bodies and r < 0.375:
            lines = _tweak_constant(rng.choice(bodies), rng)  # hash collision, different function
        else:
            lines = _body(rng, name, names[-8:])
        bodies.append(lines)
        names.append(name)
        linkage = "internal " if rng.random() < 0.3 else ""
        out.append("define %si32 @%s(i32 %%a, i32 %%b, ptr %%p) {" % (linkage, name))
        out.extend(lines)
        out.append("}")
        out.append("")
    # Keep internal functions alive: one external caller per 64 functions.
    for start in range(0, n, 64):
        out.append("define i32 @use%d(ptr %%p) {" % start)
        acc = "0"
        for j, k in enumerate(range(start, min(n, start + 64))):
            out.append("  %%u%d = call i32 @f%d(i32 %s, i32 %d, ptr %%p)" % (j, k, acc, j))
            acc = "%%u%d" % j
        out.append("  ret i32 %s" % acc)
        out.append("}")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    import sys

    sys.stdout.write(make_module(int(sys.argv[1]) if len(sys.argv) > 1 else 100))
