"""Uniqued constants (LLVM ``Constant`` and its subclasses, except globals and
constant expressions, which live in their own modules).

Every constant is made by a ``get`` class method that looks it up in its
context's table first, so equal constants are the same object. The
aggregate getters canonicalise as LLVM does: all-zero aggregates become
``zeroinitializer``, all-undef ``undef``, all-poison ``poison``, and arrays
and vectors of simple integers or floats become data arrays / data vectors
(printed ``c"..."`` for ``i8`` arrays).

A constant that uses a value replaced by ``replace_all_uses_with`` (a global
in a vtable, say) is updated in place when no equal constant exists, else
replaced by the existing one, which keeps use-lists in LLVM's order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self, Sequence, cast

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir import fp_bits
from llvmpy_mid.ir.types import (
    ArrayType,
    FloatingPointType,
    IntegerType,
    StructType,
    Type,
    TypeID,
    VectorType,
)
from llvmpy_mid.ir.value import User, Value

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.global_value import GlobalValue


class Constant(User):
    """Base of all constants. Constants are immutable and uniqued."""

    __slots__ = ()

    is_constant = True

    def _key(self) -> Any:
        """The uniquing key (None for constants that are not in the table)."""
        return None

    # --- value predicates -------------------------------------------------
    @property
    def is_null_value(self) -> bool:
        """The type's zero value (LLVM ``isNullValue``; +0.0 but not -0.0)."""
        return False

    @property
    def is_zero_value(self) -> bool:
        """Like ``is_null_value`` but also true for floating -0.0."""
        return self.is_null_value

    @property
    def is_all_ones_value(self) -> bool:
        return False

    @property
    def is_one_value(self) -> bool:
        return False

    def contains_undef_or_poison(self) -> bool:
        stack: list[Value] = [self]
        while stack:
            c = stack.pop()
            if isinstance(c, UndefValue):
                return True
            if isinstance(c, User) and not c.is_global_value:
                stack.extend(c.operands)
        return False

    def get_aggregate_element(self, index: int) -> Constant | None:
        """The constant at ``index`` of an aggregate or vector constant, if known."""
        return None

    # --- replacement ------------------------------------------------------
    def handle_operand_change(self, old: Value, new: Value) -> None:
        """Called by RAUW when operand ``old`` becomes ``new``: update this
        constant in place unless the new operands fold to a simpler constant
        or an equal constant already exists, in which case the users move to
        that one and this constant is destroyed (LLVM's behaviour)."""
        new_ops = [new if u.value is old else u.value for u in self._operands]
        replacement = self._fold_operands(new_ops)
        table = self.type.context.constants
        if replacement is None:
            replacement = table.get(self._key_for(new_ops))
            if replacement is None:
                key = self._key()
                if table.get(key) is self:
                    del table[key]
                for use in self._operands:
                    if use.value is old:
                        use.set(new)
                table[self._key()] = self
                return
        self._replace_all_uses(replacement)
        self.destroy_constant()

    def _key_for(self, operands: list[Value]) -> Any:
        """The uniquing key this constant would have with other operands."""
        raise IRError("constant %r has no operands to change" % self)

    def _fold_operands(self, operands: list[Value]) -> Constant | None:
        """The simpler constant the getter would give for these operands, if any."""
        return None

    def destroy_constant(self) -> None:
        """Remove this constant from its uniquing table and drop its operands."""
        table = self.type.context.constants
        key = self._key()
        if key is not None and table.get(key) is self:
            del table[key]
        self.drop_all_references()

    # --- factories ----------------------------------------------------------
    @staticmethod
    def get_null_value(ty: Type) -> Constant:
        """The zero of ``ty``: 0, +0.0, null, zeroinitializer, none."""
        tid = ty.type_id
        if tid is TypeID.INTEGER:
            return ConstantInt.get(cast(IntegerType, ty), 0)
        if isinstance(ty, FloatingPointType):
            return ConstantFP.from_bits(ty, 0)
        if tid is TypeID.POINTER:
            return ConstantPointerNull.get(ty)
        if tid in (TypeID.STRUCT, TypeID.ARRAY, TypeID.FIXED_VECTOR, TypeID.SCALABLE_VECTOR):
            return ConstantAggregateZero.get(ty)
        if tid is TypeID.TOKEN:
            return ConstantTokenNone.get(ty)
        if tid is TypeID.TARGET_EXT:
            return ConstantTargetNone.get(ty)
        raise IRError("type %s has no null value" % ty)

    @staticmethod
    def get_all_ones_value(ty: Type) -> Constant:
        if isinstance(ty, IntegerType):
            return ConstantInt.get(ty, ty.mask)
        if isinstance(ty, FloatingPointType):
            return ConstantFP.from_bits(ty, (1 << fp_bits.bit_width(ty.type_id)) - 1)
        if isinstance(ty, VectorType):
            return ConstantVector.get_splat(ty, Constant.get_all_ones_value(ty.element_type))
        raise IRError("type %s has no all-ones value" % ty)


