"""Facts the attribute rules need about types and attribute values.

What: :func:`incompatible_kinds` is LLVM 19's ``AttributeFuncs::typeIncompatible``
(which attribute kinds a value of a type may not carry: ``nonnull`` only on
pointers, ``signext`` only on integers, ``nofpclass`` only on floating-point
values, ``noundef`` not on ``void``...), checked kind by kind against opt-19.
:func:`can_losslessly_bitcast` (the ``returned`` rule) and
:func:`primitive_size_in_bits` are re-exported from ``llvmpy_mid.ir.type_queries``;
:func:`is_unsigned_int` is
``StringRef::getAsInteger(10, unsigned)`` (the ``"patchable-function-entry"``
family), :func:`is_x86_triple` is ``Triple::isX86`` and
:func:`is_valid_vfabi_variant` is ``VFABI::tryDemangleForVFABI`` reduced to
its yes/no answer (the ``"vector-function-abi-variant"`` rule).

How: the incompatible sets depend only on a few yes/no facts about a type,
so they are built once per combination of those facts and shared. The VFABI
reader walks the mangled name with an index, as LLVM's demangler consumes
its string.

What it does not do: report anything (``attribute_rules`` does), or know
where an attribute may be placed (``llvmpy_mid.ir.attribute_kinds`` does).
"""

from __future__ import annotations

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.type_queries import can_losslessly_bitcast, primitive_size_in_bits
from llvmpy_mid.ir.types import ArrayType, IntegerType, Type, TypeID

# --- AttributeFuncs::typeIncompatible ---------------------------------------------------------

# Each group split by LLVM's AttributeSafetyKind: safe to drop from a call when the type changes,
# or not (the verifier rejects both kinds alike).
_INT_ONLY_SAFE = (AttrKind.ALLOC_ALIGN,)
_INT_ONLY_UNSAFE = (AttrKind.S_EXT, AttrKind.Z_EXT)
_INT_VEC_ONLY_SAFE = (AttrKind.RANGE,)
_PTR_ONLY_SAFE = (
    AttrKind.NO_ALIAS,
    AttrKind.NO_CAPTURE,
    AttrKind.NON_NULL,
    AttrKind.READ_NONE,
    AttrKind.READ_ONLY,
    AttrKind.DEREFERENCEABLE,
    AttrKind.DEREFERENCEABLE_OR_NULL,
    AttrKind.WRITABLE,
    AttrKind.DEAD_ON_UNWIND,
    AttrKind.INITIALIZES,
)
_PTR_ONLY_UNSAFE = (
    AttrKind.NEST,
    AttrKind.SWIFT_ERROR,
    AttrKind.PREALLOCATED,
    AttrKind.IN_ALLOCA,
    AttrKind.BY_VAL,
    AttrKind.STRUCT_RET,
    AttrKind.BY_REF,
    AttrKind.ELEMENT_TYPE,
    AttrKind.ALLOCATED_POINTER,
)
_INTEGER_ONLY = frozenset(_INT_ONLY_SAFE + _INT_ONLY_UNSAFE)
_INT_OR_INT_VECTOR_ONLY = frozenset(_INT_VEC_ONLY_SAFE)
_POINTER_ONLY = frozenset(_PTR_ONLY_SAFE + _PTR_ONLY_UNSAFE)
_PTR_OR_PTR_VECTOR_ONLY = frozenset((AttrKind.ALIGNMENT,))
_FP_ONLY = frozenset((AttrKind.NO_FP_CLASS,))
_NOT_ON_VOID = frozenset((AttrKind.NO_UNDEF,))

SAFE_TO_DROP = 1
UNSAFE_TO_DROP = 2
ALL_KINDS = 3


def type_incompatible(ty: Type, ask: int = ALL_KINDS) -> tuple[AttrKind, ...]:
    """``AttributeFuncs::typeIncompatible(Ty, ASK)``: the attribute kinds a value of type ``ty``
    may not carry; ``ask`` selects those safe to drop (1), unsafe to drop (2) or both (3)."""
    out: list[AttrKind] = []
    safe = bool(ask & SAFE_TO_DROP)
    unsafe = bool(ask & UNSAFE_TO_DROP)
    tid = ty.type_id
    if tid is not TypeID.INTEGER:
        if safe:
            out.extend(_INT_ONLY_SAFE)
        if unsafe:
            out.extend(_INT_ONLY_UNSAFE)
    if ty.scalar_type.type_id is not TypeID.INTEGER and safe:
        out.extend(_INT_VEC_ONLY_SAFE)
    if tid is not TypeID.POINTER:
        if safe:
            out.extend(_PTR_ONLY_SAFE)
        if unsafe:
            out.extend(_PTR_ONLY_UNSAFE)
    if ty.scalar_type.type_id is not TypeID.POINTER and safe:
        out.append(AttrKind.ALIGNMENT)
    if safe:
        if not is_nofpclass_compatible(ty):
            out.append(AttrKind.NO_FP_CLASS)
        if tid is TypeID.VOID:
            out.append(AttrKind.NO_UNDEF)
    return tuple(out)


