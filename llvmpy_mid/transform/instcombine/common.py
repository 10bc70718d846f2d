"""Helpers every InstCombine fold family shares (LLVM
``lib/Transforms/InstCombine/InstructionCombining.cpp`` and the static helpers
of ``include/llvm/Transforms/InstCombine/InstCombiner.h``).

What lives here, under LLVM's names in snake case:

* operand ranking and canonical forms: :func:`get_complexity`,
  :func:`is_canonical_predicate`, :func:`add_one`, :func:`sub_one`,
  :func:`peek_through_bitcast`, :func:`get_safe_vector_constant_for_binop`,
  :func:`dyn_cast_neg_val`;
* the binary-operator machinery every ``visitX`` of a binary operator calls
  in LLVM's order: :func:`simplify_associative_or_commutative`,
  :func:`fold_using_distributive_laws` (with :func:`try_factorization` and
  :func:`simplify_selects_feeding_binary_op`),
  :func:`fold_binop_into_select_or_phi`, :func:`fold_op_into_select`,
  :func:`fold_op_into_phi`, :func:`fold_binop_with_phi_operands`,
  :func:`fold_vector_binop`, :func:`fold_binop_of_select_and_cast_of_select_condition`,
  :func:`fold_bin_op_shift_with_shift`, :func:`try_fold_inst_with_ctpop_with_not`,
  :func:`fold_binop_of_sext_bool_to_select`, :func:`narrow_math_if_no_overflow`;
* inversion: :func:`get_freely_inverted`, :func:`is_free_to_invert`,
  :func:`can_freely_invert_all_users_of`, :func:`freely_invert_all_users_of`;
* small IR utilities LLVM keeps on its classes: :func:`copy_ir_flags`,
  :func:`and_ir_flags`, :func:`create_bin_op`.

Each function follows the C++ (order of attempts, names of the created values,
flags kept and dropped); the visitors call them where LLVM does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence, cast

from llvmpy_mid.analysis.constant_folding import (
    constant_fold_binary_op_operands,
    constant_fold_call,
    constant_fold_cast_operand,
    constant_fold_compare_inst_operands,
    constant_fold_inst_operands,
)
from llvmpy_mid.analysis.constant_range import OverflowResult
from llvmpy_mid.analysis.implied_condition import is_implied_condition_pred
from llvmpy_mid.analysis.instruction_simplify import simplify_instruction_with_operands
from llvmpy_mid.analysis.instsimplify.binops import simplify_binop
from llvmpy_mid.analysis.poison_tracking import (
    is_guaranteed_not_to_be_undef_or_poison,
    is_guaranteed_to_transfer_execution_to_successor,
    is_safe_to_speculatively_execute,
)
from llvmpy_mid.ir import pattern_match as pm
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constant_fold import get_bin_op_identity
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantDataVector,
    ConstantFP,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
    get_splat_value,
)
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, FCmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.optional_flags import OptionalFlagsInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst, InvokeInst
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
from llvmpy_mid.ir.intrinsics import intrinsic_declaration
from llvmpy_mid.ir.type_mangling import intrinsic_name as mangle_intrinsic_name
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

MAX_ANALYSIS_RECURSION_DEPTH = 6
"""LLVM ``MaxAnalysisRecursionDepth``."""

# --- patterns (module level, compiled once) ------------------------------------------------------
_P_NEG = pm.m_neg(pm.m_value("x"))
_P_NOT = pm.m_not(pm.m_value("x"))
_P_FNEG = pm.m_fneg(pm.m_value("x"))
_P_SELECT = pm.m_select(pm.m_value("c"), pm.m_value("t"), pm.m_value("f"))
_P_LOGICAL_AND = pm.m_logical_and(pm.m_value("a"), pm.m_value("b"))
_P_LOGICAL_OR = pm.m_logical_or(pm.m_value("a"), pm.m_value("b"))
_P_MAX_OR_MIN = pm.m_max_or_min(pm.m_value("a"), pm.m_value("b"))
_P_ZEXT_OR_SEXT = pm.m_zext_or_sext(pm.m_value("a"))
_P_CTPOP_ONE_USE = pm.m_one_use(pm.m_intrinsic("llvm.ctpop", pm.m_value("x")))
_P_IMM = pm.m_imm_constant("c")

_INT_BINOPS = frozenset(("add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor"))
_FP_BINOPS = frozenset(("fadd", "fsub", "fmul", "fdiv", "frem"))
_WRAP_OPS = frozenset(("add", "sub", "mul", "shl"))
_EXACT_OPS = frozenset(("udiv", "sdiv", "lshr", "ashr"))
_SHIFTS = frozenset(("shl", "lshr", "ashr"))
_LOGIC = frozenset(("and", "or", "xor"))
_COMMUTATIVE = frozenset(("add", "mul", "and", "or", "xor", "fadd", "fmul"))
_MINMAX_INVERSE = {"smax": "smin", "smin": "smax", "umax": "umin", "umin": "umax"}


class _NonNull:
    """LLVM's ``reinterpret_cast<Value *>(1)``: 'invertible' without a value."""

    __slots__ = ()


_NONNULL = cast(Value, _NonNull())


# =================================================================================================
# InstCombiner.h statics
# =================================================================================================


def peek_through_bitcast(v: Value, one_use_only: bool = False) -> Value:
    """bitcast X -> X (LLVM ``peekThroughBitcast``)."""
    if getattr(v, "opcode", None) == "bitcast" and isinstance(v, Instruction):
        if not one_use_only or v.has_one_use:
            return v.operands[0]
    return v


def get_complexity(v: Value) -> int:
    """Rank for operand ordering: undef 0, constant 1, other non-instruction 2,
    argument 3, cast/neg/not/fneg 4, other instruction 5 (LLVM ``getComplexity``)."""
    if isinstance(v, Instruction):
        if isinstance(v, CastInst) or pm.match(v, _P_NEG) or pm.match(v, _P_NOT) or pm.match(v, _P_FNEG):
            return 4
        return 5
    if isinstance(v, Argument):
        return 3
    if isinstance(v, Constant):
        return 0 if isinstance(v, UndefValue) else 1
    return 2


def is_canonical_predicate(pred: Predicate) -> bool:
    """ne, ule, sle, uge, sge, one, ole, oge are not canonical (LLVM ``isCanonicalPredicate``)."""
    return pred not in _NON_CANONICAL


_NON_CANONICAL = frozenset(
    (
        Predicate.ICMP_NE,
        Predicate.ICMP_ULE,
        Predicate.ICMP_SLE,
        Predicate.ICMP_UGE,
        Predicate.ICMP_SGE,
        Predicate.FCMP_ONE,
        Predicate.FCMP_OLE,
        Predicate.FCMP_OGE,
    )
)


def get_int_constant(ty: Type, value: int) -> Constant:
    """``ConstantInt::get(Ty, V)``: splatted over a vector type."""
    if isinstance(ty, VectorType):
        return ConstantVector.get_splat(ty, ConstantInt.get(ty.element_type, value))
    return ConstantInt.get(ty, value)


def add_one(c: Constant) -> Constant:
    """C + 1 (LLVM ``AddOne``)."""
    return ConstantExpr.get_add(c, get_int_constant(c.type, 1))


def sub_one(c: Constant) -> Constant:
    """C - 1 (LLVM ``SubOne``)."""
    return ConstantExpr.get_sub(c, get_int_constant(c.type, 1))


def should_avoid_absorbing_not_into_select(si: Value) -> bool:
    """A logical and/or select keeps its form (LLVM ``shouldAvoidAbsorbingNotIntoSelect``)."""
    return pm.match(si, _P_LOGICAL_AND) is not None or pm.match(si, _P_LOGICAL_OR) is not None


def get_safe_vector_constant_for_binop(opcode: str, c: Constant, is_rhs_constant: bool) -> Constant:
    """Replace the undef lanes of ``c`` by a constant safe for ``opcode`` (its identity,
    or 1 / 0 where none exists) (LLVM ``getSafeVectorConstantForBinop``)."""
    vty = c.type
    assert isinstance(vty, VectorType)
    elt_ty = vty.element_type
    safe = get_bin_op_identity(opcode, elt_ty, is_rhs_constant)
    if safe is None:
        if is_rhs_constant:
            if opcode in ("srem", "urem"):
                safe = ConstantInt.get(elt_ty, 1)
            elif opcode == "frem":
                safe = ConstantFP.get(elt_ty, 1.0)
            else:
                raise AssertionError("only rem opcodes have no identity constant for RHS")
        else:
            safe = Constant.get_null_value(elt_ty)
    out: list[Constant] = []
    for i in range(vty.count):
        e = c.get_aggregate_element(i)
        assert e is not None
        out.append(safe if isinstance(e, UndefValue) else e)
    return ConstantVector.get(out)


# =================================================================================================
# small IR utilities
# =================================================================================================


def copy_ir_flags(dst: Value, src: Value, include_wrap_flags: bool = True) -> None:
    """Copy the optional flags (wrap, exact, disjoint, nneg, fast-math) of ``src``
    onto ``dst`` where both have them (LLVM ``Instruction::copyIRFlags``)."""
    if not isinstance(dst, BinaryOperator) or not isinstance(src, Instruction):
        if isinstance(dst, OptionalFlagsInst) and isinstance(src, OptionalFlagsInst) and type(dst) is type(src):
            dst._flags = src._flags
        return
    if not isinstance(src, BinaryOperator):
        return
    if dst.has_wrap_flags and src.has_wrap_flags and include_wrap_flags:
        dst.nuw = src.nuw
        dst.nsw = src.nsw
    if dst.has_exact_flag and src.has_exact_flag:
        dst.exact = src.exact
    if dst.has_disjoint_flag and src.has_disjoint_flag:
        dst.disjoint = src.disjoint
    if dst.is_fp_op and src.is_fp_op:
        dst.fast_math_flags = src.fast_math_flags


def and_ir_flags(dst: Value, src: Value) -> None:
    """Keep on ``dst`` only the flags ``src`` also has (LLVM ``Instruction::andIRFlags``)."""
    if not isinstance(dst, BinaryOperator) or not isinstance(src, BinaryOperator):
        return
    if dst.has_wrap_flags and src.has_wrap_flags:
        dst.nuw = dst.nuw and src.nuw
        dst.nsw = dst.nsw and src.nsw
    if dst.has_exact_flag and src.has_exact_flag:
        dst.exact = dst.exact and src.exact
    if dst.has_disjoint_flag and src.has_disjoint_flag:
        dst.disjoint = dst.disjoint and src.disjoint
    if dst.is_fp_op and src.is_fp_op:
        dst.fast_math_flags = int(dst.fast_math_flags) & int(src.fast_math_flags)


def clear_subclass_data_after_reassociation(i: BinaryOperator) -> None:
    """Drop every optional flag but the fast-math flags (LLVM ``ClearSubclassDataAfterReassociation``)."""
    if not i.is_fp_op:
        i._flags = 0