class ConstantData(Constant):
    """Constants without operands."""

    __slots__ = ()


class ConstantInt(ConstantData):
    """An integer of any width. ``value`` is the unsigned pattern in [0, 2**width)."""

    __slots__ = ("value",)

    type: IntegerType
    value: int

    def __init__(self, ty: IntegerType, value: int) -> None:
        User.__init__(self, ty)
        self.value = value

    @classmethod
    def get(cls, ty: Type, value: int) -> ConstantInt:
        """The constant ``value`` (taken modulo 2**width, so -1 is all ones)."""
        if not isinstance(ty, IntegerType):
            if not isinstance(ty, Type):
                raise TypeError(
                    "ConstantInt.get(type, value): the first argument must be an integer Type such as ctx.i32,"
                    " not %s %r" % (type(ty).__name__, ty)
                )
            raise IRError("ConstantInt needs an integer type, not %s" % ty)
        if type(value) is not int:
            if not isinstance(value, int):
                raise TypeError("ConstantInt.get(type, value): the value must be an int, not %s" % type(value).__name__)
            value = int(value)
        table = ty.context.constants
        value &= ty.mask
        key = (ty, value)
        c = table.get(key)
        if c is None:
            c = table[key] = cls(ty, value)
        return cast(ConstantInt, c)

    @classmethod
    def get_true(cls, ty: Type) -> ConstantInt:
        return cls.get(ty.context.i1, 1)

    @classmethod
    def get_false(cls, ty: Type) -> ConstantInt:
        return cls.get(ty.context.i1, 0)

    def _key(self) -> Any:
        return (self.type, self.value)

    @property
    def width(self) -> int:
        return self.type.width

    @property
    def zext_value(self) -> int:
        return self.value

    @property
    def sext_value(self) -> int:
        """The value read as a two's complement signed integer."""
        v = self.value
        return v - (1 << self.type.width) if v >> (self.type.width - 1) else v

    @property
    def is_null_value(self) -> bool:
        return self.value == 0

    @property
    def is_zero(self) -> bool:
        return self.value == 0

    @property
    def is_one_value(self) -> bool:
        return self.value == 1

    @property
    def is_all_ones_value(self) -> bool:
        return self.value == self.type.mask

    @property
    def is_negative(self) -> bool:
        return bool(self.value >> (self.type.width - 1))

    def __int__(self) -> int:
        return self.value


