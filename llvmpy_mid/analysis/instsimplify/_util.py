"""Shared pieces of InstructionSimplify (LLVM 19.1.7
``llvm/lib/Analysis/InstructionSimplify.cpp``): the recursion budget, the
boolean/zero/all-ones constant builders that splat over vectors, the small
structural matchers the folds read with (an opcode test that also accepts a
constant expression, LLVM's ``m_Add``/``m_Not``/``m_Neg`` ...), the element-wise
constant predicates with poison lanes allowed (``m_Zero``, ``m_One``,
``m_AllOnes``, ``m_SignMask`` ...), and the thin adapters to the analyses the
folds ask (known bits, constant folding).

Nothing here simplifies; the fold families live beside it in this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Sequence

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantFP,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
    get_splat_value,
)
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.types import IntegerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.value_tracking_support import opcode_of as opcode_of
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.flags import GEPFlags

if TYPE_CHECKING:
    from llvmpy_mid.analysis.known_bits import KnownBits

RECURSION_LIMIT = 3
"""How deep the simplifier may recurse (LLVM ``RecursionLimit``)."""

_NUW = 1
_NSW = 2
_EXACT = 1


# --- constant builders ---------------------------------------------------------------------------


def const_int(ty: Type, value: int) -> Constant:
    """``value`` of the integer type ``ty``, splatted over a vector type
    (LLVM ``ConstantInt::get(Ty, V)``)."""
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, value))
    return ConstantInt.get(ty, value)


def get_true(ty: Type) -> Constant:
    """``true`` for ``i1``, or the all-true vector of ``<N x i1>``."""
    return const_int(ty, 1)


def get_false(ty: Type) -> Constant:
    return const_int(ty, 0)


def get_bool(ty: Type, value: bool) -> Constant:
    return const_int(ty, 1 if value else 0)


def null(ty: Type) -> Constant:
    return Constant.get_null_value(ty)


def all_ones(ty: Type) -> Constant:
    return Constant.get_all_ones_value(ty)


def poison(ty: Type) -> Constant:
    return PoisonValue.get(ty)


def undef(ty: Type) -> Constant:
    return UndefValue.get(ty)


def is_undef(q: SimplifyQuery, v: Value) -> bool:
    """``undef``/``poison``, or a vector of them, when the query may use undef
    (LLVM ``SimplifyQuery::isUndefValue``, which matches with ``m_Undef``)."""
    return q.can_use_undef and v.is_constant and pm.matches(v, _UNDEF)


def compare_type(ty: Type) -> Type:
    """``i1``, or ``<N x i1>`` for a vector of ``N`` (LLVM ``makeCmpResultType``)."""
    i1 = ty.context.i1
    if isinstance(ty, VectorType):
        return ty.context.vector_type(i1, ty.count, ty.scalable)
    return i1


def scalar_bits(ty: Type) -> int:
    s = ty.scalar_type
    return s.width if isinstance(s, IntegerType) else 0


def is_bool_ty(ty: Type) -> bool:
    """``i1`` or a vector of ``i1``."""
    s = ty.scalar_type
    return isinstance(s, IntegerType) and s.width == 1


# --- element-wise constant predicates (the rewrite kit's matchers, built once) ------------------

_UNDEF = pm.m_undef()
_ZERO = pm.m_zero()
_ZERO_INT = pm.m_zero_int()
_ONE = pm.m_one()
_ALL_ONES = pm.m_all_ones()
_SIGN_MASK = pm.m_sign_mask()
_NEGATIVE = pm.m_negative()
_NON_NEGATIVE = pm.m_non_negative()
_POWER2 = pm.m_power2()
_POS_ZERO_FP = pm.m_pos_zero_fp()
_NEG_ZERO_FP = pm.m_neg_zero_fp()
_ANY_ZERO_FP = pm.m_any_zero_fp()
_NAN = pm.m_cst_pred(lambda c: isinstance(c, ConstantFP) and c.is_nan, int_only=False)


def _m(p: pm.Pattern) -> Callable[[Value], bool]:
    def test(v: Value) -> bool:
        return v.is_constant and pm.matches(v, p)

    return test


is_zero = _m(_ZERO)
"""LLVM ``m_Zero``: the null value, or a vector zero with poison lanes."""
is_zero_int = _m(_ZERO_INT)
is_one = _m(_ONE)
is_all_ones = _m(_ALL_ONES)
is_sign_mask = _m(_SIGN_MASK)
is_negative_c = _m(_NEGATIVE)
is_non_negative_c = _m(_NON_NEGATIVE)
is_power2_c = _m(_POWER2)
is_pos_zero_fp = _m(_POS_ZERO_FP)
is_neg_zero_fp = _m(_NEG_ZERO_FP)
is_any_zero_fp = _m(_ANY_ZERO_FP)
is_nan_c = _m(_NAN)


def fp_pred(v: Value, test: Callable[[Constant], bool]) -> bool:
    """A floating constant, or every non-poison lane of one, passes ``test``."""
    return v.is_constant and pm.matches(v, pm.m_cst_pred(test, int_only=False))


def int_lanes_all(v: Value, test: Callable[[ConstantInt], bool]) -> bool:
    """An integer constant, or every lane of a fixed vector of them (no poison
    lanes), passes ``test`` (LLVM ``m_CheckedInt``)."""
    if type(v) is ConstantInt:
        return test(v)
    if not isinstance(v, Constant) or not isinstance(v.type, VectorType):
        return False
    s = get_splat_value(v)
    if type(s) is ConstantInt:
        return test(s)
    if v.type.scalable:
        return False
    for i in range(v.type.count):
        e = v.get_aggregate_element(i)
        if type(e) is not ConstantInt or not test(e):
            return False
    return True


def is_specific_int(v: Value, value: int) -> bool:
    return v.is_constant and pm.matches(v, pm.m_specific_int(value))


def apint(v: Value) -> ConstantInt | None:
    """The integer constant ``v`` is, directly or splatted (LLVM ``m_APInt``; no poison lanes)."""
    if type(v) is ConstantInt:
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if type(s) is ConstantInt:
            return s
    return None


def apint_allow_poison(v: Value) -> ConstantInt | None:
    """As :func:`apint` but a vector may have poison lanes (LLVM ``m_APIntAllowPoison``)."""
    if type(v) is ConstantInt:
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v, True)
        if type(s) is ConstantInt:
            return s
    return None


# --- structural matchers -------------------------------------------------------------------------


def binop(v: Value, opcode: str) -> tuple[Value, Value] | None:
    """``(lhs, rhs)`` when ``v`` is the binary operation ``opcode`` (an
    instruction or a constant expression), else None."""
    if isinstance(v, Instruction):
        if v.opcode == opcode:
            ops = v._operands
            return ops[0].value, ops[1].value
        return None
    if isinstance(v, ConstantExpr) and v.opcode == opcode:
        ops = v._operands
        return ops[0].value, ops[1].value
    return None


def c_binop_with(v: Value, opcode: str, x: Value) -> Value | None:
    """The other operand when ``v`` is ``opcode`` with ``x`` on either side
    (LLVM ``m_c_<Op>(m_Specific(x), m_Value(other))``)."""
    ops = binop(v, opcode)
    if ops is None:
        return None
    if ops[0] is x:
        return ops[1]
    if ops[1] is x:
        return ops[0]
    return None


def flags_of(v: Value) -> int:
    """The wrap/exact flag word of an instruction or constant expression."""
    if isinstance(v, ConstantExpr):
        return v.flags
    if isinstance(v, Instruction):
        return int(getattr(v, "_flags", 0))
    return 0


def has_nuw(v: Value) -> bool:
    if isinstance(v, ConstantExpr):
        return v.has_no_unsigned_wrap
    return bool(getattr(v, "nuw", False))


def has_nsw(v: Value) -> bool:
    if isinstance(v, ConstantExpr):
        return v.has_no_signed_wrap
    return bool(getattr(v, "nsw", False))


def is_exact(v: Value) -> bool:
    if isinstance(v, ConstantExpr):
        return v.opcode in ("udiv", "sdiv", "lshr", "ashr") and bool(v.flags & _EXACT)
    if isinstance(v, Instruction) and v.opcode in ("udiv", "sdiv", "lshr", "ashr"):
        return bool(getattr(v, "exact", False))
    return False


def not_of(v: Value) -> Value | None:
    """``x`` when ``v`` is ``xor x, -1`` (either side; LLVM ``m_Not``)."""
    ops = binop(v, "xor")
    if ops is None:
        return None
    if is_all_ones(ops[1]):
        return ops[0]
    if is_all_ones(ops[0]):
        return ops[1]
    return None


def neg_of(v: Value) -> Value | None:
    """``x`` when ``v`` is ``sub 0, x`` (LLVM ``m_Neg``)."""
    ops = binop(v, "sub")
    if ops is not None and is_zero_int(ops[0]):
        return ops[1]
    return None


def cast_of(v: Value, opcode: str) -> Value | None:
    """The operand of the cast ``opcode`` (instruction or constant expression)."""
    if opcode_of(v) == opcode:
        assert isinstance(v, (Instruction, ConstantExpr))
        return v._operands[0].value
    return None


ROUNDING_INTRINSICS = frozenset(
    ("llvm.floor", "llvm.ceil", "llvm.trunc", "llvm.rint", "llvm.nearbyint", "llvm.round", "llvm.roundeven")
)
"""The intrinsics that round a floating value to an integral one."""

def intrinsic_name(v: Value) -> str:
    """The intrinsic (base name) a direct call calls, else ``""``."""
    if not isinstance(v, CallInst):
        return ""
    return v.intrinsic_base


def intrinsic_args(v: Value, name: str) -> list[Value] | None:
    """The arguments of a call of the intrinsic ``name`` (LLVM ``m_Intrinsic``)."""
    if intrinsic_name(v) == name:
        assert isinstance(v, CallInst)
        return v.args
    return None


def is_known_negation(x: Value, y: Value, need_nsw: bool = False, allow_poison: bool = True) -> bool:
    """LLVM ``isKnownNegation`` (value tracking's)."""
    from llvmpy_mid.analysis.value_tracking import is_known_negation as known_negation

    return known_negation(x, y, need_nsw, allow_poison)


# --- the analyses the folds ask (looked up on first use: they live in other modules) -----------

_LOOKUPS: dict[str, Any] = {}


def _lookup(module: str, name: str) -> Any:
    """``module.name``, or None while that module or name does not exist."""
    key = module + ":" + name
    try:
        return _LOOKUPS[key]
    except KeyError:
        pass
    try:
        fn = getattr(importlib.import_module(module), name, None)
    except ImportError:
        fn = None
    _LOOKUPS[key] = fn
    return fn


_VT = "llvmpy_mid.analysis.value_tracking"
_CF = "llvmpy_mid.analysis.constant_folding"


def known_bits(v: Value, q: SimplifyQuery) -> KnownBits:
    """LLVM ``computeKnownBits(V, 0, Q)``."""
    fn = _lookup(_VT, "compute_known_bits")
    if fn is None:
        from llvmpy_mid.analysis.known_bits import KnownBits

        c = apint(v)
        w = scalar_bits(v.type)
        if c is not None:
            return KnownBits.make_constant(c.value, w)
        return KnownBits(w)
    r: KnownBits = fn(v, q)
    return r


def known_non_zero(v: Value, q: SimplifyQuery) -> bool:
    fn = _lookup(_VT, "is_known_non_zero")
    return bool(fn(v, q)) if fn is not None else False


def known_non_negative(v: Value, q: SimplifyQuery) -> bool:
    fn = _lookup(_VT, "is_known_non_negative")
    return bool(fn(v, q)) if fn is not None else False


def known_negative(v: Value, q: SimplifyQuery) -> bool:
    fn = _lookup(_VT, "is_known_negative")
    return bool(fn(v, q)) if fn is not None else False


def _plain_query(v: Value, q: SimplifyQuery) -> SimplifyQuery:
    """The query LLVM's data-layout entry points (``isKnownToBeAPowerOfTwo(V, DL, ...)``,
    ``ComputeNumSignBits(V, DL, ...)``) build: layout, dominators, assumptions and
    ``safeCxtI(V, CxtI)`` only (no library info, no dominating conditions)."""
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery as Query

    cxt = q.cxt_i
    if cxt is None or cxt.parent is None:
        cxt = v if isinstance(v, Instruction) and v.parent is not None else None
    return Query(q.dl, None, q.dt, q.ac, cxt, q.use_instr_info)


def known_power_of_two(v: Value, q: SimplifyQuery, or_zero: bool) -> bool:
    fn = _lookup(_VT, "is_known_to_be_a_power_of_two")
    if fn is None:
        return False
    return bool(fn(v, _plain_query(v, q), or_zero))


def num_sign_bits(v: Value, q: SimplifyQuery) -> int:
    fn = _lookup(_VT, "compute_num_sign_bits")
    if fn is None:
        return 1
    return int(fn(v, _plain_query(v, q)))


def masked_zero(v: Value, mask: int, q: SimplifyQuery) -> bool:
    kb = known_bits(v, q)
    return mask & ~kb.zero & ((1 << kb.bit_width) - 1) == 0


def constant_folding(name: str) -> Any:
    """A DataLayout-aware constant-folding entry point by name, or None while it does not exist."""
    return _lookup(_CF, name)


def value_tracking(name: str) -> Any:
    """A value-tracking query by name, or None while it does not exist."""
    return _lookup(_VT, name)


def fold_binop(opcode: str, lhs: Constant, rhs: Constant, q: SimplifyQuery) -> Constant | None:
    """LLVM ``ConstantFoldBinaryOpOperands``."""
    fn = _lookup(_CF, "constant_fold_binary_op_operands")
    if fn is not None:
        r: Constant | None = fn(opcode, lhs, rhs, q.dl)
        return r
    from llvmpy_mid.ir.constant_fold import constant_fold_binary_instruction

    return constant_fold_binary_instruction(opcode, lhs, rhs)


def fold_compare(pred: Predicate, lhs: Constant, rhs: Constant, q: SimplifyQuery) -> Constant | None:
    """LLVM ``ConstantFoldCompareInstOperands``."""
    fn = _lookup(_CF, "constant_fold_compare_inst_operands")
    if fn is not None:
        r: Constant | None = fn(pred, lhs, rhs, q.dl, q.tli, q.cxt_i)
        return r
    from llvmpy_mid.ir.constant_fold import constant_fold_compare_instruction

    return constant_fold_compare_instruction(pred, lhs, rhs)


def fold_cast(opcode: str, c: Constant, ty: Type, q: SimplifyQuery) -> Constant | None:
    """LLVM ``ConstantFoldCastOperand``."""
    fn = _lookup(_CF, "constant_fold_cast_operand")
    if fn is not None:
        r: Constant | None = fn(opcode, c, ty, q.dl)
        return r
    from llvmpy_mid.ir.constant_fold import constant_fold_cast_instruction

    return constant_fold_cast_instruction(opcode, c, ty)


def fold_unary(opcode: str, c: Constant, q: SimplifyQuery) -> Constant | None:
    """LLVM ``ConstantFoldUnaryOpOperand``."""
    from llvmpy_mid.ir.constant_fold import constant_fold_unary_instruction

    return constant_fold_unary_instruction(opcode, c)


def fold_inst_operands(inst: Instruction, ops: list[Constant], q: SimplifyQuery) -> Constant | None:
    """LLVM ``ConstantFoldInstOperands``."""
    fn = _lookup(_CF, "constant_fold_inst_operands")
    if fn is None:
        return None
    r: Constant | None = fn(inst, ops, q.dl, q.tli)
    return r


def fold_gep(src_ty: Type, ptr: Constant, indices: list[Constant], flags: int, q: SimplifyQuery) -> Constant | None:
    """A constant GEP, built and folded (LLVM ``ConstantExpr::getGetElementPtr`` + ``ConstantFoldConstant``)."""
    from llvmpy_mid.ir.constant_fold import constant_fold_get_element_ptr

    lanes = ptr.type if isinstance(ptr.type, VectorType) else next((i.type for i in indices if isinstance(i.type, VectorType)), None)
    if isinstance(lanes, VectorType):
        # as ConstantExpr::getGetElementPtr: sequential indices splat, struct indices scalar
        ctx = ptr.type.context
        canon: list[Constant] = []
        cur: Type | None = src_ty
        for n, idx in enumerate(indices):
            is_struct = n > 0 and isinstance(cur, StructType)
            if is_struct and isinstance(idx.type, VectorType):
                sv = get_splat_value(idx)
                if sv is not None:
                    idx = sv
            elif not is_struct and not isinstance(idx.type, VectorType):
                idx = ConstantVector.get_splat(ctx.vector_type(idx.type, lanes.count, lanes.scalable), idx)
            canon.append(idx)
            if n > 0 and cur is not None:
                if isinstance(cur, StructType):
                    k = apint(idx)
                    cur = cur.elements[k.value] if k is not None and k.value < len(cur.elements) else None
                else:
                    cur = getattr(cur, "element_type", None)
        indices = canon
    folded = constant_fold_get_element_ptr(src_ty, ptr, None, indices)
    if folded is not None:
        ce: Constant = folded
    else:
        ce = ConstantExpr.get_gep(
            src_ty, ptr, indices, bool(flags & GEPFlags.INBOUNDS), bool(flags & GEPFlags.NUSW), bool(flags & GEPFlags.NUW)
        )
    fn = _lookup(_CF, "constant_fold_constant")
    if fn is None:
        return ce
    r: Constant = fn(ce, q.dl)
    return r


def fold_extract_element(vec: Constant, idx: Constant) -> Constant | None:
    from llvmpy_mid.ir.constant_fold import constant_fold_extract_element

    c = constant_fold_extract_element(vec, idx)
    return c if c is not None else ConstantExpr.get_extract_element(vec, idx)


def fold_insert_element(vec: Constant, val: Constant, idx: Constant) -> Constant | None:
    from llvmpy_mid.ir.constant_fold import constant_fold_insert_element

    c = constant_fold_insert_element(vec, val, idx)
    return c if c is not None else ConstantExpr.get_insert_element(vec, val, idx)


def fold_shuffle_vector(a: Constant, b: Constant, mask: Sequence[int]) -> Constant | None:
    from llvmpy_mid.ir.constant_fold import constant_fold_shuffle_vector

    c = constant_fold_shuffle_vector(a, b, mask)
    return c if c is not None else ConstantExpr.get_shuffle_vector(a, b, mask)


def fold_load(c: Constant, ty: Type, q: SimplifyQuery, offset: int | None = None) -> Constant | None:
    """LLVM ``ConstantFoldLoadFromConstPtr``."""
    fn = _lookup(_CF, "constant_fold_load_from_const_ptr")
    if fn is None:
        return None
    r: Constant | None = fn(c, ty, q.dl) if offset is None else fn(c, ty, q.dl, offset)
    return r


def fold_load_uniform(c: Constant, ty: Type, q: SimplifyQuery) -> Constant | None:
    """LLVM ``ConstantFoldLoadFromUniformValue``."""
    fn = _lookup(_CF, "constant_fold_load_from_uniform_value")
    if fn is None:
        return None
    r = fn(c, ty, q.dl)
    return r if isinstance(r, Constant) else None


__all__ = [
    "RECURSION_LIMIT",
    "const_int",
    "get_true",
    "get_false",
    "get_bool",
    "null",
    "all_ones",
    "poison",
    "undef",
    "compare_type",
    "binop",
    "not_of",
    "neg_of",
]
