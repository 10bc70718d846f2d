"""``computeConstantRange`` (LLVM 19.1.7 ``llvm/lib/Analysis/ValueTracking.cpp``): a
:class:`~llvmpy_mid.analysis.constant_range.ConstantRange` holding every value of an
integer value: constants (``Constant::toConstantRange``), the bounds a binary
operator with a constant operand implies (``setLimitsForBinOp``), intrinsic and
select-pattern ranges, ``fptoui``/``fptosi`` of ``half``, ``!range`` metadata,
``range`` attributes, and ``llvm.assume`` comparisons valid at the context.
Import it from :mod:`llvmpy_mid.analysis.value_tracking`.

What it does not do (yet): LLVM's full ``matchSelectPattern`` (min/max/abs shapes
that compare exactly the select's arms are recognised).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.poison_tracking import match_apint
from llvmpy_mid.analysis.select_pattern import match_select_pattern
from llvmpy_mid.analysis.value_tracking_support import (
    _MAX,
    _intrinsic,
    _is_neg_of,
    _is_zero_const,
    _opcode,
    _operand,
    _range_attribute,
    _raw_exact,
    _raw_nsw,
    _raw_nuw,
    get_vscale_range,
    is_valid_assume_for_context,
)
from llvmpy_mid.ir.constants import Constant, ConstantDataVector, ConstantInt, ConstantVector, PoisonValue
from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import ICmpInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.types import IntegerType, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Value


def constant_to_range(c: Constant) -> ConstantRange:
    """LLVM ``Constant::toConstantRange``: a single value, the union of a vector's lanes, or full."""
    ty = c.type
    sty = ty.element_type if isinstance(ty, VectorType) else ty
    w = sty.width if isinstance(sty, IntegerType) else 1
    if isinstance(c, ConstantInt):
        return ConstantRange(w, c.value)
    if not isinstance(ty, VectorType):
        return ConstantRange.get_full(w)
    splat = match_apint(c)
    if splat is not None:
        return ConstantRange(w, splat.value)
    if isinstance(c, ConstantDataVector):
        cr = ConstantRange.get_empty(w)
        for e in c.elements:
            assert isinstance(e, ConstantInt)
            cr = cr.union_with(ConstantRange(w, e.value))
        return cr
    if isinstance(c, ConstantVector):
        cr = ConstantRange.get_empty(w)
        for e in c.elements:
            if isinstance(e, PoisonValue):
                continue
            if not isinstance(e, ConstantInt):
                return ConstantRange.get_full(w)
            cr = cr.union_with(ConstantRange(w, e.value))
        return cr
    return ConstantRange.get_full(w)


def compute_constant_range(
    v: Value,
    for_signed: bool,
    use_instr_info: bool = True,
    ac: object | None = None,
    cxt_i: Instruction | None = None,
    dt: DominatorTree | None = None,
    depth: int = 0,
) -> ConstantRange:
    """A range holding every value of integer ``v`` (LLVM ``computeConstantRange``):
    constants, the bounds a binary operator with a constant operand, an intrinsic
    or a select pattern implies, ``!range`` metadata and ``range`` attributes, and
    ``llvm.assume`` comparisons valid at ``cxt_i``."""
    ty = v.type
    sty = ty.element_type if isinstance(ty, VectorType) else ty
    assert isinstance(sty, IntegerType), "compute_constant_range needs an integer (vector) value"
    w = sty.width
    if depth == _MAX:
        return ConstantRange.get_full(w)
    if isinstance(v, Constant):
        return constant_to_range(v)
    cr = ConstantRange.get_full(w)
    op = _opcode(v)
    if op in _BINOPS_FOR_RANGE and isinstance(v, Instruction):
        lo, hi = _binop_limits(v, w, use_instr_info, for_signed)
        cr = ConstantRange.get_non_empty(w, lo, hi)
    elif isinstance(v, CallBase) and _intrinsic(v):
        cr = _intrinsic_range(v, w)
    elif isinstance(v, SelectInst):
        cr_t = compute_constant_range(v.true_value, for_signed, use_instr_info, ac, cxt_i, dt, depth + 1)
        cr_f = compute_constant_range(v.false_value, for_signed, use_instr_info, ac, cxt_i, dt, depth + 1)
        cr = cr_t.union_with(cr_f).intersect_with(_select_pattern_range(v, w, use_instr_info))
    elif op in ("fptoui", "fptosi"):
        src = _operand(v, 0).type
        src_s = src.element_type if isinstance(src, VectorType) else src
        if str(src_s) == "half":
            if op == "fptosi" and w >= 17:
                cr = ConstantRange(w, -65504, 65505)
            elif op == "fptoui" and w >= 16:
                cr = ConstantRange.get_non_empty(w, 0, 65505)
    elif isinstance(v, Argument):
        ra = _range_attribute(v)
        if ra is not None:
            cr = ra
    if isinstance(v, Instruction):
        if use_instr_info:
            md = v.get_metadata("range")
            if md is not None:
                cr = cr.intersect_with(ConstantRange.from_metadata(md))
        if isinstance(v, CallBase):
            ra = _range_attribute(v)
            if ra is not None:
                cr = cr.intersect_with(ra)
    if cxt_i is not None and ac is not None:
        from llvmpy_mid.analysis.assumption_cache import AssumptionCache

        assert isinstance(ac, AssumptionCache)
        for assume, _index in ac.assumptions_for(v):
            if not is_valid_assume_for_context(assume, cxt_i, dt):
                continue
            cmp = assume.get_arg(0)
            if not isinstance(cmp, ICmpInst) or cmp.get_operand(0) is not v:
                continue
            rhs = compute_constant_range(cmp.get_operand(1), False, use_instr_info, ac, assume, dt, depth + 1)
            cr = cr.intersect_with(ConstantRange.make_allowed_icmp_region(cmp.predicate, rhs))
    return cr