class ConstantFP(ConstantData):
    """A floating-point constant stored as its exact bit pattern."""

    __slots__ = ("bits",)

    type: FloatingPointType
    bits: int

    def __init__(self, ty: FloatingPointType, bits: int) -> None:
        User.__init__(self, ty)
        self.bits = bits

    @classmethod
    def from_bits(cls, ty: Type, bits: int) -> ConstantFP:
        if not isinstance(ty, FloatingPointType):
            raise IRError("ConstantFP needs a floating-point type, not %s" % ty)
        table = ty.context.constants
        bits &= (1 << fp_bits.bit_width(ty.type_id)) - 1
        key = ("fp", ty, bits)
        c = table.get(key)
        if c is None:
            c = table[key] = cls(ty, bits)
        return cast(ConstantFP, c)

    @classmethod
    def get(cls, ty: Type, value: float) -> ConstantFP:
        """``value`` rounded to the type's precision."""
        if not isinstance(ty, Type):
            raise TypeError(
                "ConstantFP.get(type, value): the first argument must be a floating-point Type such as ctx.double,"
                " not %s %r" % (type(ty).__name__, ty)
            )
        if not isinstance(value, (int, float)):
            raise TypeError("ConstantFP.get(type, value): the value must be a float, not %s" % type(value).__name__)
        if not isinstance(ty, FloatingPointType):
            raise IRError("ConstantFP needs a floating-point type, not %s" % ty)
        return cls.from_bits(ty, fp_bits.float_to_bits(ty.type_id, value))

    def _key(self) -> Any:
        return ("fp", self.type, self.bits)

    @property
    def value(self) -> float:
        """The value as a Python float (rounded for types wider than double)."""
        return fp_bits.bits_to_float(self.type.type_id, self.bits)

    @property
    def is_null_value(self) -> bool:
        return self.bits == 0

    @property
    def is_zero_value(self) -> bool:
        return self.bits == 0 or fp_bits.is_negative_zero(self.type.type_id, self.bits)

    @property
    def is_negative_zero(self) -> bool:
        return fp_bits.is_negative_zero(self.type.type_id, self.bits)

    @property
    def is_nan(self) -> bool:
        return fp_bits.is_nan(self.type.type_id, self.bits)

    @property
    def is_one_value(self) -> bool:
        return self.value == 1.0

    @property
    def is_all_ones_value(self) -> bool:
        return self.bits == (1 << fp_bits.bit_width(self.type.type_id)) - 1


class _SingletonConstant(ConstantData):
    """A constant identified by its type alone."""

    __slots__ = ()
    _tag: str = ""

    @classmethod
    def get(cls, ty: Type) -> Self:
        table = ty.context.constants
        key = (cls._tag, ty)
        c = table.get(key)
        if c is None:
            c = table[key] = cls(ty)
        return cast(Self, c)

    def _key(self) -> Any:
        return (self._tag, self.type)


class ConstantPointerNull(_SingletonConstant):
    """``null`` of a pointer type."""

    __slots__ = ()
    _tag = "null"

    @property
    def is_null_value(self) -> bool:
        return True


class ConstantAggregateZero(_SingletonConstant):
    """``zeroinitializer`` of a struct, array or vector type."""

    __slots__ = ()
    _tag = "zeroinitializer"

    @property
    def is_null_value(self) -> bool:
        return True

    @property
    def element_count(self) -> int:
        return _element_count(self.type)

    def get_aggregate_element(self, index: int) -> Constant | None:
        if not 0 <= index < _element_count(self.type):
            return None
        return Constant.get_null_value(_element_type(self.type, index))


class ConstantTokenNone(_SingletonConstant):
    """``none`` of type token."""

    __slots__ = ()
    _tag = "none"

    @property
    def is_null_value(self) -> bool:
        return True


class ConstantTargetNone(_SingletonConstant):
    """``zeroinitializer`` of a target extension type."""

    __slots__ = ()
    _tag = "targetnone"

    @property
    def is_null_value(self) -> bool:
        return True


class UndefValue(_SingletonConstant):
    """``undef`` of any type."""

    __slots__ = ()
    _tag = "undef"

    def get_aggregate_element(self, index: int) -> Constant | None:
        if not 0 <= index < _element_count(self.type):
            return None
        return type(self).get(_element_type(self.type, index))


class PoisonValue(UndefValue):
    """``poison`` of any type."""

    __slots__ = ()
    _tag = "poison"


def _element_count(ty: Type) -> int:
    if isinstance(ty, (ArrayType, VectorType)):
        return ty.count
    if isinstance(ty, StructType):
        return len(ty.elements)
    return 0


def _element_type(ty: Type, index: int) -> Type:
    if isinstance(ty, (ArrayType, VectorType)):
        return ty.element_type
    if isinstance(ty, StructType):
        return ty.elements[index]
    raise IRError("type %s has no elements" % ty)


def _is_data_element_type(ty: Type) -> bool:
    """Element types that data arrays/vectors may hold (LLVM ``isElementTypeCompatible``)."""
    if isinstance(ty, IntegerType):
        return ty.width in (8, 16, 32, 64)
    return ty.type_id in (TypeID.HALF, TypeID.BFLOAT, TypeID.FLOAT, TypeID.DOUBLE)


