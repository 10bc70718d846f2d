"""ValueTracking: what is known about a value's bits (LLVM 19.1.7
``llvm/lib/Analysis/ValueTracking.cpp``).

What: the queries every simplifier asks —

* :func:`compute_known_bits` — bits known zero/one (:class:`KnownBits`), from
  constants, every integer and pointer opcode LLVM handles (bitwise ops with
  their ``x & -x`` / ``x ^ (x-1)`` idioms, add/sub with wrap flags, mul,
  divisions and remainders, shifts, casts, select, phi with LLVM's recursion
  rules and branch conditions on the incoming edge, GEP offsets, alignment of
  pointers, ``!range`` metadata and ``range`` attributes, ``returned``
  arguments, the bit intrinsics, min/max, saturating arithmetic, funnel shifts,
  vector element demands), and from ``llvm.assume`` through the
  :class:`~llvmpy_mid.analysis.assumption_cache.AssumptionCache` when the query
  carries one and a context instruction;
* :func:`is_known_non_zero`, :func:`is_known_to_be_a_power_of_two`,
  :func:`compute_num_sign_bits`, :func:`is_known_non_equal`,
  :func:`masked_value_is_zero`, :func:`have_no_common_bits_set`,
  :func:`is_known_non_negative` / :func:`is_known_positive` /
  :func:`is_known_negative`;
* :func:`get_underlying_object`, :func:`get_underlying_objects`,
  :func:`get_pointer_base_with_constant_offset`;
* :func:`compute_constant_range` — a :class:`ConstantRange` for a value.

The poison/undef and speculation queries live in
:mod:`llvmpy_mid.analysis.poison_tracking` and are re-exported here, so
``from llvmpy_mid.analysis.value_tracking import can_create_poison`` works.

How: the recursion is LLVM's, bounded by ``MAX_ANALYSIS_RECURSION_DEPTH`` (6),
so the Python stack stays shallow whatever the size of the function. Vector
lanes are tracked with a demanded-elements bit mask as in LLVM (fixed vectors;
scalable vectors and scalars use one lane). Entry points take a
:class:`SimplifyQuery` or a bare :class:`DataLayout`.

What it does not do (yet): dominating conditions (LLVM's ``DomConditionCache``)
and known floating-point classes (bitcasts of floats give nothing); assume
operand bundles other than ``align``/``nonnull``/``dereferenceable``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.poison_tracking import (
    MAX_ANALYSIS_RECURSION_DEPTH,
    POISON_ONLY,
    UNDEF_ONLY,
    UNDEF_OR_POISON,
    can_create_poison,
    can_create_undef_or_poison,
    get_guaranteed_non_poison_ops,
    get_guaranteed_well_defined_ops,
    get_splat_value,
    has_poison_generating_annotations,
    has_poison_generating_flags,
    implies_poison,
    is_guaranteed_not_to_be_poison,
    is_guaranteed_not_to_be_undef,
    is_guaranteed_not_to_be_undef_or_poison,
    is_guaranteed_to_transfer_execution_to_successor,
    is_safe_to_speculatively_execute,
    is_safe_to_speculatively_execute_with_opcode,
    match_apint,
    must_trigger_ub,
    program_undefined_if_poison,
    program_undefined_if_undef_or_poison,
    propagates_poison,
    propagates_poison_operand,
)
from llvmpy_mid.analysis.simplify_query import SimplifyQuery, as_query
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantDataVector,
    ConstantInt,
    ConstantPointerNull,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalValue, GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
from llvmpy_mid.ir.types import ArrayType, IntegerType, PointerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import User

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Value

__all__ = [
    "MAX_ANALYSIS_RECURSION_DEPTH",
    "POISON_ONLY",
    "UNDEF_ONLY",
    "UNDEF_OR_POISON",
    "KnownBits",
    "ConstantRange",
    "SimplifyQuery",
    "can_create_poison",
    "can_create_undef_or_poison",
    "compute_constant_range",
    "compute_known_bits",
    "compute_known_bits_from_range_metadata",
    "compute_num_sign_bits",
    "compute_max_significant_bits",
    "get_argument_aliasing_to_returned_pointer",
    "get_guaranteed_non_poison_ops",
    "get_guaranteed_well_defined_ops",
    "get_pointer_base_with_constant_offset",
    "get_splat_value",
    "get_underlying_object",
    "get_underlying_objects",
    "has_poison_generating_annotations",
    "has_poison_generating_flags",
    "have_no_common_bits_set",
    "implies_poison",
    "is_guaranteed_not_to_be_poison",
    "is_guaranteed_not_to_be_undef",
    "is_guaranteed_not_to_be_undef_or_poison",
    "is_guaranteed_to_transfer_execution_to_successor",
    "is_known_negative",
    "is_known_non_equal",
    "is_known_non_negative",
    "is_known_non_zero",
    "is_known_positive",
    "is_known_to_be_a_power_of_two",
    "is_safe_to_speculatively_execute",
    "is_safe_to_speculatively_execute_with_opcode",
    "is_valid_assume_for_context",
    "masked_value_is_zero",
    "match_apint",
    "match_simple_recurrence",
    "must_trigger_ub",
    "null_pointer_is_defined",
    "program_undefined_if_poison",
    "program_undefined_if_undef_or_poison",
    "propagates_poison",
    "propagates_poison_operand",
]

_MAX = MAX_ANALYSIS_RECURSION_DEPTH
_EXPR_RESULT = -1  # AssumptionCache's index for "the assume's condition"


# --- small helpers -----------------------------------------------------------------------------


def _scalar_bit_width(ty: Type, dl: DataLayout) -> int:
    """LLVM's ``getBitWidth``: the scalar size, or the pointer size for pointers."""
    sty = ty.element_type if isinstance(ty, VectorType) else ty
    if isinstance(sty, IntegerType):
        return sty.width
    if isinstance(sty, PointerType):
        return dl.pointer_size_in_bits(sty.address_space)
    return dl.type_size_in_bits(sty)


def _all_demanded(ty: Type) -> int:
    """All lanes of a fixed vector demanded (one lane for scalars and scalable vectors)."""
    if isinstance(ty, VectorType) and not ty.scalable:
        return (1 << ty.count) - 1
    return 1


def _opcode(v: Value) -> str:
    """The opcode of an instruction or constant expression (LLVM ``Operator::getOpcode``), else ``""``."""
    if isinstance(v, Instruction):
        return v.opcode
    if isinstance(v, ConstantExpr):
        return v.opcode
    return ""


def _is_operator(v: Value) -> bool:
    return isinstance(v, (Instruction, ConstantExpr))


def _operand(v: Value, i: int) -> Value:
    assert isinstance(v, User)
    return v.get_operand(i)


def _nuw(q: SimplifyQuery, v: Value) -> bool:
    if not q.use_instr_info:
        return False
    if isinstance(v, ConstantExpr):
        return v.opcode in ("add", "sub", "mul") and v.has_no_unsigned_wrap
    if isinstance(v, Instruction) and v.opcode in ("add", "sub", "mul", "shl", "trunc"):
        return bool(getattr(v, "nuw", False))
    return False


def _nsw(q: SimplifyQuery, v: Value) -> bool:
    if not q.use_instr_info:
        return False
    if isinstance(v, ConstantExpr):
        return v.opcode in ("add", "sub", "mul") and v.has_no_signed_wrap
    if isinstance(v, Instruction) and v.opcode in ("add", "sub", "mul", "shl", "trunc"):
        return bool(getattr(v, "nsw", False))
    return False


def _exact(q: SimplifyQuery, v: Value) -> bool:
    return q.use_instr_info and isinstance(v, Instruction) and v.opcode in (
        "udiv",
        "sdiv",
        "lshr",
        "ashr",
    ) and bool(getattr(v, "exact", False))


def _raw_nuw(v: Value) -> bool:
    """The flag itself, whatever the query says (LLVM code that reads ``BO->hasNoUnsignedWrap()``)."""
    if isinstance(v, ConstantExpr):
        return v.opcode in ("add", "sub", "mul") and v.has_no_unsigned_wrap
    return isinstance(v, Instruction) and v.opcode in ("add", "sub", "mul", "shl", "trunc") and bool(
        getattr(v, "nuw", False)
    )


def _raw_nsw(v: Value) -> bool:
    if isinstance(v, ConstantExpr):
        return v.opcode in ("add", "sub", "mul") and v.has_no_signed_wrap
    return isinstance(v, Instruction) and v.opcode in ("add", "sub", "mul", "shl", "trunc") and bool(
        getattr(v, "nsw", False)
    )


def _raw_exact(v: Value) -> bool:
    return isinstance(v, Instruction) and v.opcode in ("udiv", "sdiv", "lshr", "ashr") and bool(
        getattr(v, "exact", False)
    )


def _is_disjoint(v: Value) -> bool:
    return isinstance(v, Instruction) and v.opcode == "or" and bool(getattr(v, "disjoint", False))


def _apint(v: Value) -> int | None:
    """The unsigned value of an integer constant or splat (LLVM ``m_APInt``), else None."""
    c = match_apint(v)
    return None if c is None else c.value


def _is_zero_const(v: Value) -> bool:
    """LLVM ``m_Zero``: a null constant (integer 0, null pointer, zero vector, or a splat of 0)."""
    if isinstance(v, Constant):
        if v.is_null_value:
            return True
        c = match_apint(v)
        return c is not None and c.value == 0
    return False


def _is_all_ones(v: Value) -> bool:
    c = match_apint(v)
    return c is not None and c.value == (1 << c.width) - 1


def _intrinsic(v: Value) -> str:
    """The called intrinsic's base name (``llvm.umax`` for ``llvm.umax.i8``), else ``""``."""
    if isinstance(v, CallBase):
        fn = v.called_function
        if fn is not None and fn.intrinsic_id:
            return lookup_intrinsic(fn.name) or ""
    return ""


def _safe_cxt_i(v: Value, cxt: Instruction | None) -> Instruction | None:
    if cxt is not None and cxt.parent is not None:
        return cxt
    if isinstance(v, Instruction) and v.parent is not None:
        return v
    return None


def _with_cxt(q: SimplifyQuery, v: Value) -> SimplifyQuery:
    cxt = _safe_cxt_i(v, q.cxt_i)
    return q if cxt is q.cxt_i else q.get_with_instruction(cxt)


def _terminator_of_incoming(pn: PHINode, index: int) -> Instruction | None:
    return pn.get_incoming_block(index).terminator


def null_pointer_is_defined(fn: Function | None, address_space: int = 0) -> bool:
    """Address 0 is a valid object in ``fn`` (LLVM ``NullPointerIsDefined``): any
    non-zero address space, or a function marked ``null_pointer_is_valid``."""
    if fn is not None and fn.has_fn_attribute("null_pointer_is_valid"):
        return True
    return address_space != 0


def get_returned_arg_operand(call: CallBase) -> Value | None:
    """The argument marked ``returned`` at the call site or on the callee (LLVM ``getReturnedArgOperand``)."""
    n = call.num_args
    for i in range(n):
        if call.attributes.param_attrs(i).has("returned"):
            return call.get_arg(i)
    fn = call.called_function
    if fn is not None:
        for i in range(min(n, len(fn.args))):
            if fn.attributes.param_attrs(i).has("returned"):
                return call.get_arg(i)
    return None


def get_argument_aliasing_to_returned_pointer(call: CallBase, must_preserve_nullness: bool) -> Value | None:
    """The argument the call returns (``returned``, or an aliasing intrinsic), else None."""
    rv = get_returned_arg_operand(call)
    if rv is not None:
        return rv
    base = _intrinsic(call)
    if base in ("llvm.launder.invariant.group", "llvm.strip.invariant.group", "llvm.aarch64.irg",
                "llvm.aarch64.tagp", "llvm.amdgcn.make.buffer.rsrc"):
        return call.get_arg(0)
    if base == "llvm.ptrmask" and not must_preserve_nullness:
        return call.get_arg(0)
    if base == "llvm.threadlocal.address":
        fn = call.function
        if fn is None or not fn.has_fn_attribute("presplitcoroutine"):
            return call.get_arg(0)
    return None


def _range_attribute(v: Value) -> ConstantRange | None:
    """A ``range(...)`` attribute on an argument or on a call's return (LLVM ``getRange``)."""
    attr = None
    if isinstance(v, Argument):
        attr = v.attributes.get("range")
    elif isinstance(v, CallBase):
        attr = v.attributes.ret_attrs.get("range")
        if attr is None:
            fn = v.called_function
            if fn is not None:
                attr = fn.attributes.ret_attrs.get("range")
    if attr is None or not attr.ranges or not isinstance(attr.type_value, IntegerType):
        return None
    lo, hi = attr.ranges[0]
    return ConstantRange(attr.type_value.width, lo, hi)


def compute_known_bits_from_range_metadata(node: object, bit_width: int) -> KnownBits:
    """The bits every range of a ``!range`` node shares (LLVM ``computeKnownBitsFromRangeMetadata``)."""
    from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode

    assert isinstance(node, MDNode)
    ops = node.operands
    m = (1 << bit_width) - 1
    zero = one = m
    for i in range(0, len(ops) - 1, 2):
        lo_md, hi_md = ops[i], ops[i + 1]
        if not (isinstance(lo_md, ConstantAsMetadata) and isinstance(hi_md, ConstantAsMetadata)):
            return KnownBits(bit_width)
        lo, hi = lo_md.value, hi_md.value
        if not (isinstance(lo, ConstantInt) and isinstance(hi, ConstantInt)):
            return KnownBits(bit_width)
        cr = ConstantRange(lo.width, lo.value, hi.value)
        umax, umin = cr.get_unsigned_max(), cr.get_unsigned_min()
        common = cr.bit_width - (umax ^ umin).bit_length()
        mask = m & ~((1 << (bit_width - common)) - 1) if common else 0
        umax_t = umax & m
        one &= umax_t & mask
        zero &= ~umax_t & mask
    return KnownBits(bit_width, zero, one)


def _range_md_excludes(node: object, value: int) -> bool:
    from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode

    assert isinstance(node, MDNode)
    ops = node.operands
    for i in range(0, len(ops) - 1, 2):
        lo_md, hi_md = ops[i], ops[i + 1]
        if not (isinstance(lo_md, ConstantAsMetadata) and isinstance(hi_md, ConstantAsMetadata)):
            return False
        lo, hi = lo_md.value, hi_md.value
        if not (isinstance(lo, ConstantInt) and isinstance(hi, ConstantInt)):
            return False
        if ConstantRange(lo.width, lo.value, hi.value).contains(value):
            return False
    return True


def _shuffle_demanded(shuf: ShuffleVectorInst, demanded: int) -> tuple[int, int] | None:
    """LLVM ``getShuffleDemandedElts``: the lanes of each source a shuffle's demanded lanes read."""
    src_ty = shuf.get_operand(0).type
    assert isinstance(src_ty, VectorType)
    if src_ty.scalable:
        return demanded, demanded
    n = src_ty.count
    lhs = rhs = 0
    for i, m in enumerate(shuf.mask):
        if not (demanded >> i) & 1 or m < 0:
            continue
        if m < n:
            lhs |= 1 << m
        elif m < 2 * n:
            rhs |= 1 << (m - n)
        else:
            return None
    return lhs, rhs


def _element(c: Constant, i: int) -> Constant | None:
    """Lane ``i`` of a vector constant (LLVM ``getAggregateElement``), else None."""
    if isinstance(c, ConstantDataVector) or isinstance(c, ConstantVector):
        elems = c.elements
        return elems[i] if i < len(elems) else None
    if isinstance(c, ConstantAggregateZero):
        ty = c.type
        assert isinstance(ty, VectorType)
        return Constant.get_null_value(ty.element_type)
    if isinstance(c, UndefValue):
        ty = c.type
        assert isinstance(ty, VectorType)
        return (PoisonValue if isinstance(c, PoisonValue) else UndefValue).get(ty.element_type)
    return None


def match_simple_recurrence(pn: PHINode) -> tuple[Instruction, Value, Value] | None:
    """``(binop, start, step)`` when ``pn`` is ``[start, ...], [binop(pn, step) or
    binop(step, pn), ...]`` with two incoming values (LLVM ``matchSimpleRecurrence``)."""
    if pn.num_incoming != 2:
        return None
    for i in range(2):
        lv = pn.get_incoming_value(i)
        rv = pn.get_incoming_value(1 - i)
        if not isinstance(lv, Instruction) or lv.opcode not in _RECURRENCE_OPS:
            continue
        ll, lr = lv.get_operand(0), lv.get_operand(1)
        if ll is pn:
            return lv, rv, lr
        if lr is pn:
            return lv, rv, ll
    return None


