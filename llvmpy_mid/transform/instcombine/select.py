"""InstCombine folds of ``select`` (LLVM ``lib/Transforms/InstCombine/InstCombineSelect.cpp``).

:func:`visit_select` follows ``InstCombinerImpl::visitSelectInst`` step by step: InstructionSimplify;
a constant vector condition made a shuffle; a scalar condition extracted from a vector splatted;
arms simplified under the condition; the boolean folds (:mod:`.select_bools`); selects of 0/1/-1
made zext/sext; unordered fcmp conditions made ordered; minnum/maxnum and fabs idioms; the folds
on an integer compare (:mod:`.select_icmp`: min/max/abs/clamp canonical forms, bit tests,
saturating arithmetic, cttz/ctlz); add/sub, set/clear-bits and zero-or-mul selects; a common
operation of both arms hoisted (``foldSelectOpOp``); extends of constants narrowed; Euclidean
remainders; GEPs of one base; the select moved into an operand (``foldSelectIntoOp``); selects on a
phi folded into the phi; nested selects; binops between selects on one condition; a ``not``
condition absorbed (swapping ``!prof`` weights); conditions known from assumptions; identity
binops; frozen compares; selects that are phis; round-up to a power of two; symmetric and nested
selects; and/or conditions split; ``select c, !x, x`` made ``xor``.

What it does not do (yet): ``foldVectorSelect`` (demanded elements), ``foldSelectCmpBitcasts``,
funnel shifts and copysign, ``foldBitCeil``, masked loads/gathers, the
fmul-by-zero and ldexp folds, the known-bits-under-condition fold (``CondContext``), and the
cast-looking-through min/max canonicalisation (``matchSelectPattern``'s ``CastOp``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from llvmpy_mid.analysis.implied_condition import is_implied_condition
from llvmpy_mid.analysis.instruction_simplify import simplify_select_inst
from llvmpy_mid.analysis.instsimplify.other import simplify_with_op_replaced
from llvmpy_mid.analysis.poison_tracking import implies_poison, is_guaranteed_not_to_be_poison
from llvmpy_mid.ir.constant_fold import get_bin_op_identity
from llvmpy_mid.ir.constants import UndefValue, Constant, ConstantFP, ConstantInt, PoisonValue
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.other import FreezeInst, PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.instructions.vector import ExtractElementInst, ShuffleVectorInst
from llvmpy_mid.ir.pattern_match import (
    m_add,
    m_all_ones,
    m_and,
    m_c_binop,
    m_fneg,
    m_max_or_min,
    m_not,
    m_one,
    m_smax,
    m_smin,
    m_specific,
    m_umax,
    m_umin,
    m_value,
    m_zero,
    match,
)
from llvmpy_mid.ir.types import IntegerType, VectorType
from llvmpy_mid.transform.instcombine.select_bools import fold_select_of_bools
from llvmpy_mid.transform.instcombine.select_icmp import canonicalize_spf, fold_select_inst_with_icmp
from llvmpy_mid.transform.instcombine.select_util import (
    apint,
    apint_allow_poison,
    int_const,
    is_known_inversion,
    is_sign_bit_check,
    scalar_width,
    swap_prof_metadata,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P = Predicate
_P_ONE = m_one()
_P_ZERO = m_zero()
_P_ALL_ONES = m_all_ones()
_P_NOT_X = m_not(m_value("x"))
_P_MINMAX = (m_smin(m_value(), m_value()), m_smax(m_value(), m_value()), m_umin(m_value(), m_value()), m_umax(m_value(), m_value()))
_P_ANY_MINMAX = m_max_or_min(m_value(), m_value())
_P_FNEG_X = m_fneg(m_value("x"))


def _is_int(v: Value) -> bool:
    return isinstance(v.type.scalar_type, IntegerType)


def _is_fp(v: Value) -> bool:
    return v.type.scalar_type.is_floating_point


def _is_bool(v: Value) -> bool:
    st = v.type.scalar_type
    return isinstance(st, IntegerType) and st.width == 1


def _common() -> Any:
    try:
        from llvmpy_mid.transform.instcombine import common
    except ImportError:  # pragma: no cover - another part of the work
        return None
    return common


def _fmf(i: Instruction) -> int:
    return int(getattr(i, "fast_math_flags", 0))


def create_select(ic: InstCombiner, c: Value, t: Value, f: Value, name: str = "", md_from: Instruction | None = None) -> Value:
    """``Builder.CreateSelect(C, T, F, Name, MDFrom)``: ``!prof``/``!unpredictable`` copied from ``md_from``."""
    v = ic.builder.create_select(c, t, f, name)
    if md_from is not None and isinstance(v, SelectInst) and v is not md_from:
        for kind in ("prof", "unpredictable"):
            md = md_from.get_metadata(kind)
            if md is not None:
                v.set_metadata(kind, md)
    return v


# --- canonical forms -------------------------------------------------------------------------------


def canonicalize_select_to_shuffle(si: SelectInst) -> Instruction | None:
    """select <C...>, T, F (constant lanes) -> shufflevector T, F, mask"""
    cond = si.condition
    cty = cond.type
    if not isinstance(cty, VectorType) or cty.scalable or not isinstance(cond, Constant):
        return None
    n = cty.count
    mask: list[int] = []
    for k in range(n):
        e = cond.get_aggregate_element(k)
        if not isinstance(e, ConstantInt):
            return None
        mask.append(k if e.value else k + n)
    return ShuffleVectorInst(si.true_value, si.false_value, mask)


def canonicalize_scalar_select_of_vecs(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """select (extractelement V, C), T, F (vectors) -> select (splat of the extract), T, F"""
    ty = si.type
    if not isinstance(ty, VectorType):
        return None
    cond = si.condition
    if not isinstance(cond, ExtractElementInst) or not cond.has_one_use or not isinstance(cond.operands[1], ConstantInt):
        return None
    b = ic.builder
    vty = ty.context.vector_type(cond.type, ty.count, ty.scalable)
    ins = b.create_insert_element(PoisonValue.get(vty), cond, ConstantInt.get(ty.context.i64, 0), ".splatinsert")
    splat = b.create_shuffle_vector(ins, PoisonValue.get(vty), [0] * ty.count, ".splat")
    return ic.replace_operand(si, 0, splat)


# --- fcmp selects --------------------------------------------------------------------------------


def fold_select_with_fcmp_to_fabs(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """(X <= 0.0) ? (0.0 - X) : X -> fabs(X); with nnan nsz (X < 0.0) ? -X : X -> fabs(X) and
    (X > 0.0) ? -X : X -> -fabs(X); likewise sign-bit tests of the bitcast"""
    cond = si.condition
    changed_fmf = False
    b = ic.builder
    for swap in (False, True):
        tv, x = si.true_value, si.false_value
        if swap:
            tv, x = x, tv
        if not isinstance(cond, FCmpInst) or cond.get_operand(0) is not x:
            continue
        z = cond.get_operand(1)
        if not (isinstance(z, Constant) and _is_any_zero_fp(z)):
            continue
        pred = cond.predicate
        if getattr(tv, "opcode", None) == "fsub" and tv.operands[1] is x and _is_pos_zero_fp(tv.operands[0]):  # type: ignore[attr-defined]
            if not swap and pred in (P.FCMP_OLE, P.FCMP_ULE):
                return ic.replace_inst_uses_with(si, b.create_unary_intrinsic("fabs", x, fmf_source=si))
            if swap and pred in (P.FCMP_OGT, P.FCMP_UGT):
                return ic.replace_inst_uses_with(si, b.create_unary_intrinsic("fabs", x, fmf_source=si))
        m = match(tv, _P_FNEG_X)
        if m is None or m.value("x") is not x:
            return None
        fmf = _fmf(cast(Instruction, tv))
        sf = _fmf(si)
        if fmf & FastMathFlags.NNAN and not sf & FastMathFlags.NNAN:
            si.fast_math_flags = sf | FastMathFlags.NNAN
            changed_fmf = True
        sf = _fmf(si)
        if fmf & FastMathFlags.NINF and not sf & FastMathFlags.NINF:
            si.fast_math_flags = sf | FastMathFlags.NINF
            changed_fmf = True
        sf = _fmf(si)
        if not (sf & FastMathFlags.NSZ) or not (sf & FastMathFlags.NNAN):
            return None
        if swap:
            pred = pred.swapped
        if pred in (P.FCMP_OLT, P.FCMP_OLE, P.FCMP_ULT, P.FCMP_ULE):
            return ic.replace_inst_uses_with(si, b.create_unary_intrinsic("fabs", x, fmf_source=si))
        if pred in (P.FCMP_OGT, P.FCMP_OGE, P.FCMP_UGT, P.FCMP_UGE):
            fabs = b.create_unary_intrinsic("fabs", x, fmf_source=si)
            return UnaryOperator(fabs, fast_math_flags=_fmf(si))
    for swap in (False, True):
        tv, x = si.true_value, si.false_value
        if swap:
            tv, x = x, tv
        if not isinstance(cond, ICmpInst):
            continue
        lhs = cond.get_operand(0)
        if not (isinstance(lhs, CastInst) and lhs.opcode == "bitcast" and lhs.operands[0] is x and _elementwise_bitcast(lhs)):
            continue
        c = apint(cond.get_operand(1))
        if c is None:
            continue
        tis = is_sign_bit_check(cond.predicate, c, scalar_width(lhs.type))
        if tis is None:
            continue
        m = match(tv, _P_FNEG_X)
        if m is None or m.value("x") is not x:
            return None
        if swap == tis and not cond.has_one_use and not tv.has_one_use:
            return None
        fabs = b.create_unary_intrinsic("fabs", x, fmf_source=si)
        if swap != tis:
            return ic.replace_inst_uses_with(si, fabs)
        return UnaryOperator(fabs, fast_math_flags=_fmf(si))
    return si if changed_fmf else None


def _elementwise_bitcast(c: CastInst) -> bool:
    st, dt = c.operands[0].type, c.type
    if isinstance(st, VectorType) != isinstance(dt, VectorType):
        return False
    if isinstance(st, VectorType) and isinstance(dt, VectorType) and st.count != dt.count:
        return False
    return True


def _is_any_zero_fp(c: Constant) -> bool:
    return c.is_null_value or _fp_lanes(c, lambda v: v.is_zero_value)


def _is_pos_zero_fp(v: Value) -> bool:
    return isinstance(v, Constant) and v.is_null_value


def _fp_lanes(c: Constant, f: Any) -> bool:
    if isinstance(c, ConstantFP):
        return bool(f(c))
    ty = c.type
    if isinstance(ty, VectorType):
        for k in range(ty.count):
            e = c.get_aggregate_element(k)
            if not isinstance(e, ConstantFP) or not f(e):
                return False
        return True
    return False


# --- arms of one kind ----------------------------------------------------------------------------


def fold_add_sub_select(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """select C, (X + Y), (X - Z) -> X + (select C, Y, -Z) (also fadd/fsub)"""
    tv, fv = si.true_value, si.false_value
    if not isinstance(tv, Instruction) or not isinstance(fv, Instruction) or not tv.has_one_use or not fv.has_one_use:
        return None
    to, fo = tv.opcode, fv.opcode
    if (to, fo) in (("sub", "add"), ("fsub", "fadd")):
        add_op, sub_op = fv, tv
    elif (fo, to) in (("sub", "add"), ("fsub", "fadd")):
        add_op, sub_op = tv, fv
    else:
        return None
    if sub_op.operands[0] is add_op.operands[0]:
        other = add_op.operands[1]
    elif sub_op.operands[0] is add_op.operands[1]:
        other = add_op.operands[0]
    else:
        return None
    b = ic.builder
    is_fp = _is_fp(si)
    flags = _fmf(add_op) & _fmf(sub_op)
    if is_fp:
        neg = b.create_fneg(sub_op.operands[1])
        if isinstance(neg, Instruction):
            neg.fast_math_flags = flags  # type: ignore[attr-defined]
    else:
        neg = b.create_neg(sub_op.operands[1])
    nt, nf = other, neg
    if add_op is not tv:
        nt, nf = nf, nt
    new_sel = create_select(ic, si.condition, nt, nf, si.name + ".p", si)
    if is_fp:
        return BinaryOperator.create("fadd", sub_op.operands[0], new_sel, fast_math_flags=flags)
    return BinaryOperator.create("add", sub_op.operands[0], new_sel)


def fold_overflowing_add_sub_select(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """X + Y overflows ? -1 : X + Y -> uadd.sat(X, Y) (and usub/sadd/ssub with their limits)"""
    cond, tv, fv = si.condition, si.true_value, si.false_value
    if not (getattr(cond, "opcode", None) == "extractvalue" and tuple(cond.indices) == (1,)):  # type: ignore[attr-defined]
        return None
    ii = cond.operands[0]  # type: ignore[attr-defined]
    if not isinstance(ii, CallInst):
        return None
    base = ii.intrinsic_base or ""
    if base not in ("llvm.uadd.with.overflow", "llvm.usub.with.overflow", "llvm.sadd.with.overflow", "llvm.ssub.with.overflow"):
        return None
    if not (getattr(fv, "opcode", None) == "extractvalue" and tuple(fv.indices) == (0,) and fv.operands[0] is ii):  # type: ignore[attr-defined]
        return None
    x, y = ii.get_arg(0), ii.get_arg(1)
    w = scalar_width(x.type)
    smin, smax = 1 << (w - 1), (1 << (w - 1)) - 1

    def is_signed_limit(limit: Value, is_add: bool) -> bool:
        if not isinstance(limit, SelectInst):
            return False
        c = limit.condition
        if not isinstance(c, ICmpInst):
            return False
        cc = apint(c.get_operand(1))
        if cc is None:
            return False
        op = c.get_operand(0)
        pred = c.predicate
        lt, lf = limit.true_value, limit.false_value
        mask = (1 << w) - 1

        def zero_or_one(k: int) -> bool:
            return (k & mask) in (0, 1)

        def min_max(mn: Value, mx: Value) -> bool:
            return apint(mn) == smin and apint(mx) == smax

        if op is not x and op is not y:
            return False
        if is_add:
            if pred == P.ICMP_SLT and zero_or_one(cc) and min_max(lt, lf):
                return True
            if pred == P.ICMP_SGT and zero_or_one(cc + 1) and min_max(lf, lt):
                return True
        else:
            if op is x and pred == P.ICMP_SLT and zero_or_one(cc + 1) and min_max(lt, lf):
                return True
            if op is x and pred == P.ICMP_SGT and zero_or_one(cc + 2) and min_max(lf, lt):
                return True
            if op is y and pred == P.ICMP_SLT and zero_or_one(cc) and min_max(lf, lt):
                return True
            if op is y and pred == P.ICMP_SGT and zero_or_one(cc + 1) and min_max(lt, lf):
                return True
        return False

    if base == "llvm.uadd.with.overflow" and match(tv, _P_ALL_ONES) is not None:
        new = "uadd.sat"
    elif base == "llvm.usub.with.overflow" and match(tv, _P_ZERO) is not None:
        new = "usub.sat"
    elif base == "llvm.sadd.with.overflow" and is_signed_limit(tv, True):
        new = "sadd.sat"
    elif base == "llvm.ssub.with.overflow" and is_signed_limit(tv, False):
        new = "ssub.sat"
    else:
        return None
    return _intrinsic_call(si, new, si.type, [x, y])


def _intrinsic_call(at: Instruction, base: str, ty: Any, args: list[Value]) -> CallInst:
    """``CallInst::Create(Intrinsic::getDeclaration(M, ID, Ty), Args)`` (not inserted)."""
    from llvmpy_mid.ir.intrinsics import intrinsic_declaration
    from llvmpy_mid.ir.type_mangling import intrinsic_name

    module = at.module
    assert module is not None
    name = intrinsic_name("llvm." + base, [ty])
    assert name is not None
    fty = ty.context.function_type(ty, [a.type for a in args])
    decl = intrinsic_declaration(module, name, fty)
    return CallInst(fty, decl, args)


def fold_set_clear_bits(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """Cond ? (X & ~C) : (X | C) -> (X & ~C) | (Cond ? 0 : C) (and the swapped form)"""
    cond, t, f = si.condition, si.true_value, si.false_value
    ty = si.type
    for and_v, or_v, or_on_true in ((t, f, False), (f, t, True)):
        if getattr(and_v, "opcode", None) != "and" or getattr(or_v, "opcode", None) != "or" or not or_v.has_one_use:
            continue
        x = and_v.operands[0]  # type: ignore[attr-defined]
        not_c = apint(and_v.operands[1])  # type: ignore[attr-defined]
        if not_c is None or or_v.operands[0] is not x:  # type: ignore[attr-defined]
            continue
        c = apint(or_v.operands[1])  # type: ignore[attr-defined]
        if c is None or not_c != (~c) & ((1 << scalar_width(ty)) - 1):
            continue
        zero = Constant.get_null_value(ty)
        orc = int_const(ty, c)
        new_sel = create_select(ic, cond, orc if or_on_true else zero, zero if or_on_true else orc, "masksel", si)
        return BinaryOperator.create("or", and_v, new_sel)
    return None


def fold_select_zero_or_mul(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """select (X == 0), 0, X * Y -> freeze(Y) * X"""
    cond = si.condition
    tv, fv = si.true_value, si.false_value
    if not isinstance(cond, ICmpInst) or not cond.predicate.is_equality or match(cond.get_operand(1), _P_ZERO) is None:
        return None
    x = cond.get_operand(0)
    if cond.predicate == P.ICMP_NE:
        tv, fv = fv, tv
    if not isinstance(tv, Constant) or not isinstance(fv, Instruction) or fv.opcode != "mul":
        return None
    if fv.operands[0] is x:
        y = fv.operands[1]
    elif fv.operands[1] is x:
        y = fv.operands[0]
    else:
        return None
    zero_c = cond.get_operand(1)
    if not (tv.is_null_value or isinstance(tv, UndefValue) or _merged_zero(tv, zero_c)):
        return None
    fr = FreezeInst(y, name=y.name + ".fr")
    ic.insert_new_inst_before(fr, fv)
    ic.replace_operand(fv, 0 if fv.operands[0] is y else 1, fr)
    return ic.replace_inst_uses_with(si, fv)


def _merged_zero(tv: Constant, zero_c: Value) -> bool:
    """``Constant::mergeUndefsWith(TrueValC, ZeroC)`` is zero (vector lanes)."""
    ty = tv.type
    if not isinstance(ty, VectorType) or not isinstance(zero_c, Constant):
        return False
    for k in range(ty.count):
        a = tv.get_aggregate_element(k)
        z = zero_c.get_aggregate_element(k)
        if a is None or z is None:
            return False
        if a.is_null_value or isinstance(a, UndefValue) or isinstance(z, UndefValue):
            continue
        return False
    return True


# --- one operation on both arms -------------------------------------------------------------------


def fold_select_op_op(ic: InstCombiner, si: SelectInst, ti: Instruction, fi: Instruction) -> Instruction | None:
    """select C, (op X, Y), (op X, Z) -> op X, (select C, Y, Z) (casts, fneg, min/max, icmp, binops, GEPs)"""
    for p in _P_MINMAX:
        if match(si, p) is not None:
            return None
    cond = si.condition
    cond_ty = cond.type
    b = ic.builder
    if len(ti.operands) == 1 and isinstance(ti, CastInst):
        fi_op_ty = fi.operands[0].type
        if ti.operands[0].type is not fi_op_ty:
            return None
        if isinstance(cond_ty, VectorType):
            if not isinstance(fi_op_ty, VectorType) or cond_ty.count != fi_op_ty.count or cond_ty.scalable != fi_op_ty.scalable:
                return None
            if ti.opcode != "bitcast" and (not ti.has_one_use or not fi.has_one_use):
                return None
        elif not ti.has_one_use or not fi.has_one_use:
            return None
        new_si = create_select(ic, cond, ti.operands[0], fi.operands[0], si.name + ".v", si)
        return CastInst.create(ti.opcode, new_si, ti.type)

    state: list[Any] = [None, None, False]

    def common_op(commute: bool, swapped: bool = False) -> Value | None:
        t0, t1 = ti.operands[0], ti.operands[1]
        f0, f1 = fi.operands[0], fi.operands[1]
        if not swapped:
            if t0 is f0:
                state[:] = [t1, f1, True]
                return t0
            if t1 is f1:
                state[:] = [t0, f0, False]
                return t1
        if not commute and not swapped:
            return None
        if t0 is f1:
            state[:] = [t1, f0, True]
            return t0
        if t1 is f0:
            state[:] = [t0, f1, False]
            return t1
        return None

    if ti.has_one_use or fi.has_one_use:
        mt = match(ti, _P_FNEG_X)
        mf = match(fi, _P_FNEG_X)
        if mt is not None and mf is not None:
            fmf = (_fmf(ti) & _fmf(fi)) | _fmf(si)
            new_sel = create_select(ic, cond, mt.value("x"), mf.value("x"), si.name + ".v", si)
            if isinstance(new_sel, Instruction):
                new_sel.fast_math_flags = fmf  # type: ignore[attr-defined]
            return UnaryOperator(new_sel, fast_math_flags=fmf)
        if isinstance(ti, CallInst) and isinstance(fi, CallInst):
            tb = ti.intrinsic_base
            if tb is not None and tb == fi.intrinsic_base and match(ti, _P_ANY_MINMAX) is not None:
                mop = common_op(True)
                if mop is not None:
                    new_sel = create_select(ic, cond, state[0], state[1], "minmaxop", si)
                    callee = ti.called_function
                    assert callee is not None
                    return CallInst(callee.function_type, callee, [new_sel, mop])
        if isinstance(ti, ICmpInst) and isinstance(fi, ICmpInst):
            tp, fp = ti.predicate, fi.predicate
            if tp == fp or tp == fp.swapped:
                swapped = tp != fp
                mop = common_op(tp.is_equality, swapped)
                if mop is not None:
                    new_sel = create_select(ic, cond, state[0], state[1], si.name + ".v", si)
                    return ICmpInst(tp if state[2] else tp.swapped, mop, new_sel)

    if (
        len(ti.operands) != 2
        or len(fi.operands) != 2
        or not ti.is_same_operation_as(fi)
        or not isinstance(ti, (BinaryOperator, GetElementPtrInst))
        or not ti.has_one_use
        or not fi.has_one_use
    ):
        return None
    mop = common_op(ti.is_commutative)
    if mop is None:
        return None
    other_t, other_f, match_is_op0 = state
    if isinstance(cond_ty, VectorType) and (not isinstance(other_t.type, VectorType) or not isinstance(other_f.type, VectorType)):
        return None
    if isinstance(ti, BinaryOperator) and ti.is_int_div_rem and not is_guaranteed_not_to_be_poison(cond):
        if ti.opcode in ("sdiv", "srem") or match_is_op0:
            cond = b.create_freeze(cond)
    new_si = create_select(ic, cond, other_t, other_f, si.name + ".v", si)
    op0 = mop if match_is_op0 else new_si
    op1 = new_si if match_is_op0 else mop
    if isinstance(ti, BinaryOperator):
        nb = BinaryOperator.create(ti.opcode, op0, op1)
        fa = cast(BinaryOperator, fi)
        nb._flags = ti.flags_word & fa.flags_word
        return nb
    tg = ti
    fg = cast(GetElementPtrInst, fi)
    return GetElementPtrInst(tg.source_element_type, op0, [op1], flags=int(tg.gep_flags) & int(fg.gep_flags))


def fold_select_ext_const(ic: InstCombiner, sel: SelectInst) -> Instruction | None:
    """select Cond, (ext X), C -> ext (select Cond, X, C') when C survives truncation"""
    tv, fv = sel.true_value, sel.false_value
    if isinstance(tv, Constant):
        c = tv
    elif isinstance(fv, Constant):
        c = fv
    else:
        return None
    if isinstance(tv, Instruction):
        ext = tv
    elif isinstance(fv, Instruction):
        ext = fv
    else:
        return None
    if ext.opcode not in ("zext", "sext"):
        return None
    x = ext.operands[0]
    small = x.type
    cond = sel.condition
    if not _is_bool(x) and (not isinstance(cond, CmpInst) or cond.get_operand(0).type is not small):
        return None
    from llvmpy_mid.analysis.constant_folding import constant_fold_cast_operand

    t = constant_fold_cast_operand("trunc", c, small, ic.dl)
    if t is None:
        return None
    back = constant_fold_cast_operand(ext.opcode, t, c.type, ic.dl)
    if back is not c or not ext.has_one_use:
        return None
    a, b_ = x, cast("Value", t)
    if ext is fv:
        a, b_ = b_, a
    new_sel = create_select(ic, cond, a, b_, "narrow", sel)
    return CastInst.create(ext.opcode, new_sel, sel.type)


def fold_select_with_srem(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """(x % n) < 0 ? (x % n) + n : (x % n) -> x & (n - 1) for a power-of-two n"""
    cond = si.condition
    tv, fv = si.true_value, si.false_value
    if not isinstance(cond, ICmpInst):
        return None
    c = apint(cond.get_operand(1))
    if c is None:
        return None
    rem = cond.get_operand(0)
    tis = is_sign_bit_check(cond.predicate, c, scalar_width(rem.type)) if _is_int(rem) else None
    if tis is None:
        return None
    if not tis:
        tv, fv = fv, tv
    b = ic.builder

    def to_and(op: Value, remainder: Value) -> Instruction:
        add = b.create_add(remainder, Constant.get_all_ones_value(rem.type))
        return BinaryOperator.create("and", op, add)

    if getattr(tv, "opcode", None) == "add" and tv.operands[0] is rem and getattr(rem, "opcode", None) == "srem":  # type: ignore[attr-defined]
        remainder = tv.operands[1]  # type: ignore[attr-defined]
        if rem.operands[1] is remainder and fv is rem:
            if ic.is_known_to_be_a_power_of_two(remainder, True, 0, si):
                return to_and(rem.operands[0], remainder)  # type: ignore[attr-defined]
    if match(tv, _P_ONE) is not None and getattr(rem, "opcode", None) == "srem" and apint(rem.operands[1]) == 2 and fv is rem:  # type: ignore[attr-defined]
        return to_and(rem.operands[0], int_const(rem.type, 2))  # type: ignore[attr-defined]
    return None


def fold_select_into_op(ic: InstCombiner, si: SelectInst, tv: Value, fv: Value) -> Instruction | None:
    """select C, (X op Y), X -> X op (select C, Y, identity)"""
    for t, f, swapped in ((tv, fv, False), (fv, tv, True)):
        r = _try_fold_select_into_op(ic, si, t, f, swapped)
        if r is not None:
            return r
    return None


_FOLDABLE_BOTH = frozenset(("add", "fadd", "mul", "fmul", "and", "or", "xor"))
_FOLDABLE_RHS = frozenset(("sub", "fsub", "fdiv", "shl", "lshr", "ashr"))


def _try_fold_select_into_op(ic: InstCombiner, si: SelectInst, tv: Value, fv: Value, swapped: bool) -> Instruction | None:
    if not isinstance(tv, BinaryOperator) or not tv.has_one_use or isinstance(fv, Constant):
        return None
    opc = tv.opcode
    op_to_fold = 0
    if opc in _FOLDABLE_BOTH or opc in _FOLDABLE_RHS:
        if fv is tv.operands[0]:
            op_to_fold = 1
        elif opc in _FOLDABLE_BOTH and fv is tv.operands[1]:
            op_to_fold = 2
    if not op_to_fold:
        return None
    is_fp = _is_fp(si)
    fmf = _fmf(si) if is_fp else 0
    if opc == "fadd" and fmf & FastMathFlags.NSZ:
        c: Constant | None = Constant.get_null_value(tv.type)
    else:
        c = get_bin_op_identity(opc, tv.type, True)
    if c is None:
        return None
    oop = tv.operands[2 - op_to_fold]
    oopc = apint(oop)
    if isinstance(oop, Constant):
        ci = apint(c)
        if oopc is None or ci is None or not _is_select01(ci, oopc, scalar_width(oop.type)):
            return None
    if is_fp:
        if not fmf & FastMathFlags.NNAN and not (isinstance(fv, ConstantFP) and _fp_lanes(fv, lambda e: not e.is_nan)):
            return None
    new_sel = create_select(ic, si.condition, c if swapped else oop, oop if swapped else c, "", si)
    if is_fp and isinstance(new_sel, Instruction):
        new_sel.fast_math_flags = fmf  # type: ignore[attr-defined]
    if isinstance(new_sel, Instruction) and not new_sel.name and tv.name:
        name = tv.name
        tv.name = ""
        new_sel.name = name
    bo = BinaryOperator.create(opc, fv, new_sel)
    bo._flags = tv.flags_word
    return bo


def _is_select01(c1: int, c2: int, w: int) -> bool:
    if c1 != 0 and c2 != 0:
        return False
    mask = (1 << w) - 1
    return c1 == 1 or c1 == mask or c2 == 1 or c2 == mask


def _look_through_cast(cmp: ICmpInst, v1: Value, v2: Value, dl: Any) -> tuple[Value, str] | None:
    """``lookThroughCast`` (integer casts): ``v2`` as a value of ``v1``'s source type, and the cast."""
    from llvmpy_mid.analysis.constant_folding import constant_fold_cast_operand

    if not isinstance(v1, CastInst):
        return None
    op = v1.opcode
    src_ty = v1.operands[0].type
    if isinstance(v2, CastInst):
        if op == v2.opcode and src_ty is v2.operands[0].type:
            return v2.operands[0], op
        return None
    if not isinstance(v2, Constant):
        return None
    casted: Constant | None = None
    if op == "zext":
        if cmp.predicate.is_unsigned:
            casted = constant_fold_cast_operand("trunc", v2, src_ty, dl)
    elif op == "sext":
        if cmp.predicate.is_signed:
            casted = constant_fold_cast_operand("trunc", v2, src_ty, dl)
    elif op == "trunc":
        cc = cmp.get_operand(1)
        if isinstance(cc, Constant) and cc.type is src_ty:
            casted = cc
        else:
            casted = constant_fold_cast_operand("sext" if cmp.predicate.is_signed else "zext", v2, src_ty, dl)
    if casted is None:
        return None
    back = constant_fold_cast_operand(op, casted, v2.type, dl)
    if back is not None and back is not v2:
        return None
    return casted, op


def _match_select_pattern_cast(ic: InstCombiner, si: SelectInst) -> tuple[str, Value | None, Value | None, str | None]:
    """``matchSelectPattern(&SI, LHS, RHS, &CastOp)`` for integer compares."""
    from llvmpy_mid.analysis import select_pattern as sp

    cmp = si.condition
    if not isinstance(cmp, ICmpInst) or cmp.predicate.is_equality:
        return ("unknown", None, None, None)
    cl, cr = cmp.get_operand(0), cmp.get_operand(1)
    tv, fv = si.true_value, si.false_value
    if cl.type is not tv.type:
        r = _look_through_cast(cmp, tv, fv, ic.dl)
        if r is not None:
            f, lhs, rhs = sp._match(cmp.predicate, cl, cr, cast(CastInst, tv).operands[0], r[0], 0)
            return (f, lhs, rhs, r[1])
        r = _look_through_cast(cmp, fv, tv, ic.dl)
        if r is not None:
            f, lhs, rhs = sp._match(cmp.predicate, cl, cr, r[0], cast(CastInst, fv).operands[0], 0)
            return (f, lhs, rhs, r[1])
    f, lhs, rhs = sp._match(cmp.predicate, cl, cr, tv, fv, 0)
    return (f, lhs, rhs, None)


_MINMAX_PRED = {"smin": P.ICMP_SLT, "umin": P.ICMP_ULT, "smax": P.ICMP_SGT, "umax": P.ICMP_UGT}


def fold_select_min_max_through_cast(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """min/max of (cast X) and C -> cast (min/max X, C'): the cast moved out of the select
    pattern; MAX(MAX(A, B), B) -> MAX(A, B)"""
    from llvmpy_mid.analysis.select_pattern import match_select_pattern

    flavor, lhs, rhs, cast_op = _match_select_pattern_cast(ic, si)
    if flavor == "unknown" or lhs is None or rhs is None:
        return None
    for inner, other in ((lhs, rhs), (rhs, lhs)):
        f2, a, b = match_select_pattern(inner)
        if f2 != "unknown" and isinstance(inner, Instruction) and si.type is inner.type:
            if (other is a or other is b) and f2 == flavor and flavor in _MINMAX_PRED:
                return ic.replace_inst_uses_with(si, inner)
    if flavor not in _MINMAX_PRED or lhs.type is si.type or cast_op is None:
        return None
    b_ = ic.builder
    cmp = b_.create_icmp(_MINMAX_PRED[flavor], lhs, rhs)
    new_si = create_select(ic, cmp, lhs, rhs, si.name, si)
    return ic.replace_inst_uses_with(si, b_.create_cast(cast_op, new_si, si.type))


def fold_select_cmp_xchg(si: SelectInst) -> Value | None:
    """select (extractvalue (cmpxchg p, c, n), 1), (extractvalue .., 0), c -> c (and the swapped arms)"""

    def from_cmpxchg(v: Value, idx: int) -> Instruction | None:
        if getattr(v, "opcode", None) != "extractvalue" or tuple(v.indices)[:1] != (idx,):  # type: ignore[attr-defined]
            return None
        agg = cast(Instruction, v).operands[0]
        return agg if isinstance(agg, Instruction) and agg.opcode == "cmpxchg" else None

    if si.has_one_use:
        u = si._use_head.user  # type: ignore[union-attr]
        if isinstance(u, SelectInst) and u.condition is si.condition:
            if u.false_value is si.true_value or u.true_value is si.false_value:
                return None
    cx = from_cmpxchg(si.condition, 1)
    if cx is None:
        return None
    x = from_cmpxchg(si.true_value, 0)
    if x is cx and cx.operands[1] is si.false_value:
        return si.false_value
    x = from_cmpxchg(si.false_value, 0)
    if x is cx and cx.operands[1] is si.true_value:
        return si.false_value
    return None


# --- selects of selects ----------------------------------------------------------------------------


def _can_select_operand_be_mapped_into_pred_block(v: Value, si: SelectInst) -> bool:
    """``canSelectOperandBeMappingIntoPredBlock``."""
    if not isinstance(v, Instruction):
        return True
    cond_phi = cast(PHINode, si.condition)
    if isinstance(v, PHINode) and v.parent is cond_phi.parent:
        return True
    return si.parent is cond_phi.parent and v.parent is not cond_phi.parent


def _nested_implied(inner: SelectInst, cond: Value, cond_is_true: bool, ic: InstCombiner) -> Value | None:
    """``simplifyNestedSelectsUsingImpliedCond``."""
    implied = is_implied_condition(cond, inner.condition, ic.dl, cond_is_true)
    if implied is None:
        return None
    return inner.true_value if implied else inner.false_value


def fold_select_binop_identity(ic: InstCombiner, sel: SelectInst) -> Instruction | None:
    """select (X == C), (Y op X), Z -> select (X == C), Y, Z when C is op's identity"""
    cond = sel.condition
    if not isinstance(cond, CmpInst):
        return None
    x = cond.get_operand(0)
    c = cond.get_operand(1)
    if not isinstance(c, Constant):
        return None
    pred = cond.predicate
    if pred.is_int_predicate and pred.is_equality:
        is_eq = pred == P.ICMP_EQ
    elif pred == P.FCMP_OEQ:
        is_eq = True
    elif pred == P.FCMP_UNE:
        is_eq = False
    else:
        return None
    bo = sel.operands[1 if is_eq else 2]
    if not isinstance(bo, BinaryOperator):
        return None
    idc = get_bin_op_identity(bo.opcode, bo.type, True)
    if idc is not c:
        if idc is None or not pred.is_fp_predicate:
            return None
        if not (idc.is_null_value or _fp_lanes(idc, lambda e: e.is_zero_value)) or not (c.is_null_value or _fp_lanes(c, lambda e: e.is_zero_value)):
            return None
    if not bo.is_commutative and bo.operands[1] is not x:
        return None
    if bo.operands[1] is x:
        y = bo.operands[0]
    elif bo.operands[0] is x:
        y = bo.operands[1]
    else:
        return None
    if bo.is_fp_op and not (_fmf(bo) & FastMathFlags.NSZ):
        from llvmpy_mid.analysis import value_tracking as vt

        cbnz = getattr(vt, "cannot_be_negative_zero", None)
        if cbnz is None or not cbnz(y, ic.query(sel)):
            return None
    return ic.replace_operand(sel, 1 if is_eq else 2, y)


def fold_select_to_phi(ic: InstCombiner, sel: SelectInst) -> Instruction | None:
    """select %cond, %a, %b below ``br %cond`` -> phi [%a, true edge], [%b, false edge]"""
    candidates: list[BasicBlock] = []
    bb0 = sel.parent
    assert bb0 is not None
    candidates.append(bb0)
    for op in sel.operands:
        if isinstance(op, Instruction) and op.parent is not None and op.parent not in candidates:
            candidates.append(op.parent)
    for bb in candidates:
        r = _fold_select_to_phi_impl(ic, sel, bb)
        if r is not None:
            return r
    return None


def _fold_select_to_phi_impl(ic: InstCombiner, sel: SelectInst, bb: BasicBlock) -> Instruction | None:
    dt = ic.dt
    if not dt.is_reachable(bb):
        return None
    idom = dt.idom(bb)
    if idom is None:
        return None
    cond = sel.condition
    term = idom.terminator
    if not isinstance(term, BranchInst) or not term.is_conditional:
        return None
    bc = term.condition
    if bc is cond:
        if_true, if_false = sel.true_value, sel.false_value
    else:
        m = match(bc, _P_NOT_X)
        if m is None or m.value("x") is not cond:
            return None
        if_true, if_false = sel.false_value, sel.true_value
    ts, fs = term.get_successor(0), term.get_successor(1)
    if ts is fs:
        return None
    inputs: dict[BasicBlock, Value] = {}
    preds = bb.predecessors
    for pred in preds:
        if _edge_dom_edge(ic, idom, ts, pred, bb):
            v = _dpt(if_true, bb, pred)
        elif _edge_dom_edge(ic, idom, fs, pred, bb):
            v = _dpt(if_false, bb, pred)
        else:
            return None
        inputs[pred] = v
        if isinstance(v, Instruction):
            pt = pred.terminator
            if pt is None or not dt.dominates(v, pt):
                return None
    b = ic.builder
    first = bb.instructions.first
    if first is None:
        b.position_at_end(bb)
    else:
        b.position_before(first)
    pn = b.phi(sel.type)
    for pred in preds:
        pn.add_incoming(inputs[pred], pred)
    if sel.name:
        name = sel.name
        sel.name = ""
        pn.name = name
    return pn


def _dpt(v: Value, cur: BasicBlock, pred: BasicBlock) -> Value:
    """``Value::DoPHITranslation``: a phi of ``cur`` gives its value for ``pred``."""
    if isinstance(v, PHINode) and v.parent is cur:
        return v.incoming_value_for_block(pred)
    return v


def _edge_dom_edge(ic: InstCombiner, s1: BasicBlock, e1: BasicBlock, s2: BasicBlock, e2: BasicBlock) -> bool:
    if s1 is s2 and e1 is e2:
        return True
    return bool(ic.dt._edge_dominates_block(s1, e1, s2))


def fold_select_with_frozen_icmp(sel: SelectInst) -> Value | None:
    """select (freeze(x == y)), x, y -> y; select (freeze(x != y)), x, y -> x"""
    fi = sel.condition
    if not isinstance(fi, FreezeInst) or not fi.has_one_use:
        return None
    c = fi.operands[0]
    tv, fv = sel.true_value, sel.false_value
    if not isinstance(c, ICmpInst) or not c.predicate.is_equality:
        return None
    a, b = c.get_operand(0), c.get_operand(1)
    if (a is tv and b is fv) or (a is fv and b is tv):
        return fv if c.predicate == P.ICMP_EQ else tv
    return None


def fold_round_up_integer_with_pow2_alignment(ic: InstCombiner, si: SelectInst) -> Value | None:
    """((X & lowmask) == 0) ? X : ((X + bias) & ~lowmask) -> (X + lowmask) & ~lowmask"""
    cond = si.condition
    x = si.true_value
    xb = si.false_value
    if not isinstance(cond, ICmpInst) or not cond.predicate.is_equality or apint(cond.get_operand(1)) != 0:
        return None
    if cond.predicate == P.ICMP_NE:
        x, xb = xb, x
    low = cond.get_operand(0)
    if getattr(low, "opcode", None) != "and" or low.operands[0] is not x:  # type: ignore[attr-defined]
        return None
    lowc = apint_allow_poison(low.operands[1])  # type: ignore[attr-defined]
    if lowc is None:
        return None
    bias = high = None
    if getattr(xb, "opcode", None) == "and":
        inner = xb.operands[0]  # type: ignore[attr-defined]
        if getattr(inner, "opcode", None) == "add" and inner.operands[0] is x:
            bias = apint_allow_poison(inner.operands[1])
            high = apint_allow_poison(xb.operands[1])  # type: ignore[attr-defined]
    if (bias is None or high is None) and getattr(xb, "opcode", None) == "add":
        inner = xb.operands[0]  # type: ignore[attr-defined]
        if getattr(inner, "opcode", None) == "and" and inner.operands[0] is x:
            high = apint_allow_poison(inner.operands[1])
            bias = apint_allow_poison(xb.operands[1])  # type: ignore[attr-defined]
    if bias is None or high is None:
        return None
    w = scalar_width(x.type)
    mask = (1 << w) - 1
    if lowc & (lowc + 1) != 0:
        return None
    if (~lowc) & mask != high:
        return None
    align = (lowc + 1) & mask
    if bias != align and bias != lowc:
        return None
    if not xb.has_one_use:
        if bias == lowc and implies_poison(xb, x):
            return xb
        return None
    b = ic.builder
    off = b.create_add(x, int_const(x.type, lowc), x.name + ".biased")
    r = b.create_and(off, int_const(x.type, high))
    if isinstance(r, Instruction) and si.name:
        name = si.name
        si.name = ""
        r.name = name
    return r


def fold_select_of_symmetric_select(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """select c2, (select c1, a, b), (select c1, b, a) -> select (xor c1, c2), b, a"""
    t, f = si.true_value, si.false_value
    if not isinstance(t, SelectInst) or not isinstance(f, SelectInst) or not t.has_one_use or not f.has_one_use:
        return None
    if f.condition is not t.condition or f.true_value is not t.false_value or f.false_value is not t.true_value:
        return None
    if si.condition.type is not t.condition.type:
        return None
    x = ic.builder.create_xor(t.condition, si.condition)
    return SelectInst(x, t.false_value, t.true_value)


def fold_nested_selects(ic: InstCombiner, outer: SelectInst) -> Instruction | None:
    """select (c && alt), t, (select c, it, if) -> select c, (select alt, t, it), if (and the || form)"""
    from llvmpy_mid.ir.pattern_match import m_c_logical_and, m_c_logical_or, m_logical_and, m_logical_or

    ocond, otv, ofv = outer.condition, outer.true_value, outer.false_value
    m = match(ocond, _P_NOT_X)
    if m is not None:
        ocond = m.value("x")
        otv, ofv = ofv, otv
    is_and = match(ocond, m_logical_and(m_value(), m_value())) is not None
    if not is_and and match(ocond, m_logical_or(m_value(), m_value())) is None:
        return None
    inner_val = ofv if is_and else otv
    if not outer.condition.has_one_use and not inner_val.has_one_use:
        return None
    if not isinstance(inner_val, SelectInst):
        return None
    icond, itv, ifv = inner_val.condition, inner_val.true_value, inner_val.false_value
    m = match(icond, _P_NOT_X)
    if m is not None:
        icond = m.value("x")
        itv, ifv = ifv, itv

    def match_outer(p: Any) -> Value | None:
        pat = m_c_logical_and(p, m_value("alt")) if is_and else m_c_logical_or(p, m_value("alt"))
        mm = match(ocond, pat)
        return None if mm is None else mm.value("alt")

    alt = match_outer(m_specific(icond))
    if alt is None:
        from llvmpy_mid.ir.pattern_match import m_bind

        pat = m_c_logical_and(m_bind("nic", m_not(m_specific(icond))), m_value("alt")) if is_and else m_c_logical_or(
            m_bind("nic", m_not(m_specific(icond))), m_value("alt")
        )
        mm = match(ocond, pat)
        if mm is None:
            return None
        alt = mm.value("alt")
        itv, ifv = ifv, itv
        icond = mm.value("nic")
    sel_inner = ic.builder.create_select(alt, otv if is_and else ifv, itv if is_and else ofv)
    if isinstance(sel_inner, Instruction) and not sel_inner.name and inner_val.name:
        name = inner_val.name
        inner_val.name = ""
        sel_inner.name = name
    return SelectInst(icond, sel_inner if is_and else itv, ifv if is_and else sel_inner)


# --- the visitor -----------------------------------------------------------------------------------


def visit_select(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``select`` (LLVM ``InstCombinerImpl::visitSelectInst``)."""
    si = cast(SelectInst, i)
    cond, tv, fv = si.condition, si.true_value, si.false_value
    sel_ty = si.type
    v = simplify_select_inst(cond, tv, fv, ic.query(si))
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    r = canonicalize_select_to_shuffle(si)
    if r is not None:
        return r
    r = canonicalize_scalar_select_of_vecs(ic, si)
    if r is not None:
        return r
    cond_ty = cond.type
    cond_vec = isinstance(cond_ty, VectorType)
    sel_vec = isinstance(sel_ty, VectorType)
    if not isinstance(cond, Constant) and _is_int(si) and cond_vec == sel_vec:
        s = simplify_with_op_replaced(tv, cond, Constant.get_all_ones_value(cond_ty), ic.sq, True, None)
        if s is not None:
            return ic.replace_operand(si, 1, s)
        s = simplify_with_op_replaced(fv, cond, Constant.get_null_value(cond_ty), ic.sq, True, None)
        if s is not None:
            return ic.replace_operand(si, 2, s)
    r = fold_select_of_bools(ic, si)
    if r is not None:
        return r
    cond, tv, fv = si.condition, si.true_value, si.false_value
    if _is_int(si) and not _is_bool(si) and cond_vec == sel_vec:
        if match(tv, _P_ONE) is not None and match(fv, _P_ZERO) is not None:
            return CastInst.create("zext", cond, sel_ty)
        if match(tv, _P_ALL_ONES) is not None and match(fv, _P_ZERO) is not None:
            return CastInst.create("sext", cond, sel_ty)
        if match(tv, _P_ZERO) is not None and match(fv, _P_ONE) is not None:
            return CastInst.create("zext", ic.builder.create_not(cond, "not." + cond.name), sel_ty)
        if match(tv, _P_ZERO) is not None and match(fv, _P_ALL_ONES) is not None:
            return CastInst.create("sext", ic.builder.create_not(cond, "not." + cond.name), sel_ty)
    is_fp_sel = _is_fp(si)
    if isinstance(cond, FCmpInst):
        c0, c1 = cond.get_operand(0), cond.get_operand(1)
        if (c0 is tv and c1 is fv) or (c0 is fv and c1 is tv):
            if cond.has_one_use and cond.predicate.is_unordered:
                b = ic.builder
                fmf = _fmf(cond)
                new_cond = b.create_fcmp(cond.predicate.inverse, c0, c1, cond.name + ".inv", fast_math_flags=fmf)
                new_sel = b.create_select(new_cond, fv, tv, fast_math_flags=fmf if is_fp_sel else None)
                return ic.replace_inst_uses_with(si, new_sel)
    if is_fp_sel:
        sf = _fmf(si)
        if sf & FastMathFlags.NNAN and sf & FastMathFlags.NSZ and isinstance(cond, FCmpInst):
            a, b_ = cond.get_operand(0), cond.get_operand(1)
            if (tv is a and fv is b_) or (tv is b_ and fv is a):
                pred = cond.predicate if tv is a else cond.predicate.inverse
                if pred in (P.FCMP_OGT, P.FCMP_OGE):
                    return ic.replace_inst_uses_with(si, ic.builder.create_binary_intrinsic("maxnum", a, b_, fmf_source=si))
                if pred in (P.FCMP_OLT, P.FCMP_OLE):
                    return ic.replace_inst_uses_with(si, ic.builder.create_binary_intrinsic("minnum", a, b_, fmf_source=si))
    r = fold_select_with_fcmp_to_fabs(ic, si)
    if r is not None:
        return r
    cond, tv, fv = si.condition, si.true_value, si.false_value
    if isinstance(cond, ICmpInst):
        r = fold_select_inst_with_icmp(ic, si, cond)
        if r is not None:
            return r
    for fold in (fold_add_sub_select, fold_overflowing_add_sub_select, fold_set_clear_bits, fold_select_zero_or_mul):
        r = fold(ic, si)
        if r is not None:
            return r
    cond, tv, fv = si.condition, si.true_value, si.false_value
    if isinstance(tv, Instruction) and isinstance(fv, Instruction) and tv.opcode == fv.opcode:
        r = fold_select_op_op(ic, si, tv, fv)
        if r is not None:
            return r
    r = fold_select_ext_const(ic, si)
    if r is not None:
        return r
    r = fold_select_with_srem(ic, si)
    if r is not None:
        return r
    for gep, base, swap in ((tv, fv, False), (fv, tv, True)):
        if not isinstance(gep, GetElementPtrInst):
            continue
        if len(gep.operands) != 2 or gep.operands[0] is not base or not gep.has_one_use:
            continue
        idx = gep.operands[1]
        if cond_vec and not isinstance(idx.type, VectorType):
            continue
        nt: Value = idx
        nf: Value = Constant.get_null_value(idx.type)
        if swap:
            nt, nf = nf, nt
        new_si = create_select(ic, cond, nt, nf, si.name + ".idx", si)
        return GetElementPtrInst(gep.source_element_type, gep.operands[0], [new_si], flags=int(gep.gep_flags))
    if _is_int(si) or is_fp_sel:
        r = fold_select_into_op(ic, si, tv, fv)
        if r is not None:
            return r
        r = fold_select_min_max_through_cast(ic, si)
        if r is not None:
            return r
    if isinstance(cond, PHINode):
        if _can_select_operand_be_mapped_into_pred_block(tv, si) and _can_select_operand_be_mapped_into_pred_block(fv, si):
            cm = _common()
            if cm is not None:
                r = cm.fold_op_into_phi(ic, si, cond)
                if r is not None:
                    return cast(Instruction, r)
    if isinstance(tv, SelectInst) and tv.condition.type is cond_ty:
        v = _nested_implied(tv, cond, True, ic)
        if v is not None:
            return ic.replace_operand(si, 1, v)
        if tv.false_value is fv and tv.has_one_use:
            a = ic.builder.create_logical_and(cond, tv.condition)
            ic.replace_operand(si, 0, a)
            ic.replace_operand(si, 1, tv.true_value)
            return si
    if isinstance(fv, SelectInst) and fv.condition.type is cond_ty:
        v = _nested_implied(fv, cond, False, ic)
        if v is not None:
            return ic.replace_operand(si, 2, v)
        if fv.true_value is tv and fv.has_one_use:
            o = ic.builder.create_logical_or(cond, fv.condition)
            ic.replace_operand(si, 0, o)
            ic.replace_operand(si, 2, fv.false_value)
            return si
    if isinstance(tv, BinaryOperator) and tv.has_one_use and not tv.is_int_div_rem:
        for k in (0, 1):
            inner = tv.operands[k]
            if isinstance(inner, SelectInst) and inner.condition is cond:
                ic.replace_operand(tv, k, inner.true_value)
                ic.worklist.push(tv)
                return si
    if isinstance(fv, BinaryOperator) and fv.has_one_use and not fv.is_int_div_rem:
        for k in (0, 1):
            inner = fv.operands[k]
            if isinstance(inner, SelectInst) and inner.condition is cond:
                ic.replace_operand(fv, k, inner.false_value)
                ic.worklist.push(fv)
                return si
    m = match(cond, _P_NOT_X)
    if m is not None:
        cm = _common()
        avoid = cm.should_avoid_absorbing_not_into_select(si) if cm is not None else _avoid_absorbing_not(si)
        if not avoid:
            ic.replace_operand(si, 0, m.value("x"))
            si.swap_values()
            swap_prof_metadata(si)
            return si
    if not cond_vec and ic.ac is not None and _has_assumptions(ic):
        kb = ic.compute_known_bits(cond, 0, si)
        if kb.one & 1:
            return ic.replace_inst_uses_with(si, tv)
        if kb.zero & 1:
            return ic.replace_inst_uses_with(si, fv)
    v = fold_select_cmp_xchg(si)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    r = fold_select_binop_identity(ic, si)
    if r is not None:
        return r
    r = fold_select_to_phi(ic, si)
    if r is not None:
        return ic.replace_inst_uses_with(si, r)
    v = fold_select_with_frozen_icmp(si)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    v = fold_round_up_integer_with_pow2_alignment(ic, si)
    if v is not None:
        return ic.replace_inst_uses_with(si, v)
    r = fold_select_of_symmetric_select(ic, si)
    if r is not None:
        return r
    r = fold_nested_selects(ic, si)
    if r is not None:
        return r
    try:
        from llvmpy_mid.transform.instcombine import and_or_xor
    except ImportError:  # pragma: no cover
        and_or_xor = None  # type: ignore[assignment]
    sink = getattr(and_or_xor, "sink_not_into_other_hand_of_logical_op", None) if and_or_xor is not None else None
    if sink is not None and sink(ic, si):
        return si
    cond, tv, fv = si.condition, si.true_value, si.false_value
    r = _fold_select_with_and_or_cond(ic, si)
    if r is not None:
        return r
    if cond.type is si.type and is_known_inversion(fv, tv):
        return BinaryOperator.create("xor", cond, fv)
    return None


def _avoid_absorbing_not(si: SelectInst) -> bool:
    """``shouldAvoidAbsorbingNotIntoSelect``: a logical and/or keeps its form."""
    from llvmpy_mid.ir.pattern_match import m_logical_and, m_logical_or

    return match(si, m_logical_and(m_value(), m_value())) is not None or match(si, m_logical_or(m_value(), m_value())) is not None


def _has_assumptions(ic: InstCombiner) -> bool:
    ac = ic.ac
    assumptions = getattr(ac, "assumptions", None)
    if assumptions is None:
        return False
    items = assumptions() if callable(assumptions) else assumptions
    return bool(items)


def _fold_select_with_and_or_cond(ic: InstCombiner, si: SelectInst) -> Instruction | None:
    """(select A && B, T, F) -> (select A, (select B, T, F), F) when the inner select folds"""
    from llvmpy_mid.ir.pattern_match import m_logical_and, m_logical_or

    cond, tv, fv = si.condition, si.true_value, si.false_value

    def attempt(is_and: bool, a: Value, b: Value) -> Instruction | None:
        v = simplify_select_inst(b, tv, fv, ic.query(si))
        if v is not None:
            return SelectInst(a, v if is_and else tv, fv if is_and else v)
        if cond.has_one_use and _is_int(si) and isinstance(b, ICmpInst):
            v = canonicalize_spf(ic, b, tv, fv)
            if v is not None:
                return SelectInst(a, v if is_and else tv, fv if is_and else v)
        return None

    op = getattr(cond, "opcode", None)
    if op in ("and", "or") and isinstance(cond, BinaryOperator):
        is_and = op == "and"
        l, r = cond.operands[0], cond.operands[1]
        res = attempt(is_and, l, r)
        if res is None:
            res = attempt(is_and, r, l)
        return res
    m = match(cond, m_logical_and(m_value("l"), m_value("r")))
    if m is not None:
        return attempt(True, m.value("l"), m.value("r"))
    m = match(cond, m_logical_or(m_value("l"), m_value("r")))
    if m is not None:
        return attempt(False, m.value("l"), m.value("r"))
    return None


__all__ = [
    "canonicalize_scalar_select_of_vecs",
    "canonicalize_select_to_shuffle",
    "create_select",
    "fold_add_sub_select",
    "fold_nested_selects",
    "fold_overflowing_add_sub_select",
    "fold_round_up_integer_with_pow2_alignment",
    "fold_select_binop_identity",
    "fold_select_cmp_xchg",
    "fold_select_ext_const",
    "fold_select_into_op",
    "fold_select_min_max_through_cast",
    "fold_select_of_symmetric_select",
    "fold_select_op_op",
    "fold_select_to_phi",
    "fold_select_with_fcmp_to_fabs",
    "fold_select_with_frozen_icmp",
    "fold_select_with_srem",
    "fold_set_clear_bits",
    "fold_select_zero_or_mul",
    "visit_select",
]
