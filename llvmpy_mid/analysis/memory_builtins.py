"""Allocation functions and object sizes (LLVM lib/Analysis/MemoryBuiltins.cpp).

What:
- :func:`get_alloc_size`: the byte size a call to a known allocation function
  (C++ ``new``/``new[]`` variants, ``__kmpc_alloc_shared``) or to a function with
  ``allocsize`` allocates, when its size arguments are constants;
- :class:`ObjectSizeOffsetVisitor` / :func:`get_object_size`: the size of the
  object a pointer points into and the pointer's offset in it, from allocas,
  globals, ``byval``-like arguments, null, undef, allocation calls, constant GEP
  offsets, and phis/selects combined by the evaluation mode (``min``, ``max``,
  exact);
- :func:`lower_object_size_call`: the value an ``llvm.objectsize`` call folds to
  (``-1``/``0`` when unknown), building the size computation for dynamic calls
  (VLA allocas, allocation calls with variable sizes, constant GEPs over them)
  with a closing ``llvm.assume``, as ``ObjectSizeOffsetEvaluator`` does.

What it does not do (yet): ``strdup``-like sizes (string lengths), loads through
alias analysis (``llvm.objectsize`` is lowered without AA, as LLVM's
``lower-constant-intrinsics`` does), and in the dynamic evaluator: phis,
selects and GEPs with variable indices (they give "unknown", so the call
folds to its -1/0 default).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.instsimplify.memory import strip_and_accumulate_constant_offsets
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantPointerNull, PoisonValue, UndefValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalAlias, GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.intrinsics import intrinsic_declaration
from llvmpy_mid.ir.types import IntegerType, PointerType, Type
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.options import OPTIONS, declare_option

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo

__all__ = [
    "MAX_VISIT_INSTRUCTIONS_OPTION",
    "ObjectSizeOffsetEvaluator",
    "ObjectSizeOffsetVisitor",
    "ObjectSizeOpts",
    "get_alloc_alignment",
    "get_alloc_size",
    "get_allocation_family",
    "get_freed_operand",
    "get_reallocated_operand",
    "is_removable_alloc",
    "get_initial_value_of_allocation",
    "get_object_size",
    "is_alloc_like_fn",
    "lower_object_size_call",
]

MAX_VISIT_INSTRUCTIONS_OPTION = "object-size-offset-visitor-max-visit-instructions"
# Declared in the registry too (so the command line knows it before this module is imported).
declare_option(
    MAX_VISIT_INSTRUCTIONS_OPTION,
    "uint",
    100,
    "Maximum number of instructions for ObjectSizeOffsetVisitor to look at",
    "lower-constant-intrinsics",
)

# Allocation kinds (LLVM's AllocType bits).
OP_NEW_LIKE = 1
MALLOC_LIKE = 2
STRDUP_LIKE = 4
ANY_ALLOC = OP_NEW_LIKE | MALLOC_LIKE | STRDUP_LIKE

#: LibFunc -> (kind, number of parameters, first size parameter, second size parameter).
_ALLOCATION_FNS: dict[str, tuple[int, int, int, int]] = {
    "Znwj": (OP_NEW_LIKE, 1, 0, -1),
    "ZnwjRKSt9nothrow_t": (MALLOC_LIKE, 2, 0, -1),
    "ZnwjSt11align_val_t": (OP_NEW_LIKE, 2, 0, -1),
    "ZnwjSt11align_val_tRKSt9nothrow_t": (MALLOC_LIKE, 3, 0, -1),
    "Znwm": (OP_NEW_LIKE, 1, 0, -1),
    "Znwm12__hot_cold_t": (OP_NEW_LIKE, 2, 0, -1),
    "ZnwmRKSt9nothrow_t": (MALLOC_LIKE, 2, 0, -1),
    "ZnwmRKSt9nothrow_t12__hot_cold_t": (MALLOC_LIKE, 3, 0, -1),
    "ZnwmSt11align_val_t": (OP_NEW_LIKE, 2, 0, -1),
    "ZnwmSt11align_val_t12__hot_cold_t": (OP_NEW_LIKE, 3, 0, -1),
    "ZnwmSt11align_val_tRKSt9nothrow_t": (MALLOC_LIKE, 3, 0, -1),
    "ZnwmSt11align_val_tRKSt9nothrow_t12__hot_cold_t": (MALLOC_LIKE, 4, 0, -1),
    "Znaj": (OP_NEW_LIKE, 1, 0, -1),
    "ZnajRKSt9nothrow_t": (MALLOC_LIKE, 2, 0, -1),
    "ZnajSt11align_val_t": (OP_NEW_LIKE, 2, 0, -1),
    "ZnajSt11align_val_tRKSt9nothrow_t": (MALLOC_LIKE, 3, 0, -1),
    "Znam": (OP_NEW_LIKE, 1, 0, -1),
    "Znam12__hot_cold_t": (OP_NEW_LIKE, 2, 0, -1),
    "ZnamRKSt9nothrow_t": (MALLOC_LIKE, 2, 0, -1),
    "ZnamRKSt9nothrow_t12__hot_cold_t": (MALLOC_LIKE, 3, 0, -1),
    "ZnamSt11align_val_t": (OP_NEW_LIKE, 2, 0, -1),
    "ZnamSt11align_val_t12__hot_cold_t": (OP_NEW_LIKE, 3, 0, -1),
    "ZnamSt11align_val_tRKSt9nothrow_t": (MALLOC_LIKE, 3, 0, -1),
    "ZnamSt11align_val_tRKSt9nothrow_t12__hot_cold_t": (MALLOC_LIKE, 4, 0, -1),
    "msvc_new_int": (OP_NEW_LIKE, 1, 0, -1),
    "msvc_new_int_nothrow": (MALLOC_LIKE, 2, 0, -1),
    "msvc_new_longlong": (OP_NEW_LIKE, 1, 0, -1),
    "msvc_new_longlong_nothrow": (MALLOC_LIKE, 2, 0, -1),
    "msvc_new_array_int": (OP_NEW_LIKE, 1, 0, -1),
    "msvc_new_array_int_nothrow": (MALLOC_LIKE, 2, 0, -1),
    "msvc_new_array_longlong": (OP_NEW_LIKE, 1, 0, -1),
    "msvc_new_array_longlong_nothrow": (MALLOC_LIKE, 2, 0, -1),
    "strdup": (STRDUP_LIKE, 1, -1, -1),
    "dunder_strdup": (STRDUP_LIKE, 1, -1, -1),
    "strndup": (STRDUP_LIKE, 2, 1, -1),
    "dunder_strndup": (STRDUP_LIKE, 2, 1, -1),
    "__kmpc_alloc_shared": (MALLOC_LIKE, 1, 0, -1),
}


def _is_int32_or_64(ty: Type) -> bool:
    return isinstance(ty, IntegerType) and ty.width in (32, 64)


def _allocation_data_for_function(
    callee: Function, alloc_ty: int, tli: TargetLibraryInfo | None
) -> tuple[int, int, int, int] | None:
    fty = callee.function_type
    if not isinstance(fty.return_type, PointerType) or tli is None:
        return None
    lib = tli.get_lib_func(callee)
    if lib is None or not tli.has(lib):
        return None
    data = _ALLOCATION_FNS.get(lib)
    if data is None or (data[0] & alloc_ty) != data[0]:
        return None
    kind, nparams, fst, snd = data
    params = fty.params
    if len(params) != nparams:
        return None
    if fst >= 0 and not _is_int32_or_64(params[fst]):
        return None
    if snd >= 0 and not _is_int32_or_64(params[snd]):
        return None
    return data


def _direct_callee(v: Value) -> tuple[Function, bool] | None:
    """The called function of a non-intrinsic call and whether the call is ``nobuiltin``."""
    if not isinstance(v, CallBase):
        return None
    callee = v.called_function
    if callee is None or callee.intrinsic_id:
        return None
    return callee, v.is_no_builtin


def is_alloc_like_fn(v: Value, tli: TargetLibraryInfo | None) -> bool:
    """A call of an allocation function: a known library allocator (``operator new``,
    ``strdup`` ... with the expected signature, not ``nobuiltin``) or a callee marked
    ``allockind("alloc")`` (LLVM ``isAllocLikeFn``)."""
    found = _direct_callee(v)
    if found is not None and not found[1] and _allocation_data_for_function(found[0], ANY_ALLOC, tli) is not None:
        return True
    if isinstance(v, CallBase):
        kind = v.get_fn_attr("allockind")
        return kind is not None and bool(int(kind.alloc_fn_kind) & 1)  # AllocFnKind::Alloc
    return False


def _allocation_size_data(call: CallBase, tli: TargetLibraryInfo | None) -> tuple[int, int, int, int] | None:
    """LLVM ``getAllocationSize``: a known allocation function, else the callee's ``allocsize``."""
    found = _direct_callee(call)
    if found is None:
        return None
    callee, no_builtin = found
    if not no_builtin:
        data = _allocation_data_for_function(callee, ANY_ALLOC, tli)
        if data is not None:
            return data
    attr = callee.attributes.fn_attrs.get("allocsize")
    if attr is None:
        return None
    args = attr.alloc_size_args
    if args is None:
        return None
    fst, snd = args
    return (MALLOC_LIKE, len(callee.function_type.params), fst, -1 if snd is None else snd)


