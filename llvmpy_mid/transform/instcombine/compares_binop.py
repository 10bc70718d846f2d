"""InstCombine: ``icmp`` of binary operators on both sides, equality compares and the
commutative family (LLVM 19.1.7 ``lib/Transforms/InstCombine/InstCombineCompares.cpp``:
``foldICmpBinOp``, ``foldICmpXNegX``, ``foldICmp{And,Or,Xor}XX``, ``foldICmpEquality``,
``foldICmpPow2Test``, ``foldICmpCommutative``, ``foldSelectICmp``, ``foldICmpAddOpConst``).

Also here: ``foldGEPICmp``, ``foldICmpWithMinMax``, ``foldICmpWithLowBitMaskedVal``,
``foldICmpIntrinsicWithIntrinsic``, ``foldMultiplicationOverflowCheck``,
``foldICmpWithTruncSignExtendedVal``.

What it does not do (yet): ``foldShiftIntoShiftInAnotherHandOfAndInICmp``,
and ``transformToIndexedCompare`` (the phi-web offset rewrite of ``foldGEPICmp``); each is
skipped whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.implied_condition import is_implied_condition_pred
from llvmpy_mid.analysis.instruction_simplify import simplify_icmp_inst
from llvmpy_mid.analysis.known_bits_analysis import is_known_negative
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common
from llvmpy_mid.transform.instcombine.compares_util import apint, apint_allow_poison, int_const, scalar_width, to_signed

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P = Predicate

_ALL_ONES = pm.m_all_ones()
_ONE = pm.m_one()
_ZERO_INT = pm.m_zero_int()
_IMM = pm.m_imm_constant()
_NON_NEG = pm.m_non_negative()
_NOT_X = pm.m_not(pm.m_value("x"))
_UGT1 = pm.m_cst_pred(lambda k: cast(ConstantInt, k).value > 1)
"""``m_CheckedInt(ugt 1)``: every lane an unsigned integer above one."""
_NE0 = pm.m_cst_pred(lambda k: cast(ConstantInt, k).value != 0)


def _is_bo(v: Value, *ops: str) -> bool:
    return isinstance(v, BinaryOperator) and v.opcode in ops


def _add_like(bo: BinaryOperator) -> tuple[Value, Value] | None:
    """``m_AddLike``: add, or disjoint or."""
    if bo.opcode == "add" or (bo.opcode == "or" and bo.disjoint):
        return bo.lhs, bo.rhs
    return None


def _no_wrap_problem(bo: BinaryOperator, pred: Predicate) -> tuple[bool, bool, bool]:
    """(no wrap problem, nsw, nuw) for ``hasNoWrapProblem``."""
    if bo.opcode in ("add", "sub", "mul", "shl"):
        nuw = bo.nuw
        nsw = bo.nsw
        return (pred.is_equality or (pred.is_unsigned and nuw) or (pred.is_signed and nsw)), nsw, nuw
    if bo.opcode == "or":
        return True, True, True
    return False, False, False


def fold_icmp_x_neg_x(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp (0 -nsw X), X -> icmp X, 0; -X ==/!= X -> (X & SMAX) ==/!= 0."""
    pred = i.predicate
    for neg, other, p in ((i.lhs, i.rhs, pred), (i.rhs, i.lhs, pred.swapped)):
        if _is_bo(neg, "sub") and pm.matches(cast(BinaryOperator, neg).lhs, _ZERO_INT) and cast(BinaryOperator, neg).rhs is other and cast(BinaryOperator, neg).nsw:
            x = other
            if p.is_signed:
                p = p.swapped
            elif p.is_unsigned:
                p = p.signed
            return ICmpInst(p, x, Constant.get_null_value(x.type), name=i.name)
    for neg, other, p in ((i.lhs, i.rhs, pred), (i.rhs, i.lhs, pred.swapped)):
        if _is_bo(neg, "sub") and neg.has_one_use and pm.matches(cast(BinaryOperator, neg).lhs, _ZERO_INT) and cast(BinaryOperator, neg).rhs is other:
            if not p.is_equality:
                return None
            x = other
            w = scalar_width(x.type)
            a = ic.builder.create_and(x, int_const(x.type, (1 << (w - 1)) - 1))
            return ICmpInst(p, a, Constant.get_null_value(x.type))
    return None


def _c_operand(v: Value, opcode: str, x: Value) -> Value | None:
    """``m_c_<opcode>(m_Specific(x), m_Value(A))``: A."""
    if isinstance(v, (Instruction, ConstantExpr)) and v.opcode == opcode:
        a, b = v.operands[0], v.operands[1]
        if a is x:
            return b
        if b is x:
            return a
    return None


