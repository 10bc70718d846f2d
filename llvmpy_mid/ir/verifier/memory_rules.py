"""Verifier rules for the memory instructions (LLVM 19 ``Verifier::visit*``).

``alloca``, ``load``, ``store``, ``getelementptr``, ``fence``, ``cmpxchg``
and ``atomicrmw``, each with LLVM 19's messages, in LLVM's order, printing
the values LLVM prints:

- sizes: what is allocated, loaded, stored or indexed into must be sized,
  with LLVM 19's rule for structs holding scalable vectors (sized only when
  every element is the same scalable vector type);
- alignments up to 2**32; the array size of an alloca is an integer;
- ``swifterror`` allocas hold one pointer and are only loaded, stored to, or
  passed as a ``swifterror`` argument (:func:`check_swifterror_value`, which
  the function rules can reuse for ``swifterror`` parameters);
- atomic accesses: the orderings each instruction allows, scalar integer,
  pointer or floating-point operands (fixed vectors of floating point for
  the floating-point ``atomicrmw`` operations), a power-of-two size of at
  least a byte (pointer sizes from the module's data layout; without a
  module a pointer's size is not checked), no sync scope on a non-atomic
  load or store;
- ``getelementptr``: the base is a pointer (vector), the indices are integers
  that lead into the source element type to the recorded result element
  type, vector widths agree, the result keeps the base's address space.

LLVM 19's verifier has no ordering rule for ``cmpxchg`` and none for a
non-atomic ``atomicrmw``: its classes assert them when built and its parser
refuses them. Ours can be given such orderings through the API, so they are
reported here with the wording LLVM's verifier used for them before the
checks moved ("cmpxchg instructions must be atomic." ...). LLVM 19 accepts
a failure ordering stronger than the success ordering, and so do we.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.instructions.flags import AtomicOrdering, AtomicRMWBinOp
from llvmpy_mid.ir.instructions.gep import get_indexed_type
from llvmpy_mid.ir.instructions.memory import MAX_ALIGNMENT
from llvmpy_mid.ir.type_queries import SCALAR_TYPE_IDS
from llvmpy_mid.ir.types import (
    ArrayType,
    FloatingPointType,
    IntegerType,
    PointerType,
    StructType,
    TargetExtType,
    Type,
    TypeID,
    VectorType,
)
from llvmpy_mid.ir.verifier.rule import RuleTable

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.instructions.calls import CallBase
    from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
    from llvmpy_mid.ir.instructions.memory import (
        AllocaInst,
        AtomicCmpXchgInst,
        AtomicRMWInst,
        FenceInst,
        LoadInst,
        StoreInst,
    )
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.ir.verifier.checker import Checker

_INTEGER = TypeID.INTEGER
_POINTER = TypeID.POINTER
_STRUCT = TypeID.STRUCT
_ARRAY = TypeID.ARRAY
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR


_NOT_ATOMIC = AtomicOrdering.NOT_ATOMIC
_UNORDERED = AtomicOrdering.UNORDERED
_RELEASE = AtomicOrdering.RELEASE
_ACQUIRE = AtomicOrdering.ACQUIRE
_ACQ_REL = AtomicOrdering.ACQ_REL
_FENCE_ORDERINGS = frozenset((_ACQUIRE, _RELEASE, _ACQ_REL, AtomicOrdering.SEQ_CST))

# =====================================================================================
# type queries
# =====================================================================================


def _is_scalable_type(ty: Type) -> bool:
    """LLVM 19 ``Type::isScalableTy``: a scalable vector, an array of scalable
    things, a struct holding a scalable vector (through nested structs), or a
    target type laid out as a scalable vector."""
    while isinstance(ty, ArrayType):
        ty = ty.element_type
    tid = ty.type_id
    if tid is _SCALABLE_VECTOR:
        return True
    if isinstance(ty, TargetExtType):
        return ty.name == "aarch64.svcount"
    if isinstance(ty, StructType):
        return _contains_scalable_vector(ty)
    return False


def _contains_scalable_vector(st: StructType) -> bool:
    """LLVM 19 ``StructType::containsScalableVectorType`` (nested structs included)."""
    stack = [st]
    seen = {id(st)}
    while stack:
        for elt in stack.pop().elements:
            if elt.type_id is _SCALABLE_VECTOR:
                return True
            if isinstance(elt, StructType) and id(elt) not in seen:
                seen.add(id(elt))
                stack.append(elt)
    return False


def _is_homogeneous_scalable(st: StructType) -> bool:
    """Every element is the same scalable vector type (and there is one)."""
    elts = st.elements
    if not elts or elts[0].type_id is not _SCALABLE_VECTOR:
        return False
    first = elts[0]
    for elt in elts:
        if elt is not first:
            return False
    return True


def _scalable_struct_unsized(ty: Type) -> bool:
    """Whether a struct somewhere in ``ty`` (itself, or nested through structs
    and arrays) holds a scalable element without being a homogeneous
    scalable-vector struct, which makes it unsized in LLVM 19."""
    stack = [ty]
    seen: set[int] = set()
    while stack:
        t = stack.pop()
        while isinstance(t, ArrayType):
            t = t.element_type
        if not isinstance(t, StructType) or id(t) in seen:
            continue
        seen.add(id(t))
        if _is_homogeneous_scalable(t):
            continue
        for elt in t.elements:
            if _is_scalable_type(elt):
                return True
            if elt.type_id is _STRUCT or elt.type_id is _ARRAY:
                stack.append(elt)
    return False


def is_sized(c: Checker, ty: Type) -> bool:
    """LLVM 19 ``Type::isSized``. The type's own answer, corrected for structs
    holding scalable vectors; struct and array answers are remembered per run."""
    tid = ty.type_id
    if tid in SCALAR_TYPE_IDS:
        return True
    if not ty.is_sized:
        return False
    if tid is not _STRUCT and tid is not _ARRAY:
        return True
    memo = c.memo.get("memory:sized")
    if memo is None:
        memo = c.memo["memory:sized"] = {}
    assert isinstance(memo, dict)
    known = memo.get(ty)
    if known is None:
        known = memo[ty] = not _scalable_struct_unsized(ty)
    return bool(known)


def _size_in_bits(c: Checker, ty: Type, inst: Instruction) -> int | None:
    """``DL.getTypeSizeInBits`` for the operand of an atomic access; None when
    it cannot be known (a pointer with no module, an unsized type)."""
    if isinstance(ty, IntegerType):
        return ty.width
    if isinstance(ty, FloatingPointType):
        return ty.bits
    if isinstance(ty, VectorType):
        elt = ty.element_type
        if isinstance(elt, (IntegerType, FloatingPointType)):
            return ty.count * (elt.width if isinstance(elt, IntegerType) else elt.bits)
    module = c.module if c.module is not None else inst.module
    if module is None:
        return None
    try:
        return module.data_layout.type_size_in_bits(ty)
    except IRError:
        return None


def _check_atomic_size(c: Checker, ty: Type, inst: Instruction) -> bool:
    """LLVM ``checkAtomicMemAccessSize``; True if it reported."""
    bits = _size_in_bits(c, ty, inst)
    if bits is None:
        return False
    if bits < 8:
        c.fail("atomic memory access' size must be byte-sized", ty, inst)
        return True
    if bits & (bits - 1):
        c.fail("atomic memory access' operand must have a power-of-two size", ty, inst)
        return True
    return False


def _is_int_ptr_or_fp(ty: Type) -> bool:
    tid = ty.type_id
    return tid is _INTEGER or tid is _POINTER or ty.is_floating_point


# =====================================================================================
# alloca and swifterror
# =====================================================================================


def check_swifterror_value(c: Checker, value: Value) -> None:
    """A ``swifterror`` alloca or parameter is only loaded, stored to (as the
    address) or passed as a ``swifterror`` call argument (LLVM
    ``verifySwiftErrorValue``). The users are visited in use-list order; a
    finding about one call does not stop the walk, as in LLVM."""
    for use in value.uses:
        user = use.user
        op = user.opcode if user.is_instruction else ""  # type: ignore[attr-defined]
        if op != "load" and op != "store" and op != "call" and op != "invoke":
            c.fail("swifterror value can only be loaded and stored from, or as a swifterror argument!", value, user)
            return
        if op == "store":
            if user.num_operands < 2 or user.get_operand(1) is not value:
                c.fail("swifterror value should be the second operand when used by stores", value, user)
                return
        elif op == "call" or op == "invoke":
            _check_swifterror_call(c, user, value)  # type: ignore[arg-type]


def _check_swifterror_call(c: Checker, call: CallBase, value: Value) -> None:
    """Each argument that is ``value`` carries ``swifterror`` (LLVM ``verifySwiftErrorCall``)."""
    for i in range(call.arg_size):
        if call.get_arg(i) is value and not call.param_has_attr(i, AttrKind.SWIFT_ERROR):
            c.fail("swifterror value when used in a callsite should be marked with swifterror attribute", value, call)
            return


def verify_alloca(c: Checker, inst: AllocaInst) -> None:
    """A sized allocated type, an integer count, a supported alignment; a
    ``swifterror`` alloca holds one pointer and is used as such."""
    if not is_sized(c, inst.allocated_type):
        c.fail("Cannot allocate unsized type", inst)
        return
    uses = inst.operand_uses
    if len(uses) != 1 or uses[0].value.type.type_id is not _INTEGER:
        c.fail("Alloca array size must have integer type", inst)
        return
    if inst.alignment > MAX_ALIGNMENT:
        c.fail("huge alignment values are unsupported", inst)
        return
    if inst.swifterror:
        if inst.allocated_type.type_id is not _POINTER:
            c.fail("swifterror alloca must have pointer type", inst)
            return
        if inst.is_array_allocation:
            c.fail("swifterror alloca must not be array allocation", inst)
            return
        check_swifterror_value(c, inst)


# =====================================================================================
# load / store
# =====================================================================================


def verify_load(c: Checker, inst: LoadInst) -> None:
    """The address is a pointer; the loaded type is sized, and scalar and
    power-of-two sized when atomic; release orderings and a sync scope without
    atomicity are refused."""
    uses = inst.operand_uses
    if len(uses) != 1 or uses[0].value.type.type_id is not _POINTER:
        c.fail("Load operand must be a pointer.", inst)
        return
    _check_access(c, inst, inst.type, "load", "Load", "loading", _RELEASE, "Release")


def verify_store(c: Checker, inst: StoreInst) -> None:
    """The address is a pointer; the stored value is sized, and scalar and
    power-of-two sized when atomic; acquire orderings and a sync scope without
    atomicity are refused."""
    uses = inst.operand_uses
    if len(uses) != 2 or uses[1].value.type.type_id is not _POINTER:
        c.fail("Store operand must be a pointer.", inst)
        return
    _check_access(c, inst, uses[0].value.type, "store", "Store", "storing", _ACQUIRE, "Acquire")


def _check_access(
    c: Checker,
    inst: LoadInst | StoreInst,
    ty: Type,
    kind: str,
    title: str,
    verb: str,
    banned: AtomicOrdering,
    banned_name: str,
) -> None:
    """What loads and stores share once the address is known to be a pointer:
    alignment, a sized type, and the atomic rules (``banned`` or acq_rel
    orderings refused) with the instruction's own words in LLVM's messages."""
    if inst.alignment > MAX_ALIGNMENT:
        c.fail("huge alignment values are unsupported", inst)
        return
    if not is_sized(c, ty):
        c.fail(verb + " unsized types is not allowed", inst)
        return
    ordering = inst.ordering
    if ordering is not _NOT_ATOMIC:
        if ordering is banned or ordering is _ACQ_REL:
            c.fail(title + " cannot have " + banned_name + " ordering", inst)
            return
        if not _is_int_ptr_or_fp(ty):
            c.fail("atomic " + kind + " operand must have integer, pointer, or floating point type!", ty, inst)
            return
        _check_atomic_size(c, ty, inst)
    elif inst.sync_scope:
        c.fail("Non-atomic " + kind + " cannot have SynchronizationScope specified", inst)


# =====================================================================================
# getelementptr
# =====================================================================================


def _element_count(ty: Type) -> tuple[int, bool] | None:
    if isinstance(ty, VectorType):
        return ty.count, ty.scalable
    return None


def verify_gep(c: Checker, inst: GetElementPtrInst) -> None:
    """LLVM ``visitGetElementPtrInst``: base, source type, indices, result type,
    vector widths and address space, in that order."""
    uses = inst.operand_uses
    if not uses:
        c.fail("GEP base pointer is not a vector or a vector of pointers", inst)
        return
    base_ty = uses[0].value.type
    base_ptr = base_ty.scalar_type
    if not isinstance(base_ptr, PointerType):
        c.fail("GEP base pointer is not a vector or a vector of pointers", inst)
        return
    source = inst.source_element_type
    if not is_sized(c, source):
        c.fail("GEP into unsized type!", inst)
        return
    if isinstance(source, StructType) and _contains_scalable_vector(source):
        # LLVM's message lacks the space between "vector" and "type".
        c.fail("getelementptr cannot target structure that contains scalable vectortype", inst)
        return
    indices = [uses[i].value for i in range(1, len(uses))]
    for idx in indices:
        idx_ty = idx.type
        if idx_ty.type_id is not _INTEGER and not idx_ty.is_int_or_int_vector:
            c.fail("GEP indexes must be integers", inst)
            return
    elem = get_indexed_type(source, indices)
    if elem is None:
        c.fail("Invalid indices for GEP pointer type!", inst)
        return
    result_ty = inst.type
    result_ptr = result_ty.scalar_type
    if not isinstance(result_ptr, PointerType) or inst.result_element_type is not elem:
        c.fail("GEP is not of right type for indices!", inst, elem)
        return
    width = _element_count(result_ty)
    if width is not None:
        if base_ty.is_vector and _element_count(base_ty) != width:
            c.fail("Vector GEP result width doesn't match operand's", inst)
            return
        for idx in indices:
            idx_width = _element_count(idx.type)
            if idx_width is not None and idx_width != width:
                c.fail("Invalid GEP index vector width", inst)
                return
    if base_ptr.address_space != result_ptr.address_space:
        c.fail("GEP address space doesn't match type", inst)


# =====================================================================================
# fence / cmpxchg / atomicrmw
# =====================================================================================


def verify_fence(c: Checker, inst: FenceInst) -> None:
    """A fence orders with acquire, release, acq_rel or seq_cst."""
    if inst.ordering not in _FENCE_ORDERINGS:
        c.fail("fence instructions may only have acquire, release, acq_rel, or seq_cst ordering.", inst)


def verify_cmpxchg(c: Checker, inst: AtomicCmpXchgInst) -> None:
    """Atomic orderings (API-built IR only, see the module docstring), then
    LLVM 19's checks: an integer or pointer operand of a power-of-two size."""
    success = inst.success_ordering
    failure = inst.failure_ordering
    if success is _NOT_ATOMIC or failure is _NOT_ATOMIC:
        c.fail("cmpxchg instructions must be atomic.", inst)
        return
    if success is _UNORDERED or failure is _UNORDERED:
        c.fail("cmpxchg instructions cannot be unordered.", inst)
        return
    if failure is _RELEASE or failure is _ACQ_REL:
        c.fail("cmpxchg failure ordering cannot include release semantics", inst)
        return
    uses = inst.operand_uses
    if len(uses) != 3:
        return
    ty = uses[1].value.type
    tid = ty.type_id
    if tid is not _INTEGER and tid is not _POINTER:
        c.fail("cmpxchg operand must have integer or pointer type", ty, inst)
        return
    _check_atomic_size(c, ty, inst)


