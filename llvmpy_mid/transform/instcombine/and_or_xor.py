"""InstCombine's ``and``, ``or`` and ``xor`` visitors (LLVM
``lib/Transforms/InstCombine/InstCombineAndOrXor.cpp``: ``visitAnd``,
``visitOr``, ``visitXor`` and their static helpers).

Each visitor makes LLVM's attempts in LLVM's order: InstructionSimplify, the
shared binop helpers (``common.py``), demanded bits, then the family's folds.
The compare-pair folds (``foldAndOrOfICmps``, ``foldXorOfICmps``,
``foldLogicOfFCmps``) live in :mod:`.and_or_xor_icmps`; ``foldNot`` and the
xor-only folds in :mod:`.and_or_xor_not`; ``visitOr`` in :mod:`.and_or_xor_or`.

Everything of visitAnd/visitOr/visitXor is attempted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from llvmpy_mid.analysis.instruction_simplify import simplify_and_inst, simplify_binop, simplify_or_inst
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, get_splat_value
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.casts import CastInst, ZExtInst
from llvmpy_mid.ir.instructions.cmp import FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.pattern_match import (
    m_add,
    m_all_ones,
    m_and,
    m_apint,
    m_apint_allow_poison,
    m_ashr,
    m_c_add,
    m_c_and,
    m_c_or,
    m_c_xor,
    m_combine_or,
    m_constant,
    m_constant_int,
    m_cst_pred,
    m_imm_constant,
    m_lshr,
    m_mul,
    m_neg,
    m_not,
    m_nsw_sub,
    m_one,
    m_one_use,
    m_or,
    m_power2,
    m_select,
    m_sext,
    m_sext_or_self,
    m_shl,
    m_sign_mask,
    m_sub,
    m_value,
    m_xor,
    m_zext,
    m_zext_or_self,
    match,
)
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.instcombine import common as cm
from llvmpy_mid.transform.instcombine.and_or_xor_icmps import (
    fold_and_or_of_icmps,
    fold_logic_of_fcmps,
    fold_logic_of_is_fpclass,
    reassociate_fcmps,
)
from llvmpy_mid.transform.instcombine.and_or_xor_not import visit_xor
from llvmpy_mid.transform.instcombine.and_or_xor_util import (
    binop,
    cint,
    element_wise_bitcast_source,
    has_pair,
    intrinsic_call,
    is_known_inversion,
    is_bool,
    is_ieee_fp_scalar,
    is_not_of,
    not_of,
    one_use,
    other,
    width,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def _flipped(opcode: str) -> str:
    return "or" if opcode == "and" else "and"


# --- shared by and/or -------------------------------------------------------------------------


def fold_and_to_xor(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """(A | B) & ~(A & B) -> A ^ B;  (A | ~B) & (~A | B) -> ~(A ^ B)"""
    op0, op1 = i.lhs, i.rhs
    ab = binop(op0, "or")
    if ab is not None:
        n = not_of(op1)
        if n is not None and has_pair(n, "and", ab[0], ab[1]):
            return BinaryOperator.create("xor", ab[0], ab[1])
    if one_use(op0) or one_use(op1):
        r = _match_or_not_pair(op0, op1)
        if r is not None:
            return _create_not(ic.builder.create_xor(r[0], r[1]))
    return None


def _match_or_not_pair(op0: Value, op1: Value) -> tuple[Value, Value] | None:
    """``m_c_Or(m_Value(A), m_Not(m_Value(B)))`` on op0 and ``m_c_Or(m_Not(A), B)`` on op1."""
    ab = binop(op0, "or")
    if ab is None:
        return None
    for a, nb in ((ab[0], ab[1]), (ab[1], ab[0])):
        b = not_of(nb)
        if b is None:
            continue
        cd = binop(op1, "or")
        if cd is None:
            return None
        if (is_not_of(cd[0], a) and cd[1] is b) or (is_not_of(cd[1], a) and cd[0] is b):
            return a, b
    return None


def _create_not(v: Value) -> BinaryOperator:
    """``BinaryOperator::CreateNot``."""
    return BinaryOperator.create("xor", v, Constant.get_all_ones_value(v.type))


def _not_of_binop(v: Value, opcode: str) -> tuple[Value, Value, Value] | None:
    """``m_CombineAnd(m_Value(X), m_Not(m_BinOp(opcode, A, B)))``: (X, A, B)."""
    n = not_of(v)
    if n is None:
        return None
    ab = binop(n, opcode)
    if ab is None:
        return None
    return v, ab[0], ab[1]


def _match_not_or_and(
    op: Value, opcode: str, flipped: str, want: tuple[Value, Value, Value] | None, count_uses: bool
) -> tuple[Value, Value, Value, Value] | None:
    """``m_c_BinOp(Flipped, m_CombineAnd(X, m_Not(m_c_BinOp(Opcode, A, B))), C)``:
    (X, A, B, C); with ``want`` the three must be exactly (A, B, C) (A/B commuted)."""
    if count_uses and not one_use(op):
        return None
    xc = binop(op, flipped)
    if xc is None:
        return None
    for xv, c in ((xc[0], xc[1]), (xc[1], xc[0])):
        r = _not_of_binop(xv, opcode)
        if r is None:
            continue
        _, a, b = r
        if want is None:
            return (xv, a, b, c) if (not count_uses or one_use(xv)) else None
        wa, wb, wc = want
        if c is wc and ((a is wa and b is wb) or (a is wb and b is wa)):
            return (xv, a, b, c) if (not count_uses or one_use(xv)) else None
    return None


def fold_complex_and_or_patterns(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """(~(A | B) & C) | (~(A | C) & B) -> (B ^ C) & ~A, and the related and/or forms"""
    opcode = i.opcode
    flipped = _flipped(opcode)
    op0, op1 = i.lhs, i.rhs
    b_ = ic.builder
    r = _match_not_or_and(op0, opcode, flipped, None, False)
    if r is not None:
        x, a, b, c = r
        if _match_not_or_and(op1, opcode, flipped, (a, c, b), True) is not None:
            xor = b_.create_xor(b, c)
            if opcode == "or":
                return BinaryOperator.create("and", xor, b_.create_not(a))
            return _create_not(b_.create_and(xor, a))
        if _match_not_or_and(op1, opcode, flipped, (b, c, a), True) is not None:
            xor = b_.create_xor(a, c)
            if opcode == "or":
                return BinaryOperator.create("and", xor, b_.create_not(b))
            return _create_not(b_.create_and(xor, b))
        n = not_of(op1) if one_use(op1) else None
        if n is not None and one_use(n) and has_pair(n, opcode, a, c):
            return _create_not(b_.create_bin_op(opcode, b_.create_bin_op(flipped, b, c), a))
        if n is not None and one_use(n) and has_pair(n, opcode, b, c):
            return _create_not(b_.create_bin_op(opcode, b_.create_bin_op(flipped, a, c), b))
        if opcode == "or" and one_use(op0) and one_use(op1):
            y = not_of(op1)
            if y is not None:
                cy = other(y, opcode, c)
                if cy is not None and has_pair(cy, "xor", a, b):
                    or_ = x.get_operand(0)  # type: ignore[attr-defined]
                    return _create_not(b_.create_and(or_, y))
    # (~A & B & C) | ... and (~A | B | C) & ...
    abc = _match_not_a_b_c(op0, flipped)
    if abc is not None:
        x, a, b, c = abc
        n = not_of(op1) if one_use(op1) else None
        if n is not None:
            hit = False
            for p, q, s in ((a, b, c), (b, c, a), (a, c, b)):
                inner = other(n, opcode, s)
                if inner is not None and has_pair(inner, opcode, p, q):
                    hit = True
                    break
                # m_c_BinOp(Opcode, m_c_BinOp(Opcode, p, q), s): also the inner on either side
            if hit:
                xor = b_.create_xor(b, c)
                if opcode == "or":
                    return _create_not(b_.create_or(xor, a))
                return BinaryOperator.create("or", xor, x)
            if one_use(n) and has_pair(n, opcode, a, b):
                return BinaryOperator.create(flipped, b_.create_bin_op(opcode, c, b_.create_not(b)), x)
            if one_use(n) and has_pair(n, opcode, a, c):
                return BinaryOperator.create(flipped, b_.create_bin_op(opcode, b, b_.create_not(c)), x)
    return None


def _match_not_a_b_c(op0: Value, flipped: str) -> tuple[Value, Value, Value, Value] | None:
    """``(B f C) f ~A`` or ``(C f ~A) f B`` with ``f`` the flipped opcode: (X=~A, A, B, C)."""
    if not one_use(op0):
        return None
    pq = binop(op0, flipped)
    if pq is None:
        return None
    # m_c_BinOp(Flipped, m_BinOp(Flipped, B, C), m_CombineAnd(X, m_Not(A)))
    for inner, xv in ((pq[0], pq[1]), (pq[1], pq[0])):
        bc = binop(inner, flipped)
        a = not_of(xv)
        if bc is not None and a is not None:
            return xv, a, bc[0], bc[1]
    # m_c_BinOp(Flipped, m_c_BinOp(Flipped, C, m_CombineAnd(X, m_Not(A))), B)
    for inner, b in ((pq[0], pq[1]), (pq[1], pq[0])):
        cx = binop(inner, flipped)
        if cx is None:
            continue
        for c, xv in ((cx[0], cx[1]), (cx[1], cx[0])):
            a = not_of(xv)
            if a is not None:
                return xv, a, b, c
    return None


def match_de_morgans_laws(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """~A & ~B -> ~(A | B), ~A | ~B -> ~(A & B); (A & ~B) & ~C -> A & ~(B | C)"""
    opcode = i.opcode
    flipped = _flipped(opcode)
    op0, op1 = i.lhs, i.rhs
    if one_use(op0) and one_use(op1):
        a = not_of(op0)
        b = not_of(op1)
        if (
            a is not None
            and b is not None
            and not cm.is_free_to_invert(ic, a, one_use(a))
            and not cm.is_free_to_invert(ic, b, one_use(b))
        ):
            and_or = ic.builder.create_bin_op(flipped, a, b, i.name + ".demorgan")
            return _create_not(and_or)
    if one_use(op0):
        ab = binop(op0, opcode)
        c = not_of(op1)
        if ab is not None and c is not None:
            for a, nb in ((ab[0], ab[1]), (ab[1], ab[0])):
                b = not_of(nb)
                if b is not None:
                    flipped_bo = ic.builder.create_bin_op(flipped, b, c)
                    return BinaryOperator.create(opcode, a, ic.builder.create_not(flipped_bo))
    return None


P_ADD_C = m_one_use(m_add(m_value("x"), m_apint("c2")))


def canonicalize_logic_first(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """(X + C2) op C -> (X op C) + C2 when the logic only touches bits below the add's lowest set bit"""
    m = match(i.lhs, P_ADD_C)
    if m is None or isinstance(i.lhs, ConstantExpr):
        # opt-19 leaves ``and (add constexpr, C2), C`` alone (and-xor-or.ll)
        return None
    mc = match(i.rhs, P_APINT_C)
    if mc is None:
        return None
    c = mc.apint("c")
    c2 = m.apint("c2")
    ty = i.type
    w = width(ty)
    last_one_math = w - _countr_zero(c2, w)
    if i.opcode == "and":
        if _countl_one(c, w) < last_one_math:
            return None
    elif _countl_zero(c, w) < last_one_math:
        return None
    new = ic.builder.create_bin_op(i.opcode, m.value("x"), cint(ty, c))
    add = i.lhs
    return BinaryOperator.create(
        "add", new, cint(ty, c2), nuw=bool(getattr(add, "nuw", False)), nsw=bool(getattr(add, "nsw", False))
    )