def _zext_or_trunc_checked(v: int, from_width: int, to_width: int) -> int | None:
    """LLVM ``CheckedZextOrTrunc``: ``v`` at ``to_width`` bits, None when it does not fit."""
    if from_width > to_width and v.bit_length() > to_width:
        return None
    return v & ((1 << to_width) - 1)


def get_alloc_alignment(call: CallBase, tli: TargetLibraryInfo | None) -> Value | None:
    """The argument giving the alignment of what ``call`` allocates: the ``align_val_t``
    argument of an aligned ``operator new``, else the argument marked ``allocalign``
    (LLVM ``getAllocAlignment``)."""
    found = _direct_callee(call)
    if found is not None and not found[1] and tli is not None:
        data = _allocation_data_for_function(found[0], ANY_ALLOC, tli)
        lib = tli.get_lib_func(found[0])
        if data is not None and lib is not None and "align_val_t" in lib:
            return call.get_arg(1)
    fn = call.called_function
    for idx in range(call.num_args):
        if call.attributes.param_attrs(idx).has("allocalign") or (
            fn is not None and fn.attributes.param_attrs(idx).has("allocalign")
        ):
            return call.get_arg(idx)
    return None


def get_alloc_size(call: CallBase, tli: TargetLibraryInfo | None, dl: DataLayout | None = None) -> int | None:
    """Bytes allocated by ``call`` when its size arguments are constants (LLVM ``getAllocSize``)."""
    data = _allocation_size_data(call, tli)
    if data is None:
        return None
    if dl is None:
        fn = call.function
        assert fn is not None and fn.parent is not None
        dl = fn.parent.data_layout
    bits = dl.index_type_size_in_bits(call.type)
    kind, _, fst, snd = data
    if kind == STRDUP_LIKE:
        from llvmpy_mid.analysis.constant_strings import get_string_length

        length = get_string_length(call.get_arg(0))  # with its NUL; 0 when unknown
        if not length:
            return None
        if fst > 0:  # strndup: at most n characters and the NUL
            limit = call.get_arg(fst)
            if not isinstance(limit, ConstantInt):
                return None
            if length > limit.value:
                length = limit.value + 1
        return length
    arg = call.get_arg(fst)
    if not isinstance(arg, ConstantInt):
        return None
    size = _zext_or_trunc_checked(arg.value, arg.width, bits)
    if size is None:
        return None
    if snd < 0:
        return size
    arg2 = call.get_arg(snd)
    if not isinstance(arg2, ConstantInt):
        return None
    n = _zext_or_trunc_checked(arg2.value, arg2.width, bits)
    if n is None:
        return None
    total = size * n
    return None if total >> bits else total