def _canonical_sequence(ty: Type, elements: Sequence[Constant]) -> Constant | None:
    """LLVM's folding of an array/vector getter: zero/undef/poison/data forms."""
    if not elements:
        return ConstantAggregateZero.get(ty)
    first = elements[0]
    if all(e is first for e in elements):
        if isinstance(first, PoisonValue):
            return PoisonValue.get(ty)
        if isinstance(first, UndefValue):
            return UndefValue.get(ty)
        if first.is_null_value:
            return ConstantAggregateZero.get(ty)
    elem_ty = first.type
    if _is_data_element_type(elem_ty):
        if isinstance(first, ConstantInt) and all(isinstance(e, ConstantInt) for e in elements):
            raw = tuple(cast(ConstantInt, e).value for e in elements)
        elif isinstance(first, ConstantFP) and all(isinstance(e, ConstantFP) for e in elements):
            raw = tuple(cast(ConstantFP, e).bits for e in elements)
        else:
            return None
        if isinstance(ty, VectorType):
            return ConstantDataVector.get_raw(ty, raw)
        return ConstantDataArray.get_raw(cast(ArrayType, ty), raw)
    return None


def _fold_struct(ty: Type, elements: Sequence[Constant]) -> Constant | None:
    """LLVM's folding of a struct getter: all zero, all poison or all undef."""
    is_zero = True
    is_undef = False
    is_poison = False
    if elements:
        is_undef = isinstance(elements[0], UndefValue)
        is_poison = isinstance(elements[0], PoisonValue)
        is_zero = elements[0].is_null_value
        if is_undef or is_zero:
            for e in elements:
                if not e.is_null_value:
                    is_zero = False
                if not isinstance(e, PoisonValue):
                    is_poison = False
                if isinstance(e, PoisonValue) or not isinstance(e, UndefValue):
                    is_undef = False
    if is_zero:
        return ConstantAggregateZero.get(ty)
    if is_poison:
        return PoisonValue.get(ty)
    if is_undef:
        return UndefValue.get(ty)
    return None


class ConstantAggregate(Constant):
    """Arrays, structs and vectors whose elements are other constants."""

    __slots__ = ()

    _tag: str = ""

    def _key(self) -> Any:
        return (self._tag, self.type, tuple(u.value for u in self._operands))

    def _key_for(self, operands: list[Value]) -> Any:
        return (self._tag, self.type, tuple(operands))

    def _fold_operands(self, operands: list[Value]) -> Constant | None:
        return _canonical_sequence(self.type, cast("list[Constant]", operands))

    def get_aggregate_element(self, index: int) -> Constant | None:
        if 0 <= index < len(self._operands):
            return cast(Constant, self._operands[index].value)
        return None

    @property
    def elements(self) -> list[Constant]:
        return [cast(Constant, u.value) for u in self._operands]


class ConstantArray(ConstantAggregate):
    """``[T a, T b, ...]`` when no simpler form applies."""

    __slots__ = ()
    _tag = "array"

    @classmethod
    def get(cls, ty: ArrayType, elements: Sequence[Constant]) -> Constant:
        if len(elements) != ty.count:
            raise IRError("array of %d elements given %d" % (ty.count, len(elements)))
        for e in elements:
            if e.type is not ty.element_type:
                raise IRError("array element of type %s in %s" % (e.type, ty))
        folded = _canonical_sequence(ty, elements)
        if folded is not None:
            return folded
        table = ty.context.constants
        key = (cls._tag, ty, tuple(elements))
        c = table.get(key)
        if c is None:
            c = table[key] = cls(ty, elements)
        return cast(Constant, c)


class _VectorSplatQueries:
    """``is_all_ones_value``/``is_one_value`` of a vector constant: those of its splat (LLVM
    ``Constant::isAllOnesValue``/``isOneValue`` on a vector)."""

    __slots__ = ()

    if TYPE_CHECKING:  # each vector class defines its own

        @property
        def splat_value(self) -> Constant | None: ...

    @property
    def is_all_ones_value(self) -> bool:
        s = self.splat_value
        return s is not None and s.is_all_ones_value

    @property
    def is_one_value(self) -> bool:
        s = self.splat_value
        return s is not None and s.is_one_value


