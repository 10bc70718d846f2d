"""InstCombine folds of ``mul``, ``fmul``, ``udiv``, ``sdiv``, ``fdiv``, ``urem``, ``srem``
and ``frem`` (LLVM ``lib/Transforms/InstCombine/InstCombineMulDivRem.cpp``).

Each visitor follows LLVM 19's order of attempts: InstructionSimplify first, the
shared helpers of :mod:`.common`, then the family's folds (``commonIDivTransforms``,
``commonIRemTransforms``, ``takeLog2`` ...).

Not done (yet): ``foldFMulReassoc`` and the other ``reassoc``/``arcp`` fmul/fdiv folds
(a visitor stops at that point rather than firing a later fold LLVM would not
reach), ``foldPowiReassoc``, the fdiv ``tan``/``pow``/``sqrt`` folds, fmul of a
simple recurrence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.instruction_simplify import (
    simplify_fdiv_inst,
    simplify_fmul_inst,
    simplify_frem_inst,
    simplify_icmp_inst,
    simplify_mul_inst,
    simplify_sdiv_inst,
    simplify_srem_inst,
    simplify_udiv_inst,
    simplify_urem_inst,
)
from llvmpy_mid.analysis.instsimplify._util import all_ones, const_int, null
from llvmpy_mid.analysis.known_bits_analysis import is_known_non_negative
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_not_to_be_undef
from llvmpy_mid.analysis.value_tracking_support import is_known_negation
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantVector,
    UndefValue,
)
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.pattern_match import (
    Pattern,
    m_add,
    m_all_ones,
    m_and,
    m_apint,
    m_ashr,
    m_c_binop,
    m_c_fmul,
    m_c_mul,
    m_combine_or,
    m_constant,
    m_cst_pred,
    m_deferred,
    m_fneg,
    m_imm_constant,
    m_intrinsic,
    m_lshr,
    m_mul,
    m_neg,
    m_negative,
    m_non_negative,
    m_not,
    m_nsw_mul,
    m_nsw_shl,
    m_nuw_mul,
    m_nuw_shl,
    m_one,
    m_one_use,
    m_or,
    m_power2,
    m_select,
    m_sext,
    m_shl,
    m_sign_mask,
    m_specific,
    m_specific_int,
    m_sub,
    m_uitofp,
    m_value,
    m_zext,
    match,
)
from llvmpy_mid.ir.types import VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common as cm
from llvmpy_mid.transform.instcombine.add_sub import (
    _call_if_present,
    create_fbin_fmf,
    create_fneg_fmf,
    is_bool_ty,
    new_fbin,
    new_fneg,
    scalar_bits,
)
from llvmpy_mid.transform.instcombine.negator import negate

if TYPE_CHECKING:
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def _sx(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


def _is_neg_pow2(c: Constant) -> bool:
    assert isinstance(c, ConstantInt)
    n = -c.value & c.type.mask
    return n != 0 and n & (n - 1) == 0


def m_negated_power2(name: str | None = None) -> Pattern:
    """``-C`` is a power of two (LLVM ``m_NegatedPower2``)."""
    return m_cst_pred(_is_neg_pow2, name)


def _is_pow2_fp_const(c: Constant, v: float) -> bool:
    return isinstance(c, ConstantFP) and c.value == v


def m_specific_fp(v: float) -> Pattern:
    """LLVM ``m_SpecificFP(V)`` (splats too)."""
    return m_cst_pred(lambda c: isinstance(c, ConstantFP) and not c.is_nan and c.value == v, int_only=False)


def get_exact_log_base2(c: Constant) -> Constant | None:
    """``ConstantExpr::getExactLogBase2``: log2 of each lane that is a power of two
    (an undef lane gives 0), else None."""
    if isinstance(c, ConstantInt):
        v = c.value
        if v == 0 or v & (v - 1):
            return None
        return ConstantInt.get(c.type, v.bit_length() - 1)
    ty = c.type
    if not isinstance(ty, VectorType):
        return None
    from llvmpy_mid.ir.constants import get_splat_value

    s = get_splat_value(c)
    if isinstance(s, ConstantInt):
        r = get_exact_log_base2(s)
        return ConstantVector.get_splat(ty, r) if r is not None else None
    if ty.scalable or not isinstance(c, (ConstantVector, ConstantDataVector)):
        return None
    elts: list[Constant] = []
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if isinstance(e, UndefValue):
            elts.append(Constant.get_null_value(ty.element_type))
            continue
        if not isinstance(e, ConstantInt):
            return None
        r = get_exact_log_base2(e)
        if r is None:
            return None
        elts.append(r)
    return ConstantVector.get(elts)


def _not_min_signed(c: Constant) -> bool:
    if isinstance(c, ConstantInt):
        return c.value != 1 << (c.type.width - 1)
    from llvmpy_mid.ir.constants import get_splat_value

    sp = get_splat_value(c)
    if isinstance(sp, ConstantInt):
        return sp.value != 1 << (sp.type.width - 1)
    ty = c.type
    if isinstance(ty, VectorType) and not ty.scalable:
        for k in range(ty.count):
            e = c.get_aggregate_element(k)
            if not isinstance(e, ConstantInt) or e.value == 1 << (e.type.width - 1):
                return False
        return True
    return False


def _fmf(i: Value) -> int:
    return int(getattr(i, "fast_math_flags", 0))


# --- mul --------------------------------------------------------------------------------------


def _simplify_value_known_non_zero(ic: InstCombiner, v: Value, cxt: Instruction) -> Value | None:
    """A divisor known non-zero: ``(1 << A) >>u B -> 1 << (A - B)``; flags on power-of-two shifts."""
    if not v.has_one_use:
        return None
    made_change = False
    m = match(v, m_lshr(m_one_use(m_shl(m_value("one"), m_value("a"))), m_value("b")))
    if m is not None and match(m.value("one"), m_one()) is not None:
        a = ic.builder.create_sub(m.value("a"), m.value("b"))
        return ic.builder.create_shl(m.value("one"), a)
    if isinstance(v, BinaryOperator) and v.opcode in ("shl", "lshr") and ic.is_known_to_be_a_power_of_two(
        v.operands[0], False, 0, cxt
    ):
        v2 = _simplify_value_known_non_zero(ic, v.operands[0], cxt)
        if v2 is not None:
            ic.replace_operand(v, 0, v2)
            made_change = True
        if v.opcode == "lshr" and not v.exact:
            v.exact = True
            made_change = True
        if v.opcode == "shl" and not v.nuw:
            v.nuw = True
            made_change = True
    return v if made_change else None


def _fold_mul_select_to_negate(ic: InstCombiner, i: BinaryOperator) -> Value | None:
    """``X * (C ? 1 : -1) -> C ? X : -X`` and the fmul form."""
    b = ic.builder
    if i.opcode == "mul":
        any_nw = bool(i.nsw or i.nuw)
        m = match(i, m_c_mul(m_one_use(m_select(m_value("c"), m_one(), m_all_ones())), m_value("x")))
        if m is not None:
            x = m.value("x")
            neg = b.create_neg(x, "", nsw=any_nw)
            return b.create_select(m.value("c"), x, neg)
        m = match(i, m_c_mul(m_one_use(m_select(m_value("c"), m_all_ones(), m_one())), m_value("x")))
        if m is not None:
            x = m.value("x")
            neg = b.create_neg(x, "", nsw=any_nw)
            return b.create_select(m.value("c"), neg, x)
        return None
    fmf = _fmf(i)
    one, mone = m_specific_fp(1.0), m_specific_fp(-1.0)
    m = match(i, m_c_fmul(m_one_use(m_select(m_value("c"), one, mone)), m_value("x")))
    if m is not None:
        x = m.value("x")
        return b.create_select(m.value("c"), x, b.create_fneg(x, fast_math_flags=fmf), fast_math_flags=fmf)
    m = match(i, m_c_fmul(m_one_use(m_select(m_value("c"), mone, one)), m_value("x")))
    if m is not None:
        x = m.value("x")
        return b.create_select(m.value("c"), b.create_fneg(x, fast_math_flags=fmf), x, fast_math_flags=fmf)
    return None


def _fold_mul_shl1(ic: InstCombiner, mul: BinaryOperator, commute: bool) -> Value | None:
    """``X * (1 << Z) -> X << Z``; ``X * ((1 << Z) + 1) -> (X << Z) + X``; ``X * ~(-1 << Z) -> (X << Z) - X``."""
    x, y = mul.operands[0], mul.operands[1]
    if commute:
        x, y = y, x
    has_nsw, has_nuw = bool(mul.nsw), bool(mul.nuw)
    b = ic.builder
    m = match(y, m_shl(m_one(), m_value("z")))
    if m is not None:
        pnsw = has_nsw and bool(y.nsw)  # type: ignore[attr-defined]
        return b.create_shl(x, m.value("z"), mul.name, nuw=has_nuw, nsw=pnsw)
    m = match(y, m_one_use(m_add(m_value("shift"), m_one())))
    if m is not None:
        shift = m.value("shift")
        m2 = match(shift, m_one_use(m_shl(m_one(), m_value("z"))))
        if m2 is not None:
            pnsw = has_nsw and bool(shift.nsw)  # type: ignore[attr-defined]
            frx = x
            if not is_guaranteed_not_to_be_undef(x):
                frx = b.create_freeze(x, x.name + ".fr")
            shl = b.create_shl(frx, m2.value("z"), "mulshl", nuw=has_nuw, nsw=pnsw)
            return b.create_add(shl, frx, mul.name, nuw=has_nuw, nsw=pnsw)
    m = match(y, m_one_use(m_not(m_one_use(m_shl(m_all_ones(), m_value("z"))))))
    if m is not None:
        frx = x
        if not is_guaranteed_not_to_be_undef(x):
            frx = b.create_freeze(x, x.name + ".fr")
        shl = b.create_shl(frx, m.value("z"), "mulshl")
        return b.create_sub(shl, frx, mul.name)
    return None


def _udiv_check(c: int, c1: int) -> bool:
    return c1 != 0 and c % c1 == 0


def visit_mul(ic: InstCombiner, i: Instruction) -> Instruction | None:  # noqa: C901 - LLVM's order
    """Fold a ``mul`` (LLVM ``InstCombinerImpl::visitMul``)."""
    assert isinstance(i, BinaryOperator)
    op0, op1 = i.operands[0], i.operands[1]
    v = simplify_mul_inst(op0, op1, bool(i.nsw), bool(i.nuw), ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if cm.simplify_associative_or_commutative(ic, i):
        return i
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    v = cm.fold_using_distributive_laws(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    w = scalar_bits(ty)
    mask = (1 << w) - 1
    has_nsw, has_nuw = bool(i.nsw), bool(i.nuw)
    b = ic.builder
    if match(op1, m_all_ones()) is not None:
        return BinaryOperator.create("sub", null(ty), op0, nsw=has_nsw)
    m = match(i, m_mul(m_shl(m_value("x"), m_imm_constant("c2")), m_imm_constant("c1")))
    if m is not None and match(m.constant("c1"), m_apint()) is not None:
        from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands

        shl = constant_fold_binary_op_operands("shl", m.constant("c1"), m.constant("c2"), ic.dl)
        assert shl is not None
        bo = BinaryOperator.create("mul", m.value("x"), shl)
        if has_nuw and op0.nuw:  # type: ignore[attr-defined]
            bo.nuw = True
        if has_nsw and op0.nsw and _not_min_signed(shl):  # type: ignore[attr-defined]
            bo.nsw = True
        return bo
    if isinstance(op1, Constant):
        new_cst = get_exact_log_base2(op1)
        if new_cst is not None:
            shl_i = BinaryOperator.create("shl", op0, new_cst)
            if has_nuw:
                shl_i.nuw = True
            if has_nsw:
                mv = match(new_cst, m_apint("v"))
                if mv is not None and mv.apint("v") != w - 1:
                    shl_i.nsw = True
            return shl_i
    if op0.has_one_use and match(op1, m_negated_power2()) is not None:
        assert isinstance(op1, Constant)
        neg0 = negate(ic, op0, has_nsw, True)
        if neg0 is not None:
            return ic.replace_inst_uses_with(
                i, b.create_mul(neg0, ConstantExpr.get_neg(op1), "", nsw=has_nsw and _not_min_signed(op1))
            )
        o0 = getattr(op0, "opcode", None)
        m = match(op1, m_apint("c", allow_poison=True))
        if (o0 == "zext" or o0 == "sext") and m is not None:
            x = op0.operands[0]  # type: ignore[attr-defined]
            sw = scalar_bits(x.type)
            c = m.apint("c")
            sh = (c & -c).bit_length() - 1
            if sh >= w - sw:
                n = b.create_neg(x, x.name + ".neg")
                z = b.create_zext(n, ty, n.name + ".z")
                return BinaryOperator.create("shl", z, const_int(ty, sh))
    r = cm.fold_binop_into_select_or_phi(ic, i)
    if r is not None:
        return r
    v = _fold_mul_select_to_negate(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if match(op1, m_imm_constant()) is not None:
        assert isinstance(op1, Constant)
        o0 = getattr(op0, "opcode", None)
        if op0.has_one_use and (o0 == "add" or o0 == "or" and op0.disjoint):  # type: ignore[attr-defined]
            x, c1 = op0.operands[0], op0.operands[1]  # type: ignore[attr-defined]
            if match(c1, m_imm_constant()) is not None:
                new_c = b.create_mul(c1, op1)
                op0_nuw = o0 == "or" or bool(op0.nuw)  # type: ignore[attr-defined]
                new_mul = b.create_mul(x, op1)
                bo = BinaryOperator.create("add", new_mul, new_c)
                if has_nuw and op0_nuw:
                    if isinstance(new_mul, BinaryOperator):
                        new_mul.nuw = True
                    bo.nuw = True
                return bo
    if op0 is op1:
        m = match(op0, m_intrinsic("abs", m_value("x")))
        if m is not None:
            return BinaryOperator.create("mul", m.value("x"), m.value("x"))
    if has_nsw:
        m = match(op0, m_one_use(m_intrinsic("abs", m_value("x"), m_one())))
        m2 = match(op1, m_one_use(m_intrinsic("abs", m_value("y"), m_one()))) if m is not None else None
        if m is not None and m2 is not None:
            prod = b.create_mul(m.value("x"), m2.value("y"), nsw=True)
            return ic.replace_inst_uses_with(i, b.create_binary_intrinsic("abs", prod, ConstantInt.get_true(ty)))
    m = match(op0, m_neg(m_value("x")))
    if m is not None and isinstance(op1, Constant):
        return BinaryOperator.create("mul", m.value("x"), ConstantExpr.get_neg(op1))
    if m is not None:
        m2 = match(op1, m_neg(m_value("y")))
        if m2 is not None:
            nm = BinaryOperator.create("mul", m.value("x"), m2.value("y"))
            if has_nsw and op0.nsw and op1.nsw:  # type: ignore[attr-defined]
                nm.nsw = True
            return nm
    m = match(i, m_c_mul(m_one_use(m_neg(m_value("x"))), m_value("y")))
    if m is not None:
        return BinaryOperator.create("sub", null(ty), b.create_mul(m.value("x"), m.value("y")))
    m = match(op1, m_neg(m_value("x")))
    if m is not None:
        neg0 = negate(ic, op0, False, False)
        if neg0 is not None:
            return BinaryOperator.create("mul", neg0, m.value("x"))
    if op0.has_one_use:
        m = match(op1, m_apint("c1"))
        if m is not None:
            c1 = m.apint("c1")
            o0 = getattr(op0, "opcode", None)
            if o0 in ("udiv", "sdiv") and op0.exact:  # type: ignore[attr-defined]
                mc = match(op0.operands[1], m_apint("c"))  # type: ignore[attr-defined]
                ok = False
                if mc is not None and c1 != 0:
                    c = mc.apint("c")
                    if o0 == "udiv":
                        ok = c % c1 == 0
                    else:
                        cs, c1s = _sx(c, w), _sx(c1, w)
                        q = abs(cs) // abs(c1s) * (1 if (cs < 0) == (c1s < 0) else -1)
                        rm = cs - q * c1s
                        ok = rm == 0 and q & mask != mask
                if ok:
                    return BinaryOperator.create(
                        o0, op0.operands[0], b.create_bin_op(o0, op0.operands[1], op1), exact=True  # type: ignore[attr-defined]
                    )
    y_v: Value = op1
    div = op0
    if getattr(div, "opcode", None) not in ("udiv", "sdiv"):
        y_v = op0
        div = op1
    neg_y = cm.dyn_cast_neg_val(y_v)
    if (
        getattr(div, "opcode", None) in ("udiv", "sdiv")
        and div.has_one_use
        and (div.operands[1] is y_v or div.operands[1] is neg_y)  # type: ignore[attr-defined]
    ):
        x = div.operands[0]  # type: ignore[attr-defined]
        dop1: Value = div.operands[1]  # type: ignore[attr-defined,assignment]
        if div.exact:  # type: ignore[attr-defined]
            if dop1 is y_v:
                return ic.replace_inst_uses_with(i, x)
            return BinaryOperator.create("sub", null(ty), x)
        rem_opc = "urem" if div.opcode == "udiv" else "srem"  # type: ignore[attr-defined]
        xf = x
        if not is_guaranteed_not_to_be_undef(x):
            xf = b.create_freeze(x, x.name + ".fr")
        rem = b.create_bin_op(rem_opc, xf, dop1)
        if dop1 is y_v:
            return BinaryOperator.create("sub", xf, rem)
        return BinaryOperator.create("sub", rem, xf)
    if is_bool_ty(ty) or (
        match(op0, m_and(m_value(), m_one())) is not None and match(op1, m_and(m_value(), m_one())) is not None
    ):
        return BinaryOperator.create("and", op0, op1)
    v = _fold_mul_shl1(ic, i, False)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    v = _fold_mul_shl1(ic, i, True)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    o0, o1 = getattr(op0, "opcode", None), getattr(op1, "opcode", None)
    if o0 in ("zext", "sext") and o0 == o1:
        x, y = op0.operands[0], op1.operands[0]  # type: ignore[attr-defined]
        if is_bool_ty(x.type) and x.type is y.type and (op0.has_one_use or op1.has_one_use or x is y):
            and_v = b.create_and(x, y, "mulbool")
            return CastInst.create("zext", and_v, ty)
    if {o0, o1} == {"zext", "sext"}:
        x, y = op0.operands[0], op1.operands[0]  # type: ignore[attr-defined]
        if is_bool_ty(x.type) and x.type is y.type and (op0.has_one_use or op1.has_one_use):
            and_v = b.create_and(x, y, "mulbool")
            return CastInst.create("sext", and_v, ty)
    if o0 == "zext" and is_bool_ty(op0.operands[0].type):  # type: ignore[attr-defined]
        return SelectInst(op0.operands[0], op1, null(ty))  # type: ignore[attr-defined]
    if o1 == "zext" and is_bool_ty(op1.operands[0].type):  # type: ignore[attr-defined]
        return SelectInst(op1.operands[0], op0, null(ty))  # type: ignore[attr-defined]
    m = match(i, m_c_mul(m_one_use(m_sext(m_value("x"))), m_value("y")))
    if m is not None and is_bool_ty(m.value("x").type):
        return SelectInst(m.value("x"), b.create_neg(m.value("y"), "", nsw=has_nsw), null(op0.type))
    if match(op1, m_imm_constant()) is not None:
        assert isinstance(op1, Constant)
        if o0 == "sext" and is_bool_ty(op0.operands[0].type):  # type: ignore[attr-defined]
            return SelectInst(op0.operands[0], ConstantExpr.get_neg(op1), null(ty))  # type: ignore[attr-defined]
        m = match(op0, m_one_use(m_ashr(m_value("x"), m_apint("c"))))
        if m is not None and m.apint("c") == w - 1:
            is_neg = b.create_is_neg(m.value("x"), "isneg")
            return SelectInst(is_neg, ConstantExpr.get_neg(op1), null(ty))
    m = match(i, m_c_binop(m_lshr(m_value("x"), m_apint("c")), m_value("y")))
    if m is not None and m.apint("c") == w - 1:
        is_neg = b.create_is_neg(m.value("x"), "isneg")
        return SelectInst(is_neg, m.value("y"), null(ty))
    m = match(i, m_c_binop(m_one_use(m_and(m_value("x"), m_one())), m_value("y")))
    if m is not None:
        from llvmpy_mid.analysis.instsimplify._util import compare_type

        tr = b.create_trunc(m.value("x"), compare_type(ty))
        return SelectInst(tr, m.value("y"), null(ty))
    m = match(
        i,
        m_c_binop(m_or(m_ashr(m_value("x"), m_apint("sh", allow_poison=True)), m_one()), m_deferred("x")),
    )
    if m is not None and m.apint("sh") == w - 1:
        abs_v = b.create_binary_intrinsic("abs", m.value("x"), ConstantInt.get(ty.context.i1, int(has_nsw)))
        from llvmpy_mid.transform.instcombine.combiner import take_name

        take_name(abs_v, i)
        return ic.replace_inst_uses_with(i, abs_v)
    r = cm.narrow_math_if_no_overflow(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_of_select_and_cast_of_select_condition(ic, i)
    if r is not None:
        return r
    if take_log2(ic, op0, 0, False, False) is not None:
        res = take_log2(ic, op0, 0, False, True)
        assert isinstance(res, Value)
        shl_i = BinaryOperator.create("shl", op1, res)
        shl_i.nuw = has_nuw
        return shl_i
    if take_log2(ic, op1, 0, False, False) is not None:
        res = take_log2(ic, op1, 0, False, True)
        assert isinstance(res, Value)
        shl_i = BinaryOperator.create("shl", op0, res)
        shl_i.nuw = has_nuw
        return shl_i
    changed = False
    if not has_nsw and cm.will_not_overflow(ic, "mul", op0, op1, i, True):
        changed = True
        i.nsw = True
    if not has_nuw and _will_not_overflow_unsigned_mul(ic, op0, op1, i, bool(i.nsw)):
        changed = True
        i.nuw = True
    return i if changed else None


def _will_not_overflow_unsigned_mul(ic: InstCombiner, op0: Value, op1: Value, i: Instruction, is_nsw: bool) -> bool:
    """``willNotOverflowUnsignedMul(LHS, RHS, CxtI, IsNSW)``."""
    from llvmpy_mid.analysis.constant_range import OverflowResult
    from llvmpy_mid.analysis.overflow_analysis import compute_overflow_for_unsigned_mul

    r = compute_overflow_for_unsigned_mul(op0, op1, ic.query(i), is_nsw)
    return bool(r == OverflowResult.NEVER_OVERFLOWS)


# --- takeLog2 --------------------------------------------------------------------------------------

MAX_LOG2_DEPTH = 6
_POISON_MARK: Value | None = None


class _Marker:
    """The "would succeed" answer of ``takeLog2`` when not folding."""


_CAN = _Marker()


def take_log2(ic: InstCombiner, op: Value, depth: int, assume_non_zero: bool, do_fold: bool) -> Value | _Marker | None:
    """``log2(op)`` built from ``op``'s parts when ``op`` is a power of two by
    construction (LLVM ``takeLog2``); without ``do_fold`` only says whether it can
    (returns a marker)."""
    if match(op, m_power2()) is not None:
        if not do_fold:
            return _CAN
        assert isinstance(op, Constant)
        c = get_exact_log_base2(op)
        assert c is not None
        return c
    if depth == MAX_LOG2_DEPTH:
        return None
    depth += 1
    b = ic.builder
    m = match(op, m_zext(m_value("x")))
    if m is not None:
        lx = take_log2(ic, m.value("x"), depth, assume_non_zero, do_fold)
        if lx is not None:
            if not do_fold:
                return _CAN
            assert isinstance(lx, Value)
            return b.create_zext(lx, op.type)
    m = match(op, m_shl(m_value("x"), m_value("y")))
    if m is not None and (assume_non_zero or op.nuw or op.nsw):  # type: ignore[attr-defined]
        lx = take_log2(ic, m.value("x"), depth, assume_non_zero, do_fold)
        if lx is not None:
            if not do_fold:
                return _CAN
            assert isinstance(lx, Value)
            return b.create_add(lx, m.value("y"))
    if isinstance(op, SelectInst):
        lx = take_log2(ic, op.operands[1], depth, assume_non_zero, do_fold)
        if lx is not None:
            ly = take_log2(ic, op.operands[2], depth, assume_non_zero, do_fold)
            if ly is not None:
                if not do_fold:
                    return _CAN
                assert isinstance(lx, Value) and isinstance(ly, Value)
                return b.create_select(op.operands[0], lx, ly)
    base = getattr(op, "intrinsic_base", "") if getattr(op, "opcode", None) == "call" else ""
    if base in ("llvm.umin", "llvm.umax") and op.has_one_use:
        lx = take_log2(ic, op.operands[0], depth, False, do_fold)  # type: ignore[attr-defined]
        if lx is not None:
            ly = take_log2(ic, op.operands[1], depth, False, do_fold)  # type: ignore[attr-defined]
            if ly is not None:
                if not do_fold:
                    return _CAN
                assert isinstance(lx, Value) and isinstance(ly, Value)
                return b.create_binary_intrinsic(base[5:], lx, ly)
    return None


# --- div / rem ---------------------------------------------------------------------------------------


def _simplify_div_rem_of_select_with_zero_op(ic: InstCombiner, i: BinaryOperator) -> bool:
    """``X / (C ? 0 : Y) -> X / Y`` (division by zero is UB); earlier uses of the
    select and its condition in the block learn the same."""
    si = i.operands[1]
    if not isinstance(si, SelectInst):
        return False
    if match(si.true_value, m_zero_any()) is not None:
        non_null = 2
    elif match(si.false_value, m_zero_any()) is not None:
        non_null = 1
    else:
        return False
    ic.replace_operand(i, 1, si.operands[non_null])
    cond: Value | None = si.condition
    sel: Value | None = si
    assert cond is not None
    if si.use_empty and cond.has_one_use:
        return True
    cond_ty = cond.type
    from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor

    bbi = i.prev_instruction
    while bbi is not None:
        if not is_guaranteed_to_transfer_execution_to_successor(bbi):
            break
        for k, opv in enumerate(bbi.operands):
            if sel is not None and opv is sel:
                ic.replace_operand(bbi, k, si.operands[non_null])  # replaceUse: the old value is revisited
                ic.worklist.push(bbi)
            elif cond is not None and opv is cond:
                ic.replace_operand(bbi, k, const_int(cond_ty, 1 if non_null == 1 else 0))
                ic.worklist.push(bbi)
        if bbi is sel:
            sel = None
        if bbi is cond:
            cond = None
        if cond is None and sel is None:
            break
        bbi = bbi.prev_instruction
    return True


def m_zero_any() -> Pattern:
    from llvmpy_mid.ir.pattern_match import m_zero

    return m_zero()


def _mul_overflows(c1: int, c2: int, w: int, signed: bool) -> tuple[bool, int]:
    if signed:
        p = _sx(c1, w) * _sx(c2, w)
        return not -(1 << (w - 1)) <= p < 1 << (w - 1), p & ((1 << w) - 1)
    p = c1 * c2
    return p >= 1 << w, p & ((1 << w) - 1)


def _sdivrem(a: int, b: int) -> tuple[int, int]:
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    return q, a - q * b


def _is_multiple(c1: int, c2: int, w: int, signed: bool) -> int | None:
    """``isMultiple``: the quotient when ``c1`` is a multiple of ``c2``, else None."""
    if c2 == 0:
        return None
    mask = (1 << w) - 1
    if signed:
        if c1 == 1 << (w - 1) and c2 == mask:
            return None
        q, r = _sdivrem(_sx(c1, w), _sx(c2, w))
        return q & mask if r == 0 else None
    q, r = divmod(c1, c2)
    return q if r == 0 else None


def _fold_idiv_shl(ic: InstCombiner, i: BinaryOperator) -> Value | None:
    """``(X * Y) / (X << Z) -> Y >> Z`` and the other shl-divisor forms (LLVM ``foldIDivShl``)."""
    signed = i.opcode == "sdiv"
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    b = ic.builder
    m = match(op1, m_shl(m_value("x"), m_value("z")))
    if m is not None:
        x, z = m.value("x"), m.value("z")
        m2 = match(op0, m_c_mul(m_specific(x), m_value("y")))
        if m2 is not None:
            has_nuw = bool(op0.nuw and op1.nuw)  # type: ignore[attr-defined]
            has_nsw = bool(op0.nsw and op1.nsw)  # type: ignore[attr-defined]
            if not signed and has_nuw:
                return b.create_lshr(m2.value("y"), z, "", exact=bool(i.exact))
            if signed and has_nsw and (op0.has_one_use or op1.has_one_use):
                shl = b.create_shl(const_int(ty, 1), z)
                return b.create_bin_op("sdiv", m2.value("y"), shl, "", exact=bool(i.exact))
    m = match(op0, m_shl(m_value("x"), m_value("z")))
    if m is not None:
        x, z = m.value("x"), m.value("z")
        m2 = match(op1, m_shl(m_value("y"), m_specific(z)))
        if m2 is not None:
            s0, s1 = op0, op1
            if not signed and (
                (s0.nuw and s1.nuw) or (s0.nuw and s0.nsw and s1.nsw)  # type: ignore[attr-defined]
            ):
                return b.create_bin_op("udiv", x, m2.value("y"), "", exact=bool(i.exact))
            if signed and s0.nsw and s1.nsw and s1.nuw:  # type: ignore[attr-defined]
                return b.create_bin_op("sdiv", x, m2.value("y"), "", exact=bool(i.exact))
    m = match(op0, m_shl(m_value("x"), m_value("y")))
    if m is not None:
        x, y = m.value("x"), m.value("y")
        m2 = match(op1, m_shl(m_specific(x), m_value("z")))
        if m2 is not None:
            s0, s1 = op0, op1
            ok = (s0.nsw and s1.nsw) if signed else (s0.nuw and s1.nuw)  # type: ignore[attr-defined]
            if ok:
                one = const_int(x.type, 1)
                nsw = bool(s0.nuw or s1.nuw) if signed else bool(s0.nsw)  # type: ignore[attr-defined]
                dividend = b.create_shl(one, y, "shl.dividend", nuw=True, nsw=nsw)
                return b.create_lshr(dividend, m2.value("z"), "", exact=bool(i.exact))
    return None


def common_idiv_transforms(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:  # noqa: C901
    """The folds udiv and sdiv share (LLVM ``commonIDivTransforms``)."""
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    signed = i.opcode == "sdiv"
    ty = i.type
    w = scalar_bits(ty)
    mask = (1 << w) - 1
    b = ic.builder
    v = _simplify_value_known_non_zero(ic, op1, i)
    if v is not None:
        return ic.replace_operand(i, 1, v)
    if _simplify_div_rem_of_select_with_zero_op(ic, i):
        return i
    if match(op0, m_imm_constant()) is not None and match(
        op1, m_select(m_value(), m_imm_constant(), m_imm_constant())
    ) is not None:
        assert isinstance(op1, SelectInst)
        r = cm.fold_op_into_select(ic, i, op1, True)
        if r is not None:
            return r
    m = match(op1, m_apint("c2"))
    if m is not None:
        c2 = m.apint("c2")
        mc = match(op0, m_binop_with_apint(i.opcode))
        if mc is not None:
            ov, prod = _mul_overflows(mc.apint("c1"), c2, w, signed)
            if not ov:
                return BinaryOperator.create(i.opcode, mc.value("x"), const_int(ty, prod))
        mc = match(op0, (m_nsw_mul if signed else m_nuw_mul)(m_value("x"), m_apint("c1")))
        if mc is not None:
            c1 = mc.apint("c1")
            x = mc.value("x")
            q = _is_multiple(c2, c1, w, signed)
            if q is not None:
                nd = BinaryOperator.create(i.opcode, x, const_int(ty, q))
                nd.exact = bool(i.exact)
                return nd
            q = _is_multiple(c1, c2, w, signed)
            if q is not None:
                mul = BinaryOperator.create("mul", x, const_int(ty, q))
                mul.nuw = not signed and bool(op0.nuw)  # type: ignore[attr-defined]
                mul.nsw = bool(op0.nsw)  # type: ignore[attr-defined]
                return mul
        mc = match(op0, (m_nsw_shl if signed else m_nuw_shl)(m_value("x"), m_apint("c1")))
        if mc is not None and mc.apint("c1") < (w - 1 if signed else w):
            c1s = 1 << mc.apint("c1")
            x = mc.value("x")
            q = _is_multiple(c2, c1s, w, signed)
            if q is not None:
                bo = BinaryOperator.create(i.opcode, x, const_int(ty, q))
                bo.exact = bool(i.exact)
                return bo
            q = _is_multiple(c1s, c2, w, signed)
            if q is not None:
                mul = BinaryOperator.create("mul", x, const_int(ty, q))
                mul.nuw = not signed and bool(op0.nuw)  # type: ignore[attr-defined]
                mul.nsw = bool(op0.nsw)  # type: ignore[attr-defined]
                return mul
        inner = _nsw_add_like(op0) if signed else _nuw_add_like(op0)
        if inner is not None:
            a0, a1 = inner
            mc1 = match(a1, m_apint("c1"))
            mm = match(a0, (m_nsw_mul if signed else m_nuw_mul)(m_value("x"), m_specific_int(c2)))
            if mc1 is not None and mm is not None:
                c1 = mc1.apint("c1")
                if signed:
                    q = _is_multiple(c1, c2, w, True)
                    if q is not None:
                        return BinaryOperator.create("add", mm.value("x"), const_int(ty, q), nsw=True)
                elif c2 != 0:
                    return BinaryOperator.create("add", mm.value("x"), const_int(ty, c1 // c2), nuw=True)
        if c2 != 0:
            r = cm.fold_binop_into_select_or_phi(ic, i)
            if r is not None:
                return r
    if match(op0, m_one()) is not None:
        if signed:
            f1 = op1
            if not is_guaranteed_not_to_be_undef(op1):
                f1 = b.create_freeze(op1, op1.name + ".fr")
            inc = b.create_add(f1, op0)
            cmp = b.create_icmp(Predicate.ICMP_ULT, inc, const_int(ty, 3))
            return SelectInst(cmp, f1, const_int(ty, 0))
        return CastInst.create("zext", b.create_icmp(Predicate.ICMP_EQ, op1, op0), ty)
    if ic.simplify_demanded_instruction_bits(i):
        return i
    m = match(op0, m_sub(m_value("x"), m_value("z")))
    if m is not None:
        x, z = m.value("x"), m.value("z")
        rem_op = "srem" if signed else "urem"
        if getattr(z, "opcode", None) == rem_op and z.operands[0] is x and z.operands[1] is op1:  # type: ignore[attr-defined]
            return BinaryOperator.create(i.opcode, x, op1)
    m = match(op0, (m_nsw_shl if signed else m_nuw_shl)(m_specific(op1), m_value("y")))
    if m is not None:
        return BinaryOperator.create("shl", const_int(ty, 1), m.value("y"), nsw=signed, nuw=not signed)
    m = match(op1, m_c_mul(m_specific(op0), m_value("y")))
    if m is not None:
        if (signed and op1.nsw) or (not signed and op1.nuw):  # type: ignore[attr-defined]
            ic.replace_operand(i, 0, const_int(ty, 1))
            ic.replace_operand(i, 1, m.value("y"))
            return i
    if not signed and op1.has_one_use:
        m = match(op0, m_nuw_shl(m_value("x"), m_value("z")))
        if m is not None:
            m2 = match(op1, m_c_mul(m_specific(m.value("x")), m_value("y")))
            if m2 is not None and op1.nuw:  # type: ignore[attr-defined]
                nd = BinaryOperator.create(
                    "udiv", b.create_shl(const_int(ty, 1), m.value("z"), "", nuw=True), m2.value("y")
                )
                nd.exact = bool(i.exact)
                return nd
    v = _fold_idiv_shl(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if getattr(op0, "opcode", None) == i.opcode:
        m = match(op0.operands[0], m_c_mul(m_specific(op1), m_value("x")))  # type: ignore[attr-defined]
        if m is not None:
            inner_div = op0
            mul = op0.operands[0]  # type: ignore[attr-defined]
            y = op0.operands[1]  # type: ignore[attr-defined]
            nd2: BinaryOperator | None = None
            if not signed and mul.nuw:
                nd2 = BinaryOperator.create("udiv", m.value("x"), y)
            elif signed and mul.nsw:
                nd2 = BinaryOperator.create("sdiv", m.value("x"), y)
            if nd2 is not None:
                nd2.exact = bool(i.exact and inner_div.exact)  # type: ignore[attr-defined]
                return nd2
    m = match(op0, m_mul(m_value("x"), m_value("y")))
    if m is not None:
        x, y = m.value("x"), m.value("y")
        ob0_nsw, ob0_nuw = bool(op0.nsw), bool(op0.nuw)  # type: ignore[attr-defined]

        def create_div_or_null(a: Value, bb: Value) -> Instruction | None:
            ob1_nsw = bool(getattr(op1, "nsw", False))
            ob1_nuw = bool(getattr(op1, "nuw", False))
            if signed and ob0_nsw:
                mb = match(bb, m_apint("c1"))
                if ob1_nsw and mb is not None and mb.apint("c1") != mask:
                    return BinaryOperator.create("sdiv", a, bb)
            if not signed and ob0_nuw:
                if ob1_nuw:
                    return BinaryOperator.create("udiv", a, bb)
                ma, mb = match(a, m_apint("c1")), match(bb, m_apint("c2"))
                if ma is not None and mb is not None and mb.apint("c2") <= ma.apint("c1"):
                    return BinaryOperator.create("udiv", a, bb)
            return None

        m2 = match(op1, m_c_mul(m_specific(x), m_value("z")))
        if m2 is not None:
            r = create_div_or_null(y, m2.value("z"))
            if r is not None:
                return r
        m2 = match(op1, m_c_mul(m_specific(y), m_value("z")))
        if m2 is not None:
            r = create_div_or_null(x, m2.value("z"))
            if r is not None:
                return r
    return None


def m_binop_with_apint(opcode: str) -> Pattern:
    from llvmpy_mid.ir.pattern_match import m_sdiv, m_udiv

    return (m_sdiv if opcode == "sdiv" else m_udiv)(m_value("x"), m_apint("c1"))


def _nuw_add_like(v: Value) -> tuple[Value, Value] | None:
    op = getattr(v, "opcode", None)
    if op == "add" and v.nuw or op == "or" and v.disjoint:  # type: ignore[attr-defined]
        return v.operands[0], v.operands[1]  # type: ignore[attr-defined]
    return None


def _nsw_add_like(v: Value) -> tuple[Value, Value] | None:
    op = getattr(v, "opcode", None)
    if op == "add" and v.nsw or op == "or" and v.disjoint:  # type: ignore[attr-defined]
        return v.operands[0], v.operands[1]  # type: ignore[attr-defined]
    return None


def _narrow_udiv_urem(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``udiv/urem (zext X), (zext Y) -> zext (udiv/urem X, Y)`` and with a constant."""
    opcode = i.opcode
    n, d = i.operands[0], i.operands[1]
    ty = i.type
    b = ic.builder
    if getattr(n, "opcode", None) == "zext" and getattr(d, "opcode", None) == "zext":
        x, y = n.operands[0], d.operands[0]  # type: ignore[attr-defined]
        if x.type is y.type and (n.has_one_use or d.has_one_use):
            return CastInst.create("zext", b.create_bin_op(opcode, x, y), ty)
    if isinstance(n, Instruction) and n.opcode == "zext" and n.has_one_use and isinstance(d, Constant):
        x = n.operands[0]
        tc = cm.get_lossless_unsigned_trunc(d, x.type, ic.dl)
        if tc is None:
            return None
        return CastInst.create("zext", b.create_bin_op(opcode, x, tc), ty)
    if isinstance(d, Instruction) and d.opcode == "zext" and d.has_one_use and isinstance(n, Constant):
        x = d.operands[0]
        tc = cm.get_lossless_unsigned_trunc(n, x.type, ic.dl)
        if tc is None:
            return None
        return CastInst.create("zext", b.create_bin_op(opcode, tc, x), ty)
    return None


