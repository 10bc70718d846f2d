"""InstCombine: ``icmp`` of an instruction with a constant, by the LHS opcode
(LLVM 19.1.7 ``lib/Transforms/InstCombine/InstCombineCompares.cpp``:
``foldICmpInstWithConstant``, ``foldICmpBinOpWithConstant`` and the
``foldICmp{Xor,And,Or,Mul,Shl,Shr,Sub,Add,Trunc,...}Constant`` family,
``foldICmpBinOpEqualityWithConstant``, ``foldICmpIntrinsicWithConstant``,
``foldICmpInstWithConstantNotInt``).

Also here: ``foldICmp{Mul,SRem,UDiv,Div}Constant`` (with ``insertRangeTest``),
``foldICmpSelectConstant`` (``matchThreeWayIntCompare``), ``foldCmpLoadFromIndexedGlobal``.

What it does not do (yet): the ``llvm.is.fpclass`` fold of ``foldICmpAndConstConst``
and ``processUGT_ADDCST_ADD``; each is skipped whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.types import Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common
from llvmpy_mid.transform.instcombine.compares_util import (
    apint,
    apint_allow_poison,
    int_const,
    is_sign_bit_check,
    scalar_width,
    to_signed,
)

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P = Predicate


def _is_pow2(v: int) -> bool:
    return v != 0 and v & (v - 1) == 0


def _ctz(v: int, w: int) -> int:
    return w if v == 0 else (v & -v).bit_length() - 1


def _clz(v: int, w: int) -> int:
    return w - v.bit_length()


def _ashr(v: int, s: int, w: int) -> int:
    return (to_signed(v, w) >> s) & ((1 << w) - 1)


def _shl(v: int, s: int, w: int) -> int:
    return (v << s) & ((1 << w) - 1)


def _num_sign_bits(v: int, w: int) -> int:
    """APInt ``getNumSignBits``."""
    if v >> (w - 1) & 1:
        v = ~v & ((1 << w) - 1)
    return w - v.bit_length()


# --- entry points ----------------------------------------------------------------------------------


def fold_icmp_inst_with_constant(ic: InstCombiner, cmp: ICmpInst) -> Instruction | None:
    """icmp (op X ...), C: dispatch on the LHS (binary operator, select, trunc, intrinsic)."""
    op0 = cmp.lhs
    c = apint(cmp.rhs)
    if c is not None:
        if isinstance(op0, BinaryOperator):
            r = fold_icmp_binop_with_constant(ic, cmp, op0, c)
            if r is not None:
                return r
        if isinstance(op0, SelectInst) and isinstance(cmp.rhs, ConstantInt):
            r = fold_icmp_select_constant(ic, cmp, op0, cmp.rhs)
            if r is not None:
                return r
        if isinstance(op0, CastInst) and op0.opcode == "trunc":
            r = fold_icmp_trunc_constant(ic, cmp, op0, c)
            if r is not None:
                return r
        if isinstance(op0, CallInst) and op0.intrinsic_base:
            r = fold_icmp_intrinsic_with_constant(ic, cmp, op0, c)
            if r is not None:
                return r
        if c == 0 and cmp.is_equality and op0.has_one_use and isinstance(op0, Instruction) and op0.opcode == "extractvalue":
            agg = op0.operands[0]
            idx = getattr(op0, "indices", None)
            if (
                isinstance(agg, CallInst)
                and agg.intrinsic_base in ("llvm.ssub.with.overflow", "llvm.usub.with.overflow")
                and idx is not None
                and list(idx) == [0]
            ):
                a = agg.args
                return ICmpInst(cmp.predicate, a[0], a[1])
    c = apint_allow_poison(cmp.rhs)
    if c is not None:
        return fold_icmp_inst_with_constant_allow_poison(ic, cmp, c)
    return None


def fold_icmp_inst_with_constant_allow_poison(ic: InstCombiner, cmp: ICmpInst, c: int) -> Instruction | None:
    """(rot X, ?) ==/!= 0 or -1 -> X ==/!= 0 or -1."""
    op0 = cmp.lhs
    if isinstance(op0, CallInst) and op0.intrinsic_base in ("llvm.fshl", "llvm.fshr"):
        a = op0.args
        w = scalar_width(op0.type)
        if cmp.is_equality and a[0] is a[1] and (c == 0 or c == (1 << w) - 1):
            return ICmpInst(cmp.predicate, a[0], cmp.rhs)
    return None


def fold_icmp_inst_with_constant_not_int(ic: InstCombiner, cmp: ICmpInst) -> Instruction | None:
    """icmp (phi ...), C via fold_op_into_phi; icmp (inttoptr X), null -> icmp X, 0."""
    op0 = cmp.lhs
    op1 = cmp.rhs
    if not isinstance(op1, Constant) or not isinstance(op0, Instruction):
        return None
    if isinstance(op0, PHINode):
        return common.fold_op_into_phi(ic, cmp, op0)
    if op0.opcode == "inttoptr":
        src = op0.operands[0]
        if op1.is_null_value and ic.dl.int_ptr_type(op1.type) is src.type:
            return ICmpInst(cmp.predicate, src, Constant.get_null_value(src.type))
    if op0.opcode == "load":
        ptr = op0.operands[0]
        if isinstance(ptr, GetElementPtrInst) and isinstance(ptr.operands[0], GlobalVariable):
            return fold_cmp_load_from_indexed_global(ic, cast(LoadInst, op0), ptr, ptr.operands[0], cmp)
    return None


def fold_icmp_binop_with_constant(ic: InstCombiner, cmp: ICmpInst, bo: BinaryOperator, c: int) -> Instruction | None:
    """icmp (binop ...), C by the binary opcode, then the equality folds."""
    op = bo.opcode
    r: Instruction | None = None
    if op == "xor":
        r = fold_icmp_xor_constant(ic, cmp, bo, c)
    elif op == "and":
        r = fold_icmp_and_constant(ic, cmp, bo, c)
    elif op == "or":
        r = fold_icmp_or_constant(ic, cmp, bo, c)
    elif op == "shl":
        r = fold_icmp_shl_constant(ic, cmp, bo, c)
    elif op == "lshr" or op == "ashr":
        r = fold_icmp_shr_constant(ic, cmp, bo, c)
    elif op == "sub":
        r = fold_icmp_sub_constant(ic, cmp, bo, c)
    elif op == "add":
        r = fold_icmp_add_constant(ic, cmp, bo, c)
    elif op == "mul":
        r = fold_icmp_mul_constant(ic, cmp, bo, c)
    elif op == "srem":
        r = fold_icmp_srem_constant(ic, cmp, bo, c)
    elif op == "udiv":
        r = fold_icmp_udiv_constant(ic, cmp, bo, c)
        if r is None:
            r = fold_icmp_div_constant(ic, cmp, bo, c)
    elif op == "sdiv":
        r = fold_icmp_div_constant(ic, cmp, bo, c)
    if r is not None:
        return r
    return fold_icmp_binop_equality_with_constant(ic, cmp, bo, c)


# --- xor ----------------------------------------------------------------------------------------------


def fold_icmp_xor_shift_const(ic: InstCombiner, cmp: ICmpInst, xor: BinaryOperator, c: int) -> Instruction | None:
    """((X s>> S) ^ X) u< P2 -> (X + P2) u< (P2 << 1) (and the u> form)."""
    pred = cmp.predicate
    w = scalar_width(xor.type)
    mask = (1 << w) - 1
    if pred == P.ICMP_ULT:
        p2 = c
    elif pred == P.ICMP_UGT and c != mask:
        p2 = c + 1
    else:
        return None
    if not _is_pow2(p2) or not xor.has_one_use:
        return None
    x: Value | None = None
    sh = 0
    for a, b in ((xor.lhs, xor.rhs), (xor.rhs, xor.lhs)):
        if isinstance(b, (Instruction, ConstantExpr)) and b.opcode == "ashr" and b.operands[0] is a:
            s = apint(b.operands[1])
            if s is not None:
                x, sh = a, s
                break
    if x is None:
        return None
    if sh == 0 or p2 == 1 << (w - 1):
        return None
    add = ic.builder.create_add(x, int_const(x.type, p2))
    bound = (p2 << 1) & mask if pred == P.ICMP_ULT else ((p2 << 1) - 1) & mask
    return ICmpInst(pred, add, int_const(x.type, bound))


def fold_icmp_xor_constant(ic: InstCombiner, cmp: ICmpInst, xor: BinaryOperator, c: int) -> Instruction | None:
    """icmp (xor X, XC), C: sign tests, sign-mask flips, low-mask magic."""
    r = fold_icmp_xor_shift_const(ic, cmp, xor, c)
    if r is not None:
        return r
    x = xor.lhs
    y = xor.rhs
    xc = apint(y)
    if xc is None:
        return None
    pred = cmp.predicate
    w = scalar_width(xor.type)
    mask = (1 << w) - 1
    sign = 1 << (w - 1)
    sb = is_sign_bit_check(pred, c, w)
    if sb is not None:
        if not xc & sign:
            return ic.replace_operand(cmp, 0, x)
        if sb[1]:
            return ICmpInst(P.ICMP_SGT, x, Constant.get_all_ones_value(x.type))
        return ICmpInst(P.ICMP_SLT, x, Constant.get_null_value(x.type))
    if xor.has_one_use:
        if not cmp.is_equality and xc == sign:
            return ICmpInst(pred.flipped_signedness, x, int_const(x.type, c ^ xc))
        if not cmp.is_equality and xc == sign - 1:
            return ICmpInst(pred.flipped_signedness.swapped, x, int_const(x.type, c ^ xc))
    if pred == P.ICMP_UGT:
        if xc == ~c & mask and _is_pow2((c + 1) & mask):
            return ICmpInst(P.ICMP_ULT, x, y)
        if xc == c and _is_pow2((c + 1) & mask):
            return ICmpInst(P.ICMP_UGT, x, y)
    if pred == P.ICMP_ULT:
        if xc == -c & mask and _is_pow2(c):
            return ICmpInst(P.ICMP_UGT, x, int_const(x.type, ~c))
        if xc == c and _is_pow2(-c & mask):
            return ICmpInst(P.ICMP_UGT, x, int_const(x.type, ~c))
    return None


# --- and -----------------------------------------------------------------------------------------------


def fold_icmp_and_shift(ic: InstCombiner, cmp: ICmpInst, and_: BinaryOperator, c1: int, c2: int) -> Instruction | None:
    """((X sh C3) & C2) pred C1 -> (X & (C2 sh' C3)) pred (C1 sh' C3)."""
    shift = and_.lhs
    if not isinstance(shift, BinaryOperator) or shift.opcode not in ("shl", "lshr", "ashr"):
        return None
    w = scalar_width(and_.type)
    sop = shift.opcode
    is_shl = sop == "shl"
    c3 = apint(shift.rhs)
    if c3 is not None:
        if c3 >= w:
            # APInt shifts by >= width give 0 (shl/lshr) or the sign fill (ashr)
            pass
        s = min(c3, w)
        sign = 1 << (w - 1)
        if is_shl:
            if cmp.is_signed and (c2 & sign or c1 & sign):
                return None
            new_cmp = c1 >> s
            new_and = c2 >> s
            shifted_out = _shl(new_cmp, s, w) != c1
        elif sop == "lshr":
            new_cmp = _shl(c1, s, w)
            new_and = _shl(c2, s, w)
            shifted_out = (new_cmp >> s) != c1
            if cmp.is_signed and (new_and & sign or new_cmp & sign):
                return None
        else:
            new_cmp = _shl(c1, s, w)
            new_and = _shl(c2, s, w)
            shifted_out = _ashr(new_cmp, s, w) != c1
            if _ashr(new_and, s, w) != c2:
                return None
        if shifted_out:
            if cmp.predicate == P.ICMP_EQ:
                return ic.replace_inst_uses_with(cmp, ConstantInt.get_false(cmp.type))
            if cmp.predicate == P.ICMP_NE:
                return ic.replace_inst_uses_with(cmp, ConstantInt.get_true(cmp.type))
        else:
            new = ic.builder.create_and(shift.lhs, int_const(and_.type, new_and))
            return ICmpInst(cmp.predicate, new, int_const(and_.type, new_cmp))
    if shift.has_one_use and c1 == 0 and cmp.is_equality and sop != "ashr" and not isinstance(shift.lhs, Constant):
        if is_shl:
            ns = ic.builder.create_lshr(and_.rhs, shift.rhs)
        else:
            ns = ic.builder.create_shl(and_.rhs, shift.rhs)
        new_and_v = ic.builder.create_and(shift.lhs, ns)
        return ic.replace_operand(cmp, 0, new_and_v)
    return None


def fold_icmp_and_const_const(ic: InstCombiner, cmp: ICmpInst, and_: BinaryOperator, c1: int) -> Instruction | None:
    """icmp (and X, C2), C1: sign tests, negated-power-of-two masks, widening through trunc, shifts."""
    is_ne = cmp.predicate == P.ICMP_NE
    if is_ne and isinstance(cmp.type, VectorType) and c1 == 0 and pm.matches(and_.rhs, _ONE):
        return CastInst.create("trunc", and_.lhs, cmp.type)
    c2 = apint(and_.rhs)
    if c2 is None:
        return None
    x = and_.lhs
    if not and_.has_one_use:
        return None
    w = scalar_width(and_.type)
    mask = (1 << w) - 1
    sign = 1 << (w - 1)
    if cmp.is_equality and c1 == 0:
        if c2 == sign:
            return ICmpInst(P.ICMP_SLT if is_ne else P.ICMP_SGE, x, Constant.get_null_value(x.type))
        know = ic.compute_known_bits(x, 0, and_)
        lz = know.count_min_leading_zeros()
        new_c2 = c2 | (mask & ~((1 << (w - lz)) - 1))
        neg = -new_c2 & mask
        if _is_pow2(neg):
            return ICmpInst(P.ICMP_UGE if is_ne else P.ICMP_ULT, x, int_const(and_.type, neg))
    if isinstance(x, CastInst) and x.opcode == "trunc" and x.has_one_use and (
        cmp.is_equality or (not c1 & sign and not c2 & sign)
    ):
        if not isinstance(cmp.type, VectorType):
            wide = x.operands[0]
            new_and = ic.builder.create_and(wide, int_const(wide.type, c2), and_.name)
            return ICmpInst(cmp.predicate, new_and, int_const(wide.type, c1))
    r = fold_icmp_and_shift(ic, cmp, and_, c1, c2)
    if r is not None:
        return r
    if not cmp.is_signed and c1 == 0 and x.has_one_use and pm.matches(and_.rhs, _ONE):
        one = cast(Constant, and_.rhs)
        or_ = x
        if isinstance(or_, BinaryOperator) and or_.opcode == "or":
            lshr, a = or_.lhs, or_.rhs
            if isinstance(lshr, BinaryOperator) and lshr.opcode == "lshr" and lshr.lhs is a:
                b = lshr.rhs
                removed = int(and_.has_one_use) + int(or_.has_one_use) + int(lshr.has_one_use)
                required = 1 if pm.matches(b, _IMM) else 3
                if removed >= required:
                    new_or = ic.builder.create_or(ic.builder.create_shl(one, b, lshr.name, nuw=True), one, or_.name)
                    new_and = ic.builder.create_and(a, new_or, and_.name)
                    return ic.replace_operand(cmp, 0, new_and)
    # (bitcast-of-float exponent mask -> llvm.is.fpclass: not done)
    return None


def fold_icmp_and_constant(ic: InstCombiner, cmp: ICmpInst, and_: BinaryOperator, c: int) -> Instruction | None:
    """icmp (and X, Y), C."""
    r = fold_icmp_and_const_const(ic, cmp, and_, c)
    if r is not None:
        return r
    pred = cmp.predicate
    w = scalar_width(and_.type)
    mask = (1 << w) - 1
    sb = is_sign_bit_check(pred, c, w)
    if sb is not None:
        true_if_neg = sb[1]
        m = pm.match(and_.lhs, _ADD_X_M1)
        if m is not None and pm.matches(and_.rhs, pm.m_not(pm.m_specific(m.x))):
            return ICmpInst(P.ICMP_EQ if true_if_neg else P.ICMP_NE, m.x, Constant.get_null_value(m.x.type))
        m = pm.match(and_, _AND_NEG_X_X)
        if m is not None:
            xv = cast(Value, m.x)
            return ICmpInst(P.ICMP_EQ if true_if_neg else P.ICMP_NE, xv, int_const(xv.type, 1 << (w - 1)))
    x = and_.lhs
    y = and_.rhs
    if isinstance(y, ConstantInt) and isinstance(x, LoadInst):
        gep = x.operands[0]
        if isinstance(gep, GetElementPtrInst) and isinstance(gep.operands[0], GlobalVariable):
            r = fold_cmp_load_from_indexed_global(ic, x, gep, gep.operands[0], cmp, y)
            if r is not None:
                return r
    if not cmp.is_equality:
        return None
    if cmp.rhs is y and _is_pow2(-c & mask) and c != 0:
        return ICmpInst(P.ICMP_UGT if pred == P.ICMP_EQ else P.ICMP_ULE, x, common.sub_one(cast(Constant, cmp.rhs)))
    if c == 0 and (pred == P.ICMP_EQ or and_.has_one_use):
        ma = pm.match(x, _SELECT_TC_FC)
        if ma is not None:
            tc = cast(int, ma.tc)
            fc = cast(int, ma.fc)
            b_sel = y
            if (
                isinstance(b_sel, Instruction)
                and b_sel.opcode == "select"
                and apint(b_sel.operands[1]) == tc
                and apint(b_sel.operands[2]) == fc
                and type(b_sel.operands[1]) is type(ma.tcv)
                and tc != 0
                and fc != 0
                and tc & fc == 0
            ):
                rv = ic.builder.create_xor(ma.a, b_sel.operands[0])
                if pred == P.ICMP_NE:
                    rv = ic.builder.create_not(rv)
                return ic.replace_inst_uses_with(cmp, rv)
    if and_.has_one_use and (c == 0 or c == 1):
        for zx, yy in ((and_.lhs, and_.rhs), (and_.rhs, and_.lhs)):
            if isinstance(zx, CastInst) and zx.opcode == "zext" and zx.has_one_use and scalar_width(zx.operands[0].type) == 1:
                xb = zx.operands[0]
                trunc_y = ic.builder.create_trunc(yy, xb.type)
                if (c == 0) ^ (pred == P.ICMP_NE):
                    a2 = ic.builder.create_and(trunc_y, xb)
                    return BinaryOperator.create("xor", a2, Constant.get_all_ones_value(a2.type))
                return BinaryOperator.create("and", trunc_y, xb)
    if c == 0 and and_.has_one_use:
        for sh, yy in ((and_.lhs, and_.rhs), (and_.rhs, and_.lhs)):
            if isinstance(sh, BinaryOperator) and sh.opcode == "shl" and sh.has_one_use and pm.matches(sh.lhs, _ALL_ONES):
                lshr = ic.builder.create_lshr(yy, sh.rhs)
                return ICmpInst(pred, lshr, Constant.get_null_value(lshr.type))
    return None


# --- or ---------------------------------------------------------------------------------------------------


def _fold_icmp_or_xor_sub_chain(ic: InstCombiner, cmp: ICmpInst, or_: BinaryOperator) -> Value | None:
    """((X1 ^/- X2) | (X3 ^/- X4)) ==/!= 0 -> (X1 ==/!= X2) &/| (X3 ==/!= X4)."""
    pairs: list[tuple[Value, Value]] = []
    work: list[Value] = [or_]
    while work:
        cur = work.pop()
        if not (isinstance(cur, (Instruction, ConstantExpr)) and cur.opcode == "or"):
            return None
        lhs, rhs = cur.operands[0], cur.operands[1]
        for arg in (rhs, lhs):
            if isinstance(arg, Instruction) and arg.opcode in ("xor", "sub") and arg.has_one_use:
                pairs.append((arg.operands[0], arg.operands[1]))
            else:
                work.append(arg)
        if len(work) > 64:
            return None
    if not pairs:
        return None
    pred = cmp.predicate
    opc = "and" if pred == P.ICMP_EQ else "or"
    b = ic.builder
    it = list(reversed(pairs))
    acc = b.create_icmp(pred, it[0][0], it[0][1])
    for l, r in it[1:]:
        rc = b.create_icmp(pred, l, r)
        acc = common.create_bin_op(b, opc, acc, rc)
    return acc


def fold_icmp_or_constant(ic: InstCombiner, cmp: ICmpInst, or_: BinaryOperator, c: int) -> Instruction | None:
    """icmp (or X, Y), C."""
    pred = cmp.predicate
    w = scalar_width(or_.type)
    mask = (1 << w) - 1
    if c == 1 and pred == P.ICMP_SLT:
        v = _signum_of(or_)
        if v is not None:
            return ICmpInst(P.ICMP_SLT, v, int_const(v.type, 1))
    op0, op1 = or_.lhs, or_.rhs
    if cmp.is_equality and pm.matches(op1, _IMM) and or_.disjoint:
        new_c = ic.builder.create_xor(op1, int_const(op1.type, c))
        return ICmpInst(pred, op0, new_c)
    mc = apint(op1)
    if mc is not None and cmp.is_equality:
        if mc == c and _is_pow2((c + 1) & mask):
            return ICmpInst(P.ICMP_ULE if pred == P.ICMP_EQ else P.ICMP_UGT, op0, op1)
        if or_.has_one_use:
            a = ic.builder.create_and(op0, int_const(op0.type, ~mc))
            return ICmpInst(pred, a, int_const(or_.type, c ^ mc))
    sb = is_sign_bit_check(pred, c, w)
    if sb is not None:
        m = pm.match(or_, _OR_ADDM1_X)
        if m is not None:
            xv = cast(Value, m.x)
            return ICmpInst(P.ICMP_SLT if sb[1] else P.ICMP_SGT, xv, int_const(xv.type, 1 if sb[1] else 0))
    if not c >> (w - 1) and mc is not None:
        x = op0
        sc = to_signed(c, w)
        so = to_signed(mc, w)
        if pred in (P.ICMP_SLT, P.ICMP_SGE) and so >= sc:
            return ICmpInst(pred, x, Constant.get_null_value(x.type))
        if pred in (P.ICMP_SLE, P.ICMP_SGT) and so > sc:
            np = pred.strict if pred.is_non_strict else pred.non_strict
            return ICmpInst(np, x, Constant.get_null_value(x.type))
    if not cmp.is_equality or c != 0 or not or_.has_one_use:
        return None
    if (
        isinstance(op0, Instruction)
        and op0.opcode == "ptrtoint"
        and isinstance(op1, Instruction)
        and op1.opcode == "ptrtoint"
    ):
        p_, q_ = op0.operands[0], op1.operands[0]
        cp = ic.builder.create_icmp(pred, p_, Constant.get_null_value(p_.type))
        cq = ic.builder.create_icmp(pred, q_, Constant.get_null_value(q_.type))
        return BinaryOperator.create("and" if pred == P.ICMP_EQ else "or", cp, cq)
    v = _fold_icmp_or_xor_sub_chain(ic, cmp, or_)
    if v is not None:
        return ic.replace_inst_uses_with(cmp, v)
    return None


# --- shifts -------------------------------------------------------------------------------------------------


def _eq_or_inverse(cmp: ICmpInst, pred: Predicate, lhs: Value, rhs: Value) -> Instruction:
    return ICmpInst(pred.inverse if cmp.predicate == P.ICMP_NE else pred, lhs, rhs)


def fold_icmp_shr_const_const(ic: InstCombiner, cmp: ICmpInst, a: Value, ap1: int, ap2: int) -> Instruction | None:
    """(AP2 >> A) ==/!= AP1 -> A ==/!= log2(AP2/AP1)-style (LLVM ``foldICmpShrConstConst``)."""
    if ap2 == 0:
        return None
    w = scalar_width(a.type)
    mask = (1 << w) - 1
    sign = 1 << (w - 1)
    op0 = cmp.lhs
    is_ashr = isinstance(op0, (Instruction, ConstantExpr)) and op0.opcode == "ashr"
    if is_ashr:
        if ap2 == mask:
            return None
        if bool(ap2 & sign) != bool(ap1 & sign):
            return None
        if to_signed(ap2, w) > to_signed(ap1, w):
            return None
    ty = a.type
    if ap1 == 0:
        return _eq_or_inverse(cmp, P.ICMP_UGT, a, int_const(ty, ap2.bit_length() - 1))
    if ap1 == ap2:
        return _eq_or_inverse(cmp, P.ICMP_EQ, a, Constant.get_null_value(ty))
    if is_ashr and ap1 & sign:
        shift = _clz(~ap1 & mask, w) - _clz(~ap2 & mask, w)
    else:
        shift = _clz(ap1, w) - _clz(ap2, w)
    if shift > 0:
        if is_ashr and ap1 == _ashr(ap2, shift, w):
            if ap1 == mask and not _is_pow2(ap2):
                return _eq_or_inverse(cmp, P.ICMP_UGE, a, int_const(ty, shift))
            return _eq_or_inverse(cmp, P.ICMP_EQ, a, int_const(ty, shift))
        if ap1 == ap2 >> shift:
            return _eq_or_inverse(cmp, P.ICMP_EQ, a, int_const(ty, shift))
    return ic.replace_inst_uses_with(cmp, int_const(cmp.type, int(cmp.predicate == P.ICMP_NE)))


def fold_icmp_shl_const_const(ic: InstCombiner, cmp: ICmpInst, a: Value, ap1: int, ap2: int) -> Instruction | None:
    """(AP2 << A) ==/!= AP1 -> A compared with a shift amount (LLVM ``foldICmpShlConstConst``)."""
    if ap2 == 0:
        return None
    w = scalar_width(a.type)
    ty = a.type
    tz2 = _ctz(ap2, w)
    if ap1 == 0 and tz2 != 0:
        return _eq_or_inverse(cmp, P.ICMP_UGE, a, int_const(ty, w - tz2))
    if ap1 == ap2:
        return _eq_or_inverse(cmp, P.ICMP_EQ, a, Constant.get_null_value(ty))
    shift = _ctz(ap1, w) - tz2
    if shift > 0 and _shl(ap2, shift, w) == ap1:
        return _eq_or_inverse(cmp, P.ICMP_EQ, a, int_const(ty, shift))
    return ic.replace_inst_uses_with(cmp, int_const(cmp.type, int(cmp.predicate == P.ICMP_NE)))


def fold_icmp_shl_one(cmp: ICmpInst, shl: BinaryOperator, c: int) -> Instruction | None:
    """(1 << Y) pred C -> Y pred log2(C)."""
    if not pm.matches(shl.lhs, _ONE):
        return None
    y = shl.rhs
    w = scalar_width(shl.type)
    pred = cmp.predicate
    if cmp.is_unsigned:
        if not _is_pow2(c):
            if pred == P.ICMP_ULT:
                pred = P.ICMP_ULE
            elif pred == P.ICMP_UGE:
                pred = P.ICMP_UGT
        clog2 = c.bit_length() - 1 if c else (1 << 32) - 1
        return ICmpInst(pred, y, int_const(shl.type, clog2))
    if cmp.is_signed:
        bwm1 = int_const(shl.type, w - 1)
        sc = to_signed(c, w)
        if pred == P.ICMP_SGT and sc <= 0:
            return ICmpInst(P.ICMP_NE, y, bwm1)
        if pred == P.ICMP_SLT and to_signed((c - 1) & ((1 << w) - 1), w) <= 0:
            return ICmpInst(P.ICMP_EQ, y, bwm1)
    return None


def fold_icmp_shl_constant(ic: InstCombiner, cmp: ICmpInst, shl: BinaryOperator, c: int) -> Instruction | None:
    """icmp (shl X, Y), C."""
    sv = apint(shl.lhs)
    if cmp.is_equality and sv is not None:
        return fold_icmp_shl_const_const(ic, cmp, shl.rhs, c, sv)
    pred = cmp.predicate
    w = scalar_width(shl.type)
    mask = (1 << w) - 1
    sc = to_signed(c, w)
    nuw = shl.nuw
    nsw = shl.nsw
    x = shl.lhs
    if sc <= 0 and nuw and nsw:
        return ICmpInst(pred, x, cmp.rhs)
    if pred.is_equality and c == 0 and (nuw or nsw):
        return ICmpInst(pred, x, cmp.rhs)
    if nsw and pred in (P.ICMP_SGT, P.ICMP_SLT):
        if c == 0 or (c == mask if pred == P.ICMP_SGT else c == 1):
            return ICmpInst(pred, x, cmp.rhs)
    amt = apint(shl.rhs)
    if amt is None:
        return fold_icmp_shl_one(cmp, shl, c)
    if amt >= w:
        return None
    ty = shl.type
    if nsw:
        if pred == P.ICMP_SGT:
            return ICmpInst(pred, x, int_const(ty, _ashr(c, amt, w)))
        if pred.is_equality and _shl(_ashr(c, amt, w), amt, w) == c:
            return ICmpInst(pred, x, int_const(ty, _ashr(c, amt, w)))
        if pred == P.ICMP_SLT:
            return ICmpInst(pred, x, int_const(ty, _ashr((c - 1) & mask, amt, w) + 1))
    if nuw:
        if pred == P.ICMP_UGT:
            return ICmpInst(pred, x, int_const(ty, c >> amt))
        if pred.is_equality and _shl(c >> amt, amt, w) == c:
            return ICmpInst(pred, x, int_const(ty, c >> amt))
        if pred == P.ICMP_ULT:
            return ICmpInst(pred, x, int_const(ty, (((c - 1) & mask) >> amt) + 1))
    if cmp.is_equality and shl.has_one_use:
        m = int_const(ty, (1 << (w - amt)) - 1)
        a = ic.builder.create_and(x, m, shl.name + ".mask")
        return ICmpInst(pred, a, int_const(ty, c >> amt))
    sb = is_sign_bit_check(pred, c, w)
    if shl.has_one_use and sb is not None:
        m = int_const(ty, 1 << (w - amt - 1))
        a = ic.builder.create_and(x, m, shl.name + ".mask")
        return ICmpInst(P.ICMP_NE if sb[1] else P.ICMP_EQ, a, Constant.get_null_value(ty))
    if cmp.is_unsigned and shl.has_one_use:
        if _is_pow2((c + 1) & mask) and pred in (P.ICMP_ULE, P.ICMP_UGT):
            a = ic.builder.create_and(x, int_const(ty, (~c & mask) >> amt))
            return ICmpInst(P.ICMP_EQ if pred == P.ICMP_ULE else P.ICMP_NE, a, Constant.get_null_value(ty))
        if _is_pow2(c) and pred in (P.ICMP_ULT, P.ICMP_UGE):
            a = ic.builder.create_and(x, int_const(ty, (~(c - 1) & mask) >> amt))
            return ICmpInst(P.ICMP_EQ if pred == P.ICMP_ULT else P.ICMP_NE, a, Constant.get_null_value(ty))
    if shl.has_one_use and amt != 0 and common.should_change_type_widths(ic, w, w - amt):
        cmp_pred = pred
        rhsc = c
        if _ctz(rhsc, w) < amt and pred.is_strict:
            fl = _flip_strictness(pred, c, w)
            if fl is not None:
                cmp_pred, rhsc = fl
        if _ctz(rhsc, w) >= amt:
            tw = w - amt
            trunc_ty = _with_width(ty, tw)
            new_c = int_const(trunc_ty, _ashr(rhsc, amt, w) & ((1 << tw) - 1))
            t = ic.builder.create_trunc(x, trunc_ty)
            if nsw and isinstance(t, CastInst) and t.opcode == "trunc":
                t.nsw = True
            return ICmpInst(cmp_pred, t, new_c)
    return None


def _flip_strictness(pred: Predicate, c: int, w: int) -> tuple[Predicate, int] | None:
    """Scalar form of ``getFlippedStrictnessPredicateAndConstant``."""
    signed = pred.is_signed
    up = pred.unsigned
    inc = up in (P.ICMP_ULE, P.ICMP_UGT)
    mask = (1 << w) - 1
    if inc:
        if c == ((1 << (w - 1)) - 1 if signed else mask):
            return None
    elif c == ((1 << (w - 1)) if signed else 0):
        return None
    np = pred.strict if pred.is_non_strict else pred.non_strict
    return np, (c + (1 if inc else -1)) & mask


def _with_width(t: Type, w: int) -> Type:
    ctx = t.context
    it = ctx.int_type(w)
    if isinstance(t, VectorType):
        return ctx.vector_type(it, t.count, t.scalable)
    return it


def fold_icmp_shr_constant(ic: InstCombiner, cmp: ICmpInst, shr: BinaryOperator, c: int) -> Instruction | None:
    """icmp (lshr/ashr X, Y), C."""
    x = shr.lhs
    pred = cmp.predicate
    if cmp.is_equality and shr.exact and c == 0:
        return ICmpInst(pred, x, cmp.rhs)
    is_ashr = shr.opcode == "ashr"
    w = scalar_width(shr.type)
    mask = (1 << w) - 1
    sign = 1 << (w - 1)
    ty = shr.type
    svc = apint(x)
    if svc is not None:
        if cmp.is_equality:
            return fold_icmp_shr_const_const(ic, cmp, shr.rhs, c, svc)
        sb = is_sign_bit_check(pred, c, w)
        if not is_ashr and svc & sign and sb is not None:
            return ICmpInst(P.ICMP_EQ if sb[1] else P.ICMP_NE, shr.rhs, Constant.get_null_value(ty))
        if not is_ashr and _is_pow2(svc) and pred in (P.ICMP_UGT, P.ICMP_ULT):
            is_ugt = pred == P.ICMP_UGT
            cmp_lz = _clz(c, w) if is_ugt else _clz((c - 1) & mask, w)
            shift_lz = _clz(svc, w)
            return ICmpInst(P.ICMP_ULT if is_ugt else P.ICMP_UGE, shr.rhs, int_const(ty, cmp_lz - shift_lz))
    sa = apint(shr.rhs)
    if sa is None:
        return None
    if sa >= w or sa == 0:
        return None
    exact = shr.exact
    if is_ashr and shr.has_one_use:
        cm1 = (c - 1) & mask
        if exact and pred in (P.ICMP_SLT, P.ICMP_ULT) and _is_pow2(cm1) and _clz(c, w) > sa:
            return ICmpInst(pred, x, int_const(ty, _shl(cm1, sa, w) + 1))
        if exact or pred in (P.ICMP_SLT, P.ICMP_ULT):
            shifted = _shl(c, sa, w)
            if _ashr(shifted, sa, w) == c:
                return ICmpInst(pred, x, int_const(ty, shifted))
        cp1 = (c + 1) & mask
        if pred == P.ICMP_SGT:
            shifted = (_shl(cp1, sa, w) - 1) & mask
            if c != sign - 1 and _shl(cp1, sa, w) != sign and _ashr((shifted + 1) & mask, sa, w) == cp1:
                return ICmpInst(pred, x, int_const(ty, shifted))
        if pred == P.ICMP_UGT:
            shifted = (_shl(cp1, sa, w) - 1) & mask
            if _ashr((shifted + 1) & mask, sa, w) == cp1 or _shl(cp1, sa, w) == sign:
                return ICmpInst(pred, x, int_const(ty, shifted))
        if w > 2 and _num_sign_bits(c, w) <= sa:
            if pred == P.ICMP_UGT:
                return ICmpInst(P.ICMP_SLT, x, Constant.get_null_value(ty))
            if pred == P.ICMP_ULT:
                return ICmpInst(P.ICMP_SGT, x, Constant.get_all_ones_value(ty))
    elif not is_ashr:
        if pred == P.ICMP_ULT or (pred == P.ICMP_UGT and exact):
            shifted = _shl(c, sa, w)
            if shifted >> sa == c:
                return ICmpInst(pred, x, int_const(ty, shifted))
        if pred == P.ICMP_UGT:
            cp1 = (c + 1) & mask
            shifted = (_shl(cp1, sa, w) - 1) & mask
            if ((shifted + 1) & mask) >> sa == cp1:
                return ICmpInst(pred, x, int_const(ty, shifted))
    if not cmp.is_equality:
        return None
    if exact:
        return ICmpInst(pred, x, int_const(ty, _shl(c, sa, w)))
    if c == 0:
        if pred == P.ICMP_EQ:
            return ICmpInst(P.ICMP_ULT, x, int_const(ty, _shl(1, sa, w)))
        return ICmpInst(P.ICMP_UGT, x, int_const(ty, _shl(1, sa, w) - 1))
    if shr.has_one_use:
        hi = mask & ~((1 << sa) - 1)
        a = ic.builder.create_and(x, int_const(ty, hi), shr.name + ".mask")
        return ICmpInst(pred, a, int_const(ty, _shl(c, sa, w)))
    return None


# --- loads from constant global arrays -----------------------------------------------------------------

MAX_ARRAY_SIZE_FOR_COMBINE = 1024
"""LLVM ``-instcombine-maxarray-size``."""


def fold_cmp_load_from_indexed_global(
    ic: InstCombiner, li: LoadInst, gep: GetElementPtrInst, gv: GlobalVariable, cmp: CmpInst, and_cst: ConstantInt | None = None
) -> Instruction | None:
    """cmp (load (gep @G, 0, i)), C with @G a constant array -> a compare of ``i``
    (LLVM ``foldCmpLoadFromIndexedGlobal``)."""
    from llvmpy_mid.analysis.constant_folding import constant_fold_binary_op_operands, constant_fold_compare_inst_operands
    from llvmpy_mid.ir.constant_fold import constant_fold_extract_value
    from llvmpy_mid.ir.constants import ConstantArray, ConstantDataArray, UndefValue
    from llvmpy_mid.ir.types import ArrayType, IntegerType, StructType

    if (
        li.is_volatile
        or li.type is not gep.result_element_type
        or gv.value_type is not gep.source_element_type
        or not gv.is_constant_global
        or not gv.has_definitive_initializer
    ):
        return None
    init = gv.initializer
    if not isinstance(init, (ConstantArray, ConstantDataArray)):
        return None
    aty = init.type
    assert isinstance(aty, ArrayType)
    count = aty.count
    if count > MAX_ARRAY_SIZE_FOR_COMBINE:
        return None
    ops = gep.operands
    if len(ops) < 3 or not isinstance(ops[1], ConstantInt) or ops[1].value != 0 or isinstance(ops[2], Constant):
        return None
    later: list[int] = []
    elt_ty = aty.element_type
    for k in range(3, len(ops)):
        idx = ops[k]
        if not isinstance(idx, ConstantInt):
            return None
        iv = idx.value
        if iv >> 32:
            return None
        if isinstance(elt_ty, StructType):
            elt_ty = elt_ty.elements[iv]
        elif isinstance(elt_ty, ArrayType):
            if iv >= elt_ty.count:
                return None
            elt_ty = elt_ty.element_type
        else:
            return None
        later.append(iv)
    OVER, UNDEF = -3, -2
    ft = st = UNDEF
    ff = sf = UNDEF
    tre = fre = UNDEF
    magic = 0
    rhs = cmp.operands[1]
    assert isinstance(rhs, Constant)
    for k in range(count):
        elt = init.get_aggregate_element(k)
        if elt is None:
            return None
        if later:
            elt = constant_fold_extract_value(elt, later)
            if elt is None:
                return None
        if and_cst is not None:
            elt = constant_fold_binary_op_operands("and", elt, and_cst, ic.dl)
            if elt is None:
                return None
        c = constant_fold_compare_inst_operands(cmp.predicate, elt, rhs, ic.dl)
        if c is None:
            return None
        if isinstance(c, UndefValue):
            if tre == k - 1:
                tre = k
            if fre == k - 1:
                fre = k
            continue
        if not isinstance(c, ConstantInt):
            return None
        is_true = c.value != 0
        if is_true:
            if ft == UNDEF:
                ft = tre = k
            else:
                st = k if st == UNDEF else OVER
                tre = k if tre == k - 1 else OVER
        else:
            if ff == UNDEF:
                ff = fre = k
            else:
                sf = k if sf == UNDEF else OVER
                fre = k if fre == k - 1 else OVER
        if k < 64 and is_true:
            magic |= 1 << k
        if (k & 8) == 0 and k >= 64 and st == OVER and sf == OVER and tre == OVER and fre == OVER:
            return None
    idx_v: Value = ops[2]
    b = ic.builder
    inb = gep.inbounds
    if not inb:
        pit = ic.dl.index_type(gep.type)
        if scalar_width(idx_v.type) > scalar_width(pit):
            idx_v = b.create_trunc(idx_v, pit)
    elem_size = ic.dl.type_alloc_size(aty.element_type)
    tz = _ctz(elem_size, 64) if elem_size else 64

    def mask_idx(v: Value) -> Value:
        if not inb and tz != 0:
            m = b.create_lshr(Constant.get_all_ones_value(v.type), int_const(v.type, tz))
            v = b.create_and(v, m)
        return v

    ity = idx_v.type
    if st != OVER:
        idx_v = mask_idx(idx_v)
        if ft == UNDEF:
            return ic.replace_inst_uses_with(cmp, ConstantInt.get_false(cmp.type))
        first = int_const(idx_v.type, ft)
        if st == UNDEF:
            return ICmpInst(P.ICMP_EQ, idx_v, first)
        c1 = b.create_icmp(P.ICMP_EQ, idx_v, first)
        c2 = b.create_icmp(P.ICMP_EQ, idx_v, int_const(idx_v.type, st))
        return BinaryOperator.create("or", c1, c2)
    if sf != OVER:
        idx_v = mask_idx(idx_v)
        if ff == UNDEF:
            return ic.replace_inst_uses_with(cmp, ConstantInt.get_true(cmp.type))
        first = int_const(idx_v.type, ff)
        if sf == UNDEF:
            return ICmpInst(P.ICMP_NE, idx_v, first)
        c1 = b.create_icmp(P.ICMP_NE, idx_v, first)
        c2 = b.create_icmp(P.ICMP_NE, idx_v, int_const(idx_v.type, sf))
        return BinaryOperator.create("and", c1, c2)
    if tre != OVER:
        idx_v = mask_idx(idx_v)
        if ft:
            idx_v = b.create_add(idx_v, int_const(idx_v.type, -ft))
        return ICmpInst(P.ICMP_ULT, idx_v, int_const(idx_v.type, tre - ft + 1))
    if fre != OVER:
        idx_v = mask_idx(idx_v)
        if ff:
            idx_v = b.create_add(idx_v, int_const(idx_v.type, -ff))
        return ICmpInst(P.ICMP_UGT, idx_v, int_const(idx_v.type, fre - ff))
    ty: Type | None
    if count <= scalar_width(ity):
        ty = ity
    else:
        ty = ic.dl.smallest_legal_int_type(ity.context, count)
    if ty is not None:
        assert isinstance(ty, IntegerType)
        idx_v = mask_idx(idx_v)
        v = _int_cast(ic, idx_v, ty)
        v = b.create_lshr(ConstantInt.get(ty, magic), v)
        v = b.create_and(ConstantInt.get(ty, 1), v)
        return ICmpInst(P.ICMP_NE, v, ConstantInt.get(ty, 0))
    return None


def _int_cast(ic: InstCombiner, v: Value, ty: Type) -> Value:
    """``Builder.CreateIntCast(V, Ty, /*isSigned=*/false)``."""
    sw, dw = scalar_width(v.type), scalar_width(ty)
    if sw == dw:
        return v
    return ic.builder.create_cast("trunc" if sw > dw else "zext", v, ty)


# --- three-way compares ---------------------------------------------------------------------------------


def match_three_way_int_compare(si: SelectInst) -> tuple[Value, Value, ConstantInt, ConstantInt, ConstantInt] | None:
    """``select (A == B), Eq, (select (A < B), Less, Greater)``: (A, B, Less, Equal, Greater)
    (LLVM ``matchThreeWayIntCompare``)."""
    from llvmpy_mid.transform.instcombine.compares_util import get_flipped_strictness_predicate_and_constant

    cond = si.condition
    if not isinstance(cond, ICmpInst) or not cond.is_equality:
        return None
    lhs, rhs = cond.lhs, cond.rhs
    eq_v, ne_v = si.true_value, si.false_value
    if cond.predicate == P.ICMP_NE:
        eq_v, ne_v = ne_v, eq_v
    if type(eq_v) is not ConstantInt:
        return None
    if not isinstance(ne_v, SelectInst):
        return None
    c2 = ne_v.condition
    less, greater = ne_v.true_value, ne_v.false_value
    if not isinstance(c2, ICmpInst) or type(less) is not ConstantInt or type(greater) is not ConstantInt:
        return None
    pb = c2.predicate
    l2, r2 = c2.lhs, c2.rhs
    if l2 is not lhs:
        l2, r2 = r2, l2
        pb = pb.swapped
    if l2 is not lhs:
        return None
    if pb == P.ICMP_SGT and isinstance(r2, Constant):
        fl = get_flipped_strictness_predicate_and_constant(pb, r2)
        if fl is None:
            return None
        r2 = fl[1]
        less, greater = greater, less
        pb = P.ICMP_SLT
    if pb == P.ICMP_SLT and rhs is r2:
        return lhs, rhs, less, eq_v, greater
    return None


def fold_icmp_select_constant(ic: InstCombiner, cmp: ICmpInst, si: SelectInst, c: ConstantInt) -> Instruction | None:
    """icmp (three-way compare A, B), C -> an or of A <s B, A == B, A >s B as C selects."""
    if not cmp.has_one_use:
        return None
    m = match_three_way_int_compare(si)
    if m is None:
        return None
    a, b, less, equal, greater = m
    w = scalar_width(c.type)
    pred = cmp.predicate
    bld = ic.builder
    cond: Value = ConstantInt.get_false(cmp.type)
    if _compare(pred, less.value, c.value, w):
        cond = bld.create_or(cond, bld.create_icmp(P.ICMP_SLT, a, b))
    if _compare(pred, equal.value, c.value, w):
        cond = bld.create_or(cond, bld.create_icmp(P.ICMP_EQ, a, b))
    if _compare(pred, greater.value, c.value, w):
        cond = bld.create_or(cond, bld.create_icmp(P.ICMP_SGT, a, b))
    return ic.replace_inst_uses_with(cmp, cond)


# --- mul / div / rem ---------------------------------------------------------------------------------------


def _is_sign_test(pred: Predicate, c: int, w: int) -> Predicate | None:
    """LLVM ``isSignTest``: the (possibly adjusted) signed predicate comparing with zero."""
    if not pred.is_signed:
        return None
    if c == 0:
        return pred if pred.is_relational else None
    if c == 1 and pred == P.ICMP_SLT:
        return P.ICMP_SLE
    if c == (1 << w) - 1 and pred == P.ICMP_SGT:
        return P.ICMP_SGE
    return None


def _rounding_div(a: int, b: int, up: bool) -> int:
    """Exact integer division rounded toward +inf (up) or -inf (down)."""
    q, r = divmod(a, b)
    if r and up:
        q += 1
    return q


def fold_icmp_mul_constant(ic: InstCombiner, cmp: ICmpInst, mul: BinaryOperator, c: int) -> Instruction | None:
    """icmp (mul X, MulC), C -> icmp X, C / MulC (flags permitting)."""
    pred = cmp.predicate
    ty = mul.type
    x = mul.lhs
    w = scalar_width(ty)
    mask = (1 << w) - 1
    if cmp.is_equality and c == 0 and x is mul.rhs and (mul.nuw or mul.nsw):
        return ICmpInst(pred, x, Constant.get_null_value(ty))
    mc = apint(mul.rhs)
    if mc is None:
        return None
    st = _is_sign_test(pred, c, w)
    if st is not None and mul.nsw:
        p = st.swapped if mc >> (w - 1) else st
        return ICmpInst(p, x, Constant.get_null_value(ty))
    if mc == 0:
        return None
    smc = to_signed(mc, w)
    sc = to_signed(c, w)
    if cmp.is_equality:
        if mul.nsw and int(abs(sc) % abs(smc)) == 0:
            q = abs(sc) // abs(smc)
            if (sc < 0) != (smc < 0):
                q = -q
            return ICmpInst(pred, x, int_const(ty, q))
        if c % mc == 0:
            if mc & 1 or mul.nuw:
                return ICmpInst(pred, x, int_const(ty, c // mc))
    new_c: int | None = None
    if mul.nsw and pred.is_signed:
        if c == 1 << (w - 1) and mc == mask:
            return None
        if smc < 0:
            pred = pred.swapped
        if pred in (P.ICMP_SLT, P.ICMP_SGE):
            new_c = _rounding_div(sc, smc, True)
        else:
            new_c = _rounding_div(sc, smc, False)
    elif mul.nuw and pred.is_unsigned:
        if pred in (P.ICMP_ULT, P.ICMP_UGE):
            new_c = _rounding_div(c, mc, True)
        else:
            new_c = _rounding_div(c, mc, False)
    if new_c is None:
        return None
    return ICmpInst(pred, x, int_const(ty, new_c))


def fold_icmp_srem_constant(ic: InstCombiner, cmp: ICmpInst, srem: BinaryOperator, c: int) -> Instruction | None:
    """(X srem pow2) sgt/slt 0, ==/!= C -> a mask test of X."""
    pred = cmp.predicate
    if pred not in (P.ICMP_SGT, P.ICMP_SLT, P.ICMP_EQ, P.ICMP_NE):
        return None
    if not srem.has_one_use:
        return None
    d = apint(srem.rhs)
    if d is None or d == 0 or d & (d - 1):
        return None
    ty = srem.type
    w = scalar_width(ty)
    if pred in (P.ICMP_SGT, P.ICMP_SLT) and c != 0:
        return None
    if pred.is_equality and (c == 0 or c >> (w - 1)):
        return None
    sign = 1 << (w - 1)
    a = ic.builder.create_and(srem.lhs, int_const(ty, sign | (d - 1)))
    if pred.is_equality:
        return ICmpInst(pred, a, int_const(ty, c))
    if pred == P.ICMP_SGT:
        return ICmpInst(P.ICMP_SGT, a, Constant.get_null_value(ty))
    return ICmpInst(P.ICMP_UGT, a, int_const(ty, sign))


def fold_icmp_udiv_constant(ic: InstCombiner, cmp: ICmpInst, udiv: BinaryOperator, c: int) -> Instruction | None:
    """icmp (udiv C2, Y), C -> icmp Y, C2 / C-ish."""
    c2 = apint(udiv.lhs)
    if c2 is None or c2 == 0:
        return None
    pred = cmp.predicate
    ty = udiv.type
    w = scalar_width(ty)
    if pred == P.ICMP_UGT and c != (1 << w) - 1:
        return ICmpInst(P.ICMP_ULE, udiv.rhs, int_const(ty, c2 // (c + 1)))
    if pred == P.ICMP_ULT and c != 0:
        return ICmpInst(P.ICMP_UGT, udiv.rhs, int_const(ty, c2 // c))
    return None


def insert_range_test(ic: InstCombiner, v: Value, lo: int, hi: int, is_signed: bool, inside: bool) -> Value:
    """Lo <= V < Hi (or its negation) as one compare (LLVM ``insertRangeTest``); ``lo``/``hi``
    are unsigned bit patterns."""
    ty = v.type
    w = scalar_width(ty)
    pred = P.ICMP_ULT if inside else P.ICMP_UGE
    if (lo == 1 << (w - 1)) if is_signed else lo == 0:
        if is_signed:
            pred = pred.signed
        return ic.builder.create_icmp(pred, v, int_const(ty, hi))
    off = ic.builder.create_sub(v, int_const(ty, lo), v.name + ".off")
    return ic.builder.create_icmp(pred, off, int_const(ty, hi - lo))


def fold_icmp_div_constant(ic: InstCombiner, cmp: ICmpInst, div: BinaryOperator, c: int) -> Instruction | None:
    """icmp (udiv/sdiv X, C2), C -> a range test of X (LLVM ``foldICmpDivConstant``)."""
    pred = cmp.predicate
    x, y = div.lhs, div.rhs
    ty = div.type
    w = scalar_width(ty)
    mask = (1 << w) - 1
    sign = 1 << (w - 1)
    signed = div.opcode == "sdiv"
    if cmp.is_equality and div.has_one_use and c & sign and (not signed or c == sign):
        xb = ic.builder.create_icmp(pred, x, int_const(ty, c))
        yo = ic.builder.create_icmp(pred, y, int_const(ty, 1))
        return BinaryOperator.create("and" if pred == P.ICMP_EQ else "or", xb, yo)
    c2 = apint(y)
    if c2 is None:
        return None
    if not cmp.is_equality and signed != cmp.is_signed:
        return None
    if c2 == 0 or c2 == 1 or (signed and c2 == mask):
        return None

    def sx(v: int) -> int:
        return to_signed(v & mask, w)

    prod = (c * c2) & mask
    if signed:
        q = sx(prod)
        d = sx(c2)
        quo = abs(q) // abs(d)
        if (q < 0) != (d < 0):
            quo = -quo
        prod_ov = (quo & mask) != c
    else:
        prod_ov = (prod // c2) != c
    range_size = 1 if div.exact else c2
    lo_ov = hi_ov = 0
    lo = hi = 0

    def add_ov(a: int, b: int, is_signed: bool) -> tuple[int, bool]:
        r = (a + b) & mask
        if is_signed:
            return r, not (-(1 << (w - 1)) <= sx(a) + sx(b) < (1 << (w - 1)))
        return r, (a + b) > mask

    def sub_ov(a: int, b: int) -> tuple[int, bool]:
        r = (a - b) & mask
        return r, not (-(1 << (w - 1)) <= sx(a) - sx(b) < (1 << (w - 1)))

    if not signed:
        lo = prod
        hi_ov = lo_ov = int(prod_ov)
        if not hi_ov:
            hi, o = add_ov(lo, range_size, False)
            hi_ov = int(o)
    elif not c2 & sign:  # divisor > 0
        if c == 0:
            lo = (-(range_size - 1)) & mask
            hi = range_size
        elif not c & sign:
            lo = prod
            hi_ov = lo_ov = int(prod_ov)
            if not hi_ov:
                hi, o = add_ov(prod, range_size, True)
                hi_ov = int(o)
        else:
            hi = (prod + 1) & mask
            lo_ov = hi_ov = -1 if prod_ov else 0
            if not lo_ov:
                lo, o = add_ov(hi, (-range_size) & mask, True)
                lo_ov = -1 if o else 0
    else:  # divisor < 0
        if div.exact:
            range_size = (-range_size) & mask
        if c == 0:
            lo = (range_size + 1) & mask
            hi = (-range_size) & mask
            if hi == c2:
                hi_ov = 1
                hi = 0
        elif not c & sign:
            hi = (prod + 1) & mask
            hi_ov = lo_ov = -1 if prod_ov else 0
            if not lo_ov:
                lo, o = add_ov(hi, range_size, True)
                lo_ov = -1 if o else 0
        else:
            lo = prod
            lo_ov = hi_ov = int(prod_ov)
            if not hi_ov:
                hi, o = sub_ov(prod, range_size)
                hi_ov = int(o)
        pred = pred.swapped
    true = int_const(cmp.type, 1)
    false = int_const(cmp.type, 0)
    if pred == P.ICMP_EQ:
        if lo_ov and hi_ov:
            return ic.replace_inst_uses_with(cmp, false)
        if hi_ov:
            return ICmpInst(P.ICMP_SGE if signed else P.ICMP_UGE, x, int_const(ty, lo))
        if lo_ov:
            return ICmpInst(P.ICMP_SLT if signed else P.ICMP_ULT, x, int_const(ty, hi))
        return ic.replace_inst_uses_with(cmp, insert_range_test(ic, x, lo, hi, signed, True))
    if pred == P.ICMP_NE:
        if lo_ov and hi_ov:
            return ic.replace_inst_uses_with(cmp, true)
        if hi_ov:
            return ICmpInst(P.ICMP_SLT if signed else P.ICMP_ULT, x, int_const(ty, lo))
        if lo_ov:
            return ICmpInst(P.ICMP_SGE if signed else P.ICMP_UGE, x, int_const(ty, hi))
        return ic.replace_inst_uses_with(cmp, insert_range_test(ic, x, lo, hi, signed, False))
    if pred in (P.ICMP_ULT, P.ICMP_SLT):
        if lo_ov == 1:
            return ic.replace_inst_uses_with(cmp, true)
        if lo_ov == -1:
            return ic.replace_inst_uses_with(cmp, false)
        return ICmpInst(pred, x, int_const(ty, lo))
    if pred in (P.ICMP_UGT, P.ICMP_SGT):
        if hi_ov == 1:
            return ic.replace_inst_uses_with(cmp, false)
        if hi_ov == -1:
            return ic.replace_inst_uses_with(cmp, true)
        return ICmpInst(P.ICMP_UGE if pred == P.ICMP_UGT else P.ICMP_SGE, x, int_const(ty, hi))
    return None


# --- sub / add -------------------------------------------------------------------------------------------------


def fold_icmp_sub_constant(ic: InstCombiner, cmp: ICmpInst, sub: BinaryOperator, c: int) -> Instruction | None:
    """icmp (sub X, Y), C."""
    x, y = sub.lhs, sub.rhs
    pred = cmp.predicate
    ty = sub.type
    w = scalar_width(ty)
    mask = (1 << w) - 1
    if cmp.is_equality and pm.matches(x, _IMM):
        return ICmpInst(pred, y, ConstantExpr.get_sub(cast(Constant, x), int_const(ty, c)))
    c2 = apint(x)
    nsw = sub.nsw
    nuw = sub.nuw
    if c2 is not None and ((cmp.is_unsigned and nuw) or (cmp.is_signed and nsw)):
        if cmp.is_signed:
            r = to_signed(c2, w) - to_signed(c, w)
            ovf = not (-(1 << (w - 1)) <= r < (1 << (w - 1)))
        else:
            r = c2 - c
            ovf = r < 0
        if not ovf:
            return ICmpInst(cmp.swapped_predicate, y, int_const(ty, r))
    if cmp.is_equality and c == 0 and not any(isinstance(u, PHINode) for u in sub.users):
        return ICmpInst(pred, x, y)
    if not sub.has_one_use:
        return None
    if nsw:
        if pred == P.ICMP_SGT and c == mask:
            return ICmpInst(P.ICMP_SGE, x, y)
        if pred == P.ICMP_SGT and c == 0:
            return ICmpInst(P.ICMP_SGT, x, y)
        if pred == P.ICMP_SLT and c == 0:
            return ICmpInst(P.ICMP_SLT, x, y)
        if pred == P.ICMP_SLT and c == 1:
            return ICmpInst(P.ICMP_SLE, x, y)
    if c2 is None:
        return None
    if pred == P.ICMP_ULT and _is_pow2(c) and (c2 & (c - 1)) == c - 1:
        return ICmpInst(P.ICMP_EQ, ic.builder.create_or(y, int_const(ty, c - 1)), x)
    if pred == P.ICMP_UGT and _is_pow2((c + 1) & mask) and (c2 & c) == c:
        return ICmpInst(P.ICMP_NE, ic.builder.create_or(y, int_const(ty, c)), x)
    add = ic.builder.create_add(y, int_const(ty, ~c2), "notsub", nuw=nuw, nsw=nsw)
    return ICmpInst(cmp.swapped_predicate, add, int_const(ty, ~c))


def _create_logic_from_table(ic: InstCombiner, table: int, op0: Value, op1: Value, one_use: bool) -> Value | None:
    b = ic.builder
    if table == 0 or table == 15:
        ty = op0.type
        i1 = ty.context.i1
        if isinstance(ty, VectorType):
            return int_const(ty.context.vector_type(i1, ty.count, ty.scalable), int(table == 15))
        return ConstantInt.get(i1, int(table == 15))
    if table == 1:
        return b.create_not(b.create_or(op0, op1)) if one_use else None
    if table == 2:
        return b.create_and(b.create_not(op0), op1) if one_use else None
    if table == 3:
        return b.create_not(op0)
    if table == 4:
        return b.create_and(op0, b.create_not(op1)) if one_use else None
    if table == 5:
        return b.create_not(op1)
    if table == 6:
        return b.create_xor(op0, op1)
    if table == 7:
        return b.create_not(b.create_and(op0, op1)) if one_use else None
    if table == 8:
        return b.create_and(op0, op1)
    if table == 9:
        return b.create_not(b.create_xor(op0, op1)) if one_use else None
    if table == 10:
        return op1
    if table == 11:
        return b.create_or(b.create_not(op0), op1) if one_use else None
    if table == 12:
        return op0
    if table == 13:
        return b.create_or(op0, b.create_not(op1)) if one_use else None
    return b.create_or(op0, op1)


def _compare(pred: Predicate, a: int, b: int, w: int) -> bool:
    if pred.is_signed:
        a, b = to_signed(a, w), to_signed(b, w)
    if pred == P.ICMP_EQ:
        return a == b
    if pred == P.ICMP_NE:
        return a != b
    if pred in (P.ICMP_UGT, P.ICMP_SGT):
        return a > b
    if pred in (P.ICMP_UGE, P.ICMP_SGE):
        return a >= b
    if pred in (P.ICMP_ULT, P.ICMP_SLT):
        return a < b
    return a <= b


def fold_icmp_add_constant(ic: InstCombiner, cmp: ICmpInst, add: BinaryOperator, c: int) -> Instruction | None:
    """icmp (add X, Y), C."""
    x, y = add.lhs, add.rhs
    pred = cmp.predicate
    ty = add.type
    w = scalar_width(ty)
    mask = (1 << w) - 1
    if (
        isinstance(x, CastInst)
        and x.opcode in ("zext", "sext")
        and isinstance(y, CastInst)
        and y.opcode in ("zext", "sext")
        and _is_bool(x.operands[0].type)
        and _is_bool(y.operands[0].type)
    ):
        o0, o1 = x.operands[0], y.operands[0]

        def res(b0: bool, b1: bool) -> bool:
            v = 0
            if b0:
                v += 1 if x.opcode == "zext" else -1
            if b1:
                v += 1 if y.opcode == "zext" else -1
            return _compare(pred, v & mask, c, w)

        table = int(res(False, False)) | int(res(False, True)) << 1 | int(res(True, False)) << 2 | int(res(True, True)) << 3
        cond = _create_logic_from_table(ic, table, o0, o1, add.has_one_use)
        if cond is not None:
            return ic.replace_inst_uses_with(cmp, cond)
    c2 = apint(y)
    if cmp.is_equality or c2 is None:
        return None
    if (add.nsw and pred in (P.ICMP_SGT, P.ICMP_SLT)) or (add.nuw and pred in (P.ICMP_UGT, P.ICMP_ULT)):
        if cmp.is_signed:
            r = to_signed(c, w) - to_signed(c2, w)
            ovf = not (-(1 << (w - 1)) <= r < (1 << (w - 1)))
        else:
            r = c - c2
            ovf = r < 0
        if not ovf:
            return ICmpInst(pred, x, int_const(ty, r))
    cr = ConstantRange.make_exact_icmp_region(pred, c, w).subtract(c2)
    lower, upper = cr.lower, cr.upper
    sign = 1 << (w - 1)
    if cmp.is_signed:
        if lower == sign:
            return ICmpInst(P.ICMP_SLT, x, int_const(ty, upper))
        if upper == sign:
            return ICmpInst(P.ICMP_SGE, x, int_const(ty, lower))
    else:
        if lower == 0:
            return ICmpInst(P.ICMP_ULT, x, int_const(ty, upper))
        if upper == 0:
            return ICmpInst(P.ICMP_UGE, x, int_const(ty, lower))
    smax = sign - 1
    smin = sign
    if pred == P.ICMP_UGT and c == (c2 + smax) & mask:
        return ICmpInst(P.ICMP_SLT, x, int_const(ty, -c2))
    if pred == P.ICMP_ULT and c == (c2 + smin) & mask:
        return ICmpInst(P.ICMP_SGT, x, int_const(ty, ~c2))
    if pred == P.ICMP_SGT and c == (c2 - 1) & mask:
        return ICmpInst(P.ICMP_ULT, x, int_const(ty, smax - c))
    if pred == P.ICMP_SLT and c == c2:
        return ICmpInst(P.ICMP_UGT, x, int_const(ty, c ^ smax))
    if pred == P.ICMP_ULT and c2 == mask:
        if is_known_non_zero(x, ic.query(cmp)):
            return ICmpInst(P.ICMP_ULE, x, int_const(ty, c))
    if not add.has_one_use:
        return None
    if pred == P.ICMP_ULT and _is_pow2(c) and (c2 & (c - 1)) == 0:
        return ICmpInst(P.ICMP_EQ, ic.builder.create_and(x, int_const(ty, -c)), ConstantExpr.get_neg(cast(Constant, y)))
    if pred == P.ICMP_ULT and _is_pow2(c2) and c == -c2 & mask:
        return ICmpInst(P.ICMP_NE, ic.builder.create_and(x, int_const(ty, c)), int_const(ty, c * 2))
    if pred == P.ICMP_UGT and _is_pow2((c + 1) & mask) and (c2 & c) == 0:
        return ICmpInst(P.ICMP_NE, ic.builder.create_and(x, int_const(ty, ~c)), ConstantExpr.get_neg(cast(Constant, y)))
    if pred == P.ICMP_UGT:
        return ICmpInst(P.ICMP_ULT, ic.builder.create_add(x, int_const(ty, c2 - c - 1)), int_const(ty, ~c))
    return None


def _signum_of(v: Value) -> Value | None:
    """``m_Signum``: ``or (ashr X, bw-1), (lshr (0 - X), bw-1)``; returns X."""
    w = scalar_width(v.type)
    if not w or not (isinstance(v, (Instruction, ConstantExpr)) and v.opcode == "or"):
        return None
    l, r = v.operands[0], v.operands[1]
    if not (isinstance(l, (Instruction, ConstantExpr)) and l.opcode == "ashr" and _all_lanes(l.operands[1], w - 1)):
        return None
    if not (isinstance(r, (Instruction, ConstantExpr)) and r.opcode == "lshr" and _all_lanes(r.operands[1], w - 1)):
        return None
    neg = r.operands[0]
    if not (isinstance(neg, (Instruction, ConstantExpr)) and neg.opcode == "sub" and pm.matches(neg.operands[0], pm.m_zero_int())):
        return None
    x = l.operands[0]
    return x if neg.operands[1] is x else None


def _all_lanes(c: Value, want: int) -> bool:
    return pm.matches(c, pm.m_specific_int(want))


def _is_bool(ty: object) -> bool:
    from llvmpy_mid.ir.types import Type

    t = cast(Type, ty)
    return t.is_int_or_int_vector and scalar_width(t) == 1


# --- trunc ------------------------------------------------------------------------------------------------------


def fold_icmp_trunc_constant(ic: InstCombiner, cmp: ICmpInst, trunc: CastInst, c: int) -> Instruction | None:
    """icmp (trunc X), C."""
    pred = cmp.predicate
    x = trunc.operands[0]
    src_ty = x.type
    dst_bits = scalar_width(trunc.type)
    src_bits = scalar_width(src_ty)
    if common.should_change_type(ic, trunc.type, src_ty):
        if trunc.nsw:
            return ICmpInst(pred, x, int_const(src_ty, to_signed(c, dst_bits)))
        if not cmp.is_signed and trunc.nuw:
            return ICmpInst(pred, x, int_const(src_ty, c))
    if c == 1 and dst_bits > 1 and pred == P.ICMP_SLT:
        v = _signum_of(x)
        if v is not None:
            return ICmpInst(P.ICMP_SLT, v, int_const(v.type, 1))
    if cmp.is_equality and isinstance(x, (Instruction, ConstantExpr)) and x.opcode == "shl" and pm.matches(x.operands[0], _ONE):
        yv = x.operands[1]
        if c == 0:
            return ICmpInst(P.ICMP_UGE if pred == P.ICMP_EQ else P.ICMP_ULT, yv, int_const(src_ty, dst_bits))
        if _is_pow2(c):
            return ICmpInst(pred, yv, int_const(src_ty, c.bit_length() - 1))
    if cmp.is_equality and trunc.has_one_use:
        if not isinstance(src_ty, VectorType) and common.should_change_type_widths(ic, dst_bits, src_bits):
            a = ic.builder.create_and(x, int_const(src_ty, (1 << dst_bits) - 1))
            return ICmpInst(pred, a, int_const(src_ty, c))
        known = ic.compute_known_bits(x, 0, cmp)
        kz = known.zero | known.one
        hi = ((1 << src_bits) - 1) & ~((1 << dst_bits) - 1)
        if kz & hi == hi:
            return ICmpInst(pred, x, int_const(src_ty, c | (known.one & hi)))
    sb = is_sign_bit_check(pred, c, dst_bits)
    if sb is not None and isinstance(x, (Instruction, ConstantExpr)) and x.opcode in ("lshr", "ashr"):
        sa = apint(x.operands[1])
        if sa is not None and dst_bits == src_bits - sa:
            sh_op = x.operands[0]
            if sb[1]:
                return ICmpInst(P.ICMP_SLT, sh_op, Constant.get_null_value(src_ty))
            return ICmpInst(P.ICMP_SGT, sh_op, Constant.get_all_ones_value(src_ty))
    return None


# --- equality with a constant ------------------------------------------------------------------------------------


def fold_icmp_binop_equality_with_constant(ic: InstCombiner, cmp: ICmpInst, bo: BinaryOperator, c: int) -> Instruction | None:
    """icmp eq/ne (binop ...), C: srem to urem, add/xor constant moves, (X | C) == -1, exact divisions."""
    if not cmp.is_equality:
        return None
    pred = cmp.predicate
    is_ne = pred == P.ICMP_NE
    rhs = cast(Constant, cmp.rhs)
    b0, b1 = bo.lhs, bo.rhs
    op = bo.opcode
    w = scalar_width(bo.type)
    if op == "srem":
        if c == 0 and bo.has_one_use:
            boc = apint(b1)
            if boc is not None and to_signed(boc, w) > 1 and _is_pow2(boc):
                new_rem = ic.builder.create_bin_op("urem", b0, b1, bo.name)
                return ICmpInst(pred, new_rem, Constant.get_null_value(bo.type))
    elif op == "add":
        if isinstance(b1, Constant):
            if bo.has_one_use:
                return ICmpInst(pred, b0, ConstantExpr.get_sub(rhs, b1))
        elif c == 0:
            nv = common.dyn_cast_neg_val(b1)
            if nv is not None:
                return ICmpInst(pred, b0, nv)
            nv = common.dyn_cast_neg_val(b0)
            if nv is not None:
                return ICmpInst(pred, nv, b1)
            if bo.has_one_use:
                if bo.nuw:
                    or_ = ic.builder.create_or(b0, b1)
                    return ICmpInst(pred, or_, Constant.get_null_value(bo.type))
                neg = ic.builder.create_neg(b1)
                if isinstance(neg, Instruction):
                    from llvmpy_mid.transform.instcombine.combiner import take_name

                    take_name(neg, bo)
                return ICmpInst(pred, b0, neg)
    elif op == "xor":
        if isinstance(b1, Constant):
            return ICmpInst(pred, b0, ConstantExpr.get_xor(rhs, b1))
        if c == 0:
            return ICmpInst(pred, b0, b1)
    elif op == "or":
        if apint(b1) is not None and bo.has_one_use and rhs.is_all_ones_value:
            not_boc = ConstantExpr.get_not(cast(Constant, b1))
            a = ic.builder.create_and(b0, not_boc)
            return ICmpInst(pred, a, not_boc)
    elif op in ("udiv", "sdiv"):
        if bo.exact:
            if c == 0:
                return ICmpInst(pred, b0, Constant.get_null_value(bo.type))
            if c == 1:
                return ICmpInst(pred, b0, b1)
            if bo.has_one_use:
                if op == "sdiv":
                    ovf = ic.compute_overflow_for_signed_mul(b1, cmp.rhs, bo)
                else:
                    ovf = ic.compute_overflow_for_unsigned_mul(b1, cmp.rhs, bo)
                from llvmpy_mid.analysis.constant_range import OverflowResult

                if ovf == OverflowResult.NEVER_OVERFLOWS:
                    yc = ic.builder.create_mul(b1, int_const(bo.type, c))
                    return ICmpInst(pred, yc, b0)
        if op == "udiv" and c == 0:
            return ICmpInst(P.ICMP_ULE if is_ne else P.ICMP_UGT, b1, b0)
    return None


# --- intrinsics ---------------------------------------------------------------------------------------------------


def _fold_icmp_sat_with_constant(ic: InstCombiner, pred: Predicate, ii: CallInst, c: int) -> Instruction | None:
    """icmp (uadd.sat/usub.sat X, C1), C -> one range check of X."""
    if not ii.has_one_use:
        return None
    op0, op1 = ii.args[0], ii.args[1]
    c1 = apint(op1)
    if c1 is None:
        return None
    w = scalar_width(ii.type)
    mask = (1 << w) - 1
    is_add = ii.intrinsic_base == "llvm.uadd.sat"
    sat_val = mask if is_add else 0
    sat_check = _compare(pred, sat_val, c, w)
    cr1 = ConstantRange.make_guaranteed_no_wrap_region("add" if is_add else "sub", ConstantRange(w, c1, (c1 + 1) & mask), True)
    if sat_check:
        cr1 = cr1.inverse()
    cr2 = ConstantRange.make_exact_icmp_region(pred, c, w)
    cr2 = cr2.subtract(c1) if is_add else cr2.add(ConstantRange(w, c1, (c1 + 1) & mask))
    comb = cr1.exact_union_with(cr2) if sat_check else cr1.exact_intersect_with(cr2)
    if comb is None:
        return None
    epred, eint, eoff = comb.get_equivalent_icmp()
    add = ic.builder.create_add(op0, int_const(op1.type, eoff))
    return ICmpInst(epred, add, int_const(op1.type, eint))


def _fold_icmp_of_cmp_intrinsic_with_constant(pred: Predicate, ii: CallInst, c: int) -> Instruction | None:
    """icmp (scmp/ucmp X, Y), C -> icmp X, Y."""
    w = scalar_width(ii.type)
    mask = (1 << w) - 1
    np: Predicate | None = None
    if pred.is_equality:
        if c == 0:
            np = pred
        elif c == 1:
            np = P.ICMP_UGT if pred == P.ICMP_EQ else P.ICMP_ULE
        elif c == mask:
            np = P.ICMP_ULT if pred == P.ICMP_EQ else P.ICMP_UGE
    elif pred == P.ICMP_SGT:
        if c == mask:
            np = P.ICMP_UGE
        elif c == 0:
            np = P.ICMP_UGT
    elif pred == P.ICMP_SLT:
        if c == 0:
            np = P.ICMP_ULT
        elif c == 1:
            np = P.ICMP_ULE
    if np is None:
        return None
    if ii.intrinsic_base == "llvm.scmp":
        np = np.signed
    return ICmpInst(np, ii.args[0], ii.args[1])


def _fold_ctpop_pow2_test(ic: InstCombiner, cmp: ICmpInst, ii: CallInst, c: int) -> Instruction | None:
    """ctpop(X) == 1 with one bit of X known set -> (X & ~Bit) == 0."""
    if not ii.has_one_use:
        return None
    pred = cmp.predicate
    if ((cmp.is_equality or pred == P.ICMP_UGT) and c == 1) or (pred == P.ICMP_ULT and c == 2):
        op = ii.args[0]
        known = ic.compute_known_bits(op, 0, cmp)
        if known.count_min_population() == 1:
            w = scalar_width(op.type)
            a = ic.builder.create_and(op, int_const(op.type, ~known.one & ((1 << w) - 1)))
            np = P.ICMP_EQ if pred in (P.ICMP_EQ, P.ICMP_ULT) else P.ICMP_NE
            return ICmpInst(np, a, Constant.get_null_value(op.type))
    return None


def fold_icmp_intrinsic_with_constant(ic: InstCombiner, cmp: ICmpInst, ii: CallInst, c: int) -> Instruction | None:
    """icmp (intrinsic ...), C: saturating ops, ctpop power-of-two tests, scmp/ucmp, then the
    equality folds and the ctpop/ctlz/cttz/ssub.sat ranges."""
    pred = cmp.predicate
    base = ii.intrinsic_base
    if base in ("llvm.uadd.sat", "llvm.usub.sat"):
        r = _fold_icmp_sat_with_constant(ic, pred, ii, c)
        if r is not None:
            return r
    elif base == "llvm.ctpop":
        r = _fold_ctpop_pow2_test(ic, cmp, ii, c)
        if r is not None:
            return r
    elif base in ("llvm.scmp", "llvm.ucmp"):
        r = _fold_icmp_of_cmp_intrinsic_with_constant(pred, ii, c)
        if r is not None:
            return r
    if cmp.is_equality:
        return fold_icmp_eq_intrinsic_with_constant(ic, cmp, ii, c)
    ty = ii.type
    w = scalar_width(ty)
    mask = (1 << w) - 1
    args = ii.args
    if base == "llvm.ctpop":
        if c == w - 1 and pred == P.ICMP_UGT:
            return ICmpInst(P.ICMP_EQ, args[0], Constant.get_all_ones_value(ty))
        if c == w and pred == P.ICMP_ULT:
            return ICmpInst(P.ICMP_NE, args[0], Constant.get_all_ones_value(ty))
    elif base == "llvm.ctlz":
        if pred == P.ICMP_UGT and c < w:
            return ICmpInst(P.ICMP_ULT, args[0], int_const(ty, 1 << (w - c - 1)))
        if pred == P.ICMP_ULT and 1 <= c <= w:
            return ICmpInst(P.ICMP_UGT, args[0], int_const(ty, (1 << (w - c)) - 1))
    elif base == "llvm.cttz":
        if not ii.has_one_use:
            return None
        if pred == P.ICMP_UGT and c < w:
            a = ic.builder.create_and(args[0], int_const(ty, (1 << (c + 1)) - 1))
            return ICmpInst(P.ICMP_EQ, a, Constant.get_null_value(ty))
        if pred == P.ICMP_ULT and 1 <= c <= w:
            a = ic.builder.create_and(args[0], int_const(ty, (1 << c) - 1))
            return ICmpInst(P.ICMP_NE, a, Constant.get_null_value(ty))
    elif base == "llvm.ssub.sat":
        if pred.is_signed:
            if c == 0:
                return ICmpInst(pred, args[0], args[1])
            if pred == P.ICMP_SLT and c == 1:
                return ICmpInst(P.ICMP_SLE, args[0], args[1])
            if pred == P.ICMP_SGT and c == mask:
                return ICmpInst(P.ICMP_SGE, args[0], args[1])
    return None


def fold_icmp_eq_intrinsic_with_constant(ic: InstCombiner, cmp: ICmpInst, ii: CallInst, c: int) -> Instruction | None:
    """icmp eq/ne (intrinsic ...), C: abs, bswap, bitreverse, ctlz/cttz, ctpop, rotates, umax/uadd.sat, sub.sat."""
    ty = ii.type
    w = scalar_width(ty)
    base = ii.intrinsic_base
    args = ii.args
    pred = cmp.predicate
    mask = (1 << w) - 1
    if base == "llvm.abs":
        if c == 0 or c == 1 << (w - 1):
            return ICmpInst(pred, args[0], int_const(ty, c))
    elif base == "llvm.bswap":
        return ICmpInst(pred, args[0], int_const(ty, _bswap(c, w)))
    elif base == "llvm.bitreverse":
        return ICmpInst(pred, args[0], int_const(ty, int(format(c, "0%db" % w)[::-1], 2)))
    elif base == "llvm.ctlz" or base == "llvm.cttz":
        if c == w:
            return ICmpInst(pred, args[0], Constant.get_null_value(ty))
        num = min(c, w)
        if num != w and ii.has_one_use:
            if base == "llvm.cttz":
                m1 = (1 << (num + 1)) - 1
                m2 = 1 << num
            else:
                m1 = mask & ~((1 << (w - num - 1)) - 1)
                m2 = 1 << (w - num - 1)
            return ICmpInst(pred, ic.builder.create_and(args[0], int_const(ty, m1)), int_const(ty, m2))
    elif base == "llvm.ctpop":
        if c == 0 or c == w:
            return ICmpInst(pred, args[0], Constant.get_null_value(ty) if c == 0 else Constant.get_all_ones_value(ty))
    elif base == "llvm.fshl" or base == "llvm.fshr":
        if args[0] is args[1]:
            amt = apint(args[2])
            if amt is not None:
                r = amt % w
                if base == "llvm.fshl":
                    v = ((c >> r) | (c << (w - r))) & mask
                else:
                    v = ((c << r) | (c >> (w - r))) & mask
                return ICmpInst(pred, args[0], int_const(ty, v))
    elif base == "llvm.umax" or base == "llvm.uadd.sat":
        if c == 0 and ii.has_one_use:
            or_ = ic.builder.create_or(args[0], args[1])
            return ICmpInst(pred, or_, Constant.get_null_value(ty))
    elif base == "llvm.ssub.sat":
        if c == 0:
            return ICmpInst(pred, args[0], args[1])
    elif base == "llvm.usub.sat":
        if c == 0:
            return ICmpInst(P.ICMP_ULE if pred == P.ICMP_EQ else P.ICMP_UGT, args[0], args[1])
    return None


def _bswap(v: int, w: int) -> int:
    return int.from_bytes(v.to_bytes(w // 8, "little"), "big")


_ONE = pm.m_one()
_ALL_ONES = pm.m_all_ones()
_IMM = pm.m_imm_constant()
_ADD_X_M1 = pm.m_add(pm.m_value("x"), pm.m_all_ones())
_AND_NEG_X_X = pm.m_c_and(pm.m_neg(pm.m_value("x")), pm.m_deferred("x"))
_OR_ADDM1_X = pm.m_c_or(pm.m_add(pm.m_value("x"), pm.m_all_ones()), pm.m_deferred("x"))
_SELECT_TC_FC = pm.m_select(pm.m_value("a"), pm.m_bind("tcv", pm.m_apint("tc")), pm.m_apint("fc"))


__all__ = [
    "fold_icmp_inst_with_constant",
    "fold_icmp_inst_with_constant_not_int",
    "fold_icmp_binop_with_constant",
]