_INCOMPATIBLE_CACHE: dict[tuple[bool, bool, bool, bool, bool, bool], frozenset[AttrKind]] = {}

_FP_IDS = frozenset(
    (TypeID.HALF, TypeID.BFLOAT, TypeID.FLOAT, TypeID.DOUBLE, TypeID.X86_FP80, TypeID.FP128, TypeID.PPC_FP128)
)


def is_nofpclass_compatible(ty: Type) -> bool:
    """A floating-point type, a vector of them, or (nested) arrays of either
    (LLVM ``AttributeFuncs::isNoFPClassCompatibleType``)."""
    while isinstance(ty, ArrayType):
        ty = ty.element_type
    return ty.scalar_type.type_id in _FP_IDS


def incompatible_kinds(ty: Type) -> frozenset[AttrKind]:
    """The attribute kinds a parameter or return value of type ``ty`` may not have."""
    tid = ty.type_id
    scalar_tid = ty.scalar_type.type_id
    key = (
        tid is TypeID.INTEGER,
        scalar_tid is TypeID.INTEGER,
        tid is TypeID.POINTER,
        scalar_tid is TypeID.POINTER,
        is_nofpclass_compatible(ty),
        tid is TypeID.VOID,
    )
    found = _INCOMPATIBLE_CACHE.get(key)
    if found is None:
        is_int, is_int_vec, is_ptr, is_ptr_vec, fp_ok, is_void = key
        kinds: set[AttrKind] = set()
        if not is_int:
            kinds |= _INTEGER_ONLY
        if not is_int_vec:
            kinds |= _INT_OR_INT_VECTOR_ONLY
        if not is_ptr:
            kinds |= _POINTER_ONLY
        if not is_ptr_vec:
            kinds |= _PTR_OR_PTR_VECTOR_ONLY
        if not fp_ok:
            kinds |= _FP_ONLY
        if is_void:
            kinds |= _NOT_ON_VOID
        found = _INCOMPATIBLE_CACHE[key] = frozenset(kinds)
    return found


# --- strings ----------------------------------------------------------------------------------

_U32_MAX = 0xFFFFFFFF
_U64_MAX = 0xFFFFFFFFFFFFFFFF
_I64_MAX = 0x7FFFFFFFFFFFFFFF


def _consume_digits(text: str, pos: int) -> tuple[bool, int, int]:
    """LLVM's ``consumeUnsignedInteger`` in base 10 at ``pos``: (failed, value, new pos).

    Fails without consuming when there is no digit or the value passes 64 bits."""
    end = pos
    n = len(text)
    value = 0
    while end < n and "0" <= text[end] <= "9":
        value = value * 10 + (ord(text[end]) - 48)
        if value > _U64_MAX:
            return True, 0, pos
        end += 1
    if end == pos:
        return True, 0, pos
    return False, value, end


def is_unsigned_int(text: str) -> bool:
    """Whether the whole of ``text`` is a base-10 number that fits in 32 bits
    (LLVM ``StringRef::getAsInteger(10, unsigned&)`` succeeding)."""
    failed, value, end = _consume_digits(text, 0)
    return not failed and end == len(text) and value <= _U32_MAX


def _consume_unsigned(text: str, pos: int, max_value: int) -> tuple[bool, int, int]:
    """``StringRef::consumeInteger`` into an unsigned type: a value that does not fit
    fails but the digits stay consumed, as in LLVM."""
    failed, value, end = _consume_digits(text, pos)
    if failed:
        return True, 0, pos
    return value > max_value, value, end


def _consume_signed(text: str, pos: int, bits: int) -> tuple[bool, int, int]:
    """``StringRef::consumeInteger`` into a signed ``bits``-bit integer."""
    lo = -(1 << (bits - 1))
    hi = (1 << (bits - 1)) - 1
    if not text.startswith("-", pos):
        failed, value, end = _consume_digits(text, pos)
        if failed:
            return True, 0, pos
        if value > _I64_MAX:
            return True, 0, end
        return not lo <= value <= hi, value, end
    failed, value, end = _consume_digits(text, pos + 1)
    if failed or value > _I64_MAX + 1:
        return True, 0, pos
    return not lo <= -value <= hi, -value, end


def is_x86_triple(triple: str) -> bool:
    """Whether a target triple names a 32- or 64-bit x86 (LLVM ``Triple::isX86``)."""
    arch = triple.split("-", 1)[0]
    if arch in ("amd64", "x86_64", "x86_64h"):
        return True
    return len(arch) == 4 and arch[0] == "i" and arch[2:] == "86" and "3" <= arch[1] <= "9"