def _alloc_fn_kind(call: CallBase) -> int:
    kind = call.get_fn_attr("allockind")
    return int(kind.alloc_fn_kind) if kind is not None else 0


def get_initial_value_of_allocation(v: Value, tli: TargetLibraryInfo | None, ty: Type) -> Constant | None:
    """The value of a fresh allocation's bytes read as ``ty``: undef for malloc-like
    and ``allockind("uninitialized")`` allocators, zero for ``allockind("zeroed")``
    ones (LLVM ``getInitialValueOfAllocation``)."""
    if not isinstance(v, CallBase):
        return None
    found = _direct_callee(v)
    if found is not None and not found[1] and _allocation_data_for_function(found[0], MALLOC_LIKE | OP_NEW_LIKE, tli) is not None:
        return UndefValue.get(ty)
    kind = _alloc_fn_kind(v)
    if kind & 8:  # AllocFnKind::Uninitialized
        return UndefValue.get(ty)
    if kind & 16:  # AllocFnKind::Zeroed
        return Constant.get_null_value(ty)
    return None


#: LLVM's FreeFnData: deallocation library functions and their parameter counts (``free``
#: itself is recognised by its ``allockind("free")``).
_FREE_FNS: dict[str, int] = {
    "ZdlPv": 1, "ZdaPv": 1, "msvc_delete_ptr32": 1, "msvc_delete_ptr64": 1,
    "msvc_delete_array_ptr32": 1, "msvc_delete_array_ptr64": 1,
    "ZdlPvj": 2, "ZdlPvm": 2, "ZdlPvRKSt9nothrow_t": 2, "ZdlPvSt11align_val_t": 2,
    "ZdaPvj": 2, "ZdaPvm": 2, "ZdaPvRKSt9nothrow_t": 2, "ZdaPvSt11align_val_t": 2,
    "msvc_delete_ptr32_int": 2, "msvc_delete_ptr64_longlong": 2, "msvc_delete_ptr32_nothrow": 2,
    "msvc_delete_ptr64_nothrow": 2, "msvc_delete_array_ptr32_int": 2, "msvc_delete_array_ptr64_longlong": 2,
    "msvc_delete_array_ptr32_nothrow": 2, "msvc_delete_array_ptr64_nothrow": 2, "__kmpc_free_shared": 2,
    "ZdlPvSt11align_val_tRKSt9nothrow_t": 3, "ZdaPvSt11align_val_tRKSt9nothrow_t": 3,
    "ZdlPvjSt11align_val_t": 3, "ZdlPvmSt11align_val_t": 3, "ZdaPvjSt11align_val_t": 3, "ZdaPvmSt11align_val_t": 3,
}


