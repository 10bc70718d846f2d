"""Random straight-line (and two-block) integer and fast-math expression functions for the
``reassociate`` tests: trees of add/sub/mul/and/or/xor/shl with negations, nots, wrap flags,
constants and shared subexpressions, so every rule of the pass gets exercised; and a small
evaluator of such integer functions (with poison) for the exhaustive property test."""

from __future__ import annotations

import random
from typing import Callable

INT_OPS = ("add", "add", "sub", "mul", "mul", "and", "or", "xor", "xor", "shl", "neg", "not", "or_disjoint")
FP_OPS = ("fadd", "fadd", "fsub", "fmul", "fmul", "fneg", "fdiv")


def gen_int_function(rng: random.Random, name: str, width: int = 8, nargs: int = 3, size: int = 10,
                     two_blocks: bool = False, lanes: int = 0) -> str:
    """One function ``i<width> @name(args)`` (``<lanes x i<width>>`` when ``lanes``); every
    value feeds the returned one."""
    ty = "i%d" % width if not lanes else "<%d x i%d>" % (lanes, width)

    def k(c: object) -> str:
        return str(c) if not lanes else "splat (i%d %s)" % (width, c)

    vals = ["%%a%d" % k for k in range(nargs)]
    used: dict[str, int] = {v: 0 for v in vals}
    lines: list[str] = []
    cut = size // 2 if two_blocks else -1

    def operand() -> str:
        r = rng.random()
        if r < 0.2:
            return k(rng.choice((1, 2, 3, 5, -1, -2, 7, 12, 64, -128 if width == 8 else 100)))
        v = rng.choice(vals[-6:] if rng.random() < 0.7 else vals)
        used[v] = used.get(v, 0) + 1
        return v

    for n in range(size):
        if n == cut:
            lines.append("  br label %next")
            lines.append("next:")
        op = rng.choice(INT_OPS)
        res = "%%v%d" % n
        if op == "neg":
            text = "sub %s %s, %s" % (ty, k(0) if lanes else "0", operand())
        elif op == "not":
            text = "xor %s %s, %s" % (ty, operand(), k(-1))
        elif op == "shl":
            flags = rng.choice(("", "nsw ", "nuw ", "nuw nsw "))
            text = "shl %s%s %s, %s" % (flags, ty, operand(), k(rng.randrange(1, width)))
        elif op == "or_disjoint":
            x = operand()
            text = "or %s %s, %s" % (ty, x, k(rng.choice(("1", "2", "4", "-128" if width == 8 else "256"))))
            if rng.random() < 0.5:
                # (x << 3) | 5 has no common bits: a disjoint or
                lines.append("  %%s%d = shl %s %s, %s" % (n, ty, x, k(3)))
                text = "or %s %%s%d, %s" % (ty, n, k(rng.choice((1, 3, 5, 7))))
        else:
            flags = ""
            if op in ("add", "sub", "mul"):
                flags = rng.choice(("", "", "nsw ", "nuw ", "nuw nsw "))
            a = operand()
            b = operand()
            if a[0] != "%" and b[0] != "%":
                a = rng.choice(vals)
                used[a] = used.get(a, 0) + 1
            text = "%s %s%s %s, %s" % (op, flags, ty, a, b)
        lines.append("  %s = %s" % (res, text))
        vals.append(res)
        used[res] = 0
    # every value without a use joins the result
    unused = [v for v in vals[nargs:] if used.get(v, 0) == 0]
    acc = unused[-1]
    for n, v in enumerate(unused[:-1]):
        lines.append("  %%r%d = %s %s %s, %s" % (n, rng.choice(("add", "xor", "mul")), ty, acc, v))
        acc = "%%r%d" % n
    lines.append("  ret %s %s" % (ty, acc))
    args = ", ".join("%s %%a%d" % (ty, n) for n in range(nargs))
    return "define %s @%s(%s) {\nentry:\n%s\n}\n" % (ty, name, args, "\n".join(lines))


