"""InstCombine's folds of intrinsic calls (LLVM 19.1.7
``lib/Transforms/InstCombine/InstCombineCalls.cpp``: the intrinsic part of ``visitCallInst``,
``foldCttzCtlz``, ``foldCtpop``, ``removeTriviallyEmptyRange``, ``canonicalizeConstantArg0ToArg1``).

:func:`visit_intrinsic` runs after ``visit_call``'s common steps, in LLVM's order: the memory
intrinsics (:mod:`.calls_memory`), the canonical operand order of commutative intrinsics,
the per-intrinsic folds, folding into select operands, then ``visit_call_base``.

Folds done: ``objectsize``; ``abs``; ``umin/umax/smin/smax`` (``umin(x, 1)``, narrowing of
zext/sext operands, i1 to and/or, ``neg nsw`` of both operands, ``x`` and ``-x`` to ``abs``,
the constant-range fold); ``bitreverse`` of a zext i1; ``bswap`` (shift by a byte multiple,
one active byte, ``trunc(bswap)``); ``powi``; ``cttz``/``ctlz``/``ctpop`` (with the ``range``
return attribute); ``fshl``/``fshr`` by constants; ``ptrmask``; the ``*.with.overflow``
constant folds; saturating arithmetic; ``minnum``/``maxnum``/``minimum``/``maximum``;
``fma``/``fmuladd`` operand folds; ``copysign``; ``fabs``; rounding of ``fpext``; ``cos``/``sin``;
``ldexp`` of extended i1; ``lifetime.end`` right after its ``lifetime.start``; ``assume``
(split of ``and``/``not or``, ``nonnull`` load metadata, ``separate_storage`` hints, known-true
removal; with ``-enable-knowledge-retention`` the bundle forms of :mod:`.assume_knowledge`); ``stackrestore``; the ``vector.reduce.*`` folds (a lane
permutation or ``vector.reverse`` operand reduced unpermuted, reductions of ``<N x i1>`` and of
its zext/sext as bit tests, ``ctpop`` or and/or/add reductions).

Not done (yet): the rest of min/max (``moveAddAfterMinMax``, clamps, ``matchSAddSubSat``,
reassociation and factorisation with constants), the funnel-shift bswap/bitreverse matching,
``is.fpclass``, vector insert/extract/reverse, masked memory
intrinsics, guards, target intrinsics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.value_tracking_support import _is_disjoint, _raw_exact, _raw_nsw, _raw_nuw
from llvmpy_mid.ir.pattern_match import m_all_ones, m_apint_allow_poison, m_one, match
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantFP,
    ConstantInt,
    ConstantStruct,
    PoisonValue,
    UndefValue,
    get_splat_value,
)
from llvmpy_mid.ir.droppable_uses import is_assume_with_empty_bundle
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.instructions.vector import InsertValueInst
from llvmpy_mid.ir.types import IntegerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


# --- small helpers -------------------------------------------------------------------------------


def _intrinsic_of(v: Value, base: str) -> CallInst | None:
    """``v`` when it is a call of ``llvm.<base>`` (LLVM ``m_Intrinsic``), else None."""
    if isinstance(v, CallInst) and v.intrinsic_base == "llvm." + base:
        return v
    return None


def _scalar_width(ty: Type) -> int:
    st = ty.element_type if isinstance(ty, VectorType) else ty
    return st.width if isinstance(st, IntegerType) else 0


def _int_const(ty: Type, value: int) -> Constant:
    """``ConstantInt::get(Ty, V)``: a splat for vector types."""
    if isinstance(ty, VectorType):
        from llvmpy_mid.ir.constants import ConstantVector

        elt = ConstantInt.get(ty.element_type, value & ty.element_type.mask)  # type: ignore[attr-defined]
        return ConstantVector.get_splat(ty, elt)
    assert isinstance(ty, IntegerType)
    return ConstantInt.get(ty, value & ty.mask)


def _apint(v: Value) -> int | None:
    """The integer of a ConstantInt or a splat of one (``m_APInt``)."""
    if isinstance(v, ConstantInt):
        return v.value
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if isinstance(s, ConstantInt):
            return s.value
    return None


def _is_neg_of(v: Value) -> Value | None:
    """``X`` when ``v`` is ``sub 0, X`` (``m_Neg``)."""
    if getattr(v, "opcode", None) == "sub":
        ops = v.operands  # type: ignore[attr-defined]
        if _apint(ops[0]) == 0:
            x: Value = ops[1]
            return x
    return None


def _is_fneg_of(v: Value) -> Value | None:
    """``X`` when ``v`` is ``fneg X`` (``m_FNeg``; the ``fsub -0.0, X`` form too)."""
    op = getattr(v, "opcode", None)
    if op == "fneg":
        x: Value = v.operands[0]  # type: ignore[attr-defined]
        return x
    if op == "fsub":
        ops = v.operands  # type: ignore[attr-defined]
        c = ops[0]
        if isinstance(c, Constant):
            s = get_splat_value(c) if isinstance(c.type, VectorType) else c
            if isinstance(s, ConstantFP) and s.is_negative_zero:
                y: Value = ops[1]
                return y
    return None


def _fp_sign_mask(c: ConstantFP) -> int:
    from llvmpy_mid.ir import fp_bits

    return 1 << (fp_bits.bit_width(c.type.type_id) - 1)


def _fp_sign(c: ConstantFP) -> bool:
    return bool(c.bits & _fp_sign_mask(c))


def _fp_splat(v: Value) -> ConstantFP | None:
    """``m_APFloat``: a ConstantFP or a splat of one."""
    if isinstance(v, ConstantFP):
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if isinstance(s, ConstantFP):
            return s
    return None


def _fp_splat_const(ty: VectorType, c: ConstantFP) -> Constant:
    from llvmpy_mid.ir.constants import ConstantVector

    return ConstantVector.get_splat(ty, c)


def _fp_const(ty: Type, value: float) -> Constant:
    """``ConstantFP::get(Ty, V)``: a splat for vector types."""
    if isinstance(ty, VectorType):
        from llvmpy_mid.ir.constants import ConstantVector

        return ConstantVector.get_splat(ty, ConstantFP.get(ty.element_type, value))
    return ConstantFP.get(ty, value)


def _add_range_ret_attr(ii: CallInst, lo: int, hi: int) -> None:
    """``addRangeRetAttr(ConstantRange(lo, hi))`` on the call's scalar integer type."""
    ty = ii.type
    st = ty.element_type if isinstance(ty, VectorType) else ty
    assert isinstance(st, IntegerType)
    ii.attributes = ii.attributes.with_ret_attr(Attribute.range(st, lo & st.mask, hi & st.mask))


def _true(ic: InstCombiner) -> Constant:
    return ConstantInt.get(ic.fn.context.i1, 1)


def _false(ic: InstCombiner) -> Constant:
    return ConstantInt.get(ic.fn.context.i1, 0)


def _new_intrinsic_call(ic: InstCombiner, base: str, overloads: list[Type], args: list[Value], ret: Type | None = None) -> CallInst:
    """A detached ``CallInst::Create(Intrinsic::getDeclaration(M, ID, Tys), Args)``."""
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration
    from llvmpy_mid.ir.type_mangling import intrinsic_name

    module = ic.fn.parent
    assert module is not None
    full = intrinsic_name("llvm." + base, overloads)
    assert full is not None
    rty = ret if ret is not None else overloads[0]
    fty = ic.fn.context.function_type(rty, [a.type for a in args])
    decl = intrinsic_declaration(module, full, fty)
    return CallInst(decl.function_type, decl, args)


_COMMUTATIVE = frozenset(
    (
        "llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin", "llvm.sadd.sat", "llvm.uadd.sat",
        "llvm.sadd.with.overflow", "llvm.uadd.with.overflow", "llvm.smul.with.overflow",
        "llvm.umul.with.overflow", "llvm.smul.fix", "llvm.umul.fix", "llvm.smul.fix.sat",
        "llvm.umul.fix.sat", "llvm.fma", "llvm.fmuladd", "llvm.maxnum", "llvm.minnum",
        "llvm.maximum", "llvm.minimum", "llvm.abds", "llvm.abdu",
    )
)
"""``IntrinsicInst::isCommutative``."""

_SELECT_FOLDABLE = frozenset(
    ("llvm.ctlz", "llvm.cttz", "llvm.ctpop", "llvm.umin", "llvm.umax", "llvm.smin", "llvm.smax",
     "llvm.usub.sat", "llvm.uadd.sat", "llvm.ssub.sat", "llvm.sadd.sat")
)


# --- the visitor -------------------------------------------------------------------------------


def visit_intrinsic(ic: InstCombiner, ii: CallInst) -> Instruction | None:
    """The intrinsic part of ``visitCallInst``."""
    from llvmpy_mid.transform.instcombine.calls import visit_call_base
    from llvmpy_mid.transform.instcombine.calls_memory import visit_mem_intrinsic

    iid = ii.intrinsic_base
    if iid in _MEM_INTRINSICS:
        r = visit_mem_intrinsic(ic, ii, iid)
        if r is not False:
            return r  # type: ignore[return-value]

    if isinstance(ii.type, VectorType) and not ii.type.scalable:
        from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_vector_elts

        v = simplify_demanded_vector_elts(ic, ii, (1 << ii.type.count) - 1, [0])
        if v is not None:
            if v is not ii:
                return ic.replace_inst_uses_with(ii, v)
            return ii

    if iid in _COMMUTATIVE and ii.num_args > 1:
        from llvmpy_mid.transform.instcombine.common import match_symmetric_pair

        a0 = ii.get_arg(0)
        a1 = ii.get_arg(1)
        pair = match_symmetric_pair(a0, a1)
        if pair is not None:
            ic.replace_operand(ii, 0, pair[0])
            ic.replace_operand(ii, 1, pair[1])
            return ii
        if isinstance(a0, Constant) and not isinstance(a1, Constant):
            ii.set_arg(0, a1)
            ii.set_arg(1, a0)
            return ii

    if iid in _RETURNING:
        # These cases return from visitCallInst whatever their fold gives.
        if iid == "llvm.objectsize":
            return _objectsize(ic, ii, iid)
        return None

    if iid in _FP_REDUCTIONS and _fp_reduction(ic, ii, iid):
        return None  # as LLVM: the operand is replaced, visitCallInst stops here
    handler = _HANDLERS.get(iid)
    if handler is not None:
        r2 = handler(ic, ii, iid)
        if r2 is not None:
            return r2
        if ii.parent is None:
            return None

    if iid in _SELECT_FOLDABLE:
        from llvmpy_mid.transform.instcombine import common

        fold_op_into_select = getattr(common, "fold_op_into_select", None)
        if fold_op_into_select is not None:
            for op in ii.args:
                if isinstance(op, SelectInst):
                    r3: Instruction | None = fold_op_into_select(ic, ii, op)
                    if r3 is not None:
                        return r3

    shuf = _fold_shuffled_intrinsic_operands(ic, ii, iid)
    if shuf is not None:
        return shuf

    return visit_call_base(ic, ii)


_RETURNING = frozenset(("llvm.objectsize", "llvm.masked.store", "llvm.masked.gather", "llvm.masked.scatter"))

