"""LLVM's pointer-cast stripping (IR/Value.cpp ``stripPointerCasts`` /
``stripInBoundsOffsets`` / ``stripAndAccumulateConstantOffsets``, IR/Operator.cpp
``GEPOperator::accumulateConstantOffset``) and ``CallBase::getReturnedArgOperand``: the one copy,
for the verifier, the analyses and the transforms alike."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, cast

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.global_value import GlobalAlias
from llvmpy_mid.ir.types import TypeID
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.instructions.calls import CallBase
    from llvmpy_mid.ir.types import ArrayType, IntegerType, StructType, Type

__all__ = [
    "accumulate_constant_offset",
    "get_pointer_offset_from",
    "get_returned_arg_operand",
    "strip_and_accumulate_constant_offsets",
    "strip_pointer_casts",
]

_POINTER = TypeID.POINTER
_INTEGER = TypeID.INTEGER
_STRUCT = TypeID.STRUCT
_ARRAY = TypeID.ARRAY
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR


def strip_pointer_casts(v: Value, inbounds: bool = False, for_alias_analysis: bool = False) -> Value:
    """LLVM's ``stripPointerCasts`` (``inbounds=False``: through bitcasts,
    address-space casts and all-zero GEPs) or ``stripInBoundsOffsets``
    (``inbounds=True``: through any inbounds GEP), also through a call's
    ``returned`` argument; instructions and constant expressions alike. A
    value that is not a pointer is returned as it is. ``for_alias_analysis``
    (with ``inbounds=False``) is LLVM's ``PSK_ForAliasAnalysis`` mode: also through
    one-input phis and ``launder``/``strip.invariant.group``."""
    if v.type.type_id is not _POINTER:
        return v
    seen: set[int] | None = None
    while True:
        if not (v.is_instruction or getattr(v, "is_constant_expr", False)):
            return v
        op = v.opcode  # type: ignore[attr-defined]
        ops = v._operands  # type: ignore[attr-defined]
        if op == "getelementptr":
            if not ops:
                return v
            if inbounds:
                flags = v._gep_flags if v.is_instruction else v.flags  # type: ignore[attr-defined]
                if not flags & 1:
                    return v
            else:
                for i in range(1, len(ops)):
                    idx = ops[i].value
                    if not isinstance(idx, ConstantInt) or idx.value != 0:
                        return v
            nxt = ops[0].value
        elif op == "bitcast" or op == "addrspacecast":
            if not ops:
                return v
            nxt = ops[0].value
            if nxt.type.type_id is not _POINTER:
                return v
        elif op == "phi" and for_alias_analysis:
            if len(ops) != 1:
                return v
            nxt = ops[0].value
        elif v.is_instruction and v.is_call_base:  # type: ignore[attr-defined]
            returned = get_returned_arg_operand(v)  # type: ignore[arg-type]
            if returned is None:
                if not for_alias_analysis:
                    return v
                fn = v.called_function  # type: ignore[attr-defined]
                if fn is None or not fn.intrinsic_id or not fn.name.startswith(_LAUNDER_OR_STRIP_IDS):
                    return v
                returned = ops[0].value
            nxt = returned
        else:
            return v
        if seen is None:
            seen = {id(v)}
        if id(nxt) in seen:
            return v
        seen.add(id(nxt))
        v = nxt


def get_returned_arg_operand(call: CallBase) -> Value | None:
    """The argument a call returns (LLVM ``getReturnedArgOperand``)."""
    idx = call.attributes.param_with_attr(AttrKind.RETURNED)
    if idx is None:
        fn = call.called_function
        if fn is not None:
            idx = fn.attributes.param_with_attr(AttrKind.RETURNED)
    if idx is None or idx >= call.num_args:
        return None
    return call._operands[idx].value


def _fits_signed(value: int, width: int) -> bool:
    half = 1 << (width - 1)
    return -half <= value < half


def _to_signed(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def accumulate_constant_offset(
    dl: DataLayout,
    gep: Value,
    width: int,
    external_analysis: Callable[[Value], int | None] | None = None,
) -> int | None:
    """The byte offset of a GEP (instruction or constant expression) wrapped to
    ``width`` bits, or None when an index is not a constant integer (LLVM
    ``GEPOperator::accumulateConstantOffset``). ``external_analysis`` may give a
    constant for a non-constant array or vector index; once it is used, a signed
    overflow of ``width`` bits gives None."""
    ops = gep._operands  # type: ignore[attr-defined]
    ty: Type = gep.source_element_type  # type: ignore[attr-defined]
    offset = 0
    used_external = False
    for i in range(1, len(ops)):
        idx = ops[i].value
        value: int | None = None
        if idx.type.type_id is _INTEGER and idx.is_constant:
            raw = getattr(idx, "value", None)
            if isinstance(raw, int):
                value = _to_signed(raw, cast("IntegerType", idx.type).width)
        if i == 1:
            cur = ty
            stride_ty: Type | None = ty
        else:
            tid = ty.type_id
            if tid is _STRUCT:
                st = cast("StructType", ty)
                if value is None or not 0 <= value < len(st.elements):
                    return None
                offset += dl.struct_layout(st).element_offset(value)
                if used_external and not _fits_signed(offset, width):
                    return None
                ty = st.elements[value]
                continue
            if tid is _ARRAY or tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR:
                cur = cast("ArrayType", ty).element_type
                stride_ty = cur
            else:
                return None
        if value is None:
            if external_analysis is None:
                return None
            value = external_analysis(idx)
            if value is None:
                return None
            used_external = True
        if value:
            assert stride_ty is not None
            if dl.is_scalable(stride_ty) or not stride_ty.is_sized:
                return None
            step = _to_signed(value, width) * dl.type_alloc_size(stride_ty)
            if used_external and not _fits_signed(step, width):
                return None
            offset += step
            if used_external and not _fits_signed(offset, width):
                return None
        if i > 1:
            ty = cur
    return offset & ((1 << width) - 1)


_LAUNDER_OR_STRIP = ("llvm.launder.invariant.group", "llvm.strip.invariant.group")


def strip_and_accumulate_constant_offsets(
    v: Value,
    dl: DataLayout,
    allow_non_inbounds: bool,
    allow_invariant_group: bool = False,
    external_analysis: Callable[[Value], int | None] | None = None,
) -> tuple[Value, int]:
    """``(base, offset)``: ``v`` is ``base`` plus ``offset`` bytes, a signed value
    in the index width of ``v``'s type (LLVM ``Value::stripAndAccumulateConstantOffsets``):
    through GEPs of constant offset (only inbounds ones unless
    ``allow_non_inbounds``), bitcasts, address-space casts, non-interposable
    aliases, calls with a ``returned`` argument, and with ``allow_invariant_group``
    ``llvm.launder/strip.invariant.group``. ``external_analysis`` may give a
    constant for a non-constant GEP index. A value that is not a pointer (or
    vector of pointers) is returned as it is, at offset 0."""
    if not v.type.is_ptr_or_ptr_vector:
        return v, 0
    bits = dl.index_type_size_in_bits(v.type)
    offset = 0
    seen = {id(v)}
    while True:
        is_op = v.is_instruction or getattr(v, "is_constant_expr", False)
        op = v.opcode if is_op else ""  # type: ignore[attr-defined]
        if op == "getelementptr":
            if not allow_non_inbounds:
                flags = v._gep_flags if v.is_instruction else v.flags  # type: ignore[attr-defined]
                if not flags & 1:
                    break
            gep_bits = dl.index_type_size_in_bits(v.type)
            g = accumulate_constant_offset(dl, v, gep_bits, external_analysis)
            if g is None:
                break
            g = _to_signed(g, gep_bits)
            if not _fits_signed(g, bits):
                break
            if external_analysis is None:
                offset += g
            else:
                if not _fits_signed(offset + g, bits):
                    break
                offset += g
            nv: Value = v._operands[0].value  # type: ignore[attr-defined]
        elif op == "bitcast" or op == "addrspacecast":
            nv = v._operands[0].value  # type: ignore[attr-defined]
            if not nv.type.is_ptr_or_ptr_vector:
                break
        elif isinstance(v, GlobalAlias):
            aliasee = v.aliasee
            nv = v if v.is_interposable or aliasee is None else aliasee
        elif v.is_instruction and v.is_call_base:  # type: ignore[attr-defined]
            rv = get_returned_arg_operand(v)  # type: ignore[arg-type]
            nv = v if rv is None else rv
            if allow_invariant_group and getattr(v, "intrinsic_base", "") in _LAUNDER_OR_STRIP:
                nv = v._operands[0].value  # type: ignore[attr-defined]
        else:
            break
        if id(nv) in seen:
            v = nv
            break
        seen.add(id(nv))
        v = nv
    return v, _to_signed(offset, bits)


def _offset_from_index(gep: Value, idx: int, dl: DataLayout) -> int | None:
    """The byte offset the indices of ``gep`` from operand ``idx`` on add, all constant
    integers (LLVM's ``getOffsetFromIndex`` in Value.cpp)."""
    ops = gep._operands  # type: ignore[attr-defined]
    src: Type = gep.source_element_type  # type: ignore[attr-defined]
    cur: Type | None = None  # the type operand i indexes into (None: operand 1 strides over src)
    offset = 0
    for i in range(1, len(ops)):
        if i == 2:
            cur = src
        elif i > 2:
            assert cur is not None
            if cur.type_id is _STRUCT:
                prev = ops[i - 1].value
                assert isinstance(prev, ConstantInt)
                cur = cast("StructType", cur).elements[prev.value]
            else:
                cur = cast("ArrayType", cur).element_type
        if i < idx:
            continue
        c = ops[i].value
        if not isinstance(c, ConstantInt):
            return None
        if c.value == 0:
            continue
        if cur is not None and cur.type_id is _STRUCT:
            offset += dl.struct_layout(cast("StructType", cur)).element_offset(c.value)
            continue
        stride_ty = src if cur is None else cast("ArrayType", cur).element_type
        if dl.is_scalable(stride_ty):
            return None
        offset += dl.type_alloc_size(stride_ty) * _to_signed(c.value, c.type.width)
    return offset


def get_pointer_offset_from(ptr: Value, other: Value, dl: DataLayout) -> int | None:
    """How many bytes ``ptr`` lies after ``other`` when that is a known constant (LLVM
    ``Value::getPointerOffsetFrom``): both stripped of constant offsets (any GEP), then
    the same base, or GEPs of one base and source type whose indices agree up to a point
    and are constant after it."""
    base1, off1 = strip_and_accumulate_constant_offsets(other, dl, True)
    base2, off2 = strip_and_accumulate_constant_offsets(ptr, dl, True)
    if base1 is base2:
        return off2 - off1

    def is_gep(v: Value) -> bool:
        return (v.is_instruction or getattr(v, "is_constant_expr", False)) and v.opcode == "getelementptr"  # type: ignore[attr-defined]

    if not is_gep(base1) or not is_gep(base2):
        return None
    ops1 = base1._operands  # type: ignore[attr-defined]
    ops2 = base2._operands  # type: ignore[attr-defined]
    if ops1[0].value is not ops2[0].value or base1.source_element_type is not base2.source_element_type:  # type: ignore[attr-defined]
        return None
    idx = 1
    while idx < len(ops1) and idx < len(ops2) and ops1[idx].value is ops2[idx].value:
        idx += 1
    i1 = _offset_from_index(base1, idx, dl)
    i2 = _offset_from_index(base2, idx, dl)
    if i1 is None or i2 is None:
        return None
    return i2 - i1 + off2 - off1


_LAUNDER_OR_STRIP_IDS = ("llvm.launder.invariant.group", "llvm.strip.invariant.group")


def strip_pointer_casts_for_alias_analysis(v: Value) -> Value:
    """LLVM ``Value::stripPointerCastsForAliasAnalysis``: through bitcasts, address-space
    casts, all-zero GEPs, one-input phis, a call's ``returned`` argument and
    ``launder``/``strip.invariant.group``; instructions and constant expressions alike."""
    return strip_pointer_casts(v, False, True)
