"""Shared pieces of ValueTracking (LLVM 19.1.7 ``llvm/lib/Analysis/ValueTracking.cpp``):
operator and flag queries on instructions and constant expressions, bit widths
and vector lanes, ``returned`` arguments and ``range`` attributes, simple
recurrences, GEP walks, and what ``llvm.assume`` calls and comparisons say
about a value (``isValidAssumeForContext``, ``computeKnownBitsFromCmp`` /
``FromCond`` / ``FromContext``, non-zero from assumptions).

The public queries live in :mod:`llvmpy_mid.analysis.value_tracking`; this module
holds what they share. Dominating conditions (LLVM's ``DomConditionCache``) are
not used.
"""

from __future__ import annotations

from typing import Iterable, TYPE_CHECKING

from llvmpy_mid.analysis.constant_range import ConstantRange
from llvmpy_mid.analysis.known_bits import KnownBits
from llvmpy_mid.analysis.poison_tracking import (
    MAX_ANALYSIS_RECURSION_DEPTH,
    get_splat_value,
    is_guaranteed_to_transfer_execution_to_successor,
    match_apint,
)
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import (
    Constant,
    ConstantAggregateZero,
    ConstantDataVector,
    ConstantInt,
    ConstantVector,
    PoisonValue,
    UndefValue,
)
from llvmpy_mid.ir.function import Argument, Function, null_pointer_is_defined
from llvmpy_mid.ir.pointer_casts import get_returned_arg_operand as get_returned_arg_operand
from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.vector import ShuffleVectorInst
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.types import ArrayType, IntegerType, PointerType, StructType, Type, VectorType
from llvmpy_mid.ir.value import User

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.value import Value


_MAX = MAX_ANALYSIS_RECURSION_DEPTH


_EXPR_RESULT = -1  # AssumptionCache's index for "the assume's condition"


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


def opcode_of(v: Value) -> str:
    """The opcode of an instruction or constant expression (LLVM ``Operator::getOpcode``), else ``""``;
    the one copy (InstSimplify's ``_util`` and Lint import it)."""
    if isinstance(v, Instruction):
        return v.opcode
    if isinstance(v, ConstantExpr):
        return v.opcode
    return ""


_opcode = opcode_of


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
    """LLVM ``getShuffleDemandedElts``: the lanes of each source a shuffle's demanded lanes read;
    None when a demanded lane is poison (nothing is known of the lanes in common)."""
    src_ty = shuf.get_operand(0).type
    assert isinstance(src_ty, VectorType)
    if src_ty.scalable:
        return demanded, demanded
    n = src_ty.count
    if not demanded:
        return 0, 0
    mask = shuf.mask
    if all(m == 0 for m in mask):
        return 1, 0
    lhs = rhs = 0
    for i, m in enumerate(mask):
        if not (demanded >> i) & 1:
            continue
        if m < 0:
            return None
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
    """LLVM ``computeKnownBitsFromContext``: facts from the conditions of dominating branches
    (when the query carries a dominating-condition cache) and from ``llvm.assume`` valid at the context."""
    cxt = q.cxt_i
    if cxt is None:
        return known
    dc, dt = q.dc, q.dt
    if dc is not None and dt is not None:
        branches = dc.conditions_for(v)
        if branches:
            cxt_bb = cxt.parent
            for br in branches:
                src = br.parent
                succs = br.successors
                if src is None or cxt_bb is None:
                    continue
                if dt.dominates_edge(src, succs[0], cxt_bb):
                    known = _known_bits_from_cond(v, br.operands[0], known, depth, q, False)
                if dt.dominates_edge(src, succs[1], cxt_bb):
                    known = _known_bits_from_cond(v, br.operands[0], known, depth, q, True)
            if known.has_conflict():
                known = KnownBits(known.bit_width)
    if q.ac is None:
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


def _is_neg_of(x: Value, y: Value) -> bool:
    """``x`` is ``sub 0, y`` (LLVM ``m_Neg``)."""
    return _opcode(x) == "sub" and _is_zero_const(_operand(x, 0)) and _operand(x, 1) is y


def _is_add_all_ones_of(x: Value, y: Value) -> bool:
    """``x`` is ``add y, -1``."""
    return _opcode(x) == "add" and _operand(x, 0) is y and _is_all_ones(_operand(x, 1))


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


def _strip_inbounds_constant_offsets(v: Value, dl: DataLayout) -> tuple[Value, int]:
    """LLVM ``stripAndAccumulateInBoundsConstantOffsets``."""
    return strip_and_accumulate_constant_offsets(v, dl, False)


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


def _is_all_ones_value(c: Constant) -> bool:
    if isinstance(c, ConstantInt):
        return c.value == (1 << c.width) - 1
    s = get_splat_value(c) if isinstance(c.type, VectorType) else None
    return isinstance(s, ConstantInt) and s.value == (1 << s.width) - 1


def is_known_negation(x: Value, y: Value, need_nsw: bool = False, allow_poison: bool = True) -> bool:
    """``x == -y`` (``sub 0, y``, either way round, or ``a - b`` against ``b - a``), with
    ``nsw`` when ``need_nsw``; a zero with poison lanes only when ``allow_poison``
    (LLVM ``isKnownNegation``)."""

    def negation_of(a: Value, b: Value) -> bool:
        if _opcode(a) != "sub" or _operand(a, 1) is not b:
            return False
        zero = _operand(a, 0)
        if not _is_zero_int_allowing_poison(zero):
            return False
        if need_nsw and not _raw_nsw(a):
            return False
        if not allow_poison and not (isinstance(zero, Constant) and zero.is_null_value):
            return False
        return True

    if negation_of(x, y) or negation_of(y, x):
        return True
    if _opcode(x) != "sub" or _opcode(y) != "sub":
        return False
    if need_nsw and not (_raw_nsw(x) and _raw_nsw(y)):
        return False
    return _operand(y, 0) is _operand(x, 1) and _operand(y, 1) is _operand(x, 0)


def _is_zero_int_allowing_poison(v: Value) -> bool:
    """LLVM ``m_ZeroInt``: integer zero, or a vector of zeros and poison lanes."""
    if isinstance(v, ConstantInt):
        return v.value == 0
    if not isinstance(v, Constant) or not isinstance(v.type, VectorType):
        return False
    if v.is_null_value:
        return True
    if isinstance(v, (ConstantDataVector, ConstantVector)):
        seen = False
        for e in v.elements:
            if isinstance(e, PoisonValue):
                continue
            if not (isinstance(e, ConstantInt) and e.value == 0):
                return False
            seen = True
        return seen
    c = match_apint(v)
    return c is not None and c.value == 0
