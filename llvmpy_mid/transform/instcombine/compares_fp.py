"""InstCombine folds of ``fcmp`` (LLVM 19.1.7 ``lib/Transforms/InstCombine/InstCombineCompares.cpp``:
``visitFCmpInst``, ``foldFCmpIntToFPConst``, ``foldFCmpReciprocalAndZero``,
``foldFabsWithFcmpZero``, ``foldFCmpFNegCommonOp``, ``foldFCmpFSubIntoFCmp``), in LLVM's order.

What it does not do (yet): the ``vector.reverse`` forms of ``foldVectorCmp``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.constant_folding import constant_fold_unary_op_operand, denormal_mode
from llvmpy_mid.analysis.instruction_simplify import simplify_fcmp_inst
from llvmpy_mid.analysis.instsimplify.fp import _never_inf, _never_nan
from llvmpy_mid.analysis.select_pattern import UNKNOWN, match_select_pattern
from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constants import Constant, ConstantFP, ConstantInt, ConstantVector, get_splat_value
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common
from llvmpy_mid.transform.instcombine.compares_util import int_const, scalar_width

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P = Predicate

_FNEG_X = pm.m_fneg(pm.m_value("x"))
_ANY_ZERO_FP = pm.m_any_zero_fp()
_POS_ZERO_FP = pm.m_pos_zero_fp()


def _fcmp(pred: Predicate, a: Value, b: Value, src: FCmpInst) -> FCmpInst:
    """``new FCmpInst(Pred, A, B, "", &I)``: fast-math flags copied from ``src``."""
    return FCmpInst(pred, a, b, fast_math_flags=src.fast_math_flags)


def _fp_zero(ty: Type) -> Constant:
    """``ConstantFP::getZero(Ty)`` (splatted over vectors)."""
    return Constant.get_null_value(ty)


def _apfloat(v: Value) -> ConstantFP | None:
    """``m_APFloat``: a scalar FP constant or a splat of one (no poison lanes)."""
    if type(v) is ConstantFP:
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if type(s) is ConstantFP:
            return s
    return None


def _sem(c: ConstantFP) -> apfloat.Semantics | None:
    return apfloat.semantics_of(c.type.type_id)


def _fneg(v: Value) -> Value | None:
    m = pm.match(v, _FNEG_X)
    return cast(Value, m.x) if m is not None else None


def _fn_of(i: Instruction) -> object:
    bb = i.parent
    return bb.parent if bb is not None else None


def _is_ieee_denormals(i: Instruction, ty: Type) -> bool:
    fn = _fn_of(i)
    if fn is None:
        return True
    return denormal_mode(fn, ty.scalar_type) == ("ieee", "ieee")  # type: ignore[arg-type]


def _exact(c: ConstantFP) -> Fraction | None:
    sem = _sem(c)
    if sem is None:
        return None
    parts = apfloat.to_fraction_parts(sem, c.bits)
    if parts is None:
        return None
    sig, exp = parts
    return Fraction(sig) * (Fraction(2) ** exp)


def fold_fcmp_int_to_fp_const(ic: InstCombiner, i: FCmpInst, lhsi: Instruction, rhsc: Constant) -> Instruction | None:
    """fcmp ([su]itofp X), C -> icmp X, C' (or a constant) when C is representable enough."""
    rhs = _apfloat(rhsc)
    if rhs is None:
        return None
    sem = _sem(rhs)
    if sem is None:
        return None
    mantissa = sem.precision
    src = lhsi.operands[0]
    int_w = scalar_width(src.type)
    unsigned = lhsi.opcode == "uitofp"
    cat, sign, sig, exp = apfloat.decode(sem, rhs.bits)
    is_neg = bool(sign)
    val = _exact(rhs)
    true = int_const(i.type, 1)
    false = int_const(i.type, 0)
    if i.is_equality:
        # convertToInteger (nearest-even) exact? else compare with roundToIntegral
        if val is None or val.denominator != 1:
            if cat == apfloat.NAN or (val is not None and val.denominator != 1):
                if i.predicate in (P.FCMP_OEQ, P.FCMP_UEQ):
                    return ic.replace_inst_uses_with(i, false)
                return ic.replace_inst_uses_with(i, true)
    if int_w > mantissa:
        if cat == apfloat.INF:
            max_exp = sem.emax
            if max_exp < int_w - (0 if unsigned else 1):
                return None
        elif cat == apfloat.NORMAL:
            e = _ilogb(sig, exp)
            if mantissa <= e <= int_w - (0 if unsigned else 1):
                return None
    pred_map = {
        P.FCMP_UEQ: P.ICMP_EQ, P.FCMP_OEQ: P.ICMP_EQ,
        P.FCMP_UGT: P.ICMP_UGT if unsigned else P.ICMP_SGT, P.FCMP_OGT: P.ICMP_UGT if unsigned else P.ICMP_SGT,
        P.FCMP_UGE: P.ICMP_UGE if unsigned else P.ICMP_SGE, P.FCMP_OGE: P.ICMP_UGE if unsigned else P.ICMP_SGE,
        P.FCMP_ULT: P.ICMP_ULT if unsigned else P.ICMP_SLT, P.FCMP_OLT: P.ICMP_ULT if unsigned else P.ICMP_SLT,
        P.FCMP_ULE: P.ICMP_ULE if unsigned else P.ICMP_SLE, P.FCMP_OLE: P.ICMP_ULE if unsigned else P.ICMP_SLE,
        P.FCMP_UNE: P.ICMP_NE, P.FCMP_ONE: P.ICMP_NE,
    }  # fmt: skip
    fp = i.predicate
    if fp == P.FCMP_ORD:
        return ic.replace_inst_uses_with(i, true)
    if fp == P.FCMP_UNO:
        return ic.replace_inst_uses_with(i, false)
    pred = pred_map.get(fp)
    if pred is None:
        return None
    if cat == apfloat.NAN:
        return None
    hi = (1 << int_w) - 1 if unsigned else (1 << (int_w - 1)) - 1
    lo = 0 if unsigned else -(1 << (int_w - 1))

    def cmp_rounded(bound: int) -> int:
        """sign of (fp(bound) - RHS) with fp(bound) rounded to RHS's format."""
        b = apfloat.from_integer(sem, bound)
        r = apfloat.compare(sem, b, rhs.bits)
        return {apfloat.CMP_LESS: -1, apfloat.CMP_EQUAL: 0, apfloat.CMP_GREATER: 1}.get(r, 0)

    if cmp_rounded(hi) < 0:
        if pred in (P.ICMP_NE, P.ICMP_SLT, P.ICMP_SLE, P.ICMP_ULT, P.ICMP_ULE):
            return ic.replace_inst_uses_with(i, true)
        return ic.replace_inst_uses_with(i, false)
    if cmp_rounded(lo) > 0:
        if pred in (P.ICMP_NE, P.ICMP_SGT, P.ICMP_SGE, P.ICMP_UGT, P.ICMP_UGE):
            return ic.replace_inst_uses_with(i, true)
        return ic.replace_inst_uses_with(i, false)
    # RHS toward zero into the integer type (saturating as APFloat does)
    if val is None:
        rhs_int = lo if is_neg else hi
        is_exact = False
    else:
        t = int(val)  # toward zero
        if lo <= t <= hi:
            rhs_int = t
            is_exact = t == val
        else:
            rhs_int = lo if is_neg else hi
            is_exact = False
    if cat != apfloat.ZERO and not is_exact:
        if pred == P.ICMP_NE:
            return ic.replace_inst_uses_with(i, true)
        if pred == P.ICMP_EQ:
            return ic.replace_inst_uses_with(i, false)
        if pred == P.ICMP_ULE:
            if is_neg:
                return ic.replace_inst_uses_with(i, false)
        elif pred == P.ICMP_SLE:
            if is_neg:
                pred = P.ICMP_SLT
        elif pred == P.ICMP_ULT:
            if is_neg:
                return ic.replace_inst_uses_with(i, false)
            pred = P.ICMP_ULE
        elif pred == P.ICMP_SLT:
            if not is_neg:
                pred = P.ICMP_SLE
        elif pred == P.ICMP_UGT:
            if is_neg:
                return ic.replace_inst_uses_with(i, true)
        elif pred == P.ICMP_SGT:
            if is_neg:
                pred = P.ICMP_SGE
        elif pred == P.ICMP_UGE:
            if is_neg:
                return ic.replace_inst_uses_with(i, true)
            pred = P.ICMP_UGT
        elif pred == P.ICMP_SGE:
            if not is_neg:
                pred = P.ICMP_SGT
    return ICmpInst(pred, src, int_const(src.type, rhs_int))