def _is_lib_free_function(fn: Function, lib: str) -> bool:
    nparams = _FREE_FNS.get(lib)
    if nparams is None:
        kind = fn.attributes.get_fn_attr("allockind")
        return kind is not None and bool(int(kind.alloc_fn_kind) & 4)
    fty = fn.function_type
    return fty.return_type.is_void and len(fty.params) == nparams and fty.params[0].is_pointer


def get_freed_operand(call: CallBase, tli: TargetLibraryInfo | None) -> Value | None:
    """The pointer a deallocation call releases (a known ``operator delete``-like library
    function with its prototype, or the ``allocptr`` argument of an ``allockind("free")``
    function), else None (LLVM ``getFreedOperand``)."""
    found = _direct_callee(call)
    if found is None or found[1]:
        return None
    callee = found[0]
    if tli is not None:
        lib = tli.get_lib_func(callee)
        if lib is not None and tli.has(lib) and _is_lib_free_function(callee, lib):
            return call.get_arg(0)
    if _alloc_fn_kind(call) & 4:  # AllocFnKind::Free
        for i in range(call.arg_size):
            if call.param_has_attr(i, "allocptr"):
                return call.get_arg(i)
    return None


def _malloc_family(lib: str) -> str:
    """LLVM ``mangledNameForMallocFamily`` of the family a known allocation or
    deallocation library function belongs to."""
    aligned = "align_val_t" in lib
    if lib.startswith(("Znw", "ZdlPv")):
        return "_ZnwmSt11align_val_t" if aligned else "_Znwm"
    if lib.startswith(("Zna", "ZdaPv")):
        return "_ZnamSt11align_val_t" if aligned else "_Znam"
    if lib.startswith(("msvc_new_array", "msvc_delete_array")):
        return "??_U@YAPAXI@Z"
    if lib.startswith(("msvc_new", "msvc_delete")):
        return "??2@YAPAXI@Z"
    if lib.startswith("__kmpc"):
        return "__kmpc_alloc_shared"
    return "malloc"