_SHUFFLE_FOLDABLE = frozenset(("llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin", "llvm.fma", "llvm.fshl", "llvm.fshr"))


def _fold_shuffled_intrinsic_operands(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """intrinsic (shuf X, M), (shuf Y, M), ... -> shuf (intrinsic X, Y, ...), M."""
    from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst

    if iid not in _SHUFFLE_FOLDABLE:
        return None
    args = ii.args
    first = args[0]
    if not isinstance(first, ShuffleVectorInst) or not isinstance(first.operands[1], UndefValue):
        return None
    mask = first.mask
    if not any(a.has_one_use for a in args):
        return None
    src_ty = first.operands[0].type
    new_args: list[Value] = [first.operands[0]]
    for a in args[1:]:
        if not isinstance(a, ShuffleVectorInst) or not isinstance(a.operands[1], UndefValue) or a.mask != mask:
            return None
        x = a.operands[0]
        if x.type is not src_ty:
            return None
        new_args.append(x)
    fpi = ii if ii.type.is_fp_or_fp_vector else None
    call = ic.builder.create_intrinsic(iid[5:], [src_ty], new_args, fmf_source=fpi)
    return ShuffleVectorInst(call, PoisonValue.get(src_ty), mask)


_MEM_INTRINSICS = frozenset(
    ("llvm.memcpy", "llvm.memmove", "llvm.memset", "llvm.memcpy.inline", "llvm.memset.inline",
     "llvm.memcpy.element.unordered.atomic", "llvm.memmove.element.unordered.atomic",
     "llvm.memset.element.unordered.atomic")
)


# --- per intrinsic ------------------------------------------------------------------------------


def _objectsize(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """``objectsize(p)`` -> the size when it is known."""
    from llvmpy_mid.analysis.memory_builtins import lower_object_size_call

    v = lower_object_size_call(ii, ic.dl, ic.tli, False)
    if v is None:
        return None
    return ic.replace_inst_uses_with(ii, v)


def _abs(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """abs(-x) -> abs(x); abs(x) -> x or -x by the known sign; abs(sext x) -> zext abs(x);
    abs(srem x, 2) -> x & 1."""
    op = ii.get_arg(0)
    int_min_poison = _apint(ii.get_arg(1)) == 1
    x = _is_neg_of(op)
    if x is not None:
        return ic.replace_operand(ii, 0, x)
    if isinstance(op, SelectInst):
        t, f = op.true_value, op.false_value
        if _is_neg_of(f) is t:
            return ic.replace_operand(ii, 0, t)
        xt = _is_neg_of(t)
        if xt is not None and xt is f:
            return ic.replace_operand(ii, 0, f)
    # abs(a * abs(b)) -> abs(a * b)
    if getattr(op, "opcode", None) == "mul" and op.has_one_use:
        m0, m1 = op.operands  # type: ignore[attr-defined]
        for a, b in ((m0, m1), (m1, m0)):
            inner = _intrinsic_of(b, "abs")
            if inner is not None:
                nsw = _raw_nsw(op) and int_min_poison
                xy = ic.builder.create_mul(a, inner.get_arg(0), nsw=nsw)
                return ic.replace_operand(ii, 0, xy)
    known = _get_known_sign_or_zero(ic, op, ii)
    if known is not None:
        if not known:
            return ic.replace_inst_uses_with(ii, op)
        zero = Constant.get_null_value(op.type)
        return BinaryOperator.create("sub", zero, op, nsw=int_min_poison)
    if getattr(op, "opcode", None) == "sext" and op.has_one_use:
        src = op.operands[0]  # type: ignore[attr-defined]
        narrow = ic.builder.create_binary_intrinsic("abs", src, _false(ic))
        return CastInst.create("zext", narrow, ii.type)
    if getattr(op, "opcode", None) == "srem" and _apint(op.operands[1]) == 2:  # type: ignore[attr-defined]
        return BinaryOperator.create("and", op.operands[0], _int_const(ii.type, 1))  # type: ignore[attr-defined]
    return None


def _get_known_sign(ic: InstCombiner, op: Value, cxt: Instruction) -> bool | None:
    """``getKnownSign``: True when ``op < 0``, False when ``op >= 0`` (known bits, then the
    dominating conditions), else None."""
    from llvmpy_mid.analysis.implied_condition import is_implied_by_dom_condition_pred
    from llvmpy_mid.ir.constants import Constant
    from llvmpy_mid.ir.instructions.cmp import Predicate

    kb = ic.compute_known_bits(op, 0, cxt)
    if kb.is_non_negative():
        return False
    if kb.is_negative():
        return True
    if getattr(op, "opcode", None) == "sub" and _raw_nsw(op):
        x, y = op.operands  # type: ignore[attr-defined]
        return is_implied_by_dom_condition_pred(Predicate.ICMP_SLT, x, y, cxt, ic.dl)
    return is_implied_by_dom_condition_pred(Predicate.ICMP_SLT, op, Constant.get_null_value(op.type), cxt, ic.dl)


def _get_known_sign_or_zero(ic: InstCombiner, op: Value, cxt: Instruction) -> bool | None:
    """``getKnownSignOrZero``: True when ``op <= 0``, False when ``op >= 0``, else None."""
    from llvmpy_mid.analysis.implied_condition import is_implied_by_dom_condition_pred
    from llvmpy_mid.ir.instructions.cmp import Predicate

    sign = _get_known_sign(ic, op, cxt)
    if sign is not None:
        return sign
    if getattr(op, "opcode", None) == "sub" and _raw_nsw(op):
        x, y = op.operands  # type: ignore[attr-defined]
        return is_implied_by_dom_condition_pred(Predicate.ICMP_SLE, x, y, cxt, ic.dl)
    return None


_INVERSE_MINMAX = {"llvm.smax": "smin", "llvm.smin": "smax", "llvm.umax": "umin", "llvm.umin": "umax"}


def _lossless_trunc(c: Constant, ty: Type, signed: bool) -> Constant | None:
    """``getLosslessUnsignedTrunc`` / ``getLosslessSignedTrunc``."""
    from llvmpy_mid.ir.constant_fold import constant_fold_cast_instruction

    tr = constant_fold_cast_instruction("trunc", c, ty)
    if tr is None:
        return None
    back = constant_fold_cast_instruction("sext" if signed else "zext", tr, c.type)
    if back is not c:
        return None
    return tr


def _min_max(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """The folds shared by umin/umax/smin/smax (LLVM's fall-through chain)."""
    i0 = ii.get_arg(0)
    i1 = ii.get_arg(1)
    short = iid[5:]
    b = ic.builder
    if iid == "llvm.umin":
        if match(i1, _M_ONE) is not None:
            cmp = b.create_icmp("ne", i0, Constant.get_null_value(i0.type))
            return CastInst.create("zext", cmp, ii.type)
    if iid in ("llvm.umin", "llvm.umax"):
        op0 = getattr(i0, "opcode", None)
        if op0 == "zext" and getattr(i1, "opcode", None) == "zext":
            x = i0.operands[0]  # type: ignore[attr-defined]
            y = i1.operands[0]  # type: ignore[attr-defined]
            if (i0.has_one_use or i1.has_one_use) and x.type is y.type:
                nm = b.create_binary_intrinsic(short, x, y)
                return CastInst.create("zext", nm, ii.type)
        if op0 == "zext" and isinstance(i1, Constant) and i0.has_one_use:
            x = i0.operands[0]  # type: ignore[attr-defined]
            nc = _lossless_trunc(i1, x.type, False)
            if nc is not None:
                nm = b.create_binary_intrinsic(short, x, nc)
                return CastInst.create("zext", nm, ii.type)
    if getattr(i0, "opcode", None) == "sext" and getattr(i1, "opcode", None) == "sext":
        x = i0.operands[0]  # type: ignore[attr-defined]
        y = i1.operands[0]  # type: ignore[attr-defined]
        if (i0.has_one_use or i1.has_one_use) and x.type is y.type:
            nm = b.create_binary_intrinsic(short, x, y)
            return CastInst.create("sext", nm, ii.type)
    if getattr(i0, "opcode", None) == "sext" and isinstance(i1, Constant) and i0.has_one_use:
        x = i0.operands[0]  # type: ignore[attr-defined]
        nc = _lossless_trunc(i1, x.type, True)
        if nc is not None:
            nm = b.create_binary_intrinsic(short, x, nc)
            return CastInst.create("sext", nm, ii.type)
    if _scalar_width(ii.type) == 1:
        if iid in ("llvm.umin", "llvm.smax"):
            return BinaryOperator.create("and", i0, i1)
        return BinaryOperator.create("or", i0, i1)
    if iid in ("llvm.smax", "llvm.smin"):
        x = _nsw_neg_of(i0)
        y = _nsw_neg_of(i1)
        if x is not None and y is not None and (i0.has_one_use or i1.has_one_use):
            inv = b.create_binary_intrinsic(_INVERSE_MINMAX[iid], x, y)
            return BinaryOperator.create("sub", Constant.get_null_value(inv.type), inv, nsw=True)
    r = _min_max_xor_pow2(ic, ii, iid, i0, i1)
    if r is not None:
        return r
    r = _move_not_after_min_max(ic, ii, iid, i0, i1)
    if r is not None:
        return r
    r = _move_not_after_min_max(ic, ii, iid, i1, i0)
    if r is not None:
        return r
    r = _move_add_after_min_max(ic, ii, iid, i0, i1)
    if r is not None:
        return r
    # minmax (X & NegPow2C, Y & NegPow2C) -> minmax(X, Y) & NegPow2C
    if getattr(i0, "opcode", None) == "and" and i0.has_one_use and getattr(i1, "opcode", None) == "and" and i1.has_one_use:
        c0 = _apint(i0.operands[1])  # type: ignore[attr-defined]
        w = _scalar_width(ii.type)
        if c0 is not None and c0 != 0 and ((-c0) & ((1 << w) - 1)) & (((-c0) & ((1 << w) - 1)) - 1) == 0 and _apint(i1.operands[1]) == c0:  # type: ignore[attr-defined]
            nm = b.create_binary_intrinsic(short, i0.operands[0], i1.operands[0])  # type: ignore[attr-defined]
            return BinaryOperator.create("and", nm, _int_const(ii.type, c0))
    from llvmpy_mid.analysis.value_tracking_support import is_known_negation

    if is_known_negation(i0, i1):
        if i0.has_one_use and not i1.has_one_use:
            i0, i1 = i1, i0
        int_min_poison = is_known_negation(i0, i1, True)
        absv = b.create_binary_intrinsic("abs", i0, _true(ic) if int_min_poison else _false(ic))
        if iid in ("llvm.smin", "llvm.umax"):
            absv = b.create_neg(absv, "nabs", nsw=int_min_poison)
        return ic.replace_inst_uses_with(ii, absv)
    r = _fold_clamp_range_of_two(ic, ii, iid, i0, i1)
    if r is not None:
        return r
    r = _match_sadd_sub_sat(ic, ii, iid)
    if r is not None:
        return r
    nv = _reassociate_min_max_with_constants(ic, ii, iid)
    if nv is not None:
        return ic.replace_inst_uses_with(ii, nv)
    r = _reassociate_min_max_with_constant_in_operand(ic, ii, iid)
    if r is not None:
        return r
    r = _factorize_min_max_tree(ic, ii, iid)
    if r is not None:
        return r
    mrc = match(i1, _M_APINT_POISON)
    rhsc: int | None = mrc.apint("c") if mrc is not None else None
    if rhsc is not None:
        from llvmpy_mid.analysis.overflow_analysis import compute_constant_range_including_known_bits
        from llvmpy_mid.analysis.constant_range import ConstantRange
        from llvmpy_mid.ir.instructions.cmp import Predicate

        pred = {"llvm.smax": Predicate.ICMP_SGE, "llvm.smin": Predicate.ICMP_SLE,
                "llvm.umax": Predicate.ICMP_UGE, "llvm.umin": Predicate.ICMP_ULE}[iid]
        signed = iid in ("llvm.smax", "llvm.smin")
        cr = compute_constant_range_including_known_bits(i0, signed, ic.query(ii))
        if not cr.is_full_set():
            w = _scalar_width(ii.type)
            rc = ConstantRange(w, rhsc)
            if cr.icmp(pred, rc):
                return ic.replace_inst_uses_with(ii, i0)
            if cr.icmp(pred.swapped, rc):
                return ic.replace_inst_uses_with(ii, _int_const(ii.type, rhsc))
    return None


_MINMAX = frozenset(("llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin"))


def _min_max_xor_pow2(ic: InstCombiner, ii: CallInst, iid: str, i0: Value, i1: Value) -> Instruction | None:
    """(umax X, (xor X, Pow2)) -> (or X, Pow2); (umin X, (xor X, Pow2)) -> (and X, ~Pow2);
    the signed forms by the sign of the power of two."""
    x: Value | None = None
    for a, other in ((i0, i1), (i1, i0)):
        if getattr(a, "opcode", None) == "xor":
            p, q = a.operands  # type: ignore[attr-defined]
            if p is other:
                x = q
            elif q is other:
                x = p
            if x is not None:
                break
    if x is None or not ic.is_known_to_be_a_power_of_two(x, True, 0, ii):
        return None
    use_or = iid in ("llvm.smax", "llvm.umax")
    use_and_n = iid in ("llvm.smin", "llvm.umin")
    if iid in ("llvm.smax", "llvm.smin"):
        sign = _get_known_sign(ic, x, ii)
        if sign is None:
            use_or = use_and_n = False
        elif sign:
            use_or = not use_or
            use_and_n = not use_and_n
            x = _int_const(i0.type, 1 << (_scalar_width(i0.type) - 1))
    if use_or:
        return BinaryOperator.create("or", i0, x)
    if use_and_n:
        return BinaryOperator.create("and", i0, ic.builder.create_not(x))
    return None


def _move_not_after_min_max(ic: InstCombiner, ii: CallInst, iid: str, x: Value, y: Value) -> Instruction | None:
    """max ~A, Y -> ~(min A, ~Y) when ~Y is free."""
    from llvmpy_mid.transform.instcombine.common import get_freely_inverted, is_free_to_invert

    if not (getattr(x, "opcode", None) == "xor" and x.has_one_use and _is_all_ones(x.operands[1])):  # type: ignore[attr-defined]
        return None
    a = x.operands[0]  # type: ignore[attr-defined]
    if is_free_to_invert(ic, a, a.has_one_use):
        return None
    not_y = get_freely_inverted(ic, y, y.has_one_use, ic.builder)
    if not_y is None:
        return None
    inv = ic.builder.create_binary_intrinsic(_INVERSE_MINMAX[iid], a, not_y)
    return BinaryOperator.create("xor", inv, Constant.get_all_ones_value(inv.type))


def _is_all_ones(v: Value) -> bool:
    """``m_AllOnes`` (poison lanes allowed)."""
    return match(v, _M_ALL_ONES) is not None


_M_ALL_ONES = m_all_ones()
_M_ONE = m_one()
_M_APINT_POISON = m_apint_allow_poison("c")


def _move_add_after_min_max(ic: InstCombiner, ii: CallInst, iid: str, op0: Value, op1: Value) -> Instruction | None:
    """min/max (add X, C0), C1 -> add (min/max X, C1 - C0), C0 with the add's no-wrap flag."""
    if not (getattr(op0, "opcode", None) == "add" and op0.has_one_use):
        return None
    c0 = _apint(op0.operands[1])  # type: ignore[attr-defined]
    c1 = _apint(op1)
    if c0 is None or c1 is None:
        return None
    signed = iid in ("llvm.smax", "llvm.smin")
    if not (_raw_nsw(op0) if signed else _raw_nuw(op0)):
        return None
    w = _scalar_width(ii.type)
    if signed:
        diff = _sext(c1, w) - _sext(c0, w)
        if diff < -(1 << (w - 1)) or diff >= 1 << (w - 1):
            return None
    else:
        diff = c1 - c0
        if diff < 0:
            return None
    nm = ic.builder.create_binary_intrinsic(iid[5:], op0.operands[0], _int_const(ii.type, diff))  # type: ignore[attr-defined]
    return BinaryOperator.create("add", nm, op0.operands[1], nsw=signed, nuw=not signed)  # type: ignore[attr-defined]


_CLAMP = {"llvm.smax": ("llvm.smin", "sgt", True), "llvm.smin": ("llvm.smax", "slt", False),
          "llvm.umax": ("llvm.umin", "ugt", True), "llvm.umin": ("llvm.umax", "ult", False)}


def _fold_clamp_range_of_two(ic: InstCombiner, ii: CallInst, iid: str, i0: Value, i1: Value) -> Instruction | None:
    """max (min X, 42), 41 -> X > 41 ? 42 : 41 (and the other three)."""
    c1 = _apint(i1)
    if c1 is None or not i0.has_one_use:
        return None
    inner_id, pred, inner_is_plus_one = _CLAMP[iid]
    if not (isinstance(i0, CallInst) and i0.intrinsic_base == inner_id):
        return None
    c0 = _apint(i0.get_arg(1))
    if c0 is None:
        return None
    mask = (1 << _scalar_width(ii.type)) - 1
    if inner_is_plus_one:
        if c0 != (c1 + 1) & mask:
            return None
    elif c1 != (c0 + 1) & mask:
        return None
    cmp = ic.builder.create_icmp(pred, i0.get_arg(0), i1)
    return SelectInst(cmp, _int_const(ii.type, c0), i1)


def _match_sadd_sub_sat(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """max(INT_MIN, min(INT_MAX, add(sext A, sext B))) -> sext sadd.sat(A, B) (and sub)."""
    from llvmpy_mid.transform.instcombine.common import should_change_type_widths

    ty = ii.type
    if iid == "llvm.smin":
        mm2 = ii.get_arg(0)
        max_v = _apint(ii.get_arg(1))
        if not (isinstance(mm2, CallInst) and mm2.intrinsic_base == "llvm.smax") or max_v is None:
            return None
        min_v = _apint(mm2.get_arg(1))
    elif iid == "llvm.smax":
        mm2 = ii.get_arg(0)
        min_v = _apint(ii.get_arg(1))
        if not (isinstance(mm2, CallInst) and mm2.intrinsic_base == "llvm.smin") or min_v is None:
            return None
        max_v = _apint(mm2.get_arg(1))
    else:
        return None
    if min_v is None or max_v is None:
        return None
    addsub = mm2.get_arg(0)
    if not isinstance(addsub, BinaryOperator):
        return None
    w = _scalar_width(ty)
    mask = (1 << w) - 1
    mp1 = (max_v + 1) & mask
    if mp1 == 0 or mp1 & (mp1 - 1) or (-min_v) & mask != mp1:
        return None
    nbw = mp1.bit_length() - 1 + 1
    if not should_change_type_widths(ic, w, nbw):
        return None
    if not mm2.has_one_use or not addsub.has_one_use:
        return None
    if addsub.opcode == "add":
        base = "sadd.sat"
    elif addsub.opcode == "sub":
        base = "ssub.sat"
    else:
        return None
    a, bb = addsub.operands
    if ic.compute_max_significant_bits(a, 0, addsub) > nbw or ic.compute_max_significant_bits(bb, 0, addsub) > nbw:
        return None
    ctx = ic.fn.context
    new_ty: Type = ctx.int_type(nbw)
    if isinstance(ty, VectorType):
        new_ty = ctx.vector_type(new_ty, ty.count, ty.scalable)
    at = ic.builder.create_trunc(a, new_ty)
    bt = ic.builder.create_trunc(bb, new_ty)
    sat = ic.builder.create_intrinsic(base, [new_ty], [at, bt])
    return CastInst.create("sext", sat, ty)


def _reassociate_min_max_with_constants(ic: InstCombiner, ii: CallInst, iid: str) -> Value | None:
    """max (max X, C0), C1 -> max X, (max C0, C1) (and umax of smax / smin of umin with
    non-negative constants)."""
    lhs = ii.get_arg(0)
    if not (isinstance(lhs, CallInst) and lhs.intrinsic_base in _MINMAX):
        return None
    c0 = lhs.get_arg(1)
    c1 = ii.get_arg(1)
    if not (_is_imm_constant_any(c0) and _is_imm_constant_any(c1)):
        return None
    inner = lhs.intrinsic_base
    if inner != iid:
        if not ((iid == "llvm.umax" and inner == "llvm.smax") or (iid == "llvm.smin" and inner == "llvm.umin")):
            return None
        from llvmpy_mid.analysis.known_bits_analysis import is_known_non_negative

        if not (is_known_non_negative(c0, ic.query(ii)) and is_known_non_negative(c1, ic.query(ii))):
            return None
    pred = {"llvm.smax": "sgt", "llvm.smin": "slt", "llvm.umax": "ugt", "llvm.umin": "ult"}[iid]
    b = ic.builder
    cond = b.create_icmp(pred, c0, c1)
    newc = b.create_select(cond, c0, c1)
    return b.create_intrinsic(inner[5:], [ii.type], [lhs.get_arg(0), newc])


def _reassociate_min_max_with_constant_in_operand(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """max (max X, C), Y -> max (max X, Y), C."""
    for k in (0, 1):
        inner = ii.get_arg(k)
        y = ii.get_arg(1 - k)
        if not (isinstance(inner, CallInst) and inner.has_one_use and inner.intrinsic_base in _MINMAX):
            continue
        c = inner.get_arg(1)
        if not _is_imm_constant_any(c):
            continue
        x = inner.get_arg(0)
        if inner.intrinsic_base != iid or _is_imm_constant_any(x) or _is_imm_constant_any(y):
            return None
        new_inner = ic.builder.create_binary_intrinsic(iid[5:], x, y)
        from llvmpy_mid.transform.instcombine.combiner import take_name

        take_name(new_inner, inner)
        return _new_intrinsic_call(ic, iid[5:], [ii.type], [new_inner, c])
    return None


def _is_imm_constant_any(v: Value) -> bool:
    """``m_ImmConstant``: a constant with no constant expression inside."""
    if not isinstance(v, Constant) or isinstance(v, ConstantExpr):
        return False
    if isinstance(v.type, VectorType) and not v.type.scalable:
        for k in range(v.type.count):
            e = v.get_aggregate_element(k)
            if isinstance(e, ConstantExpr):
                return False
    return True


def _factorize_min_max_tree(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """min(min(a, b), min(c, a)) -> min(min(c, a), b) and the like."""
    lhs = ii.get_arg(0)
    rhs = ii.get_arg(1)
    if not (isinstance(lhs, CallInst) and isinstance(rhs, CallInst)):
        return None
    if lhs.intrinsic_base != iid or rhs.intrinsic_base != iid or (not lhs.has_one_use and not rhs.has_one_use):
        return None
    a, bb = lhs.get_arg(0), lhs.get_arg(1)
    c, d = rhs.get_arg(0), rhs.get_arg(1)
    op: Value | None = None
    third: Value | None = None
    if lhs.has_one_use:
        if d is a or c is a:
            op, third = rhs, bb
        elif d is bb or c is bb:
            op, third = rhs, a
    else:
        if d is a or d is bb:
            op, third = lhs, c
        elif c is a or c is bb:
            op, third = lhs, d
    if op is None or third is None:
        return None
    return _new_intrinsic_call(ic, iid[5:], [ii.type], [op, third])


def _nsw_neg_of(v: Value) -> Value | None:
    if getattr(v, "opcode", None) == "sub" and _raw_nsw(v):
        ops = v.operands  # type: ignore[attr-defined]
        if _apint(ops[0]) == 0:
            x: Value = ops[1]
            return x
    return None


def _bitreverse(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """bitreverse (zext i1 X) -> select X, SignBit, 0."""
    op = ii.get_arg(0)
    if getattr(op, "opcode", None) == "zext":
        x = op.operands[0]  # type: ignore[attr-defined]
        if _scalar_width(x.type) == 1:
            w = _scalar_width(ii.type)
            return SelectInst(x, _int_const(ii.type, 1 << (w - 1)), Constant.get_null_value(ii.type))
    return None


def _bswap(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """bswap (shl X, 8k) -> lshr (bswap X), 8k (and the reverse); bswap of one active byte ->
    a shift; bswap (trunc (bswap X)) -> trunc (lshr X, C)."""
    op = ii.get_arg(0)
    w = _scalar_width(op.type)
    opc = getattr(op, "opcode", None)
    if opc in ("shl", "lshr") and op.has_one_use:
        x, y = op.operands  # type: ignore[attr-defined]
        if ic.masked_value_is_zero(y, 7, 0, ii):
            ns = ic.builder.create_unary_intrinsic("bswap", x)
            return BinaryOperator.create("lshr" if opc == "shl" else "shl", ns, y)
    kb = ic.compute_known_bits(op, 0, ii)
    lz = kb.count_min_leading_zeros() // 8 * 8
    tz = kb.count_min_trailing_zeros() // 8 * 8
    if w - lz - tz == 8:
        if lz > tz:
            return BinaryOperator.create("shl", op, _int_const(op.type, lz - tz), nuw=True)
        return BinaryOperator.create("lshr", op, _int_const(op.type, tz - lz), exact=True)
    if opc == "trunc":
        inner = _intrinsic_of(op.operands[0], "bswap")  # type: ignore[attr-defined]
        if inner is not None:
            x = inner.get_arg(0)
            c = _scalar_width(x.type) - w
            v = ic.builder.create_lshr(x, _int_const(x.type, c))
            return CastInst.create("trunc", v, op.type)
    return None


def _powi(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """powi(x, -1) -> 1/x; powi(x, 2) -> x*x; powi(-x|fabs x|copysign(x, y), even) -> powi(x, even)."""
    p = ii.get_arg(1)
    if not isinstance(p, ConstantInt):
        return None
    x = ii.get_arg(0)
    fmf = ii.fast_math_flags
    if p.value == p.type.mask:
        return BinaryOperator.create("fdiv", _fp_const(ii.type, 1.0), x, fast_math_flags=fmf)
    if p.value == 2:
        return BinaryOperator.create("fmul", x, x, fast_math_flags=fmf)
    if p.value & 1 == 0:
        y = _is_fneg_of(x)
        if y is None:
            fa = _intrinsic_of(x, "fabs")
            if fa is not None:
                y = fa.get_arg(0)
        if y is None:
            cs = _intrinsic_of(x, "copysign")
            if cs is not None:
                y = cs.get_arg(0)
        if y is not None:
            return ic.replace_operand(ii, 0, y)
    return None


def _cttz_ctlz(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """``foldCttzCtlz``."""
    is_tz = iid == "llvm.cttz"
    op0 = ii.get_arg(0)
    op1 = ii.get_arg(1)
    b = ic.builder
    br = _intrinsic_of(op0, "bitreverse")
    if br is not None:
        return _new_intrinsic_call(ic, "ctlz" if is_tz else "cttz", [ii.type], [br.get_arg(0), op1])
    if _scalar_width(ii.type) == 1:
        if _apint(op1) == 0:
            return BinaryOperator.create("xor", op0, _int_const(op0.type, -1))
        return ic.replace_inst_uses_with(ii, Constant.get_null_value(ii.type))
    if ii.has_one_use and _apint(op1) == 0:
        user = ii._use_head.user  # type: ignore[union-attr]
        if getattr(user, "opcode", None) in ("shl", "lshr", "ashr") and user.operands[1] is ii:
            _drop_ub_implying_attrs_and_metadata(ii)
            return ic.replace_operand(ii, 1, _true(ic))
    if is_tz:
        x = _is_neg_of(op0)
        if x is not None:
            return ic.replace_operand(ii, 0, x)
        if getattr(op0, "opcode", None) == "and":
            a0, a1 = op0.operands  # type: ignore[attr-defined]
            an0: Value = a0
            an1: Value = a1
            if _is_neg_of(an0) is an1:
                return ic.replace_operand(ii, 0, an1)
            if _is_neg_of(an1) is an0:
                return ic.replace_operand(ii, 0, an0)
        opc = getattr(op0, "opcode", None)
        if opc == "sext" and op0.has_one_use:
            z = b.create_zext(op0.operands[0], ii.type)  # type: ignore[attr-defined]
            c = b.create_binary_intrinsic("cttz", z, op1)
            return ic.replace_inst_uses_with(ii, c)
        if opc == "zext" and op0.has_one_use and _apint(op1) == 1:
            c = b.create_binary_intrinsic("cttz", op0.operands[0], _true(ic))  # type: ignore[attr-defined]
            return ic.replace_inst_uses_with(ii, b.create_zext(c, ii.type))
        from llvmpy_mid.analysis.select_pattern import match_select_pattern

        flavor, sx, _ = match_select_pattern(op0)
        if flavor in ("abs", "nabs") and sx is not None:
            return ic.replace_operand(ii, 0, sx)
        ab = _intrinsic_of(op0, "abs")
        if ab is not None:
            return ic.replace_operand(ii, 0, ab.get_arg(0))
        if opc == "shl" and _is_imm_constant_any(op0.operands[0]) and _apint(op1) == 1:  # type: ignore[attr-defined]
            cc = b.create_binary_intrinsic("cttz", op0.operands[0], op1)  # type: ignore[attr-defined]
            return BinaryOperator.create("add", cc, op0.operands[1])  # type: ignore[attr-defined]
        if opc == "lshr" and _raw_exact(op0) and _is_imm_constant_any(op0.operands[0]) and _apint(op1) == 1:  # type: ignore[attr-defined]
            cc = b.create_binary_intrinsic("cttz", op0.operands[0], op1)  # type: ignore[attr-defined]
            return BinaryOperator.create("sub", cc, op0.operands[1])  # type: ignore[attr-defined]
        if opc == "add" and _apint(op0.operands[1]) == 1:  # type: ignore[attr-defined]
            sh = op0.operands[0]  # type: ignore[attr-defined]
            if getattr(sh, "opcode", None) == "lshr":
                c0 = _apint(sh.operands[0])
                if c0 is not None and c0 == (1 << _scalar_width(ii.type)) - 1:
                    return BinaryOperator.create("sub", _int_const(ii.type, _scalar_width(ii.type)), sh.operands[1])
    else:
        opc = getattr(op0, "opcode", None)
        if opc == "lshr" and _is_imm_constant_any(op0.operands[0]) and _apint(op1) == 1:  # type: ignore[attr-defined]
            cc = b.create_binary_intrinsic("ctlz", op0.operands[0], op1)  # type: ignore[attr-defined]
            return BinaryOperator.create("add", cc, op0.operands[1])  # type: ignore[attr-defined]
        if opc == "shl" and _raw_nuw(op0) and _is_imm_constant_any(op0.operands[0]) and _apint(op1) == 1:  # type: ignore[attr-defined]
            cc = b.create_binary_intrinsic("ctlz", op0.operands[0], op1)  # type: ignore[attr-defined]
            return BinaryOperator.create("sub", cc, op0.operands[1])  # type: ignore[attr-defined]
    kb = ic.compute_known_bits(op0, 0, ii)
    possible = kb.count_max_trailing_zeros() if is_tz else kb.count_max_leading_zeros()
    definite = kb.count_min_trailing_zeros() if is_tz else kb.count_min_leading_zeros()
    if possible == definite:
        return ic.replace_inst_uses_with(ii, _int_const(op0.type, definite))
    if kb.one != 0 or is_known_non_zero(op0, ic.query(ii)):
        if _apint(op1) != 1:
            return ic.replace_operand(ii, 1, _true(ic))
    w = _scalar_width(op0.type)
    if w != 1 and not ii.has_ret_attr("range") and ii.get_metadata("range") is None:
        _add_range_ret_attr(ii, definite, possible + 1)
        return ii
    return None


def _is_imm_constant(v: Value) -> bool:
    return isinstance(v, Constant) and not isinstance(v, ConstantExpr) and _apint(v) is not None


def _drop_ub_implying_attrs_and_metadata(ii: CallInst) -> None:
    """``dropUBImplyingAttrsAndMetadata``: the return's noundef/range-like attributes and the
    metadata that makes poison immediate UB."""
    attrs = ii.attributes
    for k in ("noundef", "range", "nonnull", "align", "dereferenceable", "dereferenceable_or_null", "nofpclass"):
        attrs = attrs.without_ret_attr(k)
    for n in range(ii.num_args):
        for k in ("noundef", "range", "nonnull", "align", "dereferenceable", "dereferenceable_or_null", "nofpclass"):
            attrs = attrs.without_param_attr(n, k)
    ii.attributes = attrs
    for md in ("range", "nonnull", "align", "noundef", "dereferenceable", "dereferenceable_or_null"):
        if ii.get_metadata(md) is not None:
            ii.set_metadata(md, None)


def _ctpop(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """``foldCtpop``."""
    ty = ii.type
    w = _scalar_width(ty)
    op0 = ii.get_arg(0)
    b = ic.builder
    inner = _intrinsic_of(op0, "bitreverse") or _intrinsic_of(op0, "bswap")
    if inner is not None:
        return ic.replace_operand(ii, 0, inner.get_arg(0))
    fs = _intrinsic_of(op0, "fshl") or _intrinsic_of(op0, "fshr")
    if fs is not None and fs.get_arg(0) is fs.get_arg(1):
        return ic.replace_operand(ii, 0, fs.get_arg(0))
    if op0.has_one_use and getattr(op0, "opcode", None) == "or":
        a0, a1 = op0.operands  # type: ignore[attr-defined]
        pairs: tuple[tuple[Value, Value], ...] = ((a0, a1), (a1, a0))
        for x, n in pairs:
            if _is_neg_of(n) is x:
                cttz = b.create_intrinsic("cttz", [ty], [x, _false(ic)])
                return ic.replace_inst_uses_with(ii, b.create_sub(_int_const(ty, w), cttz))
    if getattr(op0, "opcode", None) == "and":
        a0, a1 = op0.operands  # type: ignore[attr-defined]
        for nx, dec in ((a0, a1), (a1, a0)):
            if getattr(nx, "opcode", None) == "xor" and _apint(nx.operands[1]) == (1 << w) - 1:
                x = nx.operands[0]
                if getattr(dec, "opcode", None) == "add" and dec.operands[0] is x and _apint(dec.operands[1]) == (1 << w) - 1:
                    return _new_intrinsic_call(ic, "cttz", [ty], [x, _false(ic)])
    if getattr(op0, "opcode", None) == "zext" and op0.has_one_use:
        np_ = b.create_unary_intrinsic("ctpop", op0.operands[0])  # type: ignore[attr-defined]
        return CastInst.create("zext", np_, ty)
    kb = ic.compute_known_bits(op0, 0, ii)
    maybe = ~kb.zero & ((1 << w) - 1)
    if maybe and maybe & (maybe - 1) == 0:
        return BinaryOperator.create("lshr", op0, _int_const(ty, maybe.bit_length() - 1))
    if ic.is_known_to_be_a_power_of_two(op0, True, 0, ii):
        cmp = b.create_icmp("ne", op0, Constant.get_null_value(ty))
        return CastInst.create("zext", cmp, ty)
    if w != 1 and not ii.has_ret_attr("range") and ii.get_metadata("range") is None:
        _add_range_ret_attr(ii, kb.count_min_population(), kb.count_max_population() + 1)
        return ii
    return None


def _funnel_shift(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """Funnel shifts by constants: the amount modulo the width, fshr -> fshl, fshl to shl/lshr,
    the i16 rotate by 8 to bswap; then the demanded bits."""
    op0 = ii.get_arg(0)
    op1 = ii.get_arg(1)
    ty = ii.type
    w = _scalar_width(ty)
    sh = ii.get_arg(2)
    if isinstance(sh, Constant) and not isinstance(sh, ConstantExpr) and not _contains_undef_or_expr(sh):
        from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands

        width_c = _int_const(ty, w)
        mod = constant_fold_binary_op_operands("urem", sh, width_c, ic.dl)
        if mod is None:
            return None
        if mod is not sh:
            return ic.replace_operand(ii, 2, mod)
        if iid == "llvm.fshr":
            if not is_known_non_zero(sh, ic.query(ii)):
                return None
            left = ConstantExpr.get_sub(width_c, sh)
            return _new_intrinsic_call(ic, "fshl", [ty], [op0, op1, left])
        if _apint(op1) == 0 or isinstance(op1, UndefValue):
            return BinaryOperator.create("shl", op0, sh)
        if _apint(op0) == 0 or isinstance(op0, UndefValue):
            return BinaryOperator.create("lshr", op1, ConstantExpr.get_sub(width_c, sh))
        if op0 is op1 and w == 16 and _apint(sh) == 8:
            return _new_intrinsic_call(ic, "bswap", [ty], [op0])
        # matchBSwapOrBitReverse is not done here; LLVM tries it at this point.
    if ic.simplify_demanded_instruction_bits(ii):
        return ii
    if w & (w - 1):
        return None
    from llvmpy_mid.analysis.known_bits import KnownBits

    known = KnownBits(w)
    if ic.simplify_demanded_bits(ii, 2, (1 << (w - 1).bit_length()) - 1, known):
        return ii
    return None


def _contains_undef_or_expr(c: Constant) -> bool:
    if isinstance(c, UndefValue):
        return True
    if isinstance(c.type, VectorType):
        n = c.type.count
        for k in range(n):
            e = c.get_aggregate_element(k)
            if e is None or isinstance(e, (UndefValue, ConstantExpr)):
                return True
    return False


def _ptrmask(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """ptrmask(ptrmask(p, A), B) -> ptrmask(p, A & B); nonnull and align from known bits."""
    from llvmpy_mid.analysis.known_bits import KnownBits

    bw = ic.dl.pointer_size_in_bits(getattr(ii.type, "address_space", 0))
    if ic.simplify_demanded_instruction_bits(ii):
        return ii
    changed = False
    inner = _intrinsic_of(ii.get_arg(0), "ptrmask")
    if inner is not None and inner.has_one_use:
        nm = ic.builder.create_and(ii.get_arg(1), inner.get_arg(1))
        ic.replace_operand(ii, 0, inner.get_arg(0))
        ic.replace_operand(ii, 1, nm)
        changed = True
    known: KnownBits = ic.compute_known_bits(ii, 0, ii)
    if not ii.has_ret_attr("nonnull") and (known.is_non_zero() or is_known_non_zero(ii, ic.query(ii))):
        ii.attributes = ii.attributes.with_ret_attr(Attribute.enum("nonnull"))
        changed = True
    log = min(32, min(bw - 1, known.count_min_trailing_zeros()))
    cur = ii.attributes.ret_alignment or 1
    if log > cur.bit_length() - 1:
        ii.attributes = ii.attributes.with_ret_attr(Attribute.alignment(1 << log))
        changed = True
    return ii if changed else None


def _with_overflow_common(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """``foldIntrinsicWithOverflowCommon``: ``OptimizeOverflowCheck`` (from the compares family)."""
    from llvmpy_mid.transform.instcombine import compares

    ooc = getattr(compares, "optimize_overflow_check", None)
    if ooc is None:
        return None
    op = {"llvm.uadd.with.overflow": "add", "llvm.sadd.with.overflow": "add", "llvm.usub.with.overflow": "sub",
          "llvm.ssub.with.overflow": "sub", "llvm.umul.with.overflow": "mul", "llvm.smul.with.overflow": "mul"}[iid]
    signed = iid.startswith("llvm.s")
    res = ooc(ic, op, signed, ii.get_arg(0), ii.get_arg(1), ii)
    if res is None:
        return None
    result, overflow = res
    st = ii.type
    assert isinstance(st, StructType)
    agg = ConstantStruct.get(st, [PoisonValue.get(result.type), overflow])
    return InsertValueInst(agg, result, [0])


def _add_with_overflow(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """uaddo (X +nuw C0), C1 -> uaddo X, C0 + C1 (saddo with nsw) when the sum does not wrap."""
    r = _with_overflow_common(ic, ii, iid)
    if r is not None:
        return r
    a0 = ii.get_arg(0)
    a1 = ii.get_arg(1)
    signed = iid == "llvm.sadd.with.overflow"
    c1 = _apint(a1)
    if c1 is None:
        return None
    x, c0 = _nw_add_like(a0, signed)
    if x is None or c0 is None:
        return None
    w = _scalar_width(a1.type)
    if signed:
        s = _sext(c0, w) + _sext(c1, w)
        if s < -(1 << (w - 1)) or s >= (1 << (w - 1)):
            return None
    else:
        s = c0 + c1
        if s >= (1 << w):
            return None
    v = ic.builder.create_binary_intrinsic(iid[5:], x, _int_const(a1.type, s))
    return ic.replace_inst_uses_with(ii, v)


def _sext(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) else v


def _nw_add_like(v: Value, signed: bool) -> tuple[Value | None, int | None]:
    """``m_NSWAddLike`` / ``m_NUWAddLike`` with a constant right operand."""
    opc = getattr(v, "opcode", None)
    if opc == "add":
        flag = _raw_nsw(v) if signed else _raw_nuw(v)
        if flag:
            c = _apint(v.operands[1])  # type: ignore[attr-defined]
            if c is not None:
                return v.operands[0], c  # type: ignore[attr-defined]
    if opc == "or" and _is_disjoint(v):
        c = _apint(v.operands[1])  # type: ignore[attr-defined]
        if c is not None:
            return v.operands[0], c  # type: ignore[attr-defined]
    return None, None


def _sub_mul_with_overflow(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    return _with_overflow_common(ic, ii, iid)


def _ssub_with_overflow(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """ssubo X, C -> saddo X, -C when C is not INT_MIN."""
    r = _with_overflow_common(ic, ii, iid)
    if r is not None:
        return r
    c = ii.get_arg(1)
    if isinstance(c, Constant) and _is_not_min_signed(c):
        neg = ConstantExpr.get_neg(c)
        v = ic.builder.create_binary_intrinsic("sadd.with.overflow", ii.get_arg(0), neg)
        return ic.replace_inst_uses_with(ii, v)
    return None


def _is_not_min_signed(c: Constant) -> bool:
    """``Constant::isNotMinSignedValue``."""
    if isinstance(c, ConstantInt):
        return c.value != 1 << (c.type.width - 1)
    if isinstance(c.type, VectorType) and not c.type.scalable:
        for k in range(c.type.count):
            e = c.get_aggregate_element(k)
            if not isinstance(e, ConstantInt) or e.value == 1 << (e.type.width - 1):
                return False
        return True
    return False


_SAT_OP = {"llvm.uadd.sat": ("add", False), "llvm.sadd.sat": ("add", True),
           "llvm.usub.sat": ("sub", False), "llvm.ssub.sat": ("sub", True)}


def _saturating(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """Saturating arithmetic: by the known overflow; usub.sat of a nuw sub of constants;
    ssub.sat X, C -> sadd.sat X, -C; two nested saturations with constants merge."""
    from llvmpy_mid.analysis.constant_range import OverflowResult

    op, signed = _SAT_OP[iid]
    ty = ii.type
    a0 = ii.get_arg(0)
    a1 = ii.get_arg(1)
    if op == "add":
        orr = ic.compute_overflow_for_signed_add(a0, a1, ii) if signed else ic.compute_overflow_for_unsigned_add(a0, a1, ii)
    else:
        orr = ic.compute_overflow_for_signed_sub(a0, a1, ii) if signed else ic.compute_overflow_for_unsigned_sub(a0, a1, ii)
    w = _scalar_width(ty)
    if orr == OverflowResult.NEVER_OVERFLOWS:
        return BinaryOperator.create(op, a0, a1, nsw=signed, nuw=not signed)
    if orr == OverflowResult.ALWAYS_OVERFLOWS_LOW:
        return ic.replace_inst_uses_with(ii, _int_const(ty, (1 << (w - 1)) if signed else 0))
    if orr == OverflowResult.ALWAYS_OVERFLOWS_HIGH:
        return ic.replace_inst_uses_with(ii, _int_const(ty, ((1 << (w - 1)) - 1) if signed else (1 << w) - 1))
    b = ic.builder
    if iid == "llvm.usub.sat" and getattr(a0, "opcode", None) == "sub" and _raw_nuw(a0):
        c = a0.operands[0]  # type: ignore[attr-defined]
        if _is_imm_constant(c) and _is_imm_constant(a1):
            nc = b.create_binary_intrinsic("usub.sat", c, a1)
            ns = b.create_binary_intrinsic("usub.sat", nc, a0.operands[1])  # type: ignore[attr-defined]
            return ic.replace_inst_uses_with(ii, ns)
    if iid == "llvm.ssub.sat" and isinstance(a1, Constant) and _is_not_min_signed(a1):
        neg = ConstantExpr.get_neg(a1)
        return ic.replace_inst_uses_with(ii, b.create_binary_intrinsic("sadd.sat", a0, neg))
    other = a0 if isinstance(a0, CallInst) and a0.intrinsic_base == iid else None
    if other is not None:
        val = _apint(a1)
        val2 = _apint(other.get_arg(1))
        if val is not None and val2 is not None:
            mask = (1 << w) - 1
            if not signed:
                nv = min(val + val2, mask)
            else:
                sv, sv2 = _sext(val, w), _sext(val2, w)
                if (sv >= 0) != (sv2 >= 0):
                    return None
                s = sv + sv2
                if s < -(1 << (w - 1)) or s >= (1 << (w - 1)):
                    return None
                nv = s & mask
            v = b.create_binary_intrinsic(iid[5:], other.get_arg(0), _int_const(ty, nv))
            return ic.replace_inst_uses_with(ii, v)
    return None


_FP_MINMAX_INV = {"llvm.maxnum": "minnum", "llvm.minnum": "maxnum", "llvm.maximum": "minimum", "llvm.minimum": "maximum"}


def _fp_min_max(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """min(-X, -Y) -> -max(X, Y); m(fpext X, fpext Y) -> fpext m(X, Y); max(X, -X) -> fabs X."""
    a0 = ii.get_arg(0)
    a1 = ii.get_arg(1)
    b = ic.builder
    x = _is_fneg_of(a0)
    y = _is_fneg_of(a1)
    if x is not None and y is not None and (a0.has_one_use or a1.has_one_use):
        nc = b.create_binary_intrinsic(_FP_MINMAX_INV[iid], x, y, fmf_source=ii)
        return UnaryOperator.create("fneg", nc, fast_math_flags=ii.fast_math_flags)
    m = a0 if isinstance(a0, CallInst) and a0.intrinsic_base == iid else None
    if m is not None and _fp_splat(a1) is not None:
        inner = None
        if _fp_splat(m.get_arg(1)) is not None:
            x2, c2 = m.get_arg(0), m.get_arg(1)
            inner = (x2, c2)
        elif _fp_splat(m.get_arg(0)) is not None:
            inner = (m.get_arg(1), m.get_arg(0))
        if inner is not None:
            from llvmpy_mid.analysis.constant_folding_calls import fold_intrinsic_call2

            c1 = _fp_splat(a1)
            c2s = _fp_splat(inner[1])
            assert c1 is not None and c2s is not None
            res = fold_intrinsic_call2(iid[5:], c1.type, [c1, c2s])
            if isinstance(res, ConstantFP):
                rc = res if not isinstance(a0.type, VectorType) else _fp_splat_const(a0.type, res)
                v = b.create_binary_intrinsic(iid[5:], inner[0], rc, fmf_source=ii)
                if isinstance(v, CallInst):
                    v.fast_math_flags = int(v.fast_math_flags) & int(m.fast_math_flags)
                return ic.replace_inst_uses_with(ii, v)
    if getattr(a0, "opcode", None) == "fpext" and a0.has_one_use and getattr(a1, "opcode", None) == "fpext" and a1.has_one_use:
        x0 = a0.operands[0]  # type: ignore[attr-defined]
        y0 = a1.operands[0]  # type: ignore[attr-defined]
        if x0.type is y0.type:
            nc = b.create_binary_intrinsic(iid[5:], x0, y0, ii.name, fmf_source=ii)
            return CastInst.create("fpext", nc, ii.type)
    is_min = iid in ("llvm.minimum", "llvm.minnum")
    for p, q in ((a0, a1), (a1, a0)):
        xx = _is_fneg_of(p)
        if xx is not None and q is xx and (p.has_one_use or not is_min):
            r: Value = b.create_unary_intrinsic("fabs", xx, fmf_source=ii)
            if is_min:
                r = b.create_fneg(r, fast_math_flags=ii.fast_math_flags)
            return ic.replace_inst_uses_with(ii, r)
    return None


def _fmuladd(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """fmuladd(x, y, z) -> fadd (x * y simplified), z; then the fma folds."""
    from llvmpy_mid.analysis.instruction_simplify import simplify_fmul_inst

    v = simplify_fmul_inst(ii.get_arg(0), ii.get_arg(1), int(ii.fast_math_flags), ic.query(ii))
    if v is not None:
        return BinaryOperator.create("fadd", v, ii.get_arg(2), fast_math_flags=ii.fast_math_flags)
    return _fma(ic, ii, iid)


def _fma(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """fma(-x, -y, z) -> fma(x, y, z); fma(fabs x, fabs x, z) -> fma(x, x, z)."""
    s0 = ii.get_arg(0)
    s1 = ii.get_arg(1)
    x = _is_fneg_of(s0)
    y = _is_fneg_of(s1)
    if x is not None and y is not None:
        ic.replace_operand(ii, 0, x)
        ic.replace_operand(ii, 1, y)
        return ii
    f0 = _intrinsic_of(s0, "fabs")
    f1 = _intrinsic_of(s1, "fabs")
    if f0 is not None and f1 is not None and f0.get_arg(0) is f1.get_arg(0):
        xx = f0.get_arg(0)
        ic.replace_operand(ii, 0, xx)
        ic.replace_operand(ii, 1, xx)
        return ii
    from llvmpy_mid.analysis.instruction_simplify import simplify_fma_fmul

    fmf = ii.fast_math_flags
    v = simplify_fma_fmul(ii.get_arg(0), ii.get_arg(1), int(fmf), ic.query(ii))
    if v is not None:
        return BinaryOperator.create("fadd", v, ii.get_arg(2), fast_math_flags=fmf)
    z = _fp_splat(ii.get_arg(2))
    if z is not None and z.is_zero_value and (z.is_negative_zero or int(fmf) & 8):
        return BinaryOperator.create("fmul", s0, s1, fast_math_flags=fmf)
    return None


def _copysign(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """copysign Mag, (copysign ?, X) -> copysign Mag, X; copysign -C, X -> copysign C, X;
    copysign (fabs|fneg X), S -> copysign X, S."""
    mag = ii.get_arg(0)
    sign = ii.get_arg(1)
    known = _known_fp_sign_bit(sign)
    b = ic.builder
    if known is not None:
        fabs = b.create_unary_intrinsic("fabs", mag, fmf_source=ii)
        if known:
            return ic.replace_inst_uses_with(ii, b.create_fneg(fabs, fast_math_flags=ii.fast_math_flags))
        return ic.replace_inst_uses_with(ii, fabs)
    inner = _intrinsic_of(sign, "copysign")
    if inner is not None:
        return ic.replace_operand(ii, 1, inner.get_arg(1))
    if isinstance(mag, ConstantFP) and _fp_sign(mag):
        return ic.replace_operand(ii, 0, ConstantFP.from_bits(mag.type, mag.bits & ~_fp_sign_mask(mag)))
    fa = _intrinsic_of(mag, "fabs")
    if fa is not None:
        return ic.replace_operand(ii, 0, fa.get_arg(0))
    x = _is_fneg_of(mag)
    if x is not None:
        return ic.replace_operand(ii, 0, x)
    return None


def _known_fp_sign_bit(v: Value, depth: int = 0) -> bool | None:
    """``computeKnownFPSignBit`` for the cases decided without the FP class analysis: a
    constant (not NaN), ``fabs``, ``fneg`` of a known sign, ``uitofp``, ``copysign`` of a
    known sign. True: negative; False: positive."""
    if isinstance(v, Constant):
        c = v if isinstance(v, ConstantFP) else (get_splat_value(v) if isinstance(v.type, VectorType) else None)
        if isinstance(c, ConstantFP) and not c.is_nan:
            return _fp_sign(c)
        return None
    if depth > 6:
        return None
    if _intrinsic_of(v, "fabs") is not None:
        return False
    opc = getattr(v, "opcode", None)
    if opc == "uitofp":
        return False
    x = _is_fneg_of(v)
    if x is not None:
        k = _known_fp_sign_bit(x, depth + 1)
        return None if k is None else not k
    cs = _intrinsic_of(v, "copysign")
    if cs is not None:
        return _known_fp_sign_bit(cs.get_arg(1), depth + 1)
    return None


def _fabs(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """fabs(-X) -> fabs(X); fabs(select C, -F, F) -> fabs F; fabs(copysign x, y) -> fabs x."""
    arg = ii.get_arg(0)
    b = ic.builder
    x = _is_fneg_of(arg)
    if x is not None:
        return ic.replace_inst_uses_with(ii, b.create_unary_intrinsic("fabs", x, fmf_source=ii))
    if isinstance(arg, SelectInst):
        t, f = arg.true_value, arg.false_value
        if isinstance(t, Constant) or isinstance(f, Constant):
            fn = ii.called_function
            assert fn is not None
            abs_t = b.call(fn, [t], fast_math_flags=0)
            abs_f = b.call(fn, [f], fast_math_flags=0)
            fmf2 = int(arg.fast_math_flags) & ~8
            return SelectInst(arg.condition, abs_t, abs_f, fast_math_flags=int(ii.fast_math_flags) | fmf2)
        if _is_fneg_of(t) is f:
            return ic.replace_operand(ii, 0, f)
        if _is_fneg_of(f) is t:
            return ic.replace_operand(ii, 0, t)
    cs = _intrinsic_of(arg, "copysign")
    if cs is not None:
        fn = ii.called_function
        assert fn is not None
        nc = b.call(fn, [cs.get_arg(0)], fast_math_flags=ii.fast_math_flags)
        return ic.replace_inst_uses_with(ii, nc)
    return _round_fpext(ic, ii, iid)


def _round_fpext(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """intrinsic (fpext x) -> fpext (intrinsic x) for fabs and the rounding intrinsics."""
    arg = ii.get_arg(0)
    if getattr(arg, "opcode", None) == "fpext" and arg.has_one_use:
        n = ic.builder.create_unary_intrinsic(iid[5:], arg.operands[0], fmf_source=ii)  # type: ignore[attr-defined]
        return CastInst.create("fpext", n, ii.type)
    return None


def _cos(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """cos(-x), cos(fabs x), cos(copysign(x, y)) -> cos(x)."""
    src = ii.get_arg(0)
    x = _is_fneg_of(src)
    if x is None:
        fa = _intrinsic_of(src, "fabs")
        if fa is not None:
            x = fa.get_arg(0)
    if x is None:
        cs = _intrinsic_of(src, "copysign")
        if cs is not None:
            x = cs.get_arg(0)
    if x is not None:
        return ic.replace_operand(ii, 0, x)
    return None


def _sin(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """sin(-x) -> -sin(x)."""
    src = ii.get_arg(0)
    x = _is_fneg_of(src)
    if x is not None and src.has_one_use:
        ns = ic.builder.create_unary_intrinsic("sin", x, fmf_source=ii)
        return UnaryOperator.create("fneg", ns, fast_math_flags=ii.fast_math_flags)
    return None


def _lifetime_end(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """lifetime.start(p) directly followed by lifetime.end(p) -> nothing."""
    fn = ii.function
    if fn is not None and any(fn.has_fn_attribute(a) for a in ("sanitize_address", "sanitize_memory", "sanitize_hwaddress")):
        return None
    _remove_trivially_empty_range(ic, ii, ("llvm.lifetime.start",))
    return None


def _remove_trivially_empty_range(ic: InstCombiner, end: CallInst, starts: tuple[str, ...]) -> bool:
    """``removeTriviallyEmptyRange``: scan back over intrinsics for a start of the same operands."""
    end_id = end.intrinsic_base
    cur = end.prev_instruction
    n = end.num_args
    while cur is not None:
        if isinstance(cur, CallInst) and cur.is_intrinsic_call:
            cid = cur.intrinsic_base
            if cid.startswith("llvm.dbg.") or cid == "llvm.pseudoprobe" or cid == end_id:
                cur = cur.prev_instruction
                continue
            if cid in starts:
                if cur.num_args >= n and all(cur.get_arg(k) is end.get_arg(k) for k in range(n)):
                    ic.erase_inst_from_function(cur)
                    ic.erase_inst_from_function(end)
                    return True
                cur = cur.prev_instruction
                continue
        break
    return False


def _assume(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """assume: drop a duplicate next; split and / not-or; nonnull load metadata; drop when known
    true; assume(false) -> unreachable."""
    cond = ii.get_arg(0)
    b = ic.builder
    nxt = ii.next_instruction
    while nxt is not None and isinstance(nxt, CallInst) and nxt.intrinsic_base.startswith("llvm.dbg."):
        nxt = nxt.next_instruction

    def remove_condition() -> Instruction | None:
        if is_assume_with_empty_bundle(ii):
            ic.erase_inst_from_function(ii)
            return None
        old = ii.get_arg(0)
        ii.set_arg(0, _true(ic))
        ic.worklist.handle_use_count_decrement(old)
        return None

    if isinstance(nxt, CallInst) and nxt.intrinsic_base == "llvm.assume" and nxt.get_arg(0) is cond:
        return remove_condition()
    callee = ii.callee
    fty = ii.function_type
    bundles = ii.operand_bundles
    logical = _logical_and_operands(cond)
    if logical is not None:
        a, bb = logical
        b.call(callee, [a], ii.name, function_type=fty, bundles=bundles)
        b.call(callee, [bb], ii.name, function_type=fty)
        ic.erase_inst_from_function(ii)
        return None
    if getattr(cond, "opcode", None) == "xor" and _apint(cond.operands[1]) == 1 and _scalar_width(cond.type) == 1:  # type: ignore[attr-defined]
        inner = cond.operands[0]  # type: ignore[attr-defined]
        lo = _logical_or_operands(inner)
        if lo is not None:
            a, bb = lo
            b.call(callee, [b.create_not(a)], ii.name, function_type=fty, bundles=bundles)
            b.call(callee, [b.create_not(bb)], ii.name, function_type=fty)
            ic.erase_inst_from_function(ii)
            return None
    from llvmpy_mid.ir.instructions.cmp import ICmpInst
    from llvmpy_mid.ir.instructions.memory import LoadInst

    if isinstance(cond, ICmpInst) and cond.predicate.keyword == "ne" and _is_null(cond.operands[1]):
        lhs = cond.operands[0]
        if isinstance(lhs, LoadInst) and lhs.type.is_pointer:
            from llvmpy_mid.analysis.value_tracking_support import is_valid_assume_for_context

            if is_valid_assume_for_context(ii, lhs, ic.dt):
                from llvmpy_mid.ir.metadata import MDNode

                md = MDNode.get(ic.fn.context, [])
                lhs.set_metadata("nonnull", md)
                lhs.set_metadata("noundef", md)
                return remove_condition()
    from llvmpy_mid.transform.instcombine import assume_knowledge as ak

    ak.simplify_separate_storage_hints(ic, ii)
    if ak.knowledge_retention_enabled():
        if ak.knowledge_from_condition(ic, ii, nxt):
            return remove_condition()
        if ii.has_operand_bundles and ak.canonicalize_knowledge_bundles(ic, ii) is not None:
            return ii
    kb = ic.compute_known_bits(cond, 0, ii)
    if kb.is_all_ones() and is_assume_with_empty_bundle(ii):
        ic.erase_inst_from_function(ii)
        return None
    if _apint(cond) == 0 or isinstance(cond, UndefValue):
        from llvmpy_mid.transform.instcombine.calls import create_non_terminator_unreachable

        create_non_terminator_unreachable(ic, ii)
        ic.erase_inst_from_function(ii)
        return None
    if ic.ac is not None:
        upd = getattr(ic.ac, "update_affected_values", None)
        if upd is not None:
            upd(ii)
    return None


def _is_null(v: Value) -> bool:
    from llvmpy_mid.ir.constants import ConstantPointerNull

    return isinstance(v, ConstantPointerNull) or _apint(v) == 0


def _logical_and_operands(v: Value) -> tuple[Value, Value] | None:
    """``m_LogicalAnd``: ``and a, b`` or ``select a, b, false``."""
    opc = getattr(v, "opcode", None)
    if opc == "and" and _scalar_width(v.type) == 1:
        return v.operands[0], v.operands[1]  # type: ignore[attr-defined]
    if isinstance(v, SelectInst) and v.condition.type is v.type and _apint(v.false_value) == 0 and isinstance(v.false_value, Constant):
        return v.condition, v.true_value
    return None


def _logical_or_operands(v: Value) -> tuple[Value, Value] | None:
    """``m_LogicalOr``: ``or a, b`` or ``select a, true, b``."""
    opc = getattr(v, "opcode", None)
    if opc == "or" and _scalar_width(v.type) == 1:
        return v.operands[0], v.operands[1]  # type: ignore[attr-defined]
    if isinstance(v, SelectInst) and v.condition.type is v.type and _apint(v.true_value) == 1:
        return v.condition, v.false_value
    return None


def _stackrestore(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """stackrestore right after its stacksave with nothing between, or followed by another
    stackrestore, or before a return with nothing between -> removed."""
    from llvmpy_mid.ir.instructions.memory import AllocaInst

    def classify(i: Instruction) -> str:
        if isinstance(i, AllocaInst):
            return "alloca"
        if isinstance(i, CallInst):
            if i.is_intrinsic_call:
                if i.intrinsic_base == "llvm.stackrestore":
                    return "restore"
                if i.may_have_side_effects():
                    return "call"
            else:
                return "call"
        return ""

    ss = ii.get_arg(0)
    if isinstance(ss, CallInst) and ss.intrinsic_base == "llvm.stacksave" and ss.parent is ii.parent:
        cur = ss.next_instruction
        cannot = False
        while cur is not None and cur is not ii:
            k = classify(cur)
            if k == "restore":
                if cur.get_arg(0) is not ss:  # type: ignore[attr-defined]
                    cannot = True
            elif k:
                cannot = True
            if cannot:
                break
            cur = cur.next_instruction
        if not cannot:
            ic.erase_inst_from_function(ii)
            return None
    bb = ii.parent
    assert bb is not None
    term = bb.terminator
    cur = ii.next_instruction
    cannot = False
    while cur is not None and cur is not term:
        k = classify(cur)
        if k == "restore":
            ic.erase_inst_from_function(ii)
            return None
        if k:
            cannot = True
            break
        cur = cur.next_instruction
    if not cannot and term is not None and term.opcode in ("ret", "resume"):
        ic.erase_inst_from_function(ii)
        return None
    return None


def _ldexp(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """ldexp(x, zext i1 y) -> fmul x, (select y, 2.0, 1.0); with sext: 0.5."""
    src = ii.get_arg(0)
    exp = ii.get_arg(1)
    # ldexp(ldexp(x, a), b) needs signBitMustBeTheSame; not done here (LLVM tries it first).
    if _intrinsic_of(src, "ldexp") is not None:
        return None
    opc = getattr(exp, "opcode", None)
    if opc in ("zext", "sext") and _scalar_width(exp.operands[0].type) == 1:  # type: ignore[attr-defined]
        hi = 2.0 if opc == "zext" else 0.5
        sel = ic.builder.create_select(exp.operands[0], _fp_const(ii.type, hi), _fp_const(ii.type, 1.0))  # type: ignore[attr-defined]
        return BinaryOperator.create("fmul", src, sel, fast_math_flags=ii.fast_math_flags)
    return None


_FC_NAN = 3
_FC_INF = 4 | 512
_FC_ALL = 1023
_FC_PAIRS = ((4, 512), (8, 256), (16, 128), (32, 64))


def _fc_fneg(mask: int) -> int:
    """``fneg(FPClassTest)``: the classes of -x."""
    out = mask & _FC_NAN
    for neg, pos in _FC_PAIRS:
        if mask & neg:
            out |= pos
        if mask & pos:
            out |= neg
    return out


def _fc_inverse_fabs(mask: int) -> int:
    """``inverse_fabs``: the classes of x whose fabs is in ``mask``."""
    out = mask & _FC_NAN
    for neg, pos in _FC_PAIRS:
        if mask & pos:
            out |= neg | pos
    return out


def _is_fpclass(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """``foldIntrinsicIsFPClass`` (its first folds: fneg/fabs operands, infinity and NaN tests
    to fcmp; the compare-with-zero and known-class folds that follow are not done)."""
    src0 = ii.get_arg(0)
    src1 = ii.get_arg(1)
    if not isinstance(src1, ConstantInt):
        return None
    mask = src1.value & _FC_ALL
    is_unordered = mask & _FC_NAN == _FC_NAN
    is_ordered = mask & _FC_NAN == 0
    ordered = mask & ~_FC_NAN
    ordered_inv = ~ordered & ~_FC_NAN & _FC_ALL
    fn = ii.function
    strict = fn is not None and fn.has_fn_attribute("strictfp")
    x = _is_fneg_of(src0)
    if x is not None:
        ii.set_arg(1, ConstantInt.get(src1.type, _fc_fneg(mask)))
        return ic.replace_operand(ii, 0, x)
    fa = _intrinsic_of(src0, "fabs")
    if fa is not None:
        ii.set_arg(1, ConstantInt.get(src1.type, _fc_inverse_fabs(mask)))
        return ic.replace_operand(ii, 0, fa.get_arg(0))
    b = ic.builder
    from llvmpy_mid.transform.instcombine.combiner import take_name

    def finish(v: Value) -> Instruction | None:
        take_name(v, ii)
        return ic.replace_inst_uses_with(ii, v)

    ty = src0.type
    if (ordered == _FC_INF or ordered_inv == _FC_INF) and (is_ordered or is_unordered) and not strict:
        pred = "ueq" if is_unordered else "oeq"
        if ordered_inv == _FC_INF:
            pred = "une" if is_unordered else "one"
        fabs = b.create_unary_intrinsic("fabs", src0)
        return finish(b.create_fcmp(pred, fabs, _fp_inf_const(ty, False)))
    if ordered in (512, 4) and (is_ordered or is_unordered) and not strict:
        return finish(b.create_fcmp("ueq" if is_unordered else "oeq", src0, _fp_inf_const(ty, ordered == 4)))
    if ordered_inv in (512, 4) and (is_ordered or is_unordered) and not strict:
        return finish(b.create_fcmp("une" if is_unordered else "one", src0, _fp_inf_const(ty, ordered_inv == 4)))
    if mask == _FC_NAN and not strict:
        return finish(b.create_fcmp("uno", src0, Constant.get_null_value(ty)))
    if mask == _FC_ALL & ~_FC_NAN and not strict:
        return finish(b.create_fcmp("ord", src0, Constant.get_null_value(ty)))
    return None


def _fp_inf_const(ty: Type, negative: bool) -> Constant:
    """``ConstantFP::getInfinity``."""
    v = float("-inf") if negative else float("inf")
    return _fp_const(ty, v)


# --- vector reductions ---------------------------------------------------------------------------


def _simplify_reduction_operand(arg: Value, can_reorder_lanes: bool) -> Value | None:
    """``simplifyReductionOperand``: a reduction of ``vector.reverse(v)`` or of a single-source
    shuffle that only permutes the lanes of ``v`` reduces ``v``."""
    from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
    from llvmpy_mid.ir.pattern_match import m_undef

    if not can_reorder_lanes:
        return None
    rev = _intrinsic_of(arg, "vector.reverse")
    if rev is not None:
        return rev.get_arg(0)
    aty = arg.type
    if not isinstance(aty, VectorType) or aty.scalable or not isinstance(arg, ShuffleVectorInst):
        return None
    v = arg.operands[0]
    if not match(arg.operands[1], m_undef()) or arg.changes_length:
        return None
    mask = arg.mask
    n = len(mask)
    used = 0
    for idx in mask:
        if idx < 0 or idx >= n or used >> idx & 1:  # a poison lane, a repeat, or the undef source
            return None
        used |= 1 << idx
    return v if used == (1 << n) - 1 else None


def _ext_or_self(arg: Value) -> tuple[Value, str | None]:
    """``m_ZExtOrSExtOrSelf``: the source of a zext/sext instruction and its opcode, else ``arg``."""
    if isinstance(arg, CastInst) and arg.opcode in ("zext", "sext"):
        return arg.operands[0], arg.opcode
    return arg, None


def _i1_vector(v: Value, fixed_only: bool) -> VectorType | None:
    """The type of ``v`` when it is a vector of i1 (fixed-length only when asked)."""
    vty = v.type
    if not isinstance(vty, VectorType) or (fixed_only and vty.scalable):
        return None
    et = vty.element_type
    return vty if isinstance(et, IntegerType) and et.width == 1 else None


def _reduce(ic: InstCombiner, kind: str, vect: Value) -> Value:
    """``CreateAndReduce``/``CreateOrReduce``/``CreateAddReduce``: ``vector.reduce.<kind>(vect)``."""
    vty = vect.type
    assert isinstance(vty, VectorType)
    return ic.builder.create_intrinsic("vector.reduce." + kind, [vty], [vect], return_type=vty.element_type)


def _int_reduction(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    """The integer ``vector.reduce.*`` folds: a permuted operand is reduced unpermuted, and a
    reduction of a (zext/sext of a) ``<N x i1>`` becomes bit tests, ``ctpop`` or an and/or/add
    reduction of the i1 vector."""
    arg = ii.get_arg(0)
    new_op = _simplify_reduction_operand(arg, True)
    if new_op is not None:
        ic.replace_use(ii.get_operand_use(0), new_op)
        return ii
    kind = iid[len("llvm.vector.reduce."):]
    fold = _I1_REDUCTION_FOLDS.get(kind)
    if fold is None:
        return None
    vect, ext = _ext_or_self(arg)
    res = fold(ic, ii, kind, vect, ext)
    if res is None:
        return None
    return ic.replace_inst_uses_with(ii, res)


def _and_or_of_i1(ic: InstCombiner, ii: CallInst, kind: str, vect: Value, ext: str | None) -> Value | None:
    """``reduce.and/or(?ext <N x i1> v)`` -> ``?ext(bitcast v to iN ==/!= all-ones/0)``."""
    vty = _i1_vector(vect, True)
    if vty is None:
        return None
    b = ic.builder
    res = b.create_cast("bitcast", vect, ic.fn.context.int_type(vty.count))
    if kind == "and":
        res = b.create_icmp("eq", res, Constant.get_all_ones_value(res.type))
    else:
        res = b.create_is_not_null(res)
    if ext is not None:
        res = b.create_cast(ext, res, ii.type)
    return res


def _add_of_i1(ic: InstCombiner, ii: CallInst, kind: str, vect: Value, ext: str | None) -> Value | None:
    """``reduce.add(?ext <N x i1> v)`` -> ``zext/trunc(ctpop(bitcast v to iN))``, negated for sext."""
    vty = _i1_vector(vect, True)
    if vty is None:
        return None
    b = ic.builder
    v = b.create_cast("bitcast", vect, ic.fn.context.int_type(vty.count))
    res = b.create_unary_intrinsic("ctpop", v)
    if res.type is not ii.type:
        res = b.create_zext_or_trunc(res, ii.type)
    if ext == "sext":
        res = b.create_neg(res)
    return res


def _xor_of_i1(ic: InstCombiner, ii: CallInst, kind: str, vect: Value, ext: str | None) -> Value | None:
    """``reduce.xor(?ext <N x i1> v)`` -> ``?ext(reduce.add(v))``."""
    if _i1_vector(vect, False) is None:
        return None
    res = _reduce(ic, "add", vect)
    if ext is not None:
        res = ic.builder.create_cast(ext, res, ii.type)
    return res


def _mul_of_i1(ic: InstCombiner, ii: CallInst, kind: str, vect: Value, ext: str | None) -> Value | None:
    """``reduce.mul(?ext <N x i1> v)`` -> ``zext(reduce.and(v))``."""
    if _i1_vector(vect, False) is None:
        return None
    res = _reduce(ic, "and", vect)
    if res.type is not ii.type:
        res = ic.builder.create_zext(res, ii.type)
    return res


def _umin_umax_of_i1(ic: InstCombiner, ii: CallInst, kind: str, vect: Value, ext: str | None) -> Value | None:
    """``reduce.umin/umax(?ext <N x i1> v)`` -> ``?ext(reduce.and/or(v))``."""
    if _i1_vector(vect, False) is None:
        return None
    res = _reduce(ic, "and" if kind == "umin" else "or", vect)
    if ext is not None:
        res = ic.builder.create_cast(ext, res, ii.type)
    return res


def _smin_smax_of_i1(ic: InstCombiner, ii: CallInst, kind: str, vect: Value, ext: str | None) -> Value | None:
    """``reduce.smin/smax(<N x i1> v)`` and its sext -> ``?ext(reduce.or/and(v))``; of a zext -> ``zext(reduce.and/or(v))``."""
    if _i1_vector(vect, False) is None:
        return None
    res = _reduce(ic, "and" if (kind == "smin") == (ext == "zext") else "or", vect)
    if ext is not None:
        res = ic.builder.create_cast(ext, res, ii.type)
    return res


_I1_REDUCTION_FOLDS: dict[str, Callable[[InstCombiner, CallInst, str, Value, "str | None"], "Value | None"]] = {
    "or": _and_or_of_i1,
    "and": _and_or_of_i1,
    "add": _add_of_i1,
    "xor": _xor_of_i1,
    "mul": _mul_of_i1,
    "umin": _umin_umax_of_i1,
    "umax": _umin_umax_of_i1,
    "smin": _smin_smax_of_i1,
    "smax": _smin_smax_of_i1,
}

_FP_REDUCTIONS = frozenset(
    ("llvm.vector.reduce.fmax", "llvm.vector.reduce.fmin", "llvm.vector.reduce.fadd", "llvm.vector.reduce.fmul")
)


def _fp_reduction(ic: InstCombiner, ii: CallInst, iid: str) -> bool:
    """``reduce.fmax/fmin`` (and ``reduce.fadd/fmul`` with ``reassoc``) of a permuted operand reduce
    it unpermuted; True when the operand was replaced."""
    from llvmpy_mid.ir.instructions.flags import FastMathFlags

    ordered = iid in ("llvm.vector.reduce.fadd", "llvm.vector.reduce.fmul")
    can_reorder = not ordered or bool(int(ii.fast_math_flags) & int(FastMathFlags.REASSOC))
    idx = 1 if ordered else 0
    new_op = _simplify_reduction_operand(ii.get_arg(idx), can_reorder)
    if new_op is None:
        return False
    ic.replace_use(ii.get_operand_use(idx), new_op)
    return True


def _min_max_all(ic: InstCombiner, ii: CallInst, iid: str) -> Instruction | None:
    return _min_max(ic, ii, iid)


_HANDLERS: dict[str, Callable[[InstCombiner, CallInst, str], "Instruction | None"]] = {
    "llvm.objectsize": _objectsize,
    "llvm.abs": _abs,
    "llvm.umin": _min_max_all,
    "llvm.umax": _min_max_all,
    "llvm.smin": _min_max_all,
    "llvm.smax": _min_max_all,
    "llvm.bitreverse": _bitreverse,
    "llvm.bswap": _bswap,
    "llvm.powi": _powi,
    "llvm.cttz": _cttz_ctlz,
    "llvm.ctlz": _cttz_ctlz,
    "llvm.ctpop": _ctpop,
    "llvm.fshl": _funnel_shift,
    "llvm.fshr": _funnel_shift,
    "llvm.ptrmask": _ptrmask,
    "llvm.uadd.with.overflow": _add_with_overflow,
    "llvm.sadd.with.overflow": _add_with_overflow,
    "llvm.umul.with.overflow": _sub_mul_with_overflow,
    "llvm.smul.with.overflow": _sub_mul_with_overflow,
    "llvm.usub.with.overflow": _sub_mul_with_overflow,
    "llvm.ssub.with.overflow": _ssub_with_overflow,
    "llvm.uadd.sat": _saturating,
    "llvm.sadd.sat": _saturating,
    "llvm.usub.sat": _saturating,
    "llvm.ssub.sat": _saturating,
    "llvm.minnum": _fp_min_max,
    "llvm.maxnum": _fp_min_max,
    "llvm.minimum": _fp_min_max,
    "llvm.maximum": _fp_min_max,
    "llvm.fma": _fma,
    "llvm.fmuladd": _fmuladd,
    "llvm.copysign": _copysign,
    "llvm.fabs": _fabs,
    "llvm.ceil": _round_fpext,
    "llvm.floor": _round_fpext,
    "llvm.round": _round_fpext,
    "llvm.roundeven": _round_fpext,
    "llvm.nearbyint": _round_fpext,
    "llvm.rint": _round_fpext,
    "llvm.trunc": _round_fpext,
    "llvm.cos": _cos,
    "llvm.sin": _sin,
    "llvm.ldexp": _ldexp,
    "llvm.stackrestore": _stackrestore,
    "llvm.lifetime.end": _lifetime_end,
    "llvm.assume": _assume,
    "llvm.is.fpclass": _is_fpclass,
    "llvm.vector.reduce.or": _int_reduction,
    "llvm.vector.reduce.and": _int_reduction,
    "llvm.vector.reduce.add": _int_reduction,
    "llvm.vector.reduce.xor": _int_reduction,
    "llvm.vector.reduce.mul": _int_reduction,
    "llvm.vector.reduce.umin": _int_reduction,
    "llvm.vector.reduce.umax": _int_reduction,
    "llvm.vector.reduce.smin": _int_reduction,
    "llvm.vector.reduce.smax": _int_reduction,
}


__all__ = ["visit_intrinsic"]
