"""LLVM 19's type system.

Every type is created through a :class:`~llvmpy_mid.ir.context.Context`, which
uniques them: two requests for the same type give the same object, so types
compare by identity (``ctx.int_type(32) is ctx.i32``). Identified structs are
the exception: each ``ctx.named_struct(...)`` call with a fresh name makes a new
type, as in LLVM.

``type_id`` follows the order of LLVM's ``Type::TypeID`` enumeration, which
the function comparator of ``mergefunc`` relies on.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Iterator, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.names import escape_string, format_name

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context


class TypeID(IntEnum):
    """The kinds of type, in LLVM 19's ``Type::TypeID`` order."""

    HALF = 0
    BFLOAT = 1
    FLOAT = 2
    DOUBLE = 3
    X86_FP80 = 4
    FP128 = 5
    PPC_FP128 = 6
    VOID = 7
    LABEL = 8
    METADATA = 9
    X86_MMX = 10
    X86_AMX = 11
    TOKEN = 12
    INTEGER = 13
    FUNCTION = 14
    POINTER = 15
    STRUCT = 16
    ARRAY = 17
    FIXED_VECTOR = 18
    SCALABLE_VECTOR = 19
    TYPED_POINTER = 20
    TARGET_EXT = 21


MAX_INT_BITS = 1 << 23

# What LLVM's type constructors accept (they assert; the parser reports the same words).
_BAD_STRUCT_ELEMENT = frozenset((TypeID.VOID, TypeID.LABEL, TypeID.METADATA, TypeID.FUNCTION, TypeID.TOKEN))
_BAD_ARRAY_ELEMENT = _BAD_STRUCT_ELEMENT | {TypeID.X86_AMX}
_VECTOR_ELEMENT = frozenset(
    (TypeID.HALF, TypeID.BFLOAT, TypeID.FLOAT, TypeID.DOUBLE, TypeID.X86_FP80, TypeID.FP128, TypeID.PPC_FP128)
    + (TypeID.INTEGER, TypeID.POINTER, TypeID.TYPED_POINTER)
)
_BAD_RETURN = frozenset((TypeID.FUNCTION, TypeID.LABEL, TypeID.METADATA))
_BAD_ARGUMENT = frozenset((TypeID.FUNCTION, TypeID.VOID))


def mismatch_text(a: Type, b: Type) -> str:
    """``i32 vs i64`` for an error message about two types that should be one;
    when they come from different :class:`Context` objects it says so (both may
    be spelled ``i32``)."""
    if a.context is not b.context:
        return "%s vs %s: the values belong to different Contexts; build a module's values from one Context" % (a, b)
    return "%s vs %s" % (a, b)


def check_struct_elements(elements: Sequence[Type]) -> None:
    """Raise :class:`IRError` for an element a struct may not hold (void, label,
    metadata, function, token), as LLVM's ``StructType::isValidElementType``."""
    for e in elements:
        if e.type_id in _BAD_STRUCT_ELEMENT:
            raise IRError("invalid element type for struct: %s" % e)

_FP_IDS = frozenset(
    (TypeID.HALF, TypeID.BFLOAT, TypeID.FLOAT, TypeID.DOUBLE, TypeID.X86_FP80, TypeID.FP128, TypeID.PPC_FP128)
)


class Type:
    """Base of every type. Compare types with ``is``."""

    __slots__ = ("context", "type_id")

    context: Context
    type_id: TypeID

    def __init__(self, context: Context, type_id: TypeID) -> None:
        self.context = context
        self.type_id = type_id

    # --- classification -------------------------------------------------
    @property
    def is_void(self) -> bool:
        return self.type_id is TypeID.VOID

    @property
    def is_label(self) -> bool:
        return self.type_id is TypeID.LABEL

    @property
    def is_metadata(self) -> bool:
        return self.type_id is TypeID.METADATA

    @property
    def is_token(self) -> bool:
        return self.type_id is TypeID.TOKEN

    @property
    def is_integer(self) -> bool:
        return self.type_id is TypeID.INTEGER

    def is_integer_bits(self, bits: int) -> bool:
        return False

    @property
    def is_floating_point(self) -> bool:
        return self.type_id in _FP_IDS

    @property
    def is_pointer(self) -> bool:
        return self.type_id is TypeID.POINTER

    @property
    def is_function(self) -> bool:
        return self.type_id is TypeID.FUNCTION

    @property
    def is_struct(self) -> bool:
        return self.type_id is TypeID.STRUCT

    @property
    def is_array(self) -> bool:
        return self.type_id is TypeID.ARRAY

    @property
    def is_vector(self) -> bool:
        return self.type_id is TypeID.FIXED_VECTOR or self.type_id is TypeID.SCALABLE_VECTOR

    @property
    def is_target_ext(self) -> bool:
        return self.type_id is TypeID.TARGET_EXT

    @property
    def is_aggregate(self) -> bool:
        return self.type_id is TypeID.STRUCT or self.type_id is TypeID.ARRAY

    @property
    def is_single_value(self) -> bool:
        """Integers, floats, pointers, vectors, x86_mmx, x86_amx and target extension types
        (LLVM ``isSingleValueType``)."""
        tid = self.type_id
        return (
            tid in _FP_IDS
            or tid is TypeID.INTEGER
            or tid is TypeID.POINTER
            or tid is TypeID.FIXED_VECTOR
            or tid is TypeID.SCALABLE_VECTOR
            or tid is TypeID.X86_MMX
            or tid is TypeID.X86_AMX
            or tid is TypeID.TARGET_EXT
        )

    @property
    def is_first_class(self) -> bool:
        """Types an instruction may produce (not void, not function)."""
        return self.type_id is not TypeID.VOID and self.type_id is not TypeID.FUNCTION

    @property
    def is_sized(self) -> bool:
        """Whether the type has a size (LLVM ``Type::isSized``)."""
        tid = self.type_id
        if tid in _FP_IDS or tid is TypeID.INTEGER or tid is TypeID.POINTER:
            return True
        if tid is TypeID.X86_MMX or tid is TypeID.X86_AMX:
            return True
        return False

    @property
    def scalar_type(self) -> Type:
        """The element type of a vector, or the type itself."""
        return self

    @property
    def is_int_or_int_vector(self) -> bool:
        return self.scalar_type.type_id is TypeID.INTEGER

    @property
    def is_fp_or_fp_vector(self) -> bool:
        return self.scalar_type.type_id in _FP_IDS

    @property
    def is_ptr_or_ptr_vector(self) -> bool:
        return self.scalar_type.type_id is TypeID.POINTER

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self}>"

    def __str__(self) -> str:
        return _PRIMITIVE_NAMES.get(self.type_id, "?")