def visit_udiv(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``udiv`` (LLVM ``InstCombinerImpl::visitUDiv``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_udiv_inst(i.operands[0], i.operands[1], bool(i.exact), ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = common_idiv_transforms(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    w = scalar_bits(ty)
    b = ic.builder
    m = match(op0, m_lshr(m_value("x"), m_apint("c1")))
    m2 = match(op1, m_apint("c2")) if m is not None else None
    if m is not None and m2 is not None:
        c1, c2 = m.apint("c1"), m2.apint("c2")
        if c1 < w and c2 << c1 < 1 << w and (c2 << c1) >> c1 == c2:
            is_exact = bool(i.exact) and bool(op0.exact)  # type: ignore[attr-defined]
            bo = BinaryOperator.create("udiv", m.value("x"), const_int(m.value("x").type, c2 << c1))
            if is_exact:
                bo.exact = True
            return bo
    if match(op1, m_negative()) is not None:
        cmp = b.create_icmp(Predicate.ICMP_UGE, op0, op1)
        return CastInst.create("zext", cmp, ty)
    m = match(op1, m_sext(m_value("x")))
    if m is not None and is_bool_ty(m.value("x").type):
        cmp = b.create_icmp(Predicate.ICMP_EQ, op0, all_ones(ty))
        return CastInst.create("zext", cmp, ty)
    r = _narrow_udiv_urem(ic, i)
    if r is not None:
        return r
    m = match(op0, m_lshr(m_nuw_mul(m_specific(op1), m_value("a")), m_value("b")))
    if m is None:
        m = match(op0, m_lshr(m_nuw_mul(m_value("a"), m_specific(op1)), m_value("b")))
    if m is not None:
        lshr = BinaryOperator.create("lshr", m.value("a"), m.value("b"))
        if i.exact and op0.exact:  # type: ignore[attr-defined]
            lshr.exact = True
        return lshr
    if take_log2(ic, op1, 0, True, False) is not None:
        res = take_log2(ic, op1, 0, True, True)
        assert isinstance(res, Value)
        return ic.replace_inst_uses_with(i, b.create_lshr(op0, res, i.name, exact=bool(i.exact)))
    return None


def visit_sdiv(ic: InstCombiner, i: Instruction) -> Instruction | None:  # noqa: C901
    """Fold a ``sdiv`` (LLVM ``InstCombinerImpl::visitSDiv``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_sdiv_inst(i.operands[0], i.operands[1], bool(i.exact), ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = common_idiv_transforms(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    w = scalar_bits(ty)
    mask = (1 << w) - 1
    b = ic.builder
    if match(op1, m_all_ones()) is not None or (
        getattr(op1, "opcode", None) == "sext" and is_bool_ty(op1.operands[0].type)  # type: ignore[attr-defined]
    ):
        return BinaryOperator.create("sub", null(ty), op0, nsw=True)
    if match(op1, m_sign_mask()) is not None:
        return CastInst.create("zext", b.create_icmp(Predicate.ICMP_EQ, op0, op1), ty)
    if i.exact:
        if match(op1, m_power2()) is not None and match(op1, m_non_negative()) is not None:
            assert isinstance(op1, Constant)
            c = get_exact_log_base2(op1)
            assert c is not None
            return BinaryOperator.create("ashr", op0, c, exact=True)
        m = match(op1, m_nsw_shl(m_one(), m_value("sh")))
        if m is not None:
            return BinaryOperator.create("ashr", op0, m.value("sh"), exact=True)
        if match(op1, m_negated_power2()) is not None:
            assert isinstance(op1, Constant)
            c = get_exact_log_base2(ConstantExpr.get_neg(op1))
            assert c is not None
            ashr = b.create_ashr(op0, c, i.name + ".neg", exact=True)
            return BinaryOperator.create("sub", null(ty), ashr, nsw=True)
    m = match(op1, m_apint("c"))
    if m is not None:
        op1c = m.apint("c")
        ms = match(op0, m_one_use(m_sext(m_value("src"))))
        if ms is not None:
            src = ms.value("src")
            sig = w - _num_sign_bits_const(op1c, w) + 1
            if scalar_bits(src.type) >= sig:
                assert isinstance(op1, Constant)
                narrow_div = ConstantExpr.get_cast("trunc", op1, src.type)
                narrow = b.create_bin_op("sdiv", src, narrow_div)
                return CastInst.create("sext", narrow, ty)
        mn = match(op0, m_nsw_neg_value())
        if op1c != 1 << (w - 1) and mn is not None:
            bo = BinaryOperator.create("sdiv", mn.value("x"), const_int(ty, -op1c & mask))
            bo.exact = bool(i.exact)
            return bo
    m = match(op0, m_one_use(m_nsw_neg_value()))
    if m is not None:
        return BinaryOperator.create(
            "sub", null(ty), b.create_bin_op("sdiv", m.value("x"), op1, i.name, exact=bool(i.exact)), nsw=True
        )
    m = match(i, m_c_binop(m_one_use(m_intrinsic("abs", m_value("x"), m_one())), m_deferred("x")))
    if m is not None:
        cond = b.create_is_not_neg(m.value("x"))
        return SelectInst(cond, const_int(ty, 1), all_ones(ty))
    known_dividend = ic.compute_known_bits(op0, 0, i)
    if not i.exact:
        mp = match(op1, m_power2("c")) or match(op1, m_negated_power2("c"))
        if mp is not None:
            mv = match(op1, m_apint("v"))
            if mv is not None:
                cv = mv.apint("v")
                if known_dividend.count_min_trailing_zeros() >= (cv & -cv).bit_length() - 1:
                    i.exact = True
                    return i
    if known_dividend.is_non_negative():
        if is_known_non_negative(op1, ic.query(i)):
            bo = BinaryOperator.create("udiv", op0, op1, name=i.name)
            bo.exact = bool(i.exact)
            return bo
        if match(op1, m_negated_power2()) is not None:
            assert isinstance(op1, Constant)
            cneg = get_exact_log_base2(ConstantExpr.get_neg(op1))
            assert cneg is not None
            shr = b.create_lshr(op0, cneg, i.name, exact=bool(i.exact))
            return BinaryOperator.create("sub", null(ty), shr)
        if ic.is_known_to_be_a_power_of_two(op1, True, 0, i):
            bo = BinaryOperator.create("udiv", op0, op1, name=i.name)
            bo.exact = bool(i.exact)
            return bo
    if is_known_negation(op0, op1):
        cond = b.create_icmp(Predicate.ICMP_EQ, op0, const_int(ty, 1 << (w - 1)))
        return SelectInst(cond, const_int(ty, 1), all_ones(ty))
    return None


def _num_sign_bits_const(v: int, w: int) -> int:
    """``APInt::getNumSignBits``."""
    s = v >> (w - 1) & 1
    n = 0
    for k in range(w - 1, -1, -1):
        if (v >> k) & 1 != s:
            break
        n += 1
    return n


def m_nsw_neg_value() -> Pattern:
    from llvmpy_mid.ir.pattern_match import m_nsw_neg

    return m_nsw_neg(m_value("x"))


def _simplify_irem_mul_shl(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``(X * Y) rem (X * Z)`` and ``(Y << X) rem (Z << X)`` with constant Y, Z (LLVM ``simplifyIRemMulShl``)."""
    op0, op1 = i.operands[0], i.operands[1]
    w = scalar_bits(i.type)
    mask = (1 << w) - 1

    def shift_or_mul_xc(op: Value, x: Value | None) -> tuple[Value, int] | None:
        o = getattr(op, "opcode", None)
        if o not in ("mul", "shl"):
            return None
        a, c = op.operands[0], op.operands[1]  # type: ignore[attr-defined]
        if x is not None and a is not x:
            return None
        mc = match(c, m_apint("c"))
        if mc is None:
            return None
        cv = mc.apint("c")
        if o == "shl":
            cv = (1 << cv) & mask if cv < w else 0
        return a, cv

    def shift_cx(op: Value, x: Value | None) -> tuple[Value, int] | None:
        if getattr(op, "opcode", None) != "shl":
            return None
        c, a = op.operands[0], op.operands[1]  # type: ignore[attr-defined]
        if x is not None and a is not x:
            return None
        mc = match(c, m_apint("c"))
        if mc is None:
            return None
        return a, mc.apint("c")

    shift_by_x = False
    r0 = shift_or_mul_xc(op0, None)
    r1 = shift_or_mul_xc(op1, r0[0]) if r0 is not None else None
    if r0 is not None and r1 is not None:
        x, y, z = r0[0], r0[1], r1[1]
    else:
        r0 = shift_cx(op0, None)
        r1 = shift_cx(op1, r0[0]) if r0 is not None else None
        if r0 is None or r1 is None:
            return None
        x, y, z = r0[0], r0[1], r1[1]
        shift_by_x = True
    is_srem = i.opcode == "srem"
    bo0_nsw, bo0_nuw = bool(op0.nsw), bool(op0.nuw)  # type: ignore[attr-defined]
    bo0_nw = bo0_nsw if is_srem else bo0_nuw
    if z == 0:
        return None
    if is_srem:
        if _sx(z, w) == -1:
            rem_yz = 0
        else:
            rem_yz = _sdivrem(_sx(y, w), _sx(z, w))[1] & mask
    else:
        rem_yz = y % z
    if rem_yz == 0 and bo0_nw:
        return ic.replace_inst_uses_with(i, null(i.type))

    def create(c: int) -> BinaryOperator:
        cv = const_int(i.type, c)
        return BinaryOperator.create("shl", cv, x) if shift_by_x else BinaryOperator.create("mul", x, cv)

    bo1_nsw, bo1_nuw = bool(op1.nsw), bool(op1.nuw)  # type: ignore[attr-defined]
    bo1_nw = bo1_nsw if is_srem else bo1_nuw
    if rem_yz == y and bo1_nw:
        bo = create(y)
        bo.nsw = is_srem or bo0_nsw
        bo.nuw = not is_srem or bo0_nuw
        return bo
    if y >= z and ((bo0_nsw and bo1_nsw) if is_srem else bo0_nuw):
        bo = create(rem_yz)
        bo.nsw = True
        bo.nuw = bo0_nuw
        return bo
    return None


def common_irem_transforms(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """The folds urem and srem share (LLVM ``commonIRemTransforms``)."""
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    v = _simplify_value_known_non_zero(ic, op1, i)
    if v is not None:
        return ic.replace_operand(i, 1, v)
    if _simplify_div_rem_of_select_with_zero_op(ic, i):
        return i
    if match(op0, m_imm_constant()) is not None and match(
        op1, m_select(m_value(), m_imm_constant(), m_imm_constant())
    ) is not None:
        assert isinstance(op1, SelectInst)
        r = cm.fold_op_into_select(ic, i, op1, True)
        if r is not None:
            return r
    if isinstance(op1, Constant) and isinstance(op0, Instruction):
        if isinstance(op0, SelectInst):
            r = cm.fold_op_into_select(ic, i, op0)
            if r is not None:
                return r
        elif isinstance(op0, PHINode):
            m = match(op1, m_apint("c"))
            if m is not None:
                c = m.apint("c")
                w = scalar_bits(i.type)
                if c != 0 and (i.opcode == "urem" or c != 1 << (w - 1)):
                    r = cm.fold_op_into_phi(ic, i, op0)
                    if r is not None:
                        return r
        if ic.simplify_demanded_instruction_bits(i):
            return i
    return _simplify_irem_mul_shl(ic, i)


def visit_urem(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``urem`` (LLVM ``InstCombinerImpl::visitURem``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_urem_inst(i.operands[0], i.operands[1], ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = common_irem_transforms(ic, i)
    if r is not None:
        return r
    r = _narrow_udiv_urem(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    b = ic.builder
    if ic.is_known_to_be_a_power_of_two(op1, True, 0, i):
        add = b.create_add(op1, all_ones(ty))
        return BinaryOperator.create("and", op0, add)
    if match(op0, m_one()) is not None:
        cmp = b.create_icmp(Predicate.ICMP_NE, op1, const_int(ty, 1))
        return CastInst.create("zext", cmp, ty)
    if match(op1, m_negative()) is not None:
        f0 = op0
        if not is_guaranteed_not_to_be_undef(op0):
            f0 = b.create_freeze(op0, op0.name + ".fr")
        cmp = b.create_icmp(Predicate.ICMP_ULT, f0, op1)
        sub = b.create_sub(f0, op1)
        return SelectInst(cmp, f0, sub)
    m = match(op1, m_sext(m_value("x")))
    if m is not None and is_bool_ty(m.value("x").type):
        fz = op0
        if not is_guaranteed_not_to_be_undef(op0):
            fz = b.create_freeze(op0, op0.name + ".frozen")
        cmp = b.create_icmp(Predicate.ICMP_EQ, fz, all_ones(ty))
        return SelectInst(cmp, null(ty), fz)
    m = match(op0, m_add(m_value("x"), m_one()))
    if m is not None:
        val = simplify_icmp_inst(Predicate.ICMP_ULT, m.value("x"), op1, ic.query(i))
        if val is not None and match(val, m_one()) is not None:
            fz = op0
            if not is_guaranteed_not_to_be_undef(op0):
                fz = b.create_freeze(op0, op0.name + ".frozen")
            cmp = b.create_icmp(Predicate.ICMP_EQ, fz, op1)
            return SelectInst(cmp, null(ty), fz)
    return None


def visit_srem(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``srem`` (LLVM ``InstCombinerImpl::visitSRem``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_srem_inst(i.operands[0], i.operands[1], ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = common_irem_transforms(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    w = scalar_bits(ty)
    mask = (1 << w) - 1
    m = match(op1, m_negative("y"))
    if m is not None:
        mv = match(op1, m_apint("v"))
        if mv is not None and mv.apint("v") != 1 << (w - 1):
            return ic.replace_operand(i, 1, const_int(ty, -mv.apint("v") & mask))
    m = match(i, m_binop_srem_neg())
    if m is not None:
        return BinaryOperator.create("sub", null(ty), ic.builder.create_bin_op("srem", m.value("x"), m.value("y")), nsw=True)
    sign = 1 << (w - 1)
    if ic.masked_value_is_zero(op1, sign, 0, i) and ic.masked_value_is_zero(op0, sign, 0, i):
        return BinaryOperator.create("urem", op0, op1, name=i.name)
    if isinstance(op1, (ConstantVector, ConstantDataVector)):
        vty = op1.type
        assert isinstance(vty, VectorType)
        n = vty.count
        has_negative = False
        has_missing = False
        for k in range(n):
            e = op1.get_aggregate_element(k)
            if e is None:
                has_missing = True
                break
            if isinstance(e, ConstantInt) and e.value >> (w - 1):
                has_negative = True
        if has_negative and not has_missing:
            elts: list[Constant] = []
            for k in range(n):
                e = op1.get_aggregate_element(k)
                assert e is not None
                if isinstance(e, ConstantInt) and e.value >> (w - 1):
                    e = ConstantExpr.get_neg(e)
                elts.append(e)
            new_rhs = ConstantVector.get(elts)
            if new_rhs is not op1:
                return ic.replace_operand(i, 1, new_rhs)
    return None


def m_binop_srem_neg() -> Pattern:
    from llvmpy_mid.ir.pattern_match import m_srem

    return m_srem(m_one_use(m_nsw_neg_value()), m_value("y"))


# --- floating point ---------------------------------------------------------------------------------


def _fold_fp_sign_bit_ops(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``-X op -Y -> X op Y``; ``fabs(X) op fabs(X) -> X op X``; ``fabs(X) op fabs(Y) -> fabs(X op Y)``."""
    opcode = i.opcode
    op0, op1 = i.operands[0], i.operands[1]
    fmf = _fmf(i)
    m = match(op0, m_fneg(m_value("x")))
    m2 = match(op1, m_fneg(m_value("y"))) if m is not None else None
    if m is not None and m2 is not None:
        return new_fbin(opcode, m.value("x"), m2.value("y"), fmf)
    fabs_x = m_intrinsic("fabs", m_value("x"))
    if op0 is op1:
        m = match(op0, fabs_x)
        if m is not None:
            return new_fbin(opcode, m.value("x"), m.value("x"), fmf)
    m = match(op0, fabs_x)
    m2 = match(op1, m_intrinsic("fabs", m_value("y"))) if m is not None else None
    if m is not None and m2 is not None and (op0.has_one_use or op1.has_one_use):
        xy = create_fbin_fmf(ic, opcode, m.value("x"), m2.value("y"), fmf)
        fabs = ic.builder.create_intrinsic("fabs", [xy.type], [xy])
        fabs.fast_math_flags = fmf
        from llvmpy_mid.transform.instcombine.combiner import take_name

        take_name(fabs, i)
        return ic.replace_inst_uses_with(i, fabs)
    return None


def _fold_const_fneg(ic: InstCombiner, c: Constant) -> Constant | None:
    from llvmpy_mid.analysis.constant_folding import constant_fold_unary_op_operand

    return constant_fold_unary_op_operand("fneg", c, ic.dl)


def _is_known_never_nan(v: Value) -> bool:
    """``isKnownNeverNaN`` as InstructionSimplify's FP folds compute it."""
    from llvmpy_mid.analysis.instsimplify.fp import _never_nan

    return _never_nan(v)


def _fp_splat(ty: Type, val: float) -> Constant:
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantFP.get(ty.element_type, val))
    return ConstantFP.get(ty, val)


def visit_fmul(ic: InstCombiner, i: Instruction) -> Instruction | None:  # noqa: C901
    """Fold a ``fmul`` (LLVM ``InstCombinerImpl::visitFMul``; the reassociating folds are not ported)."""
    assert isinstance(i, BinaryOperator)
    fmf = _fmf(i)
    v = simplify_fmul_inst(i.operands[0], i.operands[1], fmf, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if cm.simplify_associative_or_commutative(ic, i):
        return i
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_into_select_or_phi(ic, i)
    if r is not None:
        return r
    v = _fold_mul_select_to_negate(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = _fold_fp_sign_bit_ops(ic, i)
    if r is not None:
        return r
    r = _call_if_present("common", "fold_fbinop_of_int_casts", ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    if match(op1, m_specific_fp(-1.0)) is not None:
        return new_fneg(op0, fmf)
    from llvmpy_mid.ir.constants import get_splat_value

    s = op1 if isinstance(op1, ConstantFP) else (get_splat_value(op1, True) if isinstance(op1, Constant) else None)
    if isinstance(s, ConstantFP) and s.is_zero_value:
        if (fmf & int(FastMathFlags.NINF) and _is_known_never_nan(op0)) or _is_known_never_nan(i):
            if s.is_negative_zero:
                op0 = create_fneg_fmf(ic, op0, fmf)
            cs = ic.builder.create_intrinsic("copysign", [ty], [op1, op0], fmf_source=i)
            return ic.replace_inst_uses_with(i, cs)
    m = match(op0, m_fneg(m_value("x")))
    if m is not None and isinstance(op1, Constant):
        nc = _fold_const_fneg(ic, op1)
        if nc is not None:
            return new_fbin("fmul", m.value("x"), nc, fmf)
    if fmf & int(FastMathFlags.NNAN) and fmf & int(FastMathFlags.NSZ):
        for a, other in ((op0, op1), (op1, op0)):
            m = match(a, m_uitofp(m_value("x")))
            if m is not None and is_bool_ty(m.value("x").type):
                si = SelectInst(m.value("x"), other, _fp_splat(ty, 0.0))
                si.fast_math_flags = fmf
                return si
    v = cm.simplify_selects_feeding_binary_op(ic, i, op0, op1)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    if fmf & int(FastMathFlags.REASSOC):
        r = _fold_fmul_reassoc(ic, i)
        if r is not None:
            return r
    if fmf == int(FastMathFlags.FAST):
        log2 = None
        y_v: Value | None = None
        p_log = m_one_use(m_intrinsic("log2", m_one_use(m_fmul_x_half())))
        m = match(op0, p_log)
        if m is not None:
            log2, y_v = op0, op1
        m2 = match(op1, p_log)
        if m2 is not None:
            log2, y_v, m = op1, op0, m2
        if log2 is not None and m is not None and y_v is not None:
            lg = ic.builder.create_intrinsic("log2", [m.value("x").type], [m.value("x")], fmf_source=i)
            lxy = create_fbin_fmf(ic, "fmul", lg, y_v, fmf)
            return new_fbin("fsub", lxy, y_v, fmf)
    if fmf & int(FastMathFlags.NNAN) and fmf & int(FastMathFlags.NSZ):
        # a product that starts at zero stays zero: phi [0, entry], [phi * x, loop]
        from llvmpy_mid.analysis.value_tracking_support import match_simple_recurrence

        pn = op0 if isinstance(op0, PHINode) else op1 if isinstance(op1, PHINode) else None
        rec = match_simple_recurrence(pn) if pn is not None else None
        if rec is not None and rec[0] is i and match(rec[1], m_zero_any()) is not None:
            return ic.replace_inst_uses_with(i, rec[1])
    m = match(
        i,
        m_c_fmul(
            m_intrinsic("maximum", m_value("x"), m_value("y")),
            m_combine_or(
                m_intrinsic("minimum", m_deferred("x"), m_deferred("y")),
                m_intrinsic("minimum", m_deferred("y"), m_deferred("x")),
            ),
        ),
    )
    if m is not None:
        res = new_fbin("fmul", m.value("x"), m.value("y"), fmf)
        if not fmf & int(FastMathFlags.NNAN):
            res.fast_math_flags = fmf & ~int(FastMathFlags.NINF)
        return res
    return None


def m_fmul_x_half() -> Pattern:
    from llvmpy_mid.ir.pattern_match import m_fmul

    return m_fmul(m_value("x"), m_specific_fp(0.5))


def _has_reassoc(v: Value) -> bool:
    return bool(_fmf(v) & int(FastMathFlags.REASSOC))


def _is_finite_non_zero_fp(c: Constant) -> bool:
    """``Constant::isFiniteNonZeroFP``."""
    import math

    from llvmpy_mid.ir.constants import get_splat_value

    def ok(e: Constant | None) -> bool:
        if not isinstance(e, ConstantFP):
            return False
        v = e.value
        return not (e.is_zero_value or math.isinf(v) or math.isnan(v))

    if isinstance(c, ConstantFP):
        return ok(c)
    sp = get_splat_value(c)
    if sp is not None:
        return ok(sp)
    ty = c.type
    if isinstance(ty, VectorType) and not ty.scalable:
        return all(ok(c.get_aggregate_element(k)) for k in range(ty.count))
    return False


def _only_user_of_any_operand(i: Instruction) -> bool:
    return any(op.has_one_user for op in i.operands)


def _fold_powi_reassoc(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``powi(X, Y) * X -> powi(X, Y + 1)`` and the other powi regroupings (LLVM ``foldPowiReassoc``)."""
    b = ic.builder

    def powi(x: Value, y: Value, z: Value) -> Value:
        yz = b.create_add(y, z)
        return b.create_intrinsic("powi", [x.type, yz.type], [x, yz], fmf_source=i)

    def reassoc_powi(v: Value, x: Pattern, y: Pattern) -> Match | None:
        if not _has_reassoc(v):
            return None
        return match(v, m_intrinsic("powi", x, y))

    from llvmpy_mid.ir.pattern_match import Match

    op0, op1 = i.operands[0], i.operands[1]
    fmf = _fmf(i)
    for a, other in ((op0, op1), (op1, op0)) if i.opcode == "fmul" else ():
        if a.has_one_use:
            m = reassoc_powi(a, m_value("x"), m_value("y"))
            if m is not None and other is m.value("x"):
                y = m.value("y")
                if cm.will_not_overflow(ic, "add", y, const_int(y.type, 1), i, True):
                    return ic.replace_inst_uses_with(i, powi(m.value("x"), y, const_int(y.type, 1)))
                break
    if i.opcode == "fmul" and _only_user_of_any_operand(i):
        m = reassoc_powi(op0, m_value("x"), m_value("y"))
        if m is not None:
            m2 = reassoc_powi(op1, m_specific(m.value("x")), m_value("z"))
            if m2 is not None and m.value("y").type is m2.value("z").type:
                return ic.replace_inst_uses_with(i, powi(m.value("x"), m.value("y"), m2.value("z")))
    if i.opcode == "fdiv" and fmf & int(FastMathFlags.REASSOC) and fmf & int(FastMathFlags.NNAN):
        if op0.has_one_use:
            m = reassoc_powi(op0, m_specific(op1), m_value("y"))
            if m is not None:
                y = m.value("y")
                if cm.will_not_overflow(ic, "sub", y, const_int(y.type, 1), i, True):
                    return ic.replace_inst_uses_with(i, powi(op1, y, all_ones(y.type)))
            m = reassoc_powi(op0, m_value("x"), m_value("y"))
            if m is not None and _has_reassoc(op1):
                m2 = match(op1, m_c_fmul(m_specific(m.value("x")), m_value("z")))
                y = m.value("y")
                if m2 is not None and cm.will_not_overflow(ic, "sub", y, const_int(y.type, 1), i, True):
                    new_pow = powi(m.value("x"), y, all_ones(y.type))
                    return new_fbin("fdiv", new_pow, m2.value("z"), fmf)
    return None


def _fold_fmul_reassoc(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:  # noqa: C901
    """The ``reassoc`` fmul folds (LLVM ``foldFMulReassoc``)."""
    from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands
    from llvmpy_mid.ir.pattern_match import m_fadd, m_fdiv, m_fmul, m_fsub

    op0, op1 = i.operands[0], i.operands[1]
    fmf = _fmf(i)
    b = ic.builder
    dl = ic.dl
    if isinstance(op1, Constant) and _is_finite_non_zero_fp(op1) and isinstance(op0, BinaryOperator) and _has_reassoc(op0):
        f = fmf & _fmf(op0)
        m = match(op0, m_one_use(m_fdiv(m_constant("c1"), m_value("x"))))
        if m is not None:
            cc1 = constant_fold_binary_op_operands("fmul", op1, m.constant("c1"), dl)
            if cc1 is not None and _is_normal_fp(cc1):
                return new_fbin("fdiv", cc1, m.value("x"), f)
        m = match(op0, m_fdiv(m_value("x"), m_constant("c1")))
        if m is not None:
            c1 = m.constant("c1")
            cd = constant_fold_binary_op_operands("fdiv", op1, c1, dl)
            if cd is not None and _is_normal_fp(cd):
                return new_fbin("fmul", m.value("x"), cd, f)
            cd = constant_fold_binary_op_operands("fdiv", c1, op1, dl)
            if cd is not None and op0.has_one_use and _is_normal_fp(cd):
                return new_fbin("fdiv", m.value("x"), cd, f)
        m = match(op0, m_one_use(m_fadd(m_value("x"), m_constant("c1"))))
        if m is not None:
            cc1 = constant_fold_binary_op_operands("fmul", op1, m.constant("c1"), dl)
            if cc1 is not None:
                xc = create_fbin_fmf(ic, "fmul", m.value("x"), op1, f)
                return new_fbin("fadd", xc, cc1, f)
        m = match(op0, m_one_use(m_fsub(m_constant("c1"), m_value("x"))))
        if m is not None:
            cc1 = constant_fold_binary_op_operands("fmul", op1, m.constant("c1"), dl)
            if cc1 is not None:
                xc = create_fbin_fmf(ic, "fmul", m.value("x"), op1, f)
                return new_fbin("fsub", cc1, xc, f)
    for div, z in ((op0, op1), (op1, op0)):
        if isinstance(div, BinaryOperator) and div.opcode == "fdiv" and div.has_one_use and _has_reassoc(div):
            f = fmf & _fmf(div)
            if f & int(FastMathFlags.REASSOC):
                nm = create_fbin_fmf(ic, "fmul", div.operands[0], z, f)
                return new_fbin("fdiv", nm, div.operands[1], f)
            break
    sqrt_x = m_one_use(m_intrinsic("sqrt", m_value("x")))
    if fmf & int(FastMathFlags.NNAN):
        m = match(op0, sqrt_x)
        m2 = match(op1, m_one_use(m_intrinsic("sqrt", m_value("y")))) if m is not None else None
        if m is not None and m2 is not None:
            xy = create_fbin_fmf(ic, "fmul", m.value("x"), m2.value("y"), fmf)
            sq = b.create_intrinsic("sqrt", [xy.type], [xy], fmf_source=i)
            return ic.replace_inst_uses_with(i, sq)
    if fmf & int(FastMathFlags.NSZ):
        for a, other in ((op0, op1), (op1, op0)):
            m = match(a, m_fdiv(m_specific_fp(1.0), m_value("y")))
            if m is not None:
                y = m.value("y")
                m2 = match(y, m_intrinsic("sqrt", m_value("x")))
                if m2 is not None and other is m2.value("x"):
                    return new_fbin("fdiv", other, y, fmf)
    if fmf & int(FastMathFlags.NNAN) and fmf & int(FastMathFlags.NSZ) and op0 is op1 and op0.has_n_uses(2):
        m = match(op0, m_fdiv(m_value("x"), m_intrinsic("sqrt", m_value("y"))))
        if m is not None:
            xx = create_fbin_fmf(ic, "fmul", m.value("x"), m.value("x"), fmf)
            return new_fbin("fdiv", xx, m.value("y"), fmf)
        m = match(op0, m_fdiv(m_intrinsic("sqrt", m_value("y")), m_value("x")))
        if m is not None:
            xx = create_fbin_fmf(ic, "fmul", m.value("x"), m.value("x"), fmf)
            return new_fbin("fdiv", m.value("y"), xx, fmf)
    m = match(i, m_c_fmul(m_one_use(m_intrinsic("pow", m_value("x"), m_value("y"))), m_deferred("x")))
    if m is not None:
        y1 = create_fbin_fmf(ic, "fadd", m.value("y"), _fp_splat(i.type, 1.0), fmf)
        pw = b.create_binary_intrinsic("pow", m.value("x"), y1, fmf_source=i)
        return ic.replace_inst_uses_with(i, pw)
    r = _fold_powi_reassoc(ic, i)
    if r is not None:
        return r
    if _only_user_of_any_operand(i):
        m = match(op0, m_intrinsic("pow", m_value("x"), m_value("y")))
        if m is not None:
            m2 = match(op1, m_intrinsic("pow", m_specific(m.value("x")), m_value("z")))
            if m2 is not None:
                yz = create_fbin_fmf(ic, "fadd", m.value("y"), m2.value("z"), fmf)
                return ic.replace_inst_uses_with(i, b.create_binary_intrinsic("pow", m.value("x"), yz, fmf_source=i))
            m2 = match(op1, m_intrinsic("pow", m_value("z"), m_specific(m.value("y"))))
            if m2 is not None:
                xz = create_fbin_fmf(ic, "fmul", m.value("x"), m2.value("z"), fmf)
                return ic.replace_inst_uses_with(i, b.create_binary_intrinsic("pow", xz, m.value("y"), fmf_source=i))
        for fn in ("exp", "exp2"):
            m = match(op0, m_intrinsic(fn, m_value("x")))
            m2 = match(op1, m_intrinsic(fn, m_value("y"))) if m is not None else None
            if m is not None and m2 is not None:
                xy = create_fbin_fmf(ic, "fadd", m.value("x"), m2.value("y"), fmf)
                e = b.create_intrinsic(fn, [xy.type], [xy], fmf_source=i)
                return ic.replace_inst_uses_with(i, e)
    m = match(op0, m_one_use(m_c_fmul(m_specific(op1), m_value("y"))))
    if m is not None and op1 is not m.value("y"):
        xx = create_fbin_fmf(ic, "fmul", op1, op1, fmf)
        return new_fbin("fmul", xx, m.value("y"), fmf)
    m = match(op1, m_one_use(m_c_fmul(m_specific(op0), m_value("y"))))
    if m is not None and op0 is not m.value("y"):
        xx = create_fbin_fmf(ic, "fmul", op0, op0, fmf)
        return new_fbin("fmul", xx, m.value("y"), fmf)
    return None


def _exact_inverse(c: Constant) -> bool:
    """``Constant::hasExactInverseFP`` for scalars and splats of half/bfloat/float/double."""
    from llvmpy_mid.ir.constants import get_splat_value

    s = c if isinstance(c, ConstantFP) else get_splat_value(c)
    if not isinstance(s, ConstantFP):
        ty = c.type
        if isinstance(ty, VectorType) and not ty.scalable:
            elts = [c.get_aggregate_element(k) for k in range(ty.count)]
            return all(isinstance(e, ConstantFP) and _exact_inverse(e) for e in elts)
        return False
    import math

    v = s.value
    if v == 0 or math.isinf(v) or math.isnan(v):
        return False
    mant, exp = math.frexp(abs(v))
    if mant != 0.5:
        return False
    e = exp - 1  # v = 2**e
    rng = {"half": (-14, 15), "bfloat": (-126, 127), "float": (-126, 127), "double": (-1022, 1023)}.get(str(s.type))
    if rng is None:
        return False
    lo, hi = rng
    return lo <= e <= hi and lo <= -e <= hi


def _is_normal_fp(c: Constant) -> bool:
    """``Constant::isNormalFP`` (scalars and fixed vectors)."""
    import math

    from llvmpy_mid.ir.types import VectorType as _VT

    from llvmpy_mid.ir.constants import get_splat_value

    if not isinstance(c, ConstantFP):
        sp = get_splat_value(c)
        if isinstance(sp, ConstantFP):
            c = sp
    if isinstance(c, ConstantFP):
        v = c.value
        if v == 0 or math.isinf(v) or math.isnan(v):
            return False
        tiny = {"half": 6.103515625e-05, "bfloat": 1.1754943508222875e-38, "float": 1.1754943508222875e-38,
                "double": 2.2250738585072014e-308}.get(str(c.type))
        return tiny is not None and abs(v) >= tiny
    ty = c.type
    if isinstance(ty, _VT) and not ty.scalable:
        for k in range(ty.count):
            e = c.get_aggregate_element(k)
            if e is None or not _is_normal_fp(e):
                return False
        return True
    return False


def _fold_fdiv_constant_divisor(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``-X / C -> X / -C``; ``X / 0 -> copysign(inf, X)`` (nnan); ``X / C -> X * (1 / C)`` when exact."""
    c = i.operands[1]
    if not isinstance(c, Constant):
        return None
    fmf = _fmf(i)
    m = match(i.operands[0], m_fneg(m_value("x")))
    if m is not None:
        nc = _fold_const_fneg(ic, c)
        if nc is not None:
            return new_fbin("fdiv", m.value("x"), nc, fmf)
    from llvmpy_mid.ir.pattern_match import m_any_zero_fp, m_pos_zero_fp

    if fmf & int(FastMathFlags.NNAN) and (
        match(c, m_pos_zero_fp()) is not None or (fmf & int(FastMathFlags.NSZ) and match(c, m_any_zero_fp()) is not None)
    ):
        b = ic.builder
        inf = _fp_splat(i.type, float("inf"))
        cs = b.create_intrinsic("copysign", [c.type], [inf, i.operands[0]], fmf_source=i)
        from llvmpy_mid.transform.instcombine.combiner import take_name

        take_name(cs, i)
        return ic.replace_inst_uses_with(i, cs)
    if not (_exact_inverse(c) or (fmf & int(FastMathFlags.ARCP) and _is_normal_fp(c))):
        return None
    from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands

    recip = constant_fold_binary_op_operands("fdiv", _fp_splat(i.type, 1.0), c, ic.dl)
    if recip is None or not _is_normal_fp(recip):
        return None
    return new_fbin("fmul", i.operands[0], recip, fmf)


def _fold_fdiv_constant_dividend(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``C / -X -> -C / X``; ``C / (X * C2) -> (C / C2) / X`` (reassoc arcp)."""
    c = i.operands[0]
    if not isinstance(c, Constant):
        return None
    fmf = _fmf(i)
    m = match(i.operands[1], m_fneg(m_value("x")))
    if m is not None:
        nc = _fold_const_fneg(ic, c)
        if nc is not None:
            return new_fbin("fdiv", nc, m.value("x"), fmf)
    if not (fmf & int(FastMathFlags.REASSOC)) or not (fmf & int(FastMathFlags.ARCP)):
        return None
    from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands
    from llvmpy_mid.ir.pattern_match import m_fdiv, m_fmul

    new_c: Constant | None = None
    m = match(i.operands[1], m_fmul(m_value("x"), m_constant("c2")))
    if m is not None:
        new_c = constant_fold_binary_op_operands("fdiv", c, m.constant("c2"), ic.dl)
    else:
        m = match(i.operands[1], m_fdiv(m_value("x"), m_constant("c2")))
        if m is not None:
            new_c = constant_fold_binary_op_operands("fmul", c, m.constant("c2"), ic.dl)
    if new_c is None or m is None or not _is_normal_fp(new_c):
        return None
    return new_fbin("fdiv", new_c, m.value("x"), fmf)


def visit_fdiv(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``fdiv`` (LLVM ``InstCombinerImpl::visitFDiv``; the reassociating folds are not ported)."""
    assert isinstance(i, BinaryOperator)
    fmf = _fmf(i)
    v = simplify_fdiv_inst(i.operands[0], i.operands[1], fmf, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = cm.fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    r = _fold_fdiv_constant_divisor(ic, i)
    if r is not None:
        return r
    r = _fold_fdiv_constant_dividend(ic, i)
    if r is not None:
        return r
    r = _fold_fp_sign_bit_ops(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    if isinstance(op0, Constant) and isinstance(op1, SelectInst):
        r = cm.fold_op_into_select(ic, i, op1)
        if r is not None:
            return r
    if isinstance(op1, Constant) and isinstance(op0, SelectInst):
        r = cm.fold_op_into_select(ic, i, op0)
        if r is not None:
            return r
    b = ic.builder
    reassoc = bool(fmf & int(FastMathFlags.REASSOC))
    if reassoc and fmf & int(FastMathFlags.ARCP):
        from llvmpy_mid.ir.pattern_match import m_fdiv as _m_fdiv

        m = match(op0, m_one_use(_m_fdiv(m_value("x"), m_value("y"))))
        if m is not None and (not isinstance(m.value("y"), Constant) or not isinstance(op1, Constant)):
            yz = create_fbin_fmf(ic, "fmul", m.value("y"), op1, fmf)
            return new_fbin("fdiv", m.value("x"), yz, fmf)
        m = match(op1, m_one_use(_m_fdiv(m_value("x"), m_value("y"))))
        if m is not None and (not isinstance(m.value("y"), Constant) or not isinstance(op0, Constant)):
            yz = create_fbin_fmf(ic, "fmul", m.value("y"), op0, fmf)
            return new_fbin("fdiv", yz, m.value("x"), fmf)
        m = match(op1, _m_fdiv(m_specific_fp(1.0), m_value("y")))
        if m is not None:
            return new_fbin("fmul", m.value("y"), op0, fmf)
    if reassoc and op0.has_one_use and op1.has_one_use:
        m = match(op0, m_intrinsic("sin", m_value("x")))
        is_tan = m is not None and match(op1, m_intrinsic("cos", m_specific(m.value("x")))) is not None
        m2 = match(op0, m_intrinsic("cos", m_value("x")))
        is_cot = not is_tan and m2 is not None and match(op1, m_intrinsic("sin", m_specific(m2.value("x")))) is not None
        x_v = (m if is_tan else m2).value("x") if (is_tan or is_cot) else None  # type: ignore[union-attr]
        if x_v is not None and ic.tli is not None:
            from llvmpy_mid.transform.utils.build_lib_calls import emit_unary_float_fn_call
            from llvmpy_mid.transform.utils.simplify_lib_calls import _has_float_fn

            module = ic.fn.parent
            if module is not None and _has_float_fn(module, ic.tli, i.type, "tan"):
                callee = getattr(op0, "called_function", None)
                assert callee is not None
                saved = b.fast_math_flags
                b.fast_math_flags = FastMathFlags(fmf)
                try:
                    res: Value = emit_unary_float_fn_call(x_v, ic.tli, "tan", b, callee.attributes)
                    if is_cot:
                        res = b.fdiv(_fp_splat(i.type, 1.0), res)
                finally:
                    b.fast_math_flags = saved
                return ic.replace_inst_uses_with(i, res)
    if fmf & int(FastMathFlags.NNAN) and reassoc:
        m = match(op1, m_c_fmul(m_specific(op0), m_value("y")))
        if m is not None:
            ic.replace_operand(i, 0, _fp_splat(i.type, 1.0))
            ic.replace_operand(i, 1, m.value("y"))
            return i
    if fmf & int(FastMathFlags.NNAN) and fmf & int(FastMathFlags.NINF):
        fx = m_intrinsic("fabs", m_deferred("x"))
        from llvmpy_mid.ir.pattern_match import m_fdiv

        m = match(i, m_fdiv(m_value("x"), fx)) or match(i, m_fdiv(m_intrinsic("fabs", m_value("x")), m_deferred("x")))
        if m is not None:
            cs = ic.builder.create_binary_intrinsic("copysign", _fp_splat(i.type, 1.0), m.value("x"), fmf_source=i)
            return ic.replace_inst_uses_with(i, cs)
    r = _fold_fdiv_pow_divisor(ic, i)
    if r is not None:
        return r
    r = _fold_fdiv_sqrt_divisor(ic, i)
    if r is not None:
        return r
    if reassoc:
        m = match(op0, m_one_use(m_intrinsic("pow", m_specific(op1), m_value("y"))))
        if m is not None:
            y1 = create_fbin_fmf(ic, "fadd", m.value("y"), _fp_splat(i.type, -1.0), fmf)
            pw = b.create_binary_intrinsic("pow", op1, y1, fmf_source=i)
            return ic.replace_inst_uses_with(i, pw)
    return _fold_powi_reassoc(ic, i)


def _fold_fdiv_pow_divisor(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``X / pow(Y, Z) -> X * pow(Y, -Z)`` and the exp/exp2/powi forms (reassoc arcp)."""
    op0, op1 = i.operands[0], i.operands[1]
    fmf = _fmf(i)
    if getattr(op1, "opcode", None) != "call" or not op1.has_one_use:
        return None
    if not fmf & int(FastMathFlags.REASSOC) or not fmf & int(FastMathFlags.ARCP):
        return None
    base = getattr(op1, "intrinsic_base", "")
    b = ic.builder
    a = op1.operands  # type: ignore[attr-defined]
    if base == "llvm.pow":
        args = [a[0], create_fneg_fmf(ic, a[1], fmf)]
    elif base == "llvm.powi":
        if not fmf & int(FastMathFlags.NINF):
            return None
        args = [a[0], b.create_neg(a[1])]
        pw = b.create_intrinsic("powi", [i.type, a[1].type], args, fmf_source=i)
        return new_fbin("fmul", op0, pw, fmf)
    elif base in ("llvm.exp", "llvm.exp2"):
        args = [create_fneg_fmf(ic, a[0], fmf)]
    else:
        return None
    pw = b.create_intrinsic(base[5:], [i.type], args, fmf_source=i)
    return new_fbin("fmul", op0, pw, fmf)


def _fold_fdiv_sqrt_divisor(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``X / sqrt(Y / Z) -> X * sqrt(Z / Y)`` (reassoc arcp)."""
    fmf = _fmf(i)
    if not fmf & int(FastMathFlags.REASSOC) or not fmf & int(FastMathFlags.ARCP):
        return None
    op0, op1 = i.operands[0], i.operands[1]
    if getattr(op1, "opcode", None) != "call" or getattr(op1, "intrinsic_base", "") != "llvm.sqrt" or not op1.has_one_use:
        return None
    f1 = _fmf(op1)
    if not f1 & int(FastMathFlags.REASSOC) or not f1 & int(FastMathFlags.ARCP):
        return None
    div = op1.operands[0]  # type: ignore[attr-defined]
    if not isinstance(div, BinaryOperator) or div.opcode != "fdiv":
        return None
    if not _has_reassoc(div) or not div.has_one_use:
        return None
    swap = create_fbin_fmf(ic, "fdiv", div.operands[1], div.operands[0], _fmf(div))
    assert isinstance(op1, Instruction)
    sq = ic.builder.create_intrinsic("sqrt", [swap.type], [swap], fmf_source=op1)
    return new_fbin("fmul", op0, sq, fmf)


def visit_frem(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``frem`` (LLVM ``InstCombinerImpl::visitFRem``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_frem_inst(i.operands[0], i.operands[1], _fmf(i), ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_vector_binop(ic, i)
    if r is not None:
        return r
    return cm.fold_binop_with_phi_operands(ic, i)


__all__ = [
    "visit_mul",
    "visit_fmul",
    "visit_udiv",
    "visit_sdiv",
    "visit_fdiv",
    "visit_urem",
    "visit_srem",
    "visit_frem",
    "take_log2",
    "get_exact_log_base2",
    "common_idiv_transforms",
    "common_irem_transforms",
]
