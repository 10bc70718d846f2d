"""LLVM 19's data layout: how a target lays types out in memory (LLVM ``DataLayout``).

:meth:`DataLayout.parse` reads the ``target datalayout`` string with every
specification LLVM 19 accepts (LangRef, "Data Layout") and rejects what LLVM 19
rejects, with LLVM's wording in :class:`~llvmpy_mid.errors.DataLayoutError`;
the reading itself, and the records it yields (:class:`PointerSpec`,
:class:`ManglingMode`, :class:`FunctionPtrAlignType`, re-exported here), live
in :mod:`llvmpy_mid.ir.data_layout_parser`. This module holds the queries,
which answer sizes (in bits, store bytes, alloc bytes), ABI and preferred
alignments, pointer and index widths per address space, struct layouts
(field offsets, padding), legal integer widths, endianness, mangling and the
special address spaces, all with LLVM's rules:

* an integer width without its own entry takes the entry of the next larger
  specified width, or of the largest one when none is larger;
* a vector without an exact entry is aligned to its store size rounded up to
  a power of two; a float without one likewise;
* a struct's ABI alignment is the larger of the ``a`` specification and its
  most aligned field (1 when packed); its preferred alignment also takes the
  ``a`` preferred value (8 bytes unless given), packed or not;
* alloc size is store size rounded up to the ABI alignment.

Sizes of scalable vectors (and of structs and arrays made of them) are the
known minimum, as LLVM's ``getKnownMinValue``; :meth:`DataLayout.is_scalable`
tells whether vscale multiplies them.

Struct layouts are computed once per struct type and cached in the layout
(an identified struct whose body is replaced gets a fresh layout; LLVM never
replaces a body, so the layouts of structs around it are not revisited).
Answers for types that hold no struct are cached per type. Walks over nested
types use explicit stacks, so deeply nested structs do not exhaust Python's
recursion limit. ``str(layout)`` is the string it was parsed from.

What it does not do: it does not print a canonical layout string (LLVM keeps
the text it was given, and so do we), and it knows no target beyond what the
string says (no triple-derived defaults).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Sequence, cast

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.data_layout_parser import (
    AlignTable,
    FunctionPtrAlignType,
    ManglingMode,
    PointerSpec,
    parse_layout,
)
from llvmpy_mid.ir.type_queries import FIXED_PRIMITIVE_BITS
from llvmpy_mid.ir.types import (
    ArrayType,
    IntegerType,
    PointerType,
    StructType,
    TargetExtType,
    Type,
    TypeID,
    VectorType,
)

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context

__all__ = [
    "DataLayout",
    "FunctionPtrAlignType",
    "ManglingMode",
    "PointerSpec",
    "StructLayout",
]


class StructLayout:
    """Where a struct's fields go (LLVM ``StructLayout``); offsets in bytes.

    For a struct of scalable vectors, ``size`` and the offsets are the known
    minimum and ``is_scalable`` is true.
    """

    __slots__ = ("size", "alignment", "element_offsets", "has_padding", "is_scalable", "_elements", "_abi", "_pref", "_alloc")

    size: int
    """Size in bytes, including tail padding."""
    alignment: int
    """Alignment in bytes needed by the fields (1 for packed structs)."""
    element_offsets: tuple[int, ...]
    """Byte offset of each field."""
    has_padding: bool
    """Whether padding was inserted between fields or at the end."""
    is_scalable: bool

    def __init__(
        self,
        size: int,
        alignment: int,
        element_offsets: tuple[int, ...],
        has_padding: bool,
        is_scalable: bool,
        elements: tuple[Type, ...],
    ) -> None:
        self.size = size
        self.alignment = alignment
        self.element_offsets = element_offsets
        self.has_padding = has_padding
        self.is_scalable = is_scalable
        self._elements = elements
        # The struct type's ABI and preferred alignment and alloc size under the
        # data layout that built this (they also depend on its "a" entry).
        self._abi = alignment
        self._pref = alignment
        self._alloc = size

    @property
    def size_in_bits(self) -> int:
        return self.size * 8

    @property
    def num_elements(self) -> int:
        return len(self.element_offsets)

    def element_offset(self, index: int) -> int:
        """Byte offset of field ``index``."""
        if not 0 <= index < len(self.element_offsets):
            raise IRError("struct field index %d out of range (%d fields)" % (index, len(self.element_offsets)))
        return self.element_offsets[index]

    def element_offset_in_bits(self, index: int) -> int:
        return self.element_offset(index) * 8

    def element_containing_offset(self, offset: int) -> int:
        """The index of the field that holds byte ``offset``: the last field
        starting at or before it (so a zero-sized field never wins over the
        field that follows it at the same offset). Like LLVM, an offset past
        the end answers the last field."""
        if self.is_scalable:
            raise IRError("cannot find the element at an offset of a struct of scalable vectors")
        offsets = self.element_offsets
        if offset < 0 or not offsets:
            raise IRError("offset %d is not inside the struct" % offset)
        return bisect_right(offsets, offset) - 1

    def __repr__(self) -> str:
        return "StructLayout(size=%d, alignment=%d, offsets=%r%s)" % (
            self.size,
            self.alignment,
            list(self.element_offsets),
            ", padded" if self.has_padding else "",
        )


# --- helpers ---------------------------------------------------------------------

_U64 = (1 << 64) - 1


def _pow2_ceil(value: int) -> int:
    return 1 if value <= 1 else 1 << (value - 1).bit_length()


def _align_to(value: int, alignment: int) -> int:
    return (value + alignment - 1) // alignment * alignment


# TypeID members as module constants: attribute access on an Enum class is slow.
_INTEGER = TypeID.INTEGER
_POINTER = TypeID.POINTER
_STRUCT = TypeID.STRUCT
_ARRAY = TypeID.ARRAY
_FIXED_VECTOR = TypeID.FIXED_VECTOR
_SCALABLE_VECTOR = TypeID.SCALABLE_VECTOR
_TARGET_EXT = TypeID.TARGET_EXT
_LABEL = TypeID.LABEL
_X86_MMX = TypeID.X86_MMX
_X86_AMX = TypeID.X86_AMX

_FP_IDS = frozenset((TypeID.HALF, TypeID.BFLOAT, TypeID.FLOAT, TypeID.DOUBLE, TypeID.X86_FP80, TypeID.FP128, TypeID.PPC_FP128))


def _strip_arrays(ty: Type) -> tuple[int, Type]:
    """The total element count of nested arrays and their innermost element type."""
    count = 1
    while ty.type_id is _ARRAY:
        arr = cast(ArrayType, ty)
        count *= arr.count
        ty = arr.element_type
    return count, ty


def _target_layout_type(ty: TargetExtType) -> Type | None:
    """The type LLVM 19 lays a target extension type out as, or None when unsized."""
    if ty.name.startswith("spirv."):
        return ty.context.ptr
    if ty.name == "aarch64.svcount":
        return ty.context.vector_type(ty.context.i1, 16, scalable=True)
    return None


def _unsized(ty: Type) -> IRError:
    if ty.type_id is _STRUCT and cast(StructType, ty).is_opaque:
        return IRError("cannot compute the layout of opaque struct type %s" % ty)
    return IRError("type %s has no size or alignment" % ty)


class DataLayout:
    """A parsed data layout string. Build one with :meth:`parse` or :meth:`default`.

    Sizes are in bits where the name says so and in bytes otherwise;
    alignments are in bytes. Instances are immutable apart from their caches,
    compare equal when they describe the same layout, and may be shared by
    modules of different contexts.
    """

    __slots__ = (
        "_text",
        "_big_endian",
        "_stack_alignment",
        "_function_ptr_alignment",
        "_function_ptr_align_type",
        "_program_as",
        "_alloca_as",
        "_globals_as",
        "_mangling",
        "_legal_int_widths",
        "_non_integral",
        "_ints",
        "_floats",
        "_vectors",
        "_struct_abi",
        "_struct_pref",
        "_pointers",
        "_ptr0",
        "_bits_cache",
        "_alloc_cache",
        "_abi_cache",
        "_pref_cache",
        "_struct_layouts",
        "_key",
    )

    def __init__(self, text: str = "") -> None:
        """Parse ``text`` (the empty string gives LLVM's default layout)."""
        specs = parse_layout(text)
        self._text = text
        self._big_endian = specs.big_endian
        self._stack_alignment = specs.stack_alignment
        self._function_ptr_alignment = specs.function_ptr_alignment
        self._function_ptr_align_type = specs.function_ptr_align_type
        self._program_as = specs.program_as
        self._alloca_as = specs.alloca_as
        self._globals_as = specs.globals_as
        self._mangling = specs.mangling
        self._legal_int_widths = tuple(specs.legal_int_widths)
        self._non_integral = tuple(specs.non_integral)
        self._ints = specs.ints
        self._floats = specs.floats
        self._vectors = specs.vectors
        self._struct_abi = specs.struct_abi
        self._struct_pref = specs.struct_pref
        self._pointers = specs.pointers
        self._ptr0 = self._pointers[0]
        self._bits_cache: dict[Type, int] = {}
        self._alloc_cache: dict[Type, int] = {}
        self._abi_cache: dict[Type, int] = {}
        self._pref_cache: dict[Type, int] = {}
        self._struct_layouts: dict[StructType, StructLayout] = {}
        self._key = (
            self._big_endian,
            self._stack_alignment,
            self._function_ptr_alignment,
            self._function_ptr_align_type,
            self._program_as,
            self._alloca_as,
            self._globals_as,
            self._mangling,
            self._legal_int_widths,
            self._non_integral,
            tuple(self._ints[0]),
            tuple(self._ints[1]),
            tuple(self._floats[0]),
            tuple(self._floats[1]),
            tuple(self._vectors[0]),
            tuple(self._vectors[1]),
            self._struct_abi,
            self._struct_pref,
            tuple(sorted(self._pointers.items())),
        )

    @classmethod
    def parse(cls, text: str) -> DataLayout:
        """Parse a layout string; raises :class:`DataLayoutError` as LLVM 19 would."""
        return cls(text)

    @classmethod
    def default(cls) -> DataLayout:
        """LLVM's default layout: what a module without ``target datalayout`` gets."""
        return cls("")

    # --- identity ----------------------------------------------------------------
    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return "DataLayout(%r)" % self._text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DataLayout):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    # --- global properties ---------------------------------------------------------
    @property
    def is_little_endian(self) -> bool:
        return not self._big_endian

    @property
    def is_big_endian(self) -> bool:
        return self._big_endian

    @property
    def stack_alignment(self) -> int | None:
        """Natural stack alignment in bytes (``S``), None when unspecified."""
        return self._stack_alignment

    def exceeds_natural_stack_alignment(self, alignment: int) -> bool:
        """Whether ``alignment`` (bytes) is above a specified natural stack alignment."""
        return self._stack_alignment is not None and alignment > self._stack_alignment

    @property
    def alloca_addr_space(self) -> int:
        return self._alloca_as

    @property
    def program_addr_space(self) -> int:
        return self._program_as

    @property
    def globals_addr_space(self) -> int:
        return self._globals_as

    @property
    def mangling(self) -> ManglingMode:
        return self._mangling

    @property
    def function_ptr_alignment(self) -> int | None:
        """Function pointer alignment in bytes (``F``), None when unspecified or 0."""
        return self._function_ptr_alignment

    @property
    def function_ptr_align_type(self) -> FunctionPtrAlignType:
        return self._function_ptr_align_type

    @property
    def legal_int_widths(self) -> tuple[int, ...]:
        """The native integer widths (``n``), in the order given."""
        return self._legal_int_widths

    def is_legal_integer(self, width: int) -> bool:
        return width in self._legal_int_widths

    def fits_in_legal_integer(self, width: int) -> bool:
        """Whether some legal integer is at least ``width`` bits wide."""
        return any(width <= legal for legal in self._legal_int_widths)

    @property
    def largest_legal_int_width(self) -> int:
        """The widest native integer, 0 when the layout names none."""
        return max(self._legal_int_widths, default=0)

    def largest_legal_int_type(self, context: Context) -> IntegerType | None:
        width = self.largest_legal_int_width
        return context.int_type(width) if width else None

    def smallest_legal_int_type(self, context: Context, width: int = 0) -> IntegerType | None:
        """The narrowest native integer at least ``width`` bits wide, if any."""
        best = 0
        for legal in self._legal_int_widths:
            if legal >= width and (best == 0 or legal < best):
                best = legal
        return context.int_type(best) if best else None

    @property
    def non_integral_address_spaces(self) -> tuple[int, ...]:
        return self._non_integral

    def is_non_integral_address_space(self, address_space: int) -> bool:
        return address_space in self._non_integral

    def is_non_integral_pointer_type(self, ty: Type) -> bool:
        """Whether a pointer (or vector of pointers) type lives in a non-integral address space."""
        scalar = ty.scalar_type
        return scalar.type_id is _POINTER and cast(PointerType, scalar).address_space in self._non_integral

    # --- pointers --------------------------------------------------------------------
    def pointer_spec(self, address_space: int = 0) -> PointerSpec:
        """The pointer entry for ``address_space`` (that of 0 when it has none)."""
        return self._pointers.get(address_space, self._ptr0)

    def pointer_size_in_bits(self, address_space: int = 0) -> int:
        return self._pointers.get(address_space, self._ptr0).size_in_bits

    def pointer_size(self, address_space: int = 0) -> int:
        """Pointer size in bytes (bits rounded up)."""
        return (self._pointers.get(address_space, self._ptr0).size_in_bits + 7) // 8

    def index_size_in_bits(self, address_space: int = 0) -> int:
        return self._pointers.get(address_space, self._ptr0).index_size_in_bits

    def index_size(self, address_space: int = 0) -> int:
        """Index width in bytes (bits rounded up)."""
        return (self._pointers.get(address_space, self._ptr0).index_size_in_bits + 7) // 8

    def pointer_abi_alignment(self, address_space: int = 0) -> int:
        return self._pointers.get(address_space, self._ptr0).abi_alignment

    def pointer_pref_alignment(self, address_space: int = 0) -> int:
        return self._pointers.get(address_space, self._ptr0).pref_alignment

    def _pointer_space_of(self, ty: Type) -> int:
        scalar = ty.scalar_type
        if scalar.type_id is not _POINTER:
            raise IRError("expected a pointer or vector of pointers, got %s" % ty)
        return cast(PointerType, scalar).address_space

    def pointer_type_size_in_bits(self, ty: Type) -> int:
        """Size of the (element) pointer of a pointer or vector-of-pointers type."""
        return self.pointer_size_in_bits(self._pointer_space_of(ty))

    def index_type_size_in_bits(self, ty: Type) -> int:
        """Index width of a pointer or vector-of-pointers type's address space."""
        return self.index_size_in_bits(self._pointer_space_of(ty))

    def int_ptr_type(self, ty: Type) -> Type:
        """The integer as wide as the pointer (LLVM ``getIntPtrType``); for a
        vector of pointers, a vector of such integers."""
        int_ty = ty.context.int_type(self.pointer_size_in_bits(self._pointer_space_of(ty)))
        if ty.type_id is _POINTER:
            return int_ty
        vec = cast(VectorType, ty)
        return ty.context.vector_type(int_ty, vec.count, vec.scalable)

    def int_ptr_type_for(self, context: Context, address_space: int = 0) -> IntegerType:
        """The pointer-sized integer of an address space."""
        return context.int_type(self.pointer_size_in_bits(address_space))

    def index_type(self, ty: Type) -> Type:
        """The integer type of GEP offsets for a pointer (vector for a vector of pointers)."""
        int_ty = ty.context.int_type(self.index_size_in_bits(self._pointer_space_of(ty)))
        if ty.type_id is _POINTER:
            return int_ty
        vec = cast(VectorType, ty)
        return ty.context.vector_type(int_ty, vec.count, vec.scalable)

    # --- sizes -------------------------------------------------------------------------
    # Answers for types that hold no struct are cached per type (their layout
    # can never change); struct answers live in the struct's cached layout.

    def type_size_in_bits(self, ty: Type) -> int:
        """The number of bits a value of ``ty`` holds (LLVM ``getTypeSizeInBits``);
        the known minimum for scalable types."""
        bits = self._bits_cache.get(ty)
        if bits is not None:
            return bits
        tid = ty.type_id
        if tid is _STRUCT:
            return self.struct_layout(cast(StructType, ty)).size * 8
        if tid is _ARRAY:
            count, elt = _strip_arrays(ty)
            bits = count * self.type_alloc_size(elt) * 8
            if elt.type_id is _STRUCT:
                return bits
        elif tid is _INTEGER:
            bits = cast(IntegerType, ty).width
        elif tid is _POINTER:
            bits = self._pointers.get(cast(PointerType, ty).address_space, self._ptr0).size_in_bits
        elif tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR:
            vec = cast(VectorType, ty)
            bits = vec.count * self.type_size_in_bits(vec.element_type)
        elif tid in FIXED_PRIMITIVE_BITS:
            bits = FIXED_PRIMITIVE_BITS[tid]
        elif tid is _TARGET_EXT:
            layout_ty = _target_layout_type(cast(TargetExtType, ty))
            if layout_ty is None:
                raise _unsized(ty)
            bits = self.type_size_in_bits(layout_ty)
        elif tid is _LABEL:
            bits = self._ptr0.size_in_bits
        else:
            raise _unsized(ty)
        self._bits_cache[ty] = bits
        return bits

    def type_store_size(self, ty: Type) -> int:
        """Bytes a store of ``ty`` may overwrite: the size rounded up to whole bytes."""
        bits = self._bits_cache.get(ty)
        if bits is None:
            bits = self.type_size_in_bits(ty)
        return (bits + 7) >> 3

    def type_store_size_in_bits(self, ty: Type) -> int:
        return self.type_store_size(ty) * 8

    def type_alloc_size(self, ty: Type) -> int:
        """Bytes between consecutive ``ty`` values in an array: the store size
        rounded up to the ABI alignment."""
        size = self._alloc_cache.get(ty)
        if size is not None:
            return size
        tid = ty.type_id
        if tid is _STRUCT:
            return self.struct_layout(cast(StructType, ty))._alloc
        if tid is _ARRAY:
            count, elt = _strip_arrays(ty)
            size = count * self.type_alloc_size(elt)
            if elt.type_id is _STRUCT:
                return size
        else:
            size = _align_to(self.type_store_size(ty), self.abi_alignment(ty))
        self._alloc_cache[ty] = size
        return size

    def type_alloc_size_in_bits(self, ty: Type) -> int:
        return self.type_alloc_size(ty) * 8

    def type_size_equals_store_size(self, ty: Type) -> bool:
        """Whether ``ty`` fills whole bytes (true for i8 and x86_fp80, false for i1 and i33)."""
        return self.type_size_in_bits(ty) % 8 == 0

    def is_scalable(self, ty: Type) -> bool:
        """Whether vscale multiplies the size of ``ty`` (LLVM ``isScalableTy``)."""
        stack: list[Type] = [ty]
        seen: set[StructType] = set()
        while stack:
            t = stack.pop()
            tid = t.type_id
            if tid is _SCALABLE_VECTOR:
                return True
            if tid is _ARRAY:
                stack.append(cast(ArrayType, t).element_type)
            elif tid is _STRUCT:
                st = cast(StructType, t)
                if st not in seen:
                    seen.add(st)
                    stack.extend(st.elements)
            elif tid is _TARGET_EXT:
                layout_ty = _target_layout_type(cast(TargetExtType, t))
                if layout_ty is not None and layout_ty.type_id is _SCALABLE_VECTOR:
                    return True
        return False

    # --- alignment ---------------------------------------------------------------------
    def abi_alignment(self, ty: Type) -> int:
        """ABI alignment of ``ty`` in bytes (LLVM ``getABITypeAlign``)."""
        align = self._abi_cache.get(ty)
        if align is not None:
            return align
        if ty.type_id is _STRUCT:
            return self.struct_layout(cast(StructType, ty))._abi
        return self._alignment(ty, True, self._abi_cache)

    def pref_alignment(self, ty: Type) -> int:
        """Preferred alignment of ``ty`` in bytes (LLVM ``getPrefTypeAlign``)."""
        align = self._pref_cache.get(ty)
        if align is not None:
            return align
        if ty.type_id is _STRUCT:
            return self.struct_layout(cast(StructType, ty))._pref
        return self._alignment(ty, False, self._pref_cache)

    def _alignment(self, ty: Type, abi: bool, cache: dict[Type, int]) -> int:
        """Alignment of a type that is not a struct; cached unless it holds one."""
        elt = ty
        if ty.type_id is _ARRAY:
            elt = _strip_arrays(ty)[1]
            if elt.type_id is _STRUCT:
                layout = self.struct_layout(cast(StructType, elt))
                return layout._abi if abi else layout._pref
        tid = elt.type_id
        if tid is _INTEGER:
            pair = self._int_alignment(cast(IntegerType, elt).width)
            align = pair[0] if abi else pair[1]
        elif tid is _POINTER:
            spec = self._pointers.get(cast(PointerType, elt).address_space, self._ptr0)
            align = spec.abi_alignment if abi else spec.pref_alignment
        elif tid in _FP_IDS:
            bits = FIXED_PRIMITIVE_BITS[tid]
            align = self._table_alignment(self._floats, bits, abi, _pow2_ceil(bits // 8))
        elif tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR or tid is _X86_MMX:
            bits = self.type_size_in_bits(elt)
            align = self._table_alignment(self._vectors, bits, abi, _pow2_ceil((bits + 7) // 8))
        elif tid is _X86_AMX:
            align = 64
        elif tid is _TARGET_EXT:
            layout_ty = _target_layout_type(cast(TargetExtType, elt))
            if layout_ty is None:
                raise _unsized(elt)
            align = self.abi_alignment(layout_ty) if abi else self.pref_alignment(layout_ty)
        elif tid is _LABEL:
            align = self._ptr0.abi_alignment if abi else self._ptr0.pref_alignment
        else:
            raise _unsized(elt)
        cache[ty] = align
        return align

    def _int_alignment(self, width: int) -> tuple[int, int]:
        # The entry of this width, else of the next wider one, else the widest.
        widths, aligns = self._ints
        at = bisect_left(widths, width)
        return aligns[at] if at < len(widths) else aligns[-1]

    @staticmethod
    def _table_alignment(table: AlignTable, bits: int, abi: bool, fallback: int) -> int:
        # The entry of exactly this width, else the fallback.
        widths, aligns = table
        at = bisect_left(widths, bits)
        if at < len(widths) and widths[at] == bits:
            return aligns[at][0] if abi else aligns[at][1]
        return fallback

    # --- structs -----------------------------------------------------------------------
    def struct_layout(self, ty: StructType) -> StructLayout:
        """The field offsets, size and alignment of a sized struct (cached)."""
        layout = self._struct_layouts.get(ty)
        if layout is not None and layout._elements is ty.elements:
            return layout
        return self._build_struct_layouts(ty)

    def _build_struct_layouts(self, root: StructType) -> StructLayout:
        # Post-order walk over the structs nested by value in ``root`` (also
        # through arrays), so each layout is built after those of its fields.
        cache = self._struct_layouts
        in_progress: set[StructType] = set()
        stack: list[tuple[StructType, bool]] = [(root, False)]
        while stack:
            st, expanded = stack.pop()
            if expanded:
                cache[st] = self._compute_struct_layout(st)
                in_progress.discard(st)
                continue
            known = cache.get(st)
            if known is not None and known._elements is st.elements:
                continue
            if st in in_progress:
                raise IRError("struct type %s contains itself and has no size" % root)
            if st.is_opaque:
                raise _unsized(st)
            in_progress.add(st)
            stack.append((st, True))
            for elt in st.elements:
                if elt.type_id is _ARRAY:
                    elt = _strip_arrays(elt)[1]
                if elt.type_id is _STRUCT:
                    stack.append((cast(StructType, elt), False))
        return cache[root]

    def _compute_struct_layout(self, st: StructType) -> StructLayout:
        elements = st.elements
        packed = st.packed
        offset = 0
        max_align = 1
        padded = False
        scalable = False
        offsets: list[int] = []
        for i, elt in enumerate(elements):
            if i == 0 and self.is_scalable(elt):
                scalable = True
            align = 1 if packed else self.abi_alignment(elt)
            if not scalable and offset % align:
                padded = True
                offset = _align_to(offset, align)
            if align > max_align:
                max_align = align
            offsets.append(offset)
            offset += self.type_alloc_size(elt)
        if not scalable and offset % max_align:
            padded = True
            offset = _align_to(offset, max_align)
        layout = StructLayout(offset, max_align, tuple(offsets), padded, scalable, elements)
        # Packed structs have ABI alignment 1; the "a" entry raises both alignments.
        layout._abi = 1 if packed else max(self._struct_abi, max_align)
        layout._pref = max(self._struct_pref, max_align)
        layout._alloc = _align_to(offset, layout._abi)
        return layout

    # --- GEP offsets ---------------------------------------------------------------------
    def indexed_offset_in_type(self, element_type: Type, indices: Sequence[int]) -> int:
        """The byte offset that constant GEP indices select from a pointer to
        ``element_type`` (LLVM ``getIndexedOffsetInType``): the first index
        steps over whole ``element_type`` values, later ones pick struct
        fields or array / vector elements. The result wraps to a signed
        64-bit integer, as LLVM's does."""
        if not indices:
            return 0
        result = indices[0] * self.type_alloc_size(element_type) if indices[0] else 0
        ty = element_type
        for idx in indices[1:]:
            tid = ty.type_id
            if tid is _STRUCT:
                st = cast(StructType, ty)
                result += self.struct_layout(st).element_offset(idx)
                ty = st.elements[idx]
            elif tid is _ARRAY:
                ty = cast(ArrayType, ty).element_type
                if idx:
                    result += idx * self.type_alloc_size(ty)
            elif tid is _FIXED_VECTOR or tid is _SCALABLE_VECTOR:
                ty = cast(VectorType, ty).element_type
                if idx:
                    if self.type_size_in_bits(ty) % 8:
                        raise IRError("cannot index into a vector of non-byte-sized %s elements" % ty)
                    result += idx * self.type_store_size(ty)
            else:
                raise IRError("cannot index into type %s" % ty)
        result &= _U64
        return result - (1 << 64) if result >> 63 else result

    def gep_indices_for_offset(
        self, element_type: Type, offset: int, index_width: int = 64
    ) -> tuple[list[int], Type, int]:
        """Constant GEP indices that reach byte ``offset`` from a pointer to
        ``element_type`` (LLVM ``getGEPIndicesForOffset``).

        Returns the indices, the type they end at and the bytes left over.
        The first index counts whole ``element_type`` values (rounding down, so
        the remainder is never negative); then struct fields and array
        elements are descended while an offset remains. Vectors and scalars
        stop the descent. ``index_width`` is the width of the GEP's index type.
        """
        first, offset = self._element_index(element_type, offset, index_width)
        indices = [first]
        ty = element_type
        while offset != 0:
            tid = ty.type_id
            if tid is _ARRAY:
                ty = cast(ArrayType, ty).element_type
                index, offset = self._element_index(ty, offset, index_width)
                indices.append(index)
            elif tid is _STRUCT:
                st = cast(StructType, ty)
                layout = self.struct_layout(st)
                if layout.is_scalable or offset < 0 or offset >= layout.size:
                    break
                field = layout.element_containing_offset(offset)
                offset -= layout.element_offsets[field]
                ty = st.elements[field]
                indices.append(field)
            else:
                break
        return indices, ty, offset

    def _element_index(self, ty: Type, offset: int, index_width: int) -> tuple[int, int]:
        """How many whole ``ty`` values fit in ``offset``, and what is left."""
        size = self.type_alloc_size(ty)
        # Zero-sized, scalable or huge elements cannot absorb any offset.
        if size == 0 or size >> (index_width - 1) or self.is_scalable(ty):
            return 0, offset
        index, rest = divmod(offset, size)  # floor division: the rest is never negative
        return index, rest
