"""ValueTracking's poison/undef and speculation queries (LLVM 19.1.7
``llvm/lib/Analysis/ValueTracking.cpp``, with ``Operator::hasPoisonGeneratingFlags``
from ``llvm/lib/IR/Operator.cpp`` and ``Constant::getSplatValue`` from
``llvm/lib/IR/Constants.cpp``).

What: the questions transforms ask before they move, merge or duplicate an
instruction:

* :func:`is_safe_to_speculatively_execute` — may the instruction run where the
  original program would not have run it (no trap, no side effect)? Integer
  division and remainder are safe only by a constant divisor (a ``ConstantInt``
  or a splat, fixed or scalable) that is not zero, and for ``sdiv``/``srem`` not
  ``-1`` unless the numerator is a constant other than the minimum signed value.
* :func:`can_create_poison` / :func:`can_create_undef_or_poison` — may the
  operation produce poison (or undef) from operands that are neither?
  (poison-generating flags, metadata and return attributes; shifts by amounts
  not known in range; ``extractelement``/``insertelement`` indices not known
  in range; ``shufflevector`` masks with poison lanes; calls without
  ``noundef``; the intrinsics LLVM lists.)
* :func:`propagates_poison` — is the user poison when this operand is?
* :func:`is_guaranteed_not_to_be_poison`, :func:`is_guaranteed_not_to_be_undef`,
  :func:`is_guaranteed_not_to_be_undef_or_poison` — structural proof (constants,
  attributes, operators that cannot create poison over well-defined operands,
  phis), else "the program would be undefined right after it if it were"
  (:func:`program_undefined_if_poison`), else, given a context instruction and a
  dominator tree, a dominating branch or switch on the value.
* :func:`implies_poison` — if the first value is poison, is the second?
* :func:`is_guaranteed_to_transfer_execution_to_successor`,
  :func:`must_trigger_ub`, :func:`get_guaranteed_non_poison_ops`,
  :func:`get_guaranteed_well_defined_ops`.

How: each query follows LLVM's case analysis; the recursive ones are bounded
as LLVM bounds them (``MAX_ANALYSIS_RECURSION_DEPTH`` = 6 levels for the
not-poison proof, 2 for :func:`implies_poison`), so the Python stack stays
shallow whatever the size of the function, and the forward scan of
:func:`program_undefined_if_poison` looks at no more than 31 instructions.

What it does not do (yet): a load is never claimed safe to speculate (LLVM asks
``isDereferenceableAndAlignedPointer``; loop-simplify and the exit merge only
hoist instructions that do not read memory, so they are not affected), and the
``noundef`` knowledge of ``llvm.assume`` operand bundles is not consulted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantFP,
    ConstantInt,
    ConstantPointerNull,
    ConstantVector,
    ConstantDataVector,
    PoisonValue,
    UndefValue,
    get_splat_value,
)
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import GlobalVariable
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import FCmpInst
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
from llvmpy_mid.ir.types import IntegerType, VectorType

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Use, Value


MAX_ANALYSIS_RECURSION_DEPTH = 6
"""LLVM's ``MaxAnalysisRecursionDepth``: how deep the not-poison proof follows operands."""

POISON_ONLY = 1
"""Ask about poison only (LLVM ``UndefPoisonKind::PoisonOnly``)."""
UNDEF_ONLY = 2
"""Ask about undef only."""
UNDEF_OR_POISON = POISON_ONLY | UNDEF_ONLY
"""Ask about both."""

_IMPLIES_POISON_MAX_DEPTH = 2
_SCAN_LIMIT = 32
_POISON_FLAGS_FP = int(FastMathFlags.NNAN | FastMathFlags.NINF)
_NOUNDEF_LIKE = ("noundef", "dereferenceable", "dereferenceable_or_null")
_POISON_RET_ATTRS = ("range", "align", "nonnull")
_POISON_METADATA = ("range", "nonnull", "align")

