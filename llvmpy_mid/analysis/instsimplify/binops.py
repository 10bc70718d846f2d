"""Integer binary operators of InstructionSimplify (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``: ``simplifyAddInst`` ...
``simplifyXorInst``, the reassociation, distribution and select/phi threading
helpers, and ``simplifyBinOp``, the dispatch on the opcode); ``and``/``or``/
``xor`` live in :mod:`~llvmpy_mid.analysis.instsimplify.logic`.

Each ``simplify_<op>`` returns a value already in the program (an operand, a
constant, or an existing instruction) that the operation equals, or None; it
never creates an instruction. ``max_recurse`` bounds the recursion as LLVM's
``MaxRecurse`` does (it starts at :data:`RECURSION_LIMIT`).
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.instsimplify import _util as u
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, PoisonValue, get_splat_value
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.types import VectorType
from llvmpy_mid.ir.value import Value

import llvmpy_mid.analysis.instsimplify.logic as _logic

RECURSION_LIMIT = u.RECURSION_LIMIT

_COMMUTATIVE = frozenset(("add", "mul", "and", "or", "xor", "fadd", "fmul"))
_ASSOCIATIVE = frozenset(("add", "mul", "and", "or", "xor"))
_FP_OPS = frozenset(("fadd", "fsub", "fmul", "fdiv", "frem"))


# --- operand order, constants, threading ----------------------------------------------------------


def fold_or_commute_constant(opcode: str, op0: Value, op1: Value, q: SimplifyQuery) -> tuple[Constant | None, Value, Value]:
    """Both constants: the folded constant. One constant on the left of a
    commutative operation: the operands swapped (LLVM ``foldOrCommuteConstant``)."""
    if isinstance(op0, Constant):
        if isinstance(op1, Constant):
            if opcode in _FP_OPS and q.cxt_i is not None:
                fold_fp = u.constant_folding("constant_fold_fp_inst_operands")
                if fold_fp is not None:
                    r: Constant | None = fold_fp(opcode, op0, op1, q.dl, q.cxt_i)
                    return r, op0, op1
            return u.fold_binop(opcode, op0, op1, q), op0, op1
        if opcode in _COMMUTATIVE:
            return None, op1, op0
    return None, op0, op1


def _value_dominates_phi(v: Value, phi: PHINode, q: SimplifyQuery) -> bool:
    """``v`` is available at the phi (LLVM ``valueDominatesPHI``)."""
    if not isinstance(v, Instruction):
        return True
    if q.dt is not None:
        return q.dt.dominates(v, phi)
    bb = v.parent
    fn = bb.parent if bb is not None else None
    if bb is not None and fn is not None and fn.entry_block is bb and v.opcode not in ("invoke", "callbr"):
        return True
    return False


def expand_binop(opcode: str, v: Value, other: Value, to_expand: str, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """``(B0 op' B1) op other`` distributed: both halves simplify and recombine
    (LLVM ``expandBinOp``)."""
    ops = u.binop(v, to_expand)
    if ops is None or not isinstance(v, BinaryOperator):
        return None
    b0, b1 = ops
    qn = q.get_without_undef()
    left = simplify_binop(opcode, b0, other, qn, max_recurse)
    if left is None:
        return None
    right = simplify_binop(opcode, b1, other, qn, max_recurse)
    if right is None:
        return None
    if (left is b0 and right is b1) or (to_expand in _COMMUTATIVE and left is b1 and right is b0):
        return v
    return simplify_binop(to_expand, left, right, q, max_recurse)


def expand_commutative_binop(
    opcode: str, lhs: Value, rhs: Value, to_expand: str, q: SimplifyQuery, max_recurse: int
) -> Value | None:
    """:func:`expand_binop` with the expanded operation on either side."""
    if not max_recurse:
        return None
    max_recurse -= 1
    v = expand_binop(opcode, lhs, rhs, to_expand, q, max_recurse)
    if v is not None:
        return v
    return expand_binop(opcode, rhs, lhs, to_expand, q, max_recurse)


def simplify_associative_binop(opcode: str, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """``(A op B) op C`` and ``A op (B op C)`` regrouped (and, when commutative,
    reordered) so that an inner pair simplifies (LLVM ``simplifyAssociativeBinOp``)."""
    if not max_recurse:
        return None
    max_recurse -= 1
    op0 = u.binop(lhs, opcode) if isinstance(lhs, BinaryOperator) else None
    op1 = u.binop(rhs, opcode) if isinstance(rhs, BinaryOperator) else None
    if op0 is not None:
        a, b = op0
        v = simplify_binop(opcode, b, rhs, q, max_recurse)
        if v is not None:
            if v is b:
                return lhs
            w = simplify_binop(opcode, a, v, q, max_recurse)
            if w is not None:
                return w
    if op1 is not None:
        b, c = op1
        v = simplify_binop(opcode, lhs, b, q, max_recurse)
        if v is not None:
            if v is b:
                return rhs
            w = simplify_binop(opcode, v, c, q, max_recurse)
            if w is not None:
                return w
    if opcode not in _COMMUTATIVE:
        return None
    if op0 is not None:
        a, b = op0
        v = simplify_binop(opcode, rhs, a, q, max_recurse)
        if v is not None:
            if v is a:
                return lhs
            w = simplify_binop(opcode, v, b, q, max_recurse)
            if w is not None:
                return w
    if op1 is not None:
        b, c = op1
        v = simplify_binop(opcode, c, lhs, q, max_recurse)
        if v is not None:
            if v is c:
                return rhs
            w = simplify_binop(opcode, b, v, q, max_recurse)
            if w is not None:
                return w
    return None


def thread_binop_over_select(opcode: str, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """``(select C, T, F) op X``: the operation on each arm; one answer for
    both, or one arm absorbing the other (LLVM ``threadBinOpOverSelect``)."""
    if not max_recurse:
        return None
    max_recurse -= 1
    si = lhs if isinstance(lhs, SelectInst) else rhs
    assert isinstance(si, SelectInst)
    tv_in = si.true_value
    fv_in = si.false_value
    if si is lhs:
        tv = simplify_binop(opcode, tv_in, rhs, q, max_recurse)
        fv = simplify_binop(opcode, fv_in, rhs, q, max_recurse)
    else:
        tv = simplify_binop(opcode, lhs, tv_in, q, max_recurse)
        fv = simplify_binop(opcode, lhs, fv_in, q, max_recurse)
    if tv is fv:
        return tv
    if tv is not None and u.is_undef(q, tv):
        return fv
    if fv is not None and u.is_undef(q, fv):
        return tv
    if tv is tv_in and fv is fv_in:
        return si
    if (fv is None) != (tv is None):
        simplified = fv if fv is not None else tv
        if isinstance(simplified, Instruction) and simplified.opcode == opcode:
            from llvmpy_mid.analysis.value_tracking import has_poison_generating_flags

            if not has_poison_generating_flags(simplified):
                unsimplified = tv_in if fv is not None else fv_in
                ul = unsimplified if si is lhs else lhs
                ur = rhs if si is lhs else unsimplified
                s0 = simplified.get_operand(0)
                s1 = simplified.get_operand(1)
                if s0 is ul and s1 is ur:
                    return simplified
                if simplified.is_commutative and s1 is ul and s0 is ur:
                    return simplified
    return None


def thread_binop_over_phi(opcode: str, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """``phi op X``: the operation on every incoming value gives one answer
    (LLVM ``threadBinOpOverPHI``)."""
    if not max_recurse:
        return None
    max_recurse -= 1
    if isinstance(lhs, PHINode):
        pi = lhs
        if not _value_dominates_phi(rhs, pi, q):
            return None
    else:
        assert isinstance(rhs, PHINode)
        pi = rhs
        if not _value_dominates_phi(lhs, pi, q):
            return None
    common: Value | None = None
    for incoming, block in pi.incoming:
        if incoming is pi:
            continue
        qi = q.get_with_instruction(block.terminator)
        v = simplify_binop(opcode, incoming, rhs, qi, max_recurse) if pi is lhs else simplify_binop(
            opcode, lhs, incoming, qi, max_recurse
        )
        if v is None or (common is not None and v is not common):
            return None
        common = v
    return common


def simplify_by_dom_eq(opcode: str, op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """A dominating condition proves ``op0 == op1`` (LLVM ``simplifyByDomEq``)."""
    if max_recurse != RECURSION_LIMIT:
        return None
    from llvmpy_mid.analysis.implied_condition import is_implied_by_dom_condition_pred

    imp = is_implied_by_dom_condition_pred(Predicate.ICMP_EQ, op0, op1, q.cxt_i, q.dl)
    if imp is True:
        ty = op0.type
        if opcode in ("sub", "xor", "urem", "srem"):
            return u.null(ty)
        if opcode in ("sdiv", "udiv"):
            return u.const_int(ty, 1)
        if opcode in ("and", "or"):
            return op1
    return None


# --- add, sub, mul ---------------------------------------------------------------------------------


def simplify_add_inst(op0: Value, op1: Value, nsw: bool, nuw: bool, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``add``: X + poison, X + undef, X + 0, X + -X, (Y - X) + X, X + ~X, ..."""
    c, op0, op1 = fold_or_commute_constant("add", op0, op1, q)
    if c is not None:
        return c
    if isinstance(op1, PoisonValue):
        return op1
    if u.is_undef(q, op1):
        return op1
    if u.is_zero(op1):
        return op0
    if u.is_known_negation(op0, op1):
        return u.null(op0.type)
    ops = u.binop(op1, "sub")
    if ops is not None and ops[1] is op0:
        return ops[0]
    ops = u.binop(op0, "sub")
    if ops is not None and ops[1] is op1:
        return ops[0]
    ty = op0.type
    if u.not_of(op0) is op1 or u.not_of(op1) is op0:
        return u.all_ones(ty)
    if (nsw or nuw) and u.is_sign_mask(op1):
        ops = u.binop(op0, "xor")
        if ops is not None and u.is_sign_mask(ops[1]):
            return ops[0]
    if nuw and u.is_all_ones(op1):
        return op1
    if max_recurse and u.is_bool_ty(ty):
        v = _logic.simplify_xor_inst(op0, op1, q, max_recurse - 1)
        if v is not None:
            return v
    return simplify_associative_binop("add", op0, op1, q, max_recurse)


def _strip_constant_offsets(v: Value, q: SimplifyQuery) -> tuple[Value, int]:
    """The base pointer and the constant byte offset of inbounds GEPs on it
    (LLVM ``stripAndComputeConstantOffsets``)."""
    import llvmpy_mid.analysis.instsimplify.memory as memory

    return memory.strip_and_accumulate_constant_offsets(v, q.dl, False)


def compute_pointer_difference(lhs: Value, rhs: Value, q: SimplifyQuery) -> Constant | None:
    """``lhs - rhs`` in bytes when both are constant offsets from one base."""
    lbase, loff = _strip_constant_offsets(lhs, q)
    rbase, roff = _strip_constant_offsets(rhs, q)
    if lbase is not rbase:
        return None
    bits = q.dl.index_type_size_in_bits(lbase.type)
    ity = lhs.type.context.int_type(bits)
    res: Constant = ConstantInt.get(ity, loff - roff)
    if isinstance(lbase.type, VectorType):
        from llvmpy_mid.ir.constants import ConstantVector

        res = ConstantVector.get_splat(lbase.type.context.vector_type(ity, lbase.type.count, lbase.type.scalable), res)
    return res


def simplify_sub_inst(op0: Value, op1: Value, nsw: bool, nuw: bool, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``sub``: X - 0, X - X, 0 - X with known bits, and the regroupings."""
    c, op0, op1 = fold_or_commute_constant("sub", op0, op1, q)
    if c is not None:
        return c
    ty = op0.type
    if isinstance(op0, PoisonValue) or isinstance(op1, PoisonValue):
        return u.poison(ty)
    if u.is_undef(q, op0) or u.is_undef(q, op1):
        return u.undef(ty)
    if u.is_zero(op1):
        return op0
    if op0 is op1:
        return u.null(ty)
    if u.is_zero(op0):
        if nuw:
            return u.null(ty)
        kb = u.known_bits(op1, q)
        w = kb.bit_width
        if kb.zero == (1 << (w - 1)) - 1:
            return u.null(ty) if nsw else op1
    if max_recurse:
        mr = max_recurse - 1
        ops = u.binop(op0, "add")
        if ops is not None:
            x, y = ops
            v = simplify_binop("sub", y, op1, q, mr)
            if v is not None:
                w2 = simplify_binop("add", x, v, q, mr)
                if w2 is not None:
                    return w2
            v = simplify_binop("sub", x, op1, q, mr)
            if v is not None:
                w2 = simplify_binop("add", y, v, q, mr)
                if w2 is not None:
                    return w2
        ops = u.binop(op1, "add")
        if ops is not None:
            y, z = ops
            v = simplify_binop("sub", op0, y, q, mr)
            if v is not None:
                w2 = simplify_binop("sub", v, z, q, mr)
                if w2 is not None:
                    return w2
            v = simplify_binop("sub", op0, z, q, mr)
            if v is not None:
                w2 = simplify_binop("sub", v, y, q, mr)
                if w2 is not None:
                    return w2
        ops = u.binop(op1, "sub")
        if ops is not None:
            x, y = ops
            v = simplify_binop("sub", op0, x, q, mr)
            if v is not None:
                w2 = simplify_binop("add", v, y, q, mr)
                if w2 is not None:
                    return w2
        tx = u.cast_of(op0, "trunc")
        ty_ = u.cast_of(op1, "trunc")
        if tx is not None and ty_ is not None and tx.type is ty_.type:
            v = simplify_binop("sub", tx, ty_, q, mr)
            if v is not None:
                import llvmpy_mid.analysis.instsimplify.other as other

                w2 = other.simplify_cast_inst("trunc", v, ty, q, mr)
                if w2 is not None:
                    return w2
    px = u.cast_of(op0, "ptrtoint")
    py = u.cast_of(op1, "ptrtoint")
    if px is not None and py is not None:
        diff = compute_pointer_difference(px, py, q)
        if diff is not None:
            opc = "sext" if u.scalar_bits(ty) > u.scalar_bits(diff.type) else "trunc"
            if u.scalar_bits(ty) == u.scalar_bits(diff.type):
                return diff
            return u.fold_cast(opc, diff, ty, q)
    if max_recurse and u.is_bool_ty(ty):
        v = _logic.simplify_xor_inst(op0, op1, q, max_recurse - 1)
        if v is not None:
            return v
    return simplify_by_dom_eq("sub", op0, op1, q, max_recurse)


def simplify_mul_inst(op0: Value, op1: Value, nsw: bool, nuw: bool, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``mul``: X * poison, X * 0, X * 1, (X / Y) * Y exact, i1 and, ..."""
    c, op0, op1 = fold_or_commute_constant("mul", op0, op1, q)
    if c is not None:
        return c
    ty = op0.type
    if isinstance(op1, PoisonValue):
        return op1
    if u.is_undef(q, op1) or u.is_zero(op1):
        return u.null(ty)
    if u.is_one(op1):
        return op0
    if q.use_instr_info:
        for a, b in ((op0, op1), (op1, op0)):
            for div in ("sdiv", "udiv"):
                ops = u.binop(a, div)
                if ops is not None and ops[1] is b and u.is_exact(a):
                    return ops[0]
    if u.is_bool_ty(ty):
        if nsw:
            return u.null(ty)
        if max_recurse:
            v = _logic.simplify_and_inst(op0, op1, q, max_recurse - 1)
            if v is not None:
                return v
    v = simplify_associative_binop("mul", op0, op1, q, max_recurse)
    if v is not None:
        return v
    v = expand_commutative_binop("mul", op0, op1, "add", q, max_recurse)
    if v is not None:
        return v
    if isinstance(op0, SelectInst) or isinstance(op1, SelectInst):
        v = thread_binop_over_select("mul", op0, op1, q, max_recurse)
        if v is not None:
            return v
    if isinstance(op0, PHINode) or isinstance(op1, PHINode):
        v = thread_binop_over_phi("mul", op0, op1, q, max_recurse)
        if v is not None:
            return v
    return None


# --- division and remainder -------------------------------------------------------------------------


def _is_icmp_true(pred: Predicate, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int) -> bool:
    import llvmpy_mid.analysis.instsimplify.cmp as cmp

    v = cmp.simplify_icmp_inst(pred, lhs, rhs, q, max_recurse)
    if isinstance(v, ConstantInt):
        return v.value == 1
    if isinstance(v, Constant):
        s = get_splat_value(v)
        return isinstance(s, ConstantInt) and s.value == 1
    return False


def _is_div_zero(x: Value, y: Value, q: SimplifyQuery, max_recurse: int, signed: bool) -> bool:
    """``x / y`` is zero (and ``x % y`` is ``x``): LLVM ``isDivZero``."""
    if not max_recurse:
        return False
    max_recurse -= 1
    ty = x.type
    if signed:
        ops = u.binop(x, "srem")
        if ops is not None and ops[1] is y:
            return True
        cx = u.apint(x)
        if cx is not None and cx.value != cx.type.sign_bit:
            a = abs(cx.sext_value)
            if _is_icmp_true(Predicate.ICMP_SLT, y, u.const_int(ty, -a), q, max_recurse) or _is_icmp_true(
                Predicate.ICMP_SGT, y, u.const_int(ty, a), q, max_recurse
            ):
                return True
        cy = u.apint(y)
        if cy is not None:
            if cy.value == cy.type.sign_bit:
                return _is_icmp_true(Predicate.ICMP_NE, x, y, q, max_recurse)
            a = abs(cy.sext_value)
            if _is_icmp_true(Predicate.ICMP_SGT, x, u.const_int(ty, -a), q, max_recurse) and _is_icmp_true(
                Predicate.ICMP_SLT, x, u.const_int(ty, a), q, max_recurse
            ):
                return True
        return False
    cy = u.apint(y)
    if cy is not None:
        kb = u.known_bits(x, q)
        if (~kb.zero & ((1 << kb.bit_width) - 1)) < cy.value:
            return True
    return _is_icmp_true(Predicate.ICMP_ULT, x, y, q, max_recurse)


def _simplify_div_rem(opcode: str, op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    """What ``div`` and ``rem`` share (LLVM ``simplifyDivRem``)."""
    is_div = opcode in ("sdiv", "udiv")
    signed = opcode in ("sdiv", "srem")
    ty = op0.type
    if u.is_undef(q, op1) or isinstance(op1, PoisonValue):
        return u.poison(ty)
    if u.is_zero(op1):
        return u.poison(ty)
    if isinstance(op1, Constant) and isinstance(ty, VectorType) and not ty.scalable:
        for i in range(ty.count):
            e = op1.get_aggregate_element(i)
            if e is not None and (e.is_null_value or u.is_undef(q, e)):
                return u.poison(ty)
    if isinstance(op0, PoisonValue):
        return op0
    if u.is_undef(q, op0):
        return u.null(ty)
    if u.is_zero(op0):
        return u.null(ty)
    if op0 is op1:
        return u.const_int(ty, 1) if is_div else u.null(ty)
    kb = u.known_bits(op1, q)
    w = kb.bit_width
    if kb.zero == (1 << w) - 1:
        return u.poison(ty)
    if (kb.zero >> 1) == (1 << (w - 1)) - 1 and w > 0:
        # at most the lowest bit may be set: the divisor is 1
        return op0 if is_div else u.null(ty)
    # LLVM 19's m_c_Mul matches a mul instruction only, not a constant expression
    x = u.c_binop_with(op0, "mul", op1) if isinstance(op0, Instruction) else None
    if x is not None:
        if (signed and q.has_no_signed_wrap(op0)) or (not signed and q.has_no_unsigned_wrap(op0)):
            return x if is_div else u.null(ty)
        ops = u.binop(x, "sdiv" if signed else "udiv")
        if ops is not None and ops[1] is op1:
            return x if is_div else u.null(ty)
    if _is_div_zero(op0, op1, q, max_recurse, signed):
        return u.null(ty) if is_div else op0
    v = simplify_by_dom_eq(opcode, op0, op1, q, max_recurse)
    if v is not None:
        return v
    if isinstance(op0, SelectInst) or isinstance(op1, SelectInst):
        v = thread_binop_over_select(opcode, op0, op1, q, max_recurse)
        if v is not None:
            return v
    if isinstance(op0, PHINode) or isinstance(op1, PHINode):
        v = thread_binop_over_phi(opcode, op0, op1, q, max_recurse)
        if v is not None:
            return v
    return None


def _simplify_div(opcode: str, op0: Value, op1: Value, exact: bool, q: SimplifyQuery, max_recurse: int) -> Value | None:
    c, op0, op1 = fold_or_commute_constant(opcode, op0, op1, q)
    if c is not None:
        return c
    v = _simplify_div_rem(opcode, op0, op1, q, max_recurse)
    if v is not None:
        return v
    dc = u.apint(op1)
    if exact and dc is not None:
        tz = _ctz(dc.value, dc.type.width)
        if tz:
            kb = u.known_bits(op0, q)
            if _ctz(kb.one, kb.bit_width) < tz:
                return u.poison(op0.type)
        if dc.value & (dc.value - 1):
            mul_op = u.binop(op0, "mul")
            if mul_op is not None and mul_op[1] is op1:
                if (opcode == "udiv" and q.has_no_signed_wrap(op0)) or (opcode == "sdiv" and q.has_no_unsigned_wrap(op0)):
                    return mul_op[0]
    return None


def _ctz(v: int, width: int) -> int:
    if v == 0:
        return width
    return (v & -v).bit_length() - 1


def _simplify_rem(opcode: str, op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int) -> Value | None:
    c, op0, op1 = fold_or_commute_constant(opcode, op0, op1, q)
    if c is not None:
        return c
    v = _simplify_div_rem(opcode, op0, op1, q, max_recurse)
    if v is not None:
        return v
    ty = op0.type
    if q.use_instr_info:
        ops = u.binop(op0, "shl")
        if ops is not None and ops[0] is op1:
            if (opcode == "srem" and has_nsw_inst(op0)) or (opcode == "urem" and has_nuw_inst(op0)):
                return u.null(ty)
        c0 = u.apint(op1)
        if c0 is not None and c0.value != 0:
            ops = u.binop(op0, "mul")
            if ops is not None:
                if opcode == "srem" and has_nsw_inst(op0):
                    b = abs(c0.sext_value)
                    if u.int_lanes_all(ops[1], lambda c: abs(c.sext_value) % b == 0):
                        return u.null(ty)
                if opcode == "urem" and has_nuw_inst(op0):
                    b = c0.value
                    if u.int_lanes_all(ops[1], lambda c: c.value % b == 0):
                        return u.null(ty)
    return None


def has_nsw_inst(v: Value) -> bool:
    return isinstance(v, (Instruction, ConstantExpr)) and u.has_nsw(v)


def has_nuw_inst(v: Value) -> bool:
    return isinstance(v, (Instruction, ConstantExpr)) and u.has_nuw(v)


def simplify_sdiv_inst(op0: Value, op1: Value, exact: bool, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``sdiv``: X / -X (nsw) is -1, then the shared division folds."""
    if u.is_known_negation(op0, op1, need_nsw=True):
        return u.all_ones(op0.type)
    return _simplify_div("sdiv", op0, op1, exact, q, max_recurse)


def simplify_udiv_inst(op0: Value, op1: Value, exact: bool, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    return _simplify_div("udiv", op0, op1, exact, q, max_recurse)


def simplify_srem_inst(op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``srem``: X % (sext i1 Y) is 0, X % -X is 0, then the shared folds."""
    x = u.cast_of(op1, "sext")
    if x is not None and u.is_bool_ty(x.type):
        return u.null(op0.type)
    if u.is_known_negation(op0, op1):
        return u.null(op0.type)
    return _simplify_rem("srem", op0, op1, q, max_recurse)


def simplify_urem_inst(op0: Value, op1: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    return _simplify_rem("urem", op0, op1, q, max_recurse)


# --- shifts -----------------------------------------------------------------------------------------


def _is_poison_shift(amount: Value, q: SimplifyQuery) -> bool:
    """The shift amount is undef or at least the width in every lane."""
    if not isinstance(amount, Constant):
        return False
    if u.is_undef(q, amount):
        return True
    c = u.apint(amount)
    if c is not None and c.value >= c.type.width:
        return True
    from llvmpy_mid.ir.constants import ConstantDataVector, ConstantVector

    aty = amount.type
    if isinstance(amount, (ConstantVector, ConstantDataVector)) and isinstance(aty, VectorType) and not aty.scalable:
        for i in range(aty.count):
            e = amount.get_aggregate_element(i)
            if e is None or not _is_poison_shift(e, q):
                return False
        return True
    return False


def _simplify_shift(opcode: str, op0: Value, op1: Value, nsw: bool, q: SimplifyQuery, max_recurse: int) -> Value | None:
    c, op0, op1 = fold_or_commute_constant(opcode, op0, op1, q)
    if c is not None:
        return c
    ty = op0.type
    if isinstance(op0, PoisonValue):
        return op0
    if u.is_zero(op0):
        return u.null(ty)
    if u.is_zero(op1):
        return op0
    x = u.cast_of(op1, "sext")
    if x is not None and u.is_bool_ty(x.type):
        return op0
    if _is_poison_shift(op1, q):
        return u.poison(ty)
    if isinstance(op0, SelectInst) or isinstance(op1, SelectInst):
        v = thread_binop_over_select(opcode, op0, op1, q, max_recurse)
        if v is not None:
            return v
    if isinstance(op0, PHINode) or isinstance(op1, PHINode):
        v = thread_binop_over_phi(opcode, op0, op1, q, max_recurse)
        if v is not None:
            return v
    kamt = u.known_bits(op1, q)
    w = kamt.bit_width
    if kamt.one >= w:
        return u.poison(ty)
    valid_bits = (w - 1).bit_length() if w > 1 else 0
    if _trailing_ones(kamt.zero) >= valid_bits:
        return op0
    if nsw:
        kval = u.known_bits(op0, q)
        from llvmpy_mid.analysis.known_bits import KnownBits

        kshl = KnownBits.shl(kval, kamt)
        zero = kshl.zero
        one = kshl.one
        sign = 1 << (w - 1)
        if kval.zero & sign:
            zero |= sign
        if kval.one & sign:
            one |= sign
        if zero & one:
            return u.poison(ty)
    return None


def _trailing_ones(v: int) -> int:
    return ((v ^ (v + 1)) >> 1).bit_length()


def _simplify_right_shift(opcode: str, op0: Value, op1: Value, exact: bool, q: SimplifyQuery, max_recurse: int) -> Value | None:
    v = _simplify_shift(opcode, op0, op1, False, q, max_recurse)
    if v is not None:
        return v
    if op0 is op1:
        return u.null(op0.type)
    if u.is_undef(q, op0):
        return op0 if exact else u.null(op0.type)
    if exact:
        kb = u.known_bits(op0, q)
        if kb.one & 1:
            return op0
    return None


def simplify_shl_inst(op0: Value, op1: Value, nsw: bool, nuw: bool, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``shl``: the shared shift folds, (X >>exact Y) << Y, nuw of a negative, ..."""
    v = _simplify_shift("shl", op0, op1, nsw, q, max_recurse)
    if v is not None:
        return v
    ty = op0.type
    if u.is_undef(q, op0):
        return op0 if nsw or nuw else u.null(ty)
    if q.use_instr_info:
        for sh in ("lshr", "ashr"):
            ops = u.binop(op0, sh)
            if ops is not None and ops[1] is op1 and u.is_exact(op0):
                return ops[0]
    if nuw and u.is_negative_c(op0):
        return op0
    if nsw and nuw and u.is_specific_int(op1, u.scalar_bits(ty) - 1):
        return u.null(ty)
    return None


def simplify_lshr_inst(op0: Value, op1: Value, exact: bool, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``lshr``: the shared shift folds, (X <<nuw Y) >> Y, ..."""
    v = _simplify_right_shift("lshr", op0, op1, exact, q, max_recurse)
    if v is not None:
        return v
    if q.use_instr_info:
        ops = u.binop(op0, "shl")
        if ops is not None and ops[1] is op1 and has_nuw_inst(op0):
            return ops[0]
        shr = u.apint(op1)
        if shr is not None:
            ors = u.binop(op0, "or")
            if ors is not None:
                for a, y in ((ors[0], ors[1]), (ors[1], ors[0])):
                    sh = u.binop(a, "shl")
                    if sh is None or not has_nuw_inst(a):
                        continue
                    shl_c = u.apint(sh[1])
                    if shl_c is None or shl_c.value != shr.value:
                        continue
                    ky = u.known_bits(y, q)
                    eff = (~ky.zero & ((1 << ky.bit_width) - 1)).bit_length()
                    if shr.value >= eff:
                        return sh[0]
                    break
    return None


def simplify_ashr_inst(op0: Value, op1: Value, exact: bool, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT) -> Value | None:
    """``ashr``: the shared shift folds, all-ones, (X <<nsw Y) >> Y, sign-bit-only values."""
    v = _simplify_right_shift("ashr", op0, op1, exact, q, max_recurse)
    if v is not None:
        return v
    ty = op0.type
    if u.is_all_ones(op0):
        return u.all_ones(ty)
    ops = u.binop(op0, "shl")
    if ops is not None and u.is_all_ones(ops[0]) and ops[1] is op1:
        return u.all_ones(ty)
    if q.use_instr_info and ops is not None and ops[1] is op1 and has_nsw_inst(op0):
        return ops[0]
    if u.num_sign_bits(op0, q) == u.scalar_bits(ty):
        return op0
    return None


# --- dispatch -------------------------------------------------------------------------------------


def simplify_binop(opcode: str, lhs: Value, rhs: Value, q: SimplifyQuery, max_recurse: int = RECURSION_LIMIT, fmf: int = 0) -> Value | None:
    """The binary operation ``opcode`` of ``lhs`` and ``rhs`` without flags
    (LLVM ``simplifyBinOp``); ``fmf`` are the fast-math flags of an FP operation."""
    fn = _DISPATCH.get(opcode)
    if fn is None:
        import llvmpy_mid.analysis.instsimplify.fp as fp

        if opcode in _FP_OPS:
            return fp.simplify_fp_binop(opcode, lhs, rhs, fmf, q, max_recurse)
        raise ValueError("not a binary opcode: %s" % opcode)
    return fn(lhs, rhs, q, max_recurse)


_DISPATCH: dict[str, Callable[[Value, Value, SimplifyQuery, int], Value | None]] = {
    "add": lambda a, b, q, r: simplify_add_inst(a, b, False, False, q, r),
    "sub": lambda a, b, q, r: simplify_sub_inst(a, b, False, False, q, r),
    "mul": lambda a, b, q, r: simplify_mul_inst(a, b, False, False, q, r),
    "sdiv": lambda a, b, q, r: simplify_sdiv_inst(a, b, False, q, r),
    "udiv": lambda a, b, q, r: simplify_udiv_inst(a, b, False, q, r),
    "srem": simplify_srem_inst,
    "urem": simplify_urem_inst,
    "shl": lambda a, b, q, r: simplify_shl_inst(a, b, False, False, q, r),
    "lshr": lambda a, b, q, r: simplify_lshr_inst(a, b, False, q, r),
    "ashr": lambda a, b, q, r: simplify_ashr_inst(a, b, False, q, r),
    "and": lambda a, b, q, r: _logic.simplify_and_inst(a, b, q, r),
    "or": lambda a, b, q, r: _logic.simplify_or_inst(a, b, q, r),
    "xor": lambda a, b, q, r: _logic.simplify_xor_inst(a, b, q, r),
}


__all__ = [
    "RECURSION_LIMIT",
    "simplify_binop",
    "simplify_add_inst",
    "simplify_sub_inst",
    "simplify_mul_inst",
    "simplify_sdiv_inst",
    "simplify_udiv_inst",
    "simplify_srem_inst",
    "simplify_urem_inst",
    "simplify_shl_inst",
    "simplify_lshr_inst",
    "simplify_ashr_inst",
    "thread_binop_over_select",
    "thread_binop_over_phi",
    "expand_binop",
    "simplify_associative_binop",
]