def _countr_zero(v: int, w: int) -> int:
    if v == 0:
        return w
    return (v & -v).bit_length() - 1


def _countl_zero(v: int, w: int) -> int:
    return w - v.bit_length()


def _countl_one(v: int, w: int) -> int:
    return _countl_zero(~v & ((1 << w) - 1), w)


def reassociate_for_uses(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """(X op Y) op Z -> (Y op Z) op X when X has other uses (or (X op Z) op Y when Y has)"""
    opcode = i.opcode
    for xy, z in ((i.lhs, i.rhs), (i.rhs, i.lhs)):
        if not one_use(xy) or not one_use(z):
            continue
        ops = binop(xy, opcode)
        if ops is None:
            continue
        x, y = ops
        if x.is_constant or y.is_constant or z.is_constant:
            return None
        if not one_use(x):
            return BinaryOperator.create(opcode, ic.builder.create_bin_op(opcode, y, z), x)
        if not one_use(y):
            return BinaryOperator.create(opcode, ic.builder.create_bin_op(opcode, x, z), y)
        return None
    return None


def simplify_and_or_with_op_replaced(
    ic: InstCombiner, v: Value, op: Value, rep: Value, simplify_only: bool, depth: int = 0
) -> Value | None:
    """X with Op replaced by RepOp inside its bitwise logic (RepOp -1 under an and, 0 under an or)"""
    if op is rep:
        return None
    if v is op:
        return rep
    opcode = getattr(v, "opcode", None)
    if opcode not in ("and", "or", "xor") or not isinstance(v, BinaryOperator) or depth >= 3:
        return None
    if not one_use(v):
        simplify_only = True
    new0 = simplify_and_or_with_op_replaced(ic, v.lhs, op, rep, simplify_only, depth + 1)
    new1 = simplify_and_or_with_op_replaced(ic, v.rhs, op, rep, simplify_only, depth + 1)
    if new0 is None and new1 is None:
        return None
    if new0 is None:
        new0 = v.lhs
    if new1 is None:
        new1 = v.rhs
    res = simplify_binop(v.opcode, new0, new1, ic.query(v))
    if res is not None:
        return res
    if simplify_only:
        return None
    return ic.builder.create_bin_op(v.opcode, new0, new1)


P_SRL_ZEXT_ICMP = m_one_use(m_zext(m_value("c")))


def fold_casted_bitwise_logic(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """logic(cast A, cast B) -> cast(logic(A, B)); logic(zext/sext X, C) -> ext(logic(X, C'))"""
    opcode = i.opcode
    op0, op1 = i.lhs, i.rhs
    for a0, a1 in ((op0, op1), (op1, op0)):
        sh = binop(a0, "lshr")
        if sh is None or not one_use(a0):
            continue
        if not _is_specific_int(sh[1], width(a0.type) - 1):
            continue
        if one_use(a1) and getattr(a1, "opcode", None) == "zext" and isinstance(a1, CastInst):
            cmp = a1.get_operand(0)
            if isinstance(cmp, ICmpInst):
                a = sh[0]
                icmp_l = ic.builder.create_icmp(Predicate.ICMP_SLT, a, Constant.get_null_value(a.type))
                bitwise = ic.builder.create_bin_op(opcode, icmp_l, cmp)
                return ZExtInst(bitwise, a0.type)
    if not isinstance(op0, CastInst):
        return None
    cast0 = op0
    dest_ty = i.type
    src_ty = cast0.get_operand(0).type
    if not src_ty.scalar_type.is_integer:
        return None
    r = _fold_logic_cast_constant(ic, i, cast0)
    if r is not None:
        return r
    if not isinstance(op1, CastInst):
        return None
    cast1 = op1
    cast_opc = cast0.opcode
    if cast_opc != cast1.opcode:
        return None
    if src_ty is not cast1.get_operand(0).type:
        if cast_opc in ("zext", "sext") and one_use(cast0) and one_use(cast1):
            x = cast0.get_operand(0)
            y = cast1.get_operand(0)
            if width(x.type) < width(y.type):
                x = ic.builder.create_cast(cast_opc, x, y.type)
            else:
                y = ic.builder.create_cast(cast_opc, y, x.type)
            narrow = ic.builder.create_bin_op(opcode, x, y)
            return CastInst.create(cast_opc, narrow, dest_ty)
        return None
    if (one_use(cast0) or one_use(cast1)) and _should_optimize_cast(ic, cast0) and _should_optimize_cast(ic, cast1):
        new = ic.builder.create_bin_op(opcode, cast0.get_operand(0), cast1.get_operand(0), i.name)
        return CastInst.create(cast_opc, new, dest_ty)
    return None


def _should_optimize_cast(ic: InstCombiner, ci: CastInst) -> bool:
    src = ci.get_operand(0)
    if src.type is ci.type or src.is_constant:
        return False
    if isinstance(src, CastInst):
        if _is_eliminable_cast_pair(ic, src, ci):
            return False
    return True


def _is_eliminable_cast_pair(ic: InstCombiner, ci1: CastInst, ci2: CastInst) -> bool:
    """``InstCombinerImpl::isEliminableCastPair`` as a yes/no (the one copy is in casts.py)."""
    from llvmpy_mid.transform.instcombine.casts import is_eliminable_cast_pair

    return is_eliminable_cast_pair(ic, ci1, ci2) is not None


def _fold_logic_cast_constant(ic: InstCombiner, logic: BinaryOperator, cast0: CastInst) -> Instruction | None:
    """logic (zext X), C -> zext (logic X, trunc C) when C survives the truncation (likewise sext)"""
    c = logic.rhs
    if not isinstance(c, Constant):
        return None
    src_ty = cast0.get_operand(0).type
    dest_ty = logic.type
    if cast0.opcode == "zext" and one_use(cast0):
        tc = cm.get_lossless_unsigned_trunc(c, src_ty)
        if tc is not None:
            return ZExtInst(ic.builder.create_bin_op(logic.opcode, cast0.get_operand(0), tc), dest_ty)
    if (cast0.opcode == "sext" or (cast0.opcode == "zext" and cast0.nneg)) and one_use(cast0):
        tc = cm.get_lossless_signed_trunc(c, src_ty)
        if tc is not None:
            return CastInst.create("sext", ic.builder.create_bin_op(logic.opcode, cast0.get_operand(0), tc), dest_ty)
    return None


def _is_specific_int(v: Value, want: int) -> bool:
    m = match(v, P_APINT_C)
    return m is not None and m.apint("c") == want & ((1 << width(v.type)) - 1)


P_APINT_C = m_apint("c")


def fold_bitwise_logic_with_intrinsics(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """logic(bswap A, bswap B) -> bswap(logic(A, B)); logic(bswap A, C) -> bswap(logic(A, bswap C)); fshl/fshr too"""
    from llvmpy_mid.ir.instructions.calls import CallInst

    x = i.lhs
    if not one_use(x) or not isinstance(x, CallInst):
        return None
    iid = x.intrinsic_base
    if not iid:
        return None
    y = i.rhs
    yc: CallInst | None = y if isinstance(y, CallInst) and y.intrinsic_base else None
    if yc is not None and (not one_use(yc) or yc.intrinsic_base != iid):
        return None
    rhsc: int | None = None
    if yc is None:
        if iid not in ("llvm.bswap", "llvm.bitreverse"):
            return None
        m = match(y, P_APINT_C)
        if m is None:
            return None
        rhsc = m.apint("c")
    ty = i.type
    if iid in ("llvm.fshl", "llvm.fshr"):
        assert yc is not None
        if x.get_operand(2) is not yc.get_operand(2):
            return None
        n0 = ic.builder.create_bin_op(i.opcode, x.get_operand(0), yc.get_operand(0))
        n1 = ic.builder.create_bin_op(i.opcode, x.get_operand(1), yc.get_operand(1))
        return intrinsic_call(ic, iid[5:], ty, [n0, n1, x.get_operand(2)])
    if iid in ("llvm.bswap", "llvm.bitreverse"):
        if yc is not None:
            rhs: Value = yc.get_operand(0)
        else:
            assert rhsc is not None
            w = width(ty)
            rhs = cint(ty, _byte_swap(rhsc, w) if iid == "llvm.bswap" else _reverse_bits(rhsc, w))
        n0 = ic.builder.create_bin_op(i.opcode, x.get_operand(0), rhs)
        return intrinsic_call(ic, iid[5:], ty, [n0])
    return None


def _byte_swap(v: int, w: int) -> int:
    return int.from_bytes(v.to_bytes(w // 8, "little"), "big")


def _reverse_bits(v: int, w: int) -> int:
    return int(format(v, "0%db" % w)[::-1], 2)


P_SEXT_BOOL = m_sext(m_value("a"))


def fold_binop_of_sext_bool_to_select(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """``foldBinopOfSextBoolToSelect`` (InstructionCombining.cpp, via common.py)."""
    return cm.fold_binop_of_sext_bool_to_select(ic, i)


# --- visitAnd ---------------------------------------------------------------------------------

P_LSHIFT_ONE = m_one_use(m_combine_or(m_lshr(m_one(), m_value("x")), m_shl(m_one(), m_value("x"))))
P_SHL_C = m_one_use(m_shl(m_apint("c"), m_value("x")))
P_NEG_AND_ONE = m_one_use(m_neg(m_and(m_value(), m_one())))
P_XOR_C = m_one_use(m_xor(m_value("x"), m_apint("xc")))
P_OR_C = m_one_use(m_or(m_value("x"), m_apint("oc")))
P_SEXT_ASHR = m_one_use(m_sext(m_ashr(m_value("x"), m_apint("s"))))
P_ASHR_C = m_ashr(m_value("x"), m_apint("s"))
P_ADD_APINT = m_add(m_value("x"), m_apint("a"))
P_SHIFT_POW2 = m_one_use(m_combine_or(m_shl(m_power2("sc"), m_value("x")), m_lshr(m_power2("sc"), m_value("x"))))
P_LSHR_SHL_IMM = m_one_use(m_lshr(m_shl(m_imm_constant("c1"), m_value("x")), m_imm_constant("c2")))
P_SHL_LSHR_IMM = m_one_use(m_shl(m_lshr(m_imm_constant("c1"), m_value("x")), m_imm_constant("c2")))
P_SHL_ZEXT = m_one_use(m_shl(m_zext(m_value("x")), m_value("y")))
P_ADD_ZEXT_ALLONES = m_one_use(m_add(m_zext_or_self(m_value("a")), m_all_ones()))
P_SEXT_ASHR_ANY = m_one_use(m_sext_or_self(m_ashr(m_value("x"), m_apint_allow_poison("c"))))
P_SEXT_NOT_ASHR = m_one_use(m_sext_or_self(m_not(m_ashr(m_value("x"), m_apint_allow_poison("c")))))
P_OR_XY = m_one_use(m_or(m_value("x"), m_value("y")))
P_XOR_XY = m_one_use(m_xor(m_value("x"), m_value("y")))
P_ZEXT_X = m_one_use(m_zext(m_value("x")))


def _fold_and_with_constant(ic: InstCombiner, i: BinaryOperator, c: int) -> Instruction | None:
    """The ``and X, C`` folds of visitAnd (xor/or/ashr/add/narrowing/shift-of-power-of-2)."""
    ty = i.type
    op0, op1 = i.lhs, i.rhs
    b = ic.builder
    w = width(ty)
    mask = (1 << w) - 1
    m = match(op0, P_XOR_C)
    if m is not None:
        # (X ^ C1) & C2 --> (X & C2) ^ (C1&C2)
        new_c = cint(ty, c & m.apint("xc"))
        and_ = b.create_and(m.value("x"), op1)
        _take_name(and_, op0)
        return BinaryOperator.create("xor", and_, new_c)
    m = match(op0, P_OR_C)
    if m is not None:
        # (X | C1) & C2 --> (X & C2^(C1&C2)) | (C1&C2)
        together = c & m.apint("oc")
        and_ = b.create_and(m.value("x"), cint(ty, together ^ c))
        _take_name(and_, op0)
        return BinaryOperator.create("or", and_, cint(ty, together))
    m = match(op0, P_SEXT_ASHR)
    if m is not None:
        x = m.value("x")
        s = m.apint("s")
        if s < w and c == (1 << (w - s)) - 1:
            sext = b.create_sext(x, ty)
            return BinaryOperator.create("lshr", sext, cint(ty, s))
    m = match(op0, P_ASHR_C)
    if m is not None:
        s = m.apint("s")
        if s < w and c == (1 << (w - s)) - 1:
            return BinaryOperator.create("lshr", m.value("x"), cint(ty, s))
    m = match(op0, P_ADD_APINT)
    if m is not None:
        add_c = m.apint("a")
        if one_use(op0) and _is_pow2(c) and add_c & (c - 1) == 0:
            new_and = b.create_and(m.value("x"), op1)
            return BinaryOperator.create("xor", new_and, op1)
    # ((C1 OP zext(X)) & C2) -> zext((C1 OP X) & C2) and the other narrowing forms
    if one_use(op0) and getattr(op0, "opcode", None) in ("xor", "or", "mul", "add", "sub") and isinstance(op0, BinaryOperator):
        bo = op0
        bopc = bo.opcode
        r = _narrow_and_of_binop(ic, bo, bopc, c, ty)
        if r is not None:
            return r
    m = match(op0, P_XOR_XY) or match(op0, P_OR_XY)
    if m is not None:
        x = m.value("x")
        y = m.value("y")
        not_mask = ~c & mask
        bop = cast(BinaryOperator, op0).opcode
        if ic.masked_value_is_zero(x, not_mask, 0, i):
            new_rhs = b.create_and(y, op1, y.name + ".masked")
            return BinaryOperator.create(bop, x, new_rhs)
        if not y.is_constant and ic.masked_value_is_zero(y, not_mask, 0, i):
            new_lhs = b.create_and(x, op1, x.name + ".masked")
            return BinaryOperator.create(bop, new_lhs, y)
    if _is_pow2(c):
        m = match(op0, P_SHIFT_POW2)
        if m is not None and _apint_of(m.value("sc")) > 0:
            sc_v = _apint_of(m.value("sc"))
            log2_shift_c = sc_v.bit_length() - 1
            log2_c = c.bit_length() - 1
            is_shl = getattr(op0, "opcode", None) == "shl"
            bit_num = log2_c - log2_shift_c if is_shl else log2_shift_c - log2_c
            cmp = b.create_icmp(Predicate.ICMP_EQ, m.value("x"), cint(ty, bit_num))
            return SelectInst(cmp, cint(ty, c), Constant.get_null_value(ty))
        log2_c3 = cint(ty, c.bit_length() - 1)
        m = match(op0, P_LSHR_SHL_IMM)
        if m is not None and match(m.constant("c1"), P_POW2_C) is not None:
            c1 = m.constant("c1")
            log2_c1 = _exact_log_base2(c1)
            lshr_c = ConstantExpr.get_add(m.constant("c2"), log2_c3)
            if log2_c1 is not None and ic.compute_known_bits(lshr_c, 0, None).get_max_value() < w:
                # ((C1 << X) >> C2) & C3 -> X == (cttz(C3) + C2 - cttz(C1)) ? C3 : 0
                cmp_c = ConstantExpr.get_sub(lshr_c, log2_c1)
                cmp = b.create_icmp(Predicate.ICMP_EQ, m.value("x"), cmp_c)
                return SelectInst(cmp, cint(ty, c), Constant.get_null_value(ty))
        m = match(op0, P_SHL_LSHR_IMM)
        if m is not None and match(m.constant("c1"), P_POW2_C) is not None:
            from llvmpy_mid.analysis.constant_folding import constant_fold_compare_inst_operands

            c1 = m.constant("c1")
            c2 = m.constant("c2")
            log2_c1 = _exact_log_base2(c1)
            folded = constant_fold_compare_inst_operands(Predicate.ICMP_ULT, log2_c3, c2, ic.dl)
            if log2_c1 is not None and folded is not None and folded.is_zero_value:
                # ((C1 >> X) << C2) & C3 -> X == (cttz(C1) + C2 - cttz(C3)) ? C3 : 0
                shl_c = ConstantExpr.get_add(c2, log2_c1)
                cmp_c = ConstantExpr.get_sub(shl_c, log2_c3)
                cmp = b.create_icmp(Predicate.ICMP_EQ, m.value("x"), cmp_c)
                return SelectInst(cmp, cint(ty, c), Constant.get_null_value(ty))
    return None


P_POW2_C = m_power2("c")


def _exact_log_base2(c: Constant) -> Constant | None:
    """``ConstantExpr::getExactLogBase2``: lane-wise log2 of powers of two (undef lanes give 0)."""
    from llvmpy_mid.ir.constants import ConstantVector, UndefValue
    from llvmpy_mid.ir.types import VectorType

    if isinstance(c, ConstantInt):
        v = c.value
        return ConstantInt.get(c.type, v.bit_length() - 1) if _is_pow2(v) else None
    ty = c.type
    if not isinstance(ty, VectorType) or ty.scalable:
        return None
    s = get_splat_value(c)
    if isinstance(s, ConstantInt):
        r = _exact_log_base2(s)
        return None if r is None else ConstantVector.get_splat(ty, r)
    elts: list[Constant] = []
    for k in range(ty.count):
        e = c.get_aggregate_element(k)
        if isinstance(e, UndefValue):
            elts.append(Constant.get_null_value(ty.element_type))
            continue
        if not isinstance(e, ConstantInt) or not _is_pow2(e.value):
            return None
        elts.append(ConstantInt.get(e.type, e.value.bit_length() - 1))
    return ConstantVector.get(elts)


def _apint_of(v: Value) -> int:
    """The value of a (splat) integer constant already matched; -1 (no power of two) when
    it is no splat (the per-lane forms are not done)."""
    m = match(v, P_APINT_C)
    return -1 if m is None else m.apint("c")


def _is_pow2(v: int) -> bool:
    return v != 0 and v & (v - 1) == 0


def _narrow_and_of_binop(ic: InstCombiner, bo: BinaryOperator, bopc: str, c: int, ty: object) -> Instruction | None:
    """and (bo (zext X), C1), C -> zext (and (bo X, trunc C1), trunc C); and (bo (zext X), Y), C -> zext (bo X, trunc Y)"""
    b = ic.builder
    i_ty = bo.type
    for zx, other_op in ((bo.lhs, bo.rhs), (bo.rhs, bo.lhs)):
        mz = match(zx, P_ZEXT_X)
        if mz is None:
            continue
        mc = match(other_op, P_APINT_C)
        if mc is None:
            continue
        x = mz.value("x")
        xw = width(x.type)
        if c >> xw:
            break
        trunc_c1 = cint(x.type, mc.apint("c") & ((1 << xw) - 1))
        if getattr(bo.lhs, "opcode", None) == "zext":
            nb = b.create_bin_op(bopc, x, trunc_c1)
        else:
            nb = b.create_bin_op(bopc, trunc_c1, x)
        and_ = b.create_and(nb, cint(x.type, c & ((1 << xw) - 1)))
        return ZExtInst(and_, i_ty)
    l0 = bo.lhs
    from llvmpy_mid.ir.instruction import Instruction as _I

    if isinstance(l0, _I):
        mz = match(l0, P_ZEXT_X)
        if mz is not None:
            x = mz.value("x")
            if _is_mask_of(c, width(x.type)):
                y = bo.rhs
                tr = b.create_trunc(y, x.type, y.name + ".tr")
                nbo = b.create_bin_op(bopc, x, tr, bo.name + ".narrow")
                return ZExtInst(nbo, i_ty)
    r1 = bo.rhs
    if isinstance(r1, _I):
        mz = match(r1, P_ZEXT_X)
        if mz is not None:
            x = mz.value("x")
            if _is_mask_of(c, width(x.type)):
                y = bo.lhs
                tr = b.create_trunc(y, x.type, y.name + ".tr")
                nbo = b.create_bin_op(bopc, tr, x, bo.name + ".narrow")
                return ZExtInst(nbo, i_ty)
    return None


def _is_mask_of(c: int, n: int) -> bool:
    """``C->isMask(n)``: exactly the low n bits set."""
    return c == (1 << n) - 1


def _take_name(new: Value, old: Value) -> None:
    from llvmpy_mid.transform.instcombine.combiner import take_name

    if isinstance(new, Constant):
        return
    take_name(new, old)


def narrow_masked_bin_op(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """and (binop (zext X), C), (zext X) -> zext (and (binop X, trunc C), X)"""
    op0, op1 = i.lhs, i.rhs
    if not one_use(op0):
        return None
    if not isinstance(op0, BinaryOperator):
        return None
    opc = op0.opcode
    c: Value | None = None
    if opc in ("add", "mul", "lshr", "shl") and op0.lhs is op1 and op0.rhs.is_constant:
        c = op0.rhs
    elif opc == "sub" and op0.rhs is op1 and op0.lhs.is_constant:
        c = op0.lhs
    if c is None:
        return None
    if getattr(op1, "opcode", None) != "zext" or op1.has_n_uses_or_more(3):
        return None
    x = cast(CastInst, op1).get_operand(0)
    ty = i.type
    from llvmpy_mid.ir.types import VectorType

    if not isinstance(ty, VectorType) and not cm.should_change_type(ic, ty, x.type):
        return None
    if opc in ("lshr", "shl"):
        if not _all_ult(cast(Constant, c), width(x.type)):
            return None
    new_c = ConstantExpr.get_cast("trunc", cast(Constant, c), x.type)
    if opc == "sub":
        new_bo = ic.builder.create_bin_op(opc, new_c, x)
    else:
        new_bo = ic.builder.create_bin_op(opc, x, new_c)
    return ZExtInst(ic.builder.create_and(new_bo, x), ty)


def _all_ult(c: Constant, bound: int) -> bool:
    """``m_SpecificInt_ICMP(ICMP_ULT, bound)`` on every lane."""
    return _lanes_all(c, lambda k: k < bound)


def _lanes_all(v: Value, pred: Callable[[int], bool]) -> bool:
    """LLVM ``cstval_pred_ty``: an integer constant, splat, or fixed vector whose non-poison
    lanes (at least one) all satisfy ``pred``."""
    from llvmpy_mid.ir.constants import PoisonValue
    from llvmpy_mid.ir.types import VectorType

    if isinstance(v, ConstantInt):
        return pred(v.value)
    if not isinstance(v, Constant) or not isinstance(v.type, VectorType) or v.type.scalable:
        return False
    s = get_splat_value(v)
    if isinstance(s, ConstantInt):
        return pred(s.value)
    seen = False
    for k in range(v.type.count):
        e = v.get_aggregate_element(k)
        if isinstance(e, PoisonValue):
            continue
        if not isinstance(e, ConstantInt) or not pred(e.value):
            return False
        seen = True
    return seen


def _logical_and_or(v: Value, is_and: bool) -> tuple[Value, Value, bool] | None:
    """``m_OneUse(m_LogicalAnd/Or(X, Y))``: (X, Y, is_select)."""
    if not one_use(v) or not is_bool(v.type):
        return None
    opc = getattr(v, "opcode", None)
    if opc == ("and" if is_and else "or"):
        ops = binop(v, opc)
        assert ops is not None
        return ops[0], ops[1], False
    if opc == "select" and isinstance(v, SelectInst):
        cnd = v.condition
        if cnd.type is not v.type:
            return None
        if is_and:
            fv = v.false_value
            if _is_null_value(fv):
                return cnd, v.true_value, True
        else:
            tv = v.true_value
            if _is_one_value(tv):
                return cnd, v.false_value, True
    return None


def _is_null_value(v: Value) -> bool:
    """``isa<Constant>(V) && V->isNullValue()`` (no poison lanes)."""
    if not isinstance(v, Constant):
        return False
    if v.is_null_value:
        return True
    s = get_splat_value(v)
    return isinstance(s, ConstantInt) and s.value == 0


def _is_one_value(v: Value) -> bool:
    """``isa<Constant>(V) && V->isOneValue()`` (a splat of 1, no poison lanes)."""
    if not isinstance(v, Constant):
        return False
    s = v if isinstance(v, ConstantInt) else get_splat_value(v)
    return isinstance(s, ConstantInt) and s.value == 1


def _is_zero_const(v: Value) -> bool:
    from llvmpy_mid.ir.pattern_match import m_zero_int

    return match(v, P_ZERO) is not None if isinstance(v, Constant) else False


def _is_ones_const(v: Value) -> bool:
    return match(v, P_ONES) is not None if isinstance(v, Constant) else False


from llvmpy_mid.ir.pattern_match import m_zero_int  # noqa: E402

P_ZERO = m_zero_int()
P_ONES = m_all_ones()


def _fold_icmp_pairs(ic: InstCombiner, i: BinaryOperator, is_and: bool) -> Instruction | None:
    """LHS op RHS of two compares, and LHS op (X op Y) reassociated when one of X, Y folds with LHS"""
    op0, op1 = i.lhs, i.rhs
    lhs = op0 if isinstance(op0, ICmpInst) else None
    rhs = op1 if isinstance(op1, ICmpInst) else None
    b = ic.builder
    if lhs is not None and rhs is not None:
        res = fold_and_or_of_icmps(ic, lhs, rhs, i, is_and)
        if res is not None:
            return ic.replace_inst_uses_with(i, res)
    opc = "and" if is_and else "or"
    if lhs is not None:
        lg = _logical_and_or(op1, is_and)
        if lg is not None:
            x, y, is_logical = lg
            if isinstance(x, ICmpInst):
                res = fold_and_or_of_icmps(ic, lhs, x, i, is_and, is_logical)
                if res is not None:
                    v = b.create_logical_op(opc, res, y) if is_logical else b.create_bin_op(opc, res, y)
                    return ic.replace_inst_uses_with(i, v)
            if isinstance(y, ICmpInst):
                res = fold_and_or_of_icmps(ic, lhs, y, i, is_and, False)
                if res is not None:
                    v = b.create_logical_op(opc, x, res) if is_logical else b.create_bin_op(opc, x, res)
                    return ic.replace_inst_uses_with(i, v)
    if rhs is not None:
        lg = _logical_and_or(op0, is_and)
        if lg is not None:
            x, y, is_logical = lg
            if isinstance(x, ICmpInst):
                res = fold_and_or_of_icmps(ic, x, rhs, i, is_and, is_logical)
                if res is not None:
                    v = b.create_logical_op(opc, res, y) if is_logical else b.create_bin_op(opc, res, y)
                    return ic.replace_inst_uses_with(i, v)
            if isinstance(y, ICmpInst):
                res = fold_and_or_of_icmps(ic, y, rhs, i, is_and, False)
                if res is not None:
                    v = b.create_logical_op(opc, x, res) if is_logical else b.create_bin_op(opc, x, res)
                    return ic.replace_inst_uses_with(i, v)
    return None


def _no_implicit_float(ic: InstCombiner) -> bool:
    return ic.fn.has_fn_attribute("noimplicitfloat")


P_MAX_SIGNED = m_cst_pred(lambda c: cast(ConstantInt, c).value == cast(ConstantInt, c).type.mask >> 1)


def fold_bin_op_of_displaced_shifts(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """op(shift(C1, A), shift(C2, A + AddC)) -> shift(op(C1, shift(C2, AddC)), A)"""
    from llvmpy_mid.ir.instruction import Instruction as _I

    ty = i.type
    bw = width(ty)
    for s0, s1 in ((i.lhs, i.rhs), (i.rhs, i.lhs)):
        a = _shift_of_imm(s0)
        if a is None:
            continue
        c1, sh_amt = a
        bb = _shift_of_imm(s1)
        if bb is None:
            continue
        c2, amt2 = bb
        add_c = _add_like_of(amt2, sh_amt)
        if add_c is None:
            continue
        if not _all_ult(add_c, bw):
            return None
        if not isinstance(s0, _I) or not isinstance(s1, _I):
            return None
        sh_op = s0.opcode
        if sh_op != s1.opcode:
            return None
        new_c = ic.builder.create_bin_op(i.opcode, c1, ic.builder.create_bin_op(sh_op, c2, add_c))
        return BinaryOperator.create(sh_op, new_c, sh_amt)
    return None


def _shift_of_imm(v: Value) -> tuple[Constant, Value] | None:
    """``m_Shift(m_ImmConstant(C), m_Value(A))``: (C, A)."""
    opc = getattr(v, "opcode", None)
    if opc not in ("shl", "lshr", "ashr"):
        return None
    ops = binop(v, opc)
    assert ops is not None
    c = ops[0]
    if not isinstance(c, Constant) or match(c, P_IMM) is None:
        return None
    return c, ops[1]


def _add_like_of(v: Value, x: Value) -> Constant | None:
    """``m_AddLike(m_Deferred(X), m_ImmConstant(C))``: C of ``add X, C`` or ``or disjoint X, C``."""
    opc = getattr(v, "opcode", None)
    if opc == "add" or (opc == "or" and getattr(v, "disjoint", False)):
        ops = binop(v, opc)
        assert ops is not None
        if ops[0] is x and isinstance(ops[1], Constant) and match(ops[1], P_IMM) is not None:
            return ops[1]
    return None


P_IMM = m_imm_constant()


def _fold_with_implied_cond(ic: InstCombiner, i: BinaryOperator, is_and: bool) -> Instruction | None:
    """i1 Op &/| (select ...) where Op decides the select's condition"""
    from llvmpy_mid.transform.instcombine.and_or_xor_select import fold_and_or_of_select_using_implied_cond

    if not is_bool(i.type):
        return None
    op0, op1 = i.lhs, i.rhs
    if isinstance(op0, SelectInst):
        r = fold_and_or_of_select_using_implied_cond(ic, op1, op0, is_and)
        if r is not None:
            return r
    if isinstance(op1, SelectInst):
        r = fold_and_or_of_select_using_implied_cond(ic, op0, op1, is_and)
        if r is not None:
            return r
    return None


def _fold_fcmp_pair(ic: InstCombiner, i: BinaryOperator, is_and: bool) -> Instruction | None:
    op0, op1 = i.lhs, i.rhs
    if isinstance(op0, FCmpInst) and isinstance(op1, FCmpInst):
        res = fold_logic_of_fcmps(ic, op0, op1, is_and)
        if res is not None:
            return ic.replace_inst_uses_with(i, res)
    return None


def _fold_simple_recurrence(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """An and/or recurrence with a loop-invariant step is (start op step)"""
    from llvmpy_mid.analysis.value_tracking_support import match_simple_recurrence

    for op in (i.lhs, i.rhs):
        if not isinstance(op, PHINode):
            continue
        r = match_simple_recurrence(op)
        if r is None or r[0] is not i:
            continue
        _, start, step = r
        if ic.dt.dominates(step, op):
            return ic.replace_inst_uses_with(i, ic.builder.create_bin_op(i.opcode, start, step))
        return None
    return None


def visit_and(ic: InstCombiner, inst: Instruction) -> Instruction | None:
    """``InstCombinerImpl::visitAnd``."""
    i = cast(BinaryOperator, inst)
    ty = i.type
    v = simplify_and_inst(i.lhs, i.rhs, ic.query(i))
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
    if ic.simplify_demanded_instruction_bits(i):
        return i
    r = fold_and_to_xor(ic, i)
    if r is not None:
        return r
    r = fold_complex_and_or_patterns(ic, i)
    if r is not None:
        return r
    v = cm.fold_using_distributive_laws(ic, i)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)
    r = cm.fold_bin_op_shift_with_shift(ic, i)
    if r is not None:
        return r
    op0, op1 = i.lhs, i.rhs
    b = ic.builder

    # (1 >> X) & 1 --> zext(X == 0);  (C << X) & 1 --> zext(X == 0) when C is odd
    if match(op1, P_ONE) is not None:
        m = match(op0, P_LSHIFT_ONE)
        if m is None:
            m = match(op0, P_SHL_C)
            if m is not None and not m.apint("c") & 1:
                m = None
        if m is not None:
            is_zero = b.create_icmp(Predicate.ICMP_EQ, m.value("x"), Constant.get_null_value(ty))
            return ZExtInst(is_zero, ty)
    # (-(X & 1)) & Y --> (X & 1) == 0 ? 0 : Y
    for neg, y in ((op0, op1), (op1, op0)):
        if match(neg, P_NEG_AND_ONE) is not None:
            cmp = b.create_is_null(neg)
            return SelectInst(cmp, Constant.get_null_value(ty), y)
    # (X +/- Y) & Y --> ~X & Y when Y is a power of 2
    for y, xy in ((op0, op1), (op1, op0)):
        if not one_use(xy):
            continue
        x = other(xy, "add", y)
        if x is None:
            sub = binop(xy, "sub")
            if sub is not None and sub[1] is y:
                x = sub[0]
        if x is not None:
            if ic.is_known_to_be_a_power_of_two(y, True, 0, i):
                return BinaryOperator.create("and", b.create_not(x), y)
            break
    mc = match(op1, P_APINT_C)
    if mc is not None:
        r = _fold_and_with_constant(ic, i, mc.apint("c"))
        if r is not None:
            return r
    # and (bitcast X), MaxSignedValue -> bitcast (fabs X) for IEEE X
    cast_op = element_wise_bitcast_source(op0)
    if cast_op is not None and match(op1, P_MAX_SIGNED) is not None and not _no_implicit_float(ic):
        if is_ieee_fp_scalar(cast_op.type):
            fabs = b.create_unary_intrinsic("fabs", cast_op)
            return CastInst.create("bitcast", fabs, ty)
    # and(shl(zext(X), Y), SignMask) -> and(sext(X), SignMask)
    if match(op1, P_SIGN_MASK) is not None:
        m = match(op0, P_SHL_ZEXT)
        if m is not None:
            x = m.value("x")
            if _lanes_all(m.value("y"), lambda k: k == width(ty) - width(x.type)):
                sext = b.create_sext(x, ty, x.name + ".signext")
                return BinaryOperator.create("and", sext, op1)
    r = narrow_masked_bin_op(ic, i)
    if r is not None:
        return r
    r = _fold_with_implied_cond(ic, i, True)
    if r is not None:
        return r
    r = cm.fold_binop_into_select_or_phi(ic, i)
    if r is not None:
        return r
    r = match_de_morgans_laws(ic, i)
    if r is not None:
        return r
    r = _fold_and_xor_or_identities(ic, i)
    if r is not None:
        return r
    r = _fold_icmp_pairs(ic, i, True)
    if r is not None:
        return r
    r = _fold_fcmp_pair(ic, i, True)
    if r is not None:
        return r
    r = reassociate_fcmps(ic, i)
    if r is not None:
        return r
    r = fold_casted_bitwise_logic(ic, i)
    if r is not None:
        return r
    r = fold_binop_of_sext_bool_to_select(ic, i)
    if r is not None:
        return r
    # and(sext(A), B) --> A ? B : 0;  ~sext(A) & B --> A ? 0 : B;  and(zext(A), B) -> A ? (B & 1) : 0
    for s, o in ((op0, op1), (op1, op0)):
        m = match(s, P_SEXT_BOOL)
        if m is not None and is_bool(m.value("a").type):
            return SelectInst(m.value("a"), o, Constant.get_null_value(ty))
    for s, o in ((op0, op1), (op1, op0)):
        n = not_of(s)
        if n is not None:
            m = match(n, P_SEXT_BOOL)
            if m is not None and is_bool(m.value("a").type):
                return SelectInst(m.value("a"), Constant.get_null_value(ty), o)
    for s, o in ((op0, op1), (op1, op0)):
        m = match(s, P_ZEXT_A)
        if m is not None and is_bool(m.value("a").type):
            return SelectInst(m.value("a"), b.create_and(o, cint(ty, 1)), Constant.get_null_value(ty))
    # (-1 + A) & B --> A ? 0 : B where A is 0/1
    for s, o in ((op0, op1), (op1, op0)):
        m = match(s, P_ADD_ZEXT_ALLONES)
        if m is None:
            continue
        a = m.value("a")
        if is_bool(a.type):
            return SelectInst(a, Constant.get_null_value(ty), o)
        if ic.compute_known_bits(a, 0, i).count_max_active_bits() <= 1:
            return SelectInst(
                b.create_icmp(Predicate.ICMP_EQ, a, Constant.get_null_value(a.type)), o, Constant.get_null_value(ty)
            )
        break
    # (iN X s>> (N-1)) & Y --> (X s< 0) ? Y : 0 -- with optional sext
    for s, o in ((op0, op1), (op1, op0)):
        m = match(s, P_SEXT_ASHR_ANY)
        if m is not None and m.apint("c") == width(m.value("x").type) - 1:
            is_neg = b.create_is_neg(m.value("x"), "isneg")
            return SelectInst(is_neg, o, Constant.get_null_value(ty))
    for s, o in ((op0, op1), (op1, op0)):
        m = match(s, P_SEXT_NOT_ASHR)
        if m is not None and m.apint("c") == width(m.value("x").type) - 1:
            is_neg = b.create_is_neg(m.value("x"), "isneg")
            return SelectInst(is_neg, Constant.get_null_value(ty), o)
    if sink_not_into_other_hand_of_logical_op(ic, i):
        return i
    r = _fold_simple_recurrence(ic, i)
    if r is not None:
        return r
    r = reassociate_for_uses(ic, i)
    if r is not None:
        return r
    r = canonicalize_logic_first(ic, i)
    if r is not None:
        return r
    r = fold_logic_of_is_fpclass(ic, i, op0, op1)
    if r is not None:
        return r
    r = fold_bin_op_of_displaced_shifts(ic, i)
    if r is not None:
        return r
    r = fold_bitwise_logic_with_intrinsics(ic, i)
    if r is not None:
        return r
    ones = Constant.get_all_ones_value(ty)
    v = simplify_and_or_with_op_replaced(ic, op0, op1, ones, False)
    if v is not None:
        return BinaryOperator.create("and", v, op1)
    v = simplify_and_or_with_op_replaced(ic, op1, op0, ones, False)
    if v is not None:
        return BinaryOperator.create("and", op0, v)
    return None


P_ONE = m_one()
P_SIGN_MASK = m_sign_mask()
P_ZEXT_A = m_one_use(m_zext(m_value("a")))


def _fold_and_xor_or_identities(ic: InstCombiner, i: BinaryOperator) -> Instruction | None:
    """A & ~(A ^ B) -> A & B; (A ^ B) & ((B ^ C) ^ A) -> (A ^ B) & ~C; (A | B) & (~A ^ B) -> A & B; (~A | B) & (A ^ B) -> ~A & B"""
    op0, op1 = i.lhs, i.rhs
    b = ic.builder
    n = not_of(op1)
    if n is not None:
        bb = other(n, "xor", op0)
        if bb is not None:
            return BinaryOperator.create("and", op0, bb)
    n = not_of(op0)
    if n is not None:
        bb = other(n, "xor", op1)
        if bb is not None:
            return BinaryOperator.create("and", op1, bb)
    ab = binop(op0, "xor")
    if ab is not None:
        a, bv = ab
        outer = binop(op1, "xor")
        if outer is not None and outer[1] is a:
            inner = binop(outer[0], "xor")
            if inner is not None and inner[0] is bv:
                c = inner[1]
                not_c = b.create_not(c) if one_use(op1) else cm.get_freely_inverted(ic, c, one_use(c), b)
                if not_c is not None:
                    return BinaryOperator.create("and", op0, not_c)
    outer = binop(op0, "xor")
    if outer is not None:
        inner = binop(outer[0], "xor")
        if inner is not None:
            a, c = inner
            bv = outer[1]
            ba = binop(op1, "xor")
            if ba is not None and ba[0] is bv and ba[1] is a:
                not_c = b.create_not(c) if one_use(op0) else cm.get_freely_inverted(ic, c, one_use(c), b)
                if not_c is not None:
                    return BinaryOperator.create("and", op1, b.create_not(c))
    # (A | B) & (~A ^ B) -> A & B  (and commuted)
    for xo, oo in ((op1, op0), (op0, op1)):
        r = _xor_with_not(xo)
        if r is not None and has_pair(oo, "or", r[0], r[1]):
            return BinaryOperator.create("and", r[0], r[1])
    # (~A | B) & (A ^ B) -> ~A & B  (and commuted)
    for oo, xo in ((op0, op1), (op1, op0)):
        r = _or_with_not(oo)
        if r is not None and has_pair(xo, "xor", r[0], r[1]):
            return BinaryOperator.create("and", b.create_not(r[0]), r[1])
    return None


def _xor_with_not(v: Value) -> tuple[Value, Value] | None:
    """``m_c_Xor(m_Not(m_Value(A)), m_Value(B))``: (A, B)."""
    ops = binop(v, "xor")
    if ops is None:
        return None
    a = not_of(ops[0])
    if a is not None:
        return a, ops[1]
    a = not_of(ops[1])
    if a is not None:
        return a, ops[0]
    return None


def _or_with_not(v: Value) -> tuple[Value, Value] | None:
    """``m_c_Or(m_Not(m_Value(A)), m_Value(B))``: (A, B)."""
    ops = binop(v, "or")
    if ops is None:
        return None
    a = not_of(ops[0])
    if a is not None:
        return a, ops[1]
    a = not_of(ops[1])
    if a is not None:
        return a, ops[0]
    return None


# --- sinking a not through a logic op ---------------------------------------------------------


def _can_freely_invert(ic: InstCombiner, op: Value, ignored_user: Instruction) -> bool:
    from llvmpy_mid.ir.instruction import Instruction as _I

    return (
        isinstance(op, _I)
        and cm.is_free_to_invert(ic, op, True)
        and cm.can_freely_invert_all_users_of(op, ignored_user)
    )


def _freely_invert(ic: InstCombiner, op: Value, ignored_user: Instruction) -> Value:
    from llvmpy_mid.ir.instruction import Instruction as _I

    inst = cast(_I, op)
    _position_after_def(ic, inst)
    not_op = ic.builder.create_not(op, op.name + ".not")
    op.replace_uses_with_if(not_op, lambda u: u.user is not not_op)
    cm.freely_invert_all_users_of(ic, not_op, ignored_user)
    return not_op


def _position_after_def(ic: InstCombiner, inst: Instruction) -> None:
    """``Builder.SetInsertPoint(*I->getInsertionPointAfterDef())`` (the debug location too)."""
    from llvmpy_mid.ir.instructions.terminators import InvokeInst

    if isinstance(inst, PHINode):
        blk = inst.parent
        assert blk is not None
        at = blk.first_insertion_point
    elif isinstance(inst, InvokeInst):
        at = inst.normal_dest.first_insertion_point
    else:
        at = inst.next_instruction
    assert at is not None
    ic.builder.position_before(at)
    ic.builder.debug_loc = at.debug_loc


def _logical_op(v: Value) -> tuple[Value, Value, str] | None:
    """``m_LogicalOp(m_Value(Op0), m_Value(Op1))``: (Op0, Op1, 'and'|'or')."""
    if not is_bool(v.type):
        return None
    opc = getattr(v, "opcode", None)
    if opc in ("and", "or"):
        ops = binop(v, opc)
        assert ops is not None
        return ops[0], ops[1], opc
    if opc == "select" and isinstance(v, SelectInst) and v.condition.type is v.type:
        fv = v.false_value
        if _is_null_value(fv):
            return v.condition, v.true_value, "and"
        tv = v.true_value
        if _is_one_value(tv):
            return v.condition, v.false_value, "or"
    return None


def sink_not_into_logical_op(ic: InstCombiner, i: Instruction) -> bool:
    """~(x &/| y) -> (~x |/& ~y) when x, y and every user of the result invert freely"""
    lo = _logical_op(i)
    if lo is None:
        return False
    op0, op1, kind = lo
    if op0 is op1:
        return False
    new_opc = "or" if kind == "and" else "and"
    is_binary = isinstance(i, BinaryOperator)
    if not cm.can_freely_invert_all_users_of(i, None):
        return False
    if not _can_freely_invert(ic, op0, i) or not _can_freely_invert(ic, op1, i):
        return False
    op0 = _freely_invert(ic, op0, i)
    op1 = _freely_invert(ic, op1, i)
    _position_after_def(ic, i)
    name = i.name + ".not"
    if is_binary:
        new = ic.builder.create_bin_op(new_opc, op0, op1, name)
    else:
        new = ic.builder.create_logical_op(new_opc, op0, op1, name)
    ic.replace_inst_uses_with(i, new)
    cm.freely_invert_all_users_of(ic, new)
    return True


def sink_not_into_other_hand_of_logical_op(ic: InstCombiner, i: Instruction) -> bool:
    """(~x) &/| y -> ~(x |/& ~y) when y and every user of the result invert freely"""
    lo = _logical_op(i)
    if lo is None:
        return False
    op0, op1, kind = lo
    new_opc = "or" if kind == "and" else "and"
    is_binary = isinstance(i, BinaryOperator)
    n0 = not_of(op0)
    invert_first = False
    if n0 is not None and _can_freely_invert(ic, op1, i):
        op0 = n0
    else:
        n1 = not_of(op1)
        if n1 is not None and _can_freely_invert(ic, op0, i):
            op1 = n1
            invert_first = True
        else:
            return False
    if not cm.can_freely_invert_all_users_of(i, None):
        return False
    if invert_first:
        op0 = _freely_invert(ic, op0, i)
    else:
        op1 = _freely_invert(ic, op1, i)
    _position_after_def(ic, i)
    name = i.name + ".not"
    if is_binary:
        new = ic.builder.create_bin_op(new_opc, op0, op1, name)
    else:
        new = ic.builder.create_logical_op(new_opc, op0, op1, name)
    ic.replace_inst_uses_with(i, new)
    cm.freely_invert_all_users_of(ic, new)
    return True


def visit_or(ic: InstCombiner, inst: Instruction) -> Instruction | None:
    """``InstCombinerImpl::visitOr`` (in :mod:`.and_or_xor_or`)."""
    return _or_module.visit_or(ic, inst)


__all__ = [
    "canonicalize_logic_first",
    "fold_and_to_xor",
    "fold_casted_bitwise_logic",
    "fold_complex_and_or_patterns",
    "match_de_morgans_laws",
    "reassociate_for_uses",
    "simplify_and_or_with_op_replaced",
    "sink_not_into_logical_op",
    "sink_not_into_other_hand_of_logical_op",
    "visit_and",
    "visit_or",
    "visit_xor",
]

import llvmpy_mid.transform.instcombine.and_or_xor_or as _or_module  # noqa: E402  (it imports this module's helpers)