# Opcodes that never run speculatively (effects, control flow, phis).
_NEVER_SPECULATE = frozenset(
    "va_arg alloca invoke callbr phi store ret br indirectbr switch unreachable fence atomicrmw "
    "cmpxchg landingpad resume catchswitch catchpad catchret cleanuppad cleanupret".split()
)
_SHIFTS = frozenset(("shl", "lshr", "ashr"))
_INT_BINARY = frozenset("add sub mul udiv sdiv urem srem shl lshr ashr and or xor".split())
_FP_BINARY = frozenset("fadd fsub fmul fdiv frem".split())
_CAST_OPCODES = frozenset(
    "trunc zext sext fptrunc fpext fptoui fptosi uitofp sitofp ptrtoint inttoptr bitcast addrspacecast".split()
)
# Operators whose result is never poison/undef unless an operand is (beyond flags).
_NEVER_CREATE = frozenset(
    "fneg phi select urem srem extractvalue insertvalue freeze icmp fcmp fadd fsub fmul fdiv frem getelementptr".split()
)

# Intrinsics (base names) that create no poison of their own, and the three
# that do not when their flag operand is false.
_NO_POISON_INTRINSICS = frozenset(
    (
        "llvm.ctpop llvm.bswap llvm.bitreverse llvm.fshl llvm.fshr llvm.smax llvm.smin llvm.umax "
        "llvm.umin llvm.ptrmask llvm.fptoui.sat llvm.fptosi.sat llvm.sadd.with.overflow "
        "llvm.ssub.with.overflow llvm.smul.with.overflow llvm.uadd.with.overflow "
        "llvm.usub.with.overflow llvm.umul.with.overflow llvm.sadd.sat llvm.uadd.sat llvm.ssub.sat "
        "llvm.usub.sat llvm.fma llvm.fmuladd llvm.sqrt llvm.powi llvm.sin llvm.cos llvm.pow llvm.log "
        "llvm.log10 llvm.log2 llvm.exp llvm.exp2 llvm.exp10 llvm.fabs llvm.copysign llvm.floor "
        "llvm.ceil llvm.trunc llvm.rint llvm.nearbyint llvm.round llvm.roundeven llvm.fptrunc.round "
        "llvm.canonicalize llvm.arithmetic.fence llvm.minnum llvm.maxnum llvm.minimum llvm.maximum "
        "llvm.is.fpclass llvm.ldexp llvm.frexp llvm.lround llvm.llround llvm.lrint llvm.llrint"
    ).split()
)
_FLAG_ARG_INTRINSICS = frozenset(("llvm.ctlz", "llvm.cttz", "llvm.abs"))
_SHIFT_SAT_INTRINSICS = frozenset(("llvm.sshl.sat", "llvm.ushl.sat"))
_WITH_OVERFLOW = frozenset(
    (
        "llvm.sadd.with.overflow",
        "llvm.ssub.with.overflow",
        "llvm.smul.with.overflow",
        "llvm.uadd.with.overflow",
        "llvm.usub.with.overflow",
        "llvm.umul.with.overflow",
    )
)
# Intrinsics whose result is poison when any argument is.
_PROPAGATING_INTRINSICS = _WITH_OVERFLOW | frozenset(
    (
        "llvm.ctpop llvm.ctlz llvm.cttz llvm.abs llvm.smax llvm.smin llvm.umax llvm.umin "
        "llvm.bitreverse llvm.bswap llvm.sadd.sat llvm.ssub.sat llvm.sshl.sat llvm.uadd.sat "
        "llvm.usub.sat llvm.ushl.sat"
    ).split()
)


# --- constants ------------------------------------------------------------------------------------


# ``get_splat_value`` is ``Constant::getSplatValue``, in ``ir/constants.py`` (re-exported here).


