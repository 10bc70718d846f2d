"""The judge of InstCombine's property tests: does the transformed function refine the original?

:func:`check_refines` parses a module, runs a pipeline on a second copy, and for every
defined function compares the two on every input (exhaustively when the arguments
have at most 16 bits together, else on a seeded sample): wherever the original is
defined — no undefined behaviour, a result that is not poison — the transformed
function must return the same value, without undefined behaviour.

The interpreter knows LLVM's integer semantics with poison (LangRef): the binary
operators with ``nuw``/``nsw``/``exact``/``disjoint``, ``icmp`` (``samesign`` is
not in LLVM 19), ``select``, casts with ``nneg``/``nuw``/``nsw``, ``freeze``, ``phi``
and branches (bounded steps), fixed vectors lane by lane, ``extractvalue`` of the
``*.with.overflow`` results, and the integer intrinsics InstCombine folds (min/max,
abs, ctpop, ctlz, cttz, fshl, fshr, bswap, bitreverse, saturating and overflow
arithmetic, ``assume``). It knows nothing of memory or floating point.

Undef and freeze are modelled conservatively, so a check never fails wrongly:
in the original, ``undef`` and ``freeze`` of poison count as poison (the original
is then "anything goes" on that path, which makes the check weaker, never
unsound); in the transformed function ``undef`` and ``freeze`` of poison are a
value no original can match (``UNDEF``), so introducing them where the original
had a value is caught.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from llvmpy_mid import parse_assembly
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    ConstantAggregateZero,
    ConstantDataVector,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import IntegerType, StructType, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.run import run_passes


class _Poison:
    def __repr__(self) -> str:
        return "poison"


class _Undef:
    def __repr__(self) -> str:
        return "undef"


POISON: Any = _Poison()
UNDEF: Any = _Undef()
"""A value in the transformed function that the original cannot be relied on to match."""


class UB(Exception):
    """The function has undefined behaviour on this input."""


class Unsupported(Exception):
    """The interpreter does not know this instruction."""


MAX_STEPS = 10_000


def _s(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


def _is_bad(x: Any) -> bool:
    return x is POISON or x is UNDEF


def _binop(op: str, a: Any, b: Any, w: int, flags: frozenset[str]) -> Any:
    m = (1 << w) - 1
    if op in ("udiv", "sdiv", "urem", "srem"):
        if b is POISON or b is UNDEF:
            raise UB("division by poison")
        if b == 0:
            raise UB("division by zero")
        if op in ("sdiv", "srem") and a is not POISON and a is not UNDEF and _s(a, w) == -(1 << (w - 1)) and b == m:
            raise UB("signed division overflow")
    if a is POISON or b is POISON:
        return POISON
    if a is UNDEF or b is UNDEF:
        return UNDEF
    sa, sb = _s(a, w), _s(b, w)
    lo, hi = -(1 << (w - 1)), (1 << (w - 1))
    if op == "add":
        if "nuw" in flags and a + b > m or "nsw" in flags and not lo <= sa + sb < hi:
            return POISON
        return (a + b) & m
    if op == "sub":
        if "nuw" in flags and a < b or "nsw" in flags and not lo <= sa - sb < hi:
            return POISON
        return (a - b) & m
    if op == "mul":
        if "nuw" in flags and a * b > m or "nsw" in flags and not lo <= sa * sb < hi:
            return POISON
        return (a * b) & m
    if op == "udiv":
        if "exact" in flags and a % b:
            return POISON
        return a // b
    if op == "sdiv":
        q = abs(sa) // abs(sb) * (1 if (sa < 0) == (sb < 0) else -1)
        if "exact" in flags and q * sb != sa:
            return POISON
        return q & m
    if op == "urem":
        return a % b
    if op == "srem":
        r = abs(sa) % abs(sb)
        return (-r if sa < 0 else r) & m
    if op in ("shl", "lshr", "ashr"):
        if b >= w:
            return POISON
        if op == "shl":
            r = (a << b) & m
            if "nuw" in flags and (a << b) > m or "nsw" in flags and _s(r, w) != sa * (1 << b):
                return POISON
            return r
        r = a >> b if op == "lshr" else (sa >> b) & m
        if "exact" in flags and (r << b) & m != a:
            return POISON
        return r
    if op == "and":
        return a & b
    if op == "or":
        if "disjoint" in flags and a & b:
            return POISON
        return a | b
    if op == "xor":
        return a ^ b
    raise Unsupported(op)


def _icmp(pred: str, a: Any, b: Any, w: int) -> Any:
    if a is POISON or b is POISON:
        return POISON
    if a is UNDEF or b is UNDEF:
        return UNDEF
    sa, sb = _s(a, w), _s(b, w)
    r = {
        "eq": a == b, "ne": a != b, "ugt": a > b, "uge": a >= b, "ult": a < b, "ule": a <= b,
        "sgt": sa > sb, "sge": sa >= sb, "slt": sa < sb, "sle": sa <= sb,
    }[pred]
    return int(r)


def _bits(ty: Any) -> int:
    return int(ty.width)


def _rev(x: int, w: int) -> int:
    return int(format(x, "0%db" % w)[::-1], 2)


def _intrinsic(base: str, args: list[Any], w: int, ret_ty: Any) -> Any:
    m = (1 << w) - 1
    if base == "assume":
        c = args[0]
        if c is POISON or c is UNDEF or c == 0:
            raise UB("assume(false)")
        return None
    if base in ("ctlz", "cttz"):
        x, zero_poison = args[0], args[1]
        if x is POISON or zero_poison is POISON:
            return POISON
        if x is UNDEF:
            return UNDEF
        if x == 0:
            return POISON if zero_poison else w
        if base == "ctlz":
            return w - x.bit_length()
        return (x & -x).bit_length() - 1
    if base == "abs":
        x, int_min_poison = args[0], args[1]
        if x is POISON:
            return POISON
        if x is UNDEF:
            return UNDEF
        if int_min_poison and x == 1 << (w - 1):
            return POISON
        return abs(_s(x, w)) & m
    if any(a is POISON for a in args):
        if base.endswith("with.overflow"):
            return (POISON, POISON)
        return POISON
    if any(a is UNDEF for a in args):
        if base.endswith("with.overflow"):
            return (UNDEF, UNDEF)
        return UNDEF
    if base == "ctpop":
        return bin(args[0]).count("1")
    if base == "bswap":
        x = args[0]
        return int.from_bytes(x.to_bytes(w // 8, "little"), "big")
    if base == "bitreverse":
        return _rev(args[0], w)
    if base in ("smax", "smin", "umax", "umin"):
        a, b = args
        if base == "smax":
            return a if _s(a, w) >= _s(b, w) else b
        if base == "smin":
            return a if _s(a, w) <= _s(b, w) else b
        return max(a, b) if base == "umax" else min(a, b)
    if base in ("fshl", "fshr"):
        a, b, c = args
        c %= w
        cat = (a << w) | b
        if base == "fshl":
            return ((cat << c) >> w) & m
        return (cat >> c) & m
    lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
    if base in ("sadd.sat", "ssub.sat", "uadd.sat", "usub.sat", "sshl.sat", "ushl.sat"):
        a, b = args
        if base == "uadd.sat":
            return min(a + b, m)
        if base == "usub.sat":
            return max(a - b, 0)
        if base == "ushl.sat":
            if b >= w:
                return POISON
            return min(a << b, m)
        sa, sb = _s(a, w), _s(b, w)
        if base == "sshl.sat":
            if b >= w:
                return POISON
            r = sa * (1 << b)
        else:
            r = sa + sb if base == "sadd.sat" else sa - sb
        return max(lo, min(hi, r)) & m
    if base.endswith("with.overflow"):
        a, b = args
        kind = base[: -len(".with.overflow")]
        sa, sb = _s(a, w), _s(b, w)
        exact = {"uadd": a + b, "usub": a - b, "umul": a * b, "sadd": sa + sb, "ssub": sa - sb, "smul": sa * sb}[kind]
        ovf = not (0 <= exact <= m) if kind[0] == "u" else not (lo <= exact <= hi)
        return (exact & m, int(ovf))
    raise Unsupported("llvm." + base)


def _intrinsic_base(name: str) -> str:
    body = name[len("llvm."):]
    for base in (
        "sadd.with.overflow", "uadd.with.overflow", "ssub.with.overflow", "usub.with.overflow",
        "smul.with.overflow", "umul.with.overflow", "sadd.sat", "uadd.sat", "ssub.sat", "usub.sat",
        "sshl.sat", "ushl.sat", "assume", "ctpop", "ctlz", "cttz", "abs", "bswap", "bitreverse",
        "smax", "smin", "umax", "umin", "fshl", "fshr",
    ):
        if body == base or body.startswith(base + "."):
            return base
    raise Unsupported(name)


def _lanes(ty: Any) -> int | None:
    return int(ty.count) if isinstance(ty, VectorType) else None


def _elem_width(ty: Any) -> int:
    if isinstance(ty, VectorType):
        ty = ty.element_type
    if not isinstance(ty, IntegerType):
        raise Unsupported("type %s" % ty)
    return _bits(ty)


class _Frame:
    __slots__ = ("env", "target")

    def __init__(self, target: bool) -> None:
        self.env: dict[int, Any] = {}
        self.target = target


def _const(v: Value, target: bool) -> Any:
    if isinstance(v, PoisonValue):
        lanes = _lanes(v.type)
        return [POISON] * lanes if lanes is not None else POISON
    if isinstance(v, UndefValue):
        u = UNDEF if target else POISON
        lanes = _lanes(v.type)
        return [u] * lanes if lanes is not None else u
    if isinstance(v, ConstantInt):
        return v.value
    if isinstance(v, ConstantAggregateZero):
        lanes = _lanes(v.type)
        if lanes is None:
            raise Unsupported("aggregate zero")
        return [0] * lanes
    if isinstance(v, (ConstantDataVector, ConstantVector)):
        return [_const(e, target) for e in v.elements]  # type: ignore[attr-defined]
    if isinstance(v, ConstantExpr):
        raise Unsupported("constant expression")
    raise Unsupported("constant %s" % type(v).__name__)


def _flags(inst: Any) -> frozenset[str]:
    return frozenset(f for f in ("nuw", "nsw", "exact", "disjoint", "nneg") if getattr(inst, f, False))


def _lanewise(fn: Any, *vals: Any) -> Any:
    if isinstance(vals[0], list):
        return [fn(*lane) for lane in zip(*vals)]
    return fn(*vals)


def _cast(op: str, x: Any, sw: int, dw: int, flags: frozenset[str], target: bool) -> Any:
    if x is POISON:
        return POISON
    if x is UNDEF:
        return UNDEF
    if op == "zext":
        if "nneg" in flags and x >> (sw - 1) & 1:
            return POISON
        return x
    if op == "sext":
        return _s(x, sw) & ((1 << dw) - 1)
    if op == "trunc":
        r = x & ((1 << dw) - 1)
        if "nuw" in flags and r != x:
            return POISON
        if "nsw" in flags and _s(r, dw) != _s(x, sw):
            return POISON
        return r
    raise Unsupported(op)


def evaluate(fn: Function, args: Sequence[Any], *, target: bool = False) -> Any:
    """What ``fn`` returns for ``args`` (ints, lists for vectors); POISON/UNDEF for those.
    Raises :class:`UB` on undefined behaviour, :class:`Unsupported` on what it does not know."""
    frame = _Frame(target)
    env = frame.env
    for a, v in zip(fn.args, args):
        env[id(a)] = v

    def val(v: Value) -> Any:
        got = env.get(id(v))
        if got is not None or id(v) in env:
            return got
        if v.is_constant:
            return _const(v, target)
        raise Unsupported("value %s" % v)

    bb = fn.entry_block
    prev = None
    steps = 0
    while True:
        phis = [(inst, val(inst.incoming_value_for_block(prev))) for inst in bb.instructions if inst.opcode == "phi"]  # type: ignore[attr-defined]
        for inst, v in phis:
            env[id(inst)] = v
        for inst in bb.instructions:
            steps += 1
            if steps > MAX_STEPS:
                raise Unsupported("too many steps")
            op = inst.opcode
            ops = inst.operands
            if op == "phi":
                continue
            if op == "ret":
                return val(ops[0]) if ops else None
            if op == "br":
                if len(ops) == 1:
                    nxt = ops[0]
                else:
                    c = val(ops[0])
                    if c is POISON or c is UNDEF:
                        raise UB("branch on poison")
                    nxt = inst.successors[0] if c else inst.successors[1]
                prev, bb = bb, nxt
                break
            if op == "unreachable":
                raise UB("unreachable")
            if op in ("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"):
                w = _elem_width(inst.type)
                fl = _flags(inst)
                r = _lanewise(lambda a, b: _binop(op, a, b, w, fl), val(ops[0]), val(ops[1]))
            elif op == "icmp":
                w = _elem_width(ops[0].type)
                pred = inst.predicate.keyword  # type: ignore[attr-defined]
                r = _lanewise(lambda a, b: _icmp(pred, a, b, w), val(ops[0]), val(ops[1]))
            elif op == "select":
                c, t, f = val(ops[0]), val(ops[1]), val(ops[2])
                if isinstance(c, list):
                    r = [POISON if ci is POISON else UNDEF if ci is UNDEF else (ti if ci else fi) for ci, ti, fi in zip(c, t, f)]
                elif c is POISON:
                    r = POISON if not isinstance(t, list) else [POISON] * len(t)
                elif c is UNDEF:
                    r = UNDEF if not isinstance(t, list) else [UNDEF] * len(t)
                else:
                    r = t if c else f
            elif op in ("zext", "sext", "trunc"):
                sw, dw = _elem_width(ops[0].type), _elem_width(inst.type)
                fl = _flags(inst)
                r = _lanewise(lambda x: _cast(op, x, sw, dw, fl, target), val(ops[0]))
            elif op == "freeze":
                x = val(ops[0])
                repl = UNDEF if target else POISON
                r = [repl if _is_bad(e) else e for e in x] if isinstance(x, list) else (repl if _is_bad(x) else x)
            elif op == "extractvalue":
                agg = val(ops[0])
                r = agg[inst.indices[0]]  # type: ignore[attr-defined]
            elif op == "extractelement":
                vec, idx = val(ops[0]), val(ops[1])
                r = POISON if _is_bad(idx) or idx >= len(vec) else vec[idx]
            elif op == "insertelement":
                vec, elt, idx = val(ops[0]), val(ops[1]), val(ops[2])
                if _is_bad(idx) or idx >= len(vec):
                    r = [POISON] * len(vec)
                else:
                    r = list(vec)
                    r[idx] = elt
            elif op == "shufflevector":
                a, b = val(ops[0]), val(ops[1])
                both = list(a) + list(b)
                r = [POISON if k < 0 else both[k] for k in inst.mask]  # type: ignore[attr-defined]
            elif op == "call":
                callee = ops[-1]
                name = callee.name if isinstance(callee, Function) else ""
                if not name.startswith("llvm."):
                    raise Unsupported("call to %s" % name)
                base = _intrinsic_base(name)
                argv = [val(a) for a in ops[:-1]]
                if base == "assume":
                    _intrinsic(base, argv, 1, None)
                    continue
                ty = inst.type
                if isinstance(ty, StructType):
                    w = _elem_width(ty.elements[0])  # type: ignore[attr-defined]
                    r = _intrinsic(base, argv, w, ty)
                else:
                    w = _elem_width(ty) if base not in ("ctpop", "ctlz", "cttz") else _elem_width(ops[0].type)
                    if isinstance(argv[0], list):
                        scalar_tail = [a for a in argv[1:] if not isinstance(a, list)]
                        vec_args = [a for a in argv if isinstance(a, list)]
                        r = [_intrinsic(base, list(lane) + scalar_tail, w, ty) for lane in zip(*vec_args)]
                    else:
                        r = _intrinsic(base, argv, w, ty)
            else:
                raise Unsupported(op)
            env[id(inst)] = r
        else:
            raise Unsupported("block without terminator")


def _matches(want: Any, got: Any) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(_matches(w, g) for w, g in zip(want, got))
    if isinstance(want, tuple):
        return isinstance(got, tuple) and all(_matches(w, g) for w, g in zip(want, got))
    if want is POISON:
        return True
    return want == got and got is not UNDEF


def _arg_domain(ty: Any) -> tuple[int, int | None]:
    w = _elem_width(ty)
    return w, _lanes(ty)


def _inputs(fn: Function, max_inputs: int, seed: int) -> list[list[Any]]:
    shapes = [_arg_domain(a.type) for a in fn.args]
    total = sum(w * (n or 1) for w, n in shapes)
    rng = random.Random(seed)
    if total <= 16 and (1 << total) <= max_inputs:
        packed_all: Any = range(1 << total)
    else:
        packed_all = [rng.getrandbits(total) for _ in range(max_inputs)]
    out: list[list[Any]] = []
    for packed in packed_all:
        args: list[Any] = []
        for w, n in shapes:
            if n is None:
                args.append(packed & ((1 << w) - 1))
                packed >>= w
            else:
                lanes = []
                for _ in range(n):
                    lanes.append(packed & ((1 << w) - 1))
                    packed >>= w
                args.append(lanes)
        out.append(args)
    return out


def assert_refines(src: Function, tgt: Function, *, max_inputs: int = 1 << 16, seed: int = 0) -> int:
    """Assert ``tgt`` refines ``src`` on every input; returns how many inputs had a defined original."""
    checked = 0
    for args in _inputs(src, max_inputs, seed):
        try:
            want = evaluate(src, args)
        except UB:
            continue
        if want is POISON:
            continue
        try:
            got = evaluate(tgt, args, target=True)
        except UB as e:
            raise AssertionError("%s%r: the original returns %r, the transformed function has UB (%s)" % (src.name, args, want, e)) from None
        if not _matches(want, got):
            raise AssertionError("%s%r: the original returns %r, the transformed function %r" % (src.name, args, want, got))
        checked += 1
    return checked


def check_refines(
    text: str, pipeline: str = "instcombine<no-verify-fixpoint>", *, max_inputs: int = 1 << 16, seed: int = 0
) -> tuple[Module, Module]:
    """Parse ``text``, run ``pipeline`` (then the verifier) on a copy, and assert that each
    defined function of the copy refines the original. Returns (original, transformed)."""
    before = parse_assembly(text)
    after = parse_assembly(text)
    run_passes(after, pipeline + ",verify")
    for fb in before.functions:
        if fb.is_declaration:
            continue
        fa = after.get_function(fb.name)
        assert fa is not None, "the pass deleted @%s" % fb.name
        assert_refines(fb, fa, max_inputs=max_inputs, seed=seed)
    return before, after


__all__ = ["POISON", "UB", "UNDEF", "Unsupported", "assert_refines", "check_refines", "evaluate"]