def get_allocation_family(v: Value, tli: TargetLibraryInfo | None) -> str | None:
    """The family an allocation, reallocation or deallocation call belongs to: the
    mangled name of a known library function's family, else the ``alloc-family``
    attribute of an ``allockind`` function; None otherwise (LLVM ``getAllocationFamily``)."""
    found = _direct_callee(v)
    if found is None or found[1]:
        return None
    assert isinstance(v, CallBase)
    callee = found[0]
    if tli is not None:
        lib = tli.get_lib_func(callee)
        if lib is not None and tli.has(lib):
            if _allocation_data_for_function(callee, ANY_ALLOC, tli) is not None or lib in _FREE_FNS:
                return _malloc_family(lib)
    if _alloc_fn_kind(v) & 7:  # AllocFnKind::Free | Alloc | Realloc
        attr = v.get_fn_attr("alloc-family")
        if attr is not None:
            return str(attr.value)
    return None


def get_reallocated_operand(call: CallBase) -> Value | None:
    """The ``allocptr`` argument of an ``allockind("realloc")`` call, else None (LLVM
    ``getReallocatedOperand``)."""
    if _alloc_fn_kind(call) & 2:  # AllocFnKind::Realloc
        for i in range(call.arg_size):
            if call.param_has_attr(i, "allocptr"):
                return call.get_arg(i)
    return None


def is_removable_alloc(call: CallBase, tli: TargetLibraryInfo | None) -> bool:
    """Whether an unused allocation may be deleted: the C allocation family and
    ``operator new``, i.e. :func:`is_alloc_like_fn` (LLVM ``isRemovableAlloc``)."""
    return is_alloc_like_fn(call, tli)


class ObjectSizeOpts:
    """How object sizes are computed (LLVM ``ObjectSizeOpts``).

    ``mode``: ``"exact"`` (ExactSizeFromOffset), ``"exact_underlying"``, ``"min"``
    or ``"max"`` (how phi/select alternatives combine)."""

    __slots__ = ("mode", "round_to_align", "null_is_unknown_size")

    def __init__(self, mode: str = "exact", round_to_align: bool = False, null_is_unknown_size: bool = False) -> None:
        self.mode = mode
        self.round_to_align = round_to_align
        self.null_is_unknown_size = null_is_unknown_size


#: (size, offset), each None when unknown; values are bit patterns of the index width.
SizeOffset = tuple[int | None, int | None]
_UNKNOWN: SizeOffset = (None, None)


def _signed(v: int, width: int) -> int:
    return v - (1 << width) if v >> (width - 1) else v


def _size_with_overflow(so: SizeOffset, width: int) -> int:
    """size - offset, or 0 when the offset is negative or beyond the size (LLVM ``getSizeWithOverflow``)."""
    size, offset = so
    assert size is not None and offset is not None
    if _signed(offset, width) < 0 or size < offset:
        return 0
    return size - offset