def match_apint(v: Value) -> ConstantInt | None:
    """The integer constant ``v`` is, directly or as a splat of every lane (LLVM
    ``m_APInt``), else None."""
    if isinstance(v, ConstantInt):
        return v
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        element = get_splat_value(v)
        if isinstance(element, ConstantInt):
            return element
    return None


def _vector_has_element(c: Constant, test: Callable[[Constant], bool]) -> bool:
    """LLVM ``containsUndefinedElement``: the vector constant, or one of its
    lanes (fixed vectors only), passes ``test``."""
    ty = c.type
    if not isinstance(ty, VectorType):
        return False
    if test(c):
        return True
    if isinstance(c, ConstantAggregateZero) or ty.scalable:
        return False
    for i in range(ty.count):
        element = c.get_aggregate_element(i)
        if element is not None and test(element):
            return True
    return False


def _is_poison(c: Constant) -> bool:
    return isinstance(c, PoisonValue)


def _is_undef_not_poison(c: Constant) -> bool:
    return isinstance(c, UndefValue) and not isinstance(c, PoisonValue)


def _contains_constant_expression(c: Constant) -> bool:
    ty = c.type
    if isinstance(ty, VectorType) and not ty.scalable:
        for i in range(ty.count):
            if isinstance(c.get_aggregate_element(i), ConstantExpr):
                return True
    return False


# --- flags --------------------------------------------------------------------------------------


def has_poison_generating_flags(op: Value) -> bool:
    """The instruction or constant expression carries a flag that makes it
    poison when violated (LLVM ``Operator::hasPoisonGeneratingFlags``):
    nuw/nsw, exact, disjoint, nneg, GEP no-wrap flags (and ``inrange``), and the
    nnan/ninf fast-math flags."""
    if isinstance(op, ConstantExpr):
        if op.opcode in ("add", "sub", "mul"):
            return op.flags != 0
        if op.opcode == "getelementptr":
            return op.flags != 0 or op.inrange is not None
        return False
    if isinstance(op, BinaryOperator):
        if op.is_fp_op:
            return bool(op.flags_word & _POISON_FLAGS_FP)
        return op.flags_word != 0
    if isinstance(op, CastInst):
        return op.flags_word != 0
    if isinstance(op, GetElementPtrInst):
        return int(op.gep_flags) != 0
    if isinstance(op, (UnaryOperator, FCmpInst, PHINode, SelectInst, CallInst)):
        return bool(int(op.fast_math_flags) & _POISON_FLAGS_FP)
    return False


def has_poison_generating_annotations(op: Value) -> bool:
    """Poison-generating flags, or (instructions) ``!range``/``!nonnull``/``!align``
    metadata, or (calls) ``range``/``align``/``nonnull`` on the call site's return
    (LLVM ``Operator::hasPoisonGeneratingAnnotations``)."""
    if has_poison_generating_flags(op):
        return True
    if not isinstance(op, Instruction):
        return False
    if isinstance(op, CallBase):
        ret = op.attributes.ret_attrs
        if any(ret.has(k) for k in _POISON_RET_ATTRS):
            return True
    if op.has_metadata:
        return any(op.get_metadata(k) is not None for k in _POISON_METADATA)
    return False


def _shift_amount_known_in_range(amount: Value) -> bool:
    if not isinstance(amount, Constant):
        return False
    ty = amount.type
    if isinstance(ty, VectorType):
        if ty.scalable:
            return False
        lanes: list[Constant | None] = [amount.get_aggregate_element(i) for i in range(ty.count)]
    else:
        lanes = [amount]
    for lane in lanes:
        if not isinstance(lane, ConstantInt) or lane.value >= lane.type.width:
            return False
    return True


def _intrinsic_of(call: Value) -> str:
    """The intrinsic (base name) a direct call calls, or ``""``."""
    if not isinstance(call, CallInst):
        return ""
    return call.intrinsic_base


# --- can an operation create poison --------------------------------------------------------------