def create_bin_op(builder: IRBuilder, opcode: str, lhs: Value, rhs: Value, name: str = "") -> Value:
    """``Builder.CreateBinOp``: folded when it can; FP operators take the builder's
    default fast-math flags."""
    if opcode in _FP_BINOPS:
        folder = builder.folder
        if folder is not None:
            v = folder.fold_bin_op(opcode, lhs, rhs, False, False)
            if v is not None:
                return v
        new = BinaryOperator.create(opcode, lhs, rhs, fast_math_flags=builder.fast_math_flags)
        return builder.insert(new, name)
    return builder.create_bin_op(opcode, lhs, rhs, name)


def do_phi_translation(v: Value, cur_bb: BasicBlock, pred_bb: BasicBlock) -> Value:
    """A phi of ``cur_bb`` becomes its value from ``pred_bb`` (LLVM ``Value::DoPHITranslation``)."""
    if isinstance(v, PHINode) and v.parent is cur_bb:
        return v.incoming_value_for_block(pred_bb)
    return v


def intrinsic_base_of(v: Value) -> str:
    """``smax`` for a call of ``llvm.smax.i32``; ``""`` otherwise."""
    if isinstance(v, CallBase):
        base = v.intrinsic_base
        if base:
            return base[5:]
    return ""


# =================================================================================================
# inversion
# =================================================================================================


def get_freely_inverted_impl(
    ic: InstCombiner, v: Value, will_invert_all_uses: bool, builder: IRBuilder | None, consume: list[bool], depth: int
) -> Value | None:
    """~V without a new ``not`` (LLVM ``getFreelyInvertedImpl``); ``consume[0]`` is set
    when the inversion eats an existing ``not``. Without a builder, any non-None
    answer means 'invertible'."""
    m = pm.match(v, _P_NOT)
    if m is not None:
        consume[0] = True
        return cast(Value, m.x)
    m = pm.match(v, _P_IMM)
    if m is not None:
        return ConstantExpr.get_not(m.c)
    if depth >= MAX_ANALYSIS_RECURSION_DEPTH:
        return None
    depth += 1
    if not will_invert_all_uses:
        return None
    if isinstance(v, CmpInst):
        if builder is not None:
            if isinstance(v, ICmpInst):
                return builder.create_icmp(v.inverse_predicate, v.lhs, v.rhs)
            return builder.create_fcmp(v.inverse_predicate, v.lhs, v.rhs)
        return _NONNULL
    op = getattr(v, "opcode", None)
    if op in ("add", "xor", "sub", "ashr") and isinstance(v, (Instruction, ConstantExpr)):
        a, b = v.operands[0], v.operands[1]
        if op == "add":
            bv = get_freely_inverted_impl(ic, b, b.has_one_use, builder, consume, depth)
            if bv is not None:
                return builder.create_sub(bv, a) if builder is not None else _NONNULL
            av = get_freely_inverted_impl(ic, a, a.has_one_use, builder, consume, depth)
            if av is not None:
                return builder.create_sub(av, b) if builder is not None else _NONNULL
            return None
        if op == "xor":
            bv = get_freely_inverted_impl(ic, b, b.has_one_use, builder, consume, depth)
            if bv is not None:
                return builder.create_xor(a, bv) if builder is not None else _NONNULL
            av = get_freely_inverted_impl(ic, a, a.has_one_use, builder, consume, depth)
            if av is not None:
                return builder.create_xor(av, b) if builder is not None else _NONNULL
            return None
        if op == "sub":
            av = get_freely_inverted_impl(ic, a, a.has_one_use, builder, consume, depth)
            if av is not None:
                return builder.create_add(av, b) if builder is not None else _NONNULL
            return None
        av = get_freely_inverted_impl(ic, a, a.has_one_use, builder, consume, depth)
        if av is not None:
            return builder.create_ashr(av, b) if builder is not None else _NONNULL
        return None
    ms = pm.match(v, _P_SELECT)
    is_select = ms is not None and not should_avoid_absorbing_not_into_select(v)
    mm = None if is_select else pm.match(v, _P_MAX_OR_MIN)
    if is_select or mm is not None:
        if is_select:
            assert ms is not None
            a, b = ms.value("t"), ms.value("f")
        else:
            assert mm is not None
            a, b = mm.value("a"), mm.value("b")
        local = [consume[0]]
        if get_freely_inverted_impl(ic, b, b.has_one_use, None, local, depth) is None:
            return None
        not_a = get_freely_inverted_impl(ic, a, a.has_one_use, builder, local, depth)
        if not_a is not None:
            consume[0] = local[0]
            if builder is not None:
                not_b = get_freely_inverted_impl(ic, b, b.has_one_use, builder, consume, depth)
                assert not_b is not None
                base = intrinsic_base_of(v)
                if base in _MINMAX_INVERSE:
                    return builder.create_binary_intrinsic(_MINMAX_INVERSE[base], not_a, not_b)
                assert ms is not None
                return builder.create_select(ms.value("c"), not_a, not_b)
            return _NONNULL
    if isinstance(v, PHINode):
        local = [consume[0]]
        incoming: list[tuple[Value, BasicBlock]] = []
        for val, blk in v.incoming:
            nv = get_freely_inverted_impl(ic, val, False, None, local, MAX_ANALYSIS_RECURSION_DEPTH - 1)
            if nv is None:
                return None
            if nv is v:
                return None
            if builder is not None:
                incoming.append((nv, blk))
        consume[0] = local[0]
        if builder is not None:
            # Only the WillInvertAllUses=false answers reach here: a `not` operand or an
            # immediate constant, so the real inverted values are recomputed below.
            saved = (builder.block, builder.insert_before, builder.debug_loc)
            builder.position_before(v)
            builder.debug_loc = v.debug_loc
            new = builder.phi(v.type, "")
            builder.block, builder.insert_before, builder.debug_loc = saved
            for val, blk in incoming:
                new.add_incoming(val, blk)
            return new
        return _NONNULL
    if op == "sext" or (op == "zext" and isinstance(v, OptionalFlagsInst) and v.flags_word & 1):
        a = cast(Instruction, v).operands[0]
        av = get_freely_inverted_impl(ic, a, a.has_one_use, builder, consume, depth)
        if av is not None:
            return builder.create_sext(av, v.type) if builder is not None else _NONNULL
        return None
    if op == "trunc" and isinstance(v, Instruction):
        a = v.operands[0]
        av = get_freely_inverted_impl(ic, a, a.has_one_use, builder, consume, depth)
        if av is not None:
            return builder.create_trunc(av, v.type) if builder is not None else _NONNULL
        return None

    def de_morgan(opcode: str, is_logical: bool, a: Value, b: Value) -> Value | None:
        local = [consume[0]]
        if get_freely_inverted_impl(ic, b, b.has_one_use, None, local, depth) is None:
            return None
        not_a = get_freely_inverted_impl(ic, a, a.has_one_use, builder, local, depth)
        if not_a is None:
            return None
        not_b = get_freely_inverted_impl(ic, b, b.has_one_use, builder, local, depth)
        consume[0] = local[0]
        if builder is None:
            return _NONNULL
        assert not_b is not None
        if is_logical:
            return builder.create_logical_op(opcode, not_a, not_b)
        return builder.create_bin_op(opcode, not_a, not_b)

    if op == "or" and isinstance(v, (Instruction, ConstantExpr)):
        return de_morgan("and", False, v.operands[0], v.operands[1])
    if op == "and" and isinstance(v, (Instruction, ConstantExpr)):
        return de_morgan("or", False, v.operands[0], v.operands[1])
    m = pm.match(v, _P_LOGICAL_OR)
    if m is not None:
        return de_morgan("and", True, m.value("a"), m.value("b"))
    m = pm.match(v, _P_LOGICAL_AND)
    if m is not None:
        return de_morgan("or", True, m.value("a"), m.value("b"))
    return None


def get_freely_inverted(
    ic: InstCombiner,
    v: Value,
    will_invert_all_uses: bool,
    builder: IRBuilder | None,
    does_consume: list[bool] | None = None,
) -> Value | None:
    """~V built without a ``not`` (LLVM ``getFreelyInverted``); ``does_consume``, when
    given, receives in its first slot whether an existing ``not`` is eaten."""
    consume = [False]
    r = get_freely_inverted_impl(ic, v, will_invert_all_uses, builder, consume, 0)
    if does_consume is not None:
        if does_consume:
            does_consume[0] = consume[0]
        else:
            does_consume.append(consume[0])
    return r


def is_free_to_invert(ic: InstCombiner, v: Value, will_invert_all_uses: bool, does_consume: list[bool] | None = None) -> bool:
    """~V costs no instruction (LLVM ``isFreeToInvert``)."""
    return get_freely_inverted(ic, v, will_invert_all_uses, None, does_consume) is not None


def can_freely_invert_all_users_of(v: Value, ignored_user: Value | None) -> bool:
    """Every user of the i1 ``v`` can take ``!v`` instead: select conditions, branches
    and ``not`` (LLVM ``canFreelyInvertAllUsersOf``)."""
    for use in v.uses:
        user = use.user
        if user is ignored_user:
            continue
        op = getattr(user, "opcode", None)
        if op == "select":
            if use.operand_no != 0:
                return False
            if should_avoid_absorbing_not_into_select(user):
                return False
        elif op == "br":
            pass
        elif op == "xor":
            if pm.match(cast(Value, user), _P_NOT) is None:
                return False
        else:
            return False
    return True


def freely_invert_all_users_of(ic: InstCombiner, v: Value, ignored_user: Value | None = None) -> None:
    """Adapt every user of ``v`` to ``!v`` (LLVM ``freelyInvertAllUsersOf``)."""
    for user in list(v.users):
        if user is ignored_user:
            continue
        if isinstance(user, SelectInst):
            user.swap_values()
            swap_prof_metadata(user)
        elif isinstance(user, BranchInst):
            user.swap_successors()
        elif isinstance(user, Instruction) and user.opcode == "xor":
            ic.replace_inst_uses_with(user, v)
            ic.add_to_worklist(user)
        else:
            raise AssertionError("unexpected user: out of sync with can_freely_invert_all_users_of")


def swap_prof_metadata(i: Instruction) -> None:
    """``swapProfMetadata``: exchange the two weights of a ``!prof branch_weights``."""
    from llvmpy_mid.ir.metadata import MDNode, MDString

    prof = i.get_metadata("prof")
    if prof is None or prof.num_operands < 1:
        return
    head = prof.get_operand(0)
    if not isinstance(head, MDString) or head.string != "branch_weights":
        return
    first = 1
    second = prof.get_operand(1) if prof.num_operands > 1 else None
    if isinstance(second, MDString) and second.string == "expected":
        first = 2
    if prof.num_operands != first + 2:
        return
    ops = list(prof.operands)
    ops[first], ops[first + 1] = ops[first + 1], ops[first]
    i.set_metadata("prof", MDNode.get(i.type.context, ops))