_PRIMITIVE_NAMES: dict[TypeID, str] = {
    TypeID.HALF: "half",
    TypeID.BFLOAT: "bfloat",
    TypeID.FLOAT: "float",
    TypeID.DOUBLE: "double",
    TypeID.X86_FP80: "x86_fp80",
    TypeID.FP128: "fp128",
    TypeID.PPC_FP128: "ppc_fp128",
    TypeID.VOID: "void",
    TypeID.LABEL: "label",
    TypeID.METADATA: "metadata",
    TypeID.X86_MMX: "x86_mmx",
    TypeID.X86_AMX: "x86_amx",
    TypeID.TOKEN: "token",
}


class FloatingPointType(Type):
    """half, bfloat, float, double, x86_fp80, fp128 or ppc_fp128."""

    __slots__ = ("bits", "mantissa_bits")

    bits: int
    """Width of the value in bits (80 for x86_fp80)."""
    mantissa_bits: int
    """Significand precision including the implicit bit (LLVM ``getFPMantissaWidth``)."""

    def __init__(self, context: Context, type_id: TypeID, bits: int, mantissa_bits: int) -> None:
        super().__init__(context, type_id)
        self.bits = bits
        self.mantissa_bits = mantissa_bits

    @property
    def is_floating_point(self) -> bool:
        return True


class IntegerType(Type):
    """``iN`` for N in 1 .. 2**23-1."""

    __slots__ = ("width", "_text")

    width: int

    def __init__(self, context: Context, width: int) -> None:
        super().__init__(context, TypeID.INTEGER)
        self.width = width
        self._text = "i%d" % width

    @property
    def mask(self) -> int:
        """All ones in this width, as a non-negative Python int."""
        return (1 << self.width) - 1

    @property
    def sign_bit(self) -> int:
        return 1 << (self.width - 1)

    def is_integer_bits(self, bits: int) -> bool:
        return self.width == bits

    def __str__(self) -> str:
        return self._text


class PointerType(Type):
    """The opaque pointer ``ptr``, optionally in an address space."""

    __slots__ = ("address_space", "_text")

    address_space: int

    def __init__(self, context: Context, address_space: int) -> None:
        super().__init__(context, TypeID.POINTER)
        self.address_space = address_space
        self._text = "ptr" if address_space == 0 else "ptr addrspace(%d)" % address_space

    def __str__(self) -> str:
        return self._text


class FunctionType(Type):
    """``ret (params...)``, possibly variadic."""

    __slots__ = ("return_type", "params", "is_vararg")

    return_type: Type
    params: tuple[Type, ...]
    is_vararg: bool

    def __init__(self, context: Context, return_type: Type, params: tuple[Type, ...], is_vararg: bool) -> None:
        super().__init__(context, TypeID.FUNCTION)
        self.return_type = return_type
        self.params = params
        self.is_vararg = is_vararg

    def __str__(self) -> str:
        parts = [str(p) for p in self.params]
        if self.is_vararg:
            parts.append("...")
        return "%s (%s)" % (self.return_type, ", ".join(parts))


class ArrayType(Type):
    """``[N x T]``."""

    __slots__ = ("element_type", "count")

    element_type: Type
    count: int

    def __init__(self, context: Context, element_type: Type, count: int) -> None:
        super().__init__(context, TypeID.ARRAY)
        self.element_type = element_type
        self.count = count

    @property
    def is_sized(self) -> bool:
        return self.element_type.is_sized

    def __str__(self) -> str:
        return "[%d x %s]" % (self.count, self.element_type)