def _can_create(op: Value, kind: int, consider_flags_and_metadata: bool) -> bool:
    poison = bool(kind & POISON_ONLY)
    if consider_flags_and_metadata and poison and has_poison_generating_annotations(op):
        return True
    opcode: str = op.opcode  # type: ignore[attr-defined]
    if opcode in _SHIFTS:
        return poison and not _shift_amount_known_in_range(op.get_operand(1))  # type: ignore[attr-defined]
    if opcode in ("fptosi", "fptoui"):
        return True
    if opcode == "call":
        intrinsic = _intrinsic_of(op)
        if intrinsic:
            if intrinsic in _NO_POISON_INTRINSICS:
                return False
            if intrinsic in _FLAG_ARG_INTRINSICS:
                flag = op.get_operand(1)  # type: ignore[attr-defined]
                if isinstance(flag, ConstantInt) and flag.value == 0:
                    return False
            elif intrinsic in _SHIFT_SAT_INTRINSICS:
                return poison and not _shift_amount_known_in_range(op.get_operand(1))  # type: ignore[attr-defined]
        return not op.has_ret_attr("noundef")  # type: ignore[attr-defined]
    if opcode in ("invoke", "callbr"):
        return not op.has_ret_attr("noundef")  # type: ignore[attr-defined]
    if opcode in ("insertelement", "extractelement"):
        if not poison:
            return False
        vty = op.get_operand(0).type  # type: ignore[attr-defined]
        index = op.get_operand(2 if opcode == "insertelement" else 1)  # type: ignore[attr-defined]
        return not isinstance(index, ConstantInt) or index.value >= vty.count
    if opcode == "shufflevector":
        mask = op.shuffle_mask if isinstance(op, ConstantExpr) else op.mask  # type: ignore[attr-defined]
        return poison and -1 in mask
    if opcode in _NEVER_CREATE:
        return False
    if opcode in _CAST_OPCODES or opcode in _INT_BINARY:
        return False
    return True


def can_create_undef_or_poison(op: Value, consider_flags_and_metadata: bool = True) -> bool:
    """The instruction or constant expression ``op`` may yield undef or poison
    from operands that are neither (LLVM ``canCreateUndefOrPoison``)."""
    return _can_create(op, UNDEF_OR_POISON, consider_flags_and_metadata)


def can_create_poison(op: Value, consider_flags_and_metadata: bool = True) -> bool:
    """The instruction or constant expression ``op`` may yield poison from
    operands that are not poison (LLVM ``canCreatePoison``)."""
    return _can_create(op, POISON_ONLY, consider_flags_and_metadata)


def _is_operator(v: Value) -> bool:
    return v.is_instruction or isinstance(v, ConstantExpr)


def propagates_poison_operand(user: Value, operand_no: int) -> bool:
    """The instruction (or constant expression) ``user`` is poison whenever its
    operand ``operand_no`` is (LLVM ``propagatesPoison``)."""
    opcode: str = user.opcode  # type: ignore[attr-defined]
    if opcode in ("freeze", "phi", "invoke"):
        return False
    if opcode == "select":
        return operand_no == 0
    if opcode == "call":
        return _intrinsic_of(user) in _PROPAGATING_INTRINSICS
    if opcode in ("icmp", "fcmp", "getelementptr"):
        return True
    if isinstance(user, Instruction):
        return user.is_binary_op or user.is_unary_op or user.is_cast
    return False


def propagates_poison(use: Use) -> bool:
    """The user of ``use`` is poison whenever the used value is (LLVM ``propagatesPoison``)."""
    return propagates_poison_operand(use.user, use.operand_no)


# --- implies poison -------------------------------------------------------------------------------


def _is_with_overflow(v: Value) -> bool:
    return _intrinsic_of(v) in _WITH_OVERFLOW