_RECURRENCE_OPS = frozenset(("lshr", "ashr", "shl", "add", "sub", "and", "or", "mul", "fmul"))


# --- assumptions --------------------------------------------------------------------------------


def _is_ephemeral_value_of(inv: Instruction, e: Value) -> bool:
    """Every use of ``e`` leads only to ``inv`` (LLVM ``isEphemeralValueOf``)."""
    if any(op is e for op in inv.operands):
        return True
    work: list[Value] = [inv]
    visited: set[int] = set()
    eph: set[int] = set()
    while work:
        v = work.pop()
        if id(v) in visited:
            continue
        visited.add(id(v))
        if all(id(u) in eph for u in v.users):
            if v is e:
                return True
            if v is inv or (
                isinstance(v, Instruction) and not v.may_have_side_effects() and not v.is_terminator
            ):
                eph.add(id(v))
                if isinstance(v, User):
                    work.extend(v.operands)
    return False


def is_valid_assume_for_context(
    inv: Instruction, cxt_i: Instruction, dt: DominatorTree | None = None, allow_ephemerals: bool = False
) -> bool:
    """The assumption ``inv`` holds at ``cxt_i`` (LLVM ``isValidAssumeForContext``)."""
    if inv.parent is cxt_i.parent:
        if inv.comes_before(cxt_i):
            return True
        if not allow_ephemerals and inv is cxt_i:
            return False
        # Every instruction from the context up to the assume must pass control on (15 at most).
        cur: Instruction | None = cxt_i
        steps = 0
        while cur is not None and cur is not inv:
            if steps >= 15 or not is_guaranteed_to_transfer_execution_to_successor(cur):
                return False
            steps += 1
            cur = cur.next_instruction
        return allow_ephemerals or not _is_ephemeral_value_of(inv, cxt_i)
    if dt is not None:
        return dt.dominates(inv, cxt_i)
    parent = cxt_i.parent
    return parent is not None and inv.parent is parent.single_predecessor


def _assumptions_for(q: SimplifyQuery, v: Value) -> Iterable[tuple[CallBase, int]]:
    ac = q.ac
    if ac is None:
        return ()
    return ac.assumptions_for(v)


def _cmp_excludes_zero(pred: Predicate, rhs: Value) -> bool:
    """Every value satisfying ``icmp pred v, rhs`` is non-zero (LLVM ``cmpExcludesZero``)."""
    if pred == Predicate.ICMP_UGT:
        return True
    if pred == Predicate.ICMP_NE:
        return _is_zero_const(rhs)
    c = match_apint(rhs)
    if c is not None:
        return not ConstantRange.make_exact_icmp_region(pred, c.value, c.width).contains(0)
    if isinstance(rhs, ConstantDataVector):
        for e in rhs.elements:
            assert isinstance(e, ConstantInt)
            if ConstantRange.make_exact_icmp_region(pred, e.value, e.width).contains(0):
                return False
        return True
    return False


def _bundle_knowledge(call: CallBase, index: int) -> tuple[str, Value | None, int] | None:
    """``(attribute, was_on, argument)`` of an assume operand bundle (LLVM ``getKnowledgeFromBundle``)."""
    bundles = call.operand_bundles
    if index >= len(bundles):
        return None
    b = bundles[index]
    inputs = list(b.inputs)
    was_on = inputs[0] if inputs else None
    arg = 0
    if len(inputs) > 1:
        c = inputs[1]
        if isinstance(c, ConstantInt):
            arg = c.value
        else:
            return None
    if b.tag == "align" and len(inputs) > 2:
        return None
    return b.tag, was_on, arg


def _known_non_zero_from_assume(v: Value, q: SimplifyQuery) -> bool:
    cxt = q.cxt_i
    if q.ac is None or cxt is None:
        return False
    for assume, index in _assumptions_for(q, v):
        if index != _EXPR_RESULT:
            if not isinstance(v.type, PointerType):
                continue
            rk = _bundle_knowledge(assume, index)
            if rk is not None and rk[1] is v and (
                rk[0] == "nonnull"
                or (rk[0] == "dereferenceable" and not null_pointer_is_defined(cxt.function, v.type.address_space))
            ) and is_valid_assume_for_context(assume, cxt, q.dt):
                return True
            continue
        cond = assume.get_arg(0)
        if not isinstance(cond, ICmpInst):
            return False
        a, b = cond.get_operand(0), cond.get_operand(1)
        pred = cond.predicate
        if _is_v_or_ptrtoint(a, v):
            rhs = b
        elif _is_v_or_ptrtoint(b, v):
            rhs, pred = a, pred.swapped
        else:
            return False
        if _cmp_excludes_zero(pred, rhs) and is_valid_assume_for_context(assume, cxt, q.dt):
            return True
    return False


def _is_v_or_ptrtoint(x: Value, v: Value) -> bool:
    return x is v or (_opcode(x) == "ptrtoint" and _operand(x, 0) is v)


def _is_v_or_ptrtoint_same_size(x: Value, v: Value, dl: DataLayout) -> bool:
    if x is v:
        return True
    if _opcode(x) != "ptrtoint" or _operand(x, 0) is not v:
        return False
    return _scalar_bit_width(x.type, dl) == _scalar_bit_width(v.type, dl)


def _known_bits_from_cmp(v: Value, pred: Predicate, lhs: Value, rhs: Value, known: KnownBits, q: SimplifyQuery) -> KnownBits:
    """LLVM ``computeKnownBitsFromCmp``: what ``icmp pred lhs, rhs`` being true says about ``v``."""
    if isinstance(rhs.type, PointerType) or (
        isinstance(rhs.type, VectorType) and isinstance(rhs.type.element_type, PointerType)
    ):
        if lhs is v and _is_zero_const(rhs):
            if pred == Predicate.ICMP_EQ:
                return known.set_all_zero()
            if pred in (Predicate.ICMP_SGE, Predicate.ICMP_SGT):
                return known.make_non_negative()
            if pred == Predicate.ICMP_SLT:
                return known.make_negative()
        return known
    w = known.bit_width
    m = (1 << w) - 1
    dl = q.dl

    def is_v(x: Value) -> bool:
        return _is_v_or_ptrtoint_same_size(x, v, dl)

    c = _apint(rhs)
    if pred == Predicate.ICMP_EQ:
        if c is None:
            return known
        op = _opcode(lhs)
        if is_v(lhs):
            return known.union_with(KnownBits.make_constant(c, w))
        if op == "and" and (is_v(_operand(lhs, 0)) or is_v(_operand(lhs, 1))):
            y = _operand(lhs, 1) if is_v(_operand(lhs, 0)) else _operand(lhs, 0)
            one = known.one | c
            zero = known.zero
            mask = _apint(y)
            if mask is not None:
                zero |= ~c & mask & m
            return KnownBits(w, zero, one)
        if op == "or" and (is_v(_operand(lhs, 0)) or is_v(_operand(lhs, 1))):
            y = _operand(lhs, 1) if is_v(_operand(lhs, 0)) else _operand(lhs, 0)
            zero = known.zero | (~c & m)
            one = known.one
            mask = _apint(y)
            if mask is not None:
                one |= c & ~mask & m
            return KnownBits(w, zero, one)
        if op == "xor" and is_v(_operand(lhs, 0)):
            mask = _apint(_operand(lhs, 1))
            if mask is not None:
                return known.union_with(KnownBits.make_constant(c ^ mask, w))
            return known
        if op in ("shl", "lshr", "ashr") and is_v(_operand(lhs, 0)):
            amt_c = _operand(lhs, 1)
            if isinstance(amt_c, ConstantInt) and amt_c.value < w:
                sh = amt_c.value
                rk = KnownBits.make_constant(c, w)
                if op == "shl":
                    return known.union_with(KnownBits(w, rk.zero >> sh, rk.one >> sh))
                return KnownBits(w, known.zero | ((rk.zero << sh) & m), known.one | ((rk.one << sh) & m))
        return known
    if pred == Predicate.ICMP_NE:
        if _opcode(lhs) == "and" and is_v(_operand(lhs, 0)) and _is_zero_const(rhs):
            p = _apint(_operand(lhs, 1))
            if p is not None and p and not (p & (p - 1)):
                return KnownBits(w, known.zero, known.one | p)
        return known
    if c is None:
        return known
    offset: int | None = None
    op = _opcode(lhs)
    matched = is_v(lhs)
    if not matched and (op == "add" or (op == "or" and _is_disjoint(lhs))) and is_v(_operand(lhs, 0)):
        offset = _apint(_operand(lhs, 1))
        matched = offset is not None
    if matched:
        region = ConstantRange.make_allowed_icmp_region(pred, ConstantRange(w, c))
        if offset is not None:
            region = region.subtract(offset)
        known = known.union_with(region.to_known_bits())
    if pred in (Predicate.ICMP_UGT, Predicate.ICMP_UGE):
        if (op == "and" and (is_v(_operand(lhs, 0)) or is_v(_operand(lhs, 1)))) or (
            op == "sub" and _raw_nuw(lhs) and is_v(_operand(lhs, 0))
        ):
            val = (c + (1 if pred == Predicate.ICMP_UGT else 0)) & m
            n = w - (~val & m).bit_length()
            known = KnownBits(w, known.zero, known.one | (m & ~((1 << (w - n)) - 1)))
    if pred in (Predicate.ICMP_ULT, Predicate.ICMP_ULE):
        if (op == "or" and (is_v(_operand(lhs, 0)) or is_v(_operand(lhs, 1)))) or (
            op == "add" and _raw_nuw(lhs) and (is_v(_operand(lhs, 0)) or is_v(_operand(lhs, 1)))
        ):
            val = (c - (1 if pred == Predicate.ICMP_ULT else 0)) & m
            n = w - val.bit_length()
            known = KnownBits(w, known.zero | (m & ~((1 << (w - n)) - 1)), known.one)
    return known


def _known_bits_from_icmp_cond(v: Value, cmp: ICmpInst, known: KnownBits, q: SimplifyQuery, invert: bool) -> KnownBits:
    pred = cmp.predicate.inverse if invert else cmp.predicate
    lhs, rhs = cmp.get_operand(0), cmp.get_operand(1)
    if _opcode(lhs) == "trunc" and _operand(lhs, 0) is v:
        dst = KnownBits(_scalar_bit_width(lhs.type, q.dl))
        dst = _known_bits_from_cmp(lhs, pred, lhs, rhs, dst, q)
        return known.union_with(dst.anyext(known.bit_width))
    return _known_bits_from_cmp(v, pred, lhs, rhs, known, q)


def _logical_op(cond: Value) -> tuple[str, Value, Value] | None:
    """``("and"|"or", a, b)`` for ``and``/``or`` of i1 or their select forms (LLVM ``m_LogicalOp``)."""
    op = _opcode(cond)
    ty = cond.type
    is_bool = (isinstance(ty, IntegerType) and ty.width == 1) or (
        isinstance(ty, VectorType) and isinstance(ty.element_type, IntegerType) and ty.element_type.width == 1
    )
    if not is_bool:
        return None
    if op in ("and", "or"):
        return op, _operand(cond, 0), _operand(cond, 1)
    if op == "select":
        c, t, f = _operand(cond, 0), _operand(cond, 1), _operand(cond, 2)
        if t.type is not cond.type:
            return None
        if isinstance(f, Constant) and f.is_null_value:
            return "and", c, t
        if isinstance(t, Constant) and _is_all_ones(t):
            return "or", c, f
    return None


def _known_bits_from_cond(v: Value, cond: Value, known: KnownBits, depth: int, q: SimplifyQuery, invert: bool) -> KnownBits:
    lop = _logical_op(cond) if depth < _MAX else None
    if lop is not None:
        kind, a, b = lop
        k2 = _known_bits_from_cond(v, a, KnownBits(known.bit_width), depth + 1, q, invert)
        k3 = _known_bits_from_cond(v, b, KnownBits(known.bit_width), depth + 1, q, invert)
        if (kind == "or") if invert else (kind == "and"):
            k2 = k2.union_with(k3)
        else:
            k2 = k2.intersect_with(k3)
        known = known.union_with(k2)
    if isinstance(cond, ICmpInst):
        known = _known_bits_from_icmp_cond(v, cond, known, q, invert)
    return known