class ConstantVector(_VectorSplatQueries, ConstantAggregate):
    """``<T a, T b, ...>`` when no simpler form applies."""

    __slots__ = ()
    _tag = "vector"

    @classmethod
    def get(cls, elements: Sequence[Constant]) -> Constant:
        if not elements:
            raise IRError("a vector constant needs at least one element")
        elem_ty = elements[0].type
        ty = elem_ty.context.vector_type(elem_ty, len(elements))
        for e in elements:
            if e.type is not elem_ty:
                raise IRError("vector elements of different types")
        folded = _canonical_sequence(ty, elements)
        if folded is not None:
            return folded
        table = ty.context.constants
        key = (cls._tag, ty, tuple(elements))
        c = table.get(key)
        if c is None:
            c = table[key] = cls(ty, elements)
        return cast(Constant, c)

    @classmethod
    def get_splat(cls, ty: VectorType, element: Constant) -> Constant:
        """Every lane ``element``. As LLVM's ``ConstantVector::getSplat``, a scalable vector
        splat is ``zeroinitializer``, ``undef`` (also for a poison element) or the constant
        expression ``shufflevector (insertelement (poison, element, i64 0), poison,
        zeroinitializer)``."""
        if ty.scalable:
            if element.is_null_value:
                return ConstantAggregateZero.get(ty)
            if isinstance(element, UndefValue):
                return UndefValue.get(ty)
            from llvmpy_mid.ir.constant_expr import ConstantExpr

            poison = PoisonValue.get(ty)
            first = ConstantExpr.get_insert_element(poison, element, ConstantInt.get(ty.context.i64, 0))
            return ConstantExpr.get_shuffle_vector(first, poison, [0] * ty.count)
        return cls.get([element] * ty.count)

    @property
    def splat_value(self) -> Constant | None:
        first = self._operands[0].value
        for u in self._operands:
            if u.value is not first:
                return None
        return cast(Constant, first)


class ConstantStruct(ConstantAggregate):
    """``{ T a, U b }`` (or packed ``<{ ... }>``) when no simpler form applies."""

    __slots__ = ()
    _tag = "struct"

    @classmethod
    def get(cls, ty: StructType, elements: Sequence[Constant]) -> Constant:
        if len(elements) != len(ty.elements):
            raise IRError("struct of %d elements given %d" % (len(ty.elements), len(elements)))
        for e, t in zip(elements, ty.elements):
            if e.type is not t:
                raise IRError("struct element of type %s where %s expected" % (e.type, t))
        folded = _fold_struct(ty, elements)
        if folded is not None:
            return folded
        table = ty.context.constants
        key = (cls._tag, ty, tuple(elements))
        c = table.get(key)
        if c is None:
            c = table[key] = cls(ty, elements)
        return cast(Constant, c)

    @classmethod
    def get_anon(cls, elements: Sequence[Constant], packed: bool = False) -> Constant:
        """A constant of the literal struct type of its elements."""
        if not elements:
            raise IRError("get_anon needs elements to find a context")
        ty = elements[0].type.context.struct_type([e.type for e in elements], packed)
        return cls.get(ty, elements)

    def _fold_operands(self, operands: list[Value]) -> Constant | None:
        return _fold_struct(self.type, cast("list[Constant]", operands))


class ConstantDataSequential(ConstantData):
    """An array or vector of simple integers or floats, stored as raw element
    patterns (ints for integers, bit patterns for floats)."""

    __slots__ = ("raw",)

    raw: tuple[int, ...]
    _tag: str = ""

    def __init__(self, ty: Type, raw: tuple[int, ...]) -> None:
        User.__init__(self, ty)
        self.raw = raw

    def _key(self) -> Any:
        return (self._tag, self.type, self.raw)

    @property
    def element_type(self) -> Type:
        return cast("ArrayType | VectorType", self.type).element_type

    @property
    def element_count(self) -> int:
        return len(self.raw)

    def element_as_constant(self, index: int) -> Constant:
        et = self.element_type
        if isinstance(et, IntegerType):
            return ConstantInt.get(et, self.raw[index])
        return ConstantFP.from_bits(et, self.raw[index])

    def get_aggregate_element(self, index: int) -> Constant | None:
        if 0 <= index < len(self.raw):
            return self.element_as_constant(index)
        return None

    @property
    def elements(self) -> list[Constant]:
        return [self.element_as_constant(i) for i in range(len(self.raw))]

    @property
    def is_string(self) -> bool:
        """An ``i8`` array (printed ``c"..."``)."""
        et = self.element_type
        return isinstance(self, ConstantDataArray) and isinstance(et, IntegerType) and et.width == 8

    @property
    def is_c_string(self) -> bool:
        """A string whose only NUL is its last byte."""
        if not self.is_string or not self.raw or self.raw[-1] != 0:
            return False
        return 0 not in self.raw[:-1]

    def as_bytes(self) -> bytes:
        if not self.is_string:
            raise IRError("not an i8 array")
        return bytes(self.raw)

    @property
    def splat_value(self) -> Constant | None:
        first = self.raw[0]
        if all(r == first for r in self.raw):
            return self.element_as_constant(0)
        return None


