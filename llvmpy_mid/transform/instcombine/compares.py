"""InstCombine folds of ``icmp`` and ``fcmp`` (LLVM 19.1.7
``lib/Transforms/InstCombine/InstCombineCompares.cpp``): ``visitICmpInst`` and its
front half (operand order, InstructionSimplify, canonical predicates, boolean
compares, known bits, dominating conditions, bool ranges, compares with zero,
sign-bit tests), in LLVM's order of attempts.

The folds of a compare with a constant by the LHS opcode live in
:mod:`compares_const`; the folds of two binary operators, equality, min/max and
the commutative family in :mod:`compares_binop`; casts in :mod:`compares_cast`;
``fcmp`` in :mod:`compares_fp`.

The overflow-check idioms are here too: ``processUGT_ADDCST_ADD`` (a sign-extended add
range-checked -> ``llvm.sadd.with.overflow``, from ``foldICmpWithConstant``),
``processUMulZExtIdiom`` (``mul nuw`` of zexts against the narrow max ->
``llvm.umul.with.overflow``), and the ``m_UAddWithOverflow`` block that asks
``OptimizeOverflowCheck`` (:func:`optimize_overflow_check`, shared with the
with.overflow intrinsics) whether the add never or always overflows. The zero guard
before a ``[us]mul.with.overflow`` (``select (X != 0), ov, false``) is dropped by
:func:`and_or_xor_icmps.fold_check_for_zero_and_mul_with_overflow`, called from the
logical and/or folds of ``select_bools`` as LLVM's ``visitSelectInst``.

What it does not do (yet): the ``vector.reverse`` forms of ``foldVectorCmp`` (skipped whole).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.capture_tracking import CaptureTracker, pointer_may_be_captured_by
from llvmpy_mid.analysis.constant_range import ConstantRange, OverflowResult
from llvmpy_mid.analysis.instruction_simplify import simplify_icmp_inst
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.known_bits_analysis import is_known_positive
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.select_pattern import UNKNOWN, match_select_pattern
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantVector, UndefValue, get_splat_value
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import CmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.memory import AtomicCmpXchgInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.vector import ExtractValueInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Use, Value
from llvmpy_mid.transform.instcombine import common, compares_binop, compares_cast, compares_const, compares_fp
from llvmpy_mid.transform.instcombine.compares_util import (
    apint,
    apint_allow_poison,
    get_flipped_strictness_predicate_and_constant,
    int_const,
    is_sign_bit_check,
    scalar_width,
    to_signed,
)

if TYPE_CHECKING:
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

P = Predicate


def _not(v: Value) -> BinaryOperator:
    """``BinaryOperator::CreateNot``: ``xor v, -1`` (detached)."""
    return BinaryOperator.create("xor", v, Constant.get_all_ones_value(v.type))


# --- the front half of visitICmpInst -------------------------------------------------------------


def canonicalize_icmp_bool(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp of i1 values -> bitwise logic (``eq`` -> ``~(A ^ B)``, ``ult`` -> ``~A & B`` ...)."""
    a = i.lhs
    b = i.rhs
    pred = i.predicate
    if pm.matches(b, _ZERO):
        if pred in (P.ICMP_EQ, P.ICMP_ULE, P.ICMP_SGE):
            return _not(a)
        return None
    if pm.matches(b, _ONE):
        if pred in (P.ICMP_NE, P.ICMP_ULT, P.ICMP_SGT):
            return _not(a)
        return None
    bld = ic.builder
    if pred == P.ICMP_EQ:
        return _not(bld.create_xor(a, b))
    if pred == P.ICMP_NE:
        return BinaryOperator.create("xor", a, b)
    if pred in (P.ICMP_UGT, P.ICMP_SGE, P.ICMP_UGE, P.ICMP_SGT):
        a, b = b, a
        pred = pred.swapped
    if pred == P.ICMP_ULT:
        return BinaryOperator.create("and", bld.create_not(a), b)
    if pred == P.ICMP_SLT:
        return BinaryOperator.create("and", bld.create_not(b), a)
    if pred == P.ICMP_ULE:
        return BinaryOperator.create("or", bld.create_not(a), b)
    # SLE
    return BinaryOperator.create("or", bld.create_not(b), a)


def canonicalize_cmp_with_constant(i: ICmpInst) -> Instruction | None:
    """X <=/>= C -> X </> C+-1 (non-strict relational predicates with a constant)."""
    pred = i.predicate
    if pred.is_equality or common.is_canonical_predicate(pred):
        return None
    op1 = i.rhs
    if not isinstance(op1, Constant):
        return None
    flipped = get_flipped_strictness_predicate_and_constant(pred, op1)
    if flipped is None:
        return None
    return ICmpInst(flipped[0], i.lhs, flipped[1])