def dyn_cast_neg_val(v: Value) -> Value | None:
    """The X of ``0 - X``, or ``-C`` for a constant (LLVM ``dyn_castNegVal``)."""
    m = pm.match(v, _P_NEG)
    if m is not None:
        return cast(Value, m.x)
    if isinstance(v, ConstantInt):
        return ConstantExpr.get_neg(v)
    if isinstance(v, ConstantDataVector):
        if isinstance(v.type.scalar_type, IntegerType):
            return ConstantExpr.get_neg(v)
    if isinstance(v, ConstantVector):
        for i in range(cast(VectorType, v.type).count):
            e = v.get_aggregate_element(i)
            if e is None:
                return None
            if isinstance(e, UndefValue):
                continue
            if not isinstance(e, ConstantInt):
                return None
        return ConstantExpr.get_neg(v)
    if isinstance(v, Constant) and isinstance(v.type, VectorType) and isinstance(v.type.element_type, IntegerType):
        if get_splat_value(v) is not None:
            return ConstantExpr.get_neg(v)
    return None


# =================================================================================================
# SimplifyAssociativeOrCommutative
# =================================================================================================


def _maintain_no_signed_wrap(i: BinaryOperator, b: Value, c: Value) -> bool:
    if not (i.has_wrap_flags and i.nsw):
        return False
    if i.opcode not in ("add", "sub"):
        return False
    bv = pm.match(b, pm.m_apint("v"))
    cv = pm.match(c, pm.m_apint("v"))
    if bv is None or cv is None:
        return False
    w = cast(IntegerType, b.type.scalar_type).width
    half = 1 << (w - 1)
    sb = bv.apint("v") - (1 << w if bv.apint("v") >= half else 0)
    sc = cv.apint("v") - (1 << w if cv.apint("v") >= half else 0)
    r = sb + sc if i.opcode == "add" else sb - sc
    return -half <= r < half


def _nuw(v: Value) -> bool:
    return isinstance(v, BinaryOperator) and v.has_wrap_flags and v.nuw


def _nsw(v: Value) -> bool:
    return isinstance(v, BinaryOperator) and v.has_wrap_flags and v.nsw


def simplify_assoc_cast_assoc(ic: InstCombiner, binop1: BinaryOperator) -> bool:
    """(op (zext (op X, C2)), C1) -> (op (zext X), op(C1, zext C2)) for bitwise logic
    (LLVM ``simplifyAssocCastAssoc``)."""
    c = binop1.operands[0]
    if not isinstance(c, CastInst) or not c.has_one_use:
        return False
    if c.opcode != "zext":
        return False
    if not binop1.is_bitwise_logic_op:
        return False
    opc = binop1.opcode
    binop2 = c.operands[0]
    if not isinstance(binop2, BinaryOperator) or not binop2.has_one_use or binop2.opcode != opc:
        return False
    c1 = binop1.operands[1]
    c2 = binop2.operands[1]
    if not isinstance(c1, Constant) or not isinstance(c2, Constant):
        return False
    cast_c2 = constant_fold_cast_operand("zext", c2, c1.type, ic.dl)
    if cast_c2 is None:
        return False
    folded = constant_fold_binary_op_operands(opc, c1, cast_c2, ic.dl)
    if folded is None:
        return False
    ic.replace_operand(c, 0, binop2.operands[0])
    ic.replace_operand(binop1, 1, folded)
    binop1.drop_poison_generating_flags()
    c.drop_poison_generating_flags()
    return True


def _match_symmetric_phi_pair(lhs: PHINode, rhs: PHINode) -> tuple[Value, Value] | None:
    if lhs.parent is not rhs.parent:
        return None
    n = lhs.num_incoming
    if n < 2:
        return None
    if n != rhs.num_incoming:
        return None
    for k in range(n):
        if lhs.get_incoming_block(k) is not rhs.get_incoming_block(k):
            return None
    l0 = lhs.get_incoming_value(0)
    r0 = rhs.get_incoming_value(0)
    for k in range(1, n):
        l1 = lhs.get_incoming_value(k)
        r1 = rhs.get_incoming_value(k)
        if (l0 is l1 and r0 is r1) or (l0 is r1 and r0 is l1):
            continue
        return None
    return l0, r0


_MINMAX_PRED = {"smax": Predicate.ICMP_SGT, "smin": Predicate.ICMP_SLT, "umax": Predicate.ICMP_UGT, "umin": Predicate.ICMP_ULT}


def match_symmetric_pair(lhs: Value, rhs: Value) -> tuple[Value, Value] | None:
    """(phi/select/min-max pairs that swap the same two values) -> the two values
    (LLVM ``matchSymmetricPair``)."""
    if not isinstance(lhs, Instruction) or not isinstance(rhs, Instruction) or lhs.opcode != rhs.opcode:
        return None
    op = lhs.opcode
    if op == "phi":
        return _match_symmetric_phi_pair(cast(PHINode, lhs), cast(PHINode, rhs))
    if op == "select":
        c, t, f = lhs.operands
        if c is rhs.operands[0] and t is rhs.operands[2] and f is rhs.operands[1]:
            return t, f
        return None
    if op == "call":
        lb = intrinsic_base_of(lhs)
        rb = intrinsic_base_of(rhs)
        if lb in _MINMAX_PRED and rb in _MINMAX_PRED and _MINMAX_PRED[lb] == _MINMAX_PRED[rb].swapped:
            la, lb_ = lhs.operands[0], lhs.operands[1]
            ra, rb_ = rhs.operands[0], rhs.operands[1]
            if (la is ra and lb_ is rb_) or (la is rb_ and lb_ is ra):
                return la, lb_
        return None
    return None


def simplify_associative_or_commutative(ic: InstCombiner, i: Instruction) -> bool:
    """Commutative: least complex operand on the right; associative:
    (A op B) op C -> A op (B op C) when B op C simplifies, A op (B op C) -> (A op B) op C
    when A op B simplifies; both: (A op B) op C -> (C op A) op B,
    A op (B op C) -> B op (C op A), (A op C1) op (B op C2) -> (A op B) op (C1 op C2)
    (LLVM ``SimplifyAssociativeOrCommutative``). True when ``i`` changed."""
    assert isinstance(i, BinaryOperator)
    opcode = i.opcode
    changed = False
    while True:
        commutative = i.is_commutative
        if commutative and get_complexity(i.operands[0]) < get_complexity(i.operands[1]):
            i.swap_operands()
            changed = True
        if commutative:
            pair = match_symmetric_pair(i.operands[0], i.operands[1])
            if pair is not None:
                ic.replace_operand(i, 0, pair[0])
                ic.replace_operand(i, 1, pair[1])
                changed = True
        op0 = i.operands[0]
        op1 = i.operands[1]
        bop0 = op0 if isinstance(op0, BinaryOperator) else None
        bop1 = op1 if isinstance(op1, BinaryOperator) else None
        associative = i.is_associative
        q = ic.query(i)
        if associative:
            if bop0 is not None and bop0.opcode == opcode:
                a, b, c = bop0.operands[0], bop0.operands[1], i.operands[1]
                v = simplify_binop(opcode, b, c, q)
                if v is not None:
                    ic.replace_operand(i, 0, a)
                    ic.replace_operand(i, 1, v)
                    is_nuw = _nuw(i) and _nuw(bop0)
                    is_nsw = _maintain_no_signed_wrap(i, b, c) and _nsw(bop0)
                    clear_subclass_data_after_reassociation(i)
                    if is_nuw:
                        i.nuw = True
                    if is_nsw:
                        i.nsw = True
                    changed = True
                    continue
            if bop1 is not None and bop1.opcode == opcode:
                a, b, c = i.operands[0], bop1.operands[0], bop1.operands[1]
                v = simplify_binop(opcode, a, b, q)
                if v is not None:
                    ic.replace_operand(i, 0, v)
                    ic.replace_operand(i, 1, c)
                    clear_subclass_data_after_reassociation(i)
                    changed = True
                    continue
        if associative and commutative:
            if simplify_assoc_cast_assoc(ic, i):
                changed = True
                continue
            if bop0 is not None and bop0.opcode == opcode:
                a, b, c = bop0.operands[0], bop0.operands[1], i.operands[1]
                v = simplify_binop(opcode, c, a, q)
                if v is not None:
                    ic.replace_operand(i, 0, v)
                    ic.replace_operand(i, 1, b)
                    clear_subclass_data_after_reassociation(i)
                    changed = True
                    continue
            if bop1 is not None and bop1.opcode == opcode:
                a, b, c = i.operands[0], bop1.operands[0], bop1.operands[1]
                v = simplify_binop(opcode, c, a, q)
                if v is not None:
                    ic.replace_operand(i, 0, b)
                    ic.replace_operand(i, 1, v)
                    clear_subclass_data_after_reassociation(i)
                    changed = True
                    continue
            if (
                bop0 is not None
                and bop1 is not None
                and bop0.opcode == opcode
                and bop1.opcode == opcode
                and bop0.has_one_use
                and bop1.has_one_use
                and isinstance(bop0.operands[1], Constant)
                and isinstance(bop1.operands[1], Constant)
            ):
                c1 = bop0.operands[1]
                c2 = bop1.operands[1]
                cres = constant_fold_binary_op_operands(opcode, c1, c2, ic.dl)
                if cres is not None:
                    is_nuw = _nuw(i) and _nuw(bop0) and _nuw(bop1)
                    new = BinaryOperator.create(opcode, bop0.operands[0], bop1.operands[0], nuw=is_nuw and opcode == "add")
                    if new.is_fp_op:
                        new.fast_math_flags = int(i.fast_math_flags) & int(bop0.fast_math_flags) & int(bop1.fast_math_flags)
                    ic.insert_new_inst_with(new, i)
                    _take_name(new, bop1)
                    ic.replace_operand(i, 0, new)
                    ic.replace_operand(i, 1, cres)
                    clear_subclass_data_after_reassociation(i)
                    if is_nuw:
                        i.nuw = True
                    changed = True
                    continue
        return changed


def _take_name(new: Value, old: Value) -> None:
    from llvmpy_mid.transform.instcombine.combiner import take_name

    take_name(new, old)


# =================================================================================================
# distributive laws
# =================================================================================================


def left_distributes_over_right(lop: str, rop: str) -> bool:
    """X lop (Y rop Z) == (X lop Y) rop (X lop Z) (LLVM ``leftDistributesOverRight``)."""
    if lop == "and":
        return rop == "or" or rop == "xor"
    if lop == "or":
        return rop == "and"
    if lop == "mul":
        return rop == "add" or rop == "sub"
    return False


def right_distributes_over_left(lop: str, rop: str) -> bool:
    """(X lop Y) rop Z == (X rop Z) lop (Y rop Z) (LLVM ``rightDistributesOverLeft``)."""
    if rop in _COMMUTATIVE:
        return left_distributes_over_right(rop, lop)
    return lop in _LOGIC and rop in _SHIFTS


def _get_identity_value(opcode: str, v: Value) -> Value | None:
    if isinstance(v, Constant):
        return None
    return get_bin_op_identity(opcode, v.type, False)


_P_SHL_IMM = pm.m_shl(pm.m_value(), pm.m_imm_constant("c"))
_P_LSHR_NONNEG = pm.m_lshr(pm.m_non_negative(), pm.m_value())


