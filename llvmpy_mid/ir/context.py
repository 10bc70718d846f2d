"""The owner of uniqued types, constants and metadata (LLVM ``LLVMContext``).

Everything that LLVM uniques lives in tables here, so identity comparison is
equality: ``ctx.int_type(32) is ctx.i32`` and
``ConstantInt.get(ctx.i32, 5) is ConstantInt.get(ctx.i32, 5)``.
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.types import (
    _BAD_ARGUMENT,
    _BAD_ARRAY_ELEMENT,
    _BAD_RETURN,
    _VECTOR_ELEMENT,
    MAX_INT_BITS,
    ArrayType,
    FloatingPointType,
    FunctionType,
    IntegerType,
    PointerType,
    StructType,
    TargetExtType,
    Type,
    TypeID,
    VectorType,
    check_struct_elements,
)

class Context:
    """Uniquing tables for one world of IR. Modules built in one context may not
    share objects with modules of another."""

    __slots__ = (
        "void",
        "label",
        "metadata",
        "token",
        "half",
        "bfloat",
        "float",
        "double",
        "x86_fp80",
        "fp128",
        "ppc_fp128",
        "x86_mmx",
        "x86_amx",
        "i1",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "ptr",
        "_ints",
        "_pointers",
        "_functions",
        "_arrays",
        "_vectors",
        "_literal_structs",
        "_named_structs",
        "_struct_suffix",
        "_target_ext",
        "identified_struct_count",
        "constants",
        "metadata_nodes",
        "metadata_strings",
        "sync_scopes",
        "md_kinds",
        "value_metadata",
        "md_kind_names",
    )

    def __init__(self) -> None:
        self.void = Type(self, TypeID.VOID)
        self.label = Type(self, TypeID.LABEL)
        self.metadata = Type(self, TypeID.METADATA)
        self.token = Type(self, TypeID.TOKEN)
        self.x86_mmx = Type(self, TypeID.X86_MMX)
        self.x86_amx = Type(self, TypeID.X86_AMX)
        self.half = FloatingPointType(self, TypeID.HALF, 16, 11)
        self.bfloat = FloatingPointType(self, TypeID.BFLOAT, 16, 8)
        self.float = FloatingPointType(self, TypeID.FLOAT, 32, 24)
        self.double = FloatingPointType(self, TypeID.DOUBLE, 64, 53)
        self.x86_fp80 = FloatingPointType(self, TypeID.X86_FP80, 80, 64)
        self.fp128 = FloatingPointType(self, TypeID.FP128, 128, 113)
        self.ppc_fp128 = FloatingPointType(self, TypeID.PPC_FP128, 128, 106)
        self._ints: dict[int, IntegerType] = {}
        self._pointers: dict[int, PointerType] = {}
        self._functions: dict[tuple[Type, tuple[Type, ...], bool], FunctionType] = {}
        self._arrays: dict[tuple[Type, int], ArrayType] = {}
        self._vectors: dict[tuple[Type, int, bool], VectorType] = {}
        self._literal_structs: dict[tuple[tuple[Type, ...], bool], StructType] = {}
        self._named_structs: dict[str, StructType] = {}
        self._struct_suffix = 0
        self.identified_struct_count = 0
        """How many identified structs ``named_struct`` has made (the printer stops
        looking for a module's struct types once it has found them all)."""
        self._target_ext: dict[tuple[str, tuple[Type, ...], tuple[int, ...]], TargetExtType] = {}
        self.i1 = self.int_type(1)
        self.i8 = self.int_type(8)
        self.i16 = self.int_type(16)
        self.i32 = self.int_type(32)
        self.i64 = self.int_type(64)
        self.i128 = self.int_type(128)
        self.ptr = self.pointer_type(0)
        self.constants: dict[Any, Any] = {}
        """Uniquing table of constants, keyed by a tuple that starts with the kind."""
        self.metadata_nodes: dict[Any, Any] = {}
        """Uniquing table of metadata nodes."""
        self.metadata_strings: dict[str, Any] = {}
        self.sync_scopes: list[str] = ["singlethread", ""]
        """Synchronisation scope names; 0 is ``singlethread``, 1 the system scope."""
        self.md_kinds: dict[str, int] = {}
        """Metadata attachment kind ids by name (``dbg`` is 0, as in LLVM)."""
        self.value_metadata: dict[Any, Any] = {}
        """The ``ValueAsMetadata`` wrapper of each value that metadata refers to."""
        self.md_kind_names: list[str] = []
        """Metadata kind names by id."""
        for kind in _FIXED_MD_KINDS:
            self.md_kind_id(kind)

    # --- scalar types ----------------------------------------------------
    def int_type(self, width: int) -> IntegerType:
        """``iN``; ``width`` must be in 1 .. 2**23-1."""
        ty = self._ints.get(width)
        if ty is None:
            if not 1 <= width <= MAX_INT_BITS:
                raise ValueError("integer width %d out of range 1..%d" % (width, MAX_INT_BITS))
            ty = self._ints[width] = IntegerType(self, width)
        return ty

    def pointer_type(self, address_space: int = 0) -> PointerType:
        ty = self._pointers.get(address_space)
        if ty is None:
            if not 0 <= address_space < (1 << 24):
                raise ValueError("invalid address space %d" % address_space)
            ty = self._pointers[address_space] = PointerType(self, address_space)
        return ty

    def fp_type(self, name: str) -> FloatingPointType:
        """The floating-point type spelled ``name`` (``"double"``, ``"x86_fp80"``...)."""
        ty = getattr(self, name, None) if name in _FP_NAMES else None
        if not isinstance(ty, FloatingPointType):
            raise ValueError("unknown floating-point type %r" % name)
        return ty

    # --- derived types ---------------------------------------------------
    def function_type(self, return_type: Type, params: Sequence[Type] = (), is_vararg: bool = False) -> FunctionType:
        key = (return_type, tuple(params), is_vararg)
        ty = self._functions.get(key)
        if ty is None:
            if return_type.type_id in _BAD_RETURN:
                raise IRError("invalid function return type: %s" % return_type)
            for p in key[1]:
                if p.type_id in _BAD_ARGUMENT:
                    raise IRError("invalid type for function argument: %s" % p)
            ty = self._functions[key] = FunctionType(self, return_type, key[1], is_vararg)
        return ty

    def array_type(self, element_type: Type, count: int) -> ArrayType:
        key = (element_type, count)
        ty = self._arrays.get(key)
        if ty is None:
            if count < 0:
                raise ValueError("negative array length")
            if element_type.type_id in _BAD_ARRAY_ELEMENT:
                raise IRError("invalid array element type: %s" % element_type)
            ty = self._arrays[key] = ArrayType(self, element_type, count)
        return ty

    def vector_type(self, element_type: Type, count: int, scalable: bool = False) -> VectorType:
        key = (element_type, count, scalable)
        ty = self._vectors.get(key)
        if ty is None:
            if count <= 0:
                raise ValueError("vector length must be positive")
            if element_type.type_id not in _VECTOR_ELEMENT:
                raise IRError("invalid vector element type: %s" % element_type)
            ty = self._vectors[key] = VectorType(self, element_type, count, scalable)
        return ty

    def struct_type(self, elements: Sequence[Type], packed: bool = False) -> StructType:
        """A literal (structurally uniqued) struct type."""
        key = (tuple(elements), packed)
        ty = self._literal_structs.get(key)
        if ty is None:
            check_struct_elements(key[0])
            ty = self._literal_structs[key] = StructType(self, key[0], packed, True)
        return ty

    def named_struct(self, name: str = "", elements: Sequence[Type] | None = None, packed: bool = False) -> StructType:
        """A new identified struct. Opaque when ``elements`` is None.

        An empty name makes an anonymous identified struct (printed as ``%0``...);
        a name already in use gets a unique ``.N`` suffix, as LLVM does.
        """
        ty = StructType(self, (), packed, False)
        self.identified_struct_count += 1
        if name:
            self._rename_struct(ty, name)
        if elements is not None:
            ty.set_body(elements, packed)
        return ty

    def get_named_struct(self, name: str) -> StructType | None:
        """The identified struct called ``name``, if any."""
        return self._named_structs.get(name)

    def named_structs(self) -> Iterator[StructType]:
        return iter(self._named_structs.values())

    def _rename_struct(self, ty: StructType, name: str) -> None:
        if ty.name == name:
            return
        if ty.name:
            del self._named_structs[ty.name]
        if name:
            unique = name
            while unique in self._named_structs:
                unique = "%s.%d" % (name, self._struct_suffix)
                self._struct_suffix += 1
            self._named_structs[unique] = ty
            name = unique
        ty.name = name

    def target_ext_type(self, name: str, type_params: Sequence[Type] = (), int_params: Sequence[int] = ()) -> TargetExtType:
        key = (name, tuple(type_params), tuple(int_params))
        ty = self._target_ext.get(key)
        if ty is None:
            ty = self._target_ext[key] = TargetExtType(self, name, key[1], key[2])
        return ty

    # --- names interned in the context ----------------------------------
    def sync_scope_id(self, name: str) -> int:
        """The id of a synchronisation scope name, registering it if new."""
        try:
            return self.sync_scopes.index(name)
        except ValueError:
            self.sync_scopes.append(name)
            return len(self.sync_scopes) - 1

    def md_kind_id(self, name: str) -> int:
        """The id of a metadata attachment kind, registering it if new."""
        kind = self.md_kinds.get(name)
        if kind is None:
            kind = self.md_kinds[name] = len(self.md_kind_names)
            self.md_kind_names.append(name)
        return kind


_FP_NAMES = frozenset(("half", "bfloat", "float", "double", "x86_fp80", "fp128", "ppc_fp128"))

# LLVM 19's fixed metadata kinds, in their id order (FixedMetadataKinds.def).
_FIXED_MD_KINDS = (
    "dbg",
    "tbaa",
    "prof",
    "fpmath",
    "range",
    "tbaa.struct",
    "invariant.load",
    "alias.scope",
    "noalias",
    "nontemporal",
    "llvm.mem.parallel_loop_access",
    "nonnull",
    "dereferenceable",
    "dereferenceable_or_null",
    "make.implicit",
    "unpredictable",
    "invariant.group",
    "align",
    "llvm.loop",
    "type",
    "section_prefix",
    "absolute_symbol",
    "associated",
    "callees",
    "irr_loop",
    "llvm.access.group",
    "callback",
    "llvm.preserve.access.index",
    "vcall_visibility",
    "noundef",
    "annotation",
    "nosanitize",
    "func_sanitize",
    "exclude",
    "memprof",
    "callsite",
    "kcfi_type",
    "pcsections",
    "DIAssignID",
    "coro.outside.frame",
    "mmra",
)
