"""Reading constant strings and arrays behind pointers (LLVM 19.1.7
``lib/Analysis/ValueTracking.cpp``: ``getConstantDataArrayInfo``, ``getConstantStringInfo``,
``GetStringLength``, ``isGEPBasedOnPointerToString``; ``ReadByteArrayFromGlobal`` of
``ConstantFolding.cpp``).

What: :func:`get_constant_data_array_info` finds the constant global a pointer points into and
returns the elements from that point on (:class:`ConstantDataArraySlice`);
:func:`get_constant_string_info` gives them as ``bytes`` (optionally up to the first nul);
:func:`get_string_length` is ``strlen + 1`` of the string a pointer points to, through
selects and phis (0 when unknown). The library-call simplifier and the string folds of other
passes use them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import ConstantDataArray
from llvmpy_mid.ir.types import ArrayType, IntegerType

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.value import Value

_ALL = (1 << 64) - 1


class ConstantDataArraySlice:
    """``ConstantDataArraySlice``: ``length`` elements of ``raw`` from ``offset``; ``raw`` is
    None for a zero initializer (every element is 0)."""

    __slots__ = ("raw", "offset", "length")

    def __init__(self, raw: tuple[int, ...] | None, offset: int, length: int) -> None:
        self.raw = raw
        self.offset = offset
        self.length = length

    def element(self, i: int) -> int:
        """The element at ``i`` from the slice's start (``Slice[I]``)."""
        return 0 if self.raw is None else self.raw[self.offset + i]


def is_gep_based_on_pointer_to_string(gep: Value, char_size: int) -> bool:
    """``isGEPBasedOnPointerToString``: ``gep [N x iC], p, 0, idx``."""
    from llvmpy_mid.ir.constants import ConstantInt

    ops = gep.operands  # type: ignore[attr-defined]
    if len(ops) != 3:
        return False
    st = getattr(gep, "source_element_type", None)
    if not isinstance(st, ArrayType) or not isinstance(st.element_type, IntegerType) or st.element_type.width != char_size:
        return False
    first = ops[1]
    return isinstance(first, ConstantInt) and first.value == 0


def _data_layout(v: Value) -> DataLayout | None:
    m = getattr(v, "parent", None)
    while m is not None and not hasattr(m, "data_layout"):
        m = getattr(m, "parent", None)
    return getattr(m, "data_layout", None)


def get_constant_data_array_info(v: Value, element_size: int, offset: int = 0) -> ConstantDataArraySlice | None:
    """``getConstantDataArrayInfo``: the elements of ``element_size`` bits that ``v`` points
    to in a constant global with a definitive initializer; ``offset`` more elements in."""
    from llvmpy_mid.analysis.constant_folding_memory import _has_definitive_initializer, read_data_from_global
    from llvmpy_mid.analysis.underlying_objects import get_underlying_object
    from llvmpy_mid.ir.global_value import GlobalVariable
    from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets

    esize = element_size // 8
    gv = get_underlying_object(v)
    if not isinstance(gv, GlobalVariable) or not gv.is_constant_global or not _has_definitive_initializer(gv):
        return None
    dl = _data_layout(gv)
    if dl is None:
        return None
    base, off = strip_and_accumulate_constant_offsets(v, dl, True)
    if base is not gv:
        return None
    bits = dl.index_type_size_in_bits(v.type)
    start = off & ((1 << bits) - 1)
    if start >= _ALL:
        return None
    if start % esize:
        return None
    offset += start // esize
    init = gv.initializer
    assert init is not None
    if init.is_null_value:
        size = dl.type_store_size(gv.value_type)
        length = size // esize
        return ConstantDataArraySlice(None, 0, 0 if length < offset else length - offset)
    raw: tuple[int, ...] | None = None
    if isinstance(init, ConstantDataArray):
        et = init.element_type
        if isinstance(et, IntegerType) and et.width == element_size:
            raw = init.raw
    if raw is None:
        if element_size != 8:
            return None
        size = dl.type_alloc_size(init.type)
        if offset > size or size - offset > 0xFFFF:
            # ReadByteArrayFromGlobal bails out on initializers of more than 64K bytes.
            return None
        out = bytearray(size - offset)
        if size - offset and not read_data_from_global(init, offset, out, 0, size - offset, dl):
            return None
        offset = 0
        if not any(out):
            # ConstantDataArray::get of no bytes or only zero bytes gives a ConstantAggregateZero.
            return ConstantDataArraySlice(None, 0, len(out))
        raw = tuple(out)
    n = len(raw)
    if offset > n:
        return None
    return ConstantDataArraySlice(raw, offset, n - offset)


def get_constant_string_info(v: Value, trim_at_nul: bool = True) -> bytes | None:
    """``getConstantStringInfo``: the bytes ``v`` points to in a constant global (up to the first
    nul when ``trim_at_nul``), or None."""
    sl = get_constant_data_array_info(v, 8)
    if sl is None:
        return None
    if sl.raw is None:
        if trim_at_nul:
            return b""
        if sl.length == 1:
            return b"\0"
        return None
    data = bytes(sl.raw[sl.offset :])
    if trim_at_nul:
        k = data.find(b"\0")
        if k >= 0:
            data = data[:k]
    return data


def _string_length(v: Value, phis: set[int], char_size: int, depth: int) -> int:
    from llvmpy_mid.ir.instructions.other import PHINode, SelectInst
    from llvmpy_mid.ir.pointer_casts import strip_pointer_casts

    v = strip_pointer_casts(v)
    if isinstance(v, PHINode):
        if id(v) in phis:
            return _ALL
        phis.add(id(v))
        if depth > 32:
            return 0
        so_far = _ALL
        for inc in v.operands:
            ln = _string_length(inc, phis, char_size, depth + 1)
            if ln == 0:
                return 0
            if ln == _ALL:
                continue
            if ln != so_far and so_far != _ALL:
                return 0
            so_far = ln
        return so_far
    if isinstance(v, SelectInst):
        if depth > 32:
            return 0
        l1 = _string_length(v.true_value, phis, char_size, depth + 1)
        if l1 == 0:
            return 0
        l2 = _string_length(v.false_value, phis, char_size, depth + 1)
        if l2 == 0:
            return 0
        if l1 == _ALL:
            return l2
        if l2 == _ALL:
            return l1
        return l1 if l1 == l2 else 0
    sl = get_constant_data_array_info(v, char_size)
    if sl is None:
        return 0
    if sl.raw is None:
        return 1
    i = 0
    raw = sl.raw
    off = sl.offset
    while i < sl.length and raw[off + i] != 0:
        i += 1
    return i + 1


def get_string_length(v: Value, char_size: int = 8) -> int:
    """``GetStringLength``: the length plus one of the string ``v`` points to, 0 if unknown."""
    if not v.type.is_pointer:
        return 0
    ln = _string_length(v, set(), char_size, 0)
    return 1 if ln == _ALL else ln


__all__ = [
    "ConstantDataArraySlice",
    "get_constant_data_array_info",
    "get_constant_string_info",
    "get_string_length",
    "is_gep_based_on_pointer_to_string",
]