def get_bin_ops_for_factorization(
    top_opcode: str, op: BinaryOperator, other_op: BinaryOperator | None
) -> tuple[str, Value, Value]:
    """The (opcode, LHS, RHS) to factorize ``op`` with: ``X << C`` is ``X * (1 << C)``
    under add/sub; ``lshr nneg C, X`` is ``ashr`` beside an ``ashr`` under bitwise
    logic (LLVM ``getBinOpsForFactorization``)."""
    lhs = op.operands[0]
    rhs = op.operands[1]
    if top_opcode in ("add", "sub"):
        m = pm.match(op, _P_SHL_IMM)
        if m is not None:
            one = get_int_constant(op.type, 1)
            from llvmpy_mid.ir.constant_fold import constant_fold_binary_instruction

            r = constant_fold_binary_instruction("shl", one, m.c)
            assert r is not None
            return "mul", lhs, r
    if top_opcode in _LOGIC:
        if other_op is not None and other_op.opcode == "ashr" and pm.match(op, _P_LSHR_NONNEG) is not None:
            return "ashr", lhs, rhs
    return op.opcode, lhs, rhs


def try_factorization(
    ic: InstCombiner, i: BinaryOperator, inner_opcode: str, a: Value, b: Value, c: Value, d: Value
) -> Value | None:
    """(A op' B) op (A op' D) -> A op' (B op D), (A op' B) op (C op' B) -> (A op C) op' B
    when the new inner operation simplifies or an old one dies (LLVM ``tryFactorization``)."""
    builder = ic.builder
    v: Value | None = None
    ret: Value | None = None
    lhs, rhs = i.operands[0], i.operands[1]
    top = i.opcode
    inner_commutative = inner_opcode in _COMMUTATIVE
    q = ic.query(i)
    if left_distributes_over_right(inner_opcode, top):
        if a is c or (inner_commutative and a is d):
            if a is not c:
                c, d = d, c
            v = simplify_binop(top, b, d, q)
            if v is None and (lhs.has_one_use or rhs.has_one_use):
                v = create_bin_op(builder, top, b, d, rhs.name)
            if v is not None:
                ret = create_bin_op(builder, inner_opcode, a, v)
    if ret is None and right_distributes_over_left(top, inner_opcode):
        if b is d or (inner_commutative and b is c):
            if b is not d:
                c, d = d, c
            v = simplify_binop(top, a, c, q)
            if v is None and (lhs.has_one_use or rhs.has_one_use):
                v = create_bin_op(builder, top, a, c, lhs.name)
            if v is not None:
                ret = create_bin_op(builder, inner_opcode, v, b)
    if ret is None:
        return None
    _take_name(ret, i)
    if isinstance(ret, BinaryOperator) and ret.has_wrap_flags:
        has_nsw = False
        has_nuw = False
        if i.has_wrap_flags:
            has_nsw = i.nsw
            has_nuw = i.nuw
        if isinstance(lhs, BinaryOperator) and lhs.has_wrap_flags:
            has_nsw &= lhs.nsw
            has_nuw &= lhs.nuw
        if isinstance(rhs, BinaryOperator) and rhs.has_wrap_flags:
            has_nsw &= rhs.nsw
            has_nuw &= rhs.nuw
        if top == "add" and inner_opcode == "mul":
            assert v is not None
            mc = pm.match(v, pm.m_apint("c"))
            if mc is not None:
                w = cast(IntegerType, v.type.scalar_type).width
                if mc.apint("c") != 1 << (w - 1):
                    ret.nsw = has_nsw
            ret.nuw = has_nuw
    elif isinstance(ret, ConstantExpr):
        pass
    return ret


def try_factorization_folds(ic: InstCombiner, i: BinaryOperator) -> Value | None:
    """Factorize a common term out of (A op' B) op (C op' D), (A op' B) op C, B op (C op' D)
    (LLVM ``tryFactorizationFolds``)."""
    lhs, rhs = i.operands[0], i.operands[1]
    op0 = lhs if isinstance(lhs, BinaryOperator) else None
    op1 = rhs if isinstance(rhs, BinaryOperator) else None
    top = i.opcode
    if op0 is not None:
        lop, a, b = get_bin_ops_for_factorization(top, op0, op1)
    if op1 is not None:
        rop, c, d = get_bin_ops_for_factorization(top, op1, op0)
    if op0 is not None and op1 is not None and lop == rop:
        v = try_factorization(ic, i, lop, a, b, c, d)
        if v is not None:
            return v
    if op0 is not None:
        ident = _get_identity_value(lop, rhs)
        if ident is not None:
            v = try_factorization(ic, i, lop, a, b, rhs, ident)
            if v is not None:
                return v
    if op1 is not None:
        ident = _get_identity_value(rop, lhs)
        if ident is not None:
            v = try_factorization(ic, i, rop, lhs, ident, c, d)
            if v is not None:
                return v
    return None


def fold_using_distributive_laws(ic: InstCombiner, i: Instruction) -> Value | None:
    """Factorize ((A*B)+(A*C) -> A*(B+C)) or expand when both halves simplify
    (A & (B | C) -> (A&B) | (A&C)), then thread selects
    (LLVM ``foldUsingDistributiveLaws``)."""
    assert isinstance(i, BinaryOperator)
    lhs, rhs = i.operands[0], i.operands[1]
    op0 = lhs if isinstance(lhs, BinaryOperator) else None
    op1 = rhs if isinstance(rhs, BinaryOperator) else None
    top = i.opcode
    r = try_factorization_folds(ic, i)
    if r is not None:
        return r
    builder = ic.builder
    if op0 is not None and right_distributes_over_left(op0.opcode, top):
        a, b, c = op0.operands[0], op0.operands[1], rhs
        inner = op0.opcode
        qd = ic.query(i).get_without_undef()
        lv = simplify_binop(top, a, c, qd)
        rv = simplify_binop(top, b, c, qd)
        if lv is not None and rv is not None:
            res = create_bin_op(builder, inner, lv, rv)
            _take_name(res, i)
            return res
        if lv is not None and lv is get_bin_op_identity(inner, lv.type, False):
            res = create_bin_op(builder, top, b, c)
            _take_name(res, i)
            return res
        if rv is not None and rv is get_bin_op_identity(inner, rv.type, False):
            res = create_bin_op(builder, top, a, c)
            _take_name(res, i)
            return res
    if op1 is not None and left_distributes_over_right(top, op1.opcode):
        a, b, c = lhs, op1.operands[0], op1.operands[1]
        inner = op1.opcode
        qd = ic.query(i).get_without_undef()
        lv = simplify_binop(top, a, b, qd)
        rv = simplify_binop(top, a, c, qd)
        if lv is not None and rv is not None:
            res = create_bin_op(builder, inner, lv, rv)
            _take_name(res, i)
            return res
        if lv is not None and lv is get_bin_op_identity(inner, lv.type, False):
            res = create_bin_op(builder, top, a, c)
            _take_name(res, i)
            return res
        if rv is not None and rv is get_bin_op_identity(inner, rv.type, False):
            res = create_bin_op(builder, top, a, b)
            _take_name(res, i)
            return res
    return simplify_selects_feeding_binary_op(ic, i, lhs, rhs)


def simplify_selects_feeding_binary_op(ic: InstCombiner, i: BinaryOperator, lhs: Value, rhs: Value) -> Value | None:
    """(A ? B : C) op (A ? E : F) -> A ? (B op E) : (C op F), (A ? B : C) op Y ->
    A ? (B op Y) : (C op Y) when both arms simplify (LLVM ``SimplifySelectsFeedingBinaryOp``)."""
    ml = pm.match(lhs, _P_SELECT)
    mr = pm.match(rhs, _P_SELECT)
    if ml is None and mr is None:
        return None
    builder = ic.builder
    fmf = int(i.fast_math_flags) if i.is_fp_op else 0
    saved_fmf = builder.fast_math_flags
    if i.is_fp_op:
        builder.fast_math_flags = FastMathFlags(fmf)
    try:
        opcode = i.opcode
        q = ic.query(i)
        cond: Value | None = None
        true_v: Value | None = None
        false_v: Value | None = None

        def fold_add_negate(tval: Value, fval: Value, z: Value) -> Value | None:
            if opcode != "add" or (true_v is None and false_v is None) or (true_v is not None and false_v is not None):
                return None
            assert cond is not None
            if true_v is not None:
                mn = pm.match(fval, _P_NEG)
                if mn is not None:
                    sub = builder.create_sub(z, mn.x)
                    return builder.create_select(cond, true_v, sub, i.name)
            if false_v is not None:
                mn = pm.match(tval, _P_NEG)
                if mn is not None:
                    sub = builder.create_sub(z, mn.x)
                    return builder.create_select(cond, sub, false_v, i.name)
            return None

        if ml is not None and mr is not None and ml.c is mr.c:
            cond = ml.value("c")
            true_v = simplify_binop(opcode, ml.t, mr.t, q, fmf=fmf)
            false_v = simplify_binop(opcode, ml.f, mr.f, q, fmf=fmf)
            if lhs.has_one_use and rhs.has_one_use:
                if false_v is not None and true_v is None:
                    true_v = create_bin_op(builder, opcode, ml.t, mr.t)
                elif true_v is not None and false_v is None:
                    false_v = create_bin_op(builder, opcode, ml.f, mr.f)
        elif ml is not None and lhs.has_one_use:
            cond = ml.value("c")
            true_v = simplify_binop(opcode, ml.t, rhs, q, fmf=fmf)
            false_v = simplify_binop(opcode, ml.f, rhs, q, fmf=fmf)
            ns = fold_add_negate(ml.t, ml.f, rhs)
            if ns is not None:
                return ns
        elif mr is not None and rhs.has_one_use:
            cond = mr.value("c")
            true_v = simplify_binop(opcode, lhs, mr.t, q, fmf=fmf)
            false_v = simplify_binop(opcode, lhs, mr.f, q, fmf=fmf)
            ns = fold_add_negate(mr.t, mr.f, lhs)
            if ns is not None:
                return ns
        if true_v is None or false_v is None:
            return None
        assert cond is not None
        si = builder.create_select(cond, true_v, false_v)
        _take_name(si, i)
        return si
    finally:
        builder.fast_math_flags = saved_fmf


# =================================================================================================
# selects and phis
# =================================================================================================


def _constant_fold_operation_into_select_operand(i: Instruction, si: SelectInst, is_true_arm: bool, dl: object) -> Constant | None:
    ops: list[Constant] = []
    cond = si.condition
    for op in i.operands:
        c: Value | None
        if op is si:
            c = si.true_value if is_true_arm else si.false_value
            if not isinstance(c, Constant):
                return None
        elif (
            isinstance(cond, ICmpInst)
            and cond.lhs is op
            and isinstance(cond.rhs, Constant)
            and cond.predicate == (Predicate.ICMP_EQ if is_true_arm else Predicate.ICMP_NE)
            and is_guaranteed_not_to_be_undef_or_poison(cond.rhs)
        ):
            c = cond.rhs
        else:
            c = op if isinstance(op, Constant) else None
        if c is None:
            return None
        ops.append(c)
    return constant_fold_inst_operands(i, ops, dl)  # type: ignore[arg-type]