def _directly_implies_poison(assumed: Value, v: Value, depth: int) -> bool:
    if assumed is v:
        return True
    if depth >= _IMPLIES_POISON_MAX_DEPTH or not isinstance(v, Instruction):
        return False
    for i, operand in enumerate(v.operands):
        if propagates_poison_operand(v, i) and _directly_implies_poison(assumed, operand, depth + 1):
            return True
    # Both results of an *.with.overflow call are poison together.
    if v.opcode == "extractvalue":
        agg = v.get_operand(0)
        if _is_with_overflow(agg):
            if isinstance(assumed, Instruction) and assumed.opcode == "extractvalue" and assumed.get_operand(0) is agg:
                return True
            if any(a is assumed for a in agg.args):  # type: ignore[attr-defined]
                return True
    return False


def _implies_poison(assumed: Value, v: Value, depth: int) -> bool:
    if is_guaranteed_not_to_be_poison(assumed):
        return True
    if _directly_implies_poison(assumed, v, 0):
        return True
    if depth >= _IMPLIES_POISON_MAX_DEPTH:
        return False
    if isinstance(assumed, Instruction) and not can_create_poison(assumed):
        return all(_implies_poison(op, v, depth + 1) for op in assumed.operands)
    return False


def implies_poison(assumed_poison: Value, v: Value) -> bool:
    """If ``assumed_poison`` is poison then so is ``v`` (LLVM ``impliesPoison``):
    so ``v`` may be combined with it by a poison-propagating ``and``/``or``."""
    return _implies_poison(assumed_poison, v, 0)


# --- guaranteed not poison -----------------------------------------------------------------------


def _strip_pointer_casts_same_representation(v: Value) -> Value:
    """LLVM ``stripPointerCastsSameRepresentation``: through all-zero GEPs, pointer
    bitcasts and calls with a ``returned`` argument."""
    if not v.type.is_pointer:
        return v
    seen = {v}
    while True:
        if isinstance(v, GetElementPtrInst):
            if not v.has_all_zero_indices:
                return v
            nxt = v.pointer_operand
        elif isinstance(v, ConstantExpr) and v.opcode == "getelementptr":
            if not all(isinstance(i, ConstantInt) and i.value == 0 for i in v.indices):
                return v
            nxt = v.pointer_operand
        elif (isinstance(v, ConstantExpr) or isinstance(v, CastInst)) and v.opcode == "bitcast":
            nxt = v.get_operand(0)
            if not nxt.type.is_pointer:
                return v
        elif isinstance(v, CallBase):
            returned = _returned_arg(v)
            if returned is None:
                return v
            nxt = returned
        else:
            return v
        if nxt in seen:
            return nxt
        seen.add(nxt)
        v = nxt


def _returned_arg(call: CallBase) -> Value | None:
    """The argument a call is marked to return (LLVM ``getReturnedArgOperand``)."""
    for i in range(call.num_args):
        if call.attributes.param_attrs(i).has("returned"):
            return call.get_arg(i)
    fn = call.called_function
    if fn is not None:
        for i in range(min(call.num_args, len(fn.args))):
            if fn.attributes.param_attrs(i).has("returned"):
                return call.get_arg(i)
    return None