class VectorType(Type):
    """``<N x T>`` or ``<vscale x N x T>``."""

    __slots__ = ("element_type", "count", "scalable")

    element_type: Type
    count: int
    """The element count (the minimum count for a scalable vector)."""
    scalable: bool

    def __init__(self, context: Context, element_type: Type, count: int, scalable: bool) -> None:
        super().__init__(context, TypeID.SCALABLE_VECTOR if scalable else TypeID.FIXED_VECTOR)
        self.element_type = element_type
        self.count = count
        self.scalable = scalable

    @property
    def is_sized(self) -> bool:
        return True

    @property
    def scalar_type(self) -> Type:
        return self.element_type

    def __str__(self) -> str:
        if self.scalable:
            return "<vscale x %d x %s>" % (self.count, self.element_type)
        return "<%d x %s>" % (self.count, self.element_type)


class StructType(Type):
    """A literal struct (``{ i32, ptr }``, uniqued by content) or an identified one.

    Identified structs have a name (or none, and are numbered by the printer),
    and may be opaque until :meth:`set_body` gives them elements.
    """

    __slots__ = ("name", "elements", "packed", "is_literal", "_opaque", "_sized_cache")

    name: str
    elements: tuple[Type, ...]
    packed: bool
    is_literal: bool

    def __init__(
        self, context: Context, elements: tuple[Type, ...], packed: bool, is_literal: bool, name: str = ""
    ) -> None:
        super().__init__(context, TypeID.STRUCT)
        self.name = name
        self.elements = elements
        self.packed = packed
        self.is_literal = is_literal
        self._opaque = not is_literal
        self._sized_cache: bool | None = None

    @property
    def is_opaque(self) -> bool:
        """An identified struct whose body has not been set."""
        return self._opaque

    @property
    def is_identified(self) -> bool:
        return not self.is_literal

    def set_body(self, elements: Sequence[Type], packed: bool = False) -> None:
        """Give an identified struct its elements (LLVM ``StructType::setBody``)."""
        if self.is_literal:
            raise TypeError("cannot set the body of a literal struct type")
        check_struct_elements(elements)
        self.elements = tuple(elements)
        self.packed = packed
        self._opaque = False
        self._sized_cache = None

    def set_name(self, name: str) -> None:
        """Rename an identified struct; a clash gets a numeric suffix, as in LLVM."""
        self.context._rename_struct(self, name)

    @property
    def is_sized(self) -> bool:
        if self._opaque:
            return False
        if self._sized_cache:
            return True
        # Iterative depth-first walk: sized when all leaves are; a struct reached again while
        # it is being walked (a recursive type) is unsized, as LLVM's isSized with a visited
        # set. Only a sized answer is cached (an opaque element may get a body later).
        on_path: set[int] = {id(self)}
        walk: list[tuple[StructType, Iterator[Type]]] = [(self, iter(self.elements))]
        while walk:
            st, rest = walk[-1]
            for ty in rest:
                while isinstance(ty, ArrayType):
                    ty = ty.element_type
                if isinstance(ty, StructType):
                    if ty._sized_cache:
                        continue
                    if ty._opaque or id(ty) in on_path:
                        return False
                    on_path.add(id(ty))
                    walk.append((ty, iter(ty.elements)))
                    break
                if not ty.is_sized:
                    return False
            else:
                walk.pop()
                on_path.discard(id(st))
                st._sized_cache = True
        return True

    def body_str(self) -> str:
        """The element list as LLVM prints it: ``{ i32, ptr }``, ``<{ i8 }>``, ``{}``."""
        if self._opaque:
            return "opaque"
        if not self.elements:
            return "<{}>" if self.packed else "{}"
        inner = "{ " + ", ".join(str(e) for e in self.elements) + " }"
        return "<" + inner + ">" if self.packed else inner

    def __str__(self) -> str:
        if self.is_literal:
            return self.body_str()
        if self.name:
            return format_name("%", self.name)
        return "%%<anon struct %#x>" % id(self)


class TargetExtType(Type):
    """``target("name", types..., ints...)``."""

    __slots__ = ("name", "type_params", "int_params")

    name: str
    type_params: tuple[Type, ...]
    int_params: tuple[int, ...]

    def __init__(self, context: Context, name: str, type_params: tuple[Type, ...], int_params: tuple[int, ...]) -> None:
        super().__init__(context, TypeID.TARGET_EXT)
        self.name = name
        self.type_params = type_params
        self.int_params = int_params

    @property
    def is_sized(self) -> bool:
        # A target type is sized when LLVM 19 knows a layout type for it: the
        # "spirv.*" family (laid out as a pointer) and "aarch64.svcount".
        return self.name.startswith("spirv.") or self.name == "aarch64.svcount"

    def __str__(self) -> str:
        parts = ['"' + escape_string(self.name) + '"']
        parts.extend(str(t) for t in self.type_params)
        parts.extend(str(i) for i in self.int_params)
        return "target(" + ", ".join(parts) + ")"