class ObjectSizeOffsetVisitor:
    """Constant size and offset of the object a pointer points into (LLVM ``ObjectSizeOffsetVisitor``)."""

    __slots__ = ("dl", "tli", "opts", "int_bits", "_seen", "_visited")

    def __init__(self, dl: DataLayout, tli: TargetLibraryInfo | None, opts: ObjectSizeOpts) -> None:
        self.dl = dl
        self.tli = tli
        self.opts = opts
        self.int_bits = 64
        self._seen: dict[Instruction, SizeOffset] = {}
        self._visited = 0

    def compute(self, v: Value) -> SizeOffset:
        self._visited = 0
        return self._compute_impl(v)

    def _align(self, size: int, align: int | None) -> int:
        if self.opts.round_to_align and align:
            return (size + align - 1) // align * align
        return size

    def _compute_impl(self, v: Value) -> SizeOffset:
        dl = self.dl
        initial_bits = dl.index_type_size_in_bits(v.type)
        base, offset = strip_and_accumulate_constant_offsets(v, dl, True, True)
        self.int_bits = dl.index_type_size_in_bits(base.type)
        size, off = self._compute_value(base)
        changed = initial_bits != self.int_bits
        if not changed and offset == 0:
            return size, off
        bits = self.int_bits
        if changed:
            if size is not None:
                size = _zext_or_trunc_checked(size, bits, initial_bits)
            if off is not None:
                off = _zext_or_trunc_checked(off, bits, initial_bits)
        if off is not None:
            off = (off + offset) & ((1 << initial_bits) - 1)
        return size, off

    def _compute_value(self, v: Value) -> SizeOffset:
        if isinstance(v, Instruction):
            seen = self._seen
            if v in seen:
                return seen[v]
            seen[v] = _UNKNOWN
            self._visited += 1
            if self._visited > int(OPTIONS.value(MAX_VISIT_INSTRUCTIONS_OPTION)):
                return _UNKNOWN
            result = self._visit(v)
            seen[v] = result
            return result
        if isinstance(v, Argument):
            return self._visit_argument(v)
        if isinstance(v, ConstantPointerNull):
            if self.opts.null_is_unknown_size or v.type.address_space:  # type: ignore[attr-defined]
                return _UNKNOWN
            return 0, 0
        if isinstance(v, GlobalAlias):
            if v.is_interposable:
                return _UNKNOWN
            return self._compute_impl(v.aliasee)
        if isinstance(v, GlobalVariable):
            return self._visit_global(v)
        if isinstance(v, UndefValue):
            return 0, 0
        return _UNKNOWN

    def _visit(self, inst: Instruction) -> SizeOffset:
        if isinstance(inst, AllocaInst):
            return self._visit_alloca(inst)
        if isinstance(inst, CallBase):
            size = get_alloc_size(inst, self.tli, self.dl)
            return _UNKNOWN if size is None else (size, 0)
        if isinstance(inst, PHINode):
            if inst.num_incoming == 0:
                return _UNKNOWN
            values = inst.incoming_values
            acc = self._compute_impl(values[0])
            for v in values[1:]:
                acc = self._combine(acc, self._compute_impl(v))
            return acc
        if inst.opcode == "select":
            return self._combine(self._compute_impl(inst.get_operand(1)), self._compute_impl(inst.get_operand(2)))
        return _UNKNOWN

    def _visit_alloca(self, inst: AllocaInst) -> SizeOffset:
        ty = inst.allocated_type
        if ty.is_scalable if hasattr(ty, "is_scalable") else False:  # pragma: no cover - scalable types
            if self.opts.mode != "min":
                return _UNKNOWN
        try:
            elem = self.dl.type_alloc_size(ty)
        except Exception:
            return _UNKNOWN
        bits = self.int_bits
        size = elem & ((1 << bits) - 1)
        if not inst.is_array_allocation:
            return self._align(size, inst.alignment), 0
        count = inst.array_size
        if not isinstance(count, ConstantInt):
            return _UNKNOWN
        n = _zext_or_trunc_checked(count.value, count.width, bits)
        if n is None:
            return _UNKNOWN
        total = size * n
        if total >> bits:
            return _UNKNOWN
        return self._align(total, inst.alignment), 0

    def _visit_argument(self, arg: Argument) -> SizeOffset:
        fn = arg.parent
        attrs = fn.attributes
        index = arg.arg_no
        mem_ty = None
        for kind in ("byval", "byref", "preallocated", "inalloca", "sret"):
            mem_ty = attrs.param_type_attr(index, kind)
            if mem_ty is not None:
                break
        if mem_ty is None or not mem_ty.is_sized:
            return _UNKNOWN
        size = self.dl.type_alloc_size(mem_ty) & ((1 << self.int_bits) - 1)
        return self._align(size, attrs.param_alignment(index)), 0

    def _visit_global(self, gv: GlobalVariable) -> SizeOffset:
        if (
            not gv.value_type.is_sized
            or gv.linkage is Linkage.EXTERN_WEAK
            or ((not gv.has_initializer or gv.is_interposable) and self.opts.mode != "min")
        ):
            return _UNKNOWN
        size = self.dl.type_alloc_size(gv.value_type) & ((1 << self.int_bits) - 1)
        return self._align(size, gv.alignment or None), 0

    def _combine(self, lhs: SizeOffset, rhs: SizeOffset) -> SizeOffset:
        if None in lhs or None in rhs:
            return _UNKNOWN
        bits = self.int_bits
        mode = self.opts.mode
        a = _signed(_size_with_overflow(lhs, bits), bits)
        b = _signed(_size_with_overflow(rhs, bits), bits)
        if mode == "min":
            return lhs if a < b else rhs
        if mode == "max":
            return lhs if a > b else rhs
        if mode == "exact":
            return lhs if a == b else _UNKNOWN
        return lhs if lhs == rhs else _UNKNOWN