def canonicalize_icmp_predicate(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """cmp with a non-canonical predicate whose users all take !cmp -> inverted cmp (name ``.not``)."""
    pred = i.predicate
    if common.is_canonical_predicate(pred):
        return None
    if not common.can_freely_invert_all_users_of(i, None):
        return None
    i.predicate = pred.inverse
    i.name = i.name + ".not"
    common.freely_invert_all_users_of(ic, i)
    return i


def fold_icmp_with_constant(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp (phi C1, C2 ...), C -> phi (icmp C1, C) ...; ctpop-of-not folds."""
    op0 = i.lhs
    op1 = i.rhs
    if (
        i.predicate == P.ICMP_UGT
        and type(op1) is ConstantInt
        and isinstance(op0, BinaryOperator)
        and op0.opcode == "add"
        and type(op0.rhs) is ConstantInt
    ):
        inner = op0.lhs
        if isinstance(inner, BinaryOperator) and inner.opcode == "add":
            res = process_ugt_addcst_add(ic, i, inner.lhs, inner.rhs, op0.rhs, op1)
            if res is not None:
                return res
    if not isinstance(op1, Constant):
        return None
    if isinstance(op0, PHINode) and all(isinstance(v, Constant) for v in op0.operands):
        from llvmpy_mid.analysis.constant_folding import constant_fold_compare_inst_operands

        results: list[Constant] = []
        for v in op0.operands:
            r = constant_fold_compare_inst_operands(i.predicate, cast(Constant, v), op1, ic.dl)
            if r is None:
                return None
            results.append(r)
        new_phi = PHINode(i.type)
        blocks = [b for _, b in op0.incoming]
        for r, b in zip(results, blocks):
            new_phi.add_incoming(r, b)
        new_phi.debug_loc = op0.debug_loc
        ic.insert_new_inst_before(new_phi, op0)
        return ic.replace_inst_uses_with(i, new_phi)
    return common.try_fold_inst_with_ctpop_with_not(ic, i)


def _is_zext_inst(v: Value) -> bool:
    return isinstance(v, Instruction) and v.opcode == "zext"


def _bits(ty: Type) -> int:
    """``getPrimitiveSizeInBits`` of an integer type (the only kind these idioms see)."""
    return ty.width if isinstance(ty, IntegerType) else 0


def _overflow_struct(ty: Type) -> Type:
    """``{ ty, i1 }``: the result type of the scalar with.overflow intrinsics."""
    ctx = ty.context
    return ctx.struct_type([ty, ctx.int_type(1)])


def process_ugt_addcst_add(
    ic: InstCombiner, i: ICmpInst, a: Value, b: Value, ci2: ConstantInt, ci1: ConstantInt
) -> Instruction | None:
    """``(A + B) + 2^(N-1) u> 2^N - 1`` with A, B sign-extended from iN, the sum only used by
    that compare and truncates to at most N bits -> ``llvm.sadd.with.overflow.iN`` (LLVM
    ``processUGT_ADDCST_ADD``; N is 8, 16 or 32)."""
    add_with_cst = i.lhs
    assert isinstance(add_with_cst, BinaryOperator)
    if not add_with_cst.has_one_use:
        return None
    c2 = ci2.value
    if c2 == 0 or c2 & (c2 - 1):
        return None
    new_width = (c2 & -c2).bit_length() - 1
    if new_width not in (7, 15, 31):
        return None
    new_width += 1
    w1 = scalar_width(ci1.type)
    if w1 == new_width or ci1.value != (1 << new_width) - 1:
        return None
    if ic.compute_max_significant_bits(a, 0, i) > new_width or ic.compute_max_significant_bits(b, 0, i) > new_width:
        return None
    orig_add = add_with_cst.lhs
    assert isinstance(orig_add, Instruction)
    for u in orig_add.users:
        if u is add_with_cst:
            continue
        if not (isinstance(u, Instruction) and u.opcode == "trunc" and _bits(u.type) <= new_width):
            return None
    new_ty = orig_add.type.context.int_type(new_width)
    bld = ic.builder
    bld.position_before(orig_add)
    bld.debug_loc = orig_add.debug_loc
    ta = bld.create_trunc(a, new_ty, a.name + ".trunc")
    tb = bld.create_trunc(b, new_ty, b.name + ".trunc")
    call = bld.create_intrinsic("sadd.with.overflow", [new_ty], [ta, tb], "sadd", return_type=_overflow_struct(new_ty))
    res = bld.create_extract_value(call, [0], "sadd.result")
    zext = bld.create_zext(res, orig_add.type)
    ic.replace_inst_uses_with(orig_add, zext)
    ic.erase_inst_from_function(orig_add)
    return ExtractValueInst(call, [1], name="sadd.overflow")


def process_umul_zext_idiom(ic: InstCombiner, i: ICmpInst, mul_val: Value, other: int) -> Instruction | None:
    """``mul nuw (zext A), (zext B)`` compared ``u>`` the max of the wider of A and B (or
    ``u<`` one past it), the product otherwise only truncated or masked to that width ->
    ``llvm.umul.with.overflow`` (LLVM ``processUMulZExtIdiom``)."""
    if not isinstance(mul_val.type, IntegerType) or not isinstance(mul_val, Instruction):
        return None
    lhs, rhs = mul_val.operands[0], mul_val.operands[1]
    assert isinstance(lhs, Instruction) and isinstance(rhs, Instruction)
    a = lhs.operands[0]
    b = rhs.operands[0]
    wa = _bits(a.type)
    wb = _bits(b.type)
    mul_width, mul_ty = (wb, b.type) if wb > wa else (wa, a.type)
    several = mul_val.has_n_uses_or_more(2)
    if several:
        for u in mul_val.users:
            if u is i:
                continue
            if isinstance(u, Instruction) and u.opcode == "trunc":
                if _bits(u.type) > mul_width:
                    return None
            elif isinstance(u, BinaryOperator):
                if u.opcode != "and":
                    return None
                mask = u.rhs
                if type(mask) is not ConstantInt or mask.value.bit_length() > mul_width:
                    return None
            else:
                return None
    pred = i.predicate
    if pred == P.ICMP_UGT:
        if other != (1 << mul_width) - 1:
            return None
    elif pred == P.ICMP_ULT:
        if other != 1 << mul_width:  # APInt::getOneBitSet: 0 when MulWidth is the full width
            return None
    else:
        return None
    bld = ic.builder
    bld.position_before(mul_val)
    bld.debug_loc = mul_val.debug_loc
    mul_a = bld.create_zext(a, mul_ty) if wa < mul_width else a
    mul_b = bld.create_zext(b, mul_ty) if wb < mul_width else b
    call = bld.create_intrinsic("umul.with.overflow", [mul_ty], [mul_a, mul_b], "umul", return_type=_overflow_struct(mul_ty))
    ic.add_to_worklist(mul_val)
    if several:
        value = bld.create_extract_value(call, [0], "umul.value")
        for use in mul_val.use_list():
            u = use.user
            if u is i:
                continue
            assert isinstance(u, Instruction)
            if u.opcode == "trunc":
                if _bits(u.type) == mul_width:
                    ic.replace_inst_uses_with(u, value)
                else:
                    u.set_operand(0, value)
            else:
                assert isinstance(u, BinaryOperator) and type(u.rhs) is ConstantInt
                short_mask = u.rhs.value & ((1 << mul_width) - 1)
                short_and = bld.create_and(value, ConstantInt.get(value.type, short_mask))
                ic.replace_inst_uses_with(u, bld.create_zext(short_and, u.type))
            ic.add_to_worklist(u)
    if pred == P.ICMP_ULT:
        return _not(bld.create_extract_value(call, [1]))
    return ExtractValueInst(call, [1])


def _match_uadd_with_overflow(i: ICmpInst) -> tuple[Value, Value, Value] | None:
    """``m_UAddWithOverflow``: (X, Y, sum) of a compare checking ``X + Y`` for unsigned
    overflow: ``(X + Y) u< X`` (or Y), ``(X + 1) == 0`` and their swaps."""
    pred = i.predicate
    l, r = i.lhs, i.rhs
    if pred in (P.ICMP_ULT, P.ICMP_UGT):
        s, o = (l, r) if pred == P.ICMP_ULT else (r, l)
        if isinstance(s, (Instruction, ConstantExpr)) and s.opcode == "add":
            x, y = s.operands[0], s.operands[1]
            if o is x or o is y:
                return x, y, s
        # the ``~X u< Y`` form matches with the not as the sum: never an add, never folded
        return None
    if pred == P.ICMP_EQ:
        for s, z in ((l, r), (r, l)):
            if isinstance(s, (Instruction, ConstantExpr)) and s.opcode == "add" and pm.matches(z, _ZERO_INT):
                x, y = s.operands[0], s.operands[1]
                if pm.matches(x, _ONE) or pm.matches(y, _ONE):
                    return x, y, s
    return None


def fold_icmp_uadd_overflow_check(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """An unsigned add overflow check whose add provably never or always overflows ->
    the add (nuw) and a constant (LLVM ``visitICmpInst``'s ``m_UAddWithOverflow`` block)."""
    m = _match_uadd_with_overflow(i)
    if m is None:
        return None
    x, y, add = m
    if not isinstance(add, BinaryOperator) or add.opcode != "add" or not isinstance(x.type, IntegerType):
        return None
    r = optimize_overflow_check(ic, "add", False, x, y, add)
    if r is None:
        return None
    ic.replace_inst_uses_with(add, r[0])
    ic.erase_inst_from_function(add)
    return ic.replace_inst_uses_with(i, r[1])


def _edge_dominates(ic: InstCombiner, start: object, end: object, bb: object) -> bool:
    return bool(ic.dt._edge_dominates_block(start, end, bb))  # type: ignore[arg-type]


def fold_icmp_with_dominating_icmp(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """X pred C under a dominating branch on X pred' C' -> true/false, or X ==/!= C''."""
    x = i.lhs
    c = apint(i.rhs)
    if c is None:
        return None
    w = scalar_width(x.type)
    if not w:
        return None
    pred = i.predicate
    cr = ConstantRange.make_exact_icmp_region(pred, c, w)
    bb = i.parent

    def handle(dom_pred: Predicate, dom_c: int) -> Instruction | None:
        dom_cr = ConstantRange.make_exact_icmp_region(dom_pred, dom_c, w)
        inter = dom_cr.intersect_with(cr)
        diff = dom_cr.difference(cr)
        if inter.is_empty_set():
            return ic.replace_inst_uses_with(i, ConstantInt.get_false(i.type))
        if diff.is_empty_set():
            return ic.replace_inst_uses_with(i, ConstantInt.get_true(i.type))
        sb = is_sign_bit_check(pred, c, w)
        if i.is_equality or (sb is not None and any(isinstance(u, BranchInst) for u in i.users)):
            return None
        if i.has_one_use and pm.matches(next(iter(i.users)), _MAX_OR_MIN):
            return None
        eq = inter.get_single_element()
        if eq is not None:
            return ICmpInst(P.ICMP_EQ, x, ConstantInt.get(x.type, eq))
        ne = diff.get_single_element()
        if ne is not None:
            return ICmpInst(P.ICMP_NE, x, ConstantInt.get(x.type, ne))
        return None

    # LLVM's DomConditionCache: the branches registered so far whose condition affects X.
    for bri in ic.dc.conditions_for(x):
        br = cast(BranchInst, bri)
        if not br.is_conditional:
            continue
        cond = br.condition
        if not isinstance(cond, ICmpInst) or cond.lhs is not x:
            continue
        dom_c = apint(cond.rhs)
        if dom_c is None:
            continue
        src = br.parent
        s0, s1 = br.successors
        if _edge_dominates(ic, src, s0, bb):
            r = handle(cond.predicate, dom_c)
            if r is not None:
                return r
        else:
            if _edge_dominates(ic, src, s1, bb):
                r = handle(cond.predicate.inverse, dom_c)
                if r is not None:
                    return r
    return None


def _demanded_bits_lhs_mask(i: ICmpInst, w: int) -> int:
    rhs = apint(i.rhs)
    full = (1 << w) - 1
    if rhs is None:
        return full
    if is_sign_bit_check(i.predicate, rhs, w) is not None:
        return 1 << (w - 1)
    if i.predicate == P.ICMP_UGT:
        n = _countr_one(rhs, w)
        return full & ~((1 << n) - 1)
    if i.predicate == P.ICMP_ULT:
        n = _countr_zero(rhs, w)
        return full & ~((1 << n) - 1)
    return full


def _countr_zero(v: int, w: int) -> int:
    if v == 0:
        return w
    return (v & -v).bit_length() - 1


def _countr_one(v: int, w: int) -> int:
    return _countr_zero(~v & ((1 << w) - 1), w)


def _ceil_log2(v: int) -> int:
    """APInt ``ceilLogBase2`` (of 0: the width, but callers pass non-zero... as LLVM, 0 -> -1 wrap)."""
    return (v - 1).bit_length()


def _is_min_max_cmp(i: ICmpInst, op0: Value, op1: Value) -> bool:
    if not i.has_one_use:
        return False
    flavor = match_select_pattern(next(iter(i.users)))[0]
    if flavor not in ("smin", "smax", "umin", "umax"):
        return False
    return pm.matches(op0, _MAX_OR_MIN) or pm.matches(op1, _MAX_OR_MIN)


def _known_via_demanded(ic: InstCombiner, i: ICmpInst, op_num: int, mask: int, w: int) -> KnownBits | None:
    """``SimplifyDemandedBits(&I, OpNo, Mask, Known, 0, Q)`` with LLVM's query without the
    dominating-condition cache: None when the operand changed."""
    from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
    from llvmpy_mid.transform.instcombine.simplify_demanded import simplify_demanded_bits

    q = ic.sq.get_without_dom_cond_cache().get_with_instruction(i)
    known = KnownBits(w)
    if simplify_demanded_bits(ic, i, op_num, mask, known, 0, q):
        return None
    if known.is_unknown():
        # a demanded-bits engine that does not report what it knows: ask value tracking
        known = compute_known_bits(i.operands[op_num], q, 0)
    return known


def fold_icmp_using_known_bits(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """Decide or narrow the compare from the known bits of both operands."""
    op0 = i.lhs
    op1 = i.rhs
    ty = op0.type
    if ty.is_int_or_int_vector:
        w = scalar_width(ty)
    else:
        w = ic.dl.pointer_type_size_in_bits(ty.scalar_type)
    if not w:
        return None
    k0 = _known_via_demanded(ic, i, 0, _demanded_bits_lhs_mask(i, w), w)
    if k0 is None:
        return i
    k1 = _known_via_demanded(ic, i, 1, (1 << w) - 1, w)
    if k1 is None:
        return i
    op0 = i.lhs
    op1 = i.rhs
    pred = i.predicate
    signed = pred.is_signed
    if signed:
        min0, max0 = to_signed(k0.get_signed_min_value(), w), to_signed(k0.get_signed_max_value(), w)
        min1, max1 = to_signed(k1.get_signed_min_value(), w), to_signed(k1.get_signed_max_value(), w)
    else:
        min0, max0 = k0.get_min_value(), k0.get_max_value()
        min1, max1 = k1.get_min_value(), k1.get_max_value()
    mask = (1 << w) - 1
    if not isinstance(op0, Constant) and min0 == max0:
        return ICmpInst(pred, _integer_value(ty, min0 & mask, ic), op1)
    if not isinstance(op1, Constant) and min1 == max1:
        return ICmpInst(pred, op0, _integer_value(ty, min1 & mask, ic))

    if not _is_min_max_cmp(i, op0, op1):
        cmp_c = apint(op1)
        if pred == P.ICMP_ULT:
            if min1 == max0:
                return ICmpInst(P.ICMP_NE, op0, op1)
            if cmp_c is not None:
                if cmp_c == (min0 + 1) & mask:
                    return ICmpInst(P.ICMP_EQ, op0, ConstantInt_get(op1.type, cmp_c - 1))
                if k0.count_min_trailing_zeros() >= _ceil_log2(cmp_c):
                    return ICmpInst(P.ICMP_EQ, op0, Constant.get_null_value(op1.type))
        elif pred == P.ICMP_UGT:
            if max1 == min0:
                return ICmpInst(P.ICMP_NE, op0, op1)
            if cmp_c is not None:
                if cmp_c == (max0 - 1) & mask:
                    return ICmpInst(P.ICMP_EQ, op0, ConstantInt_get(op1.type, cmp_c + 1))
                if k0.count_min_trailing_zeros() >= cmp_c.bit_length():
                    return ICmpInst(P.ICMP_NE, op0, Constant.get_null_value(op1.type))
        elif pred == P.ICMP_SLT:
            if min1 == max0:
                return ICmpInst(P.ICMP_NE, op0, op1)
            if cmp_c is not None and cmp_c == (min0 + 1) & mask:
                return ICmpInst(P.ICMP_EQ, op0, ConstantInt_get(op1.type, cmp_c - 1))
        elif pred == P.ICMP_SGT:
            if max1 == min0:
                return ICmpInst(P.ICMP_NE, op0, op1)
            if cmp_c is not None and cmp_c == (max0 - 1) & mask:
                return ICmpInst(P.ICMP_EQ, op0, ConstantInt_get(op1.type, cmp_c + 1))

    true = ConstantInt_get(i.type, 1)
    false = ConstantInt_get(i.type, 0)
    if pred == P.ICMP_EQ or pred == P.ICMP_NE:
        if max0 < min1 or min0 > max1:
            return ic.replace_inst_uses_with(i, true if pred == P.ICMP_NE else false)
        zero_inv = ~k0.zero & mask
        if k1.is_zero():
            lhs: Value = op0
            m = pm.match(op0, _AND_X_C)
            if m is None or m.c != zero_inv:
                lhs = op0
            else:
                lhs = m.x
            m2 = pm.match(lhs, _SHL_POW2_X)
            c1v = apint(cast(Value, m2.c)) if m2 is not None else None
            if m2 is not None and c1v is not None:
                c1 = c1v
                xv = cast(Value, m2.x)
                log2c1 = _countr_zero(c1, w)
                c2 = zero_inv
                c2pow2 = ((c2 & ~(c1 - 1)) + c1) & mask
                if c2pow2 and c2pow2 & (c2pow2 - 1) == 0:
                    log2c2 = _countr_zero(c2pow2, w)
                    new_pred = P.ICMP_UGE if pred == P.ICMP_EQ else P.ICMP_ULT
                    return ICmpInst(new_pred, xv, int_const(xv.type, log2c2 - log2c1))
        if k1.is_constant():
            kc = k1.get_constant()
            if kc and kc & (kc - 1) == 0 and (k0 & k1) == k0:
                return ICmpInst(pred.inverse, op0, Constant.get_null_value(op1.type))
    elif pred == P.ICMP_ULT or pred == P.ICMP_SLT:
        if max0 < min1:
            return ic.replace_inst_uses_with(i, true)
        if min0 >= max1:
            return ic.replace_inst_uses_with(i, false)
    elif pred == P.ICMP_UGT or pred == P.ICMP_SGT:
        if min0 > max1:
            return ic.replace_inst_uses_with(i, true)
        if max0 <= min1:
            return ic.replace_inst_uses_with(i, false)
    elif pred == P.ICMP_SGE or pred == P.ICMP_UGE:
        if min0 >= max1:
            return ic.replace_inst_uses_with(i, true)
        if max0 < min1:
            return ic.replace_inst_uses_with(i, false)
        if min1 == max0:
            return ICmpInst(P.ICMP_EQ, op0, op1)
    else:  # SLE, ULE
        if max0 <= min1:
            return ic.replace_inst_uses_with(i, true)
        if min0 > max1:
            return ic.replace_inst_uses_with(i, false)
        if max1 == min0:
            return ICmpInst(P.ICMP_EQ, op0, op1)

    sign = 1 << (w - 1)
    if signed and ((k0.zero & sign and k1.zero & sign) or (k0.one & sign and k1.one & sign)):
        return ICmpInst(pred.unsigned, op0, op1)
    return None


def ConstantInt_get(ty: Type, v: int) -> Constant:  # noqa: N802 - LLVM's spelling
    """``ConstantInt::get(Ty, V)`` with V wrapped to the width (vector types splat)."""
    return int_const(ty, v)


def _integer_value(ty: Type, v: int, ic: InstCombiner) -> Constant:
    """``ConstantExpr::getIntegerValue``: an integer, or ``inttoptr`` of one for pointers."""
    if ty.is_int_or_int_vector:
        return int_const(ty, v)
    ity = ic.dl.int_ptr_type(ty)
    return ConstantExpr.get_cast("inttoptr", int_const(ity, v), ty)


def fold_icmp_using_bool_range(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """Compares with a zext/sext of an i1: X <u zext(Y) -> (X == 0) & Y, and friends."""
    pred = i.predicate
    for ext_op, want, logic in (("zext", P.ICMP_ULT, "and"), ("sext", P.ICMP_ULE, "or")):
        # m_c_ICmp(Pred, m_Value(X), m_OneUse(m_ZExt/SExt(m_Value(Y)))): the first order that matches binds
        rhs = i.rhs
        lhs = i.lhs
        if isinstance(rhs, Instruction) and rhs.opcode == ext_op and rhs.has_one_use:
            x, y, p = lhs, rhs.operands[0], pred
        elif isinstance(lhs, Instruction) and lhs.opcode == ext_op and lhs.has_one_use:
            x, y, p = rhs, lhs.operands[0], pred.swapped
        else:
            continue
        if _is_bool(y.type) and p == want:
            return BinaryOperator.create(logic, ic.builder.create_is_null(x), y)
    # icmp eq/ne X, (zext/sext (icmp eq/ne X, C))
    for x, ext in ((i.lhs, i.rhs), (i.rhs, i.lhs)):
        p1 = pred if x is i.lhs else pred.swapped
        if not isinstance(ext, Instruction) or ext.opcode not in ("zext", "sext"):
            continue
        inner = ext.operands[0]
        if not isinstance(inner, ICmpInst) or inner.lhs is not x:
            continue
        cval = apint(inner.rhs)
        if cval is None:
            continue
        p2 = inner.predicate
        if not (p1.is_equality and p2.is_equality):
            continue
        w = scalar_width(x.type)
        is_sext = ext.opcode == "sext"
        one_use = ext.has_one_use and inner.has_one_use
        ones = (1 << w) - 1

        def range_check() -> Instruction:
            v1 = ic.builder.create_icmp(p1, x, Constant.get_null_value(x.type))
            v2 = ic.builder.create_icmp(p1, x, int_const(x.type, -1 if is_sext else 1))
            return BinaryOperator.create("or" if p1 == P.ICMP_EQ else "and", v1, v2)

        if cval == 0:
            if p2 == P.ICMP_EQ:
                return ic.replace_inst_uses_with(i, ConstantInt_get(i.type, int(p1 == P.ICMP_NE)))
            if not is_sext or one_use:
                return range_check()
        elif cval == (ones if is_sext else 1):
            if p2 == P.ICMP_NE:
                return ic.replace_inst_uses_with(i, ConstantInt_get(i.type, int(p1 == P.ICMP_NE)))
            if not is_sext or one_use:
                return range_check()
        else:
            k = (-1 if is_sext else 1) if p2 == P.ICMP_NE else 0
            return ICmpInst(p1, x, int_const(x.type, k))
        return None
    return None


def _is_bool(ty: Type) -> bool:
    return scalar_width(ty) == 1 and ty.is_int_or_int_vector


def fold_irem_by_power_of_two_to_bit_test(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """(X irem Y) ==/!= 0 with Y a power of two (or zero) -> (X & (Y - 1)) ==/!= 0."""
    if not i.is_equality:
        return None
    op0 = i.lhs
    if not (isinstance(op0, Instruction) and op0.opcode in ("urem", "srem") and op0.has_one_use):
        return None
    zero = i.rhs
    if not pm.matches(zero, _ZERO):
        return None
    x, y = op0.operands
    if not ic.is_known_to_be_a_power_of_two(y, True, 0, i):
        return None
    mask = ic.builder.create_add(y, Constant.get_all_ones_value(y.type))
    masked = ic.builder.create_and(x, mask)
    return ICmpInst(i.predicate, masked, zero)


def fold_icmp_with_zero(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp pred X, 0 with X an smin, irem, urem or mul."""
    pred = i.predicate
    zero = i.rhs
    if not pm.matches(zero, _ZERO):
        return None
    op0 = i.lhs
    q = ic.query(i)
    if pred == P.ICMP_SGT:
        m = pm.match(op0, _SMIN_AB)
        if m is not None:
            if is_known_positive(m.a, q):
                return ICmpInst(pred, m.b, zero)
            if is_known_positive(m.b, q):
                return ICmpInst(pred, m.a, zero)
    r = fold_irem_by_power_of_two_to_bit_test(ic, i)
    if r is not None:
        return r
    if pred.is_equality and isinstance(op0, Instruction) and op0.opcode == "urem":
        x, y = op0.operands
        xk = ic.compute_known_bits(x, 0, i)
        yk = ic.compute_known_bits(y, 0, i)
        if xk.count_max_population() == 1 and yk.count_min_population() >= 2:
            return ICmpInst(pred, x, zero)
    if pred.is_equality and isinstance(op0, BinaryOperator) and op0.opcode == "mul":
        x, y = op0.operands
        xk = ic.compute_known_bits(x, 0, i)
        if xk.count_max_trailing_zeros() == 0:
            return ICmpInst(pred, y, zero)
        yk = ic.compute_known_bits(y, 0, i)
        if yk.count_max_trailing_zeros() == 0:
            return ICmpInst(pred, x, zero)
        if op0.nuw or op0.nsw:
            if xk.one or is_known_non_zero(x, q):
                return ICmpInst(pred, y, zero)
            if yk.one or is_known_non_zero(y, q):
                return ICmpInst(pred, x, zero)
    return None


def fold_sign_bit_test(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """(trunc?(X >> (bw-1))) ==/!= 0 -> X s>= 0 / X s< 0."""
    if not i.is_equality or not pm.matches(i.rhs, _ZERO):
        return None
    val = i.lhs
    if not isinstance(val, Instruction):
        return None
    inner: Value = val
    if val.opcode == "trunc":
        inner = val.operands[0]
    x: Value | None = None
    if isinstance(inner, (Instruction, ConstantExpr)) and inner.opcode in ("lshr", "ashr") and isinstance(inner.operands[1], Constant):
        xx = inner.operands[0]
        xw = scalar_width(xx.type)
        if not _all_lanes_equal(inner.operands[1], xw - 1):
            return None
        x = xx
    else:
        return None
    pred = P.ICMP_SGE if i.predicate == P.ICMP_EQ else P.ICMP_SLT
    return ICmpInst(pred, x, Constant.get_null_value(x.type))


def _all_lanes_equal(c: Value, want: int) -> bool:
    """``m_SpecificInt_ICMP(EQ, want)``: every lane (poison allowed) equals ``want``."""
    return pm.matches(c, pm.m_cst_pred(lambda k: cast(ConstantInt, k).value == want))


def fold_icmp_with_select_operands(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp (select C, A, B), (select C, D, E) with one side's compare simplifying."""
    op0 = i.lhs
    op1 = i.rhs
    if not (isinstance(op0, SelectInst) and isinstance(op1, SelectInst)):
        return None
    cond = op0.condition
    if op1.condition is not cond or not (op0.has_one_use or op1.has_one_use):
        return None
    a, b = op0.true_value, op0.false_value
    c, d = op1.true_value, op1.false_value
    pred = i.predicate
    res = simplify_icmp_inst(pred, a, c, ic.sq)
    if res is not None:
        new = ic.builder.create_icmp(pred, b, d)
        return SelectInst(cond, res, new)
    res = simplify_icmp_inst(pred, b, d, ic.sq)
    if res is not None:
        new = ic.builder.create_icmp(pred, a, c)
        return SelectInst(cond, new, res)
    return None


# --- patterns ------------------------------------------------------------------------------------

_ZERO = pm.m_zero()
_ZERO_INT = pm.m_zero_int()
_ALL_ONES = pm.m_all_ones()
_UNDEF = pm.m_undef()
_ONE = pm.m_one()
_MAX_OR_MIN = pm.m_max_or_min(pm.m_value(), pm.m_value())
_SMIN_AB = pm.m_smin(pm.m_value("a"), pm.m_value("b"))
_AND_X_C = pm.m_and(pm.m_value("x"), pm.m_apint("c"))
_SHL_POW2_X = pm.m_shl(pm.m_power2("c"), pm.m_value("x"))
_SELECT = pm.m_select(pm.m_value("c"), pm.m_value("t"), pm.m_value("f"))
_AND_X_NOT_Y = pm.m_and(pm.m_value("x"), pm.m_not(pm.m_value("y")))


def _is_neutral_value(op: str, rhs: Value, signed: bool) -> bool:
    """``isNeutralValue``: X op RHS is X (0 for add/sub; 1 for mul, except signed i1 where 1 is -1)."""
    if op in ("add", "sub"):
        return pm.matches(rhs, _ZERO)
    is_i1 = rhs.type.scalar_type.is_integer and rhs.type.scalar_type.width == 1  # type: ignore[attr-defined]
    return not (is_i1 and signed) and pm.matches(rhs, _ONE)


def compute_overflow(ic: InstCombiner, op: str, signed: bool, lhs: Value, rhs: Value, cxt_i: Instruction) -> OverflowResult:
    """``computeOverflow``: the overflow of ``lhs op rhs`` (add, sub or mul) from value tracking."""
    if op == "add":
        return ic.compute_overflow_for_signed_add(lhs, rhs, cxt_i) if signed else ic.compute_overflow_for_unsigned_add(lhs, rhs, cxt_i)
    if op == "sub":
        return ic.compute_overflow_for_signed_sub(lhs, rhs, cxt_i) if signed else ic.compute_overflow_for_unsigned_sub(lhs, rhs, cxt_i)
    return ic.compute_overflow_for_signed_mul(lhs, rhs, cxt_i) if signed else ic.compute_overflow_for_unsigned_mul(lhs, rhs, cxt_i)


def optimize_overflow_check(
    ic: InstCombiner, op: str, signed: bool, lhs: Value, rhs: Value, orig: Instruction
) -> tuple[Value, Constant] | None:
    """``OptimizeOverflowCheck``: (result, overflow bit) of ``lhs op rhs`` when the overflow is
    known -- never (the operation gets nuw/nsw), always, or ``rhs`` is neutral; else None."""
    if orig.is_commutative and isinstance(lhs, Constant) and not isinstance(rhs, Constant):
        lhs, rhs = rhs, lhs
    ic.builder.position_before(orig)
    ic.builder.debug_loc = orig.debug_loc
    ctx = lhs.type.context
    ovf_ty: Type = ctx.int_type(1)
    if isinstance(lhs.type, VectorType):
        ovf_ty = ctx.vector_type(ovf_ty, lhs.type.count, lhs.type.scalable)
    false = common.get_int_constant(ovf_ty, 0)
    if _is_neutral_value(op, rhs, signed):
        return lhs, false
    kind = compute_overflow(ic, op, signed, lhs, rhs, orig)
    if kind is OverflowResult.MAY_OVERFLOW:
        return None
    result = ic.builder.create_bin_op(op, lhs, rhs)
    from llvmpy_mid.transform.instcombine.combiner import take_name

    take_name(result, orig)
    if kind is not OverflowResult.NEVER_OVERFLOWS:
        return result, common.get_int_constant(ovf_ty, 1)
    if isinstance(result, Instruction):
        if signed:
            result.nsw = True  # type: ignore[attr-defined]
        else:
            result.nuw = True  # type: ignore[attr-defined]
    return result, false


class _CmpCaptureTracker(CaptureTracker):
    """Equality compares of pointers based only on the alloca are not captures: they are
    collected with the operand positions the alloca takes (bit 0: lhs, bit 1: rhs)."""

    def __init__(self, alloca: Value) -> None:
        self.alloca = alloca
        self.is_captured = False
        self.icmps: dict[ICmpInst, int] = {}

    def too_many_uses(self) -> None:
        self.is_captured = True

    def captured(self, use: Use) -> bool:
        user = use.user
        if isinstance(user, ICmpInst) and user.is_equality and get_underlying_object(use.value) is self.alloca:
            self.icmps[user] = self.icmps.get(user, 0) | (1 << use.index)
            return False
        self.is_captured = True
        return True


def fold_alloca_cmp(ic: InstCombiner, alloca: Value) -> bool:
    """A non-escaping alloca's address cannot be guessed: each equality compare of it with
    a value not based on it is false (ne: true), all folded at once (LLVM ``foldAllocaCmp``)."""
    tracker = _CmpCaptureTracker(alloca)
    pointer_may_be_captured_by(alloca, tracker)
    if tracker.is_captured:
        return False
    changed = False
    for cmp, sides in tracker.icmps.items():
        if sides == 3:  # both sides based on the alloca: an offset compare, nothing leaks
            continue
        ic.replace_inst_uses_with(cmp, ConstantInt.get(cmp.type, 1 if cmp.predicate is Predicate.ICMP_NE else 0))
        ic.erase_inst_from_function(cmp)
        changed = True
    return changed


def visit_icmp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``visitICmpInst``: the icmp folds in LLVM's order."""
    assert isinstance(i, ICmpInst)
    changed = False
    op0 = i.lhs
    op1 = i.rhs
    if common.get_complexity(op0) < common.get_complexity(op1):
        i.swap_operands()
        op0, op1 = op1, op0
        changed = True
    q = ic.query(i)
    v = simplify_icmp_inst(i.predicate, op0, op1, q)
    if v is not None:
        return ic.replace_inst_uses_with(i, v)

    # abs-like select != 0 -> val != 0
    if i.predicate == P.ICMP_NE and pm.matches(op1, _ZERO):
        m = pm.match(op0, _SELECT)
        if m is not None:
            st = cast(Value, m.t)
            sf = cast(Value, m.f)
            nv = common.dyn_cast_neg_val(st)
            if nv is not None:
                if nv is sf:
                    return ICmpInst(i.predicate, nv, op1)
            else:
                nv = common.dyn_cast_neg_val(sf)
                if nv is not None and nv is st:
                    return ICmpInst(i.predicate, nv, op1)

    if _is_bool(op0.type):
        r = canonicalize_icmp_bool(ic, i)
        if r is not None:
            return r
    for fold in (canonicalize_cmp_with_constant,):
        r = fold(i)
        if r is not None:
            return r
    r = canonicalize_icmp_predicate(ic, i)
    if r is not None:
        return r
    r = fold_icmp_with_constant(ic, i)
    if r is not None:
        return r
    r = fold_icmp_with_dominating_icmp(ic, i)
    if r is not None:
        return r
    r = fold_icmp_using_bool_range(ic, i)
    if r is not None:
        return r
    r = fold_icmp_using_known_bits(ic, i)
    if r is not None:
        return r
    r = compares_cast.fold_icmp_trunc_with_trunc_or_ext(ic, i)
    if r is not None:
        return r

    # leave the compare of a min/max/abs select idiom alone
    if i.has_one_use:
        user = next(iter(i.users))
        if isinstance(user, SelectInst) and match_select_pattern(user)[0] != UNKNOWN:
            return None

    r = fold_icmp_with_zero(ic, i)
    if r is not None:
        return r

    op0 = i.lhs
    op1 = i.rhs
    pred = i.predicate
    c = apint(op1)
    if c is not None:
        w = scalar_width(op0.type)
        if pred == P.ICMP_UGT and c == (1 << (w - 1)) - 1:
            return ICmpInst(P.ICMP_SLT, op0, Constant.get_null_value(op0.type))
        if pred == P.ICMP_ULT and c == 1 << (w - 1):
            return ICmpInst(P.ICMP_SGT, op0, Constant.get_all_ones_value(op0.type))

    r = compares_binop.fold_icmp_binop(ic, i)
    if r is not None:
        return r
    r = compares_const.fold_icmp_inst_with_constant(ic, i)
    if r is not None:
        return r
    r = fold_sign_bit_test(ic, i)
    if r is not None:
        return r
    r = compares_const.fold_icmp_inst_with_constant_not_int(ic, i)
    if r is not None:
        return r
    r = compares_binop.fold_icmp_commutative(ic, i.predicate, i.lhs, i.rhs, i)
    if r is not None:
        return r
    r = compares_binop.fold_icmp_commutative(ic, i.predicate.swapped, i.rhs, i.lhs, i)
    if r is not None:
        return r
    if i.is_commutative:
        pair = common.match_symmetric_pair(i.lhs, i.rhs)
        if pair is not None:
            ic.replace_operand(i, 0, pair[0])
            ic.replace_operand(i, 1, pair[1])
            return i
    r = fold_icmp_with_select_operands(ic, i)
    if r is not None:
        return r
    if i.is_equality and i.lhs.type.is_pointer:
        from llvmpy_mid.ir.instructions.memory import AllocaInst

        for side in (i.lhs, i.rhs):
            base = get_underlying_object(side)
            if isinstance(base, AllocaInst) and fold_alloca_cmp(ic, base):
                return None
    r = compares_cast.fold_icmp_bitcast(ic, i)
    if r is not None:
        return r
    r = compares_cast.fold_icmp_with_cast_op(ic, i)
    if r is not None:
        return r

    op0 = i.lhs
    op1 = i.rhs
    pred = i.predicate
    m = pm.match(op0, _AND_X_NOT_Y)
    if m is not None and pm.matches(op1, _ZERO) and i.is_equality and ic.is_known_to_be_a_power_of_two(m.x, False, 0, i):
        return ICmpInst(i.inverse_predicate, ic.builder.create_and(m.x, m.y), op1)

    if op0.type.is_int_or_int_vector:
        c0: list[bool] = [False]
        c1: list[bool] = [False]
        if (
            common.is_free_to_invert(ic, op0, op0.has_one_use, c0)
            and common.is_free_to_invert(ic, op1, op1.has_one_use, c1)
            and (c0[0] or c1[0])
        ):
            inv0 = common.get_freely_inverted(ic, op0, op0.has_one_use, ic.builder)
            inv1 = common.get_freely_inverted(ic, op1, op1.has_one_use, ic.builder)
            assert inv0 is not None and inv1 is not None
            return ICmpInst(i.swapped_predicate, inv0, inv1)

    r = fold_icmp_uadd_overflow_check(ic, i)
    if r is not None:
        return r
    op0 = i.lhs
    if isinstance(op0, BinaryOperator) and op0.opcode == "mul" and op0.nuw and _is_zext_inst(op0.lhs) and _is_zext_inst(op0.rhs):
        c = apint(i.rhs)
        if c is not None:
            r = process_umul_zext_idiom(ic, i, op0, c)
            if r is not None:
                return r
    op1 = i.rhs
    pred = i.predicate

    # Signbit test folds: (X u>> bw-1) pred zext(i1 Y) -> (X s< 0) pred Y
    if (pred.is_unsigned or pred.is_equality) and isinstance(op1, Instruction) and op1.opcode in ("zext", "sext"):
        y = op1.operands[0]
        if scalar_width(y.type) == 1 and (op0.has_one_use or op1.has_one_use):
            w = scalar_width(op0.type)
            if isinstance(op0, Instruction) and op0.opcode in ("lshr", "ashr") and _all_lanes_equal(op0.operands[1], w - 1):
                if (op1.opcode == "zext" and op0.opcode == "lshr") or (op1.opcode == "sext" and op0.opcode == "ashr"):
                    x = op0.operands[0]
                    slt = ic.builder.create_icmp(P.ICMP_SLT, x, Constant.get_null_value(x.type))
                    new = ic.builder.create_icmp(pred, slt, y, i.name)
                    return ic.replace_inst_uses_with(i, new)

    r = compares_binop.fold_icmp_equality(ic, i)
    if r is not None:
        return r
    r = compares_binop.fold_icmp_pow2_test(ic, i)
    if r is not None:
        return r
    r = fold_icmp_of_uadd_ov(i)
    if r is not None:
        return r
    op0, op1 = i.lhs, i.rhs
    if i.predicate == P.ICMP_EQ and isinstance(op0, ExtractValueInst):
        agg = op0.aggregate_operand
        if isinstance(agg, AtomicCmpXchgInst) and list(op0.indices)[0] == 0 and agg.compare_operand is op1 and not agg.weak:
            return ExtractValueInst(agg, [1])
    r = fold_icmp_with_high_bit_mask(ic, i)
    if r is not None:
        return r
    if isinstance(i.type, VectorType):
        r = fold_vector_cmp(ic, i)
        if r is not None:
            return r
    r = fold_icmp_invariant_group(i)
    if r is not None:
        return r
    r = fold_reduction_idiom(ic, i)
    if r is not None:
        return r
    return i if changed else None


def fold_icmp_of_uadd_ov(i: ICmpInst) -> Instruction | None:
    """icmp of the value of uadd.with.overflow against an operand -> its overflow bit."""
    op0, op1 = i.lhs, i.rhs
    pred = i.predicate

    def uadd_parts(v: Value) -> tuple[Value, Value, Value] | None:
        if isinstance(v, ExtractValueInst) and list(v.indices) == [0]:
            agg = v.aggregate_operand
            if isinstance(agg, CallInst) and agg.intrinsic_base == "llvm.uadd.with.overflow":
                return agg.args[0], agg.args[1], agg
        return None

    p0 = uadd_parts(op0)
    if p0 is not None:
        a, b, agg = p0
        if (
            (pred == P.ICMP_ULT and (op1 is a or op1 is b))
            or (pred == P.ICMP_EQ and pm.matches(op1, _ZERO_INT) and (pm.matches(a, _ONE) or pm.matches(b, _ONE)))
            or (pred == P.ICMP_NE and pm.matches(op1, _ALL_ONES) and (pm.matches(a, _ALL_ONES) or pm.matches(b, _ALL_ONES)))
        ):
            return ExtractValueInst(agg, [1])
    p1 = uadd_parts(op1)
    if p1 is not None and pred == P.ICMP_UGT and (op0 is p1[0] or op0 is p1[1]):
        return ExtractValueInst(p1[2], [1])
    return None


def fold_icmp_with_high_bit_mask(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """(1 << Y) u<= X -> (X >> Y) != 0, and the ~(-1 << Y) / (1 << Y) - 1 forms."""
    pred = i.predicate

    def is_shl_one(v: Value) -> Value | None:
        if isinstance(v, (Instruction, ConstantExpr)) and v.opcode == "shl" and pm.matches(v.operands[0], _ONE):
            return v.operands[1]
        return None

    def is_low_mask(v: Value) -> Value | None:
        if not isinstance(v, (Instruction, ConstantExpr)):
            return None
        if v.opcode == "xor":
            for a, b in ((v.operands[0], v.operands[1]), (v.operands[1], v.operands[0])):
                if pm.matches(b, _ALL_ONES) and isinstance(a, (Instruction, ConstantExpr)) and a.opcode == "shl" and pm.matches(a.operands[0], _ALL_ONES):
                    return a.operands[1]
        if v.opcode == "add" and pm.matches(v.operands[1], _ALL_ONES):
            return is_shl_one(v.operands[0])
        return None

    y: Value | None = None
    x: Value | None = None
    new_pred: Predicate | None = None
    for a, b, p in ((i.lhs, i.rhs, pred), (i.rhs, i.lhs, pred.swapped)):
        if a.has_one_use and is_shl_one(a) is not None:
            y, x = is_shl_one(a), b
            new_pred = {P.ICMP_ULE: P.ICMP_NE, P.ICMP_UGT: P.ICMP_EQ}.get(p)
            if new_pred is None:
                return None
            break
    else:
        for a, b, p in ((i.lhs, i.rhs, pred), (i.rhs, i.lhs, pred.swapped)):
            if a.has_one_use and is_low_mask(a) is not None:
                y, x = is_low_mask(a), b
                new_pred = {P.ICMP_ULT: P.ICMP_NE, P.ICMP_UGE: P.ICMP_EQ}.get(p)
                if new_pred is None:
                    return None
                break
    if x is None or y is None or new_pred is None:
        return None
    nx = ic.builder.create_lshr(x, y, x.name + ".highbits")
    return ICmpInst(new_pred, nx, Constant.get_null_value(nx.type))


def _create_cmp(ic: InstCombiner, i: CmpInst, a: Value, b: Value) -> Value:
    """``Builder.CreateCmp(Pred, A, B)`` of ``i``'s kind (no flags copied)."""
    if isinstance(i, ICmpInst):
        return ic.builder.create_icmp(i.predicate, a, b)
    return ic.builder.create_fcmp(i.predicate, a, b)


def fold_vector_cmp(ic: InstCombiner, i: CmpInst) -> Instruction | None:
    """cmp (shuffle V1, M), (shuffle V2, M) -> shuffle (cmp V1, V2), M; cmp of a splat shuffle
    with a splat constant; (the vector.reverse forms are not done)."""
    from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
    from llvmpy_mid.ir.constants import PoisonValue

    lhs, rhs = i.lhs, i.rhs
    if not (isinstance(lhs, ShuffleVectorInst) and pm.matches(lhs.operands[1], _UNDEF)):
        return None
    v1 = lhs.operands[0]
    m = lhs.mask
    if (
        isinstance(rhs, ShuffleVectorInst)
        and pm.matches(rhs.operands[1], _UNDEF)
        and tuple(rhs.mask) == tuple(m)
        and rhs.operands[0].type is v1.type
        and (lhs.has_one_use or rhs.has_one_use)
    ):
        nc = _create_cmp(ic, i, v1, rhs.operands[0])
        return ShuffleVectorInst(nc, PoisonValue.get(nc.type), m)
    if not lhs.has_one_use or not isinstance(rhs, Constant):
        return None
    scalar = get_splat_value(rhs, True)
    first = next((k for k in m if k >= 0), None)
    if scalar is not None and first is not None and all(k == first or k < 0 for k in m):
        v1t = v1.type
        assert isinstance(v1t, VectorType)
        c = ConstantVector.get_splat(v1t, scalar)
        nc = _create_cmp(ic, i, v1, c)
        return ShuffleVectorInst(nc, PoisonValue.get(nc.type), [first] * len(m))
    return None


def fold_icmp_invariant_group(i: ICmpInst) -> Instruction | None:
    """icmp (launder/strip.invariant.group P), null -> icmp P, null."""
    from llvmpy_mid.ir.function import null_pointer_is_defined
    from llvmpy_mid.ir.types import PointerType

    op0 = i.lhs
    t = op0.type
    if not isinstance(t, PointerType) or null_pointer_is_defined(i.function, t.address_space):
        return None
    if (
        isinstance(op0, CallInst)
        and op0.intrinsic_base in ("llvm.launder.invariant.group", "llvm.strip.invariant.group")
        and pm.matches(i.rhs, _ZERO)
    ):
        return ICmpInst(i.predicate, op0.args[0], i.rhs)
    return None


def fold_reduction_idiom(ic: InstCombiner, i: ICmpInst) -> Instruction | None:
    """icmp eq/ne (bitcast (icmp ne <N x iK> L, R) to iN), 0 -> icmp eq/ne (bitcast L), (bitcast R)."""
    if isinstance(i.type, VectorType):
        return None
    op0 = i.lhs
    if not (isinstance(op0, Instruction) and op0.opcode == "bitcast" and op0.has_one_use and pm.matches(i.rhs, _ZERO)):
        return None
    inner = op0.operands[0]
    if not (isinstance(inner, ICmpInst) and inner.has_one_use):
        return None
    lhs, rhs = inner.lhs, inner.rhs
    lt = lhs.type
    if not isinstance(lt, VectorType) or lt.scalable or not isinstance(lt.element_type, IntegerType):
        return None
    nbits = lt.count * lt.element_type.width
    if not ic.dl.is_legal_integer(nbits):
        return None
    if i.predicate.is_equality and inner.predicate == P.ICMP_NE:
        sty = lt.context.int_type(nbits)
        l2 = ic.builder.create_cast("bitcast", lhs, sty, lhs.name + ".scalar")
        r2 = ic.builder.create_cast("bitcast", rhs, sty, rhs.name + ".scalar")
        return ICmpInst(i.predicate, l2, r2, name=i.name)
    return None


def visit_fcmp(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``visitFCmpInst`` (in :mod:`compares_fp`)."""
    return compares_fp.visit_fcmp(ic, i)


__all__ = [
    "visit_icmp",
    "visit_fcmp",
    "get_flipped_strictness_predicate_and_constant",
    "is_sign_bit_check",
]