# --- VFABI::tryDemangleForVFABI -----------------------------------------------------------------

_VFABI_ISA_SVE = "s"
_VFABI_ISA_LLVM = "_LLVM_"
_LINEAR_RUNTIME_TOKENS = ("ls", "Rs", "Ls", "Us")
_LINEAR_COMPILE_TIME_TOKENS = ("l", "R", "L", "U")


def _vfabi_parameter(name: str, pos: int) -> tuple[str, int]:
    """One ``<parameter>`` token: ("ok" | "none" | "error", new pos); the kind is
    ``v`` for a vector parameter, anything else for uniform or linear ones."""
    if name.startswith("v", pos) or name.startswith("u", pos):
        return "ok", pos + 1
    for token in _LINEAR_RUNTIME_TOKENS:
        if name.startswith(token, pos):
            failed, _, end = _consume_signed(name, pos + len(token), 32)
            return ("error", end) if failed else ("ok", end)
    for token in _LINEAR_COMPILE_TIME_TOKENS:
        if name.startswith(token, pos):
            pos += len(token)
            if name.startswith("n", pos):
                pos += 1
            _, _, end = _consume_signed(name, pos, 32)
            return "ok", end
    return "none", pos


def _vfabi_align(name: str, pos: int) -> tuple[str, int]:
    """The optional ``a<power of two>`` after a parameter."""
    if not name.startswith("a", pos):
        return "none", pos
    failed, value, end = _consume_unsigned(name, pos + 1, _U64_MAX)
    if failed or value == 0 or value & (value - 1):
        return "error", end
    return "ok", end


def _sve_lanes(ty: Type) -> int | None:
    """Lanes of a scalable SVE vector of ``ty`` elements (LLVM's getElementCountForTy)."""
    tid = ty.type_id
    if tid is TypeID.INTEGER and isinstance(ty, IntegerType):
        return {64: 2, 32: 4, 16: 8, 8: 16}.get(ty.width)
    if tid is TypeID.DOUBLE or tid is TypeID.POINTER:
        return 2
    if tid is TypeID.FLOAT:
        return 4
    if tid is TypeID.HALF or tid is TypeID.BFLOAT:
        return 8
    return None


def is_valid_vfabi_variant(name: str, params: tuple[Type, ...], return_type: Type) -> bool:
    """Whether ``name`` demangles as a Vector Function ABI variant of a function
    with these parameter and return types (LLVM 19 ``VFABI::tryDemangleForVFABI``)."""
    if not name.startswith("_ZGV"):
        return False
    pos = 4
    if pos >= len(name):
        return False
    if name.startswith(_VFABI_ISA_LLVM, pos):
        isa = _VFABI_ISA_LLVM
        pos += len(_VFABI_ISA_LLVM)
    else:
        isa = name[pos]
        pos += 1
    if not (name.startswith("M", pos) or name.startswith("N", pos)):
        return False
    pos += 1
    scalable = False
    if name.startswith("x", pos):
        if isa != _VFABI_ISA_SVE:
            return False
        scalable = True
        pos += 1
    else:
        failed, vlen, pos = _consume_unsigned(name, pos, _U32_MAX)
        if failed or vlen == 0:
            return False
    vector_params: list[int] = []
    count = 0
    while True:
        found, end = _vfabi_parameter(name, pos)
        if found == "error":
            return False
        if found == "none":
            break
        if name[pos] == "v":
            vector_params.append(count)
        pos = end
        aligned, pos = _vfabi_align(name, pos)
        if aligned == "error":
            return False
        count += 1
    if count == 0 or count != len(params):
        return False
    if scalable:
        lanes: list[int | None] = [_sve_lanes(params[i]) for i in vector_params]
        if return_type.type_id is not TypeID.VOID:
            lanes.append(_sve_lanes(return_type))
        if not lanes or any(n is None for n in lanes):
            return False
    if not name.startswith("_", pos):
        return False
    pos += 1
    paren = name.find("(", pos)
    scalar_name = name[pos:] if paren < 0 else name[pos:paren]
    if not scalar_name:
        return False
    rest = name[pos + len(scalar_name):]
    vector_name = name
    if rest.startswith("("):
        if not rest.endswith(")") or len(rest) < 2:
            return False
        vector_name = rest[1:-1]
        if not vector_name:
            return False
    if isa == _VFABI_ISA_LLVM and vector_name == name:
        return False
    return True


__all__ = [
    "ALL_KINDS",
    "SAFE_TO_DROP",
    "UNSAFE_TO_DROP",
    "can_losslessly_bitcast",
    "incompatible_kinds",
    "is_nofpclass_compatible",
    "is_unsigned_int",
    "is_valid_vfabi_variant",
    "is_x86_triple",
    "primitive_size_in_bits",
    "type_incompatible",
]