def _not_undef_or_poison(
    v: Value, ctx: Instruction | None, dt: DominatorTree | None, depth: int, kind: int
) -> bool:
    if depth >= MAX_ANALYSIS_RECURSION_DEPTH:
        return False
    if v.is_metadata_as_value:
        return False
    if v.is_argument:
        arg = v
        if any(arg.has_attribute(k) for k in _NOUNDEF_LIKE):  # type: ignore[attr-defined]
            return True
    if isinstance(v, Constant):
        if isinstance(v, PoisonValue):
            return not kind & POISON_ONLY
        if isinstance(v, UndefValue):
            return not kind & UNDEF_ONLY
        if isinstance(v, (ConstantInt, GlobalVariable, ConstantFP, ConstantPointerNull, Function)):
            return True
        if isinstance(v.type, VectorType) and not isinstance(v, ConstantExpr):
            if kind & UNDEF_ONLY and _vector_has_element(v, _is_undef_not_poison):
                return False
            if kind & POISON_ONLY and _vector_has_element(v, _is_poison):
                return False
            return not _contains_constant_expression(v)
    stripped = _strip_pointer_casts_same_representation(v)
    if isinstance(stripped, (GlobalVariable, Function, ConstantPointerNull)) or (
        stripped.is_instruction and stripped.opcode == "alloca"  # type: ignore[attr-defined]
    ):
        return True
    if _is_operator(v):
        opcode = v.opcode  # type: ignore[attr-defined]
        if opcode == "freeze" and v.is_instruction:
            return True
        if isinstance(v, CallBase) and any(v.has_ret_attr(k) for k in _NOUNDEF_LIKE):
            return True
        if isinstance(v, PHINode):
            well_defined = True
            for incoming, pred in v.incoming:
                term = pred.terminator
                if not _not_undef_or_poison(incoming, term, dt, depth + 1, kind):
                    well_defined = False
                    break
            if well_defined:
                return True
        elif not _can_create(v, kind, True):
            if all(_not_undef_or_poison(op, ctx, dt, depth + 1, kind) for op in v.operands):  # type: ignore[attr-defined]
                return True
    if v.is_instruction and v.opcode == "load":  # type: ignore[attr-defined]
        load: Instruction = v  # type: ignore[assignment]
        if load.has_metadata and any(load.get_metadata(k) is not None for k in _NOUNDEF_LIKE):
            return True
    if _program_undefined_if_undef_or_poison(v, not kind & UNDEF_ONLY):
        return True
    if ctx is None or dt is None:
        return False
    ctx_block = ctx.parent
    if ctx_block is None or ctx_block not in dt or not dt.is_reachable(ctx_block):
        return False
    # A dominating conditional branch or switch on the value (or, for poison,
    # on an operator it poisons) would have been undefined had it been poison.
    if kind & UNDEF_ONLY and not isinstance(v.type, IntegerType):
        return False
    dom = dt.idom(ctx_block)
    while dom is not None:
        term = dom.terminator
        cond: Value | None = None
        if term is not None:
            if term.opcode == "br" and term.num_operands == 3:
                cond = term.get_operand(0)
            elif term.opcode == "switch":
                cond = term.get_operand(0)
        if cond is not None:
            if cond is v:
                return True
            if not kind & UNDEF_ONLY and _is_operator(cond):
                for i, op in enumerate(cond.operands):  # type: ignore[attr-defined]
                    if op is v and propagates_poison_operand(cond, i):
                        return True
        dom = dt.idom(dom)
    return False


def is_guaranteed_not_to_be_undef_or_poison(
    v: Value, ctx: Instruction | None = None, dt: DominatorTree | None = None, depth: int = 0
) -> bool:
    """``v`` is neither undef nor poison (at ``ctx``, when given with ``dt``)
    (LLVM ``isGuaranteedNotToBeUndefOrPoison``)."""
    return _not_undef_or_poison(v, ctx, dt, depth, UNDEF_OR_POISON)


def is_guaranteed_not_to_be_poison(
    v: Value, ctx: Instruction | None = None, dt: DominatorTree | None = None, depth: int = 0
) -> bool:
    """``v`` is not poison (it may be undef) (LLVM ``isGuaranteedNotToBePoison``)."""
    return _not_undef_or_poison(v, ctx, dt, depth, POISON_ONLY)


def is_guaranteed_not_to_be_undef(
    v: Value, ctx: Instruction | None = None, dt: DominatorTree | None = None, depth: int = 0
) -> bool:
    """``v`` is not undef (it may be poison) (LLVM ``isGuaranteedNotToBeUndef``)."""
    return _not_undef_or_poison(v, ctx, dt, depth, UNDEF_ONLY)


