"""The keys of EarlyCSE's scoped hash tables: ``SimpleValue``, ``CallValue`` and
``GEPValue`` with LLVM's hashing and equality, and the scoped hash table itself
(LLVM 19.1.7 ``llvm/lib/Transforms/Scalar/EarlyCSE.cpp``, the ``DenseMapInfo``
specialisations, and ``llvm/include/llvm/ADT/ScopedHashTable.h``).

What: a key wraps one instruction and caches the hash LLVM's ``getHashValue``
computes (operands hashed by identity, commutative operands and compare
operands put in a canonical order, min/max selects hashed by flavour, selects on
a compare hashed with a canonical predicate). Equality is LLVM's ``isEqual``:
identical when defined (poison-generating flags ignored), commuted binary
operators, compares with swapped operands and predicate, commutative
intrinsics, min/max selects with commuted or differently spelled compares,
selects on a ``not`` of the condition with swapped arms, selects on inverse
compares with swapped arms. :class:`ScopedHashTable` is a dict of value stacks
with an undo log per scope, so popping a scope restores what the enclosing
scopes saw.

``-earlycse-debug-hash``: opt-19 is a release build, where the option only
exists; here it checks on every successful comparison that equal keys hash
equally (the invariant the option asserts in a debug build) and raises
``AssertionError`` when they do not.

What it does not do: the pass-level limits are in ``early_cse.py``; keys are
complete for LLVM 19's rules.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.constrained_fp import constrained_exception_behavior, constrained_rounding_mode
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator, UnaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.optional_flags import FastMathFlagsInst, OptionalFlagsInst
from llvmpy_mid.ir.instructions.other import FreezeInst, PHINode, SelectInst
from llvmpy_mid.ir.instructions.vector import (
    ExtractElementInst,
    ExtractValueInst,
    InsertElementInst,
    InsertValueInst,
    ShuffleVectorInst,
)
from llvmpy_mid.ir.pattern_match import m_not, m_value, match
from llvmpy_mid.ir.statepoint import gc_relocate_pointers
from llvmpy_mid.ir.types import ArrayType, Type, VectorType
from llvmpy_mid.ir.value import Value

__all__ = [
    "CallValue",
    "GEPValue",
    "ScopedHashTable",
    "SimpleValue",
    "and_ir_flags",
    "can_handle_call_value",
    "can_handle_simple_value",
    "match_select_with_optional_not_cond",
    "set_debug_hash",
]

_DEBUG_HASH = [False]


def set_debug_hash(on: bool) -> None:
    """Turn the ``-earlycse-debug-hash`` consistency check on or off."""
    _DEBUG_HASH[0] = on


# --- which instructions are keys -------------------------------------------------------------

_SIMPLE_CLASSES = (
    CastInst, UnaryOperator, BinaryOperator, CmpInst, SelectInst, ExtractElementInst,
    InsertElementInst, ShuffleVectorInst, ExtractValueInst, InsertValueInst, FreezeInst,
)

_CONSTRAINED = frozenset(
    "llvm.experimental.constrained." + n
    for n in ("fadd", "fsub", "fmul", "fdiv", "frem", "fptosi", "sitofp", "fptoui", "uitofp", "fcmp", "fcmps")
)


def _is_presplit_coroutine(call: CallBase) -> bool:
    fn = call.caller
    return fn is not None and fn.has_fn_attribute("presplitcoroutine")


def can_handle_simple_value(inst: Instruction) -> bool:
    """LLVM ``SimpleValue::canHandle``: pure operators, and calls that access no memory
    (constrained FP intrinsics unless strict or dynamically rounded)."""
    if isinstance(inst, CallInst):
        base = inst.intrinsic_base
        if base in _CONSTRAINED:
            if constrained_exception_behavior(inst) == "fpexcept.strict":
                return False
            return constrained_rounding_mode(inst) != "round.dynamic"
        return inst.does_not_access_memory and not inst.type.is_void and not _is_presplit_coroutine(inst)
    return isinstance(inst, _SIMPLE_CLASSES)


def can_handle_call_value(inst: Instruction) -> bool:
    """LLVM ``CallValue::canHandle``: a non-void call that only reads memory."""
    if inst.type.is_void or not isinstance(inst, CallInst):
        return False
    return inst.only_reads_memory and not _is_presplit_coroutine(inst)


# --- equality helpers ------------------------------------------------------------------------


def _scalar_type(ty: Type) -> Type:
    while isinstance(ty, ArrayType):
        ty = ty.element_type
    if isinstance(ty, VectorType):
        ty = ty.element_type
    return ty


_FP_MATH_OPCODES = frozenset(("fneg", "fadd", "fsub", "fmul", "fdiv", "frem", "fcmp"))


def is_fp_math_operator(v: Value) -> bool:
    """LLVM ``isa<FPMathOperator>``: a floating-point operator or compare, or a phi,
    select or call of floating-point (vector/array) type."""
    op = getattr(v, "opcode", None)
    if op in _FP_MATH_OPCODES:
        return True
    if op in ("phi", "select", "call"):
        return _scalar_type(v.type).is_floating_point
    return False


def and_ir_flags(dst: Instruction, src: Instruction) -> None:
    """Keep on ``dst`` only the optional flags ``src`` also has (LLVM
    ``Instruction::andIRFlags``): wrap/exact/disjoint/nneg, GEP no-wrap flags and
    fast-math flags. Both are of one opcode."""
    if isinstance(dst, OptionalFlagsInst) and isinstance(src, OptionalFlagsInst):
        dst._flags &= src._flags
    elif isinstance(dst, GetElementPtrInst) and isinstance(src, GetElementPtrInst):
        dst.gep_flags = dst.gep_flags & src.gep_flags
    elif isinstance(dst, (FastMathFlagsInst, CallInst)) and isinstance(src, (FastMathFlagsInst, CallInst)):
        if is_fp_math_operator(dst) and is_fp_math_operator(src):
            dst._fmf &= src._fmf
    elif isinstance(dst, CmpInst) and isinstance(src, CmpInst) and dst.opcode == "fcmp" and src.opcode == "fcmp":
        dst._fmf &= src._fmf  # type: ignore[attr-defined]


# --- select patterns -------------------------------------------------------------------------

_NOT = m_not(m_value("x"))
_DIRECT_FLAVOR = {
    Predicate.ICMP_UGT: "umax", Predicate.ICMP_UGE: "umax", Predicate.ICMP_ULT: "umin", Predicate.ICMP_ULE: "umin",
    Predicate.ICMP_SGT: "smax", Predicate.ICMP_SGE: "smax", Predicate.ICMP_SLT: "smin", Predicate.ICMP_SLE: "smin",
}
_MIN_MAX = frozenset(("smin", "smax", "umin", "umax"))

SelectMatch = tuple[Value, Value, Value, str]


def match_select_with_optional_not_cond(v: Value) -> SelectMatch | None:
    """``(cond, a, b, flavor)`` of ``select cond, a, b`` seen through a ``not`` of the
    condition (arms swapped), flavor a min/max when the condition compares the arms
    with an ordering predicate, else ``"unknown"``; None when ``v`` is no select
    (LLVM ``matchSelectWithOptionalNotCond``)."""
    if not isinstance(v, SelectInst):
        return None
    ops = v._operands
    cond, a, b = ops[0].value, ops[1].value, ops[2].value
    m = match(cond, _NOT)
    if m is not None:
        cond = m.x
        a, b = b, a
    flavor = "unknown"
    if isinstance(cond, ICmpInst):
        l, r = cond._operands[0].value, cond._operands[1].value
        pred: Predicate | None = None
        if l is a and r is b:
            pred = cond.predicate
        elif l is b and r is a:
            pred = cond.predicate.swapped
        if pred is not None:
            flavor = _DIRECT_FLAVOR.get(pred, "unknown")
    return cond, a, b, flavor


# --- SimpleValue ------------------------------------------------------------------------------


def _ordered(a: Value, b: Value) -> tuple[Value, Value]:
    return (b, a) if id(a) > id(b) else (a, b)


def _simple_hash(inst: Instruction) -> int:
    """LLVM ``getHashValueImpl`` (values hashed by identity)."""
    ops = inst._operands
    if isinstance(inst, BinaryOperator):
        lhs, rhs = ops[0].value, ops[1].value
        if inst.is_commutative and id(lhs) > id(rhs):
            lhs, rhs = rhs, lhs
        return hash((inst.opcode, id(lhs), id(rhs)))
    if isinstance(inst, CmpInst):
        lhs, rhs = ops[0].value, ops[1].value
        pred = inst.predicate
        swapped = pred.swapped
        if (id(lhs), int(pred)) > (id(rhs), int(swapped)):
            lhs, rhs, pred = rhs, lhs, swapped
        return hash((inst.opcode, int(pred), id(lhs), id(rhs)))
    sel = match_select_with_optional_not_cond(inst)
    if sel is not None:
        cond, a, b, flavor = sel
        if flavor in _MIN_MAX:
            a, b = _ordered(a, b)
            return hash(("select", flavor, id(a), id(b)))
        if not isinstance(cond, CmpInst):
            return hash(("select", id(cond), id(a), id(b)))
        cpred = cond.predicate
        inverse = cpred.inverse
        if int(inverse) < int(cpred):
            cpred = inverse
            a, b = b, a
        co = cond._operands
        return hash(("select", int(cpred), id(co[0].value), id(co[1].value), id(a), id(b)))
    if isinstance(inst, CastInst):
        return hash((inst.opcode, id(inst.type), id(ops[0].value)))
    if isinstance(inst, FreezeInst):
        return hash(("freeze", id(ops[0].value)))
    if isinstance(inst, ExtractValueInst):
        return hash(("extractvalue", id(ops[0].value), tuple(inst.indices)))
    if isinstance(inst, InsertValueInst):
        return hash(("insertvalue", id(ops[0].value), id(ops[1].value), tuple(inst.indices)))
    if isinstance(inst, CallInst):
        if inst.is_commutative and inst.num_args >= 2:
            lhs, rhs = _ordered(ops[0].value, ops[1].value)
            return hash(("call", id(lhs), id(rhs), tuple(id(u.value) for u in ops[2:])))
        gcr = gc_relocate_pointers(inst)
        if gcr is not None:
            return hash(("call", id(gcr[0]), id(gcr[1]), id(gcr[2])))
        return _call_hash(inst)
    return hash((inst.opcode, tuple(id(u.value) for u in ops)))


def _call_hash(call: CallInst) -> int:
    """LLVM ``hashCallInst``: a convergent call hashes its block too."""
    ops = tuple(id(u.value) for u in call._operands)
    if call.is_convergent:
        return hash(("call", id(call.parent), ops))
    return hash(("call", ops))


def _simple_equal(l: Instruction, r: Instruction) -> bool:
    """LLVM ``isEqualImpl`` for two SimpleValues."""
    if l.opcode != r.opcode:
        return False
    if l.is_identical_to_when_defined(r):
        if isinstance(l, CallInst) and l.is_convergent and l.parent is not r.parent:
            return False
        return True
    lo, ro = l._operands, r._operands
    if isinstance(l, BinaryOperator):
        if not l.is_commutative:
            return False
        return lo[0].value is ro[1].value and lo[1].value is ro[0].value
    if isinstance(l, CmpInst):
        return (
            lo[0].value is ro[1].value
            and lo[1].value is ro[0].value
            and l.predicate.swapped is r.predicate  # type: ignore[attr-defined]
        )
    if isinstance(l, CallInst) and isinstance(r, CallInst):
        lb = l.intrinsic_base
        if lb and lb == r.intrinsic_base and l.is_commutative and l.num_args >= 2:
            n = l.num_args
            if r.num_args != n:
                return False
            if not (lo[0].value is ro[1].value and lo[1].value is ro[0].value):
                return False
            return all(lo[i].value is ro[i].value for i in range(2, n))
        gl = gc_relocate_pointers(l)
        if gl is not None:
            gr = gc_relocate_pointers(r)
            if gr is not None:
                return gl[0] is gr[0] and gl[1] is gr[1] and gl[2] is gr[2]
    ls = match_select_with_optional_not_cond(l)
    if ls is None:
        return False
    rs = match_select_with_optional_not_cond(r)
    if rs is None:
        return False
    cond_l, la, lb_, lflavor = ls
    cond_r, ra, rb, rflavor = rs
    if lflavor == rflavor:
        if lflavor in _MIN_MAX:
            return (la is ra and lb_ is rb) or (la is rb and lb_ is ra)
        if cond_l is cond_r and la is ra and lb_ is rb:
            return True
    if la is rb and lb_ is ra and isinstance(cond_l, CmpInst) and isinstance(cond_r, CmpInst):
        clo, cro = cond_l._operands, cond_r._operands
        if clo[0].value is cro[0].value and clo[1].value is cro[1].value:
            return cond_l.predicate.inverse is cond_r.predicate
    return False


class SimpleValue:
    """A key of ``AvailableValues``: an instruction :func:`can_handle_simple_value` accepts."""

    __slots__ = ("inst", "_hash")

    def __init__(self, inst: Instruction) -> None:
        self.inst = inst
        self._hash = _simple_hash(inst)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SimpleValue):
            return NotImplemented
        if self.inst is other.inst:
            return True
        result = _simple_equal(self.inst, other.inst)
        if result and _DEBUG_HASH[0] and _simple_hash(self.inst) != _simple_hash(other.inst):
            raise AssertionError("EarlyCSE: equal SimpleValues hash differently: %s / %s" % (self.inst, other.inst))
        return result


# --- CallValue --------------------------------------------------------------------------------


class CallValue:
    """A key of ``AvailableCalls``: a read-only call (:func:`can_handle_call_value`)."""

    __slots__ = ("inst", "_hash")

    def __init__(self, inst: CallInst) -> None:
        self.inst = inst
        self._hash = _call_hash(inst)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CallValue):
            return NotImplemented
        l, r = self.inst, other.inst
        if l is r:
            return True
        if l.is_convergent and l.parent is not r.parent:
            return False
        return l.is_identical_to(r)


# --- GEPValue ---------------------------------------------------------------------------------


class GEPValue:
    """A key of ``AvailableGEPs``: a GEP with its constant byte offset when all its
    indices are constant (then compared by base pointer and offset)."""

    __slots__ = ("inst", "offset", "_hash")

    def __init__(self, inst: GetElementPtrInst, offset: int | None) -> None:
        self.inst = inst
        self.offset = offset
        ops = inst._operands
        if offset is not None:
            self._hash = hash(("getelementptr", id(ops[0].value), offset))
        else:
            self._hash = hash(("getelementptr", tuple(id(u.value) for u in ops)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GEPValue):
            return NotImplemented
        l, r = self.inst, other.inst
        if l is r:
            return True
        if l._operands[0].value is not r._operands[0].value:
            return False
        if self.offset is not None and other.offset is not None:
            # LLVM compares the offsets only; a vector GEP never stands for a scalar one here.
            return self.offset == other.offset and l.type is r.type
        return l.is_identical_to_when_defined(r)


# --- the scoped hash table --------------------------------------------------------------------

K = TypeVar("K")
V = TypeVar("V")


class ScopedHashTable(Generic[K, V]):
    """LLVM ``ScopedHashTable``: ``insert`` shadows an equal key until the scope that
    inserted it is popped; ``lookup`` sees the innermost value."""

    __slots__ = ("_map", "_scopes")

    def __init__(self) -> None:
        self._map: dict[K, list[V]] = {}
        self._scopes: list[list[K]] = []

    def push_scope(self) -> None:
        self._scopes.append([])

    def pop_scope(self) -> None:
        table = self._map
        for key in reversed(self._scopes.pop()):
            stack = table[key]
            stack.pop()
            if not stack:
                del table[key]

    def insert(self, key: K, value: V) -> None:
        stack = self._map.get(key)
        if stack is None:
            self._map[key] = [value]
        else:
            stack.append(value)
        self._scopes[-1].append(key)

    def lookup(self, key: K) -> V | None:
        stack = self._map.get(key)
        return stack[-1] if stack is not None else None

    def count(self, key: K) -> bool:
        return key in self._map

    def __len__(self) -> int:
        return len(self._map)


def is_true_constant(v: Value) -> bool:
    """A ``ConstantInt`` equal to one (LLVM ``isa<ConstantInt> && isOne``)."""
    return isinstance(v, ConstantInt) and v.value == 1
