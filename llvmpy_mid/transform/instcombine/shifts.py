"""InstCombine folds of shifts (LLVM ``lib/Transforms/InstCombine/InstCombineShifts.cpp``):
``visitShl``, ``visitLShr``, ``visitAShr``, ``commonShiftTransforms``,
``FoldShiftByConstant`` (with ``canEvaluateShifted`` / ``getShiftedValue``),
``reassociateShiftAmtsOfTwoSameDirectionShifts``, ``dropRedundantMaskingOfLeftShiftInput``,
``foldShiftOfShiftedBinOp``, ``foldLShrOverflowBit``, ``setShiftFlags`` and
``foldVariableSignZeroExtensionOfVariableHighBitExtract``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands, constant_fold_cast_operand
from llvmpy_mid.analysis.instruction_simplify import (
    simplify_add_inst,
    simplify_ashr_inst,
    simplify_lshr_inst,
    simplify_shl_inst,
    simplify_sub_inst,
)
from llvmpy_mid.analysis.instsimplify._util import const_int
from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
from llvmpy_mid.analysis.num_sign_bits import compute_num_sign_bits
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue, UndefValue, get_splat_value
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.types import IntegerType, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine.combiner import take_name
from llvmpy_mid.transform.instcombine.common import (
    intrinsic_base_of,
    fold_binop_into_select_or_phi,
    fold_binop_with_phi_operands,
    fold_op_into_select,
    fold_vector_binop,
    should_change_type,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

_SHIFTS = frozenset(("shl", "lshr", "ashr"))
_SHRS = frozenset(("lshr", "ashr"))


# --- small helpers ------------------------------------------------------------------------------


def _low(n: int) -> int:
    return (1 << n) - 1 if n > 0 else 0


def _width(ty: Type) -> int:
    s = ty.scalar_type
    assert isinstance(s, IntegerType)
    return s.width


def _opc(v: Value) -> str | None:
    return getattr(v, "opcode", None)


def _ops(v: Value) -> list[Value]:
    return v.operands  # type: ignore[attr-defined,no-any-return]


def _is_binop(v: Value) -> bool:
    return isinstance(v, BinaryOperator)


def _apint(v: Value) -> int | None:
    """``m_APInt``: a ConstantInt or a splat of one (no poison lanes)."""
    if type(v) is ConstantInt:
        return v.value
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if type(s) is ConstantInt:
            return s.value
    return None


def _apint_allow_poison(v: Value) -> int | None:
    if type(v) is ConstantInt:
        return v.value
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v, True)
        if type(s) is ConstantInt:
            return s.value
    return None


def _lanes_all(v: Value, pred: Callable[[int], bool]) -> bool:
    """LLVM ``cst_pred_ty`` with poison lanes allowed: every non-poison lane (at least
    one) of an integer constant satisfies ``pred`` (given the lane's unsigned value)."""
    if type(v) is ConstantInt:
        return pred(v.value)
    if not isinstance(v, Constant) or not isinstance(v.type, VectorType):
        return False
    s = get_splat_value(v)
    if type(s) is ConstantInt:
        return pred(s.value)
    if v.type.scalable:
        return False
    seen = False
    for k in range(v.type.count):
        e = v.get_aggregate_element(k)
        if e is None:
            return False
        if isinstance(e, PoisonValue):
            continue
        if type(e) is not ConstantInt or not pred(e.value):
            return False
        seen = True
    return seen


def _is_imm_constant(v: Value) -> bool:
    return pm.matches(v, _P_IMM)


_P_IMM = pm.m_imm_constant()


def _zext_or_self(v: Value) -> Value:
    if _opc(v) == "zext":
        return _ops(v)[0]
    return v


def _is_bool_ty(ty: Type) -> bool:
    s = ty.scalar_type
    return isinstance(s, IntegerType) and s.width == 1


def _nuw(v: Value) -> bool:
    return bool(getattr(v, "nuw", False))


def _nsw(v: Value) -> bool:
    return bool(getattr(v, "nsw", False))


def _exact(v: Value) -> bool:
    return bool(getattr(v, "exact", False))


def _binop(opcode: str, a: Value, b: Value, name: str = "") -> BinaryOperator:
    return BinaryOperator.create(opcode, a, b, name=name)


def _fold_const(opcode: str, a: Constant, b: Constant, ic: InstCombiner) -> Constant:
    """``ConstantExpr::get<Op>`` for the opcodes still folded eagerly: fold, else an expression."""
    r = constant_fold_binary_op_operands(opcode, a, b, ic.dl)
    if r is not None:
        return r
    return ConstantExpr.get_binary(opcode, a, b)


# --- reassociateShiftAmtsOfTwoSameDirectionShifts ------------------------------------------------


def _can_try_to_constant_add_two_shift_amounts(sh0: Value, amt0: Value, sh1: Value, amt1: Value) -> bool:
    if amt0.type is not amt1.type:
        return False
    max_total = (_width(sh0.type) - 1) + (_width(sh1.type) - 1)
    return _low(_width(amt0.type)) >= max_total


def reassociate_shift_amts_of_two_same_direction_shifts(
    ic: InstCombiner, sh0: Instruction, sq: SimplifyQuery, analyze_for_sign_bit_extraction: bool = False
) -> Value | None:
    """(x shiftop Q) shiftop K -> x shiftop (Q+K) iff (Q+K) u< bitwidth(x)
    (LLVM ``reassociateShiftAmtsOfTwoSameDirectionShifts``)."""
    if _opc(sh0) not in _SHIFTS:
        return None
    sh0_op0 = _ops(sh0)[0]
    if not isinstance(sh0_op0, Instruction):
        return None
    amt0 = _zext_or_self(_ops(sh0)[1])
    trunc: Value | None = None
    sh1: Value = sh0_op0
    if sh0_op0.opcode == "trunc" and isinstance(sh0_op0.operands[0], Instruction):
        trunc = sh0_op0
        sh1 = sh0_op0.operands[0]
    if _opc(sh1) not in _SHIFTS:
        return None
    x = _ops(sh1)[0]
    amt1 = _zext_or_self(_ops(sh1)[1])
    if not _can_try_to_constant_add_two_shift_amounts(sh0, amt0, sh1, amt1):
        return None
    had_two_right = _opc(sh0) in _SHRS and _opc(sh1) in _SHRS
    if analyze_for_sign_bit_extraction and not had_two_right:
        return None
    opcode = sh0.opcode
    identical = sh0.opcode == _opc(sh1)
    if not identical and not analyze_for_sign_bit_extraction:
        return None
    if trunc is not None and not analyze_for_sign_bit_extraction:
        if not (sh0.operands[0].has_one_use or sh0.operands[1].has_one_use):
            return None
    new_amt = simplify_add_inst(amt0, amt1, False, False, sq.get_with_instruction(sh0))
    if not isinstance(new_amt, Constant):
        return None
    amt_w = _width(new_amt.type)
    x_w = _width(x.type)
    if not _lanes_all(new_amt, lambda a: a < (x_w & _low(amt_w))):
        return None
    if had_two_right and (trunc is not None or analyze_for_sign_bit_extraction):
        if not _lanes_all(new_amt, lambda a: a == ((x_w - 1) & _low(amt_w))):
            return None
        if analyze_for_sign_bit_extraction:
            return x
    if new_amt.type is not x.type:
        folded = constant_fold_cast_operand("zext", new_amt, x.type, sq.dl)
        if folded is None:
            return None
        new_amt = folded
    new_shift = _binop(opcode, x, new_amt)
    if trunc is None:
        if opcode == "shl":
            new_shift.nuw = _nuw(sh0) and _nuw(sh1)
            new_shift.nsw = _nsw(sh0) and _nsw(sh1)
        else:
            new_shift.exact = _exact(sh0) and _exact(sh1)
        return new_shift
    ic.builder.insert(new_shift)
    return CastInst.create("trunc", new_shift, sh0.type)


# --- dropRedundantMaskingOfLeftShiftInput --------------------------------------------------------

_P_MASK_A = pm.m_add(pm.m_shl(pm.m_one(), pm.m_value("m")), pm.m_all_ones())
_P_MASK_B = pm.m_not(pm.m_shl(pm.m_all_ones(), pm.m_value("m")))
_P_MASK_C = pm.m_lshr(pm.m_all_ones(), pm.m_value("m"))
_P_MASK_D = pm.m_lshr(pm.m_shl(pm.m_all_ones(), pm.m_value("m")), pm.m_deferred("m"))
_P_AND_AB = pm.m_c_and(pm.m_combine_or(_P_MASK_A, _P_MASK_B), pm.m_value("x"))
_P_AND_CD = pm.m_c_and(pm.m_combine_or(_P_MASK_C, _P_MASK_D), pm.m_value("x"))
_P_SHR_SHL_SAME = pm.m_combine_or(
    pm.m_lshr(pm.m_shl(pm.m_value("x"), pm.m_value("m")), pm.m_deferred("m")),
    pm.m_ashr(pm.m_shl(pm.m_value("x"), pm.m_value("m")), pm.m_deferred("m")),
)


def _replace_undefs_with(c: Constant, repl: Constant) -> Constant:
    """``Constant::replaceUndefsWith`` (lanes that are undef or poison become ``repl``)."""
    ty = c.type
    if isinstance(c, UndefValue):
        if isinstance(ty, VectorType):
            from llvmpy_mid.ir.constants import ConstantVector

            return ConstantVector.get_splat(ty, repl)
        return repl
    if not isinstance(ty, VectorType) or ty.scalable:
        return c
    elts: list[Constant] = []
    changed = False
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if e is None:
            return c
        if isinstance(e, UndefValue):
            e = repl
            changed = True
        elts.append(e)
    if not changed:
        return c
    from llvmpy_mid.ir.constants import ConstantVector

    return ConstantVector.get(elts)


def drop_redundant_masking_of_left_shift_input(ic: InstCombiner, outer: Instruction, q: SimplifyQuery) -> Instruction | None:
    """(x & low-mask) << s -> x << s when the mask keeps every bit that survives the shift
    (LLVM ``dropRedundantMaskingOfLeftShiftInput``, patterns a-f)."""
    masked = outer.operands[0]
    shift_amt = _zext_or_self(outer.operands[1])
    if _opc(masked) == "trunc":
        trunc = masked
        masked = _ops(masked)[0]
        if not trunc.has_one_use:
            return None
    narrowest = outer.type
    widest = masked.type
    had_trunc = widest is not narrowest
    ctx = widest.context
    w_widest = _width(widest)
    ext_scalar = ctx.int_type(2 * w_widest)
    ext_ty: Type = ctx.vector_type(ext_scalar, widest.count, widest.scalable) if isinstance(widest, VectorType) else ext_scalar
    new_mask: Constant | None
    m = pm.match(masked, _P_AND_AB)
    if m is not None:
        mask_amt = _zext_or_self(m.value("m"))
        x = m.value("x")
        if not _can_try_to_constant_add_two_shift_amounts(outer, shift_amt, masked, mask_amt):
            return None
        sum_amts = simplify_add_inst(mask_amt, shift_amt, False, False, q)
        if not isinstance(sum_amts, Constant):
            return None
        sum_amts = _replace_undefs_with(sum_amts, ConstantInt.get(sum_amts.type.scalar_type, _width(ext_ty)))
        ext_sum = constant_fold_cast_operand("zext", sum_amts, ext_ty, q.dl)
        if ext_sum is None:
            return None
        inv = constant_fold_binary_op_operands("shl", Constant.get_all_ones_value(ext_ty), ext_sum, q.dl)
        if inv is None:
            return None
        new_mask = ConstantExpr.get_not(inv)
    else:
        m = pm.match(masked, _P_AND_CD)
        if m is None:
            m = pm.match(masked, _P_SHR_SHL_SAME)
        if m is None:
            return None
        mask_amt = _zext_or_self(m.value("m"))
        x = m.value("x")
        if not _can_try_to_constant_add_two_shift_amounts(outer, shift_amt, masked, mask_amt):
            return None
        diff = simplify_sub_inst(shift_amt, mask_amt, False, False, q)
        if not isinstance(diff, Constant):
            return None
        diff = _replace_undefs_with(diff, ConstantInt.get(diff.type.scalar_type, -w_widest))
        num_high = _fold_const("sub", const_int(diff.type, w_widest), diff, ic)
        ext_num = constant_fold_cast_operand("zext", num_high, ext_ty, q.dl)
        if ext_num is None:
            return None
        new_mask = constant_fold_binary_op_operands("lshr", Constant.get_all_ones_value(ext_ty), ext_num, q.dl)
        if new_mask is None:
            return None
    tr = constant_fold_cast_operand("trunc", new_mask, narrowest, q.dl)
    new_mask = tr if tr is not None else ConstantExpr.get_cast("trunc", new_mask, narrowest)
    need_mask = not pm.matches(new_mask, _P_ALL_ONES)
    if need_mask:
        if not masked.has_one_use:
            return None
        if _opc(masked) == "ashr":
            return None
    if had_trunc:
        x = ic.builder.create_trunc(x, narrowest)
    new_shift = _binop(outer.opcode, x, outer.operands[1])
    if not need_mask:
        return new_shift
    ic.builder.insert(new_shift)
    return _binop("and", new_shift, new_mask)


_P_ALL_ONES = pm.m_all_ones()


# --- foldShiftOfShiftedBinOp -------------------------------------------------------------------


def fold_shift_of_shifted_bin_op(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """shift (binop (shift X, C0), Y), C1 -> binop (shift X, C0+C1), (shift Y, C1)
    (LLVM ``foldShiftOfShiftedBinOp``)."""
    bin_inst = i.operands[0]
    if not isinstance(bin_inst, BinaryOperator):
        return None
    bop = bin_inst.opcode
    if bop not in ("and", "or", "xor", "add", "sub") or not bin_inst.has_one_use:
        return None
    c1 = i.operands[1]
    if not isinstance(c1, Constant):
        return None
    sh_op = i.opcode
    if bop in ("add", "sub") and sh_op != "shl":
        return None
    ty = i.type
    size = _width(ty)

    def match_first(v: Value, w: Value) -> tuple[Value, Constant] | None:
        if _opc(v) != sh_op or not isinstance(v, BinaryOperator):
            return None
        c0 = v.operands[1]
        if not isinstance(c0, Constant):
            return None
        if not (v.has_one_use or _is_imm_constant(w)):
            return None
        s = _fold_const("add", c0, c1, ic)
        if not _lanes_all(s, lambda a: a < (size & _low(size))):
            return None
        return v.operands[0], c0

    first_is_op1 = False
    r = match_first(bin_inst.operands[0], bin_inst.operands[1])
    if r is not None:
        y = bin_inst.operands[1]
    else:
        r = match_first(bin_inst.operands[1], bin_inst.operands[0])
        if r is None:
            return None
        y = bin_inst.operands[0]
        first_is_op1 = bop == "sub"
    x, c0 = r
    shift_sum = _fold_const("add", c0, c1, ic)
    b = ic.builder
    new1 = b.create_bin_op(sh_op, x, shift_sum)
    new2 = b.create_bin_op(sh_op, y, c1)
    a1, a2 = (new2, new1) if first_is_op1 else (new1, new2)
    return _binop(bop, a1, a2)


# --- commonShiftTransforms ------------------------------------------------------------------------


def common_shift_transforms(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``commonShiftTransforms``: the folds shared by shl, lshr and ashr."""
    assert isinstance(i, BinaryOperator)
    r = fold_binop_with_phi_operands(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    # shift X, (sext Y) -> shift X, (zext Y) for a one-use sext.
    if _opc(op1) == "sext" and op1.has_one_use:
        new_ext = ic.builder.create_zext(_ops(op1)[0], ty, op1.name)
        return _binop(i.opcode, op0, new_ext)
    if ic.simplify_demanded_instruction_bits(i):
        return i
    if isinstance(op0, Constant) and isinstance(op1, SelectInst):
        r = fold_op_into_select(ic, i, op1)
        if r is not None:
            return r
    if isinstance(op1, Constant):
        r = fold_shift_by_constant(ic, op0, op1, i)
        if r is not None:
            return r
    v = reassociate_shift_amts_of_two_same_direction_shifts(ic, i, ic.sq)
    if v is not None:
        assert isinstance(v, Instruction)
        return v
    bw = _width(ty)
    # C shift (A add nuw C1) -> (C shift C1) shift A
    if isinstance(op0, Constant):
        a_c1 = _nuw_add_like(op1)
        if a_c1 is not None:
            a, c1 = a_c1
            new_c = ic.builder.create_bin_op(i.opcode, op0, c1)
            new = _binop(i.opcode, new_c, a)
            if i.opcode == "shl":
                new.nsw = i.nsw
                new.nuw = i.nuw
            else:
                new.exact = i.exact
            return new
    ac = _apint(op0)
    if ac is not None and _opc(op1) == "add":
        add_c = _apint(_ops(op1)[1])
        if add_c is not None and add_c >> (bw - 1):
            pos = (-add_c) & _low(bw)
            if pos < bw:
                suitable = False
                if i.opcode == "shl":
                    suitable = (i.nsw or i.nuw) and ac == ((ac >> pos) << pos) & _low(bw)
                elif i.opcode == "lshr":
                    suitable = i.exact and ac == ((ac << pos) & _low(bw)) >> pos
                else:
                    suitable = i.exact and ac == _ashr((ac << pos) & _low(bw), pos, bw)
                if suitable:
                    new_c_val = (ac >> pos) if i.opcode == "shl" else (ac << pos) & _low(bw)
                    new = _binop(i.opcode, const_int(ty, new_c_val), _ops(op1)[0])
                    if i.opcode == "shl":
                        new.nuw = i.nuw
                    else:
                        new.exact = True
                    return new
    # X shift (A srem C) -> X shift (A and (C - 1)) for a power-of-2 C.
    if op1.has_one_use and _opc(op1) == "srem":
        c = _ops(op1)[1]
        if isinstance(c, Constant) and pm.matches(c, _P_POW2):
            mask = _fold_const("sub", c, const_int(ty, 1), ic)
            rem = ic.builder.create_and(_ops(op1)[0], mask, op1.name)
            return ic.replace_operand(i, 1, rem)
    r = fold_shift_of_shifted_bin_op(ic, i)
    if r is not None:
        return r
    if _opc(op1) == "or" and _apint(_ops(op1)[1]) == bw - 1:
        return ic.replace_operand(i, 1, const_int(ty, bw - 1))
    return None


_P_POW2 = pm.m_power2()


def _ashr(v: int, amt: int, w: int) -> int:
    if v >> (w - 1):
        v -= 1 << w
    return (v >> amt) & _low(w)


def _nuw_add_like(v: Value) -> tuple[Value, Constant] | None:
    """``m_NUWAddLike(m_Value(A), m_Constant(C1))``: ``add nuw A, C1`` or ``or disjoint A, C1``."""
    op = _opc(v)
    if op == "add" and _nuw(v):
        c = _ops(v)[1]
        if isinstance(c, Constant):
            return _ops(v)[0], c
    elif op == "or" and bool(getattr(v, "disjoint", False)):
        c = _ops(v)[1]
        if isinstance(c, Constant):
            return _ops(v)[0], c
    return None


# --- canEvaluateShifted / getShiftedValue -----------------------------------------------------------


def _can_evaluate_shifted_shift(outer_amt: int, is_outer_shl: bool, inner: Instruction, ic: InstCombiner, cxt: Instruction) -> bool:
    inner_c = _apint(inner.operands[1])
    if inner_c is None:
        return False
    is_inner_shl = inner.opcode == "shl"
    if is_inner_shl == is_outer_shl:
        return True
    if inner_c == outer_amt:
        return True
    tw = _width(inner.type)
    if inner_c > outer_amt and inner_c < tw:
        mask_shift = tw - inner_c if is_inner_shl else inner_c - outer_amt
        mask = (_low(outer_amt) << mask_shift) & _low(tw)
        if ic.masked_value_is_zero(inner.operands[0], mask, 0, cxt):
            return True
    return False


def can_evaluate_shifted(v: Value, num_bits: int, is_left: bool, ic: InstCombiner, cxt: Instruction) -> bool:
    """``canEvaluateShifted``: ``v`` can be computed shifted by ``num_bits`` for free."""
    if _is_imm_constant(v):
        return True
    if not isinstance(v, Instruction) or not v.has_one_use:
        return False
    op = v.opcode
    if op in ("and", "or", "xor"):
        return can_evaluate_shifted(v.operands[0], num_bits, is_left, ic, v) and can_evaluate_shifted(
            v.operands[1], num_bits, is_left, ic, v
        )
    if op in ("shl", "lshr"):
        return _can_evaluate_shifted_shift(num_bits, is_left, v, ic, cxt)
    if op == "select":
        return can_evaluate_shifted(v.operands[1], num_bits, is_left, ic, v) and can_evaluate_shifted(
            v.operands[2], num_bits, is_left, ic, v
        )
    if isinstance(v, PHINode):
        for inc in v.incoming_values:
            if not can_evaluate_shifted(inc, num_bits, is_left, ic, v):
                return False
        return True
    if op == "mul":
        c = _apint(v.operands[1])
        if is_left or c is None:
            return False
        w = _width(v.type)
        neg = (-c) & _low(w)
        return c != 0 and neg != 0 and neg & (neg - 1) == 0 and _ctz(c) == num_bits
    return False


def _ctz(x: int) -> int:
    return (x & -x).bit_length() - 1 if x else 0


def _fold_shifted_shift(inner: BinaryOperator, outer_amt: int, is_outer_shl: bool, ic: InstCombiner) -> Value:
    is_inner_shl = inner.opcode == "shl"
    sh_ty = inner.type
    tw = _width(sh_ty)
    c1 = _apint(inner.operands[1])
    assert c1 is not None
    inner_amt = c1

    def new_inner(amt: int) -> Value:
        inner.set_operand(1, const_int(sh_ty, amt))
        if is_inner_shl:
            inner.nuw = False
            inner.nsw = False
        else:
            inner.exact = False
        return inner

    if is_inner_shl == is_outer_shl:
        if inner_amt + outer_amt >= tw:
            return Constant.get_null_value(sh_ty)
        return new_inner(inner_amt + outer_amt)
    if inner_amt == outer_amt:
        mask = _low(tw - outer_amt) if is_inner_shl else (_low(tw) & ~_low(outer_amt))
        and_ = ic.builder.create_and(inner.operands[0], const_int(sh_ty, mask))
        if isinstance(and_, Instruction):
            and_.move_before(inner)
            take_name(and_, inner)
        return and_
    return new_inner(inner_amt - outer_amt)


def get_shifted_value(v: Value, num_bits: int, is_left: bool, ic: InstCombiner) -> Value:
    """``getShiftedValue``: emit ``v`` shifted (after :func:`can_evaluate_shifted` said yes)."""
    if isinstance(v, Constant):
        if is_left:
            return ic.builder.create_shl(v, const_int(v.type, num_bits))
        return ic.builder.create_lshr(v, const_int(v.type, num_bits))
    assert isinstance(v, Instruction)
    ic.add_to_worklist(v)
    op = v.opcode
    if op in ("and", "or", "xor"):
        v.set_operand(0, get_shifted_value(v.operands[0], num_bits, is_left, ic))
        v.set_operand(1, get_shifted_value(v.operands[1], num_bits, is_left, ic))
        return v
    if op in ("shl", "lshr"):
        assert isinstance(v, BinaryOperator)
        return _fold_shifted_shift(v, num_bits, is_left, ic)
    if op == "select":
        v.set_operand(1, get_shifted_value(v.operands[1], num_bits, is_left, ic))
        v.set_operand(2, get_shifted_value(v.operands[2], num_bits, is_left, ic))
        return v
    if isinstance(v, PHINode):
        for k in range(v.num_incoming):
            v.set_incoming_value(k, get_shifted_value(v.get_incoming_value(k), num_bits, is_left, ic))
        return v
    assert op == "mul" and not is_left
    neg = BinaryOperator.create("sub", Constant.get_null_value(v.type), v.operands[0])
    ic.insert_new_inst_with(neg, v)
    tw = _width(v.type)
    and_ = BinaryOperator.create("and", neg, const_int(v.type, _low(tw - num_bits)))
    take_name(and_, v)
    return ic.insert_new_inst_with(and_, v)


def _can_shift_binop_with_constant_rhs(shift: Instruction, bo: Instruction) -> bool:
    op = bo.opcode
    if op == "add":
        return shift.opcode == "shl"
    if op in ("or", "and"):
        return True
    if op == "xor":
        return not (shift.opcode in ("shl", "lshr") and pm.matches(bo, _P_NOT))
    return False


_P_NOT = pm.m_not(pm.m_value())


def fold_shift_by_constant(ic: InstCombiner, op0: Value, c1: Constant, i: Instruction) -> Instruction | None:
    """``FoldShiftByConstant``: folds of a shift by a constant amount."""
    assert isinstance(i, BinaryOperator)
    opcode = i.opcode
    is_left = opcode == "shl"
    # (C2 << X) << C1 -> (C2 << C1) << X
    if _opc(op0) == opcode and isinstance(op0, BinaryOperator) and _is_imm_constant(op0.operands[0]):
        c2 = op0.operands[0]
        r = _binop(opcode, ic.builder.create_bin_op(opcode, c2, c1), op0.operands[1])
        if is_left:
            r.nuw = i.nuw and op0.nuw
            r.nsw = i.nsw and op0.nsw
        else:
            r.exact = i.exact and op0.exact
        return r
    ty = i.type
    type_bits = _width(ty)
    if not is_left and _apint_allow_poison(c1) == type_bits - 1 and _opc(op0) == "sdiv":
        div_c = _apint(_ops(op0)[1])
        if div_c is not None and div_c != 0 and div_c != 1 << (type_bits - 1):
            x = _ops(op0)[0]
            neg_div = const_int(ty, -div_c)
            pred = "sge" if div_c >> (type_bits - 1) else "sle"
            cmp = ic.builder.create_icmp(pred, x, neg_div)
            return CastInst.create("sext" if opcode == "ashr" else "zext", cmp, ty)
    op1c = _apint(c1)
    if op1c is None:
        return None
    if opcode != "ashr" and can_evaluate_shifted(op0, op1c, is_left, ic, i):
        return ic.replace_inst_uses_with(i, get_shifted_value(op0, op1c, is_left, ic))
    r2 = fold_binop_into_select_or_phi(ic, i)
    if r2 is not None:
        return r2
    if not op0.has_one_use:
        return None
    if isinstance(op0, BinaryOperator) and _apint(op0.operands[1]) is not None:
        if _can_shift_binop_with_constant_rhs(i, op0):
            b = ic.builder
            new_rhs = b.create_bin_op(opcode, op0.operands[1], c1)
            new_shift = b.create_bin_op(opcode, op0.operands[0], c1)
            take_name(new_shift, op0)
            return _binop(op0.opcode, new_shift, new_rhs)
    if isinstance(op0, SelectInst):
        cond, tv, fv = op0.operands
        if isinstance(tv, BinaryOperator) and tv.has_one_use:
            tbo = tv
            if (
                not isinstance(fv, Constant)
                and tbo.operands[0] is fv
                and _apint(tbo.operands[1]) is not None
                and _can_shift_binop_with_constant_rhs(i, tbo)
            ):
                b = ic.builder
                new_rhs = b.create_bin_op(opcode, tbo.operands[1], c1)
                new_shift = b.create_bin_op(opcode, fv, c1)
                new_op = b.create_bin_op(tbo.opcode, new_shift, new_rhs)
                return SelectInst(cond, new_op, new_shift)
        if isinstance(fv, BinaryOperator) and fv.has_one_use:
            fbo = fv
            if (
                not isinstance(tv, Constant)
                and fbo.operands[0] is tv
                and _apint(fbo.operands[1]) is not None
                and _can_shift_binop_with_constant_rhs(i, fbo)
            ):
                b = ic.builder
                new_rhs = b.create_bin_op(opcode, fbo.operands[1], c1)
                new_shift = b.create_bin_op(opcode, tv, c1)
                new_op = b.create_bin_op(fbo.opcode, new_shift, new_rhs)
                return SelectInst(cond, new_shift, new_op)
    return None


# --- lshr overflow bit, shift flags ---------------------------------------------------------------


def fold_lshr_overflow_bit(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """(lshr (add (zext X), (zext Y)), K) -> zext (icmp ult (add X, Y), X) for K-bit X, Y
    (LLVM ``foldLShrOverflowBit``)."""
    add = i.operands[0]
    ty = i.type
    if _width(ty) < 3:
        return None
    sh = _apint(i.operands[1])
    if sh is None or _opc(add) != "add":
        return None
    a, b = _ops(add)
    if not (_opc(a) == "zext" and a.has_one_use and _opc(b) == "zext" and b.has_one_use):
        return None
    x, y = _ops(a)[0], _ops(b)[0]
    if sh == 1:
        return None
    if _width(x.type) != sh or _width(y.type) != sh:
        return None
    if not add.has_one_use:
        for u in add.users:
            if u is i:
                continue
            if _opc(u) != "trunc" or _width(u.type) > sh:
                return None
    assert isinstance(add, Instruction)
    bld = ic.builder
    bld.position_before(add)
    bld.debug_loc = add.debug_loc
    narrow = bld.create_add(x, y, "add.narrowed")
    overflow = bld.create_icmp("ult", narrow, x, "add.narrowed.overflow")
    if not add.has_one_use:
        ic.replace_inst_uses_with(add, bld.create_zext(narrow, ty))
        ic.erase_inst_from_function(add)
    return CastInst.create("zext", overflow, ty)


def set_shift_flags(i: BinaryOperator, q: SimplifyQuery) -> bool:
    """``setShiftFlags``: infer nuw/nsw on shl and exact on lshr/ashr from known bits."""
    if i.opcode == "shl":
        if i.nuw and i.nsw:
            return False
    else:
        if i.exact:
            return False
        op0 = i.operands[0]
        if _opc(op0) == "shl" and _ops(op0)[1] is i.operands[1]:
            i.exact = True
            return True
    known_cnt = compute_known_bits(i.operands[1], q)
    bw = known_cnt.bit_width
    max_cnt = min(known_cnt.get_max_value(), bw - 1)
    known_amt = compute_known_bits(i.operands[0], q)
    changed = False
    if i.opcode == "shl":
        if not i.nuw and max_cnt <= known_amt.count_min_leading_zeros():
            i.nuw = True
            changed = True
        if not i.nsw:
            if max_cnt < known_amt.count_min_sign_bits() or max_cnt < compute_num_sign_bits(i.operands[0], SimplifyQuery(q.dl, None, q.dt, q.ac, q.cxt_i)):
                i.nsw = True
                changed = True
        return changed
    changed = max_cnt <= known_amt.count_min_trailing_zeros()
    i.exact = changed
    return changed


# --- visitShl -------------------------------------------------------------------------------------


def visit_shl(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``shl`` (LLVM ``visitShl``)."""
    assert isinstance(i, BinaryOperator)
    q = ic.query(i)
    v = simplify_shl_inst(i.operands[0], i.operands[1], i.nsw, i.nuw, q)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = common_shift_transforms(ic, i)
    if r is not None:
        return r
    r = drop_redundant_masking_of_left_shift_input(ic, i, q)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    bw = _width(ty)
    b = ic.builder
    c = _apint(op1)
    if c is not None:
        sh = c
        # shl (zext X), C -> zext (shl X, C) when the shifted-out bits are zero
        if _opc(op0) == "zext" and op0.has_one_use:
            x = _ops(op0)[0]
            src_w = _width(x.type)
            if sh < src_w and ic.masked_value_is_zero(x, _low(src_w) & ~_low(src_w - sh), 0, i):
                return CastInst.create("zext", b.create_shl(x, const_int(x.type, sh)), ty)
        # (X >> C) << C -> X & (-1 << C)
        if _opc(op0) in _SHRS and _ops(op0)[1] is op1:
            mask = _low(bw) & ~_low(sh)
            return _binop("and", _ops(op0)[0], const_int(ty, mask))
        if _opc(op0) in _SHRS and _exact(op0):
            c1 = _apint(_ops(op0)[1])
            if c1 is not None and c1 < bw:
                x = _ops(op0)[0]
                if c1 < sh:
                    new = _binop("shl", x, const_int(ty, sh - c1))
                    new.nuw = i.nuw or (c1 != 0 and _opc(op0) == "lshr" and i.nsw)
                    new.nsw = i.nsw
                    return new
                if c1 > sh:
                    new = _binop(_opc(op0) or "", x, const_int(ty, c1 - sh))
                    new.exact = True
                    return new
        if _opc(op0) in _SHRS and op0.has_one_use:
            c1 = _apint(_ops(op0)[1])
            if c1 is not None and c1 < bw:
                x = _ops(op0)[0]
                mask = _low(bw) & ~_low(sh)
                if c1 < sh:
                    new = _binop("shl", x, const_int(ty, sh - c1))
                    new.nuw = i.nuw or (c1 != 0 and _opc(op0) == "lshr" and i.nsw)
                    new.nsw = i.nsw
                    b.insert(new)
                    return _binop("and", new, const_int(ty, mask))
                if c1 > sh:
                    new = _binop(_opc(op0) or "", x, const_int(ty, c1 - sh))
                    new.exact = _exact(op0)
                    b.insert(new)
                    return _binop("and", new, const_int(ty, mask))
        # (trunc (X >> C1)) << C
        if _opc(op0) == "trunc" and op0.has_one_use:
            tshr = _ops(op0)[0]
            if isinstance(tshr, BinaryOperator) and tshr.has_one_use and tshr.opcode in _SHRS:
                c1 = _apint(tshr.operands[1])
                if c1 is not None:
                    x = tshr.operands[0]
                    diff = c1 - sh if c1 > sh else sh - c1
                    sopc = tshr.opcode if c1 > sh else "shl"
                    ns = b.create_bin_op(sopc, x, const_int(x.type, diff), "sh.diff")
                    tr = b.create_trunc(ns, ty, "tr.sh.diff")
                    return _binop("and", tr, const_int(ty, _low(bw) & ~_low(sh)))
        if isinstance(op0, BinaryOperator) and op0.has_one_use and op0.opcode in ("add", "and", "or", "xor", "sub"):
            shr: Value = op0.operands[0]
            y = op0.operands[1]
            if op0.is_commutative and y.has_one_use and (_is_shr_by(y, op1) or _is_and_of_one_use_shr_by(y, op1)):
                shr, y = y, shr
            if _is_shr_by(shr, op1) and shr.has_one_use:
                x = _ops(shr)[0]
                ys = b.create_shl(y, op1, op0.name)
                bb = b.create_bin_op(op0.opcode, x, ys, shr.name)
                op1val = min(sh, bw)
                return _binop("and", bb, const_int(ty, _low(bw) & ~_low(op1val)))
            if _opc(shr) == "and" and shr.has_one_use and _is_and_of_one_use_shr_by(shr, op1):
                inner = _ops(shr)[0]
                cc = _apint(_ops(shr)[1])
                assert cc is not None
                x = _ops(inner)[0]
                ys = b.create_shl(y, op1, op0.name)
                mm = b.create_and(x, const_int(ty, (cc << sh) & _low(bw)), x.name + ".mask" if x.name else ".mask")
                new = _binop(op0.opcode, mm, ys)
                if op0.opcode == "or" and op0.disjoint:
                    new.disjoint = True
                return new
        # (C1 - X) << C -> (C1 << C) - (X << C)
        if _opc(op0) == "sub" and op0.has_one_use:
            c1 = _apint(_ops(op0)[0])
            if c1 is not None:
                new_lhs = const_int(ty, (c1 << sh) & _low(bw))
                new_shift = b.create_shl(_ops(op0)[1], op1)
                return _binop("sub", new_lhs, new_shift)
    if set_shift_flags(i, q):
        return i
    # (x >> y) << y -> x & (-1 << y)
    if _opc(op0) in _SHRS and op0.has_one_use and _ops(op0)[1] is op1:
        mask_v = b.create_shl(Constant.get_all_ones_value(ty), op1)
        return _binop("and", mask_v, _ops(op0)[0])
    # (-1 >> y) << y -> -1 << y
    if _opc(op0) == "lshr" and _ops(op0)[1] is op1 and pm.matches(_ops(op0)[0], _P_ALL_ONES):
        return _binop("shl", Constant.get_all_ones_value(ty), op1)
    if _is_imm_constant(op1):
        assert isinstance(op1, Constant)
        if _opc(op0) == "mul" and _is_imm_constant(_ops(op0)[1]):
            return _binop("mul", _ops(op0)[0], b.create_shl(_ops(op0)[1], op1))
        if _opc(op0) == "zext" and _is_bool_ty(_ops(op0)[0].type):
            new_c = b.create_shl(const_int(ty, 1), op1)
            return SelectInst(_ops(op0)[0], new_c, Constant.get_null_value(ty))
    if pm.matches(op0, _P_ONE):
        if _opc(op1) == "sub" and _apint(_ops(op1)[0]) == bw - 1:
            return _binop("lshr", const_int(ty, 1 << (bw - 1)), _ops(op1)[1])
        if op1.has_one_use and intrinsic_base_of(op1) == "cttz":
            x = _ops(op1)[0]
            neg = b.create_neg(x, "neg")
            return _binop("and", neg, x)
    return None


_P_ONE = pm.m_one()


def _is_shr_by(v: Value, amt: Value) -> bool:
    return _opc(v) in _SHRS and _ops(v)[1] is amt


def _is_and_of_one_use_shr_by(v: Value, amt: Value) -> bool:
    if _opc(v) != "and":
        return False
    inner = _ops(v)[0]
    return inner.has_one_use and _is_shr_by(inner, amt) and _apint(_ops(v)[1]) is not None


# --- visitLShr ------------------------------------------------------------------------------------


def _is_suitable_lshr_binop(opcode: str) -> bool:
    return opcode in ("add", "and", "or", "xor")


def visit_lshr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``lshr`` (LLVM ``visitLShr``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_lshr_inst(i.operands[0], i.operands[1], i.exact, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = common_shift_transforms(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    bw = _width(ty)
    b = ic.builder
    # (iN (~X) u>> (N - 1)) -> zext (X > -1)
    if pm.matches(op0, _P_ONEUSE_NOT) and _apint_allow_poison(op1) == bw - 1:
        x = _not_operand(op0)
        return CastInst.create("zext", b.create_is_not_neg(x, "isnotneg"), ty)
    # ((X << nuw Z) sub nuw Y) >>u exact Z -> X sub nuw (Y >>u exact Z)
    if i.exact and _opc(op0) == "sub" and op0.has_one_use and _nuw(op0):
        s0, s1 = _ops(op0)
        if _opc(s0) == "shl" and _nuw(s0) and _ops(s0)[1] is op1:
            new_lshr = b.create_lshr(s1, op1, "", exact=True)
            new = _binop("sub", _ops(s0)[0], new_lshr)
            new.nuw = True
            new.nsw = _nsw(op0)
            return new
    # (X + Y) >> 1 -> X & Y when both are 0 or 1
    if _opc(op0) == "add" and pm.matches(op1, _P_ONE):
        x, y = _ops(op0)
        if (
            ic.compute_known_bits(x, 0, i).count_max_active_bits() <= 1
            and ic.compute_known_bits(y, 0, i).count_max_active_bits() <= 1
        ):
            return _binop("and", x, y)
    # (sub nuw X, (Y << nuw Z)) >>u exact Z -> (X >>u exact Z) sub nuw Y
    if i.exact and _opc(op0) == "sub" and op0.has_one_use and _nuw(op0):
        s0, s1 = _ops(op0)
        if _opc(s1) == "shl" and _nuw(s1) and _ops(s1)[1] is op1:
            new_lshr = b.create_lshr(s0, op1, "", exact=True)
            new = _binop("sub", new_lshr, _ops(s1)[0])
            new.nuw = True
            new.nsw = _nsw(op0)
            return new
    # ((X << nuw Z) binop nuw Y) >>u Z -> X binop nuw (Y >>u Z)
    if isinstance(op0, BinaryOperator) and op0.has_one_use and _is_suitable_lshr_binop(op0.opcode):
        for k in (0, 1):
            shl_v = op0.operands[k]
            if _opc(shl_v) == "shl" and _nuw(shl_v) and _ops(shl_v)[1] is op1:
                x = _ops(shl_v)[0]
                y = op0.operands[1 - k]
                has_wrap = op0.opcode == "add"
                if has_wrap and not op0.nuw:
                    break
                new_lshr = b.create_lshr(y, op1, "", exact=i.exact and op0.opcode != "and")
                new = _binop(op0.opcode, new_lshr, x)
                if has_wrap:
                    new.nuw = True
                    new.nsw = op0.nsw
                elif op0.opcode == "or":
                    new.disjoint = op0.disjoint
                return new
    c = _apint(op1)
    if c is not None:
        sh = c
        iid = intrinsic_base_of(op0)
        if iid in ("ctlz", "cttz", "ctpop") and bw & (bw - 1) == 0 and bw.bit_length() - 1 == sh:
            rhs = const_int(ty, -1 if iid == "ctpop" else 0)
            cmp = b.create_icmp("eq", _ops(op0)[0], rhs)
            return CastInst.create("zext", cmp, ty)
        if _opc(op0) == "shl":
            c1 = _apint(_ops(op0)[1])
            if c1 is not None and c1 < bw:
                x = _ops(op0)[0]
                if c1 < sh:
                    diff = const_int(ty, sh - c1)
                    if _nuw(op0):
                        new = _binop("lshr", x, diff)
                        new.exact = i.exact
                        return new
                    if op0.has_one_use:
                        nl = b.create_lshr(x, diff, "", exact=i.exact)
                        return _binop("and", nl, const_int(ty, _low(bw - sh)))
                elif c1 > sh:
                    diff = const_int(ty, c1 - sh)
                    if _nuw(op0):
                        new = _binop("shl", x, diff)
                        new.nuw = True
                        new.nsw = sh > 0
                        return new
                    if op0.has_one_use:
                        ns = b.create_shl(x, diff)
                        return _binop("and", ns, const_int(ty, _low(bw - sh)))
                else:
                    return _binop("and", x, const_int(ty, _low(bw - sh)))
        # ((X << C) + Y) >>u C -> (X + (Y >>u C)) & (-1 >>u C)
        if _opc(op0) == "add" and op0.has_one_use:
            for k in (0, 1):
                s = _ops(op0)[k]
                if _opc(s) == "shl" and s.has_one_use and _ops(s)[1] is op1:
                    x = _ops(s)[0]
                    y = _ops(op0)[1 - k]
                    nl = b.create_lshr(y, op1)
                    na = b.create_add(nl, x)
                    op1val = min(sh, bw)
                    return _binop("and", na, const_int(ty, _low(bw - op1val)))
        if _opc(op0) == "zext" and op0.has_one_use:
            x = _ops(op0)[0]
            if not isinstance(ty, IntegerType) or should_change_type(ic, ty, x.type):
                nl = b.create_lshr(x, const_int(x.type, sh))
                return CastInst.create("zext", nl, ty)
        if _opc(op0) == "sext":
            x = _ops(op0)[0]
            src_w = _width(x.type)
            if src_w == 1:
                return SelectInst(x, const_int(ty, _low(bw - sh)), Constant.get_null_value(ty))
            if (not isinstance(ty, IntegerType) or should_change_type(ic, ty, x.type)) and op0.has_one_use:
                if sh == bw - 1:
                    nl = b.create_lshr(x, const_int(x.type, src_w - 1))
                    return CastInst.create("zext", nl, ty)
                if sh == bw - src_w:
                    new_amt = min(sh, src_w - 1)
                    a = b.create_ashr(x, const_int(x.type, new_amt))
                    return CastInst.create("zext", a, ty)
        if sh == bw - 1:
            x2 = _or_neg_self(op0)
            if x2 is not None:
                return CastInst.create("zext", b.create_is_not_null(x2), ty)
            if _opc(op0) == "sub" and _nsw(op0) and op0.has_one_use:
                x, y = _ops(op0)
                return CastInst.create("zext", b.create_icmp("slt", x, y), ty)
            if _opc(op0) == "srem" and op0.has_one_use and _apint(_ops(op0)[1]) == 2:
                x = _ops(op0)[0]
                sb = b.create_lshr(x, const_int(ty, sh))
                return _binop("and", sb, x)
        if _opc(op0) == "trunc" and op0.has_one_use:
            tsrc = _ops(op0)[0]
            if isinstance(tsrc, Instruction) and tsrc.opcode == "lshr":
                c1 = _apint(tsrc.operands[1])
                if c1 is not None:
                    x = tsrc.operands[0]
                    src_w = _width(x.type)
                    amt_sum = sh + c1
                    if amt_sum < src_w and (tsrc.has_one_use or c1 >= src_w - bw):
                        ss = b.create_lshr(x, const_int(x.type, amt_sum), "sum.shift")
                        tr = b.create_trunc(ss, ty, i.name)
                        return _binop("and", tr, const_int(ty, _low(bw) >> sh))
        if _opc(op0) == "mul" and _nuw(op0):
            mul_c = _apint(_ops(op0)[1])
            if mul_c is not None:
                x = _ops(op0)[0]
                mm1 = (mul_c - 1) & _low(bw)
                if bw > 2 and mm1 and mm1 & (mm1 - 1) == 0 and mul_c.bit_length() - 1 == sh:
                    if sh * 2 == bw:
                        return ic.replace_inst_uses_with(i, x)
                    if op0.has_one_use:
                        nl = b.create_lshr(x, const_int(ty, sh), "", exact=i.exact)
                        new = _binop("add", x, nl)
                        new.nuw = True
                        new.nsw = _nsw(op0)
                        return new
                if op0.has_one_use:
                    new_mul_c = mul_c >> sh
                    if mul_c == (new_mul_c << sh) & _low(bw):
                        new = _binop("mul", x, const_int(ty, new_mul_c))
                        new.nuw = True
                        new.nsw = True
                        return new
        if _opc(op0) == "mul" and _nsw(op0) and op0.has_one_use:
            mul_c = _apint(_ops(op0)[1])
            if mul_c is not None:
                x = _ops(op0)[0]
                mm1 = (mul_c - 1) & _low(bw)
                if bw > 2 and mm1 and mm1 & (mm1 - 1) == 0 and mul_c.bit_length() - 1 == sh:
                    nl = b.create_lshr(x, const_int(ty, sh), "", exact=i.exact)
                    new = _binop("add", x, nl)
                    new.nsw = True
                    return new
        if op0.has_one_use and intrinsic_base_of(op0) == "bswap":
            z = _ops(op0)[0]
            if _opc(z) == "zext" and z.has_one_use:
                x = _ops(z)[0]
                src_w = _width(x.type)
                wdiff = bw - src_w
                if src_w % 16 == 0:
                    narrow_swap = b.create_unary_intrinsic("bswap", x)
                    if sh >= wdiff:
                        ns = b.create_lshr(narrow_swap, const_int(x.type, sh - wdiff))
                        return CastInst.create("zext", ns, ty)
                    nz = b.create_zext(narrow_swap, ty)
                    return _binop("shl", nz, const_int(ty, wdiff - sh))
        if sh == 1 and _opc(op0) == "add":
            x, y = _ops(op0)
            if _opc(x) == "zext" and _opc(y) == "zext":
                bx, by = _ops(x)[0], _ops(y)[0]
                if _is_bool_ty(bx.type) and _is_bool_ty(by.type) and (x.has_one_use or y.has_one_use or op0.has_one_use):
                    return CastInst.create("zext", b.create_and(bx, by), ty)
    if set_shift_flags(i, ic.query(i)):
        return i
    if _opc(op0) == "shl" and op0.has_one_use and _ops(op0)[1] is op1:
        mask_v = b.create_lshr(Constant.get_all_ones_value(ty), op1)
        return _binop("and", mask_v, _ops(op0)[0])
    if _opc(op0) == "shl" and _ops(op0)[1] is op1 and pm.matches(_ops(op0)[0], _P_ALL_ONES):
        return _binop("lshr", Constant.get_all_ones_value(ty), op1)
    return fold_lshr_overflow_bit(ic, i)


_P_ONEUSE_NOT = pm.m_one_use(pm.m_not(pm.m_value()))


def _not_operand(v: Value) -> Value:
    a, b = _ops(v)
    return a if pm.matches(b, _P_ALL_ONES) else b


def _or_neg_self(v: Value) -> Value | None:
    """``m_OneUse(m_c_Or(m_Neg(m_Value(X)), m_Deferred(X)))``: X."""
    if _opc(v) != "or" or not v.has_one_use:
        return None
    a, b = _ops(v)
    if _opc(a) == "sub" and pm.matches(_ops(a)[0], _P_ZERO) and _ops(a)[1] is b:
        return b
    if _opc(b) == "sub" and pm.matches(_ops(b)[0], _P_ZERO) and _ops(b)[1] is a:
        return a
    return None


_P_ZERO = pm.m_zero_int()


# --- visitAShr ------------------------------------------------------------------------------------


def fold_variable_sign_zero_extension_of_variable_high_bit_extract(ic: InstCombiner, old: Instruction) -> Instruction | None:
    """(X >> (bw - NBits)) shifted left then right by (bw - NBits) -> one shift of X
    (LLVM ``foldVariableSignZeroExtensionOfVariableHighBitExtract``)."""

    def bw_splat(c: Value, v: Value) -> bool:
        want = _width(v.type) & _low(_width(c.type))
        return _lanes_all(c, lambda a: a == want)

    def sub_c_nbits(v: Value) -> tuple[Value, Value] | None:
        v = _zext_or_self(v)
        if _opc(v) != "sub" or not isinstance(_ops(v)[0], Constant):
            return None
        return _ops(v)[0], _zext_or_self(_ops(v)[1])

    if _opc(old) != "ashr":
        return None
    shl = old.operands[0]
    if _opc(shl) != "shl":
        return None
    maybe_trunc = _ops(shl)[0]
    if not isinstance(maybe_trunc, Instruction):
        return None
    p1 = sub_c_nbits(_ops(shl)[1])
    p2 = sub_c_nbits(old.operands[1])
    if p1 is None or p2 is None or p1[1] is not p2[1]:
        return None
    nbits = p1[1]
    if not bw_splat(p1[0], old) or not bw_splat(p2[0], old):
        return None
    hbe: Value = maybe_trunc
    if maybe_trunc.opcode == "trunc" and isinstance(maybe_trunc.operands[0], Instruction):
        hbe = maybe_trunc.operands[0]
    had_trunc = hbe is not maybe_trunc
    if _opc(hbe) not in _SHRS:
        return None
    x, nlow = _ops(hbe)
    p0 = sub_c_nbits(nlow)
    if p0 is None or p0[1] is not nbits or not bw_splat(p0[0], hbe):
        return None
    if _opc(hbe) == old.opcode:
        return ic.replace_inst_uses_with(old, maybe_trunc)
    if had_trunc and not (old.operands[0].has_one_use or old.operands[1].has_one_use):
        return None
    new = _binop(old.opcode, x, nlow)
    new.exact = _exact(hbe)
    if not had_trunc:
        return new
    ic.builder.insert(new)
    if new.type is old.type:
        return CastInst.create("bitcast", new, old.type)
    return CastInst.create("trunc", new, old.type)


def visit_ashr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """Fold a ``ashr`` (LLVM ``visitAShr``)."""
    assert isinstance(i, BinaryOperator)
    v = simplify_ashr_inst(i.operands[0], i.operands[1], i.exact, ic.query(i))
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = fold_vector_binop(ic, i)
    if r is not None:
        return r
    r = common_shift_transforms(ic, i)
    if r is not None:
        return r
    op0, op1 = i.operands[0], i.operands[1]
    ty = i.type
    bw = _width(ty)
    b = ic.builder
    sh_c = _apint(op1)
    if sh_c is not None and sh_c < bw:
        sh = sh_c
        # ashr (shl (zext X), C), C -> sext X
        if _opc(op0) == "shl" and _ops(op0)[1] is op1 and _opc(_ops(op0)[0]) == "zext":
            x = _ops(_ops(op0)[0])[0]
            if sh == bw - _width(x.type):
                return CastInst.create("sext", x, ty)
        if _opc(op0) == "shl" and _nsw(op0):
            c1 = _apint(_ops(op0)[1])
            if c1 is not None and c1 < bw:
                x = _ops(op0)[0]
                if c1 < sh:
                    new = _binop("ashr", x, const_int(ty, sh - c1))
                    new.exact = i.exact
                    return new
                if c1 > sh:
                    new = _binop("shl", x, const_int(ty, c1 - sh))
                    new.nsw = True
                    return new
        if _opc(op0) == "ashr":
            c1 = _apint(_ops(op0)[1])
            if c1 is not None and c1 < bw:
                amt = min(sh + c1, bw - 1)
                return _binop("ashr", _ops(op0)[0], const_int(ty, amt))
        if _opc(op0) == "sext" and op0.has_one_use:
            x = _ops(op0)[0]
            if isinstance(ty, VectorType) or should_change_type(ic, ty, x.type):
                sh2 = min(sh, _width(x.type) - 1)
                ns = b.create_ashr(x, const_int(x.type, sh2))
                return CastInst.create("sext", ns, ty)
        if sh == bw - 1:
            x2 = _or_neg_self(op0)
            if x2 is not None:
                return CastInst.create("sext", b.create_is_not_null(x2), ty)
            if _opc(op0) == "sub" and _nsw(op0) and op0.has_one_use:
                x, y = _ops(op0)
                return CastInst.create("sext", b.create_icmp("slt", x, y), ty)
        if _opc(op0) == "mul" and _nsw(op0) and op0.has_one_use:
            mul_c = _apint(_ops(op0)[1])
            if mul_c is not None:
                mm1 = (mul_c - 1) & _low(bw)
                if bw > 2 and mm1 and mm1 & (mm1 - 1) == 0 and mul_c.bit_length() - 1 == sh and sh < bw - 1:
                    x = _ops(op0)[0]
                    na = b.create_ashr(x, const_int(ty, sh), "", exact=i.exact)
                    new = _binop("add", x, na)
                    new.nsw = True
                    new.nuw = _nuw(op0)
                    return new
    q = ic.query(i)
    if set_shift_flags(i, q):
        return i
    # Prefer -(x & 1) over (x << (bw-1)) a>> (bw-1)
    if _apint_allow_poison(op1) == bw - 1 and _opc(op0) == "shl" and op0.has_one_use:
        if _apint_allow_poison(_ops(op0)[1]) == bw - 1:
            mask = _merge_undefs_with(_merge_undefs_with(const_int(ty, 1), op1), _ops(op0)[1])
            x = b.create_and(_ops(op0)[0], mask)
            return _binop("sub", Constant.get_null_value(ty), x)
    r = fold_variable_sign_zero_extension_of_variable_high_bit_extract(ic, i)
    if r is not None:
        return r
    if ic.masked_value_is_zero(op0, 1 << (bw - 1), 0, i):
        new = _binop("lshr", op0, op1)
        new.exact = i.exact
        return new
    if pm.matches(op0, _P_ONEUSE_NOT):
        x = _not_operand(op0)
        na = b.create_ashr(x, op1, (op0.name + ".not") if op0.name else ".not")
        return _binop("xor", na, Constant.get_all_ones_value(ty))
    return None


def _merge_undefs_with(c: Constant, other: Value) -> Constant:
    """``Constant::mergeUndefsWith`` (one copy: and_or_xor_util's)."""
    from llvmpy_mid.transform.instcombine.and_or_xor_util import merge_undefs_with

    assert isinstance(other, Constant)
    return merge_undefs_with(c, other)


__all__ = [
    "can_evaluate_shifted",
    "common_shift_transforms",
    "drop_redundant_masking_of_left_shift_input",
    "fold_lshr_overflow_bit",
    "fold_shift_by_constant",
    "fold_shift_of_shifted_bin_op",
    "fold_variable_sign_zero_extension_of_variable_high_bit_extract",
    "get_shifted_value",
    "reassociate_shift_amts_of_two_same_direction_shifts",
    "set_shift_flags",
    "visit_ashr",
    "visit_lshr",
    "visit_shl",
]