def _ilogb(sig: int, exp: int) -> int:
    """``ilogb`` of a finite non-zero sig * 2**exp."""
    return sig.bit_length() - 1 + exp


def fold_fcmp_reciprocal_and_zero(i: FCmpInst, lhsi: Instruction, rhsc: Constant) -> Instruction | None:
    """(C / X) < 0.0 -> X < 0.0 (swapped when C < 0), with ninf on both."""
    pred = i.predicate
    if pred not in (P.FCMP_OGT, P.FCMP_OLT, P.FCMP_OGE, P.FCMP_OLE):
        return None
    if not pm.matches(rhsc, _ANY_ZERO_FP):
        return None
    lf = getattr(lhsi, "fast_math_flags", 0)
    if not (int(lf) & FastMathFlags.NINF) or not (int(i.fast_math_flags) & FastMathFlags.NINF):
        return None
    c = _apfloat(lhsi.operands[0])
    if c is None or c.is_zero_value:
        return None
    sem = _sem(c)
    if sem is not None and apfloat.is_negative(sem, c.bits):
        pred = pred.swapped
    return _fcmp(pred, lhsi.operands[1], rhsc, i)


def fold_fabs_with_fcmp_zero(ic: InstCombiner, i: FCmpInst) -> Instruction | None:
    """fabs(X) compared with +0.0 (or the smallest normal under flushing denormals)."""
    op0 = i.lhs
    if not (isinstance(op0, CallInst) and op0.intrinsic_base == "llvm.fabs"):
        return None
    x = op0.args[0]
    c = _apfloat(i.rhs)
    if c is None:
        return None
    sem = _sem(c)
    if c.bits != 0:
        if sem is None or sem.explicit_int or c.bits & ~(1 << (sem.width - 1)) != 1 << sem.frac_bits:
            return None
        fn = _fn_of(i)
        if fn is None:
            return None
        inp = denormal_mode(fn, c.type)[1]  # type: ignore[arg-type]
        if inp in ("preserve-sign", "positive-zero"):
            table = {P.FCMP_OLT: P.FCMP_OEQ, P.FCMP_UGE: P.FCMP_UNE, P.FCMP_OGE: P.FCMP_ONE, P.FCMP_ULT: P.FCMP_UEQ}
            np = table.get(i.predicate)
            if np is not None:
                return _fcmp(np, x, _fp_zero(x.type), i)
        return None
    table2 = {
        P.FCMP_OGT: P.FCMP_ONE, P.FCMP_UGT: P.FCMP_UNE, P.FCMP_OLE: P.FCMP_OEQ, P.FCMP_ULE: P.FCMP_UEQ,
        P.FCMP_OGE: P.FCMP_ORD, P.FCMP_ULT: P.FCMP_UNO,
        P.FCMP_OEQ: P.FCMP_OEQ, P.FCMP_UEQ: P.FCMP_UEQ, P.FCMP_ONE: P.FCMP_ONE, P.FCMP_UNE: P.FCMP_UNE,
        P.FCMP_ORD: P.FCMP_ORD, P.FCMP_UNO: P.FCMP_UNO,
    }  # fmt: skip
    np2 = table2.get(i.predicate)
    if np2 is None:
        return None
    i.predicate = np2
    return ic.replace_operand(i, 0, x)