# --- operands that must be well defined ---------------------------------------------------------


def get_guaranteed_well_defined_ops(inst: Instruction) -> list[Value]:
    """Operands of ``inst`` that must be neither undef nor poison for it to be
    defined (LLVM ``getGuaranteedWellDefinedOps``): memory pointers, the callee
    of an indirect call, ``noundef``/``dereferenceable`` arguments, a ``noundef``
    return value, branch and switch conditions."""
    opcode = inst.opcode
    if opcode == "store":
        return [inst.get_operand(1)]
    if opcode in ("load", "cmpxchg", "atomicrmw"):
        return [inst.get_operand(0)]
    if opcode in ("call", "invoke"):
        call: CallBase = inst  # type: ignore[assignment]
        out: list[Value] = []
        if call.is_indirect_call:
            out.append(call.called_operand)
        for i in range(call.num_args):
            if any(call.param_has_attr(i, k) for k in _NOUNDEF_LIKE):
                out.append(call.get_arg(i))
        return out
    if opcode == "ret":
        fn = inst.function
        if inst.num_operands and fn is not None and fn.attributes.has_ret_attr("noundef"):
            return [inst.get_operand(0)]
        return []
    if opcode == "switch":
        return [inst.get_operand(0)]
    if opcode == "br":
        return [inst.get_operand(0)] if inst.num_operands == 3 else []
    return []


def get_guaranteed_non_poison_ops(inst: Instruction) -> list[Value]:
    """Operands of ``inst`` that must not be poison for it to be defined: the
    well-defined ones and the divisor of an integer division or remainder
    (LLVM ``getGuaranteedNonPoisonOps``)."""
    out = get_guaranteed_well_defined_ops(inst)
    if inst.opcode in ("udiv", "sdiv", "urem", "srem"):
        out.append(inst.get_operand(1))
    return out


def must_trigger_ub(inst: Instruction, known_poison: set[Value] | frozenset[Value]) -> bool:
    """Running ``inst`` is undefined if the values of ``known_poison`` are poison
    (LLVM ``mustTriggerUB``)."""
    return any(op in known_poison for op in get_guaranteed_non_poison_ops(inst))


def is_guaranteed_to_transfer_execution_to_successor(inst: Instruction) -> bool:
    """Control reaches the next instruction (or a successor) whenever ``inst``
    runs: it does not return, end in ``unreachable``, throw or fail to return
    (LLVM ``isGuaranteedToTransferExecutionToSuccessor``)."""
    opcode = inst.opcode
    if opcode in ("ret", "unreachable"):
        return False
    if opcode == "catchpad":
        fn = inst.function
        personality = fn.personality if fn is not None else None
        return personality is not None and personality.name == "ProcessCLRException"
    return not inst.may_throw() and inst.will_return()