class ConstantDataArray(ConstantDataSequential):
    __slots__ = ()
    _tag = "dataarray"

    @classmethod
    def get_raw(cls, ty: ArrayType, raw: Sequence[int]) -> Constant:
        """The canonical constant for raw element patterns (zero folds to
        ``zeroinitializer``)."""
        raw_t = tuple(raw)
        if len(raw_t) != ty.count:
            raise IRError("array of %d elements given %d" % (ty.count, len(raw_t)))
        if not _is_data_element_type(ty.element_type):
            raise IRError("data arrays hold i8/i16/i32/i64/half/bfloat/float/double, not %s" % ty.element_type)
        if all(r == 0 for r in raw_t):
            return ConstantAggregateZero.get(ty)
        table = ty.context.constants
        key = (cls._tag, ty, raw_t)
        c = table.get(key)
        if c is None:
            c = table[key] = cls(ty, raw_t)
        return cast(Constant, c)

    @classmethod
    def get_string(cls, ctx_type: Type, data: bytes, add_null: bool = True) -> Constant:
        """``c"..."``: an ``[N x i8]`` of ``data`` (plus a NUL when ``add_null``).
        ``ctx_type`` is any type of the wanted context."""
        ctx = ctx_type.context
        payload = data + b"\0" if add_null else data
        return cls.get_raw(ctx.array_type(ctx.i8, len(payload)), payload)


class ConstantDataVector(_VectorSplatQueries, ConstantDataSequential):
    __slots__ = ()
    _tag = "datavector"

    @classmethod
    def get_raw(cls, ty: VectorType, raw: Sequence[int]) -> Constant:
        raw_t = tuple(raw)
        if len(raw_t) != ty.count or ty.scalable:
            raise IRError("data vector of %s given %d elements" % (ty, len(raw_t)))
        if all(r == 0 for r in raw_t):
            return ConstantAggregateZero.get(ty)
        table = ty.context.constants
        key = (cls._tag, ty, raw_t)
        c = table.get(key)
        if c is None:
            c = table[key] = cls(ty, raw_t)
        return cast(Constant, c)


class BlockAddress(Constant):
    """``blockaddress(@f, %bb)``: the address of a block (operands: function, block)."""

    __slots__ = ()

    @classmethod
    def get(cls, function: Function, block: BasicBlock) -> BlockAddress:
        ctx = function.type.context
        table = ctx.constants
        key = ("blockaddress", function, block)
        c = table.get(key)
        if c is None:
            ty = ctx.pointer_type(function.address_space)
            c = table[key] = cls(ty, (function, block))
        return cast(BlockAddress, c)

    def _key(self) -> Any:
        return ("blockaddress", self._operands[0].value, self._operands[1].value)

    @property
    def function(self) -> Function:
        return cast("Function", self._operands[0].value)

    @property
    def block(self) -> BasicBlock:
        return cast("BasicBlock", self._operands[1].value)

    def _key_for(self, operands: list[Value]) -> Any:
        return ("blockaddress", operands[0], operands[1])


class _GlobalWrapper(Constant):
    """A constant that wraps one global value."""

    __slots__ = ()
    _tag: str = ""

    @classmethod
    def get(cls, gv: GlobalValue) -> Self:
        table = gv.type.context.constants
        key = (cls._tag, gv)
        c = table.get(key)
        if c is None:
            c = table[key] = cls(gv.type, (gv,))
        return cast(Self, c)

    def _key(self) -> Any:
        return (self._tag, self._operands[0].value)

    @property
    def global_value(self) -> GlobalValue:
        return cast("GlobalValue", self._operands[0].value)

    def _key_for(self, operands: list[Value]) -> Any:
        return (self._tag, operands[0])