_BINOPS_FOR_RANGE = frozenset(("add", "and", "or", "ashr", "lshr", "shl", "sdiv", "udiv", "srem", "urem"))


def _binop_limits(bo: Instruction, w: int, iiq: bool, prefer_signed: bool) -> tuple[int, int]:
    """LLVM ``setLimitsForBinOp``: ``(lower, upper)`` bounds (0, 0 when nothing is known)."""
    m = (1 << w) - 1
    smin = 1 << (w - 1)
    smax = smin - 1
    lower = upper = 0
    op = bo.opcode
    a, b = bo.get_operand(0), bo.get_operand(1)
    cb = match_apint(b)
    ca = match_apint(a)

    def sx(x: int) -> int:
        return x - (1 << w) if (x >> (w - 1)) & 1 else x

    def ashr(x: int, n: int) -> int:
        return (sx(x) >> n) & m

    if op == "add":
        if cb is not None and cb.value != 0:
            c = cb.value
            nsw = iiq and _raw_nsw(bo)
            nuw = iiq and _raw_nuw(bo)
            if prefer_signed and nsw and nuw:
                nuw = False
            if nuw:
                lower = c
            elif nsw:
                if sx(c) < 0:
                    lower, upper = smin, (smax + c + 1) & m
                else:
                    lower, upper = (smin + c) & m, (smax + 1) & m
    elif op == "and":
        if cb is not None:
            upper = (cb.value + 1) & m
        if _is_neg_of(a, b) or _is_neg_of(b, a):
            upper = (smin + 1) & m
    elif op == "or":
        if cb is not None:
            lower = cb.value
    elif op == "ashr":
        if cb is not None and cb.value < w:
            lower = ashr(smin, cb.value)
            upper = (ashr(smax, cb.value) + 1) & m
        elif ca is not None:
            c = ca.value
            amount = w - 1
            if c != 0 and iiq and _raw_exact(bo):
                amount = (c & -c).bit_length() - 1
            if sx(c) < 0:
                lower, upper = c, (ashr(c, amount) + 1) & m
            else:
                lower, upper = ashr(c, amount), (c + 1) & m
    elif op == "lshr":
        if cb is not None and cb.value < w:
            upper = ((m >> cb.value) + 1) & m
        elif ca is not None:
            c = ca.value
            amount = w - 1
            if c != 0 and iiq and _raw_exact(bo):
                amount = (c & -c).bit_length() - 1
            lower, upper = c >> amount, (c + 1) & m
    elif op == "shl":
        if ca is not None:
            c = ca.value
            if iiq and _raw_nuw(bo):
                lower = c
                upper = ((c << (w - c.bit_length())) + 1) & m
            elif _raw_nsw(bo):
                if sx(c) < 0:
                    amount = (w - (~c & m).bit_length()) - 1
                    lower, upper = (c << amount) & m, (c + 1) & m
                else:
                    amount = (w - c.bit_length()) - 1
                    lower, upper = c, ((c << amount) + 1) & m if amount >= 0 else (c + 1) & m
            else:
                if c & 1:
                    lower = 1
                pop = bin(c).count("1")
                upper = ((m & ~((1 << (w - pop)) - 1)) + 1) & m
        elif cb is not None and cb.value < w:
            upper = ((m & ~((1 << cb.value) - 1)) + 1) & m
    elif op == "sdiv":
        if cb is not None:
            c = cb.value
            if c == m:
                lower, upper = (smin + 1) & m, (smax + 1) & m
            elif w - c.bit_length() < w - 1:
                lo = _sdiv_trunc(-(1 << (w - 1)), sx(c))
                hi = _sdiv_trunc((1 << (w - 1)) - 1, sx(c))
                if lo > hi:
                    lo, hi = hi, lo
                lower, upper = lo & m, (hi + 1) & m
        elif ca is not None:
            c = ca.value
            if c == smin:
                lower, upper = c, ((c >> 1) + 1) & m
            else:
                up = abs(sx(c)) + 1
                lower, upper = (-up + 1) & m, up & m
    elif op == "udiv":
        if cb is not None and cb.value != 0:
            upper = (m // cb.value + 1) & m
        elif ca is not None:
            upper = (ca.value + 1) & m
    elif op == "srem":
        if cb is not None:
            up = abs(sx(cb.value)) & m
            lower, upper = (-up + 1) & m, up
        elif ca is not None:
            c = ca.value
            if sx(c) < 0:
                lower, upper = c, 1
            else:
                upper = (c + 1) & m
    elif op == "urem":
        if cb is not None:
            upper = cb.value
        elif ca is not None:
            upper = (ca.value + 1) & m
    return lower & m, upper & m


def _sdiv_trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _intrinsic_range(call: CallBase, w: int) -> ConstantRange:
    """LLVM ``getRangeForIntrinsic``."""
    base = _intrinsic(call)
    m = (1 << w) - 1
    smin = 1 << (w - 1)
    smax = smin - 1

    def ne(lo: int, hi: int) -> ConstantRange:
        return ConstantRange.get_non_empty(w, lo & m, hi & m)

    def const_arg() -> int | None:
        for k in range(min(2, call.num_args)):
            c = match_apint(call.get_arg(k))
            if c is not None:
                return c.value
        return None

    if base in ("llvm.ctpop", "llvm.ctlz", "llvm.cttz"):
        return ne(0, w + 1)
    if base == "llvm.uadd.sat":
        c = const_arg()
        if c is not None:
            return ne(c, 0)
    elif base == "llvm.sadd.sat":
        c = const_arg()
        if c is not None:
            if (c >> (w - 1)) & 1:
                return ne(smin, smax + c + 1)
            return ne(smin + c, smax + 1)
    elif base == "llvm.usub.sat":
        c0 = match_apint(call.get_arg(0))
        if c0 is not None:
            return ne(0, c0.value + 1)
        c1 = match_apint(call.get_arg(1))
        if c1 is not None:
            return ne(0, m - c1.value + 1)
    elif base == "llvm.ssub.sat":
        c0 = match_apint(call.get_arg(0))
        if c0 is not None:
            c = c0.value
            if (c >> (w - 1)) & 1:
                return ne(smin, c - smin + 1)
            return ne(c - smax, smax + 1)
        c1 = match_apint(call.get_arg(1))
        if c1 is not None:
            c = c1.value
            if (c >> (w - 1)) & 1:
                return ne(smin - c, smax + 1)
            return ne(smin, smax - c + 1)
    elif base in ("llvm.umin", "llvm.umax", "llvm.smin", "llvm.smax"):
        c = const_arg()
        if c is not None:
            if base == "llvm.umin":
                return ne(0, c + 1)
            if base == "llvm.umax":
                return ne(c, 0)
            if base == "llvm.smin":
                return ne(smin, c + 1)
            return ne(c, smax + 1)
    elif base == "llvm.abs":
        flag = match_apint(call.get_arg(1))
        if flag is not None and flag.value == 1:
            return ne(0, smax + 1)
        return ne(0, smin + 1)
    elif base == "llvm.vscale":
        fn = call.function
        if fn is not None:
            return get_vscale_range(fn, w)
    elif base in ("llvm.scmp", "llvm.ucmp"):
        return ne(m, 2)
    return ConstantRange.get_full(w)


def _select_pattern_range(sel: SelectInst, w: int, iiq: bool) -> ConstantRange:
    """LLVM ``getRangeForSelectPattern``: the range a min/max/abs select pattern implies."""
    m = (1 << w) - 1
    smin = 1 << (w - 1)
    flavor, lhs, rhs = match_select_pattern(sel)
    if flavor == "unknown" or lhs is None or rhs is None:
        return ConstantRange.get_full(w)
    if flavor == "abs":
        if _opcode(rhs) == "sub" and _is_zero_const(_operand(rhs, 0)) and _operand(rhs, 1) is lhs and iiq and _raw_nsw(rhs):
            return ConstantRange.get_non_empty(w, 0, smin)
        return ConstantRange.get_non_empty(w, 0, (smin + 1) & m)
    if flavor == "nabs":
        return ConstantRange.get_non_empty(w, smin, 1)
    c = match_apint(lhs) or match_apint(rhs)
    if c is None:
        return ConstantRange.get_full(w)
    cv = c.value
    if flavor == "umin":
        return ConstantRange.get_non_empty(w, 0, (cv + 1) & m)
    if flavor == "umax":
        return ConstantRange.get_non_empty(w, cv, 0)
    if flavor == "smin":
        return ConstantRange.get_non_empty(w, smin, (cv + 1) & m)
    return ConstantRange.get_non_empty(w, cv, smin)