def _fold_operation_into_select_operand(ic: InstCombiner, i: Instruction, si: SelectInst, new_op: Value) -> Value:
    clone = i.clone()
    clone.replace_uses_of_with(si, new_op)
    drop_ub_implying_attrs_and_metadata(clone)
    ic.insert_new_inst_before(clone, si)
    return clone


def drop_ub_implying_attrs_and_metadata(i: Instruction) -> None:
    """Keep only ``!annotation``, ``!range``, ``!nonnull``, ``!align`` (and ``!dbg``);
    on a call also drop ``noundef``/``dereferenceable``/``dereferenceable_or_null``
    from the return and the parameters (LLVM ``dropUBImplyingAttrsAndMetadata``)."""
    i.drop_unknown_non_debug_metadata(("annotation", "range", "nonnull", "align"))
    if isinstance(i, CallBase):
        al = i.attributes
        if not al:
            return
        for kind in ("noundef", "dereferenceable", "dereferenceable_or_null"):
            for arg_no in range(i.arg_size):
                if al.has_param_attr(arg_no, kind):
                    al = al.without_param_attr(arg_no, kind)
            if al.has_ret_attr(kind):
                al = al.without_ret_attr(kind)
        i.attributes = al


def fold_op_into_select(ic: InstCombiner, op: Instruction, si: SelectInst, fold_with_multi_use: bool = False) -> Instruction | None:
    """op (select C, TC, FV) -> select C, (op TC), (op FV) when an arm constant-folds
    (LLVM ``FoldOpIntoSelect``)."""
    if not si.has_one_use and not fold_with_multi_use:
        return None
    tv = si.true_value
    fv = si.false_value
    if not (isinstance(tv, Constant) or isinstance(fv, Constant)):
        return None
    sty = si.type.scalar_type
    if isinstance(sty, IntegerType) and sty.width == 1:
        return None
    ci = si.condition
    if isinstance(ci, FCmpInst) and ci.has_one_use:
        o0, o1 = ci.lhs, ci.rhs
        if (tv is o0 and fv is o1) or (fv is o0 and tv is o1):
            return None
    new_tv: Value | None = _constant_fold_operation_into_select_operand(op, si, True, ic.dl)
    new_fv: Value | None = _constant_fold_operation_into_select_operand(op, si, False, ic.dl)
    if new_tv is None and new_fv is None:
        return None
    if new_tv is None:
        new_tv = _fold_operation_into_select_operand(ic, op, si, tv)
    if new_fv is None:
        new_fv = _fold_operation_into_select_operand(ic, op, si, fv)
    new = SelectInst(si.condition, new_tv, new_fv)
    copy_metadata_from(new, si)
    return new


def copy_metadata_from(new: Instruction, src: Instruction) -> None:
    """``SelectInst::Create(..., MDFrom)`` / ``copyMetadata(*src)``: every attachment of
    ``src`` but ``!dbg`` (the driver gives the result the visited instruction's location)."""
    for kind, md in src.metadata_items():
        if kind != "dbg":
            new.set_metadata(kind, md)


def _simplify_instruction_with_phi(ic: InstCombiner, i: Instruction, pn: PHINode, in_value: Value, in_bb: BasicBlock) -> Value | None:
    ops: list[Value] = []
    cur = pn.parent
    assert cur is not None
    for op in i.operands:
        if op is pn:
            ops.append(in_value)
        else:
            ops.append(do_phi_translation(op, cur, in_bb))
    term = in_bb.terminator
    new_val = simplify_instruction_with_operands(i, ops, ic.query(term))
    if new_val is not None and new_val is not pn and not isinstance(new_val, ConstantExpr):
        return new_val
    if (
        isinstance(term, BranchInst)
        and term.is_conditional
        and term.get_successor(0) is not term.get_successor(1)
        and isinstance(i, ICmpInst)
    ):
        lhs_is_true = term.get_successor(0) is cur
        implied = is_implied_condition_pred(term.condition, i.predicate, ops[0], ops[1], ic.dl, lhs_is_true)
        if implied is not None:
            from llvmpy_mid.analysis.instsimplify._util import get_bool

            return get_bool(i.type, implied)
    return None


def fold_op_into_phi(ic: InstCombiner, i: Instruction, pn: PHINode) -> Instruction | None:
    """op (phi [C1, B1], [X, B2]) -> phi [op C1, B1], [op X, B2] when all but one
    incoming value simplify (LLVM ``foldOpIntoPhi``)."""
    from llvmpy_mid.analysis.cfg import is_potentially_reachable

    n = pn.num_incoming
    if n == 0:
        return None
    if not pn.has_one_use:
        for user in pn.users:
            if user is not i and not i.is_identical_to(cast(Instruction, user)):
                return None
    new_values: list[Value | None] = []
    non_simplified_bb: BasicBlock | None = None
    non_simplified_val: Value | None = None
    for k in range(n):
        in_val = pn.get_incoming_value(k)
        in_bb = pn.get_incoming_block(k)
        nv = _simplify_instruction_with_phi(ic, i, pn, in_val, in_bb)
        if nv is not None:
            new_values.append(nv)
            continue
        if non_simplified_bb is not None:
            return None
        non_simplified_bb = in_bb
        non_simplified_val = in_val
        new_values.append(None)
        if isinstance(in_val, InvokeInst) and in_val.parent is non_simplified_bb:
            return None
        assert pn.parent is not None
        if is_potentially_reachable(pn.parent, non_simplified_bb, ic.dt):
            return None
    if non_simplified_bb is not None:
        bi = non_simplified_bb.terminator
        if not isinstance(bi, BranchInst) or not bi.is_unconditional or not ic.dt.is_reachable(non_simplified_bb):
            return None
    new_pn = PHINode(i.type)
    ic.insert_new_inst_before(new_pn, pn)
    _take_name(new_pn, pn)
    new_pn.debug_loc = pn.debug_loc
    clone: Instruction | None = None
    if non_simplified_bb is not None:
        clone = i.clone()
        assert pn.parent is not None
        for idx, op in enumerate(clone.operands):
            if op is pn:
                assert non_simplified_val is not None
                clone.set_operand(idx, non_simplified_val)
            else:
                clone.set_operand(idx, do_phi_translation(op, pn.parent, non_simplified_bb))
        term = non_simplified_bb.terminator
        assert term is not None
        ic.insert_new_inst_before(clone, term)
    for k in range(n):
        v = new_values[k]
        new_pn.add_incoming(v if v is not None else cast(Value, clone), pn.get_incoming_block(k))
    for user in list(pn.users):
        if user is i:
            continue
        u = cast(Instruction, user)
        ic.replace_inst_uses_with(u, new_pn)
        ic.erase_inst_from_function(u)
    _replace_all_dbg_uses_with(ic, pn, new_pn)
    return ic.replace_inst_uses_with(i, new_pn)


def _replace_all_dbg_uses_with(ic: InstCombiner, old: Instruction, new: Instruction) -> None:
    from llvmpy_mid.transform.utils.local import replace_all_dbg_uses_with

    replace_all_dbg_uses_with(old, new, old, ic.dt)


def fold_binop_with_phi_operands(ic: InstCombiner, bo: Instruction) -> Instruction | None:
    """(phi [0, B0], [X, B1]) + (phi [Y, B0], [0, B1]) -> phi [Y, B0], [X, B1]; with a
    constant pair from one predecessor, compute the other in its predecessor
    (LLVM ``foldBinopWithPhiOperands``)."""
    assert isinstance(bo, BinaryOperator)
    phi0 = bo.operands[0]
    phi1 = bo.operands[1]
    if not isinstance(phi0, PHINode) or not isinstance(phi1, PHINode):
        return None
    if not phi0.has_one_use or not phi1.has_one_use or phi0.num_operands != phi1.num_operands:
        return None
    if bo.parent is not phi0.parent or bo.parent is not phi1.parent:
        return None
    c = get_bin_op_identity(bo.opcode, bo.type, False)
    n = phi0.num_incoming
    if c is not None:
        new_incoming: list[Value] = []
        ok = True
        for k in range(n):
            if phi0.get_incoming_block(k) is not phi1.get_incoming_block(k):
                ok = False
                break
            v0 = phi0.get_incoming_value(k)
            v1 = phi1.get_incoming_value(k)
            if v0 is c:
                new_incoming.append(v1)
            elif v1 is c:
                new_incoming.append(v0)
            else:
                ok = False
                break
        if ok:
            new_phi = PHINode(phi0.type)
            for k in range(n):
                new_phi.add_incoming(new_incoming[k], phi0.get_incoming_block(k))
            return new_phi
    if n != 2 or phi1.num_incoming != 2:
        return None
    if pm.match(phi0.get_incoming_value(0), _P_IMM) is not None:
        c0 = cast(Constant, phi0.get_incoming_value(0))
        const_bb = phi0.get_incoming_block(0)
        other_bb = phi0.get_incoming_block(1)
    elif pm.match(phi0.get_incoming_value(1), _P_IMM) is not None:
        c0 = cast(Constant, phi0.get_incoming_value(1))
        const_bb = phi0.get_incoming_block(1)
        other_bb = phi0.get_incoming_block(0)
    else:
        return None
    v1c = phi1.incoming_value_for_block(const_bb)
    if pm.match(v1c, _P_IMM) is None:
        return None
    c1 = cast(Constant, v1c)
    pred_branch = other_bb.terminator
    if not isinstance(pred_branch, BranchInst) or pred_branch.is_conditional or not ic.dt.is_reachable(other_bb):
        return None
    bb = bo.parent
    assert bb is not None
    for inst in bb.instructions:
        if inst is bo:
            break
        if not is_guaranteed_to_transfer_execution_to_successor(inst):
            return None
    new_c = constant_fold_binary_op_operands(bo.opcode, c0, c1, ic.dl)
    if new_c is None:
        return None
    builder = ic.builder
    builder.position_before(pred_branch)
    builder.debug_loc = pred_branch.debug_loc
    new_bo = create_bin_op(builder, bo.opcode, phi0.incoming_value_for_block(other_bb), phi1.incoming_value_for_block(other_bb))
    if isinstance(new_bo, BinaryOperator):
        copy_ir_flags(new_bo, bo)
    new_phi = PHINode(bo.type)
    new_phi.add_incoming(new_bo, other_bb)
    new_phi.add_incoming(new_c, const_bb)
    return new_phi