def _is_dbg_info_intrinsic(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    fn = inst.called_function  # type: ignore[attr-defined]
    return fn is not None and fn.name.startswith("llvm.dbg.")


def _program_undefined_if_undef_or_poison(v: Value, poison_only: bool) -> bool:
    if isinstance(v, Instruction):
        block = v.parent
        if block is None:
            return False
        node = v.next_instruction
    elif v.is_argument:
        fn: Function = v.parent  # type: ignore[attr-defined]
        if fn.is_declaration:
            return False
        block = fn.entry_block
        node = block.first_instruction
    else:
        return False
    budget = _SCAN_LIMIT
    if not poison_only:
        while node is not None:
            inst = node
            node = inst.next_instruction
            if _is_dbg_info_intrinsic(inst):
                continue
            budget -= 1
            if budget == 0:
                break
            if any(op is v for op in get_guaranteed_well_defined_ops(inst)):
                return True
            if not is_guaranteed_to_transfer_execution_to_successor(inst):
                break
        return False
    poisoned: set[Value] = {v}
    visited: set[BasicBlock] = {block}
    while True:
        while node is not None:
            inst = node
            node = inst.next_instruction
            if _is_dbg_info_intrinsic(inst):
                continue
            budget -= 1
            if budget == 0:
                return False
            if must_trigger_ub(inst, poisoned):
                return True
            if not is_guaranteed_to_transfer_execution_to_successor(inst):
                return False
            for i, op in enumerate(inst.operands):
                if op in poisoned and propagates_poison_operand(inst, i):
                    poisoned.add(inst)
                    break
            if inst.opcode == "select" and inst.get_operand(1) in poisoned and inst.get_operand(2) in poisoned:
                poisoned.add(inst)
        nxt = block.single_successor
        if nxt is None or nxt in visited:
            return False
        visited.add(nxt)
        block = nxt
        node = block.first_non_phi


def program_undefined_if_poison(inst: Value) -> bool:
    """The program is undefined if ``inst`` (an instruction or argument) is
    poison: a use that must not be poison, of it or of a value it poisons, runs
    soon after it in its block or single successors (LLVM ``programUndefinedIfPoison``)."""
    return _program_undefined_if_undef_or_poison(inst, True)


def program_undefined_if_undef_or_poison(inst: Value) -> bool:
    """As :func:`program_undefined_if_poison`, for undef too: ``inst`` itself is
    passed to an operand that must be well defined (LLVM
    ``programUndefinedIfUndefOrPoison``)."""
    return _program_undefined_if_undef_or_poison(inst, False)


# --- speculation ----------------------------------------------------------------------------------


def is_safe_to_speculatively_execute_with_opcode(opcode: str, inst: Instruction) -> bool:
    """:func:`is_safe_to_speculatively_execute` for ``inst`` as if it had ``opcode``
    (LLVM ``isSafeToSpeculativelyExecuteWithOpcode``)."""
    if opcode in ("udiv", "urem"):
        divisor = match_apint(inst.get_operand(1))
        return divisor is not None and divisor.value != 0
    if opcode in ("sdiv", "srem"):
        divisor = match_apint(inst.get_operand(1))
        if divisor is None or divisor.value == 0:
            return False
        if not divisor.is_all_ones_value:
            return True
        numerator = match_apint(inst.get_operand(0))
        return numerator is not None and numerator.value != 1 << (numerator.type.width - 1)
    if opcode == "load":
        return False
    if opcode == "call":
        if not isinstance(inst, CallInst):
            return False
        fn = inst.called_function
        return fn is not None and fn.has_fn_attribute("speculatable")
    return opcode not in _NEVER_SPECULATE


def is_safe_to_speculatively_execute(inst: Instruction) -> bool:
    """``inst`` may run where the program would not have run it: it cannot trap
    and has no side effect (LLVM ``isSafeToSpeculativelyExecute``; loads are
    never claimed safe here)."""
    return is_safe_to_speculatively_execute_with_opcode(inst.opcode, inst)


__all__ = [
    "MAX_ANALYSIS_RECURSION_DEPTH",
    "POISON_ONLY",
    "UNDEF_ONLY",
    "UNDEF_OR_POISON",
    "can_create_poison",
    "can_create_undef_or_poison",
    "get_guaranteed_non_poison_ops",
    "get_guaranteed_well_defined_ops",
    "get_splat_value",
    "has_poison_generating_annotations",
    "has_poison_generating_flags",
    "implies_poison",
    "is_guaranteed_not_to_be_poison",
    "is_guaranteed_not_to_be_undef",
    "is_guaranteed_not_to_be_undef_or_poison",
    "is_guaranteed_to_transfer_execution_to_successor",
    "is_safe_to_speculatively_execute",
    "is_safe_to_speculatively_execute_with_opcode",
    "match_apint",
    "must_trigger_ub",
    "program_undefined_if_poison",
    "program_undefined_if_undef_or_poison",
    "propagates_poison",
    "propagates_poison_operand",
]