def fold_icmp_and_xx(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp (X & Y), X."""
    op0, op1 = i.lhs, i.rhs
    pred = i.predicate
    if _c_operand(op1, "and", op0) is not None:
        op0, op1 = op1, op0
        pred = pred.swapped
    a = _c_operand(op0, "and", op1)
    if a is None:
        return None
    if pred == P.ICMP_ULT:
        return ICmpInst(P.ICMP_NE, op0, op1)
    if pred == P.ICMP_UGE:
        return ICmpInst(P.ICMP_EQ, op0, op1)
    if pred.is_equality and op0.has_one_use:
        if not pm.matches(op1, _IMM):
            not1 = common.get_freely_inverted(ic, op1, not op1.has_n_uses_or_more(3), ic.builder)
            if not1 is not None:
                return ICmpInst(pred, ic.builder.create_or(a, not1), Constant.get_all_ones_value(op1.type))
        not_a = common.get_freely_inverted(ic, a, a.has_one_use, ic.builder)
        if not_a is not None:
            return ICmpInst(pred, ic.builder.create_and(op1, not_a), Constant.get_null_value(op1.type))
    if not pred.is_signed:
        return None
    ky = ic.compute_known_bits(a, 0, i)
    if ky.is_negative():
        return ICmpInst(pred.unsigned, op0, op1)
    if pred != P.ICMP_SLE and pred != P.ICMP_SGT:
        return None
    if ky.is_non_negative():
        return ICmpInst(pred.swapped, op1, Constant.get_null_value(op1.type))
    if is_known_negative(op1, ic.query(i)):
        np = pred.strict if pred.is_non_strict else pred.non_strict
        return ICmpInst(np, a, Constant.get_null_value(a.type))
    return None


def fold_icmp_or_xx(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp (X | Y), X."""
    op0, op1 = i.lhs, i.rhs
    pred = i.predicate
    a = _c_operand(op1, "or", op0)
    if a is not None:
        op0, op1 = op1, op0
        pred = pred.swapped
    else:
        a = _c_operand(op0, "or", op1)
        if a is None:
            return None
    if pred == P.ICMP_ULE:
        return ICmpInst(P.ICMP_EQ, op0, op1)
    if pred == P.ICMP_UGT:
        return ICmpInst(P.ICMP_NE, op0, op1)
    if pred.is_equality and op0.has_one_use:
        not1 = common.get_freely_inverted(ic, op1, not op1.has_n_uses_or_more(3), ic.builder)
        if not1 is not None:
            return ICmpInst(pred, ic.builder.create_and(a, not1), Constant.get_null_value(op1.type))
        not_a = common.get_freely_inverted(ic, a, a.has_one_use, ic.builder)
        if not_a is not None:
            return ICmpInst(pred, ic.builder.create_or(op1, not_a), Constant.get_all_ones_value(op1.type))
    return None


def fold_icmp_xor_xx(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp (X ^ Y_NonZero) u>=/s<= ... X -> the strict predicate."""
    op0, op1 = i.lhs, i.rhs
    pred = i.predicate
    if _c_operand(op1, "xor", op0) is not None:
        op0, op1 = op1, op0
        pred = pred.swapped
    a = _c_operand(op0, "xor", op1)
    if a is None:
        return None
    out = pred.strict
    if out != pred and is_known_non_zero(a, ic.query(i)):
        return ICmpInst(out, op0, op1)
    return None


def fold_icmp_binop(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp with a binary operator on either side (LLVM ``foldICmpBinOp``)."""
    op0, op1 = i.lhs, i.rhs
    bo0 = op0 if isinstance(op0, BinaryOperator) else None
    bo1 = op1 if isinstance(op1, BinaryOperator) else None
    if bo0 is None and bo1 is None:
        return None
    r = fold_icmp_x_neg_x(ic, i)
    if r is not None:
        return r
    pred = i.predicate
    q = ic.query(i)
    b = ic.builder
    # (Op1 + X) u</u>= Op1 --> ~Op1 u</u>= X
    if op0.has_one_use and pred in (P.ICMP_ULT, P.ICMP_UGE):
        x = _c_operand(op0, "add", op1) if isinstance(op0, Instruction) else None
        if x is not None:
            return ICmpInst(pred, b.create_not(op1), x)
    if op1.has_one_use and pred in (P.ICMP_UGT, P.ICMP_ULE):
        x = _c_operand(op1, "add", op0) if isinstance(op1, Instruction) else None
        if x is not None:
            return ICmpInst(pred, x, b.create_not(op0))
    if pred in (P.ICMP_ULT, P.ICMP_UGE) and op0.has_one_use and _is_bo(op0, "add"):
        bb = cast(BinaryOperator, op0)
        inner = bb.lhs
        if pm.matches(bb.rhs, _IMM) and isinstance(inner, Instruction):
            x = _c_operand(inner, "add", op1)
            if x is not None:
                c2 = ConstantExpr.get_not(cast(Constant, bb.rhs))
                return ICmpInst(pred, b.create_sub(c2, x), op1)
    if pred in (P.ICMP_UGT, P.ICMP_ULE) and op1.has_one_use and _is_bo(op1, "add"):
        bb = cast(BinaryOperator, op1)
        inner = bb.lhs
        if pm.matches(bb.rhs, _IMM) and isinstance(inner, Instruction):
            x = _c_operand(inner, "add", op0)
            if x is not None:
                c2 = ConstantExpr.get_not(cast(Constant, bb.rhs))
                return ICmpInst(pred, op0, b.create_sub(c2, x))
    # ((Op1 + C) & C) u< Op1 --> Op1 != 0 (C a low-bit mask)
    for side, other, preds, newp in (
        (op0, op1, (P.ICMP_ULT, P.ICMP_UGE), (P.ICMP_NE, P.ICMP_EQ)),
        (op1, op0, (P.ICMP_UGT, P.ICMP_ULE), (P.ICMP_NE, P.ICMP_EQ)),
    ):
        if pred in preds and _is_bo(side, "and"):
            sb = cast(BinaryOperator, side)
            cm = apint(sb.rhs)
            w = scalar_width(side.type)
            if cm is not None and cm != 0 and cm & (cm + 1) == 0 and pm.matches(sb.rhs, pm.m_lowbit_mask()):
                inner = sb.lhs
                if _is_bo(inner, "add"):
                    ib = cast(BinaryOperator, inner)
                    if ib.lhs is other and apint_allow_poison(ib.rhs) == cm:
                        np = newp[0] if pred == preds[0] else newp[1]
                        return ICmpInst(np, other, Constant.get_null_value(op1.type))

    nw0 = nw1 = False
    nuw0 = nuw1 = nsw0 = nsw1 = False
    a = bb_ = c = d = None
    if bo0 is not None:
        al = _add_like(bo0)
        if al is not None:
            a, bb_ = al
        nw0, nsw0, nuw0 = _no_wrap_problem(bo0, pred)
    if bo1 is not None:
        al = _add_like(bo1)
        if al is not None:
            c, d = al
        nw1, nsw1, nuw1 = _no_wrap_problem(bo1, pred)
    if (a is op1 or bb_ is op1) and nw0:
        assert a is not None and bb_ is not None
        return ICmpInst(pred, bb_ if a is op1 else a, Constant.get_null_value(op1.type))
    if (c is op0 or d is op0) and nw1:
        assert c is not None and d is not None
        return ICmpInst(pred, Constant.get_null_value(op0.type), d if c is op0 else c)
    if a is not None and c is not None and (a is c or a is d or bb_ is c or bb_ is d) and nw0 and nw1:
        assert bb_ is not None and d is not None
        if a is c:
            y, z = bb_, d
        elif a is d:
            y, z = bb_, c
        elif bb_ is c:
            y, z = a, d
        else:
            y, z = a, c
        return ICmpInst(pred, y, z)
    if a is not None and nw0:
        assert bb_ is not None
        if pred == P.ICMP_SLT and pm.matches(bb_, _ALL_ONES):
            return ICmpInst(P.ICMP_SLE, a, op1)
        if pred == P.ICMP_SGE and pm.matches(bb_, _ALL_ONES):
            return ICmpInst(P.ICMP_SGT, a, op1)
        if pred == P.ICMP_SLE and pm.matches(bb_, _ONE):
            return ICmpInst(P.ICMP_SLT, a, op1)
        if pred == P.ICMP_SGT and pm.matches(bb_, _ONE):
            return ICmpInst(P.ICMP_SGE, a, op1)
    if c is not None and nw1:
        assert d is not None
        if pred == P.ICMP_SGT and pm.matches(d, _ALL_ONES):
            return ICmpInst(P.ICMP_SGE, op0, c)
        if pred == P.ICMP_SLE and pm.matches(d, _ALL_ONES):
            return ICmpInst(P.ICMP_SLT, op0, c)
        if pred == P.ICMP_SGE and pm.matches(d, _ONE):
            return ICmpInst(P.ICMP_SGT, op0, c)
        if pred == P.ICMP_SLT and pm.matches(d, _ONE):
            return ICmpInst(P.ICMP_SLE, op0, c)
    if a is not None and nw0:
        assert bb_ is not None
        if pred == P.ICMP_ULE and pm.matches(bb_, _ONE):
            return ICmpInst(P.ICMP_ULT, a, op1)
        if pred == P.ICMP_UGT and pm.matches(bb_, _ONE):
            return ICmpInst(P.ICMP_UGE, a, op1)
    if c is not None and nw1:
        assert d is not None
        if pred == P.ICMP_UGE and pm.matches(d, _ONE):
            return ICmpInst(P.ICMP_UGT, op0, c)
        if pred == P.ICMP_ULT and pm.matches(d, _ONE):
            return ICmpInst(P.ICMP_ULE, op0, c)
    if a is not None and c is not None and nw0 and nw1 and (op0.has_one_use or op1.has_one_use) and not pred.is_unsigned:
        assert bb_ is not None and d is not None and bo0 is not None and bo1 is not None
        ap1 = apint_allow_poison(bb_)
        ap2 = apint_allow_poison(d)
        w = scalar_width(op0.type)
        mask = (1 << w) - 1
        if ap1 is not None and ap2 is not None and (ap1 >> (w - 1)) == (ap2 >> (w - 1)):
            s1 = to_signed(ap1, w)
            s2 = to_signed(ap2, w)
            abs1 = abs(s1) & mask
            abs2 = abs(s2) & mask
            if abs1 >= abs2:
                diff = (ap1 - ap2) & mask
                new_add = b.create_add(a, int_const(bo0.type, diff), "", nuw=nuw0 and diff <= ap1, nsw=nsw0)
                return ICmpInst(pred, new_add, c)
            diff = (ap2 - ap1) & mask
            new_add = b.create_add(c, int_const(bo0.type, diff), "", nuw=nuw1 and diff <= ap2, nsw=nsw1)
            return ICmpInst(pred, a, new_add)
        if pm.matches(bb_, _IMM) and pm.matches(d, _IMM) and pred.is_equality:
            diffc = ConstantExpr.get_sub(cast(Constant, d), cast(Constant, bb_))
            new_add = b.create_add(c, diffc)
            return ICmpInst(pred, a, new_add)

    a = bb_ = c = d = None
    if bo0 is not None and bo0.opcode == "sub":
        a, bb_ = bo0.lhs, bo0.rhs
    if bo1 is not None and bo1.opcode == "sub":
        c, d = bo1.lhs, bo1.rhs
    if a is not None and a is op1 and nw0:
        assert bb_ is not None
        return ICmpInst(pred, Constant.get_null_value(op1.type), bb_)
    if c is not None and c is op0 and nw1:
        assert d is not None
        return ICmpInst(pred, d, Constant.get_null_value(op0.type))
    if a is not None and a is op1 and pred in (P.ICMP_UGT, P.ICMP_ULE):
        assert bb_ is not None
        return ICmpInst(pred, bb_, a)
    if c is not None and c is op0 and pred in (P.ICMP_ULT, P.ICMP_UGE):
        assert d is not None
        return ICmpInst(pred, c, d)
    if a is not None and a is op1 and pred in (P.ICMP_UGE, P.ICMP_ULT):
        assert bb_ is not None
        if is_known_non_zero(bb_, q):
            return ICmpInst(pred.strict if pred.is_non_strict else pred.non_strict, bb_, a)
    if c is not None and c is op0 and pred in (P.ICMP_ULE, P.ICMP_UGT):
        assert d is not None
        if is_known_non_zero(d, q):
            return ICmpInst(pred.strict if pred.is_non_strict else pred.non_strict, c, d)
    if bb_ is not None and d is not None and bb_ is d and nw0 and nw1:
        assert a is not None and c is not None
        return ICmpInst(pred, a, c)
    if a is not None and c is not None and a is c and nw0 and nw1:
        assert bb_ is not None and d is not None
        return ICmpInst(pred, d, bb_)
    if nw0 and pred.is_signed and bo0 is not None and bo0.opcode == "sub" and pm.matches(bo0.lhs, _ZERO_INT):
        if isinstance(op1, Constant) and _is_not_min_signed(op1):
            return ICmpInst(i.swapped_predicate, bo0.rhs, ConstantExpr.get_neg(op1))

    r = fold_icmp_xor_xx(ic, i)
    if r is not None:
        return r
    r = fold_icmp_or_xx(ic, i)
    if r is not None:
        return r

    # X * Z pred Y * Z
    if pred == pred.unsigned:
        xyz = None
        if _is_bo(op0, "mul") and _is_bo(op1, "mul"):
            m0 = cast(BinaryOperator, op0)
            m1 = cast(BinaryOperator, op1)
            for xx, zz in ((m0.lhs, m0.rhs), (m0.rhs, m0.lhs)):
                yy = _c_operand(m1, "mul", zz)
                if yy is not None:
                    xyz = (xx, yy, zz)
                    break
        if xyz is not None:
            xx, yy, zz = xyz
            if pred.is_equality:
                zk = ic.compute_known_bits(zz, 0, i)
                if zk.count_max_trailing_zeros() == 0:
                    return ICmpInst(pred, xx, yy)
                non_zero = bool(zk.one) or is_known_non_zero(zz, q)
                if non_zero and bo0 is not None and bo1 is not None and nsw0 and nsw1:
                    return ICmpInst(pred, xx, yy)
            else:
                non_zero = is_known_non_zero(zz, q)
            if non_zero and bo0 is not None and bo1 is not None and nuw0 and nuw1:
                return ICmpInst(pred, xx, yy)

    srem = None
    if bo0 is not None and bo0.opcode == "srem" and op1 is bo0.rhs:
        srem = bo0
    elif bo1 is not None and bo1.opcode == "srem" and op0 is bo1.rhs:
        srem = bo1
    if srem is not None:
        p = pred.swapped if srem is bo0 else pred
        if p == P.ICMP_EQ:
            return ic.replace_inst_uses_with(i, ConstantInt.get_false(i.type))
        if p == P.ICMP_NE:
            return ic.replace_inst_uses_with(i, ConstantInt.get_true(i.type))
        if p in (P.ICMP_SGT, P.ICMP_SGE):
            return ICmpInst(P.ICMP_SGT, srem.rhs, Constant.get_all_ones_value(srem.type))
        if p in (P.ICMP_SLT, P.ICMP_SLE):
            return ICmpInst(P.ICMP_SLT, srem.rhs, Constant.get_null_value(srem.type))

    if (
        bo0 is not None
        and bo1 is not None
        and bo0.opcode == bo1.opcode
        and (bo0.has_one_use or bo1.has_one_use)
        and bo0.rhs is bo1.rhs
    ):
        op = bo0.opcode
        if op in ("add", "sub", "xor"):
            if i.is_equality:
                return ICmpInst(pred, bo0.lhs, bo1.lhs)
            cc = apint(bo0.rhs)
            if cc is not None:
                w = scalar_width(bo0.type)
                if cc == 1 << (w - 1):
                    return ICmpInst(pred.flipped_signedness, bo0.lhs, bo1.lhs)
                if op == "xor" and cc == (1 << (w - 1)) - 1:
                    return ICmpInst(pred.flipped_signedness.swapped, bo0.lhs, bo1.lhs)
        elif op == "mul":
            if i.is_equality:
                cc = apint(bo0.rhs)
                if cc is not None and cc not in (0, 1):
                    w = scalar_width(bo0.type)
                    tz = (cc & -cc).bit_length() - 1
                    if tz:
                        m = int_const(bo0.type, (1 << (w - tz)) - 1)
                        a1 = b.create_and(bo0.lhs, m)
                        a2 = b.create_and(bo1.lhs, m)
                        return ICmpInst(pred, a1, a2)
        elif op in ("udiv", "lshr"):
            if not i.is_signed and bo0.exact and bo1.exact:
                return ICmpInst(pred, bo0.lhs, bo1.lhs)
        elif op == "sdiv":
            if (i.is_equality or pm.matches(bo0.rhs, _NON_NEG)) and bo0.exact and bo1.exact:
                return ICmpInst(pred, bo0.lhs, bo1.lhs)
        elif op == "ashr":
            if bo0.exact and bo1.exact:
                return ICmpInst(pred, bo0.lhs, bo1.lhs)
        elif op == "shl":
            nuw = nuw0 and nuw1
            nsw = nsw0 and nsw1
            if (nuw or nsw) and not (not nsw and i.is_signed):
                return ICmpInst(pred, bo0.lhs, bo1.lhs)

    if bo0 is not None and pred == P.ICMP_ULT and bo0.opcode == "and":
        for other in (bo0.lhs, bo0.rhs):
            if _is_bo(other, "add") and cast(BinaryOperator, other).lhs is op1 and pm.matches(cast(BinaryOperator, other).rhs, _ALL_ONES):
                return ICmpInst(P.ICMP_NE, op1, Constant.get_null_value(bo0.type))

    if not pred.is_signed:
        if _is_bo(op0, "shl") and cast(BinaryOperator, op0).lhs is op1 and pm.matches(cast(BinaryOperator, op0).rhs, _ONE):
            return ICmpInst(pred.signed, op1, Constant.get_null_value(op1.type))
        if _is_bo(op1, "shl") and cast(BinaryOperator, op1).lhs is op0 and pm.matches(cast(BinaryOperator, op1).rhs, _ONE):
            return ICmpInst(pred.signed, Constant.get_null_value(op0.type), op0)

    mo = fold_multiplication_overflow_check(ic, i)
    if mo is not None:
        return ic.replace_inst_uses_with(i, mo)
    r = fold_icmp_and_xx(ic, i)
    if r is not None:
        return r
    ts = fold_icmp_with_trunc_sign_extended_val(ic, i)
    if ts is not None:
        return ic.replace_inst_uses_with(i, ts)
    # (foldShiftIntoShiftInAnotherHandOfAndInICmp: not done)
    return None


def fold_icmp_with_trunc_sign_extended_val(ic: InstCombiner, i: ICmpInst) -> Value | None:
    """((X << C) >>s C) ==/!= X -> (X + 2^(KeptBits-1)) u</u>= 2^KeptBits."""
    pred = i.predicate
    for a, x, p in ((i.lhs, i.rhs, pred), (i.rhs, i.lhs, pred.swapped)):
        if not (_is_bo(a, "ashr") and a.has_one_use):
            continue
        ab = cast(BinaryOperator, a)
        shl = ab.lhs
        c1 = apint(ab.rhs)
        if not (_is_bo(shl, "shl") and cast(BinaryOperator, shl).lhs is x and c1 is not None):
            continue
        c0 = apint(cast(BinaryOperator, shl).rhs)
        if c0 is None:
            continue
        if c0 != c1:
            return None
        dst = {P.ICMP_EQ: P.ICMP_ULT, P.ICMP_NE: P.ICMP_UGE}.get(p)
        if dst is None:
            return None
        w = scalar_width(x.type)
        kept = w - c0
        icmp_cst = (1 << kept) & ((1 << w) - 1)
        add_cst = icmp_cst >> 1
        t0 = ic.builder.create_add(x, int_const(x.type, add_cst))
        return ic.builder.create_icmp(dst, t0, int_const(x.type, icmp_cst))
    return None


def fold_multiplication_overflow_check(ic: InstCombiner, i: ICmpInst) -> Value | None:
    """-1 u/ X u< Y and (X * Y) / X != Y -> the overflow bit of [us]mul.with.overflow(X, Y)."""
    pred = i.predicate
    mul: Instruction | None = None
    div: BinaryOperator | None = None
    x = y = None
    need_neg = False
    if not i.is_equality:
        for a, other, p in ((i.lhs, i.rhs, pred), (i.rhs, i.lhs, pred.swapped)):
            if _is_bo(a, "udiv") and a.has_one_use and pm.matches(cast(BinaryOperator, a).lhs, _ALL_ONES):
                div = cast(BinaryOperator, a)
                x, y = div.rhs, other
                if p == P.ICMP_ULT:
                    need_neg = False
                elif p == P.ICMP_UGE:
                    need_neg = True
                else:
                    return None
                break
        if div is None:
            return None
    else:
        for yy, d, p in ((i.lhs, i.rhs, pred), (i.rhs, i.lhs, pred.swapped)):
            if _is_bo(d, "udiv", "sdiv") and d.has_one_use:
                db = cast(BinaryOperator, d)
                m = db.lhs
                if isinstance(m, BinaryOperator) and m.opcode == "mul":
                    xx = _c_operand(m, "mul", yy)
                    if xx is not None and db.rhs is xx:
                        div, mul, x, y = db, m, xx, yy
                        need_neg = p == P.ICMP_EQ
                        break
        if div is None:
            return None
    assert x is not None and y is not None
    b = ic.builder
    saved = (b.block, b.insert_before, b.debug_loc)
    mul_other = mul is not None and not mul.has_one_use
    try:
        if mul_other:
            assert mul is not None
            b.position_before(mul)
            b.debug_loc = mul.debug_loc
        base = "umul.with.overflow" if div.opcode == "udiv" else "smul.with.overflow"
        ctx = x.type.context
        from llvmpy_mid.analysis.instsimplify._util import compare_type

        sty = ctx.struct_type([x.type, compare_type(x.type)])
        call = b.create_intrinsic(base, [x.type], [x, y], "mul", return_type=sty)
        if mul_other:
            assert mul is not None
            ic.replace_inst_uses_with(mul, b.create_extract_value(call, [0], "mul.val"))
        res = b.create_extract_value(call, [1], "mul.ov")
        if need_neg:
            res = b.create_not(res, "mul.not.ov")
        if mul_other:
            assert mul is not None
            ic.erase_inst_from_function(mul)
    finally:
        b.block, b.insert_before, b.debug_loc = saved
    return res



def _is_not_min_signed(c: Constant) -> bool:
    """``Constant::isNotMinSignedValue`` for integer constants and splats."""
    v = apint(c)
    if v is None:
        # a non-splat vector: every element must not be INT_MIN
        t = c.type
        from llvmpy_mid.ir.types import VectorType

        if isinstance(t, VectorType) and not t.scalable:
            w = scalar_width(t)
            for k in range(t.count):
                e = c.get_aggregate_element(k)
                if not isinstance(e, ConstantInt) or e.value == 1 << (w - 1):
                    return False
            return True
        return False
    return v != 1 << (scalar_width(c.type) - 1)


def fold_icmp_pow2_test(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """(A & (A-1)) == 0 -> ctpop(A) < 2 and friends."""
    op0, op1 = i.lhs, i.rhs
    pred = i.predicate
    a: Value | None = None
    check_is = False
    if i.is_equality:
        if op0.has_one_use and _is_bo(op0, "and") and pm.matches(op1, _ZERO_INT):
            ab = cast(BinaryOperator, op0)
            for add, other in ((ab.lhs, ab.rhs), (ab.rhs, ab.lhs)):
                if _is_bo(add, "add") and pm.matches(cast(BinaryOperator, add).rhs, _ALL_ONES) and cast(BinaryOperator, add).lhs is other:
                    a = other
                    break
        if _neg_and_self(op0, op1):
            a = op1
        elif _neg_and_self(op1, op0):
            a = op0
        check_is = pred == P.ICMP_EQ
    elif pred.is_unsigned:
        if pred in (P.ICMP_UGE, P.ICMP_ULT) and _xor_dec_self(op0, op1):
            a = op1
            check_is = pred == P.ICMP_UGE
        elif pred in (P.ICMP_UGT, P.ICMP_ULE) and _xor_dec_self(op1, op0):
            a = op0
            check_is = pred == P.ICMP_ULE
    if a is None:
        return None
    ty = a.type
    ctpop = ic.builder.create_unary_intrinsic("ctpop", a)
    if check_is:
        return ICmpInst(P.ICMP_ULT, ctpop, int_const(ty, 2))
    return ICmpInst(P.ICMP_UGT, ctpop, int_const(ty, 1))


def _neg_and_self(v: Value, x: Value) -> bool:
    """``m_OneUse(m_c_And(m_Neg(m_Specific(x)), m_Specific(x)))``."""
    if not (_is_bo(v, "and") and v.has_one_use):
        return False
    bb = cast(BinaryOperator, v)
    for n, o in ((bb.lhs, bb.rhs), (bb.rhs, bb.lhs)):
        if o is x and _is_bo(n, "sub") and pm.matches(cast(BinaryOperator, n).lhs, _ZERO_INT) and cast(BinaryOperator, n).rhs is x:
            return True
    return False


def _xor_dec_self(v: Value, x: Value) -> bool:
    """``m_OneUse(m_c_Xor(m_Add(m_Specific(x), m_AllOnes()), m_Specific(x)))``."""
    if not (_is_bo(v, "xor") and v.has_one_use):
        return False
    bb = cast(BinaryOperator, v)
    for ad, o in ((bb.lhs, bb.rhs), (bb.rhs, bb.lhs)):
        if o is x and _is_bo(ad, "add") and cast(BinaryOperator, ad).lhs is x and pm.matches(cast(BinaryOperator, ad).rhs, _ALL_ONES):
            return True
    return False


def fold_icmp_equality(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """eq/ne of xors, ands, ors, shifts, zext-of-masks, power-of-two tests, rotates."""
    if not i.is_equality:
        return None
    op0, op1 = i.lhs, i.rhs
    pred = i.predicate
    b = ic.builder
    if _is_bo(op0, "xor"):
        x0 = cast(BinaryOperator, op0)
        a_, b_ = x0.lhs, x0.rhs
        if a_ is op1 or b_ is op1:
            other = b_ if a_ is op1 else a_
            return ICmpInst(pred, other, Constant.get_null_value(a_.type))
        if _is_bo(op1, "xor"):
            x1 = cast(BinaryOperator, op1)
            c_, d_ = x1.lhs, x1.rhs
            if isinstance(b_, ConstantInt) and isinstance(d_, ConstantInt) and op1.has_one_use:
                nc = ConstantInt.get(b_.type, b_.value ^ d_.value)
                return ICmpInst(pred, a_, b.create_xor(c_, nc))
            if a_ is c_:
                return ICmpInst(pred, b_, d_)
            if a_ is d_:
                return ICmpInst(pred, b_, c_)
            if b_ is c_:
                return ICmpInst(pred, a_, d_)
            if b_ is d_:
                return ICmpInst(pred, a_, c_)
    if _is_bo(op1, "xor"):
        x1 = cast(BinaryOperator, op1)
        if x1.lhs is op0 or x1.rhs is op0:
            other = x1.rhs if x1.lhs is op0 else x1.lhs
            return ICmpInst(pred, other, Constant.get_null_value(x1.lhs.type))
    if _is_bo(op0, "and") and _is_bo(op1, "and"):
        a0 = cast(BinaryOperator, op0)
        a1 = cast(BinaryOperator, op1)
        A, B, C, D = a0.lhs, a0.rhs, a1.lhs, a1.rhs
        xyz: tuple[Value, Value, Value] | None = None
        if A is C:
            xyz = (B, D, A)
        elif A is D:
            xyz = (B, C, A)
        elif B is C:
            xyz = (A, D, B)
        elif B is D:
            xyz = (A, C, B)
        if xyz is not None:
            X, Y, Z = xyz
            c0 = apint(X)
            c1 = apint(Y)
            w = scalar_width(X.type)
            xor_neg_p2 = False
            if c0 is not None and c1 is not None:
                n = -(c0 ^ c1) & ((1 << w) - 1)
                xor_neg_p2 = n != 0 and n & (n - 1) == 0
            use_cnt = int(op0.has_one_use) + int(op1.has_one_use) + int(pm.matches(X, _IMM) and pm.matches(Y, _IMM))
            if xor_neg_p2 or use_cnt >= 2:
                nv = b.create_xor(X, Y)
                nv = b.create_and(nv, Z)
                return ICmpInst(pred, nv, Constant.get_null_value(nv.type))
    if _is_bo(op0, "or") and op0.has_one_use and _is_bo(op1, "or") and op1.has_one_use:
        o0 = cast(BinaryOperator, op0)
        o1 = cast(BinaryOperator, op1)
        if isinstance(o0.rhs, Constant) and o1.rhs is o0.rhs:
            xr = b.create_xor(o0.lhs, o1.lhs)
            an = b.create_and(xr, ConstantExpr.get_not(o0.rhs))
            return ICmpInst(pred, an, Constant.get_null_value(an.type))
    if isinstance(op1, Instruction) and op1.opcode == "zext" and (op0.has_one_use or op1.has_one_use):
        za = op1.operands[0]
        if _is_bo(op0, "and"):
            ab = cast(BinaryOperator, op0)
            mc = apint(ab.rhs)
            if mc is not None and mc != 0 and mc & (mc + 1) == 0 and mc.bit_length() == scalar_width(za.type):
                return ICmpInst(pred, za, b.create_trunc(ab.lhs, za.type))
    for shop in ("lshr", "ashr"):
        if _is_bo(op0, shop) and op0.has_one_use and _is_bo(op1, shop) and op1.has_one_use:
            s0 = cast(BinaryOperator, op0)
            s1 = cast(BinaryOperator, op1)
            ap1 = apint_allow_poison(s0.rhs)
            ap2 = apint_allow_poison(s1.rhs)
            if ap1 is not None and ap2 is not None:
                # LLVM compares the uniqued APInt pointers: equal exactly when the values are
                if ap1 != ap2:
                    return None
                w = scalar_width(op0.type)
                sa = min(ap1, w)
                if sa < w and sa != 0:
                    np = P.ICMP_UGE if pred == P.ICMP_NE else P.ICMP_ULT
                    xr = b.create_xor(s0.lhs, s1.lhs, i.name + ".unshifted")
                    return ICmpInst(np, xr, int_const(s0.lhs.type, 1 << sa))
    if _is_bo(op0, "shl") and op0.has_one_use and _is_bo(op1, "shl") and op1.has_one_use:
        s0 = cast(BinaryOperator, op0)
        s1 = cast(BinaryOperator, op1)
        if isinstance(s0.rhs, ConstantInt) and s1.rhs is s0.rhs:
            w = scalar_width(op0.type)
            sa = min(s0.rhs.value, w)
            if sa < w and sa != 0:
                xr = b.create_xor(s0.lhs, s1.lhs, i.name + ".unshifted")
                an = b.create_and(xr, ConstantInt.get(s0.rhs.type, (1 << (w - sa)) - 1), i.name + ".mask")
                return ICmpInst(pred, an, Constant.get_null_value(s0.rhs.type))
    if op0.has_one_use and isinstance(op0, Instruction) and op0.opcode == "trunc" and isinstance(op1, ConstantInt):
        inner = op0.operands[0]
        if _is_bo(inner, "lshr") and inner.has_one_use and isinstance(cast(BinaryOperator, inner).rhs, ConstantInt):
            A = cast(BinaryOperator, inner).lhs
            sh = cast(ConstantInt, cast(BinaryOperator, inner).rhs).value
            if not A.has_one_use:
                asize = scalar_width(A.type)
                if sh < asize:
                    amask = (1 << asize) - 1
                    maskv = (((1 << scalar_width(op0.type)) - 1) << sh) & amask
                    cmpv = (op1.value << sh) & amask
                    m = b.create_and(A, ConstantInt.get(A.type, maskv))
                    return ICmpInst(pred, m, ConstantInt.get(A.type, cmpv))
    r = fold_icmp_intrinsic_with_intrinsic(ic, i)
    if r is not None:
        return r
    # icmp eq (ashr (trunc A), BW-1), (trunc (lshr A, BW)) -> A + 2^(BW-1) u< 2^BW
    bw = scalar_width(op0.type)
    if (
        _is_bo(op0, "ashr")
        and isinstance(cast(BinaryOperator, op0).lhs, Instruction)
        and cast(Instruction, cast(BinaryOperator, op0).lhs).opcode == "trunc"
        and apint(cast(BinaryOperator, op0).rhs) == bw - 1
        and isinstance(op1, Instruction)
        and op1.opcode == "trunc"
        and (op0.has_one_use or op1.has_one_use)
    ):
        A = cast(Instruction, cast(BinaryOperator, op0).lhs).operands[0]
        inner = op1.operands[0]
        if _is_bo(inner, "lshr") and cast(BinaryOperator, inner).lhs is A and apint(cast(BinaryOperator, inner).rhs) == bw and scalar_width(A.type) == 2 * bw:
            cc = 1 << (bw - 1)
            add = b.create_add(A, int_const(A.type, cc))
            return ICmpInst(P.ICMP_ULT if pred == P.ICMP_EQ else P.ICMP_UGE, add, int_const(A.type, cc << 1))
    for x, other in ((op0, op1), (op1, op0)):
        if _c_operand(x, "and", other) is not None and ic.is_known_to_be_a_power_of_two(other, False, 0, i):
            return ICmpInst(pred.inverse, x, Constant.get_null_value(x.type))
    for x, other in ((op0, op1), (op1, op0)):
        if isinstance(other, CallInst) and other.has_one_use and other.intrinsic_base == "llvm.fshr":
            args = other.args
            if args[0] is x and args[1] is x:
                return ICmpInst(pred, x, _fshl(ic, x, args[2]))
    for xv, other in ((op0, op1), (op1, op0)):
        if _is_bo(xv, "xor") and xv.has_one_use and pm.matches(cast(BinaryOperator, xv).rhs, _IMM) and not pm.matches(other, _IMM):
            return ICmpInst(pred, b.create_xor(cast(BinaryOperator, xv).lhs, other), cast(BinaryOperator, xv).rhs)
    # (icmp eq/ne (and (add/sub/xor X, P2), P2), P2 or 0) -> (icmp eq/ne (and X, P2), 0 or P2)
    found = _and_of_op_with_p2(op0, op1)
    is_zero = False
    if found is None:
        found = _and_of_op_with_p2(op1, op0)
    if found is None and pm.matches(op1, pm.m_zero()):
        found = _and_of_op_with_p2(op0, None)
        is_zero = found is not None
    if found is not None:
        a_v, b_v = found
        if ic.is_known_to_be_a_power_of_two(a_v, True, 0, i):
            return ICmpInst(pred, b.create_and(b_v, a_v), a_v if is_zero else Constant.get_null_value(a_v.type))
    return None


def _and_of_op_with_p2(v: Value, want_a: Value | None) -> tuple[Value, Value] | None:
    """``m_OneUse(m_c_And(m_Value(A), add/xor(B, A) | sub(B, A)))`` with ``A`` = ``want_a``
    when given: (A, B)."""
    if not (_is_bo(v, "and") and v.has_one_use):
        return None
    ab = cast(BinaryOperator, v)
    for a, other in ((ab.lhs, ab.rhs), (ab.rhs, ab.lhs)):
        if want_a is not None and a is not want_a:
            continue
        if isinstance(other, BinaryOperator):
            if other.opcode in ("add", "xor"):
                if other.rhs is a:
                    return a, other.lhs
                if other.lhs is a:
                    return a, other.rhs
            elif other.opcode == "sub" and other.rhs is a:
                return a, other.lhs
    return None


def fold_icmp_intrinsic_with_intrinsic(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """eq/ne of two bswaps, bitreverses or rotates of the same kind."""
    op0, op1 = i.lhs, i.rhs
    if not (isinstance(op0, CallInst) and isinstance(op1, CallInst)):
        return None
    base = op0.intrinsic_base
    if not base or base != op1.intrinsic_base:
        return None
    pred = i.predicate
    a0, a1 = op0.args, op1.args
    if base in ("llvm.bswap", "llvm.bitreverse"):
        return ICmpInst(pred, a0[0], a1[0])
    if base in ("llvm.fshl", "llvm.fshr"):
        if a0[0] is not a0[1] or a1[0] is not a1[1]:
            return None
        if a0[2] is a1[2]:
            return ICmpInst(pred, a0[0], a1[0])
        one_uses = int(op0.has_one_use) + int(op1.has_one_use)
        if one_uses == 2 or (one_uses == 1 and pm.matches(a0[2], _IMM) and pm.matches(a1[2], _IMM)):
            sub = ic.builder.create_sub(a0[2], a1[2])
            rot = ic.builder.create_intrinsic(base[5:], [op0.type], [a0[0], a0[0], sub])
            return ICmpInst(pred, a1[0], rot)
    return None


def _fshl(ic: InstCombiner, x: Value, amt: Value) -> Value:
    return ic.builder.create_intrinsic("fshl", [x.type], [x, x, amt])


def fold_icmp_add_op_const(x: Value, c: int, pred: Predicate) -> Instruction:
    """icmp (X + C), X -> X compared with a constant (LLVM ``foldICmpAddOpConst``)."""
    w = scalar_width(x.type)
    mask = (1 << w) - 1
    ty = x.type
    if pred in (P.ICMP_ULT, P.ICMP_ULE):
        return ICmpInst(P.ICMP_UGT, x, int_const(ty, mask - c))
    if pred in (P.ICMP_UGT, P.ICMP_UGE):
        return ICmpInst(P.ICMP_ULT, x, int_const(ty, -c))
    smax = (1 << (w - 1)) - 1
    if pred in (P.ICMP_SLT, P.ICMP_SLE):
        return ICmpInst(P.ICMP_SGT, x, int_const(ty, smax - c))
    return ICmpInst(P.ICMP_SLT, x, int_const(ty, smax - (c - 1)))


def _is_chain_select_cmp_branch(si: SelectInst) -> bool:
    """The select's block ends in a two-way branch on a compare of the select."""
    bb = si.parent
    if bb is None:
        return False
    br = bb.terminator
    if not isinstance(br, BranchInst) or not br.is_conditional:
        return False
    c = br.condition
    return isinstance(c, ICmpInst) and (c.lhs is si or c.rhs is si)


def _dominates_all_uses(ic: InstCombiner, di: Instruction, ui: Instruction, db: BasicBlock) -> bool:
    """``dominatesAllUses``: every user of ``di`` but ``ui`` (both in one block, not ``db``) is
    in a block ``db`` dominates."""
    bb = di.parent
    if bb is None or bb is not ui.parent or bb is db:
        return False
    for u in di.users:
        if u is not ui and not ic.dt.dominates_block(db, u.parent):  # type: ignore[attr-defined]
            return False
    return True


def replaced_select_with_operand(ic: InstCombiner, si: SelectInst, icmp: ICmpInst, si_opd: int) -> bool:
    """``replacedSelectWithOperand``: in a select-icmp(eq)-br chain, the uses of the select
    outside its block, all dominated by the branch's false successor (which has a single
    predecessor), take operand ``si_opd`` of the select."""
    if not _is_chain_select_cmp_branch(si) or icmp.predicate is not Predicate.ICMP_EQ:
        return False
    bb = si.parent
    assert bb is not None
    term = bb.terminator
    assert isinstance(term, BranchInst)
    succ = term.get_successor(1)
    if succ.single_predecessor is None or not _dominates_all_uses(ic, si, icmp, succ):
        return False
    new = si.operands[si_opd]
    si.replace_uses_with_if(new, lambda u: isinstance(u.user, Instruction) and u.user.parent is not bb)
    return True


def fold_select_icmp(ic: InstCombiner, pred: Predicate, si: SelectInst, rhs: Value, i: ICmpInst) -> Instruction | None:
    """icmp (select C, A, B), RHS -> select C, (icmp A, RHS), (icmp B, RHS) when an arm folds."""

    def simplify_op(op: Value, cond_true: bool) -> Value | None:
        v = simplify_icmp_inst(pred, op, rhs, ic.sq)
        if v is not None:
            return v
        impl = is_implied_condition_pred(si.condition, pred, op, rhs, ic.dl, cond_true)
        if impl is not None:
            return int_const(i.type, int(impl))
        return None

    ci: Value | None = None
    o1 = simplify_op(si.operands[1], True)
    if o1 is not None and isinstance(o1, ConstantInt):
        ci = o1
    o2 = simplify_op(si.operands[2], False)
    if o2 is not None and isinstance(o2, ConstantInt):
        ci = o2
    transform = False
    if o1 is not None and o2 is not None:
        transform = True
    elif o1 is not None or o2 is not None:
        if si.has_one_use:
            transform = True
        elif isinstance(ci, ConstantInt) and ci.value != 0:
            # the select is replaced by the other arm outside its block, where the branch decides
            transform = replaced_select_with_operand(ic, si, i, 2 if o1 is not None else 1)
    if transform:
        if o1 is None:
            o1 = ic.builder.create_icmp(pred, si.operands[1], rhs, i.name)
        if o2 is None:
            o2 = ic.builder.create_icmp(pred, si.operands[2], rhs, i.name)
        return SelectInst(si.operands[0], o1, o2)
    return None


def fold_gep_icmp(ic: InstCombiner, lhs: Value, rhs: Value, cond: Predicate, i: ICmpInst) -> Instruction | None:
    """icmp of a GEP with its base, null, or another GEP -> a compare of offsets or indices
    (LLVM ``foldGEPICmp``; the indexed-compare rewrite of phi webs is not done)."""
    from llvmpy_mid.ir.function import null_pointer_is_defined
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
    from llvmpy_mid.ir.types import PointerType, VectorType
    from llvmpy_mid.transform.instcombine.gep import (
        gep_indices,
        gep_has_all_constant_indices,
        gep_is_inbounds,
        gep_source_element_type,
        ic_emit_gep_offset,
        is_gep,
    )

    if cond.is_signed:
        return None
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst

    if not isinstance(rhs, GetElementPtrInst):
        rhs = strip_pointer_casts(rhs)
    ptr_base = cast(Instruction | ConstantExpr, lhs).operands[0]
    inb = gep_is_inbounds(lhs)
    if ptr_base is rhs and (inb or cond.is_equality):
        off = ic_emit_gep_offset(ic, lhs)
        return ICmpInst(cond.signed, off, Constant.get_null_value(off.type))
    fn = i.function
    st = rhs.type.scalar_type
    if (
        inb
        and cond.is_equality
        and isinstance(rhs, Constant)
        and rhs.is_null_value
        and not null_pointer_is_defined(fn, st.address_space if isinstance(st, PointerType) else 0)
    ):
        base = ptr_base
        if isinstance(lhs.type, VectorType) and not isinstance(base.type, VectorType):
            from llvmpy_mid.transform.instcombine.gep import create_vector_splat

            base = create_vector_splat(ic.builder, lhs.type.count, lhs.type.scalable, base)
        null: Value = rhs
        if rhs.type is not base.type:
            bst = base.type.scalar_type
            if isinstance(bst, PointerType) and isinstance(st, PointerType) and bst.address_space != st.address_space:
                null = ConstantExpr.get_cast("addrspacecast", rhs, base.type)
            else:
                null = Constant.get_null_value(base.type)
        return ICmpInst(cond, base, null)
    if is_gep(rhs):
        rbase = cast(Instruction | ConstantExpr, rhs).operands[0]
        lidx = gep_indices(lhs)
        ridx = gep_indices(rhs)
        if ptr_base is not rbase:
            same = (
                len(lidx) == len(ridx)
                and ptr_base.type is rbase.type
                and gep_source_element_type(lhs) is gep_source_element_type(rhs)
                and all(a is b for a, b in zip(lidx, ridx))
            )
            from llvmpy_mid.analysis.instsimplify._util import compare_type

            if same and compare_type(ptr_base.type) is i.type:
                return ICmpInst(cond, ptr_base, rbase)
            if (
                inb
                and gep_is_inbounds(rhs)
                and (gep_has_all_constant_indices(lhs) or lhs.has_one_use)
                and (gep_has_all_constant_indices(rhs) or rhs.has_one_use)
                and strip_pointer_casts(ptr_base) is strip_pointer_casts(rbase)
                and not isinstance(lhs.type, VectorType)
            ):
                lo = ic_emit_gep_offset(ic, lhs)
                ro = ic_emit_gep_offset(ic, rhs)
                if lo.type is not ro.type:
                    if scalar_width(lo.type) < scalar_width(ro.type):
                        ro = ic.builder.create_trunc(ro, lo.type)
                    else:
                        lo = ic.builder.create_trunc(lo, ro.type)
                c = ic.builder.create_icmp(cond.signed, lo, ro)
                return ic.replace_inst_uses_with(i, c)
            return None  # (transformToIndexedCompare: not done)
        both_inb = inb and gep_is_inbounds(rhs)
        if len(lidx) == len(ridx) and gep_source_element_type(lhs) is gep_source_element_type(rhs):
            ndiff = 0
            diff_k = 0
            for k, (a, b) in enumerate(zip(lidx, ridx)):
                if a is not b:
                    lt, rt = a.type, b.type
                    if scalar_width(lt) != scalar_width(rt) or (
                        isinstance(lhs.type, VectorType) and (not isinstance(lt, VectorType) or not isinstance(rt, VectorType))
                    ):
                        ndiff = 2
                        break
                    ndiff += 1
                    if ndiff > 1:
                        break
                    diff_k = k
            if ndiff == 0:
                return ic.replace_inst_uses_with(i, int_const(i.type, int(cond.is_true_when_equal)))
            if ndiff == 1 and both_inb:
                return ICmpInst(cond.signed, lidx[diff_k], ridx[diff_k])
        if both_inb or cond.is_equality:
            lv = ic_emit_gep_offset(ic, lhs, True)
            rv = ic_emit_gep_offset(ic, rhs, True)
            return ICmpInst(cond.signed, lv, rv)
    return None  # (transformToIndexedCompare: not done)


_LOW_MASK_OR_ZERO = pm.m_cst_pred(lambda k: cast(ConstantInt, k).value & (cast(ConstantInt, k).value + 1) == 0)
_NEG_POW2_OR_ZERO = pm.m_cst_pred(
    lambda k: (-cast(ConstantInt, k).value & cast(ConstantInt, k).type.mask) & ((-cast(ConstantInt, k).value & cast(ConstantInt, k).type.mask) - 1) == 0
)


def is_mask_or_zero(ic: InstCombiner, v: Value, inverted: bool, i: ICmpInst, depth: int = 0) -> bool:
    """``v`` is a low-bit mask or zero (``inverted``: a negated power of two or zero), LLVM ``isMaskOrZero``."""
    from llvmpy_mid.analysis.known_non_zero import is_known_to_be_a_power_of_two

    if pm.matches(v, _NEG_POW2_OR_ZERO if inverted else _LOW_MASK_OR_ZERO):
        return True
    if scalar_width(v.type) == 1:
        return True
    if depth >= 6:
        return False
    depth += 1
    if not isinstance(v, Instruction):
        return False
    op = v.opcode
    ops = v.operands
    if op == "zext":
        return not inverted and is_mask_or_zero(ic, ops[0], inverted, i, depth)
    if op == "sext" or op == "ashr":
        return is_mask_or_zero(ic, ops[0], inverted, i, depth)
    if op in ("and", "or"):
        return is_mask_or_zero(ic, ops[1], inverted, i, depth) and is_mask_or_zero(ic, ops[0], inverted, i, depth)
    if op == "xor":
        nx = pm.match(v, _NOT_X)
        if nx is not None:
            return is_mask_or_zero(ic, nx.x, not inverted, i, depth)
        for a, b in ((ops[0], ops[1]), (ops[1], ops[0])):
            if inverted:
                if _is_bo(b, "sub") and pm.matches(cast(BinaryOperator, b).lhs, _ZERO_INT) and cast(BinaryOperator, b).rhs is a:
                    return True
            elif _is_bo(b, "add") and cast(BinaryOperator, b).lhs is a and pm.matches(cast(BinaryOperator, b).rhs, _ALL_ONES):
                return True
        return False
    if op == "select":
        return is_mask_or_zero(ic, ops[1], inverted, i, depth) and is_mask_or_zero(ic, ops[2], inverted, i, depth)
    if op == "shl":
        return inverted and is_mask_or_zero(ic, ops[0], inverted, i, depth)
    if op == "lshr":
        return not inverted and is_mask_or_zero(ic, ops[0], inverted, i, depth)
    if op == "add":
        if not inverted and pm.matches(ops[1], _ALL_ONES):
            return is_known_to_be_a_power_of_two(ops[0], ic.query(i), True, depth)
        return False
    if op == "sub":
        if inverted and pm.matches(ops[0], pm.m_zero()):
            return is_known_to_be_a_power_of_two(ops[1], ic.query(i), True, depth)
        return False
    if isinstance(v, CallInst):
        base = v.intrinsic_base
        if base in ("llvm.umax", "llvm.smax", "llvm.umin", "llvm.smin"):
            return is_mask_or_zero(ic, v.args[1], inverted, i, depth) and is_mask_or_zero(ic, v.args[0], inverted, i, depth)
        if base == "llvm.bitreverse":
            return is_mask_or_zero(ic, v.args[0], not inverted, i, depth)
    return False


def fold_icmp_with_low_bit_masked_val(ic: InstCombiner, pred: Predicate, op0: Value, op1: Value, i: ICmpInst) -> Value | None:
    """(X & Mask) == X -> X u<= Mask and friends (LLVM ``foldICmpWithLowBitMaskedVal``)."""
    from llvmpy_mid.analysis.known_bits_analysis import is_known_non_negative

    dst = {
        P.ICMP_EQ: P.ICMP_ULE, P.ICMP_NE: P.ICMP_UGT, P.ICMP_ULT: P.ICMP_UGT,
        P.ICMP_UGE: P.ICMP_ULE, P.ICMP_SLT: P.ICMP_SGT, P.ICMP_SGE: P.ICMP_SLE,
    }.get(pred)  # fmt: skip
    if dst is None:
        return None
    q = ic.query(i)
    x: Value | None = None
    m: Value | None = None
    found = False
    mm = _c_operand(op0, "and", op1)
    if mm is not None:
        x, m = op1, mm
        if is_mask_or_zero(ic, m, False, i):
            found = not pred.is_signed or pm.matches(m, _NON_NEG) or is_known_non_negative(m, q)
        elif is_mask_or_zero(ic, x, True, i):
            found = not pred.is_signed or is_known_non_zero(x, q)
    elif pred.is_equality and pm.matches(op1, _ALL_ONES) and _is_bo(op0, "or") and op0.has_one_use:
        ob = cast(BinaryOperator, op0)
        for xx, mv in ((ob.lhs, ob.rhs), (ob.rhs, ob.lhs)):
            if is_mask_or_zero(ic, mv, False, i):
                nx = common.get_freely_inverted(ic, xx, xx.has_one_use, ic.builder)
                if nx is not None:
                    x, m, found = nx, mv, True
                    break
    elif pred.is_equality and pm.matches(op1, pm.m_zero()) and _is_bo(op0, "and") and op0.has_one_use:
        ab = cast(BinaryOperator, op0)
        for xx, mv in ((ab.lhs, ab.rhs), (ab.rhs, ab.lhs)):
            if is_mask_or_zero(ic, mv, True, i):
                nm = common.get_freely_inverted(ic, mv, mv.has_one_use, ic.builder)
                if nm is not None:
                    x, m, found = xx, nm, True
                    break
    if not found or x is None or m is None:
        return None
    return ic.builder.create_icmp(dst, x, m)


_MINMAX_PRED = {"llvm.smax": P.ICMP_SGT, "llvm.smin": P.ICMP_SLT, "llvm.umax": P.ICMP_UGT, "llvm.umin": P.ICMP_ULT}


def _known_bool(v: Value | None) -> bool | None:
    if v is None:
        return None
    if pm.matches(v, _ONE):
        return True
    if pm.matches(v, pm.m_zero()):
        return False
    return None


def fold_icmp_with_min_max(ic: InstCombiner, i: ICmpInst, mm: CallInst, z: Value, pred: Predicate) -> Instruction | None:
    """icmp pred min/max(X, Y), Z when X pred Z or Y pred Z is known (LLVM ``foldICmpWithMinMax``)."""
    from llvmpy_mid.analysis.known_bits_analysis import is_known_non_negative

    x, y = mm.args[0], mm.args[1]
    mm_pred = _MINMAX_PRED[mm.intrinsic_base]
    q = ic.query(i)
    if pred.is_signed and not mm_pred.is_signed:
        return None
    if pred.is_unsigned and mm_pred.is_signed:
        if is_known_non_negative(z, q) and is_known_non_negative(mm, q):
            pred = pred.flipped_signedness
        else:
            return None
    cxz = _known_bool(simplify_icmp_inst(pred, x, z, q))
    cyz = _known_bool(simplify_icmp_inst(pred, y, z, q))
    if cxz is None and cyz is None:
        return None
    if cxz is None:
        x, y = y, x
        cxz, cyz = cyz, cxz
    assert cxz is not None

    def into_cmp_yz() -> Instruction | None:
        if cyz is not None:
            return ic.replace_inst_uses_with(i, int_const(i.type, int(cyz)))
        return ICmpInst(pred, y, z)

    if pred.is_equality:
        if (pred == P.ICMP_EQ) == cxz:
            np = mm_pred.non_strict
            if pred == P.ICMP_NE:
                np = np.inverse
            return ICmpInst(np, x, y)
        mcxz = _known_bool(simplify_icmp_inst(mm_pred, x, z, q))
        if mcxz is None:
            x, y = y, x
            cxz, cyz = cyz, cxz
            if cxz is None or (pred == P.ICMP_EQ) == cxz:
                return None
            mcxz = _known_bool(simplify_icmp_inst(mm_pred, x, z, q))
        if mcxz is None:
            return None
        if mcxz:
            return ic.replace_inst_uses_with(i, int_const(i.type, int(pred == P.ICMP_NE)))
        return into_cmp_yz()
    is_same = mm_pred == pred.strict
    if cxz:
        if is_same:
            return ic.replace_inst_uses_with(i, int_const(i.type, 1))
        return into_cmp_yz()
    if is_same:
        return into_cmp_yz()
    return ic.replace_inst_uses_with(i, int_const(i.type, 0))


def fold_icmp_commutative(ic: InstCombiner, pred: Predicate, op0: Value, op1: Value, cxt: ICmpInst) -> Instruction | None:
    """Folds tried with the operands in both orders (LLVM ``foldICmpCommutative``)."""
    from llvmpy_mid.transform.instcombine.gep import is_gep

    if is_gep(op0):
        r = fold_gep_icmp(ic, op0, op1, pred, cxt)
        if r is not None:
            return r
    if isinstance(op0, SelectInst):
        r = fold_select_icmp(ic, pred, op0, op1, cxt)
        if r is not None:
            return r
    if isinstance(op0, CallInst) and op0.intrinsic_base in _MINMAX_PRED:
        r = fold_icmp_with_min_max(ic, cxt, op0, op1, pred)
        if r is not None:
            return r
    if _is_bo(op0, "add") and cast(BinaryOperator, op0).lhs is op1:
        cc = apint(cast(BinaryOperator, op0).rhs)
        if cc is not None:
            return fold_icmp_add_op_const(op1, cc, pred)
    if isinstance(op0, CallInst) and op0.intrinsic_base == "llvm.abs" and op0.args[0] is op1 and isinstance(op0.args[1], Constant):
        x = op1
        w = scalar_width(x.type)
        is_int_min_poison = op0.args[1].is_all_ones_value
        b = ic.builder
        if pred in (P.ICMP_ULE, P.ICMP_SGE):
            return ic.replace_inst_uses_with(cxt, ConstantInt.get_true(cxt.type))
        if pred in (P.ICMP_UGT, P.ICMP_SLT):
            return ic.replace_inst_uses_with(cxt, ConstantInt.get_false(cxt.type))
        if pred in (P.ICMP_UGE, P.ICMP_SLE, P.ICMP_EQ):
            v = (
                b.create_icmp(P.ICMP_SGT, x, Constant.get_all_ones_value(x.type))
                if is_int_min_poison
                else b.create_icmp(P.ICMP_ULT, x, int_const(x.type, (1 << (w - 1)) + 1))
            )
            return ic.replace_inst_uses_with(cxt, v)
        v = (
            b.create_icmp(P.ICMP_SLT, x, Constant.get_null_value(x.type))
            if is_int_min_poison
            else b.create_icmp(P.ICMP_UGT, x, int_const(x.type, 1 << (w - 1)))
        )
        return ic.replace_inst_uses_with(cxt, v)
    lm = fold_icmp_with_low_bit_masked_val(ic, pred, op0, op1, cxt)
    if lm is not None:
        return ic.replace_inst_uses_with(cxt, lm)
    if _is_bo(op0, "udiv") and cast(BinaryOperator, op0).lhs is op1 and pm.matches(cast(BinaryOperator, op0).rhs, _UGT1):
        return ICmpInst(pred.swapped, op1, Constant.get_null_value(op1.type))
    if not pred.is_unsigned and _is_bo(op0, "sdiv") and cast(BinaryOperator, op0).lhs is op1 and pm.matches(cast(BinaryOperator, op0).rhs, _UGT1):
        return ICmpInst(pred.swapped, op1, Constant.get_null_value(op1.type))
    if _is_bo(op0, "lshr") and cast(BinaryOperator, op0).lhs is op1 and pm.matches(cast(BinaryOperator, op0).rhs, _NE0):
        return ICmpInst(pred.swapped, op1, Constant.get_null_value(op1.type))
    if pred in (P.ICMP_SLT, P.ICMP_SGE) and _is_bo(op0, "ashr") and cast(BinaryOperator, op0).lhs is op1 and pm.matches(cast(BinaryOperator, op0).rhs, _NE0):
        return ICmpInst(pred.swapped, op1, Constant.get_null_value(op1.type))
    return None


__all__ = [
    "fold_icmp_binop",
    "fold_icmp_equality",
    "fold_icmp_pow2_test",
    "fold_icmp_commutative",
    "fold_select_icmp",
]