def fold_binop_into_select_or_phi(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """op (select ...), C / op (phi ...), C -> fold the operation into the arms
    (LLVM ``foldBinOpIntoSelectOrPhi``)."""
    if not isinstance(i.operands[1], Constant):
        return None
    op0 = i.operands[0]
    if isinstance(op0, SelectInst):
        return fold_op_into_select(ic, i, op0)
    if isinstance(op0, PHINode):
        return fold_op_into_phi(ic, i, op0)
    return None


# =================================================================================================
# vector binops
# =================================================================================================


def _shuffle_parts(v: Value) -> tuple[Value, Value, tuple[int, ...]] | None:
    if isinstance(v, ShuffleVectorInst):
        return v.operands[0], v.operands[1], v.mask
    return None


def _is_single_source_mask(mask: Sequence[int], n: int) -> bool:
    uses_lhs = uses_rhs = False
    for m in mask:
        if m == -1:
            continue
        uses_lhs |= m < n
        uses_rhs |= m >= n
        if uses_lhs and uses_rhs:
            return False
    return uses_lhs or uses_rhs


def _is_concat(s: ShuffleVectorInst) -> bool:
    """LLVM ``ShuffleVectorInst::isConcat``."""
    if isinstance(s.operands[0], UndefValue) or isinstance(s.operands[1], UndefValue):
        return False
    if cast(VectorType, s.type).scalable:
        return False
    src = s.operands[0].type
    assert isinstance(src, VectorType)
    n = src.count
    mask = s.mask
    nm = len(mask)
    if nm != 2 * n:
        return False
    if not _is_single_source_mask(mask, nm):
        return False
    return all(m == -1 or m == k or m == nm + k for k, m in enumerate(mask))


def _is_select_mask(s: ShuffleVectorInst) -> bool:
    """LLVM ``ShuffleVectorInst::isSelect``."""
    src = s.operands[0].type
    assert isinstance(src, VectorType)
    if src.scalable:
        return False
    n = src.count
    mask = s.mask
    if len(mask) != n:
        return False
    if _is_single_source_mask(mask, n):
        return False
    return all(m == -1 or m == k or m == n + k for k, m in enumerate(mask))


def is_splat_value_at(v: Value, index: int = -1, depth: int = 0) -> bool:
    """Every lane of ``v`` (or lane ``index``) holds the same value
    (LLVM ``isSplatValue`` of VectorUtils)."""
    if isinstance(v.type, VectorType):
        if isinstance(v, UndefValue):
            return True
        if isinstance(v, Constant):
            return get_splat_value(v) is not None
    if isinstance(v, ShuffleVectorInst):
        mask = v.mask
        if any(m != mask[0] for m in mask):
            return False
        if index == -1:
            return True
        return v.get_mask_value(index) == index
    depth += 1
    if depth == MAX_ANALYSIS_RECURSION_DEPTH:
        return False
    op = getattr(v, "opcode", None)
    if op in _INT_BINOPS or op in _FP_BINOPS:
        ops = cast(Instruction, v).operands
        return is_splat_value_at(ops[0], index, depth) and is_splat_value_at(ops[1], index, depth)
    if op == "select" and isinstance(v, Instruction):
        ops = v.operands
        return all(is_splat_value_at(o, index, depth) for o in ops)
    return False


def _vec_reverse_arg(v: Value) -> Value | None:
    if intrinsic_base_of(v) == "vector.reverse":
        return cast(Instruction, v).operands[0]
    return None


def fold_vector_binop(ic: InstCombiner, inst: Instruction) -> Instruction | None:
    """Move shuffles and reverses after the binary operation: op (concat L0 L1) (concat R0 R1)
    -> concat (op L0 R0) (op L1 R1), op (rev V1) (rev V2) -> rev (op V1 V2),
    op (shuf V1 M) (shuf V2 M) -> shuf (op V1 V2) M, op (shuf V1 M) C -> shuf (op V1 C') M,
    op (splat X) (op Y Z) -> op (splat (op X Y)) Z (LLVM ``foldVectorBinop``)."""
    assert isinstance(inst, BinaryOperator)
    ty = inst.type
    if not isinstance(ty, VectorType):
        return None
    opcode = inst.opcode
    lhs, rhs = inst.operands[0], inst.operands[1]
    builder = ic.builder
    ls = _shuffle_parts(lhs)
    rs = _shuffle_parts(rhs)
    if (
        ls is not None
        and rs is not None
        and ls[2] == rs[2]
        and lhs.has_one_use
        and rhs.has_one_use
        and _is_concat(cast(ShuffleVectorInst, lhs))
        and _is_concat(cast(ShuffleVectorInst, rhs))
    ):
        nb0 = create_bin_op(builder, opcode, ls[0], rs[0])
        if isinstance(nb0, BinaryOperator):
            copy_ir_flags(nb0, inst)
        nb1 = create_bin_op(builder, opcode, ls[1], rs[1])
        if isinstance(nb1, BinaryOperator):
            copy_ir_flags(nb1, inst)
        return ShuffleVectorInst(nb0, nb1, ls[2])

    def create_binop_reverse(x: Value, y: Value) -> Instruction:
        v = create_bin_op(builder, opcode, x, y, inst.name)
        if isinstance(v, BinaryOperator):
            copy_ir_flags(v, inst)
        fn = inst.function
        assert fn is not None and fn.parent is not None
        full = mangle_intrinsic_name("llvm.vector.reverse", [v.type])
        assert full is not None
        decl = intrinsic_declaration(fn.parent, full, v.type.context.function_type(v.type, [v.type]))
        return CallInst(decl.function_type, decl, [v])

    v1 = _vec_reverse_arg(lhs)
    if v1 is not None:
        v2 = _vec_reverse_arg(rhs)
        if v2 is not None and (lhs.has_one_use or rhs.has_one_use or (lhs is rhs and lhs.has_n_uses(2))):
            return create_binop_reverse(v1, v2)
        if lhs.has_one_use and is_splat_value_at(rhs):
            return create_binop_reverse(v1, rhs)
    elif is_splat_value_at(lhs):
        v2 = _vec_reverse_arg(rhs)
        if v2 is not None and rhs.has_one_use:
            return create_binop_reverse(lhs, v2)

    if not is_safe_to_speculatively_execute(inst):
        return None

    def create_binop_shuffle(x: Value, y: Value, mask: Sequence[int]) -> Instruction:
        xy = create_bin_op(builder, opcode, x, y)
        if isinstance(xy, BinaryOperator):
            copy_ir_flags(xy, inst)
        return ShuffleVectorInst(xy, PoisonValue.get(xy.type), mask)

    if (
        ls is not None
        and rs is not None
        and isinstance(ls[1], PoisonValue)
        and isinstance(rs[1], PoisonValue)
        and ls[2] == rs[2]
        and ls[0].type is rs[0].type
        and (lhs.has_one_use or rhs.has_one_use or lhs is rhs)
    ):
        return create_binop_shuffle(ls[0], rs[0], ls[2])

    if inst.is_commutative and ls is not None and rs is not None and rs[0] is ls[1] and rs[1] is ls[0] and rs[2] == ls[2]:
        lsh = cast(ShuffleVectorInst, lhs)
        rsh = cast(ShuffleVectorInst, rhs)
        if _is_select_mask(lsh) and -1 not in lsh.mask and _is_select_mask(rsh) and -1 not in rsh.mask:
            new = BinaryOperator.create(opcode, ls[0], ls[1])
            copy_ir_flags(new, inst)
            return new

    # op (shuffle V1, poison, M), C  /  op C, (shuffle V1, poison, M)
    shuf_side: Value | None = None
    c: Constant | None = None
    if ls is not None and lhs.has_one_use and isinstance(ls[1], PoisonValue) and pm.match(rhs, _P_IMM) is not None:
        shuf_side, c = lhs, cast(Constant, rhs)
    elif rs is not None and rhs.has_one_use and isinstance(rs[1], PoisonValue) and pm.match(lhs, _P_IMM) is not None:
        shuf_side, c = rhs, cast(Constant, lhs)
    if shuf_side is not None and c is not None and not ty.scalable:
        sv = cast(ShuffleVectorInst, shuf_side)
        v1s = sv.operands[0]
        v1ty = v1s.type
        assert isinstance(v1ty, VectorType)
        num_elts = ty.count
        if v1ty.count <= num_elts:
            const_op1 = isinstance(rhs, Constant)
            sh_mask = sv.mask
            src_n = v1ty.count
            poison_scalar = PoisonValue.get(c.type.scalar_type)
            new_vec: list[Constant] = [poison_scalar] * src_n
            may_change = True
            for k in range(num_elts):
                celt = c.get_aggregate_element(k)
                if sh_mask[k] >= 0:
                    new_celt = new_vec[sh_mask[k]]
                    if celt is None or (not isinstance(new_celt, PoisonValue) and new_celt is not celt) or k >= src_n:
                        may_change = False
                        break
                    new_vec[sh_mask[k]] = celt
                if k >= src_n or sh_mask[k] < 0:
                    assert celt is not None
                    if const_op1:
                        maybe = constant_fold_binary_op_operands(opcode, poison_scalar, celt, ic.dl)
                    else:
                        maybe = constant_fold_binary_op_operands(opcode, celt, poison_scalar, ic.dl)
                    if maybe is None or not isinstance(maybe, PoisonValue):
                        may_change = False
                        break
            if may_change:
                new_c = ConstantVector.get(new_vec)
                if inst.is_int_div_rem or (inst.is_shift and const_op1):
                    new_c = get_safe_vector_constant_for_binop(opcode, new_c, const_op1)
                nl = v1s if const_op1 else new_c
                nr = new_c if const_op1 else v1s
                return create_binop_shuffle(nl, nr, sh_mask)

    if inst.is_associative and inst.is_commutative:
        if isinstance(rhs, ShuffleVectorInst):
            lhs, rhs = rhs, lhs
        if not isinstance(lhs, ShuffleVectorInst) or not lhs.has_one_use:
            return None
        x = lhs.operands[0]
        if not isinstance(lhs.operands[1], UndefValue):
            return None
        mask_c = lhs.mask
        splat_index = -1
        for m in mask_c:
            if m < 0:
                continue
            if splat_index < 0:
                splat_index = m
            elif m != splat_index:
                return None
        if splat_index < 0:
            return None
        if x.type is not inst.type:
            return None
        if not isinstance(rhs, BinaryOperator) or rhs.opcode != opcode or not rhs.has_one_use:
            return None
        y = rhs.operands[0]
        other = rhs.operands[1]
        if is_splat_value_at(other, splat_index):
            y, other = other, y
        elif not is_splat_value_at(y, splat_index):
            return None
        new_bo = create_bin_op(builder, opcode, x, y)
        new_splat = builder.create_shuffle_vector(new_bo, PoisonValue.get(new_bo.type), [splat_index] * len(mask_c))
        r = BinaryOperator.create(opcode, new_splat, other)
        if r.is_fp_op:
            r.fast_math_flags = inst.fast_math_flags
            and_ir_flags(r, rhs)
        if isinstance(new_bo, BinaryOperator):
            copy_ir_flags(new_bo, r)
        return r
    return None


# =================================================================================================
# assorted binop folds of InstructionCombining.cpp
# =================================================================================================


def try_fold_inst_with_ctpop_with_not(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """C op ctpop(~x) -> C' op ctpop(x) for add/sub/disjoint or/unsigned icmp
    (LLVM ``tryFoldInstWithCtpopWithNot``)."""
    opc = i.opcode
    const_idx = 1
    if opc == "sub":
        const_idx = 0
    elif opc == "icmp":
        if cast(ICmpInst, i).predicate.is_signed:
            return None
    elif opc == "or":
        if not (isinstance(i, BinaryOperator) and i.disjoint):
            return None
    elif opc != "add":
        return None
    m = pm.match(i.operands[1 - const_idx], _P_CTPOP_ONE_USE)
    if m is None:
        return None
    op: Value = m.x
    c = i.operands[const_idx]
    if pm.match(c, _P_IMM) is None:
        return None
    assert isinstance(c, Constant)
    ty = op.type
    bw = cast(IntegerType, ty.scalar_type).width
    bitwidth_c = get_int_constant(ty, bw)
    if opc == "icmp" and not cast(ICmpInst, i).predicate.is_equality:
        cmp = constant_fold_compare_inst_operands(Predicate.ICMP_UGT, c, bitwidth_c, ic.dl)
        if cmp is None or not cmp.is_zero_value:
            return None
    consume = [False]
    if not is_free_to_invert(ic, op, op.has_one_use, consume) or not consume[0]:
        return None
    not_op = get_freely_inverted(ic, op, op.has_one_use, ic.builder)
    assert not_op is not None
    ctpop = ic.builder.create_intrinsic("ctpop", [ty], [not_op])
    if opc == "sub":
        r = ic.builder.create_add(ctpop, ConstantExpr.get_sub(c, bitwidth_c))
    elif opc in ("or", "add"):
        r = ic.builder.create_sub(ConstantExpr.get_add(c, bitwidth_c), ctpop)
    else:
        r = ic.builder.create_icmp(cast(ICmpInst, i).swapped_predicate, ctpop, ConstantExpr.get_sub(bitwidth_c, c))
    return ic.replace_inst_uses_with(i, r)


_P_SHIFT_ANY = pm.m_one_use(pm.m_value("sh"))


def fold_bin_op_shift_with_shift(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """(binop1 (binop2 (sh X, C), C1), (sh Y, C)) -> (sh (binop1 (binop2 X, C1'), Y), C),
    and the same-opcode and ashr/not variants (LLVM ``foldBinOpShiftWithShift``)."""
    assert isinstance(i, BinaryOperator)
    dl = ic.dl
    builder = ic.builder
    valid = ("and", "or", "xor", "add")

    def completely_distributable(b1: str, b2: str, sh: str) -> bool:
        return (b1 != "add" and b2 != "add") or sh == "shl"

    def inv_shift(sh: str) -> str:
        return "shl" if sh == "lshr" else "lshr"

    def can_distribute(b1: str, b2: str, sh: str, cmask: Constant, cshift: Constant) -> bool:
        if b1 == "and":
            return True
        if not completely_distributable(b1, b2, sh):
            return False
        if b2 == "and":
            return True
        mis = constant_fold_binary_op_operands(inv_shift(sh), cmask, cshift, dl)
        if mis is None:
            return False
        return constant_fold_binary_op_operands(sh, mis, cshift, dl) is cmask

    def match_binop(sh_opnum: int) -> Instruction | None:
        iy = i.operands[sh_opnum]
        if not isinstance(iy, Instruction) or iy.opcode not in _SHIFTS or not iy.has_one_use:
            return None
        y, shift = iy.operands[0], iy.operands[1]
        bo2 = i.operands[1 - sh_opnum]
        if getattr(bo2, "opcode", None) not in _INT_BINOPS or not isinstance(bo2, (Instruction, ConstantExpr)):
            return None
        shifted_x, mask = bo2.operands[0], bo2.operands[1]
        if getattr(shifted_x, "opcode", None) not in _SHIFTS or not shifted_x.has_one_use:
            return None
        assert isinstance(shifted_x, (Instruction, ConstantExpr))
        if shifted_x.operands[1] is not shift:
            return None
        x = shifted_x.operands[0]
        if not isinstance(shifted_x, Instruction):
            return None
        sh_opc = iy.opcode
        if sh_opc != shifted_x.opcode:
            return None
        if not isinstance(bo2, Instruction):
            return None
        bin_opc = bo2.opcode
        if i.opcode not in valid or bin_opc not in valid:
            return None
        if sh_opc == "ashr":
            if i.opcode in _LOGIC and bin_opc == "xor" and pm.match(mask, pm.m_all_ones()) is not None:
                not_x = builder.create_not(x)
                nb = create_bin_op(builder, i.opcode, y, not_x)
                return BinaryOperator.create(sh_opc, nb, shift)
            return None
        if bin_opc == i.opcode and completely_distributable(i.opcode, bin_opc, sh_opc):
            nb2 = create_bin_op(builder, i.opcode, x, y)
            nb1 = create_bin_op(builder, sh_opc, nb2, shift)
            return BinaryOperator.create(i.opcode, nb1, mask)
        if pm.match(shift, _P_IMM) is None or pm.match(mask, _P_IMM) is None:
            return None
        cshift = cast(Constant, shift)
        cmask = cast(Constant, mask)
        if not can_distribute(i.opcode, bin_opc, sh_opc, cmask, cshift):
            return None
        new_cmask = constant_fold_binary_op_operands(inv_shift(sh_opc), cmask, cshift, dl)
        assert new_cmask is not None
        nb2 = create_bin_op(builder, bin_opc, x, new_cmask)
        nb1 = create_bin_op(builder, i.opcode, y, nb2)
        return BinaryOperator.create(sh_opc, nb1, cshift)

    r = match_binop(0)
    if r is not None:
        return r
    return match_binop(1)


def fold_binop_of_select_and_cast_of_select_condition(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """(zext C) op (select C, T, F) -> select C, (1 op T), (0 op F); sext gives -1
    (LLVM ``foldBinOpOfSelectAndCastOfSelectCondition``)."""
    assert isinstance(i, BinaryOperator)
    opc = i.opcode
    lhs, rhs = i.operands[0], i.operands[1]

    def match_select_and_cast(cast_op: Value, select_op: Value) -> tuple[Value, Value, Value, Value] | None:
        mc = pm.match(cast_op, _P_ZEXT_OR_SEXT)
        if mc is None:
            return None
        a = mc.value("a")
        sty = a.type.scalar_type
        if not (isinstance(sty, IntegerType) and sty.width == 1):
            return None
        ms = pm.match(select_op, _P_SELECT)
        if ms is None:
            return None
        return a, ms.value("c"), ms.value("t"), ms.value("f")

    got = match_select_and_cast(lhs, rhs)
    if got is not None:
        cast_op = lhs
    else:
        got = match_select_and_cast(rhs, lhs)
        if got is None:
            return None
        cast_op = rhs
    a, cond, tv, fv = got
    builder = ic.builder

    def new_folded_const(is_true_arm: bool, v: Value) -> Value:
        is_cast_op_rhs = cast_op is rhs
        is_zext = getattr(cast_op, "opcode", None) == "zext" and isinstance(cast_op, Instruction)
        if is_true_arm:
            c = Constant.get_null_value(v.type)
        elif is_zext:
            c = get_int_constant(v.type, 1)
        else:
            c = Constant.get_all_ones_value(v.type)
        return create_bin_op(builder, opc, v, c) if is_cast_op_rhs else create_bin_op(builder, opc, c, v)

    if cond is a:
        ntv = new_folded_const(False, tv)
        return SelectInst(cond, ntv, new_folded_const(True, fv))
    if pm.match(a, pm.m_not(pm.m_specific(cond))) is not None:
        ntv = new_folded_const(True, tv)
        return SelectInst(cond, ntv, new_folded_const(False, fv))
    return None


_P_SEXT = pm.m_sext(pm.m_value("x"))


def fold_binop_of_sext_bool_to_select(ic: InstCombiner, bo: Instruction) -> Instruction | None:
    """bo (sext i1 X), C -> select X, (bo -1, C), (bo 0, C) (LLVM ``foldBinopOfSextBoolToSelect``)."""
    m = pm.match(bo.operands[0], _P_SEXT)
    c = bo.operands[1]
    if m is None or pm.match(c, _P_IMM) is None:
        return None
    x = m.value("x")
    sty = x.type.scalar_type
    if not (isinstance(sty, IntegerType) and sty.width == 1):
        return None
    ones = Constant.get_all_ones_value(bo.type)
    zero = Constant.get_null_value(bo.type)
    tval = create_bin_op(ic.builder, bo.opcode, ones, c)
    fval = create_bin_op(ic.builder, bo.opcode, zero, c)
    return SelectInst(x, tval, fval)


def will_not_overflow(ic: InstCombiner, opcode: str, lhs: Value, rhs: Value, cxt_i: Instruction, is_signed: bool) -> bool:
    """LLVM ``InstCombinerImpl::willNotOverflow`` for add, sub and mul."""
    if opcode == "add":
        r = ic.compute_overflow_for_signed_add(lhs, rhs, cxt_i) if is_signed else ic.compute_overflow_for_unsigned_add(lhs, rhs, cxt_i)
    elif opcode == "sub":
        r = ic.compute_overflow_for_signed_sub(lhs, rhs, cxt_i) if is_signed else ic.compute_overflow_for_unsigned_sub(lhs, rhs, cxt_i)
    elif opcode == "mul":
        r = ic.compute_overflow_for_signed_mul(lhs, rhs, cxt_i) if is_signed else ic.compute_overflow_for_unsigned_mul(lhs, rhs, cxt_i)
    else:
        raise AssertionError("unexpected opcode for overflow query")
    return r == OverflowResult.NEVER_OVERFLOWS


def get_lossless_trunc(c: Constant, trunc_ty: Type, ext_op: str, dl: DataLayout | None = None) -> Constant | None:
    """C truncated to ``trunc_ty`` when extending it back gives C (LLVM ``getLosslessTrunc``)."""
    layout = dl if dl is not None else DataLayout()
    t = constant_fold_cast_operand("trunc", c, trunc_ty, layout)
    if t is None:
        return None
    back = constant_fold_cast_operand(ext_op, t, c.type, layout)
    if back is not c:
        return None
    return t


def get_lossless_unsigned_trunc(c: Constant, trunc_ty: Type, dl: DataLayout | None = None) -> Constant | None:
    """trunc C when zext gives C back (LLVM ``getLosslessUnsignedTrunc``)."""
    return get_lossless_trunc(c, trunc_ty, "zext", dl)


def get_lossless_signed_trunc(c: Constant, trunc_ty: Type, dl: DataLayout | None = None) -> Constant | None:
    """trunc C when sext gives C back (LLVM ``getLosslessSignedTrunc``)."""
    return get_lossless_trunc(c, trunc_ty, "sext", dl)


def is_desirable_int_type(ic: InstCombiner, width: int) -> bool:
    """i8, i16, i32 and the legal widths (LLVM ``isDesirableIntType``)."""
    if width in (8, 16, 32):
        return True
    return ic.dl.is_legal_integer(width)


def should_change_type_widths(ic: InstCombiner, from_width: int, to_width: int) -> bool:
    """Converting a computation from ``from_width`` to ``to_width`` bits is desirable
    (LLVM ``shouldChangeType(unsigned, unsigned)``)."""
    from_legal = from_width == 1 or ic.dl.is_legal_integer(from_width)
    to_legal = to_width == 1 or ic.dl.is_legal_integer(to_width)
    if to_width < from_width and is_desirable_int_type(ic, to_width):
        return True
    if (from_legal or is_desirable_int_type(ic, from_width)) and not to_legal:
        return False
    if not from_legal and not to_legal and to_width > from_width:
        return False
    return True


def should_change_type(ic: InstCombiner, from_ty: Type, to_ty: Type) -> bool:
    """Scalar integer types only (LLVM ``shouldChangeType(Type *, Type *)``)."""
    if not isinstance(from_ty, IntegerType) or not isinstance(to_ty, IntegerType):
        return False
    return should_change_type_widths(ic, from_ty.width, to_ty.width)


_P_SEXT_A = pm.m_sext(pm.m_value("x"))
_P_ZEXT_A = pm.m_zext(pm.m_value("x"))


def narrow_math_if_no_overflow(ic: InstCombiner, bo: Instruction) -> Instruction | None:
    """bo (ext X), (ext Y) -> ext (bo X, Y) and bo (ext X), C -> ext (bo X, C') when the
    narrow operation cannot overflow (LLVM ``narrowMathIfNoOverflow``)."""
    op0, op1 = bo.operands[0], bo.operands[1]
    if bo.opcode == "sub":
        op0, op1 = op1, op0
    m = pm.match(op0, _P_SEXT_A)
    is_sext = m is not None
    if m is None:
        m = pm.match(op0, _P_ZEXT_A)
        if m is None:
            return None
    x: Value = m.x
    cast_opc = "sext" if is_sext else "zext"
    m1 = pm.match(op1, _P_ZEXT_OR_SEXT)
    y: Value
    if not (
        m1 is not None
        and m1.value("a").type is x.type
        and getattr(op1, "opcode", None) == cast_opc
        and (op0.has_one_use or op1.has_one_use)
    ):
        if not op0.has_one_use or not isinstance(op1, Constant):
            return None
        narrow = get_lossless_trunc(op1, x.type, cast_opc, ic.dl)
        if narrow is None:
            return None
        y = narrow
    else:
        y = m1.value("a")
    if bo.opcode == "sub":
        x, y = y, x
    if not will_not_overflow(ic, bo.opcode, x, y, bo, is_sext):
        return None
    nb = ic.builder.create_bin_op(bo.opcode, x, y, "narrow")
    if isinstance(nb, BinaryOperator):
        if is_sext:
            nb.nsw = True
        else:
            nb.nuw = True
    return CastInst.create(cast_opc, nb, bo.type)


def simplify_int_to_ptr_round_trip_cast(ic: InstCombiner, val: Value) -> Value | None:
    """inttoptr (ptrtoint X) -> X when both casts keep the width
    (LLVM ``simplifyIntToPtrRoundTripCast``)."""
    dl = ic.dl
    if getattr(val, "opcode", None) != "inttoptr" or not isinstance(val, Instruction):
        return None
    src = val.operands[0]
    if dl.type_size_in_bits(val.type) != dl.type_size_in_bits(src.type):
        return None
    if getattr(src, "opcode", None) != "ptrtoint" or not isinstance(src, Instruction):
        return None
    p = src.operands[0]
    if getattr(val.type, "address_space", 0) != getattr(p.type, "address_space", 0):
        return None
    if dl.type_size_in_bits(p.type) != dl.type_size_in_bits(src.type):
        return None
    return p


# =================================================================================================
# fp binop of int casts (foldFBinOpOfIntCasts)
# =================================================================================================

_FP_PRECISION = {"half": 11, "bfloat": 8, "float": 24, "double": 53, "x86_fp80": 64, "fp128": 113, "ppc_fp128": 106}


def _fp_precision(ty: Type) -> int:
    """``APFloat::semanticsPrecision`` of the scalar FP type."""
    return _FP_PRECISION.get(str(ty.scalar_type), 0)


def _fold_fbinop_of_int_casts_from_sign(
    ic: InstCombiner, bo: BinaryOperator, ops_from_signed: bool, int_ops: list[Value | None], op1_fpc: Constant | None
) -> Instruction | None:
    from llvmpy_mid.analysis.known_non_zero import is_known_non_zero

    fp_ty = bo.type
    i0 = int_ops[0]
    assert i0 is not None
    int_ty = i0.type
    int_sz = cast(IntegerType, int_ty.scalar_type).width
    max_bits = _fp_precision(fp_ty)
    num_used = [int_sz, int_sz]
    q = ic.query(bo)
    known_cache: dict[int, object] = {}

    def known(op_no: int) -> object:
        kb = known_cache.get(op_no)
        if kb is None:
            v = int_ops[op_no]
            assert v is not None
            kb = ic.compute_known_bits(v, 0, bo)
            known_cache[op_no] = kb
        return kb

    def is_non_zero(op_no: int) -> bool:
        v = int_ops[op_no]
        assert v is not None
        kb = known_cache.get(op_no)
        if kb is not None and kb.is_non_zero():  # type: ignore[attr-defined]
            return True
        return is_known_non_zero(v, q)

    def is_non_neg(op_no: int) -> bool:
        return bool(known(op_no).is_non_negative())  # type: ignore[attr-defined]

    def is_valid_promotion(op_no: int) -> bool:
        if ops_from_signed != (getattr(bo.operands[op_no], "opcode", None) == "sitofp") and not is_non_neg(op_no):
            return False
        if max_bits < int_sz:
            v = int_ops[op_no]
            assert v is not None
            if ops_from_signed:
                num_used[op_no] = int_sz - ic.compute_num_sign_bits(v, 0, bo)
            else:
                num_used[op_no] = int_sz - known(op_no).count_min_leading_zeros()  # type: ignore[attr-defined]
        if max_bits < num_used[op_no]:
            return False
        return not ops_from_signed or bo.opcode != "fmul" or is_non_zero(op_no)

    if op1_fpc is not None:
        if ops_from_signed and bo.opcode == "fmul" and not _is_non_zero_fp(op1_fpc):
            return None
        op1_int = constant_fold_cast_operand("fptosi" if ops_from_signed else "fptoui", op1_fpc, int_ty, ic.dl)
        if op1_int is None:
            return None
        if constant_fold_cast_operand("sitofp" if ops_from_signed else "uitofp", op1_int, fp_ty, ic.dl) is not op1_fpc:
            return None
        int_ops[1] = op1_int
    i1 = int_ops[1]
    assert i1 is not None
    if int_ty is not i1.type:
        return None
    if op1_fpc is None and not is_valid_promotion(1):
        return None
    if not is_valid_promotion(0):
        return None
    need_check = True
    out_bits = 2 if ops_from_signed else 1
    cur_bits = max(num_used[0], num_used[1])
    output_signed = ops_from_signed
    opc = bo.opcode
    if opc == "fadd":
        int_opc = "add"
        out_bits += cur_bits
    elif opc == "fsub":
        int_opc = "sub"
        out_bits += cur_bits
    else:
        int_opc = "mul"
        out_bits += cur_bits * 2
    if out_bits < int_sz:
        need_check = False
        if int_opc == "sub":
            output_signed = True
    if need_check and not will_not_overflow(ic, int_opc, i0, i1, bo, output_signed):
        return None
    int_bo = ic.builder.create_bin_op(int_opc, i0, i1)
    if isinstance(int_bo, BinaryOperator):
        int_bo.nsw = output_signed
        int_bo.nuw = not output_signed
    return CastInst.create("sitofp" if output_signed else "uitofp", int_bo, fp_ty)


def _is_non_zero_fp(c: Constant) -> bool:
    """``m_NonZeroFP``: every (non-poison) lane is a non-zero FP constant."""
    if isinstance(c, ConstantFP):
        return not c.is_zero_value
    if isinstance(c.type, VectorType):
        n = c.type.count
        seen = False
        for k in range(n):
            e = c.get_aggregate_element(k)
            if e is None:
                return False
            if isinstance(e, PoisonValue):
                continue
            if not isinstance(e, ConstantFP) or e.is_zero_value:
                return False
            seen = True
        return seen
    return False


def fold_fbinop_of_int_casts(ic: InstCombiner, bo: Instruction) -> Instruction | None:
    """(fp_binop ({s|u}itofp x), ({s|u}itofp y)) -> ({s|u}itofp (int_binop x, y)) and with an
    FP constant that converts exactly (LLVM ``foldFBinOpOfIntCasts``)."""
    assert isinstance(bo, BinaryOperator)
    int_ops: list[Value | None] = [None, None]
    op0 = bo.operands[0]
    if getattr(op0, "opcode", None) not in ("sitofp", "uitofp") or not isinstance(op0, (Instruction, ConstantExpr)):
        return None
    int_ops[0] = op0.operands[0]
    op1 = bo.operands[1]
    op1_fpc: Constant | None = None
    if isinstance(op1, Constant):
        op1_fpc = op1
    elif getattr(op1, "opcode", None) in ("sitofp", "uitofp") and isinstance(op1, Instruction):
        int_ops[1] = op1.operands[0]
    else:
        return None
    r = _fold_fbinop_of_int_casts_from_sign(ic, bo, False, list(int_ops), op1_fpc)
    if r is not None:
        return r
    return _fold_fbinop_of_int_casts_from_sign(ic, bo, True, list(int_ops), op1_fpc)


__all__ = [
    "add_one",
    "and_ir_flags",
    "can_freely_invert_all_users_of",
    "copy_ir_flags",
    "copy_metadata_from",
    "create_bin_op",
    "do_phi_translation",
    "dyn_cast_neg_val",
    "fold_bin_op_shift_with_shift",
    "fold_binop_into_select_or_phi",
    "fold_fbinop_of_int_casts",
    "fold_binop_of_select_and_cast_of_select_condition",
    "fold_binop_of_sext_bool_to_select",
    "fold_binop_with_phi_operands",
    "fold_op_into_phi",
    "fold_op_into_select",
    "fold_using_distributive_laws",
    "fold_vector_binop",
    "freely_invert_all_users_of",
    "get_bin_ops_for_factorization",
    "get_complexity",
    "get_freely_inverted",
    "get_int_constant",
    "get_lossless_signed_trunc",
    "get_lossless_trunc",
    "get_lossless_unsigned_trunc",
    "is_desirable_int_type",
    "should_change_type",
    "should_change_type_widths",
    "is_splat_value_at",
    "get_safe_vector_constant_for_binop",
    "intrinsic_base_of",
    "is_canonical_predicate",
    "is_free_to_invert",
    "left_distributes_over_right",
    "match_symmetric_pair",
    "narrow_math_if_no_overflow",
    "peek_through_bitcast",
    "right_distributes_over_left",
    "should_avoid_absorbing_not_into_select",
    "simplify_associative_or_commutative",
    "simplify_int_to_ptr_round_trip_cast",
    "simplify_selects_feeding_binary_op",
    "sub_one",
    "try_factorization",
    "try_factorization_folds",
    "try_fold_inst_with_ctpop_with_not",
    "will_not_overflow",
]