class DSOLocalEquivalent(_GlobalWrapper):
    """``dso_local_equivalent @f``."""

    __slots__ = ()
    _tag = "dso_local_equivalent"


class NoCFIValue(_GlobalWrapper):
    """``no_cfi @f``."""

    __slots__ = ()
    _tag = "no_cfi"


class ConstantPtrAuth(Constant):
    """``ptrauth (ptr P, i32 key[, i64 disc[, ptr addrdisc]])``: a signed pointer
    (LLVM 19 ``ConstantPtrAuth``). Operands: pointer, key (``i32``),
    discriminator (``i64``), address discriminator (a pointer, null when
    absent); the type is the pointer's."""

    __slots__ = ()

    @classmethod
    def get(cls, pointer: Constant, key: ConstantInt, discriminator: ConstantInt, address: Constant) -> ConstantPtrAuth:
        if not pointer.type.is_pointer or not address.type.is_pointer:
            raise IRError("ptrauth needs pointer operands")
        if key.type.width != 32 or discriminator.type.width != 64:
            raise IRError("ptrauth needs an i32 key and an i64 discriminator")
        table = pointer.type.context.constants
        key_t = ("ptrauth", pointer, key, discriminator, address)
        c = table.get(key_t)
        if c is None:
            c = table[key_t] = cls(pointer.type, (pointer, key, discriminator, address))
        return cast(ConstantPtrAuth, c)

    def _key(self) -> Any:
        return ("ptrauth", *(u.value for u in self._operands))

    def _key_for(self, operands: list[Value]) -> Any:
        return ("ptrauth", *operands)

    @property
    def pointer(self) -> Constant:
        return cast(Constant, self._operands[0].value)

    @property
    def key(self) -> ConstantInt:
        return cast(ConstantInt, self._operands[1].value)

    @property
    def discriminator(self) -> ConstantInt:
        return cast(ConstantInt, self._operands[2].value)

    @property
    def address_discriminator(self) -> Constant:
        return cast(Constant, self._operands[3].value)


def get_splat_value(c: Value, allow_poison: bool = False) -> Constant | None:
    """LLVM ``Constant::getSplatValue(AllowPoison)``: the constant every lane of
    vector constant ``c`` holds, or None (also for any non-vector value): a zero
    vector, a data or element vector of one constant (with ``allow_poison``,
    poison lanes are skipped; an all-poison vector gives poison), or the
    ``shufflevector (insertelement (undef|poison, C, 0), undef|poison,
    zeroinitializer)`` expression that spells a scalable splat."""
    ty = c.type
    if type(ty) is not VectorType:
        return None
    if isinstance(c, ConstantAggregateZero):
        return Constant.get_null_value(ty.element_type)
    if isinstance(c, ConstantDataVector):
        return c.splat_value
    if isinstance(c, ConstantVector):
        if not allow_poison:
            return c.splat_value
        ops = c._operands
        elt = cast(Constant, ops[0].value)
        for u in ops:
            e = u.value
            if e is elt or isinstance(e, PoisonValue):
                continue
            if isinstance(elt, PoisonValue):
                elt = cast(Constant, e)
                continue
            return None
        return elt
    if isinstance(c, Constant) and getattr(c, "opcode", None) == "shufflevector":
        ops = c._operands
        first = ops[0].value
        if not isinstance(ops[1].value, UndefValue) or getattr(first, "opcode", None) != "insertelement":
            return None
        fops = cast(Constant, first)._operands
        index = fops[2].value
        if not isinstance(fops[0].value, UndefValue) or not isinstance(index, ConstantInt) or index.value:
            return None
        if any(x != 0 for x in c.shuffle_mask):  # type: ignore[attr-defined]
            return None
        return cast(Constant, fops[1].value)
    return None


def is_constant_used(constant: Value) -> bool:
    """LLVM ``Constant::isConstantUsed``: some chain of constant users ends at a
    non-constant or a global value."""
    stack = [constant]
    seen = {id(constant)}
    while stack:
        value = stack.pop()
        for user in value.users:
            if not user.is_constant or user.is_global_value:
                return True
            if id(user) not in seen:
                seen.add(id(user))
                stack.append(user)
    return False