def fold_fcmp_fneg_common_op(i: FCmpInst) -> Instruction | None:
    """fcmp Pred X, -X -> fcmp Pred X, 0.0."""
    pred = i.predicate
    op0, op1 = i.lhs, i.rhs
    if _fneg(op0) is not None and _fneg(op1) is None:
        op0, op1 = op1, op0
        pred = pred.swapped
    if _fneg(op1) is not op0:
        return None
    return _fcmp(pred, op0, _fp_zero(op0.type), i)


def fold_fcmp_fsub_into_fcmp(ic: InstCombiner, i: FCmpInst, lhsi: Instruction, rhsc: Constant) -> Instruction | None:
    """fcmp pred (X - Y), 0.0 -> fcmp pred X, Y (when inf - inf cannot matter)."""
    pred = i.predicate
    x, y = lhsi.operands[0], lhsi.operands[1]
    lf = int(getattr(lhsi, "fast_math_flags", 0))
    if pred in (P.FCMP_UGT, P.FCMP_ULT, P.FCMP_UNE, P.FCMP_OEQ, P.FCMP_OGE, P.FCMP_OLE):
        if not (lf & FastMathFlags.NNAN) and not (lf & FastMathFlags.NINF) and not _never_inf(y) and not _never_inf(x):
            return None
    elif pred not in (P.FCMP_OGT, P.FCMP_OLT, P.FCMP_ONE, P.FCMP_UEQ, P.FCMP_UGE, P.FCMP_ULE):
        return None
    if pm.matches(rhsc, _ANY_ZERO_FP) and _is_ieee_denormals(i, lhsi.type):
        ic.replace_operand(i, 0, x)
        ic.replace_operand(i, 1, y)
        return i
    return None