def get_object_size(
    ptr: Value, dl: DataLayout, tli: TargetLibraryInfo | None = None, opts: ObjectSizeOpts | None = None
) -> int | None:
    """Bytes from ``ptr`` to the end of its object, when known (LLVM ``getObjectSize``)."""
    visitor = ObjectSizeOffsetVisitor(dl, tli, opts or ObjectSizeOpts())
    so = visitor.compute(ptr)
    if None in so:
        return None
    bits = dl.index_type_size_in_bits(ptr.type)
    return _size_with_overflow(so, bits)


ValueSizeOffset = tuple[Value, Value] | None


class ObjectSizeOffsetEvaluator:
    """Size and offset as IR values, built before the pointer's definition where they are not
    constants (LLVM ``ObjectSizeOffsetEvaluator``, without phis, selects and variable GEPs)."""

    __slots__ = ("dl", "tli", "opts", "int_ty", "_inserted", "_seen", "_cache")

    def __init__(self, dl: DataLayout, tli: TargetLibraryInfo | None, opts: ObjectSizeOpts) -> None:
        self.dl = dl
        self.tli = tli
        self.opts = opts
        self.int_ty: Type | None = None
        self._inserted: list[Instruction] = []
        self._seen: set[Value] = set()
        self._cache: dict[Value, ValueSizeOffset] = {}

    def _builder(self, before: Instruction) -> IRBuilder:
        return IRBuilder(before=before, folder=ConstantFolder(), inserter=self._inserted.append)

    def compute(self, v: Value) -> ValueSizeOffset:
        self.int_ty = self.dl.index_type(v.type)
        result = self._compute(v)
        if result is None:
            for key in self._seen:
                cached = self._cache.get(key)
                if cached is not None:
                    del self._cache[key]
            for inst in reversed(self._inserted):
                if inst.has_uses:
                    inst.replace_all_uses_with(PoisonValue.get(inst.type))
                inst.erase_from_parent()
        self._seen.clear()
        self._inserted.clear()
        return result

    def _compute(self, v: Value) -> ValueSizeOffset:
        int_ty = self.int_ty
        assert int_ty is not None
        visitor = ObjectSizeOffsetVisitor(self.dl, self.tli, self.opts)
        size, offset = visitor.compute(v)
        if size is not None and offset is not None:
            return ConstantInt.get(int_ty, size), ConstantInt.get(int_ty, offset)
        v = strip_pointer_casts(v)
        if v in self._cache:
            return self._cache[v]
        result: ValueSizeOffset = None
        if v not in self._seen:
            self._seen.add(v)
            if getattr(v, "opcode", "") == "getelementptr":
                result = self._visit_gep(v)
            elif isinstance(v, AllocaInst):
                result = self._visit_alloca(v)
            elif isinstance(v, CallBase):
                result = self._visit_call(v)
        self._cache[v] = result
        return result

    def _visit_alloca(self, inst: AllocaInst) -> ValueSizeOffset:
        int_ty = self.int_ty
        assert int_ty is not None
        if not inst.allocated_type.is_sized:
            return None
        b = self._builder(inst)
        count = b.create_zext_or_trunc(inst.array_size, int_ty)
        size = b.create_mul(ConstantInt.get(int_ty, self.dl.type_alloc_size(inst.allocated_type)), count)
        return size, ConstantInt.get(int_ty, 0)

    def _visit_call(self, call: CallBase) -> ValueSizeOffset:
        int_ty = self.int_ty
        assert int_ty is not None
        data = _allocation_size_data(call, self.tli)
        if data is None or data[0] == STRDUP_LIKE:
            return None
        b = self._builder(call)
        first = b.create_zext_or_trunc(call.get_arg(data[2]), int_ty)
        zero = ConstantInt.get(int_ty, 0)
        if data[3] < 0:
            return first, zero
        second = b.create_zext_or_trunc(call.get_arg(data[3]), int_ty)
        return b.create_mul(first, second), zero

    def _visit_gep(self, gep: Value) -> ValueSizeOffset:
        from llvmpy_mid.analysis.constant_folding import gep_constant_offset

        ptr_data = self._compute(gep.get_operand(0))  # type: ignore[attr-defined]
        if ptr_data is None:
            return None
        off = gep_constant_offset(gep, self.dl)
        if off is None:
            return None
        int_ty = self.int_ty
        assert int_ty is not None
        size, base_off = ptr_data
        const = ConstantInt.get(int_ty, off)
        if isinstance(gep, Instruction):
            offset = self._builder(gep).create_add(base_off, const)
        elif isinstance(base_off, ConstantInt):
            offset = ConstantInt.get(int_ty, base_off.value + off)
        else:
            return None
        return size, offset