def verify_atomicrmw(c: Checker, inst: AtomicRMWInst) -> None:
    """Atomic, not unordered; the operand type the operation needs (integer;
    floating point or a fixed vector of it; for xchg also a pointer), of a
    power-of-two size."""
    ordering = inst.ordering
    if ordering is _NOT_ATOMIC:
        # API-built IR only (LLVM 19 asserts this when building the instruction).
        c.fail("atomicrmw instructions must be atomic.", inst)
        return
    if ordering is _UNORDERED:
        c.fail("atomicrmw instructions cannot be unordered.", inst)
        return
    uses = inst.operand_uses
    if len(uses) != 2:
        return
    op = inst.operation
    if not isinstance(op, AtomicRMWBinOp):
        c.fail("Invalid binary operation!", inst)
        return
    ty = uses[1].value.type
    tid = ty.type_id
    if op is AtomicRMWBinOp.XCHG:
        if not (tid is _INTEGER or tid is _POINTER or ty.is_floating_point):
            c.fail("atomicrmw xchg operand must have integer or floating point type!", inst, ty)
            return
    elif op.is_fp_operation:
        if not ty.is_fp_or_fp_vector or tid is _SCALABLE_VECTOR:
            c.fail(
                "atomicrmw %s operand must have floating-point or fixed vector of floating-point type!" % op.keyword,
                inst,
                ty,
            )
            return
    elif tid is not _INTEGER:
        c.fail("atomicrmw %s operand must have integer type!" % op.keyword, inst, ty)
        return
    _check_atomic_size(c, ty, inst)


INSTRUCTION_RULES: RuleTable = {
    "alloca": verify_alloca,
    "load": verify_load,
    "store": verify_store,
    "getelementptr": verify_gep,
    "fence": verify_fence,
    "cmpxchg": verify_cmpxchg,
    "atomicrmw": verify_atomicrmw,
}

__all__ = [
    "INSTRUCTION_RULES",
    "check_swifterror_value",
    "is_sized",
    "verify_alloca",
    "verify_atomicrmw",
    "verify_cmpxchg",
    "verify_fence",
    "verify_gep",
    "verify_load",
    "verify_store",
]