def visit_fcmp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``visitFCmpInst``: the fcmp folds in LLVM's order."""
    assert isinstance(i, FCmpInst)
    changed = False
    if common.get_complexity(i.lhs) < common.get_complexity(i.rhs):
        i.swap_operands()
        changed = True
    pred = i.predicate
    op0, op1 = i.lhs, i.rhs
    v = simplify_fcmp_inst(pred, op0, op1, int(i.fast_math_flags), ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    ty = op0.type
    if op0 is op1:
        if pred in (P.FCMP_UNO, P.FCMP_ULT, P.FCMP_UGT, P.FCMP_UNE):
            i.predicate = P.FCMP_UNO
            i.set_operand(1, _fp_zero(ty))
            return i
        if pred in (P.FCMP_ORD, P.FCMP_OEQ, P.FCMP_OGE, P.FCMP_OLE):
            i.predicate = P.FCMP_ORD
            i.set_operand(1, _fp_zero(ty))
            return i
    if i.is_commutative:
        pair = common.match_symmetric_pair(i.lhs, i.rhs)
        if pair is not None:
            ic.replace_operand(i, 0, pair[0])
            ic.replace_operand(i, 1, pair[1])
            return i
    if pred in (P.FCMP_ORD, P.FCMP_UNO):
        if not pm.matches(op0, _POS_ZERO_FP) and _never_nan(op0):
            return ic.replace_operand(i, 0, _fp_zero(ty))
        if not pm.matches(op1, _POS_ZERO_FP) and _never_nan(op1):
            return ic.replace_operand(i, 1, _fp_zero(ty))
    x = _fneg(op0)
    y = _fneg(op1)
    if x is not None and y is not None:
        return _fcmp(i.swapped_predicate, x, y, i)
    r = fold_fcmp_fneg_common_op(i)
    if r is not None:
        return r
    if i.has_one_use:
        user = next(iter(i.users))
        if isinstance(user, SelectInst) and _fp_select_pattern(user):
            return None
    if pm.matches(op1, _ANY_ZERO_FP) and not pm.matches(op1, _POS_ZERO_FP):
        return ic.replace_operand(i, 1, _fp_zero(ty))
    c = _apfloat(op1)
    if c is not None:
        sem = _sem(c)
        if sem is not None and apfloat.category(sem, c.bits) == apfloat.INF:
            p = pred.swapped if apfloat.is_negative(sem, c.bits) else pred
            if p == P.FCMP_OLT:
                return _fcmp(P.FCMP_ONE, op0, op1, i)
            if p == P.FCMP_OLE:
                return _fcmp(P.FCMP_ORD, op0, _fp_zero(ty), i)
            if p == P.FCMP_OGE:
                return _fcmp(P.FCMP_OEQ, op0, op1, i)
            if p == P.FCMP_ULT:
                return _fcmp(P.FCMP_UNE, op0, op1, i)
            if p == P.FCMP_UGT:
                return _fcmp(P.FCMP_UNO, op0, _fp_zero(ty), i)
            if p == P.FCMP_UGE:
                return _fcmp(P.FCMP_UEQ, op0, op1, i)
    if pm.matches(op1, _POS_ZERO_FP) and isinstance(op0, Instruction) and op0.opcode == "bitcast" and op0.has_one_use:
        src = op0.operands[0]
        if _elementwise_bitcast(src.type, op0.type):
            ipred = P.ICMP_EQ if pred == P.FCMP_OEQ else (P.ICMP_NE if pred == P.FCMP_UNE else None)
            if ipred is not None:
                w = scalar_width(src.type)
                mask_x = ic.builder.create_and(src, int_const(src.type, (1 << (w - 1)) - 1))
                return ICmpInst(ipred, mask_x, Constant.get_null_value(src.type))
    if isinstance(op0, Instruction) and isinstance(op1, Constant):
        lhsi = op0
        opc = lhsi.opcode
        if opc == "select":
            assert isinstance(lhsi, SelectInst)
            if pred.is_equality and pm.matches(op1, _ANY_ZERO_FP):
                t, f = lhsi.true_value, lhsi.false_value
                if _fneg(f) is t:
                    return ic.replace_operand(i, 0, t)
                xf = _fneg(t)
                if xf is not None and xf is f:
                    return ic.replace_operand(i, 0, xf)
            r = common.fold_op_into_select(ic, i, lhsi)
            if r is not None:
                return r
        elif opc == "fsub":
            if lhsi.has_one_use:
                r = fold_fcmp_fsub_into_fcmp(ic, i, lhsi, op1)
                if r is not None:
                    return r
        elif opc == "phi":
            assert isinstance(lhsi, PHINode)
            r = common.fold_op_into_phi(ic, i, lhsi)
            if r is not None:
                return r
        elif opc in ("sitofp", "uitofp"):
            r = fold_fcmp_int_to_fp_const(ic, i, lhsi, op1)
            if r is not None:
                return r
        elif opc == "fdiv":
            r = fold_fcmp_reciprocal_and_zero(i, lhsi, op1)
            if r is not None:
                return r
        elif opc == "load":
            from llvmpy_mid.ir.global_value import GlobalVariable
            from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
            from llvmpy_mid.ir.instructions.memory import LoadInst
            from llvmpy_mid.transform.instcombine.compares_const import fold_cmp_load_from_indexed_global

            gep = lhsi.operands[0]
            if isinstance(gep, GetElementPtrInst) and isinstance(gep.operands[0], GlobalVariable):
                r = fold_cmp_load_from_indexed_global(ic, cast(LoadInst, lhsi), gep, gep.operands[0], i)
                if r is not None:
                    return r
    r = fold_fabs_with_fcmp_zero(ic, i)
    if r is not None:
        return r
    op0, op1 = i.lhs, i.rhs
    pred = i.predicate
    x = _fneg(op0)
    if x is not None and isinstance(op1, Constant):
        neg_c = constant_fold_unary_op_operand("fneg", op1, ic.dl)
        if neg_c is not None:
            return _fcmp(i.swapped_predicate, x, neg_c, i)
    if isinstance(op0, Instruction) and op0.opcode == "fadd" and pm.matches(op0.operands[1], _ANY_ZERO_FP):
        return _fcmp(pred, op0.operands[0], op1, i)
    if isinstance(op1, Instruction) and op1.opcode == "fadd" and pm.matches(op1.operands[1], _ANY_ZERO_FP):
        return _fcmp(pred, op0, op1.operands[0], i)
    if isinstance(op0, Instruction) and op0.opcode == "fpext":
        x = op0.operands[0]
        if isinstance(op1, Instruction) and op1.opcode == "fpext" and op1.operands[0].type is x.type:
            return _fcmp(pred, x, op1.operands[0], i)
        c = _apfloat(op1)
        if c is not None:
            r = _fold_fpext_const(ic, i, x, c)
            if r is not None:
                return r
    if isinstance(op0, CallInst) and op0.has_one_use and op0.intrinsic_base == "llvm.copysign" and pm.matches(op1, _ANY_ZERO_FP):
        c = _apfloat(op0.args[0])
        if c is not None and not c.is_zero_value and not c.is_nan and pred == P.FCMP_OLT:
            xs = op0.args[1]
            ctx = ty.context
            int_ty: Type = ctx.int_type(_fp_width(c))
            if isinstance(ty, VectorType):
                int_ty = ctx.vector_type(int_ty, ty.count, ty.scalable)
            ix = ic.builder.create_cast("bitcast", xs, int_ty)
            return ICmpInst(P.ICMP_SLT, ix, Constant.get_null_value(int_ty))
    canon_l = op0.args[0] if isinstance(op0, CallInst) and op0.intrinsic_base == "llvm.canonicalize" else None
    canon_r = op1.args[0] if isinstance(op1, CallInst) and op1.intrinsic_base == "llvm.canonicalize" else None
    if canon_l is not None and canon_l is op1:
        return _fcmp(pred, op1, op1, i)
    if canon_r is not None and canon_r is op0:
        return _fcmp(pred, op0, op0, i)
    if canon_l is not None and canon_r is not None:
        return _fcmp(pred, canon_l, canon_r, i)
    if isinstance(i.type, VectorType):
        from llvmpy_mid.transform.instcombine.compares import fold_vector_cmp

        r = fold_vector_cmp(ic, i)
        if r is not None:
            return r
    return i if changed else None


def _fp_width(c: ConstantFP) -> int:
    sem = _sem(c)
    return sem.width if sem is not None else 64


def _elementwise_bitcast(src: Type, dst: Type) -> bool:
    """``m_ElementWiseBitCast``: scalar to scalar, or vectors of one element count."""
    if isinstance(src, VectorType) != isinstance(dst, VectorType):
        return False
    if isinstance(src, VectorType) and isinstance(dst, VectorType) and (src.count != dst.count or src.scalable != dst.scalable):
        return False
    return isinstance(src.scalar_type, IntegerType)


def _fp_const_is(v: Value, test: str) -> bool:
    """ValueTracking's local ``isKnownNonZero``/``isKnownNonNaN`` for FP constants (splats too)."""
    c = _apfloat(v)
    if c is None:
        return False
    if test == "nonzero":
        return not c.is_zero_value
    return not c.is_nan


def _fp_select_pattern(si: SelectInst) -> bool:
    """``matchSelectPattern`` finds a flavor (integer min/max/abs, or an FP min/max of an
    fcmp whose operands the select picks)."""
    if match_select_pattern(si)[0] != UNKNOWN:
        return True
    cond = si.condition
    if not isinstance(cond, FCmpInst):
        return False
    a, b = cond.lhs, cond.rhs
    t, f = si.true_value, si.false_value
    if not ((t is a and f is b) or (t is b and f is a)):
        return False
    pred = cond.predicate
    if pred in (P.FCMP_OEQ, P.FCMP_ONE, P.FCMP_UEQ, P.FCMP_UNE, P.FCMP_ORD, P.FCMP_UNO, P.FCMP_TRUE, P.FCMP_FALSE):
        return False
    fmf = int(cond.fast_math_flags)
    if pred in (P.FCMP_OGE, P.FCMP_OLE, P.FCMP_UGE, P.FCMP_ULE):
        if not (fmf & FastMathFlags.NSZ) and not _fp_const_is(a, "nonzero") and not _fp_const_is(b, "nonzero"):
            return False
    if fmf & FastMathFlags.NNAN:
        return True
    return _fp_const_is(a, "nonnan") or _fp_const_is(b, "nonnan")


def _fold_fpext_const(ic: InstCombiner, i: FCmpInst, x: Value, c: ConstantFP) -> Instruction | None:
    """fcmp (fpext X), C -> fcmp X, (fptrunc C) when lossless; impossible equalities fold."""
    src_sem = apfloat.semantics_of(x.type.scalar_type.type_id)
    csem = _sem(c)
    if src_sem is None or csem is None:
        return None
    t_bits = apfloat.convert(csem, src_sem, c.bits)
    back = apfloat.convert(src_sem, csem, t_bits)
    lossy = back != c.bits and not (apfloat.category(csem, c.bits) == apfloat.NAN)
    pred = i.predicate
    if lossy:
        if pred == P.FCMP_OEQ:
            return ic.replace_inst_uses_with(i, int_const(i.type, 0))
        if pred == P.FCMP_ONE:
            return FCmpInst(P.FCMP_ORD, x, _fp_zero(x.type), fast_math_flags=i.fast_math_flags)
        if pred == P.FCMP_UEQ:
            return FCmpInst(P.FCMP_UNO, x, _fp_zero(x.type), fast_math_flags=i.fast_math_flags)
        if pred == P.FCMP_UNE:
            return ic.replace_inst_uses_with(i, int_const(i.type, 1))
        return None
    cat = apfloat.category(src_sem, t_bits)
    fabs = t_bits & ~(1 << (src_sem.width - 1))
    smallest_normal = (1 << src_sem.frac_bits) if not src_sem.explicit_int else (1 << src_sem.frac_bits) | (1 << (src_sem.frac_bits - 1))
    is_zero = cat == apfloat.ZERO
    below = cat != apfloat.NAN and apfloat.compare(src_sem, fabs, smallest_normal) == apfloat.CMP_LESS
    if is_zero or not below:
        nc = ConstantFP.from_bits(x.type.scalar_type, t_bits)
        newc: Constant = nc
        if isinstance(x.type, VectorType):
            newc = ConstantVector.get_splat(x.type, nc)
        return _fcmp(pred, x, newc, i)
    return None


__all__ = ["visit_fcmp"]