def lower_object_size_call(
    call: CallBase, dl: DataLayout, tli: TargetLibraryInfo | None = None, must_succeed: bool = True
) -> Value | None:
    """The value ``llvm.objectsize(ptr, min, nullunknown, dynamic)`` folds to (LLVM
    ``lowerObjectSizeCall``); None when it cannot be folded and ``must_succeed`` is false."""
    result_ty = call.type
    assert isinstance(result_ty, IntegerType)
    min_flag = call.get_arg(1)
    max_val = isinstance(min_flag, ConstantInt) and min_flag.value == 0
    mode = ("max" if max_val else "min") if must_succeed else "exact"
    null_flag = call.get_arg(2)
    opts = ObjectSizeOpts(mode, null_is_unknown_size=isinstance(null_flag, ConstantInt) and null_flag.value == 1)
    dyn = call.get_arg(3)
    static_only = isinstance(dyn, ConstantInt) and dyn.value == 0
    width = result_ty.width
    ptr = call.get_arg(0)
    if static_only:
        size = get_object_size(ptr, dl, tli, opts)
        if size is not None and size >> width == 0:
            return ConstantInt.get(result_ty, size)
    else:
        evaluator = ObjectSizeOffsetEvaluator(dl, tli, opts)
        pair = evaluator.compute(ptr)
        if pair is not None:
            size_v, offset_v = pair
            b = IRBuilder(before=call, folder=ConstantFolder())
            result = b.create_sub(size_v, offset_v)
            use_zero = b.create_icmp(Predicate.ICMP_ULT, size_v, offset_v)
            result = b.create_zext_or_trunc(result, result_ty)
            ret = b.create_select(use_zero, ConstantInt.get(result_ty, 0), result)
            if not isinstance(size_v, Constant) or not isinstance(offset_v, Constant):
                ne = b.create_icmp(Predicate.ICMP_NE, ret, ConstantInt.get(result_ty, -1))
                module = call.module
                assert module is not None
                ctx = result_ty.context
                b.call(intrinsic_declaration(module, "llvm.assume", ctx.function_type(ctx.void, [ctx.i1])), [ne])
            return ret
    if not must_succeed:
        return None
    return ConstantInt.get(result_ty, -1 if max_val else 0)


def is_malloc_or_calloc_like_fn(v: Value, tli: TargetLibraryInfo | None) -> bool:
    """A call of a known ``malloc``/``calloc``/``operator new``-like library function,
    not ``nobuiltin`` (LLVM ``isMallocOrCallocLikeFn``)."""
    found = _direct_callee(v)
    if found is None or found[1]:
        return False
    return _allocation_data_for_function(found[0], MALLOC_LIKE | OP_NEW_LIKE, tli) is not None
