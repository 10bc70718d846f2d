"""Where a memory access happens and how many bytes it touches (LLVM's ``LocationSize``,
``AAMDNodes`` and ``MemoryLocation``; ``lib/Analysis/MemoryLocation.cpp``).

- :class:`LocationSize`: a precise byte count, an upper bound, or one of the unknown
  sizes: ``after_pointer`` (anything from the pointer on) and ``before_or_after_pointer``
  (anything around it). Scalable sizes carry ``scalable`` (the count is ``vscale ×`` it).
  It is packed into one integer the way LLVM packs it, so that ``raw`` orders and
  hashes sizes exactly as LLVM's maps do; ``str`` is LLVM's ``LocationSize::print``.
- :class:`AAMDNodes`: an access's ``!tbaa``, ``!tbaa.struct``, ``!alias.scope`` and
  ``!noalias`` nodes, with LLVM's ways of combining them (``merge``, ``concat``,
  ``intersect``) and of re-targeting them to part of an access (``shift``,
  ``extend_to``, ``adjust_for_access`` for ``!tbaa.struct``); :func:`set_aa_metadata`.
- :class:`MemoryLocation`: a pointer, a size and the AA nodes, built for each memory
  instruction (:meth:`MemoryLocation.get`, :meth:`get_or_none`), for the argument of a
  call (:meth:`get_for_argument`: memory intrinsics, lifetime markers, masked
  loads/stores and the string/memory library functions TargetLibraryInfo knows), and
  for the destination/source of a memory transfer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AtomicCmpXchgInst, AtomicRMWInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import VAArgInst
from llvmpy_mid.ir.metadata import MDNode
from llvmpy_mid.ir.metadata_merge import md_intersect, most_generic_alias_scope
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.data_layout import DataLayout

_MASK64 = (1 << 64) - 1
_BEFORE_OR_AFTER = _MASK64
_SCALABLE_BIT = 1 << 62
_IMPRECISE_BIT = 1 << 63
_AFTER = (_BEFORE_OR_AFTER - 1) & ~_SCALABLE_BIT
_MAP_EMPTY = _BEFORE_OR_AFTER - 2
_MAP_TOMBSTONE = _BEFORE_OR_AFTER - 3
_MAX_VALUE = (_MAP_TOMBSTONE - 1) & ~(_IMPRECISE_BIT | _SCALABLE_BIT)


@attrs.frozen(slots=True)
class LocationSize:
    """The size of a memory location (see the module docstring). Build with
    :meth:`precise`, :meth:`upper_bound`, :meth:`after_pointer` or
    :meth:`before_or_after_pointer`."""

    raw: int

    @classmethod
    def precise(cls, value: int, scalable: bool = False) -> LocationSize:
        if value > _MAX_VALUE:
            return AFTER_POINTER
        return cls(value | (_SCALABLE_BIT if scalable else 0))

    @classmethod
    def upper_bound(cls, value: int, scalable: bool = False) -> LocationSize:
        if scalable:
            return AFTER_POINTER
        if value == 0:
            return cls.precise(0)
        if value > _MAX_VALUE:
            return AFTER_POINTER
        return cls(value | _IMPRECISE_BIT)

    @classmethod
    def after_pointer(cls) -> LocationSize:
        return AFTER_POINTER

    @classmethod
    def before_or_after_pointer(cls) -> LocationSize:
        return BEFORE_OR_AFTER_POINTER

    @property
    def has_value(self) -> bool:
        return self.raw != _AFTER and self.raw != _BEFORE_OR_AFTER

    @property
    def is_scalable(self) -> bool:
        return bool(self.raw & _SCALABLE_BIT)

    @property
    def value(self) -> int:
        """The byte count (the minimum count when scalable); only when :attr:`has_value`."""
        assert self.has_value, "no value in an unknown LocationSize"
        return self.raw & ~(_IMPRECISE_BIT | _SCALABLE_BIT)

    @property
    def is_precise(self) -> bool:
        return not self.raw & _IMPRECISE_BIT

    @property
    def is_zero(self) -> bool:
        return self.has_value and self.value == 0

    @property
    def may_be_before_pointer(self) -> bool:
        return self.raw == _BEFORE_OR_AFTER

    def union_with(self, other: LocationSize) -> LocationSize:
        """A size that covers both (LLVM ``unionWith``)."""
        if other.raw == self.raw:
            return self
        if self.raw == _BEFORE_OR_AFTER or other.raw == _BEFORE_OR_AFTER:
            return BEFORE_OR_AFTER_POINTER
        if self.raw == _AFTER or other.raw == _AFTER:
            return AFTER_POINTER
        if self.is_scalable or other.is_scalable:
            return AFTER_POINTER
        return LocationSize.upper_bound(max(self.value, other.value))

    def __str__(self) -> str:
        raw = self.raw
        if raw == _BEFORE_OR_AFTER:
            return "LocationSize::beforeOrAfterPointer"
        if raw == _AFTER:
            return "LocationSize::afterPointer"
        if raw == _MAP_EMPTY:
            return "LocationSize::mapEmpty"
        if raw == _MAP_TOMBSTONE:
            return "LocationSize::mapTombstone"
        count = ("vscale x %d" if self.is_scalable else "%d") % self.value
        return "LocationSize::%s(%s)" % ("precise" if self.is_precise else "upperBound", count)


AFTER_POINTER = LocationSize(_AFTER)
BEFORE_OR_AFTER_POINTER = LocationSize(_BEFORE_OR_AFTER)


def store_size(dl: DataLayout, ty: Type) -> LocationSize:
    """``LocationSize::precise(DL.getTypeStoreSize(ty))``, scalable types included."""
    return LocationSize.precise(dl.type_store_size(ty), dl.is_scalable(ty))


@attrs.frozen(slots=True)
class AAMDNodes:
    """The alias-analysis metadata of an access (LLVM ``AAMDNodes``)."""

    tbaa: MDNode | None = None
    tbaa_struct: MDNode | None = None
    scope: MDNode | None = None
    noalias: MDNode | None = None

    @classmethod
    def of(cls, inst: Instruction) -> AAMDNodes:
        """``Instruction::getAAMetadata``."""
        if not inst._md:
            return NO_AA_TAGS
        return cls(
            inst.get_metadata("tbaa"),
            inst.get_metadata("tbaa.struct"),
            inst.get_metadata("alias.scope"),
            inst.get_metadata("noalias"),
        )

    def __bool__(self) -> bool:
        return (self.tbaa or self.tbaa_struct or self.scope or self.noalias) is not None

    # --- combining (LLVM ``AAMDNodes`` in ``Metadata.h`` / ``TypeBasedAliasAnalysis.cpp``) --------
    def intersect(self, other: AAMDNodes) -> AAMDNodes:
        """Each node kept only where both have the very same one (LLVM ``intersect``)."""
        return AAMDNodes(
            self.tbaa if other.tbaa is self.tbaa else None,
            self.tbaa_struct if other.tbaa_struct is self.tbaa_struct else None,
            self.scope if other.scope is self.scope else None,
            self.noalias if other.noalias is self.noalias else None,
        )

    def merge(self, other: AAMDNodes) -> AAMDNodes:
        """The tags one access replacing both may carry (LLVM ``merge``): the most generic
        TBAA tag, no ``tbaa.struct``, the scopes of the shared domains, the common
        ``noalias`` scopes."""
        from llvmpy_mid.analysis.type_based_alias_analysis import get_most_generic_tbaa

        scope, noalias = self._merged_scopes(other)
        return AAMDNodes(get_most_generic_tbaa(self.tbaa, other.tbaa), None, scope, noalias)

    def concat(self, other: AAMDNodes) -> AAMDNodes:
        """The tags of one access covering both, side by side (LLVM ``concat``): no TBAA,
        the scopes merged as :meth:`merge` does."""
        scope, noalias = self._merged_scopes(other)
        return AAMDNodes(None, None, scope, noalias)

    def _merged_scopes(self, other: AAMDNodes) -> tuple[MDNode | None, MDNode | None]:
        return most_generic_alias_scope(self.scope, other.scope), md_intersect(self.noalias, other.noalias)

    def shift(self, offset: int) -> AAMDNodes:
        """The tags of the bytes from ``offset`` on (LLVM ``shift``)."""
        from llvmpy_mid.analysis.type_based_alias_analysis import shift_tbaa, shift_tbaa_struct

        return AAMDNodes(
            shift_tbaa(self.tbaa, offset) if self.tbaa is not None else None,
            shift_tbaa_struct(self.tbaa_struct, offset) if self.tbaa_struct is not None else None,
            self.scope,
            self.noalias,
        )

    def extend_to(self, length: int) -> AAMDNodes:
        """The tags of an access of ``length`` bytes (-1: unknown) from the same place
        (LLVM ``extendTo``)."""
        from llvmpy_mid.analysis.type_based_alias_analysis import extend_to_tbaa

        tbaa = extend_to_tbaa(self.tbaa, length) if self.tbaa is not None else None
        return AAMDNodes(tbaa, self.tbaa_struct, self.scope, self.noalias)

    def adjust_for_access(self, access_size: int, offset: int = 0) -> AAMDNodes:
        """The tags of a scalar access of ``access_size`` bytes at ``offset`` into the
        memory these tags describe (LLVM ``adjustForAccess(Offset, AccessSize)``): after
        :meth:`shift`, a ``!tbaa.struct`` whose first field is exactly that access gives
        its tag as ``!tbaa``; ``tbaa.struct`` is always dropped."""
        new = self.shift(offset) if offset else self
        tbaa = new.tbaa
        ts = new.tbaa_struct
        if tbaa is None and ts is not None and ts.num_operands >= 3:
            first, size, tag = ts.get_operand(0), ts.get_operand(1), ts.get_operand(2)
            if _md_int(first) == 0 and _md_int(size) == access_size and isinstance(tag, MDNode):
                tbaa = tag
        return AAMDNodes(tbaa, None, new.scope, new.noalias)

    def adjust_for_access_type(self, offset: int, access_ty: Type, dl: DataLayout) -> AAMDNodes:
        """LLVM ``adjustForAccess(Offset, AccessTy, DL)``: as :meth:`adjust_for_access` for
        an access of type ``access_ty`` whose store size equals its size (otherwise only
        shifted)."""
        new = self.shift(offset) if offset else self
        if dl.is_scalable(access_ty) or dl.type_size_in_bits(access_ty) != dl.type_store_size_in_bits(access_ty):
            return new
        return new.adjust_for_access(dl.type_store_size(access_ty))


def _md_int(md: object) -> int | None:
    """The value of a ``ConstantAsMetadata`` integer operand, else None."""
    from llvmpy_mid.ir.metadata import ConstantAsMetadata

    if isinstance(md, ConstantAsMetadata) and isinstance(md.value, ConstantInt):
        return md.value.zext_value
    return None


def set_aa_metadata(inst: Instruction, tags: AAMDNodes) -> None:
    """``Instruction::setAAMetadata``: attach (or remove) the four AA nodes of ``tags``."""
    inst.set_metadata("tbaa", tags.tbaa)
    inst.set_metadata("tbaa.struct", tags.tbaa_struct)
    inst.set_metadata("alias.scope", tags.scope)
    inst.set_metadata("noalias", tags.noalias)


NO_AA_TAGS = AAMDNodes()


@attrs.frozen(slots=True)
class MemoryLocation:
    """A pointer, the bytes accessed from it and the access's AA metadata.
    ``ptr`` is None only for the empty location ``getModRefInfo`` uses when it asks
    about an instruction as a whole."""

    ptr: Value | None
    size: LocationSize = BEFORE_OR_AFTER_POINTER
    aa_tags: AAMDNodes = NO_AA_TAGS

    def with_ptr(self, ptr: Value) -> MemoryLocation:
        return MemoryLocation(ptr, self.size, self.aa_tags)

    def with_size(self, size: LocationSize) -> MemoryLocation:
        return MemoryLocation(self.ptr, size, self.aa_tags)

    def without_aa_tags(self) -> MemoryLocation:
        return MemoryLocation(self.ptr, self.size)

    # --- constructors ---------------------------------------------------------------------------
    @staticmethod
    def get_after(ptr: Value, aa_tags: AAMDNodes = NO_AA_TAGS) -> MemoryLocation:
        return MemoryLocation(ptr, AFTER_POINTER, aa_tags)

    @staticmethod
    def get_before_or_after(ptr: Value, aa_tags: AAMDNodes = NO_AA_TAGS) -> MemoryLocation:
        return MemoryLocation(ptr, BEFORE_OR_AFTER_POINTER, aa_tags)

    @staticmethod
    def get(inst: Instruction) -> MemoryLocation:
        """The location a load, store, va_arg, cmpxchg or atomicrmw accesses."""
        loc = MemoryLocation.get_or_none(inst)
        if loc is None:
            raise TypeError("MemoryLocation.get of a %s" % inst.opcode)
        return loc

    @staticmethod
    def get_or_none(inst: Instruction) -> MemoryLocation | None:
        tp = type(inst)
        if tp is LoadInst:
            return MemoryLocation(inst.operands[0], store_size(_dl(inst), inst.type), AAMDNodes.of(inst))
        if tp is StoreInst:
            return MemoryLocation(inst.operands[1], store_size(_dl(inst), inst.operands[0].type), AAMDNodes.of(inst))
        if tp is VAArgInst:
            return MemoryLocation(inst.operands[0], AFTER_POINTER, AAMDNodes.of(inst))
        if tp is AtomicCmpXchgInst:
            return MemoryLocation(inst.operands[0], store_size(_dl(inst), inst.operands[1].type), AAMDNodes.of(inst))
        if tp is AtomicRMWInst:
            return MemoryLocation(inst.operands[0], store_size(_dl(inst), inst.operands[1].type), AAMDNodes.of(inst))
        return None

    @staticmethod
    def get_for_source(call: CallBase) -> MemoryLocation:
        """The bytes a memcpy/memmove (atomic or not) reads."""
        return MemoryLocation.get_for_argument(call, 1, None)

    @staticmethod
    def get_for_dest(call: CallBase) -> MemoryLocation:
        """The bytes a memory intrinsic (memset/memcpy/memmove, atomic or not) writes."""
        return MemoryLocation.get_for_argument(call, 0, None)

    @staticmethod
    def get_for_dest_of_call(call: CallBase, tli: TargetLibraryInfo) -> MemoryLocation | None:
        """LLVM ``getForDest(const CallBase *, TLI)``: the one location an argmem-only
        call may write, or None."""
        if not call.only_accesses_arg_memory or call.has_operand_bundles:
            return None
        used: Value | None = None
        used_idx: int | None = None
        for i, arg in enumerate(call.args):
            if not arg.type.is_pointer:
                continue
            if _arg_only_reads(call, i):
                continue
            if used is None:
                used, used_idx = arg, i
                continue
            used_idx = None
            if used is not arg:
                return None
        if used is None:
            return None
        if used_idx is not None:
            return MemoryLocation.get_for_argument(call, used_idx, tli)
        return MemoryLocation.get_before_or_after(used, AAMDNodes.of(call))

    @staticmethod
    def get_for_argument(call: CallBase, arg_idx: int, tli: TargetLibraryInfo | None) -> MemoryLocation:
        """The bytes ``call`` may access through argument ``arg_idx``."""
        tags = AAMDNodes.of(call)
        arg = call.operands[arg_idx]
        base = call.intrinsic_base
        if base:
            dl = _dl(call)
            if base in _MEM_INTRINSICS:
                n = call.operands[2]
                if isinstance(n, ConstantInt):
                    return MemoryLocation(arg, LocationSize.precise(n.zext_value), tags)
                return MemoryLocation(arg, AFTER_POINTER, tags)
            if base in ("llvm.lifetime.start", "llvm.lifetime.end", "llvm.invariant.start"):
                return MemoryLocation(arg, LocationSize.precise(_const(call.operands[0])), tags)
            if base == "llvm.masked.load":
                return MemoryLocation(arg, LocationSize.upper_bound(dl.type_store_size(call.type), dl.is_scalable(call.type)), tags)
            if base == "llvm.masked.store":
                ty = call.operands[0].type
                return MemoryLocation(arg, LocationSize.upper_bound(dl.type_store_size(ty), dl.is_scalable(ty)), tags)
            if base == "llvm.invariant.end":
                if arg_idx == 0:
                    return MemoryLocation(arg, LocationSize.precise(0), tags)
                return MemoryLocation(arg, LocationSize.precise(_const(call.operands[1])), tags)
            if base == "llvm.arm.neon.vld1":
                return MemoryLocation(arg, store_size(dl, call.type), tags)
            if base == "llvm.arm.neon.vst1":
                return MemoryLocation(arg, store_size(dl, call.operands[1].type), tags)
        if tli is not None:
            f = tli.get_lib_func_for_call(call)
            if f is not None and tli.has(f):
                loc = _lib_func_location(f, call, arg_idx, arg, tags)
                if loc is not None:
                    return loc
        return MemoryLocation(arg, BEFORE_OR_AFTER_POINTER, tags)


_MEM_INTRINSICS = frozenset(
    (
        "llvm.memset",
        "llvm.memcpy",
        "llvm.memcpy.inline",
        "llvm.memmove",
        "llvm.memcpy.element.unordered.atomic",
        "llvm.memmove.element.unordered.atomic",
        "llvm.memset.element.unordered.atomic",
    )
)


def _dl(inst: Instruction) -> DataLayout:
    from llvmpy_mid.ir.data_layout import DataLayout

    module = inst.module
    return module.data_layout if module is not None else DataLayout.default()


def _const(v: Value) -> int:
    assert isinstance(v, ConstantInt)
    return v.zext_value


def _arg_only_reads(call: CallBase, i: int) -> bool:
    """``CallBase::onlyReadsMemory(ArgNo)``."""
    if call.param_has_attr(i, "readonly") or call.param_has_attr(i, "readnone"):
        return True
    return call.only_reads_memory


def _lib_func_location(f: str, call: CallBase, arg_idx: int, arg: Value, tags: AAMDNodes) -> MemoryLocation | None:
    ops = call.operands
    if f in ("strcpy", "strcat", "strncat"):
        return MemoryLocation(arg, AFTER_POINTER, tags)
    if f in ("memset_chk", "memcpy_chk"):
        n = ops[2]
        size = LocationSize.upper_bound(n.zext_value) if isinstance(n, ConstantInt) else AFTER_POINTER
        return MemoryLocation(arg, size, tags)
    if f == "strncpy":
        n = ops[2]
        if isinstance(n, ConstantInt):
            size = LocationSize.precise(n.zext_value) if arg_idx == 0 else LocationSize.upper_bound(n.zext_value)
        else:
            size = AFTER_POINTER
        return MemoryLocation(arg, size, tags)
    if f in ("memset_pattern16", "memset_pattern4", "memset_pattern8"):
        if arg_idx == 1:
            return MemoryLocation(arg, LocationSize.precise({"memset_pattern4": 4, "memset_pattern8": 8}.get(f, 16)), tags)
        n = ops[2]
        if isinstance(n, ConstantInt):
            return MemoryLocation(arg, LocationSize.precise(n.zext_value), tags)
        return MemoryLocation(arg, AFTER_POINTER, tags)
    if f in ("bcmp", "memcmp", "memchr"):
        n = ops[2]
        if isinstance(n, ConstantInt):
            return MemoryLocation(arg, LocationSize.precise(n.zext_value), tags)
        return MemoryLocation(arg, AFTER_POINTER, tags)
    if f == "memccpy":
        n = ops[3]
        if isinstance(n, ConstantInt):
            return MemoryLocation(arg, LocationSize.upper_bound(n.zext_value), tags)
        return MemoryLocation(arg, AFTER_POINTER, tags)
    return None