def gen_fp_function(rng: random.Random, name: str, nargs: int = 3, size: int = 8) -> str:
    """One ``double`` function of fast-math (mostly ``reassoc nsz``) operations."""
    vals = ["%%a%d" % k for k in range(nargs)]
    used: dict[str, int] = {v: 0 for v in vals}
    lines: list[str] = []

    def operand() -> str:
        if rng.random() < 0.2:
            return rng.choice(("1.000000e+00", "-2.000000e+00", "3.000000e+00", "-5.000000e-01", "0.000000e+00"))
        v = rng.choice(vals[-5:])
        used[v] = used.get(v, 0) + 1
        return v

    for k in range(size):
        op = rng.choice(FP_OPS)
        fmf = rng.choice(("reassoc nsz ", "reassoc nsz ", "fast ", "", "reassoc "))
        res = "%%v%d" % k
        if op == "fneg":
            text = "fneg %sdouble %s" % (fmf, operand())
        else:
            a = operand()
            b = operand()
            if a[0] != "%" and b[0] != "%":
                a = rng.choice(vals)
                used[a] = used.get(a, 0) + 1
            text = "%s %sdouble %s, %s" % (op, fmf, a, b)
        lines.append("  %s = %s" % (res, text))
        vals.append(res)
        used[res] = 0
    unused = [v for v in vals[nargs:] if used.get(v, 0) == 0]
    acc = unused[-1]
    for k, v in enumerate(unused[:-1]):
        lines.append("  %%r%d = fadd reassoc nsz double %s, %s" % (k, acc, v))
        acc = "%%r%d" % k
    lines.append("  ret double %s" % acc)
    args = ", ".join("double %%a%d" % k for k in range(nargs))
    return "define double @%s(%s) {\nentry:\n%s\n}\n" % (name, args, "\n".join(lines))


def compile_int_function(fn: object) -> "Callable[[tuple[int, ...]], int | None]":
    """A Python callable computing integer function ``fn`` (a parsed llvmpy_mid Function of
    add/sub/mul/shl/and/or/xor with unconditional branches) on argument tuples; None
    stands for poison (wrap flags, an oversized shift, a disjoint or with common bits,
    undef)."""
    from llvmpy_mid.ir.constants import ConstantInt

    slots: dict[object, int] = {}
    for k, a in enumerate(fn.args):  # type: ignore[attr-defined]
        slots[a] = k
    code: list[tuple[str, int, int, int, int, int, bool, bool, bool]] = []
    consts: list[int | None] = []
    nslots = len(slots)
    ret_slot = -1
    bb = fn.entry_block  # type: ignore[attr-defined]
    width = 0

    def slot(v: object) -> int:
        nonlocal nslots
        if v in slots:
            return slots[v]
        slots[v] = nslots
        nslots += 1
        consts.append(v.value if isinstance(v, ConstantInt) else None)  # type: ignore[attr-defined]
        code.append(("const", slots[v], len(consts) - 1, 0, 0, 0, False, False, False))
        return slots[v]

    while bb is not None:
        nxt = None
        for inst in bb.instructions:
            op = inst.opcode
            if op == "ret":
                ret_slot = slot(inst.operands[0])
                break
            if op == "br":
                nxt = inst.operands[0]
                break
            x = slot(inst.operands[0])
            y = slot(inst.operands[1])
            width = inst.type.width
            fl = inst._flags
            wrap = op in ("add", "sub", "mul", "shl")
            dis = op == "or" and bool(inst.disjoint)
            slots[inst] = nslots
            nslots += 1
            code.append((op, slots[inst], x, y, width, (1 << width) - 1, wrap and bool(fl & 1), wrap and bool(fl & 2), dis))
        bb = nxt

    def run(args: tuple[int, ...]) -> int | None:
        env: list[int | None] = list(args) + [None] * (nslots - len(args))
        for op, dst, x0, y0, w, mask, nuw, nsw, dis in code:
            if op == "const":
                env[dst] = consts[x0]
                continue
            x = env[x0]
            y = env[y0]
            if x is None or y is None:
                env[dst] = None
                continue
            half = 1 << (w - 1)
            sx = x - (half << 1) if x & half else x
            sy = y - (half << 1) if y & half else y
            bad = False
            if op == "add":
                r = x + y
                bad = (nuw and r > mask) or (nsw and not -half <= sx + sy < half)
            elif op == "sub":
                r = x - y
                bad = (nuw and r < 0) or (nsw and not -half <= sx - sy < half)
            elif op == "mul":
                r = x * y
                bad = (nuw and r > mask) or (nsw and not -half <= sx * sy < half)
            elif op == "shl":
                if y >= w:
                    env[dst] = None
                    continue
                r = x << y
                rr = r & mask
                srr = rr - (half << 1) if rr & half else rr
                bad = (nuw and rr >> y != x) or (nsw and srr >> y != sx)
            elif op == "and":
                r = x & y
            elif op == "or":
                r = x | y
                bad = dis and bool(x & y)
            elif op == "xor":
                r = x ^ y
            else:
                raise AssertionError("unexpected opcode %s" % op)
            env[dst] = None if bad else r & mask
        return env[ret_slot]

    return run