def _known_bits_from_context(v: Value, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    """LLVM ``computeKnownBitsFromContext``: facts from ``llvm.assume`` valid at the context."""
    cxt = q.cxt_i
    if cxt is None or q.ac is None:
        return known
    for assume, index in _assumptions_for(q, v):
        if index != _EXPR_RESULT:
            if not isinstance(v.type, PointerType):
                continue
            rk = _bundle_knowledge(assume, index)
            if (
                rk is not None
                and rk[1] is v
                and rk[0] == "align"
                and rk[2] > 0
                and not (rk[2] & (rk[2] - 1))
                and is_valid_assume_for_context(assume, cxt, q.dt)
            ):
                known = KnownBits(known.bit_width, known.zero | ((rk[2] - 1) & known.mask), known.one)
            continue
        arg = assume.get_arg(0)
        if arg is v and is_valid_assume_for_context(assume, cxt, q.dt):
            return KnownBits(known.bit_width, 0, known.mask)
        if _opcode(arg) == "xor" and _operand(arg, 0) is v and _is_all_ones(_operand(arg, 1)):
            if is_valid_assume_for_context(assume, cxt, q.dt):
                return KnownBits(known.bit_width, known.mask, 0)
        if depth == _MAX:
            continue
        if not isinstance(arg, ICmpInst):
            continue
        if not is_valid_assume_for_context(assume, cxt, q.dt):
            continue
        known = _known_bits_from_icmp_cond(v, arg, known, q, False)
    if known.has_conflict():
        return KnownBits(known.bit_width)
    return known


# --- computeKnownBits ---------------------------------------------------------------------------


def compute_known_bits(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> KnownBits:
    """The bits of ``v`` known zero and known one (for vectors, in every lane)
    (LLVM ``computeKnownBits``). ``v`` is an integer, a pointer, or a vector of them."""
    sq = _with_cxt(as_query(q), v)
    return _known(v, _all_demanded(v.type), depth, sq)


def compute_known_bits_for_lanes(v: Value, demanded: int, q: SimplifyQuery | DataLayout, depth: int = 0) -> KnownBits:
    """:func:`compute_known_bits` for the lanes set in ``demanded`` only."""
    sq = _with_cxt(as_query(q), v)
    return _known(v, demanded, depth, sq)


def _known(v: Value, demanded: int, depth: int, q: SimplifyQuery) -> KnownBits:
    w = _scalar_bit_width(v.type, q.dl)
    if not demanded:
        return KnownBits(w)
    c = match_apint(v)
    if c is not None:
        return KnownBits.make_constant(c.value, w)
    if isinstance(v, (ConstantPointerNull, ConstantAggregateZero)):
        return KnownBits(w, (1 << w) - 1, 0)
    if isinstance(v, ConstantDataVector):
        m = (1 << w) - 1
        zero = one = m
        for i, e in enumerate(v.elements):
            if not (demanded >> i) & 1:
                continue
            assert isinstance(e, ConstantInt)
            zero &= ~e.value & m
            one &= e.value
        if zero & one:
            return KnownBits(w)
        return KnownBits(w, zero, one)
    if isinstance(v, ConstantVector):
        m = (1 << w) - 1
        zero = one = m
        for i, e in enumerate(v.elements):
            if not (demanded >> i) & 1:
                continue
            if isinstance(e, PoisonValue):
                continue
            if not isinstance(e, ConstantInt):
                return KnownBits(w)
            zero &= ~e.value & m
            one &= e.value
        if zero & one:
            return KnownBits(w)
        return KnownBits(w, zero, one)
    known = KnownBits(w)
    if isinstance(v, UndefValue):
        return known
    if isinstance(v, Argument):
        cr = _range_attribute(v)
        if cr is not None:
            known = cr.to_known_bits()
    if depth == _MAX:
        return known
    if isinstance(v, GlobalAlias):
        if not v.is_interposable:
            return _known(v.aliasee, _all_demanded(v.aliasee.type), depth + 1, q)
        return known
    if _is_operator(v):
        known = _known_from_operator(v, demanded, known, depth, q)
    if isinstance(v.type, PointerType):
        align = _pointer_alignment(v, q.dl)
        if align > 1:
            known = KnownBits(w, known.zero | ((align - 1) & ((1 << w) - 1)), known.one)
    return _known_bits_from_context(v, known, depth, q)


def _pointer_alignment(v: Value, dl: DataLayout) -> int:
    """LLVM ``Value::getPointerAlignment`` for the cases ValueTracking meets."""
    if isinstance(v, Function):
        spec = dl.function_ptr_alignment
        return spec if spec else 1
    if isinstance(v, GlobalVariable):
        if v.alignment:
            return v.alignment
        ty = v.value_type
        if ty.is_sized:
            if not v.is_declaration and not v.is_interposable and v.linkage not in (Linkage.AVAILABLE_EXTERNALLY,):
                return dl.pref_alignment(ty)
            return dl.abi_alignment(ty)
        return 1
    if isinstance(v, Argument):
        a = v.attributes.alignment
        if a:
            return a
        sret = v.attributes.get("sret")
        if sret is not None and sret.type_value is not None and sret.type_value.is_sized:
            return dl.abi_alignment(sret.type_value)
        return 1
    if isinstance(v, AllocaInst):
        return v.alignment or 1
    if isinstance(v, CallBase):
        a = v.attributes.ret_attrs.alignment
        if not a:
            fn = v.called_function
            if fn is not None:
                a = fn.attributes.ret_attrs.alignment
        return a or 1
    if isinstance(v, Instruction) and v.opcode == "load":
        md = v.get_metadata("align")
        if md is not None:
            from llvmpy_mid.ir.metadata import ConstantAsMetadata

            ops = md.operands
            if ops and isinstance(ops[0], ConstantAsMetadata) and isinstance(ops[0].value, ConstantInt):
                return ops[0].value.value or 1
        return 1
    return 1


def _known_add_sub(
    add: bool, op0: Value, op1: Value, nsw: bool, nuw: bool, demanded: int, depth: int, q: SimplifyQuery
) -> KnownBits:
    k1 = _known(op1, demanded, depth + 1, q)
    if k1.is_unknown() and not nsw and not nuw:
        return k1
    k0 = _known(op0, demanded, depth + 1, q)
    return KnownBits.compute_for_add_sub(add, nsw, nuw, k0, k1)


def _known_mul(op0: Value, op1: Value, nsw: bool, demanded: int, depth: int, q: SimplifyQuery) -> KnownBits:
    known = _known(op1, demanded, depth + 1, q)
    known2 = _known(op0, demanded, depth + 1, q)
    non_neg = neg = False
    if nsw:
        if op0 is op1:
            non_neg = True
        else:
            non_neg = (known.is_negative() and known2.is_negative()) or (
                known.is_non_negative() and known2.is_non_negative()
            )
            if not non_neg:
                neg = (known.is_negative() and known2.is_non_negative() and known2.is_non_zero()) or (
                    known2.is_negative() and known.is_non_negative() and known.is_non_zero()
                )
    self_multiply = op0 is op1 and is_guaranteed_not_to_be_undef(op0, q.cxt_i, q.dt, depth + 1)
    result = KnownBits.mul(known, known2, self_multiply)
    if non_neg and not result.is_negative():
        result = result.make_non_negative()
    elif neg and not result.is_non_negative():
        result = result.make_negative()
    return result


def _known_and_xor_or(
    i: Value, demanded: int, lhs: KnownBits, rhs: KnownBits, depth: int, q: SimplifyQuery
) -> KnownBits:
    """LLVM ``getKnownBitsFromAndXorOr`` with its ``x & -x``, ``x ^ (x-1)`` and ``x op (x+odd)`` idioms."""
    op = _opcode(i)
    a, b = _operand(i, 0), _operand(i, 1)
    has_known_one = lhs.one != 0 or rhs.one != 0
    if op == "and":
        out = lhs & rhs
        if has_known_one and (_is_neg_of(b, a) or _is_neg_of(a, b)):
            out = lhs.blsi() if lhs.count_max_trailing_zeros() <= rhs.count_max_trailing_zeros() else rhs.blsi()
    elif op == "or":
        out = lhs | rhs
    else:
        out = lhs ^ rhs
        if has_known_one:
            if _is_add_all_ones_of(b, a):
                out = lhs.blsmsk()
            elif _is_add_all_ones_of(a, b):
                out = rhs.blsmsk()
    if not ((out.zero | out.one) & 1):
        y = _odd_partner(a, b)
        if y is None:
            y = _odd_partner(b, a)
        if y is not None:
            ky = _known(y, demanded, depth + 1, q)
            if ky.count_min_trailing_ones() > 0:
                if op == "and":
                    out = KnownBits(out.bit_width, out.zero | 1, out.one)
                else:
                    out = KnownBits(out.bit_width, out.zero, out.one | 1)
    return out


def _is_neg_of(x: Value, y: Value) -> bool:
    """``x`` is ``sub 0, y`` (LLVM ``m_Neg``)."""
    return _opcode(x) == "sub" and _is_zero_const(_operand(x, 0)) and _operand(x, 1) is y


def _is_add_all_ones_of(x: Value, y: Value) -> bool:
    """``x`` is ``add y, -1``."""
    return _opcode(x) == "add" and _operand(x, 0) is y and _is_all_ones(_operand(x, 1))


def _odd_partner(x: Value, other: Value) -> Value | None:
    """For ``op(x, other)``: the ``Y`` of ``other = x + Y``, ``x - Y`` or ``Y - x``."""
    op = _opcode(other)
    if op == "add":
        if _operand(other, 0) is x:
            return _operand(other, 1)
        if _operand(other, 1) is x:
            return _operand(other, 0)
    elif op == "sub":
        if _operand(other, 0) is x:
            return _operand(other, 1)
        if _operand(other, 1) is x:
            return _operand(other, 0)
    return None


def _adjust_for_select_arm(known: KnownBits, cond: Value, arm: Value, invert: bool, depth: int, q: SimplifyQuery) -> KnownBits:
    """LLVM ``adjustKnownBitsForSelectArm``: what the select condition says of the chosen arm."""
    if known.is_constant():
        return known
    cond_res = _known_bits_from_cond(arm, cond, KnownBits(known.bit_width), depth + 1, q, invert)
    if cond_res.is_unknown():
        return known
    cond_res = cond_res.union_with(known)
    if cond_res.has_conflict():
        return known
    if not is_guaranteed_not_to_be_undef(arm, q.cxt_i, q.dt, depth + 1):
        return known
    return cond_res


def _shift_amount_non_zero(i: Value, amt_known: KnownBits, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    return amt_known.is_non_zero() or (
        amt_known.get_max_value() < amt_known.bit_width and _non_zero(_operand(i, 1), demanded, depth + 1, q)
    )


def _known_from_operator(i: Value, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    """LLVM ``computeKnownBitsFromOperator`` (instructions and constant expressions)."""
    op = _opcode(i)
    w = known.bit_width
    m = (1 << w) - 1
    if op == "load":
        assert isinstance(i, Instruction)
        md = q.get_metadata(i, "range")
        if md is not None:
            return compute_known_bits_from_range_metadata(md, w)
        return known
    if op in ("and", "or", "xor"):
        rhs = _known(_operand(i, 1), demanded, depth + 1, q)
        lhs = _known(_operand(i, 0), demanded, depth + 1, q)
        return _known_and_xor_or(i, demanded, lhs, rhs, depth, q)
    if op == "mul":
        return _known_mul(_operand(i, 0), _operand(i, 1), _nsw(q, i), demanded, depth, q)
    if op == "udiv":
        a = _known(_operand(i, 0), demanded, depth + 1, q)
        b = _known(_operand(i, 1), demanded, depth + 1, q)
        return KnownBits.udiv(a, b, _exact(q, i))
    if op == "sdiv":
        a = _known(_operand(i, 0), demanded, depth + 1, q)
        b = _known(_operand(i, 1), demanded, depth + 1, q)
        return KnownBits.sdiv(a, b, _exact(q, i))
    if op == "select":
        cond = _operand(i, 0)
        t = _adjust_for_select_arm(_known(_operand(i, 1), demanded, depth + 1, q), cond, _operand(i, 1), False, depth, q)
        f = _adjust_for_select_arm(_known(_operand(i, 2), demanded, depth + 1, q), cond, _operand(i, 2), True, depth, q)
        return t.intersect_with(f)
    if op in ("ptrtoint", "inttoptr", "zext", "trunc"):
        src = _operand(i, 0)
        src_known = _known(src, demanded, depth + 1, q)
        if op == "zext" and q.use_instr_info and bool(getattr(i, "nneg", False)) and not src_known.is_negative():
            src_known = src_known.make_non_negative()
        return src_known.zext_or_trunc(w)
    if op == "bitcast":
        src = _operand(i, 0)
        sty = src.type
        if (isinstance(sty, (IntegerType, PointerType))) and not isinstance(i.type, VectorType):
            return _known(src, _all_demanded(sty), depth + 1, q)
        if (
            isinstance(sty, VectorType)
            and not sty.scalable
            and isinstance(sty.element_type, IntegerType)
            and (isinstance(i.type, IntegerType) or (isinstance(i.type, VectorType) and not i.type.scalable
                                                     and isinstance(i.type.element_type, IntegerType)))
        ):
            sub = sty.element_type.width
            if w % sub == 0:
                n_elts = i.type.count if isinstance(i.type, VectorType) else 1
                scale = w // sub
                sub_demanded = 0
                for e in range(n_elts):
                    if (demanded >> e) & 1:
                        sub_demanded |= 1 << (e * scale)
                zero = one = 0
                for part in range(scale):
                    ks = _known(src, sub_demanded << part, depth + 1, q)
                    shift = (part if q.dl.is_little_endian else scale - 1 - part) * sub
                    zero |= ks.zero << shift
                    one |= ks.one << shift
                return KnownBits(w, zero, one)
        return known
    if op == "sext":
        src = _operand(i, 0)
        return _known(src, demanded, depth + 1, q).sext(w)
    if op in ("shl", "lshr", "ashr"):
        val = _known(_operand(i, 0), demanded, depth + 1, q)
        amt = _known(_operand(i, 1), demanded, depth + 1, q)
        non_zero = _shift_amount_non_zero(i, amt, demanded, depth, q)
        if op == "shl":
            res = KnownBits.shl(val, amt, _nuw(q, i), _nsw(q, i), non_zero)
            c = _apint(_operand(i, 0))
            if c is not None:
                tz = w if c == 0 else (c & -c).bit_length() - 1
                res = KnownBits(w, res.zero | ((1 << tz) - 1), res.one)
            return res
        if op == "lshr":
            res = KnownBits.lshr(val, amt, non_zero, _exact(q, i))
            c = _apint(_operand(i, 0))
            if c is not None:
                lz = w - c.bit_length()
                res = KnownBits(w, res.zero | (m & ~((1 << (w - lz)) - 1)), res.one)
            return res
        return KnownBits.ashr(val, amt, non_zero, _exact(q, i))
    if op in ("add", "sub"):
        return _known_add_sub(op == "add", _operand(i, 0), _operand(i, 1), _nsw(q, i), _nuw(q, i), demanded, depth, q)
    if op == "srem":
        a = _known(_operand(i, 0), demanded, depth + 1, q)
        b = _known(_operand(i, 1), demanded, depth + 1, q)
        return KnownBits.srem(a, b)
    if op == "urem":
        a = _known(_operand(i, 0), demanded, depth + 1, q)
        b = _known(_operand(i, 1), demanded, depth + 1, q)
        return KnownBits.urem(a, b)
    if op == "alloca":
        assert isinstance(i, AllocaInst)
        align = i.alignment or 1
        return KnownBits(w, known.zero | ((align - 1) & m), known.one)
    if op == "getelementptr":
        return _known_gep(i, known, depth, q)
    if op == "phi":
        assert isinstance(i, PHINode)
        return _known_phi(i, demanded, known, depth, q)
    if op in ("call", "invoke"):
        assert isinstance(i, CallBase)
        return _known_call(i, demanded, known, depth, q)
    if op == "shufflevector":
        if not isinstance(i, ShuffleVectorInst) and not isinstance(i, ConstantExpr):
            return KnownBits(w)
        split = _shuffle_demanded_any(i, demanded)
        if split is None:
            return KnownBits(w)
        dl_, dr_ = split
        zero = one = m
        if dl_:
            k = _known(_operand(i, 0), dl_, depth + 1, q)
            zero, one = k.zero, k.one
            if k.is_unknown():
                return k
        if dr_:
            k2 = _known(_operand(i, 1), dr_, depth + 1, q)
            zero &= k2.zero
            one &= k2.one
        return KnownBits(w, zero, one)
    if op == "insertelement":
        ty = i.type
        assert isinstance(ty, VectorType)
        if ty.scalable:
            return KnownBits(w)
        vec, elt, idx = _operand(i, 0), _operand(i, 1), _operand(i, 2)
        vec_demanded = demanded
        needs_elt = True
        if isinstance(idx, ConstantInt) and idx.value < ty.count:
            vec_demanded &= ~(1 << idx.value)
            needs_elt = bool((demanded >> idx.value) & 1)
        zero = one = m
        if needs_elt:
            k = _known(elt, 1, depth + 1, q)
            if k.is_unknown():
                return k
            zero, one = k.zero, k.one
        if vec_demanded:
            k2 = _known(vec, vec_demanded, depth + 1, q)
            zero &= k2.zero
            one &= k2.one
        return KnownBits(w, zero, one)
    if op == "extractelement":
        vec, idx = _operand(i, 0), _operand(i, 1)
        vty = vec.type
        assert isinstance(vty, VectorType)
        if vty.scalable:
            return KnownBits(w)
        vec_demanded = (1 << vty.count) - 1
        if isinstance(idx, ConstantInt) and idx.value < vty.count:
            vec_demanded = 1 << idx.value
        return _known(vec, vec_demanded, depth + 1, q)
    if op == "extractvalue":
        agg = _operand(i, 0)
        indices: tuple[int, ...] = tuple(getattr(i, "indices", ()))
        if isinstance(agg, CallBase) and indices == (0,):
            base = _intrinsic(agg)
            if base in ("llvm.uadd.with.overflow", "llvm.sadd.with.overflow"):
                return _known_add_sub(True, agg.get_arg(0), agg.get_arg(1), False, False, demanded, depth, q)
            if base in ("llvm.usub.with.overflow", "llvm.ssub.with.overflow"):
                return _known_add_sub(False, agg.get_arg(0), agg.get_arg(1), False, False, demanded, depth, q)
            if base in ("llvm.umul.with.overflow", "llvm.smul.with.overflow"):
                return _known_mul(agg.get_arg(0), agg.get_arg(1), False, demanded, depth, q)
        return known
    if op == "freeze":
        src = _operand(i, 0)
        if is_guaranteed_not_to_be_poison(src, q.cxt_i, q.dt, depth + 1):
            return _known(src, _all_demanded(src.type), depth + 1, q)
        return known
    return known


def _shuffle_demanded_any(i: Value, demanded: int) -> tuple[int, int] | None:
    if isinstance(i, ShuffleVectorInst):
        return _shuffle_demanded(i, demanded)
    assert isinstance(i, ConstantExpr)
    src_ty = i.get_operand(0).type
    assert isinstance(src_ty, VectorType)
    if src_ty.scalable:
        return demanded, demanded
    n = src_ty.count
    lhs = rhs = 0
    for k, mv in enumerate(i.shuffle_mask):
        if not (demanded >> k) & 1 or mv < 0:
            continue
        if mv < n:
            lhs |= 1 << mv
        elif mv < 2 * n:
            rhs |= 1 << (mv - n)
        else:
            return None
    return lhs, rhs


def _gep_source_type(i: Value) -> Type:
    if isinstance(i, ConstantExpr):
        ty = i.source_element_type
        assert ty is not None
        return ty
    st = getattr(i, "source_element_type")
    assert isinstance(st, Type)
    return st


def _gep_steps(i: Value) -> Iterable[tuple[Value, StructType | None, Type]]:
    """For each index of a GEP: ``(index, struct type or None, indexed element type)``
    (LLVM's ``gep_type_iterator``)."""
    assert isinstance(i, User)
    cur: Type = _gep_source_type(i)
    n = i.num_operands
    for k in range(1, n):
        idx = i.get_operand(k)
        if k == 1:
            yield idx, None, cur
            continue
        if isinstance(cur, StructType):
            c = idx
            if isinstance(c.type, VectorType) and isinstance(c, Constant):
                s = get_splat_value(c)
                c = s if s is not None else c
            assert isinstance(c, ConstantInt)
            yield idx, cur, cur
            cur = cur.elements[c.value]
        elif isinstance(cur, (ArrayType, VectorType)):
            cur = cur.element_type
            yield idx, None, cur
        else:
            yield idx, None, cur


def _known_gep(i: Value, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    w = known.bit_width
    base = _operand(i, 0)
    known = _known(base, _all_demanded(base.type), depth + 1, q)
    acc = 0
    dl = q.dl
    for idx, st, elt_ty in _gep_steps(i):
        if known.is_unknown():
            break
        if isinstance(idx, Constant) and idx.is_null_value:
            continue
        if st is not None:
            c = idx
            if isinstance(c.type, VectorType) and isinstance(c, Constant):
                s = get_splat_value(c)
                c = s if s is not None else c
            assert isinstance(c, ConstantInt)
            acc += dl.struct_layout(st).element_offset(c.value)
            continue
        if not elt_ty.is_sized:
            return KnownBits(w)
        iw = _scalar_bit_width(idx.type, dl)
        ib = _known(idx, _all_demanded(idx.type), depth + 1, q)
        scalable = isinstance(elt_ty, VectorType) and elt_ty.scalable
        size = dl.type_alloc_size(elt_ty)
        if scalable:
            tz = (size & -size).bit_length() - 1 if size else 0
            scaling = KnownBits(iw, (1 << min(tz, iw)) - 1, 0)
        elif ib.is_constant():
            ic = (ib.get_constant() * size) & ((1 << iw) - 1)
            sv = ic - (1 << iw) if iw and ic >> (iw - 1) else ic
            acc += sv
            continue
        else:
            scaling = KnownBits.make_constant(size, iw)
        ib = KnownBits.mul(ib, scaling).sext_or_trunc(w)
        known = KnownBits.compute_for_add_sub(True, False, False, known, ib)
    acc &= (1 << w) - 1
    if not known.is_unknown() and acc:
        known = KnownBits.compute_for_add_sub(True, False, False, known, KnownBits.make_constant(acc, w))
    return known


def _known_phi(p: PHINode, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    w = known.bit_width
    m = (1 << w) - 1
    rec = match_simple_recurrence(p)
    if rec is not None:
        bo, r, step = rec
        opc = bo.opcode
        if opc in ("lshr", "ashr", "shl") and bo.get_operand(0) is p:
            k2 = _known(r, demanded, depth + 1, q.get_with_instruction(p))
            if opc == "shl":
                known = KnownBits(w, known.zero | ((1 << k2.count_min_trailing_zeros()) - 1), known.one)
            elif opc == "lshr":
                lz = k2.count_min_leading_zeros()
                known = KnownBits(w, known.zero | (m & ~((1 << (w - lz)) - 1)), known.one)
            else:
                lz = k2.count_min_leading_zeros()
                lo = k2.count_min_leading_ones()
                known = KnownBits(
                    w, known.zero | (m & ~((1 << (w - lz)) - 1)), known.one | (m & ~((1 << (w - lo)) - 1))
                )
        if opc in ("add", "sub", "and", "or", "mul"):
            op_num = 0 if p.get_operand(0) is r else 1
            r_inst = p.get_incoming_block(op_num).terminator
            l_inst = p.get_incoming_block(1 - op_num).terminator
            k2 = _known(r, demanded, depth + 1, q.get_with_instruction(r_inst))
            k3 = _known(step, demanded, depth + 1, q.get_with_instruction(l_inst))
            tz = min(k2.count_min_trailing_zeros(), k3.count_min_trailing_zeros())
            known = KnownBits(w, known.zero | ((1 << tz) - 1), known.one)
            if opc in ("add", "sub", "mul") and _nsw(q, bo):
                if opc == "add":
                    if k2.is_non_negative() and k3.is_non_negative():
                        known = known.make_non_negative()
                    elif k2.is_negative() and k3.is_negative():
                        known = known.make_negative()
                elif opc == "sub" and bo.get_operand(0) is p:
                    if k2.is_non_negative() and k3.is_negative():
                        known = known.make_non_negative()
                    elif k2.is_negative() and k3.is_non_negative():
                        known = known.make_negative()
                elif opc == "mul" and k2.is_non_negative() and k3.is_non_negative():
                    known = known.make_non_negative()
            return known
    if p.num_incoming == 0:
        return known
    if depth < _MAX - 1 and known.is_unknown():
        cv = p.has_constant_value()
        if isinstance(cv, UndefValue):
            return known
        zero = one = m
        block = p.parent
        for k in range(p.num_incoming):
            inc = p.get_incoming_value(k)
            if inc is p:
                continue
            term = p.get_incoming_block(k).terminator
            rq = q.get_with_instruction(term)
            k2 = _known(inc, demanded, _MAX - 1, rq)
            if not k2.is_constant() and isinstance(term, BranchInst) and term.is_conditional:
                cond = term.condition
                if isinstance(cond, ICmpInst):
                    a, b = cond.get_operand(0), cond.get_operand(1)
                    pred = cond.predicate
                    rhs_c: int | None = None
                    if a is inc:
                        rhs_c = _apint(b)
                    elif b is inc:
                        rhs_c = _apint(a)
                        pred = pred.swapped
                    if rhs_c is not None:
                        ts, fs = term.get_successor(0), term.get_successor(1)
                        if (ts is block) != (fs is block):
                            if fs is block:
                                pred = pred.inverse
                            cr = ConstantRange.make_exact_icmp_region(pred, rhs_c, w)
                            union = k2.union_with(cr.to_known_bits())
                            if union.has_conflict():
                                return KnownBits(w)
                            k2 = union
            zero &= k2.zero
            one &= k2.one
            if zero == 0 and one == 0:
                break
        return KnownBits(w, zero, one)
    return known


def _known_call(call: CallBase, demanded: int, known: KnownBits, depth: int, q: SimplifyQuery) -> KnownBits:
    w = known.bit_width
    m = (1 << w) - 1
    md = q.get_metadata(call, "range")
    if md is not None:
        known = compute_known_bits_from_range_metadata(md, w)
    cr = _range_attribute(call)
    if cr is not None:
        known = known.union_with(cr.to_known_bits())
    rv = get_returned_arg_operand(call)
    if rv is not None and rv.type is call.type:
        known = known.union_with(_known(rv, _all_demanded(rv.type), depth + 1, q))
        if known.has_conflict():
            known = KnownBits(w)
    base = _intrinsic(call)
    if not base:
        return known

    def arg(k: int) -> KnownBits:
        return _known(call.get_arg(k), demanded, depth + 1, q)

    if base == "llvm.abs":
        flag = call.get_arg(1)
        return arg(0).abs(isinstance(flag, ConstantInt) and flag.value == 1)
    if base == "llvm.bitreverse":
        k = arg(0).reverse_bits()
        return KnownBits(w, known.zero | k.zero, known.one | k.one)
    if base == "llvm.bswap":
        k = arg(0).byte_swap()
        return KnownBits(w, known.zero | k.zero, known.one | k.one)
    if base in ("llvm.ctlz", "llvm.cttz"):
        k = arg(0)
        possible = k.count_max_leading_zeros() if base == "llvm.ctlz" else k.count_max_trailing_zeros()
        flag = call.get_arg(1)
        if isinstance(flag, ConstantInt) and flag.width == 1 and flag.value == 1:
            possible = min(possible, w - 1)
        low = possible.bit_length()
        return KnownBits(w, known.zero | (m & ~((1 << low) - 1)), known.one)
    if base == "llvm.ctpop":
        low = arg(0).count_max_population().bit_length()
        return KnownBits(w, known.zero | (m & ~((1 << low) - 1)), known.one)
    if base in ("llvm.fshl", "llvm.fshr"):
        sa = _apint(call.get_arg(2))
        if sa is None:
            return known
        amt = sa % w
        if base == "llvm.fshr":
            amt = w - amt
        k2 = arg(0)
        k3 = arg(1)
        zero = ((k2.zero << amt) & m) | (k3.zero >> (w - amt))
        one = ((k2.one << amt) & m) | (k3.one >> (w - amt))
        return KnownBits(w, zero, one)
    if base in _SAT_MINMAX:
        return _SAT_MINMAX[base](arg(0), arg(1))
    if base == "llvm.vector.reverse":
        ty = call.type
        assert isinstance(ty, VectorType)
        n = ty.count if not ty.scalable else 1
        rev = int(format(demanded, "0%db" % n)[::-1], 2) if n > 1 else demanded
        return _known(call.get_arg(0), rev, depth + 1, q)
    if base in (
        "llvm.vector.reduce.and",
        "llvm.vector.reduce.or",
        "llvm.vector.reduce.umax",
        "llvm.vector.reduce.umin",
        "llvm.vector.reduce.smax",
        "llvm.vector.reduce.smin",
    ):
        src = call.get_arg(0)
        return _known(src, _all_demanded(src.type), depth + 1, q)
    if base == "llvm.vector.reduce.xor":
        src = call.get_arg(0)
        k = _known(src, _all_demanded(src.type), depth + 1, q)
        vty = src.type
        assert isinstance(vty, VectorType)
        even = vty.count % 2 == 0
        zero, one = k.zero, k.one
        if even:
            zero |= one
        if vty.scalable or even:
            one = 0
        return KnownBits(w, zero, one)
    if base == "llvm.ptrmask":
        k = arg(0)
        mask = call.get_arg(1)
        k2 = _known(mask, demanded, depth + 1, q).anyext_or_trunc(w)
        return k & k2
    if base == "llvm.x86.sse42.crc32.64.64":
        return KnownBits(w, known.zero | (m & ~((1 << 32) - 1)), known.one)
    if base == "llvm.vscale":
        fn = call.function
        if fn is None:
            return known
        return get_vscale_range(fn, w).to_known_bits()
    return known


_SAT_MINMAX = {
    "llvm.uadd.sat": KnownBits.uadd_sat,
    "llvm.usub.sat": KnownBits.usub_sat,
    "llvm.sadd.sat": KnownBits.sadd_sat,
    "llvm.ssub.sat": KnownBits.ssub_sat,
    "llvm.umin": KnownBits.umin,
    "llvm.umax": KnownBits.umax,
    "llvm.smin": KnownBits.smin,
    "llvm.smax": KnownBits.smax,
}


def get_vscale_range(fn: Function, bit_width: int) -> ConstantRange:
    """The values ``llvm.vscale`` may take in ``fn`` (LLVM ``getVScaleRange``)."""
    attr = fn.attributes.fn_attrs.get("vscale_range")
    if attr is None:
        return ConstantRange(bit_width, 1, 0)
    raw = attr.int_value
    lo = raw >> 32
    hi = raw & 0xFFFFFFFF
    if lo.bit_length() > bit_width:
        return ConstantRange.get_empty(bit_width)
    if not hi or hi.bit_length() > bit_width:
        return ConstantRange(bit_width, lo, 0)
    return ConstantRange(bit_width, lo, hi + 1)


# --- derived queries ----------------------------------------------------------------------------


def masked_value_is_zero(v: Value, mask: int, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """Every bit of ``v`` selected by ``mask`` is known zero (LLVM ``MaskedValueIsZero``)."""
    known = compute_known_bits(v, q, depth)
    return (mask & ~known.zero) == 0


def is_known_non_negative(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """The sign bit of ``v`` is known zero."""
    return compute_known_bits(v, q, depth).is_non_negative()


def is_known_positive(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """``v`` is known > 0 (signed)."""
    sq = as_query(q)
    if isinstance(v, ConstantInt):
        return v.sext_value > 0
    known = compute_known_bits(v, sq, depth)
    if known.is_negative():
        return False
    if known.is_non_negative() and known.is_non_zero():
        return True
    return known.is_non_negative() and is_known_non_zero(v, sq, depth)


def is_known_negative(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """The sign bit of ``v`` is known one."""
    return compute_known_bits(v, q, depth).is_negative()


def have_no_common_bits_set(lhs: Value, rhs: Value, q: SimplifyQuery | DataLayout) -> bool:
    """No bit can be one in both ``lhs`` and ``rhs`` (LLVM ``haveNoCommonBitsSet``)."""
    sq = as_query(q)
    if _no_common_bits_special(lhs, rhs, sq) or _no_common_bits_special(rhs, lhs, sq):
        return True
    a = compute_known_bits(lhs, sq)
    b = compute_known_bits(rhs, sq)
    return ((a.zero | b.zero) & a.mask) == a.mask


def _is_not_of(x: Value, y: Value) -> bool:
    return _opcode(x) == "xor" and _operand(x, 0) is y and _is_all_ones(_operand(x, 1))


def _no_common_bits_special(lhs: Value, rhs: Value, q: SimplifyQuery) -> bool:
    """LLVM ``haveNoCommonBitsSetSpecialCases``."""
    # (X & ~Y) and Y
    if _opcode(rhs) == "and" and q.use_instr_info is not None:
        for k in range(2):
            nx = _operand(rhs, k)
            if _is_not_of(nx, lhs) and is_guaranteed_not_to_be_undef(lhs, q.cxt_i, q.dt):
                return True
    # X ^ (X | Y) -> ~X & Y shaped: (A | B) & ~A style patterns
    if _opcode(rhs) == "and" and _opcode(lhs) == "or":
        a, b = _operand(lhs, 0), _operand(lhs, 1)
        for k in range(2):
            nx = _operand(rhs, k)
            other = _operand(rhs, 1 - k)
            if _opcode(nx) == "xor" and _is_all_ones(_operand(nx, 1)):
                inner = _operand(nx, 0)
                if _opcode(inner) == "xor" and {id(_operand(inner, 0)), id(_operand(inner, 1))} == {id(a), id(b)}:
                    return True
            del other
    # icmp/compare-based: (X & Y) and ~(X | Y) etc. are left to the known-bits test.
    if _opcode(lhs) == "shl" and _opcode(rhs) == "lshr":
        pass
    return False


def is_known_to_be_a_power_of_two(
    v: Value, q: SimplifyQuery | DataLayout, or_zero: bool = False, depth: int = 0
) -> bool:
    """``v`` has exactly one bit set (or is zero, with ``or_zero``) (LLVM ``isKnownToBeAPowerOfTwo``)."""
    sq = _with_cxt(as_query(q), v)
    return _pow2(v, or_zero, depth, sq)


def _is_power2_const(v: Value, or_zero: bool) -> bool:
    """LLVM ``m_Power2`` / ``m_Power2OrZero`` on constants (scalars and every vector lane)."""
    def ok(c: Constant) -> bool:
        if isinstance(c, ConstantInt):
            val = c.value
            return (val == 0 and or_zero) or (val != 0 and not (val & (val - 1)))
        return False

    if isinstance(v, ConstantInt):
        return ok(v)
    if isinstance(v, Constant) and isinstance(v.type, VectorType):
        s = get_splat_value(v)
        if s is not None:
            return ok(s)
        if isinstance(v, (ConstantDataVector, ConstantVector)):
            any_ok = False
            for e in v.elements:
                if isinstance(e, UndefValue):
                    continue
                if not ok(e):
                    return False
                any_ok = True
            return any_ok
    return False


def _is_sign_mask(v: Value) -> bool:
    c = match_apint(v)
    return c is not None and c.value == 1 << (c.width - 1)


def _pow2_recurrence(pn: PHINode, or_zero: bool, depth: int, q: SimplifyQuery) -> bool:
    rec = match_simple_recurrence(pn)
    if rec is None:
        return False
    bo, start, step = rec
    for k in range(pn.num_incoming):
        if pn.get_incoming_value(k) is start:
            rq = q.get_with_instruction(pn.get_incoming_block(k).terminator)
            if not _pow2(start, or_zero, depth, rq):
                return False
    if bo.opcode != "mul" and bo.get_operand(1) is not step:
        return False
    parent = bo.parent
    bq = q.get_with_instruction(parent.terminator if parent is not None else None)
    opc = bo.opcode
    if opc == "mul":
        return (or_zero or _nuw(bq, bo) or _nsw(bq, bo)) and _pow2(step, or_zero, depth, bq)
    if opc in ("sdiv", "udiv"):
        if opc == "sdiv" and (not _is_power2_const(start, False) or _is_sign_mask(start)):
            return False
        return (or_zero or _exact(bq, bo)) and _pow2(step, False, depth, bq)
    if opc == "shl":
        return or_zero or _nuw(bq, bo) or _nsw(bq, bo)
    if opc in ("ashr", "lshr"):
        if opc == "ashr" and (not _is_power2_const(start, False) or _is_sign_mask(start)):
            return False
        return or_zero or _exact(bq, bo)
    return False


def _pow2(v: Value, or_zero: bool, depth: int, q: SimplifyQuery) -> bool:
    if isinstance(v, Constant):
        return _is_power2_const(v, or_zero)
    sty = v.type.element_type if isinstance(v.type, VectorType) else v.type
    if or_zero and isinstance(sty, IntegerType) and sty.width == 1:
        return True
    if not isinstance(v, Instruction):
        return False
    if q.cxt_i is not None and _intrinsic(v) == "llvm.vscale":
        fn = q.cxt_i.function
        return fn is not None and fn.has_fn_attribute("vscale_range")
    op = v.opcode
    if op == "shl":
        c = match_apint(v.get_operand(0))
        if c is not None and c.value == 1:
            return True
    if op == "lshr" and _is_sign_mask(v.get_operand(0)):
        return True
    if depth == _MAX:
        return False
    depth += 1
    if op == "zext":
        return _pow2(v.get_operand(0), or_zero, depth, q)
    if op == "trunc":
        return or_zero and _pow2(v.get_operand(0), or_zero, depth, q)
    if op == "shl":
        if or_zero or _nuw(q, v) or _nsw(q, v):
            return _pow2(v.get_operand(0), or_zero, depth, q)
        return False
    if op == "lshr":
        if or_zero or _exact(q, v):
            return _pow2(v.get_operand(0), or_zero, depth, q)
        return False
    if op == "udiv":
        if _exact(q, v):
            return _pow2(v.get_operand(0), or_zero, depth, q)
        return False
    if op == "mul":
        return (
            _pow2(v.get_operand(1), or_zero, depth, q)
            and _pow2(v.get_operand(0), or_zero, depth, q)
            and (or_zero or _non_zero(v, _all_demanded(v.type), depth, q))
        )
    if op == "and":
        a, b = v.get_operand(0), v.get_operand(1)
        if or_zero and (_pow2(b, True, depth, q) or _pow2(a, True, depth, q)):
            return True
        if _is_neg_of(a, b) or _is_neg_of(b, a):
            return or_zero or _non_zero(a, _all_demanded(a.type), depth, q)
        return False
    if op == "add":
        a, b = v.get_operand(0), v.get_operand(1)
        if or_zero or _nuw(q, v) or _nsw(q, v):
            if _opcode(a) == "and" and (_operand(a, 0) is b or _operand(a, 1) is b) and _pow2(b, or_zero, depth, q):
                return True
            if _opcode(b) == "and" and (_operand(b, 0) is a or _operand(b, 1) is a) and _pow2(a, or_zero, depth, q):
                return True
            ka = _known(a, _all_demanded(a.type), depth, q)
            kb = _known(b, _all_demanded(b.type), depth, q)
            x = ~(ka.zero & kb.zero) & ka.mask
            if x and not (x & (x - 1)):
                if or_zero or kb.one or ka.one:
                    return True
        if or_zero or _nuw(q, v):
            if _opcode(a) == "lshr" and _is_all_ones(_operand(a, 0)):
                c = match_apint(b)
                if c is not None and c.value == 1:
                    return True
        return False
    if op == "select":
        return _pow2(v.get_operand(1), or_zero, depth, q) and _pow2(v.get_operand(2), or_zero, depth, q)
    if op == "phi":
        assert isinstance(v, PHINode)
        if _pow2_recurrence(v, or_zero, depth, q):
            return True
        new_depth = max(depth, _MAX - 1)
        for k in range(v.num_incoming):
            inc = v.get_incoming_value(k)
            if inc is v:
                continue
            rq = q.get_with_instruction(v.get_incoming_block(k).terminator)
            if not _pow2(inc, or_zero, new_depth, rq):
                return False
        return True
    if op in ("call", "invoke"):
        base = _intrinsic(v)
        assert isinstance(v, CallBase)
        if base in ("llvm.umax", "llvm.smax", "llvm.umin", "llvm.smin"):
            return _pow2(v.get_arg(1), or_zero, depth, q) and _pow2(v.get_arg(0), or_zero, depth, q)
        if base in ("llvm.bitreverse", "llvm.bswap"):
            return _pow2(v.get_arg(0), or_zero, depth, q)
        if base in ("llvm.fshr", "llvm.fshl") and v.get_arg(0) is v.get_arg(1):
            return _pow2(v.get_arg(0), or_zero, depth, q)
        return False
    return False


# --- isKnownNonZero -----------------------------------------------------------------------------


def is_known_non_zero(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """``v`` is never zero (for vectors: no lane is) (LLVM 19 ``isKnownNonZero(V, SQ, Depth)``)."""
    sq = _with_cxt(as_query(q), v)
    return _non_zero(v, _all_demanded(v.type), depth, sq)


def _match_op_with_op_eq_zero(a: Value, b: Value) -> bool:
    """``a`` is ``zext/sext(icmp eq b, 0)`` or the other way round."""
    for x, y in ((a, b), (b, a)):
        if _opcode(x) in ("zext", "sext"):
            c = _operand(x, 0)
            if isinstance(c, ICmpInst) and c.predicate == Predicate.ICMP_EQ:
                if c.get_operand(0) is y and _is_zero_const(c.get_operand(1)):
                    return True
                if c.get_operand(1) is y and _is_zero_const(c.get_operand(0)):
                    return True
    return False


def _non_zero_add(demanded: int, depth: int, q: SimplifyQuery, w: int, x: Value, y: Value, nsw: bool, nuw: bool) -> bool:
    if _match_op_with_op_eq_zero(x, y):
        return True
    if nuw:
        return _non_zero(y, demanded, depth, q) or _non_zero(x, demanded, depth, q)
    kx = _known(x, demanded, depth, q)
    ky = _known(y, demanded, depth, q)
    if kx.is_non_negative() and ky.is_non_negative():
        if _non_zero(y, demanded, depth, q) or _non_zero(x, demanded, depth, q):
            return True
    if kx.is_negative() and ky.is_negative():
        mask = (1 << (w - 1)) - 1
        if kx.one & mask or ky.one & mask:
            return True
    if kx.is_non_negative() and _pow2(y, False, depth, q):
        return True
    if ky.is_non_negative() and _pow2(x, False, depth, q):
        return True
    return KnownBits.compute_for_add_sub(True, nsw, nuw, kx, ky).is_non_zero()


def _non_zero_sub(demanded: int, depth: int, q: SimplifyQuery, x: Value, y: Value) -> bool:
    if _match_op_with_op_eq_zero(x, y):
        return True
    if isinstance(x, Constant) and x.is_null_value and _non_zero(y, demanded, depth, q):
        return True
    return _non_equal(x, y, demanded, depth, q)


def _non_zero_mul(demanded: int, depth: int, q: SimplifyQuery, w: int, x: Value, y: Value, nsw: bool, nuw: bool) -> bool:
    if nsw or nuw:
        return _non_zero(x, demanded, depth, q) and _non_zero(y, demanded, depth, q)
    kx = _known(x, demanded, depth, q)
    if kx.one & 1:
        return _non_zero(y, demanded, depth, q)
    ky = _known(y, demanded, depth, q)
    if ky.one & 1:
        return kx.is_non_zero() or _non_zero(x, demanded, depth, q)
    return kx.count_max_trailing_zeros() + ky.count_max_trailing_zeros() < w


def _non_zero_shift(i: Value, demanded: int, depth: int, q: SimplifyQuery, kv: KnownBits) -> bool:
    if kv.is_unknown():
        return False
    op = _opcode(i)
    w = kv.bit_width
    m = (1 << w) - 1
    kc = _known(_operand(i, 1), demanded, depth, q)
    max_shift = kc.get_max_value()
    if max_shift >= w:
        return False

    def shift(x: int, n: int) -> int:
        if op == "shl":
            return (x << n) & m if n < w else 0
        if op == "lshr":
            return x >> n if n < w else 0
        s = x - (1 << w) if x >> (w - 1) else x
        return (s >> min(n, w)) & m

    def inv_shift(x: int, n: int) -> int:
        if op == "shl":
            return x >> n if n < w else 0
        return (x << n) & m if n < w else 0

    if shift(kv.one, max_shift) != 0:
        return True
    if inv_shift(kv.zero, w - max_shift) == inv_shift(m, w - max_shift) and _non_zero(
        _operand(i, 0), demanded, depth, q
    ):
        return True
    return False


def _non_zero_recurrence(pn: PHINode) -> bool:
    rec = match_simple_recurrence(pn)
    if rec is None:
        return False
    bo, start, step = rec
    sc = match_apint(start)
    if sc is None or sc.value == 0:
        return False
    opc = bo.opcode
    if opc == "add":
        if _raw_nuw(bo):
            return True
        st = match_apint(step)
        return _raw_nsw(bo) and st is not None and (sc.value >> (sc.width - 1)) == (st.value >> (st.width - 1))
    if opc == "mul":
        st = match_apint(step)
        return (_raw_nuw(bo) or _raw_nsw(bo)) and st is not None and st.value != 0
    if opc == "shl":
        return _raw_nuw(bo) or _raw_nsw(bo)
    if opc in ("ashr", "lshr"):
        return _raw_exact(bo)
    return False


def _gep_known_non_null(gep: Value, depth: int, q: SimplifyQuery) -> bool:
    fn = gep.function if isinstance(gep, Instruction) else None
    nuw = bool(getattr(gep, "nuw", False)) if isinstance(gep, Instruction) else bool(
        isinstance(gep, ConstantExpr) and gep.flags & 4
    )
    inbounds = bool(getattr(gep, "inbounds", False)) if isinstance(gep, Instruction) else bool(
        isinstance(gep, ConstantExpr) and gep.is_inbounds
    )
    ty = gep.type
    assert isinstance(ty, PointerType)
    if not nuw and not (inbounds and not null_pointer_is_defined(fn, ty.address_space)):
        return False
    base = _operand(gep, 0)
    if _non_zero(base, _all_demanded(base.type), depth, q):
        return True
    dl = q.dl
    for idx, st, elt_ty in _gep_steps(gep):
        if st is not None:
            assert isinstance(idx, ConstantInt)
            if dl.struct_layout(st).element_offset(idx.value) > 0:
                return True
            continue
        if elt_ty.is_sized and dl.type_alloc_size(elt_ty) == 0:
            continue
        if isinstance(idx, ConstantInt):
            if idx.value != 0:
                return True
            continue
        if depth >= _MAX:
            continue
        depth += 1
        if _non_zero(idx, _all_demanded(idx.type), depth, q):
            return True
    return False


def _non_null_from_dominating_condition(v: Value, cxt: Instruction | None, dt: DominatorTree | None) -> bool:
    """LLVM ``isKnownNonNullFromDominatingCondition`` (needs a context and a dominator tree)."""
    if cxt is None or dt is None:
        return False
    explored = 0
    for u in v.users:
        if explored >= 20:
            break
        explored += 1
        if isinstance(u, CallBase):
            fn = u.called_function
            if fn is not None:
                for a in fn.args:
                    if a.arg_no < u.num_args and u.get_arg(a.arg_no) is v and a.has_attribute("nonnull") and a.has_attribute("noundef") and dt.dominates(u, cxt):
                        return True
        if isinstance(u, Instruction) and u.opcode in ("load", "store"):
            ptr = u.get_operand(0 if u.opcode == "load" else 1)
            vty = v.type
            if ptr is v and isinstance(vty, PointerType) and not null_pointer_is_defined(u.function, vty.address_space) and dt.dominates(u, cxt):
                return True
        if isinstance(u, Instruction) and u.opcode in ("udiv", "sdiv", "urem", "srem") and u.get_operand(1) is v:
            if is_valid_assume_for_context(u, cxt, dt):
                return True
        if not isinstance(u, ICmpInst):
            continue
        if u.get_operand(0) is v:
            pred, rhs = u.predicate, u.get_operand(1)
        elif u.get_operand(1) is v:
            pred, rhs = u.predicate.swapped, u.get_operand(0)
        else:
            continue
        if _cmp_excludes_zero(pred, rhs):
            non_null_if_true = True
        elif _cmp_excludes_zero(pred.inverse, rhs):
            non_null_if_true = False
        else:
            continue
        visited: set[int] = set()
        for cu in u.users:
            work: list[Value] = []
            if id(cu) not in visited:
                visited.add(id(cu))
                work.append(cu)
            while work:
                cur = work.pop()
                if non_null_if_true:
                    lop = _logical_op(cur)
                    if lop is not None and lop[0] == "and":
                        for cuu in cur.users:
                            if id(cuu) not in visited:
                                visited.add(id(cuu))
                                work.append(cuu)
                        continue
                if isinstance(cur, BranchInst) and cur.is_conditional:
                    succ = cur.get_successor(0 if non_null_if_true else 1)
                    src = cur.parent
                    if src is not None and cxt.parent is not None and _edge_dominates(dt, src, succ, cxt.parent):
                        return True
                elif non_null_if_true and _intrinsic(cur) == "llvm.experimental.guard":
                    assert isinstance(cur, Instruction)
                    if dt.dominates(cur, cxt):
                        return True
    return False


def _edge_dominates(dt: DominatorTree, src: object, succ: object, bb: object) -> bool:
    """The single edge ``src -> succ`` dominates ``bb`` (LLVM ``dominates(BasicBlockEdge, BB)``)."""
    from llvmpy_mid.ir.basic_block import BasicBlock

    assert isinstance(src, BasicBlock) and isinstance(succ, BasicBlock) and isinstance(bb, BasicBlock)
    term = src.terminator
    if term is None:
        return False
    if sum(1 for s in term.successors if s is succ) != 1:
        return False
    if not dt.dominates_block(succ, bb):
        return False
    if succ.single_predecessor is not None:
        return True
    for pred in succ.predecessors:
        if pred is not src and not dt.dominates_block(succ, pred):
            return False
    return True


def _non_zero_from_operator(i: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    ty = i.type
    w = _scalar_bit_width(ty, q.dl)
    op = _opcode(i)
    dl = q.dl
    if op == "alloca":
        assert isinstance(ty, PointerType)
        return ty.address_space == 0
    if op == "getelementptr":
        if isinstance(ty, PointerType):
            return _gep_known_non_null(i, depth, q)
    elif op == "bitcast":
        src = _operand(i, 0)
        sty = src.type
        if (sty.is_int_or_int_vector or sty.is_ptr_or_ptr_vector) and w % _scalar_bit_width(sty, dl) == 0:
            return _non_zero(src, _all_demanded(sty), depth, q)
    elif op in ("inttoptr", "ptrtoint"):
        src = _operand(i, 0)
        if not (isinstance(ty, VectorType) and ty.scalable) and dl.type_size_in_bits(src.type) <= dl.type_size_in_bits(ty):
            return _non_zero(src, demanded, depth, q)
    elif op == "trunc":
        if isinstance(i, Instruction) and (_raw_nsw(i) or _raw_nuw(i)):
            return _non_zero(_operand(i, 0), demanded, depth, q)
    elif op == "sub":
        return _non_zero_sub(demanded, depth, q, _operand(i, 0), _operand(i, 1))
    elif op == "xor":
        if _match_op_with_op_eq_zero(_operand(i, 0), _operand(i, 1)):
            return True
    elif op == "or":
        if _match_op_with_op_eq_zero(_operand(i, 0), _operand(i, 1)):
            return True
        return _non_zero(_operand(i, 1), demanded, depth, q) or _non_zero(_operand(i, 0), demanded, depth, q)
    elif op in ("sext", "zext"):
        return _non_zero(_operand(i, 0), demanded, depth, q)
    elif op == "shl":
        if _nuw(q, i) or _nsw(q, i):
            return _non_zero(_operand(i, 0), demanded, depth, q)
        k = _known(_operand(i, 0), demanded, depth, q)
        if k.one & 1:
            return True
        return _non_zero_shift(i, demanded, depth, q, k)
    elif op in ("lshr", "ashr"):
        if _raw_exact(i):
            return _non_zero(_operand(i, 0), demanded, depth, q)
        k = _known(_operand(i, 0), demanded, depth, q)
        if k.is_negative():
            return True
        return _non_zero_shift(i, demanded, depth, q, k)
    elif op in ("udiv", "sdiv"):
        if _raw_exact(i):
            return _non_zero(_operand(i, 0), demanded, depth, q)
        kx = _known(_operand(i, 0), demanded, depth, q)
        if kx.is_unknown():
            return False
        ky = _known(_operand(i, 1), demanded, depth, q)
        if op == "sdiv":
            kx = kx.abs(False)
            ky = ky.abs(False)
        return KnownBits.uge(kx, ky) is True
    elif op == "add":
        return _non_zero_add(demanded, depth, q, w, _operand(i, 0), _operand(i, 1), _nsw(q, i), _nuw(q, i))
    elif op == "mul":
        return _non_zero_mul(demanded, depth, q, w, _operand(i, 0), _operand(i, 1), _nsw(q, i), _nuw(q, i))
    elif op == "select":
        cond = _operand(i, 0)

        def arm_non_zero(true_arm: bool) -> bool:
            arm = _operand(i, 1 if true_arm else 2)
            if _non_zero(arm, demanded, depth, q):
                return True
            if not isinstance(cond, ICmpInst):
                return False
            if cond.get_operand(0) is arm:
                pred, x = cond.predicate, cond.get_operand(1)
            elif cond.get_operand(1) is arm:
                pred, x = cond.predicate.swapped, cond.get_operand(0)
            else:
                return False
            if not true_arm:
                pred = pred.inverse
            return _cmp_excludes_zero(pred, x)

        if arm_non_zero(True) and arm_non_zero(False):
            return True
    elif op == "phi":
        assert isinstance(i, PHINode)
        if q.use_instr_info and _non_zero_recurrence(i):
            return True
        new_depth = max(depth, _MAX - 1)
        block = i.parent
        for inc_no in range(i.num_incoming):
            inc = i.get_incoming_value(inc_no)
            if inc is i:
                continue
            term = i.get_incoming_block(inc_no).terminator
            rq = q.get_with_instruction(term)
            if isinstance(term, BranchInst) and term.is_conditional:
                cond = term.condition
                if isinstance(cond, ICmpInst):
                    pred: Predicate | None = None
                    if cond.get_operand(0) is inc:
                        pred, x = cond.predicate, cond.get_operand(1)
                    elif cond.get_operand(1) is inc:
                        pred, x = cond.predicate.swapped, cond.get_operand(0)
                    if pred is not None:
                        ts, fs = term.get_successor(0), term.get_successor(1)
                        if (ts is block) != (fs is block):
                            if fs is block:
                                pred = pred.inverse
                            if _cmp_excludes_zero(pred, x):
                                continue
            if not _non_zero(inc, demanded, new_depth, rq):
                return False
        return True
    elif op == "insertelement":
        assert isinstance(ty, VectorType)
        if not ty.scalable:
            vec, elt, idx = _operand(i, 0), _operand(i, 1), _operand(i, 2)
            vec_demanded = demanded
            skip = False
            if isinstance(idx, ConstantInt) and idx.value < ty.count:
                vec_demanded &= ~(1 << idx.value)
                skip = not (demanded >> idx.value) & 1
            return (skip or _non_zero(elt, 1, depth, q)) and (not vec_demanded or _non_zero(vec, vec_demanded, depth, q))
    elif op == "extractelement":
        vec, idx = _operand(i, 0), _operand(i, 1)
        vty = vec.type
        if isinstance(vty, VectorType) and not vty.scalable:
            vd = (1 << vty.count) - 1
            if isinstance(idx, ConstantInt) and idx.value < vty.count:
                vd = 1 << idx.value
            return _non_zero(vec, vd, depth, q)
    elif op == "shufflevector":
        if isinstance(i, ShuffleVectorInst):
            split = _shuffle_demanded(i, demanded)
            if split is not None:
                dl_, dr_ = split
                return (not dr_ or _non_zero(_operand(i, 1), dr_, depth, q)) and (
                    not dl_ or _non_zero(_operand(i, 0), dl_, depth, q)
                )
    elif op == "freeze":
        src = _operand(i, 0)
        return _non_zero(src, _all_demanded(src.type), depth, q) and is_guaranteed_not_to_be_poison(
            src, q.cxt_i, q.dt, depth
        )
    elif op == "load":
        assert isinstance(i, Instruction)
        if isinstance(ty, PointerType):
            if q.get_metadata(i, "nonnull") is not None or (
                q.get_metadata(i, "dereferenceable") is not None
                and not null_pointer_is_defined(i.function, ty.address_space)
            ):
                return True
        else:
            md = q.get_metadata(i, "range")
            if md is not None:
                return _range_md_excludes(md, 0)
        return False
    elif op == "extractvalue":
        agg = _operand(i, 0)
        indices = getattr(i, "indices", ())
        if isinstance(agg, CallBase) and tuple(indices) == (0,):
            base = _intrinsic(agg)
            if base in ("llvm.uadd.with.overflow", "llvm.sadd.with.overflow"):
                return _non_zero_add(demanded, depth, q, w, agg.get_arg(0), agg.get_arg(1), False, False)
            if base in ("llvm.usub.with.overflow", "llvm.ssub.with.overflow"):
                return _non_zero_sub(demanded, depth, q, agg.get_arg(0), agg.get_arg(1))
            if base in ("llvm.umul.with.overflow", "llvm.smul.with.overflow"):
                return _non_zero_mul(demanded, depth, q, w, agg.get_arg(0), agg.get_arg(1), False, False)
    elif op in ("call", "invoke"):
        assert isinstance(i, CallBase)
        return _non_zero_call(i, demanded, depth, q, w)
    known = _known(i, demanded, depth, q)
    return known.one != 0


def _non_zero_call(call: CallBase, demanded: int, depth: int, q: SimplifyQuery, w: int) -> bool:
    if isinstance(call.type, PointerType):
        if call.has_ret_attr("nonnull") and call.has_ret_attr("noundef"):
            return True
        if call.has_ret_attr("nonnull") and not _has_nonnull_poison_semantics(call):
            return True
        rp = get_argument_aliasing_to_returned_pointer(call, True)
        if rp is not None:
            return _non_zero(rp, _all_demanded(rp.type), depth, q)
    else:
        md = q.get_metadata(call, "range")
        if md is not None:
            return _range_md_excludes(md, 0)
        cr = _range_attribute(call)
        if cr is not None and not cr.contains(0):
            return True
        rv = get_returned_arg_operand(call)
        if rv is not None and rv.type is call.type and _non_zero(rv, _all_demanded(rv.type), depth, q):
            return True
    base = _intrinsic(call)
    if not base:
        return False
    a = call.get_arg
    if base in ("llvm.sshl.sat", "llvm.ushl.sat", "llvm.abs", "llvm.bitreverse", "llvm.bswap", "llvm.ctpop"):
        return _non_zero(a(0), demanded, depth, q)
    if base == "llvm.ssub.sat":
        return _non_zero_sub(demanded, depth, q, a(0), a(1))
    if base == "llvm.sadd.sat":
        return _non_zero_add(demanded, depth, q, w, a(0), a(1), True, False)
    if base in ("llvm.vector.reduce.or", "llvm.vector.reduce.umax", "llvm.vector.reduce.umin",
                "llvm.vector.reduce.smax", "llvm.vector.reduce.smin"):
        return _non_zero(a(0), _all_demanded(a(0).type), depth, q)
    if base in ("llvm.umax", "llvm.uadd.sat"):
        if _match_op_with_op_eq_zero(a(0), a(1)):
            return True
        return _non_zero(a(1), demanded, depth, q) or _non_zero(a(0), demanded, depth, q)
    if base == "llvm.smax":
        k1 = _known(a(1), demanded, depth, q)
        nz1: bool | None = None
        nz0: bool | None = None
        if k1.is_non_negative():
            nz1 = k1.is_non_zero() or _non_zero(a(1), demanded, depth, q)
            if nz1:
                return True
        k0 = _known(a(0), demanded, depth, q)
        if k0.is_non_negative():
            nz0 = k0.is_non_zero() or _non_zero(a(0), demanded, depth, q)
            if nz0:
                return True
        if nz1 is None:
            nz1 = k1.is_non_zero() or _non_zero(a(1), demanded, depth, q)
        if not nz1:
            return False
        if nz0 is None:
            nz0 = k0.is_non_zero() or _non_zero(a(0), demanded, depth, q)
        return nz0
    if base == "llvm.smin":
        k1 = _known(a(1), demanded, depth, q)
        if k1.is_negative():
            return True
        k0 = _known(a(0), demanded, depth, q)
        if k0.is_negative():
            return True
        if k1.is_non_zero() and k0.is_non_zero():
            return True
        return _non_zero(a(0), demanded, depth, q) and _non_zero(a(1), demanded, depth, q)
    if base == "llvm.umin":
        return _non_zero(a(0), demanded, depth, q) and _non_zero(a(1), demanded, depth, q)
    if base == "llvm.cttz":
        return bool(_known(a(0), demanded, depth, q).zero & 1)
    if base == "llvm.ctlz":
        return _known(a(0), demanded, depth, q).is_non_negative()
    if base in ("llvm.fshr", "llvm.fshl"):
        if a(0) is a(1):
            return _non_zero(a(0), demanded, depth, q)
        return False
    if base == "llvm.vscale":
        return True
    if base == "llvm.experimental.get.vector.length":
        return _non_zero(a(0), _all_demanded(a(0).type), depth, q)
    if base == "llvm.vector.reverse":
        ty = call.type
        assert isinstance(ty, VectorType)
        n = ty.count if not ty.scalable else 1
        rev = int(format(demanded, "0%db" % n)[::-1], 2) if n > 1 else demanded
        return _non_zero(a(0), rev, depth, q)
    return False


def _has_nonnull_poison_semantics(call: CallBase) -> bool:
    """LLVM 19's ``isReturnNonNull`` is just ``hasRetAttr(NonNull)``; kept as a hook (always False)."""
    return False


def _non_zero(v: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    ty = v.type
    if isinstance(v, Constant):
        if v.is_null_value:
            return False
        if isinstance(v, ConstantInt):
            return True
        if isinstance(ty, VectorType) and not ty.scalable:
            for k in range(ty.count):
                if not (demanded >> k) & 1:
                    continue
                e = _element(v, k)
                if e is None or e.is_null_value:
                    return False
                if not isinstance(e, PoisonValue) and not isinstance(e, ConstantInt):
                    return False
            return True
        if isinstance(v, GlobalValue):
            vty = v.type
            if (
                not (isinstance(v, GlobalVariable) and v.get_metadata("absolute_symbol") is not None)
                and v.linkage != Linkage.EXTERN_WEAK
                and isinstance(vty, PointerType)
                and vty.address_space == 0
            ):
                return True
        if not isinstance(v, ConstantExpr):
            return False
    if isinstance(v, Argument):
        cr = _range_attribute(v)
        if cr is not None and not cr.contains(0):
            return True
    if not isinstance(v, Constant) and _known_non_zero_from_assume(v, q):
        return True
    if depth >= _MAX:
        return False
    depth += 1
    if isinstance(ty, PointerType) and isinstance(v, Argument):
        attrs = v.attributes
        if (
            (attrs.has("byval") or attrs.has("inalloca") or attrs.has("preallocated"))
            and not null_pointer_is_defined(v.parent, ty.address_space)
        ) or attrs.has("nonnull"):
            return True
    if _is_operator(v) and _non_zero_from_operator(v, demanded, depth, q):
        return True
    if not isinstance(v, Constant) and _non_null_from_dominating_condition(v, q.cxt_i, q.dt):
        return True
    return False


# --- isKnownNonEqual ----------------------------------------------------------------------------


def is_known_non_equal(v1: Value, v2: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> bool:
    """``v1`` and ``v2`` never hold the same value (LLVM ``isKnownNonEqual``)."""
    sq = as_query(q)
    cxt = sq.cxt_i
    if cxt is None or cxt.parent is None:
        cxt = _safe_cxt_i(v2, _safe_cxt_i(v1, None))
        sq = sq.get_with_instruction(cxt)
    return _non_equal(v1, v2, _all_demanded(v1.type), depth, sq)


def _invertible_operands(o1: Value, o2: Value) -> tuple[Value, Value] | None:
    op = _opcode(o1)
    if op != _opcode(o2):
        return None
    if op in ("or", "xor", "add"):
        if op == "or" and not (_is_disjoint(o1) and _is_disjoint(o2)):
            return None
        a0, a1 = _operand(o1, 0), _operand(o1, 1)
        b0, b1 = _operand(o2, 0), _operand(o2, 1)
        if b0 is a0:
            return a1, b1
        if b1 is a0:
            return a1, b0
        if b0 is a1:
            return a0, b1
        if b1 is a1:
            return a0, b0
        return None
    if op == "sub":
        if _operand(o1, 0) is _operand(o2, 0):
            return _operand(o1, 1), _operand(o2, 1)
        if _operand(o1, 1) is _operand(o2, 1):
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op == "mul":
        if (not _raw_nuw(o1) or not _raw_nuw(o2)) and (not _raw_nsw(o1) or not _raw_nsw(o2)):
            return None
        c = _operand(o1, 1)
        if c is _operand(o2, 1) and isinstance(c, ConstantInt) and c.value != 0:
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op == "shl":
        if (not _raw_nuw(o1) or not _raw_nuw(o2)) and (not _raw_nsw(o1) or not _raw_nsw(o2)):
            return None
        if _operand(o1, 1) is _operand(o2, 1):
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op in ("ashr", "lshr"):
        if not _raw_exact(o1) or not _raw_exact(o2):
            return None
        if _operand(o1, 1) is _operand(o2, 1):
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op in ("sext", "zext"):
        if _operand(o1, 0).type is _operand(o2, 0).type:
            return _operand(o1, 0), _operand(o2, 0)
        return None
    if op == "phi":
        assert isinstance(o1, PHINode) and isinstance(o2, PHINode)
        if o1.parent is not o2.parent:
            return None
        r1 = match_simple_recurrence(o1)
        r2 = match_simple_recurrence(o2)
        if r1 is None or r2 is None:
            return None
        vals = _invertible_operands(r1[0], r2[0])
        if vals is None or vals[0] is not o1 or vals[1] is not o2:
            return None
        return r1[1], r2[1]
    return None


def _modifying_binop_of_non_zero(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    op = _opcode(v1) if isinstance(v1, Instruction) else ""
    if op == "or" and not _is_disjoint(v1):
        return False
    if op not in ("or", "xor", "add"):
        return False
    a, b = _operand(v1, 0), _operand(v1, 1)
    if v2 is a:
        other = b
    elif v2 is b:
        other = a
    else:
        return False
    return _non_zero(other, demanded, depth + 1, q)


def _non_equal_mul(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if _opcode(v2) == "mul" and _operand(v2, 0) is v1:
        c = match_apint(_operand(v2, 1))
        return (
            c is not None
            and (_raw_nuw(v2) or _raw_nsw(v2))
            and c.value not in (0, 1)
            and _non_zero(v1, demanded, depth + 1, q)
        )
    return False


def _non_equal_shl(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if _opcode(v2) == "shl" and _operand(v2, 0) is v1:
        c = match_apint(_operand(v2, 1))
        return c is not None and (_raw_nuw(v2) or _raw_nsw(v2)) and c.value != 0 and _non_zero(
            v1, demanded, depth + 1, q
        )
    return False


def _non_equal_phis(p1: PHINode, p2: PHINode, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if p1.parent is not p2.parent:
        return False
    seen: set[int] = set()
    used_full = False
    for bb in p1.incoming_blocks:
        if id(bb) in seen:
            continue
        seen.add(id(bb))
        iv1 = p1.incoming_value_for_block(bb)
        iv2 = p2.incoming_value_for_block(bb)
        c1, c2 = _apint(iv1), _apint(iv2)
        if c1 is not None and c2 is not None and c1 != c2:
            continue
        if used_full:
            return False
        rq = q.get_with_instruction(bb.terminator)
        if not _non_equal(iv1, iv2, demanded, depth + 1, rq):
            return False
        used_full = True
    return True


def _non_equal_select(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if not isinstance(v1, SelectInst):
        return False
    if isinstance(v2, SelectInst) and v1.condition is v2.condition:
        return _non_equal(v1.true_value, v2.true_value, demanded, depth + 1, q) and _non_equal(
            v1.false_value, v2.false_value, demanded, depth + 1, q
        )
    return _non_equal(v1.true_value, v2, demanded, depth + 1, q) and _non_equal(
        v1.false_value, v2, demanded, depth + 1, q
    )


def _non_equal(v1: Value, v2: Value, demanded: int, depth: int, q: SimplifyQuery) -> bool:
    if v1 is v2 or v1.type is not v2.type:
        return False
    if depth >= _MAX:
        return False
    if _is_operator(v1) and _is_operator(v2) and _opcode(v1) == _opcode(v2):
        vals = _invertible_operands(v1, v2)
        if vals is not None:
            return _non_equal(vals[0], vals[1], demanded, depth + 1, q)
        if isinstance(v1, PHINode) and isinstance(v2, PHINode):
            if _non_equal_phis(v1, v2, demanded, depth, q):
                return True
    if _modifying_binop_of_non_zero(v1, v2, demanded, depth, q) or _modifying_binop_of_non_zero(
        v2, v1, demanded, depth, q
    ):
        return True
    if _non_equal_mul(v1, v2, demanded, depth, q) or _non_equal_mul(v2, v1, demanded, depth, q):
        return True
    if _non_equal_shl(v1, v2, demanded, depth, q) or _non_equal_shl(v2, v1, demanded, depth, q):
        return True
    if v1.type.is_int_or_int_vector:
        k1 = _known(v1, demanded, depth, q)
        if not k1.is_unknown():
            k2 = _known(v2, demanded, depth, q)
            if (k1.zero & k2.one) or (k2.zero & k1.one):
                return True
    if _non_equal_select(v1, v2, demanded, depth, q) or _non_equal_select(v2, v1, demanded, depth, q):
        return True
    if _non_equal_recursive_gep(v1, v2, q) or _non_equal_recursive_gep(v2, v1, q):
        return True
    if _opcode(v1) == "ptrtoint" and _opcode(v2) == "ptrtoint":
        a, b = _operand(v1, 0), _operand(v2, 0)
        dl = q.dl
        if _scalar_bit_width(v1.type, dl) == _scalar_bit_width(a.type, dl) and _scalar_bit_width(
            v2.type, dl
        ) == _scalar_bit_width(b.type, dl):
            return _non_equal(a, b, demanded, depth + 1, q)
    return False


def _strip_inbounds_constant_offsets(v: Value, dl: DataLayout) -> tuple[Value, int]:
    """LLVM ``stripAndAccumulateInBoundsConstantOffsets`` (inbounds GEPs with constant indices, casts)."""
    offset = 0
    seen = 0
    while seen < 64:
        seen += 1
        op = _opcode(v)
        if op == "getelementptr":
            inb = bool(getattr(v, "inbounds", False)) if isinstance(v, Instruction) else (
                isinstance(v, ConstantExpr) and v.is_inbounds
            )
            if not inb:
                break
            off = _constant_gep_offset(v, dl)
            if off is None:
                break
            offset += off
            v = _operand(v, 0)
        elif op in ("bitcast", "addrspacecast") and isinstance(_operand(v, 0).type, PointerType) and op == "bitcast":
            v = _operand(v, 0)
        else:
            break
    return v, offset


def _constant_gep_offset(gep: Value, dl: DataLayout) -> int | None:
    total = 0
    for idx, st, elt_ty in _gep_steps(gep):
        if st is not None:
            assert isinstance(idx, ConstantInt)
            total += dl.struct_layout(st).element_offset(idx.value)
            continue
        if not isinstance(idx, ConstantInt):
            if isinstance(idx, Constant) and idx.is_null_value:
                continue
            return None
        if isinstance(elt_ty, VectorType) and elt_ty.scalable:
            return None
        total += idx.sext_value * dl.type_alloc_size(elt_ty)
    return total


def _non_equal_recursive_gep(a: Value, b: Value, q: SimplifyQuery) -> bool:
    if not isinstance(a.type, PointerType) or not isinstance(b.type, PointerType):
        return False
    if _opcode(a) != "getelementptr":
        return False
    assert isinstance(a, User)
    if a.num_operands != 2 or not isinstance(a.get_operand(1), Constant):
        return False
    pn = a.get_operand(0)
    if not isinstance(pn, PHINode) or pn.num_incoming != 2:
        return False
    if pn.get_incoming_value(0) is a:
        start = pn.get_incoming_value(1)
    elif pn.get_incoming_value(1) is a:
        start = pn.get_incoming_value(0)
    else:
        return False
    dl = q.dl
    start, start_off = _strip_inbounds_constant_offsets(start, dl)
    step, step_off = _strip_inbounds_constant_offsets(a, dl)
    if step is not pn:
        return False
    bb, off_b = _strip_inbounds_constant_offsets(b, dl)
    return start is bb and ((start_off >= off_b and step_off > 0) or (start_off <= off_b and step_off < 0))


# --- ComputeNumSignBits --------------------------------------------------------------------------


def compute_num_sign_bits(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> int:
    """How many high bits of ``v`` are known equal to its sign bit (at least 1)
    (LLVM ``ComputeNumSignBits``)."""
    sq = _with_cxt(as_query(q), v)
    return _sign_bits(v, _all_demanded(v.type), depth, sq)


def compute_max_significant_bits(v: Value, q: SimplifyQuery | DataLayout, depth: int = 0) -> int:
    """The bits needed to hold ``v`` as a signed value (LLVM ``ComputeMaxSignificantBits``)."""
    sq = as_query(q)
    w = _scalar_bit_width(v.type, sq.dl)
    return w - compute_num_sign_bits(v, sq, depth) + 1


def _num_sign_bits_of(value: int, w: int) -> int:
    """APInt ``getNumSignBits``."""
    if (value >> (w - 1)) & 1:
        return w - (~value & ((1 << w) - 1)).bit_length()
    return w - value.bit_length()


def _signed_minmax_intrinsic_clamp(call: CallBase) -> tuple[int, int, int] | None:
    base = _intrinsic(call)
    inverse = "llvm.smax" if base == "llvm.smin" else "llvm.smin"
    inner = call.get_arg(0)
    if not isinstance(inner, CallBase) or _intrinsic(inner) != inverse:
        return None
    lo = match_apint(call.get_arg(1))
    hi = match_apint(inner.get_arg(1))
    if lo is None or hi is None:
        return None
    if base == "llvm.smin":
        lo, hi = hi, lo
    if lo.sext_value > hi.sext_value:
        return None
    return lo.value, hi.value, lo.width


def _select_min_max(sel: Value) -> tuple[str, Value, Value] | None:
    """A small ``matchSelectPattern`` for signed min/max: ``select (icmp sgt/sge/slt/sle a, b), a, b``."""
    if not isinstance(sel, SelectInst):
        return None
    cond = sel.condition
    if not isinstance(cond, ICmpInst):
        return None
    a, b = cond.get_operand(0), cond.get_operand(1)
    t, f = sel.true_value, sel.false_value
    pred = cond.predicate
    if t is b and f is a:
        pred = pred.swapped
        a, b = b, a
    if not (t is a and f is b):
        return None
    if pred in (Predicate.ICMP_SGT, Predicate.ICMP_SGE):
        return "smax", a, b
    if pred in (Predicate.ICMP_SLT, Predicate.ICMP_SLE):
        return "smin", a, b
    return None


def _sign_bits(v: Value, demanded: int, depth: int, q: SimplifyQuery) -> int:
    ty = v.type
    ty_bits = _scalar_bit_width(ty, q.dl)
    first = 1
    if depth == _MAX:
        return 1
    op = _opcode(v)
    if op:
        if op == "sext":
            src = _operand(v, 0)
            return _sign_bits(src, demanded, depth + 1, q) + ty_bits - _scalar_bit_width(src.type, q.dl)
        if op == "sdiv":
            d = match_apint(_operand(v, 1))
            if d is not None and d.sext_value > 0:
                n = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
                return min(ty_bits, n + d.value.bit_length() - 1)
        elif op == "srem":
            tmp = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
            d = match_apint(_operand(v, 1))
            if d is not None and d.sext_value > 0:
                ceil_log2 = (d.value - 1).bit_length()
                tmp = max(tmp, ty_bits - ceil_log2)
            return tmp
        elif op == "ashr":
            tmp = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
            sh = match_apint(_operand(v, 1))
            if sh is not None:
                if sh.value >= ty_bits:
                    tmp = -1
                else:
                    tmp = min(tmp + sh.value, ty_bits)
            if tmp >= 0:
                return tmp
        elif op == "shl":
            sh = match_apint(_operand(v, 1))
            if sh is not None and sh.value < ty_bits:
                src = _operand(v, 0)
                if _opcode(src) == "zext" and sh.value >= ty_bits - _scalar_bit_width(_operand(src, 0).type, q.dl):
                    x = _operand(src, 0)
                    tmp = _sign_bits(x, demanded, depth + 1, q) + ty_bits - _scalar_bit_width(x.type, q.dl)
                else:
                    tmp = _sign_bits(src, demanded, depth + 1, q)
                if sh.value < tmp:
                    return tmp - sh.value
        elif op in ("and", "or", "xor"):
            tmp = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
            if tmp != 1:
                tmp2 = _sign_bits(_operand(v, 1), demanded, depth + 1, q)
                first = min(tmp, tmp2)
        elif op == "select":
            clamp = _select_clamp(v)
            if clamp is not None:
                lo, hi, w = clamp
                return min(_num_sign_bits_of(lo, w), _num_sign_bits_of(hi, w))
            tmp = _sign_bits(_operand(v, 1), demanded, depth + 1, q)
            if tmp != 1:
                tmp2 = _sign_bits(_operand(v, 2), demanded, depth + 1, q)
                return min(tmp, tmp2)
        elif op == "add":
            a = _operand(v, 0)
            tmp = _sign_bits(a, _all_demanded(a.type), depth + 1, q)
            if tmp != 1:
                b = _operand(v, 1)
                if isinstance(b, Constant) and _is_all_ones_value(b):
                    k = _known(a, demanded, depth + 1, q)
                    if (k.zero | 1) == k.mask:
                        return ty_bits
                    if k.is_non_negative():
                        return tmp
                tmp2 = _sign_bits(b, demanded, depth + 1, q)
                if tmp2 != 1:
                    return min(tmp, tmp2) - 1
        elif op == "sub":
            b = _operand(v, 1)
            tmp2 = _sign_bits(b, demanded, depth + 1, q)
            if tmp2 != 1:
                a = _operand(v, 0)
                done = False
                if isinstance(a, Constant) and a.is_null_value:
                    k = _known(b, demanded, depth + 1, q)
                    if (k.zero | 1) == k.mask:
                        return ty_bits
                    if k.is_non_negative():
                        return tmp2
                if not done:
                    tmp = _sign_bits(a, demanded, depth + 1, q)
                    if tmp != 1:
                        return min(tmp, tmp2) - 1
        elif op == "mul":
            s0 = _sign_bits(_operand(v, 0), demanded, depth + 1, q)
            if s0 != 1:
                s1 = _sign_bits(_operand(v, 1), demanded, depth + 1, q)
                if s1 != 1:
                    out_valid = (ty_bits - s0 + 1) + (ty_bits - s1 + 1)
                    return 1 if out_valid > ty_bits else ty_bits - out_valid + 1
        elif op == "phi":
            assert isinstance(v, PHINode)
            n = v.num_incoming
            if 0 < n <= 4:
                tmp = ty_bits
                for inc_no in range(n):
                    if tmp == 1:
                        return tmp
                    rq = q.get_with_instruction(v.get_incoming_block(inc_no).terminator)
                    tmp = min(tmp, _sign_bits(v.get_incoming_value(inc_no), demanded, depth + 1, rq))
                return tmp
        elif op == "trunc":
            src = _operand(v, 0)
            tmp = _sign_bits(src, _all_demanded(src.type), depth + 1, q)
            src_bits = _scalar_bit_width(src.type, q.dl)
            if tmp > src_bits - ty_bits:
                return tmp - (src_bits - ty_bits)
            return 1
        elif op == "extractelement":
            src = _operand(v, 0)
            return _sign_bits(src, _all_demanded(src.type), depth + 1, q)
        elif op == "shufflevector":
            if not isinstance(v, ShuffleVectorInst):
                return 1
            split = _shuffle_demanded(v, demanded)
            if split is None:
                return 1
            dl_, dr_ = split
            tmp = 1 << 62
            if dl_:
                tmp = _sign_bits(_operand(v, 0), dl_, depth + 1, q)
            if tmp != 1:
                if dr_:
                    tmp = min(tmp, _sign_bits(_operand(v, 1), dr_, depth + 1, q))
                if tmp != 1:
                    return tmp
        elif op == "call":
            assert isinstance(v, CallBase)
            base = _intrinsic(v)
            if base == "llvm.abs":
                tmp = _sign_bits(v.get_operand(0), demanded, depth + 1, q)
                if tmp != 1:
                    return tmp - 1
            elif base in ("llvm.smin", "llvm.smax"):
                clamp = _signed_minmax_intrinsic_clamp(v)
                if clamp is not None:
                    lo, hi, w = clamp
                    return min(_num_sign_bits_of(lo, w), _num_sign_bits_of(hi, w))
    vec_bits = _vector_constant_sign_bits(v, demanded, ty_bits)
    if vec_bits:
        return vec_bits
    known = _known(v, demanded, depth, q)
    return max(first, known.count_min_sign_bits())


def _is_all_ones_value(c: Constant) -> bool:
    if isinstance(c, ConstantInt):
        return c.value == (1 << c.width) - 1
    s = get_splat_value(c) if isinstance(c.type, VectorType) else None
    return isinstance(s, ConstantInt) and s.value == (1 << s.width) - 1


def _select_clamp(sel: Value) -> tuple[int, int, int] | None:
    outer = _select_min_max(sel)
    if outer is None:
        return None
    flavor, lhs, rhs = outer
    lo = match_apint(rhs)
    if lo is None:
        return None
    inner = _select_min_max(lhs)
    if inner is None or inner[0] == flavor:
        return None
    hi = match_apint(inner[2])
    if hi is None:
        return None
    if flavor == "smin":
        lo, hi = hi, lo
    if lo.sext_value > hi.sext_value:
        return None
    return lo.value, hi.value, lo.width


def _vector_constant_sign_bits(v: Value, demanded: int, ty_bits: int) -> int:
    ty = v.type
    if not isinstance(v, Constant) or not isinstance(ty, VectorType) or ty.scalable:
        return 0
    best = ty_bits
    for k in range(ty.count):
        if not (demanded >> k) & 1:
            continue
        e = _element(v, k)
        if not isinstance(e, ConstantInt):
            return 0
        best = min(best, _num_sign_bits_of(e.value, e.width))
    return best


# --- underlying objects -----------------------------------------------------------------------


def get_underlying_object(v: Value, max_lookup: int = 6) -> Value:
    """The object ``v`` points into, looking through GEPs, casts, aliases,
    one-input phis and calls returning an argument, ``max_lookup`` steps at
    most (0: no limit) (LLVM ``getUnderlyingObject``)."""
    if not isinstance(v.type, PointerType):
        return v
    count = 0
    while max_lookup == 0 or count < max_lookup:
        count += 1
        op = _opcode(v)
        if op == "getelementptr":
            v = _operand(v, 0)
        elif op in ("bitcast", "addrspacecast"):
            nv = _operand(v, 0)
            if not isinstance(nv.type, PointerType):
                return v
            v = nv
        elif isinstance(v, GlobalAlias):
            if v.is_interposable:
                return v
            v = v.aliasee
        else:
            if isinstance(v, PHINode):
                if v.num_incoming == 1:
                    v = v.get_incoming_value(0)
                    continue
            elif isinstance(v, CallBase):
                rp = get_argument_aliasing_to_returned_pointer(v, False)
                if rp is not None:
                    v = rp
                    continue
            return v
    return v


def get_underlying_objects(v: Value, max_lookup: int = 6) -> list[Value]:
    """Every object ``v`` may point into, through selects and phis too (LLVM
    ``getUnderlyingObjects`` without loop info)."""
    visited: set[int] = set()
    objects: list[Value] = []
    work = [v]
    while work:
        p = get_underlying_object(work.pop(), max_lookup)
        if id(p) in visited:
            continue
        visited.add(id(p))
        if isinstance(p, SelectInst):
            work.append(p.true_value)
            work.append(p.false_value)
            continue
        if isinstance(p, PHINode):
            work.extend(p.incoming_values)
            continue
        objects.append(p)
    return objects


def get_pointer_base_with_constant_offset(
    ptr: Value, dl: DataLayout, allow_non_inbounds: bool = True
) -> tuple[Value, int]:
    """``(base, offset)`` with ``ptr == base + offset`` bytes, through GEPs with
    constant indices and pointer casts (LLVM ``GetPointerBaseWithConstantOffset``)."""
    offset = 0
    for _ in range(64):
        op = _opcode(ptr)
        if op == "getelementptr":
            inb = bool(getattr(ptr, "inbounds", False)) if isinstance(ptr, Instruction) else (
                isinstance(ptr, ConstantExpr) and ptr.is_inbounds
            )
            if not inb and not allow_non_inbounds:
                break
            off = _constant_gep_offset(ptr, dl)
            if off is None:
                break
            offset += off
            ptr = _operand(ptr, 0)
        elif op in ("bitcast", "addrspacecast") and isinstance(_operand(ptr, 0).type, PointerType):
            if op == "addrspacecast":
                break
            ptr = _operand(ptr, 0)
        elif isinstance(ptr, GlobalAlias) and not ptr.is_interposable:
            ptr = ptr.aliasee
        else:
            break
    ity_bits = dl.index_size_in_bits(ptr.type.address_space) if isinstance(ptr.type, PointerType) else 64
    m = (1 << ity_bits) - 1
    offset &= m
    if offset >> (ity_bits - 1):
        offset -= 1 << ity_bits
    return ptr, offset


# --- computeConstantRange ---------------------------------------------------------------------


def constant_to_range(c: Constant) -> ConstantRange:
    """LLVM ``Constant::toConstantRange``: a single value, the union of a vector's lanes, or full."""
    ty = c.type
    sty = ty.element_type if isinstance(ty, VectorType) else ty
    w = sty.width if isinstance(sty, IntegerType) else 1
    if isinstance(c, ConstantInt):
        return ConstantRange(w, c.value)
    if not isinstance(ty, VectorType):
        return ConstantRange.get_full(w)
    splat = match_apint(c)
    if splat is not None:
        return ConstantRange(w, splat.value)
    if isinstance(c, ConstantDataVector):
        cr = ConstantRange.get_empty(w)
        for e in c.elements:
            assert isinstance(e, ConstantInt)
            cr = cr.union_with(ConstantRange(w, e.value))
        return cr
    if isinstance(c, ConstantVector):
        cr = ConstantRange.get_empty(w)
        for e in c.elements:
            if isinstance(e, PoisonValue):
                continue
            if not isinstance(e, ConstantInt):
                return ConstantRange.get_full(w)
            cr = cr.union_with(ConstantRange(w, e.value))
        return cr
    return ConstantRange.get_full(w)


def compute_constant_range(
    v: Value,
    for_signed: bool,
    use_instr_info: bool = True,
    ac: object | None = None,
    cxt_i: Instruction | None = None,
    dt: DominatorTree | None = None,
    depth: int = 0,
) -> ConstantRange:
    """A range holding every value of integer ``v`` (LLVM ``computeConstantRange``):
    constants, the bounds a binary operator with a constant operand, an intrinsic
    or a select pattern implies, ``!range`` metadata and ``range`` attributes, and
    ``llvm.assume`` comparisons valid at ``cxt_i``."""
    ty = v.type
    sty = ty.element_type if isinstance(ty, VectorType) else ty
    assert isinstance(sty, IntegerType), "compute_constant_range needs an integer (vector) value"
    w = sty.width
    if depth == _MAX:
        return ConstantRange.get_full(w)
    if isinstance(v, Constant):
        return constant_to_range(v)
    cr = ConstantRange.get_full(w)
    op = _opcode(v)
    if op in _BINOPS_FOR_RANGE and isinstance(v, Instruction):
        lo, hi = _binop_limits(v, w, use_instr_info, for_signed)
        cr = ConstantRange.get_non_empty(w, lo, hi)
    elif isinstance(v, CallBase) and _intrinsic(v):
        cr = _intrinsic_range(v, w)
    elif isinstance(v, SelectInst):
        cr_t = compute_constant_range(v.true_value, for_signed, use_instr_info, ac, cxt_i, dt, depth + 1)
        cr_f = compute_constant_range(v.false_value, for_signed, use_instr_info, ac, cxt_i, dt, depth + 1)
        cr = cr_t.union_with(cr_f).intersect_with(_select_pattern_range(v, w, use_instr_info))
    elif op in ("fptoui", "fptosi"):
        src = _operand(v, 0).type
        src_s = src.element_type if isinstance(src, VectorType) else src
        if str(src_s) == "half":
            if op == "fptosi" and w >= 17:
                cr = ConstantRange(w, -65504, 65505)
            elif op == "fptoui" and w >= 16:
                cr = ConstantRange.get_non_empty(w, 0, 65505)
    elif isinstance(v, Argument):
        ra = _range_attribute(v)
        if ra is not None:
            cr = ra
    if isinstance(v, Instruction):
        if use_instr_info:
            md = v.get_metadata("range")
            if md is not None:
                cr = cr.intersect_with(ConstantRange.from_metadata(md))
        if isinstance(v, CallBase):
            ra = _range_attribute(v)
            if ra is not None:
                cr = cr.intersect_with(ra)
    if cxt_i is not None and ac is not None:
        from llvmpy_mid.analysis.assumption_cache import AssumptionCache

        assert isinstance(ac, AssumptionCache)
        for assume, _index in ac.assumptions_for(v):
            if not is_valid_assume_for_context(assume, cxt_i, dt):
                continue
            cmp = assume.get_arg(0)
            if not isinstance(cmp, ICmpInst) or cmp.get_operand(0) is not v:
                continue
            rhs = compute_constant_range(cmp.get_operand(1), False, use_instr_info, ac, assume, dt, depth + 1)
            cr = cr.intersect_with(ConstantRange.make_allowed_icmp_region(cmp.predicate, rhs))
    return cr


_BINOPS_FOR_RANGE = frozenset(("add", "and", "or", "ashr", "lshr", "shl", "sdiv", "udiv", "srem", "urem"))


def _binop_limits(bo: Instruction, w: int, iiq: bool, prefer_signed: bool) -> tuple[int, int]:
    """LLVM ``setLimitsForBinOp``: ``(lower, upper)`` bounds (0, 0 when nothing is known)."""
    m = (1 << w) - 1
    smin = 1 << (w - 1)
    smax = smin - 1
    lower = upper = 0
    op = bo.opcode
    a, b = bo.get_operand(0), bo.get_operand(1)
    cb = match_apint(b)
    ca = match_apint(a)

    def sx(x: int) -> int:
        return x - (1 << w) if (x >> (w - 1)) & 1 else x

    def ashr(x: int, n: int) -> int:
        return (sx(x) >> n) & m

    if op == "add":
        if cb is not None and cb.value != 0:
            c = cb.value
            nsw = iiq and _raw_nsw(bo)
            nuw = iiq and _raw_nuw(bo)
            if prefer_signed and nsw and nuw:
                nuw = False
            if nuw:
                lower = c
            elif nsw:
                if sx(c) < 0:
                    lower, upper = smin, (smax + c + 1) & m
                else:
                    lower, upper = (smin + c) & m, (smax + 1) & m
    elif op == "and":
        if cb is not None:
            upper = (cb.value + 1) & m
        if _is_neg_of(a, b) or _is_neg_of(b, a):
            upper = (smin + 1) & m
    elif op == "or":
        if cb is not None:
            lower = cb.value
    elif op == "ashr":
        if cb is not None and cb.value < w:
            lower = ashr(smin, cb.value)
            upper = (ashr(smax, cb.value) + 1) & m
        elif ca is not None:
            c = ca.value
            amount = w - 1
            if c != 0 and iiq and _raw_exact(bo):
                amount = (c & -c).bit_length() - 1
            if sx(c) < 0:
                lower, upper = c, (ashr(c, amount) + 1) & m
            else:
                lower, upper = ashr(c, amount), (c + 1) & m
    elif op == "lshr":
        if cb is not None and cb.value < w:
            upper = ((m >> cb.value) + 1) & m
        elif ca is not None:
            c = ca.value
            amount = w - 1
            if c != 0 and iiq and _raw_exact(bo):
                amount = (c & -c).bit_length() - 1
            lower, upper = c >> amount, (c + 1) & m
    elif op == "shl":
        if ca is not None:
            c = ca.value
            if iiq and _raw_nuw(bo):
                lower = c
                upper = ((c << (w - c.bit_length())) + 1) & m
            elif _raw_nsw(bo):
                if sx(c) < 0:
                    amount = (w - (~c & m).bit_length()) - 1
                    lower, upper = (c << amount) & m, (c + 1) & m
                else:
                    amount = (w - c.bit_length()) - 1
                    lower, upper = c, ((c << amount) + 1) & m if amount >= 0 else (c + 1) & m
            else:
                if c & 1:
                    lower = 1
                pop = bin(c).count("1")
                upper = ((m & ~((1 << (w - pop)) - 1)) + 1) & m
        elif cb is not None and cb.value < w:
            upper = ((m & ~((1 << cb.value) - 1)) + 1) & m
    elif op == "sdiv":
        if cb is not None:
            c = cb.value
            if c == m:
                lower, upper = (smin + 1) & m, (smax + 1) & m
            elif w - c.bit_length() < w - 1:
                lo = _sdiv_trunc(-(1 << (w - 1)), sx(c))
                hi = _sdiv_trunc((1 << (w - 1)) - 1, sx(c))
                if lo > hi:
                    lo, hi = hi, lo
                lower, upper = lo & m, (hi + 1) & m
        elif ca is not None:
            c = ca.value
            if c == smin:
                lower, upper = c, ((c >> 1) + 1) & m
            else:
                up = abs(sx(c)) + 1
                lower, upper = (-up + 1) & m, up & m
    elif op == "udiv":
        if cb is not None and cb.value != 0:
            upper = (m // cb.value + 1) & m
        elif ca is not None:
            upper = (ca.value + 1) & m
    elif op == "srem":
        if cb is not None:
            up = abs(sx(cb.value)) & m
            lower, upper = (-up + 1) & m, up
        elif ca is not None:
            c = ca.value
            if sx(c) < 0:
                lower, upper = c, 1
            else:
                upper = (c + 1) & m
    elif op == "urem":
        if cb is not None:
            upper = cb.value
        elif ca is not None:
            upper = (ca.value + 1) & m
    return lower & m, upper & m


def _sdiv_trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _intrinsic_range(call: CallBase, w: int) -> ConstantRange:
    """LLVM ``getRangeForIntrinsic``."""
    base = _intrinsic(call)
    m = (1 << w) - 1
    smin = 1 << (w - 1)
    smax = smin - 1

    def ne(lo: int, hi: int) -> ConstantRange:
        return ConstantRange.get_non_empty(w, lo & m, hi & m)

    def const_arg() -> int | None:
        for k in range(min(2, call.num_args)):
            c = match_apint(call.get_arg(k))
            if c is not None:
                return c.value
        return None

    if base in ("llvm.ctpop", "llvm.ctlz", "llvm.cttz"):
        return ne(0, w + 1)
    if base == "llvm.uadd.sat":
        c = const_arg()
        if c is not None:
            return ne(c, 0)
    elif base == "llvm.sadd.sat":
        c = const_arg()
        if c is not None:
            if (c >> (w - 1)) & 1:
                return ne(smin, smax + c + 1)
            return ne(smin + c, smax + 1)
    elif base == "llvm.usub.sat":
        c0 = match_apint(call.get_arg(0))
        if c0 is not None:
            return ne(0, c0.value + 1)
        c1 = match_apint(call.get_arg(1))
        if c1 is not None:
            return ne(0, m - c1.value + 1)
    elif base == "llvm.ssub.sat":
        c0 = match_apint(call.get_arg(0))
        if c0 is not None:
            c = c0.value
            if (c >> (w - 1)) & 1:
                return ne(smin, c - smin + 1)
            return ne(c - smax, smax + 1)
        c1 = match_apint(call.get_arg(1))
        if c1 is not None:
            c = c1.value
            if (c >> (w - 1)) & 1:
                return ne(smin - c, smax + 1)
            return ne(smin, smax - c + 1)
    elif base in ("llvm.umin", "llvm.umax", "llvm.smin", "llvm.smax"):
        c = const_arg()
        if c is not None:
            if base == "llvm.umin":
                return ne(0, c + 1)
            if base == "llvm.umax":
                return ne(c, 0)
            if base == "llvm.smin":
                return ne(smin, c + 1)
            return ne(c, smax + 1)
    elif base == "llvm.abs":
        flag = match_apint(call.get_arg(1))
        if flag is not None and flag.value == 1:
            return ne(0, smax + 1)
        return ne(0, smin + 1)
    elif base == "llvm.vscale":
        fn = call.function
        if fn is not None:
            return get_vscale_range(fn, w)
    elif base in ("llvm.scmp", "llvm.ucmp"):
        return ne(m, 2)
    return ConstantRange.get_full(w)


def _select_pattern_range(sel: SelectInst, w: int, iiq: bool) -> ConstantRange:
    """LLVM ``getRangeForSelectPattern`` for the min/max/abs shapes recognised here."""
    m = (1 << w) - 1
    smin = 1 << (w - 1)
    full = ConstantRange.get_full(w)
    cond = sel.condition
    if not isinstance(cond, ICmpInst):
        return full
    a, b = cond.get_operand(0), cond.get_operand(1)
    t, f = sel.true_value, sel.false_value
    pred = cond.predicate
    # abs / nabs: select (icmp slt X, 0), (sub 0, X), X  and the swapped forms.
    zero_rhs = _is_zero_const(b)
    if zero_rhs or (_is_all_ones(b) and pred in (Predicate.ICMP_SGT,)):
        x = a
        neg: Value | None = None
        if _is_neg_of(t, x) and f is x:
            neg = t
            negative_picks_neg = pred in (Predicate.ICMP_SLT, Predicate.ICMP_SLE)
        elif _is_neg_of(f, x) and t is x:
            neg = f
            negative_picks_neg = pred in (Predicate.ICMP_SGT, Predicate.ICMP_SGE)
        if neg is not None and pred in (Predicate.ICMP_SLT, Predicate.ICMP_SLE, Predicate.ICMP_SGT, Predicate.ICMP_SGE):
            if negative_picks_neg:
                if iiq and _raw_nsw(neg):
                    return ConstantRange.get_non_empty(w, 0, smin)
                return ConstantRange.get_non_empty(w, 0, (smin + 1) & m)
            return ConstantRange.get_non_empty(w, smin, 1)
    if t is b and f is a:
        pred = pred.swapped
        a, b = b, a
    if not (t is a and f is b):
        return full
    flavor = {
        Predicate.ICMP_SGT: "smax", Predicate.ICMP_SGE: "smax", Predicate.ICMP_SLT: "smin", Predicate.ICMP_SLE: "smin",
        Predicate.ICMP_UGT: "umax", Predicate.ICMP_UGE: "umax", Predicate.ICMP_ULT: "umin", Predicate.ICMP_ULE: "umin",
    }.get(pred)
    if flavor is None:
        return full
    c = match_apint(a) or match_apint(b)
    if c is None:
        return full
    cv = c.value
    if flavor == "umin":
        return ConstantRange.get_non_empty(w, 0, (cv + 1) & m)
    if flavor == "umax":
        return ConstantRange.get_non_empty(w, cv, 0)
    if flavor == "smin":
        return ConstantRange.get_non_empty(w, smin, (cv + 1) & m)
    return ConstantRange.get_non_empty(w, cv, smin)
