"""Which min/max/abs a ``select`` spells (LLVM 19.1.7 ``llvm/lib/Analysis/ValueTracking.cpp``:
``matchSelectPattern`` for integer compares).

What: :func:`match_select_pattern` returns ``(flavor, lhs, rhs)`` with flavor one
of ``"smin"``, ``"smax"``, ``"umin"``, ``"umax"``, ``"abs"``, ``"nabs"`` or
``"unknown"``: a select of the two compared values (either order), ``x`` and
``-x`` chosen by the sign of ``x`` (compared with 0, -1 or 1, ``x`` possibly
sign-extended), clamps ``(x < C1) ? C1 : smin(x, C2)``, min/max of min/max,
``not``-ed operands, and the sign-bit tests that are unsigned min/max. The
operands are LLVM's: the compared values for a plain min/max, the select's arms
otherwise.

What it does not do (yet): floating-point min/max and the cast-looking-through
variant (LLVM's ``CastOp`` argument).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.poison_tracking import MAX_ANALYSIS_RECURSION_DEPTH, match_apint
from llvmpy_mid.analysis.value_tracking_support import _intrinsic, _is_all_ones, _opcode, _operand, is_known_negation
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import SelectInst

if TYPE_CHECKING:
    from llvmpy_mid.ir.value import Value

P = Predicate
UNKNOWN = "unknown"
_MIN_MAX = frozenset(("smin", "smax", "umin", "umax"))
_DIRECT = {
    P.ICMP_UGT: "umax", P.ICMP_UGE: "umax", P.ICMP_SGT: "smax", P.ICMP_SGE: "smax",
    P.ICMP_ULT: "umin", P.ICMP_ULE: "umin", P.ICMP_SLT: "smin", P.ICMP_SLE: "smin",
}

SelectPattern = tuple[str, "Value | None", "Value | None"]


def match_select_pattern(v: Value, depth: int = 0) -> SelectPattern:
    """``(flavor, lhs, rhs)`` of a select of an integer compare (LLVM ``matchSelectPattern``)."""
    if depth >= MAX_ANALYSIS_RECURSION_DEPTH or not isinstance(v, SelectInst):
        return (UNKNOWN, None, None)
    cmp = v.condition
    if not isinstance(cmp, ICmpInst):
        return (UNKNOWN, None, None)
    pred = cmp.predicate
    if pred.is_equality:
        return (UNKNOWN, None, None)
    return _match(pred, cmp.get_operand(0), cmp.get_operand(1), v.true_value, v.false_value, depth)


def _same(a: Value | None, b: Value | None) -> bool:
    """Identity, or two integer constants (or splats) of one value."""
    if a is b:
        return True
    if a is None or b is None or a.type is not b.type:
        return False
    ca, cb = match_apint(a), match_apint(b)
    return ca is not None and cb is not None and ca.value == cb.value


def _not_value(v: Value) -> tuple[Value | None, int | None]:
    """LLVM ``getNotValue``: ``x`` of ``xor x, -1``, or the complement of a constant."""
    if _opcode(v) == "xor" and _is_all_ones(_operand(v, 1)):
        return _operand(v, 0), None
    c = match_apint(v)
    if c is not None:
        return None, ~c.value & ((1 << c.width) - 1)
    return None, None


def _is_not_of(v: Value, x: Value) -> bool:
    nv, nc = _not_value(v)
    if nv is not None:
        return nv is x
    if nc is not None:
        cx = match_apint(x)
        return cx is not None and cx.value == nc
    return False


def _match(pred: Predicate, cl: Value, cr: Value, tv: Value, fv: Value, depth: int) -> SelectPattern:
    lhs, rhs = cl, cr
    if tv is cr and fv is cl:
        cl, cr = cr, cl
        pred = pred.swapped
    if tv is cl and fv is cr:
        # LLVM binds LHS/RHS to the compare's operands before swapping them.
        return (_DIRECT.get(pred, UNKNOWN), lhs, rhs)
    if is_known_negation(tv, fv):
        zero_or_all_ones = _is_int(cr, 0) or _is_all_ones(cr)
        zero_or_one = _is_int(cr, 0) or _is_int(cr, 1)
        if _is_or_sext_of(tv, cl):
            lhs, rhs = tv, fv
            if _opcode(cl) == "sub" and _is_int(_operand(cl, 0), 0) and _operand(cl, 1) is fv:
                lhs, rhs = rhs, lhs
            if pred == P.ICMP_SGT and zero_or_all_ones:
                return ("abs", lhs, rhs)
            if pred == P.ICMP_SGE and zero_or_one:
                return ("abs", lhs, rhs)
            if pred == P.ICMP_SLT and zero_or_one:
                return ("nabs", lhs, rhs)
        elif _is_or_sext_of(fv, cl):
            lhs, rhs = fv, tv
            if _opcode(cl) == "sub" and _is_int(_operand(cl, 0), 0) and _operand(cl, 1) is tv:
                lhs, rhs = rhs, lhs
            if pred == P.ICMP_SGT and zero_or_all_ones:
                return ("nabs", lhs, rhs)
            if pred == P.ICMP_SLT and zero_or_one:
                return ("abs", lhs, rhs)
    return _match_min_max(pred, cl, cr, tv, fv, depth)


def _is_int(v: Value, n: int) -> bool:
    c = match_apint(v)
    return c is not None and c.value == n % (1 << c.width)


def _is_or_sext_of(v: Value, x: Value) -> bool:
    return v is x or (_opcode(v) == "sext" and _operand(v, 0) is x)


def _minmax_call(v: Value, name: str) -> tuple[Value, int] | None:
    """``(x, C)`` of ``llvm.<name>(x, C)``."""
    if _intrinsic(v) != "llvm." + name:
        return None
    c = match_apint(_operand(v, 1))
    if c is None:
        return None
    return _operand(v, 0), c.value


def _sx(v: int, w: int) -> int:
    return v - (1 << w) if (v >> (w - 1)) & 1 else v


def _match_clamp(pred: Predicate, cl: Value, cr: Value, tv: Value, fv: Value) -> str:
    if cr is not tv:
        pred = pred.swapped
        tv, fv = fv, tv
    c1 = match_apint(cr) if cr is tv else None
    if c1 is None:
        return UNKNOWN
    w = c1.width
    for name, want_pred, flavor, better in (
        ("smin", P.ICMP_SLT, "smax", lambda a, b: _sx(a, w) < _sx(b, w)),
        ("smax", P.ICMP_SGT, "smin", lambda a, b: _sx(a, w) > _sx(b, w)),
        ("umin", P.ICMP_ULT, "umax", lambda a, b: a < b),
        ("umax", P.ICMP_UGT, "umin", lambda a, b: a > b),
    ):
        inner = _minmax_call(fv, name)
        if inner is not None and inner[0] is cl and better(c1.value, inner[1]) and pred == want_pred:
            return flavor
    return UNKNOWN


def _match_min_max_of_min_max(pred: Predicate, cl: Value, cr: Value, tv: Value, fv: Value, depth: int) -> str:
    lflavor, a, b = match_select_pattern(tv, depth + 1)
    if lflavor not in _MIN_MAX:
        return UNKNOWN
    rflavor, c, d = match_select_pattern(fv, depth + 1)
    if lflavor != rflavor:
        return UNKNOWN
    lt = {"smin": (P.ICMP_SLT, P.ICMP_SLE), "smax": (P.ICMP_SGT, P.ICMP_SGE),
          "umin": (P.ICMP_ULT, P.ICMP_ULE), "umax": (P.ICMP_UGT, P.ICMP_UGE)}[lflavor]
    if pred.swapped in lt:
        pred = pred.swapped
        cl, cr = cr, cl
    if pred not in lt:
        return UNKNOWN
    def xnot(v: Value | None, x: Value) -> bool:
        return v is not None and _opcode(v) == "xor" and _is_all_ones(_operand(v, 1)) and _operand(v, 0) is x

    def common(p: Value | None, q: Value | None) -> bool:
        # cl pred cr ? m(p, common) : m(q, common), or with both compared values inverted.
        return (cl is p and cr is q) or (xnot(q, cl) and xnot(p, cr))

    if d is b and common(a, c):
        return lflavor
    if c is b and common(a, d):
        return lflavor
    if d is a and common(b, c):
        return lflavor
    if c is a and common(b, d):
        return lflavor
    return UNKNOWN


def _match_min_max(pred: Predicate, cl: Value, cr: Value, tv: Value, fv: Value, depth: int) -> SelectPattern:
    flavor = _match_clamp(pred, cl, cr, tv, fv)
    if flavor != UNKNOWN:
        return (flavor, tv, fv)
    flavor = _match_min_max_of_min_max(pred, cl, cr, tv, fv, depth)
    if flavor != UNKNOWN:
        return (flavor, tv, fv)
    if _is_not_of(tv, cl) and _is_not_of(fv, cr):
        flavor = {P.ICMP_SGT: "smin", P.ICMP_SLT: "smax", P.ICMP_UGT: "umin", P.ICMP_ULT: "umax"}.get(pred, UNKNOWN)
        if flavor != UNKNOWN:
            return (flavor, tv, fv)
    if _is_not_of(fv, cl) and _is_not_of(tv, cr):
        flavor = {P.ICMP_SGT: "smax", P.ICMP_SLT: "smin", P.ICMP_UGT: "umax", P.ICMP_ULT: "umin"}.get(pred, UNKNOWN)
        if flavor != UNKNOWN:
            return (flavor, tv, fv)
    if pred not in (P.ICMP_SGT, P.ICMP_SLT):
        return (UNKNOWN, tv, fv)
    c1 = match_apint(cr)
    if c1 is None:
        return (UNKNOWN, tv, fv)
    w = c1.width
    c2 = None
    if cl is tv:
        c2 = match_apint(fv)
    elif cl is fv:
        c2 = match_apint(tv)
    if c2 is not None:
        if pred == P.ICMP_SLT and c1.value == 0 and c2.value == (1 << (w - 1)) - 1:
            return ("umax" if cl is tv else "umin", tv, fv)
        if pred == P.ICMP_SGT and c1.value == (1 << w) - 1 and c2.value == 1 << (w - 1):
            return ("umax" if cl is fv else "umin", tv, fv)
    return (UNKNOWN, tv, fv)
