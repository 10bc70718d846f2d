"""Is a load safe, and is its value already available? (LLVM ``lib/Analysis/Loads.cpp``,
with ``Value::getPointerDereferenceableBytes`` of ``lib/IR/Value.cpp``.)

What:

* :func:`get_pointer_dereferenceable_bytes`: how many bytes from a pointer are
  known dereferenceable, and whether it may be null or freed;
* :func:`is_dereferenceable_and_aligned_pointer` (and the ``_for_type`` form),
  :func:`is_dereferenceable_pointer`: through GEPs of constant offset, bitcasts,
  selects, address-space casts, ``returned`` arguments and allocation calls;
* :func:`is_safe_to_load_unconditionally`: the above, or an earlier load/store
  of the same address in the block;
* :func:`find_available_loaded_value` (InstCombine's form: scan first, then ask
  the ``BatchAAResults`` whether a write in between modifies the location),
  :func:`find_available_loaded_value_in_block` / :func:`find_available_ptr_load_store`
  (from any point of a block, with AA optional): the value a load would read,
  from an earlier load, store or memset in the block
  (``available-load-scan-limit`` = 6 instructions);
* re-exported for older importers: ``is_identified_object``,
  ``is_identified_function_local`` and ``is_no_alias_call``, which live in
  :mod:`llvmpy_mid.analysis.alias.identified_objects` (``AliasAnalysis.cpp``).

The scan limit is ``-available-load-scan-limit`` (6, read when a scan starts unless a
caller passes its own). Dereferenceability also comes from ``llvm.assume`` bundles valid at
the context instruction and through ``gc.relocate``; ``-use-dereferenceable-at-point-semantics``
makes a pointer that may be freed lose its attributes' facts (LLVM ``Value::canBeFreed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from llvmpy_mid.analysis.alias.aa_results import is_mod_set
from llvmpy_mid.analysis.alias.identified_objects import is_identified_function_local, is_identified_object, is_no_alias_call
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.known_bits_analysis import _pointer_alignment
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.global_value import GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.pointer_casts import accumulate_constant_offset, strip_and_accumulate_constant_offsets, strip_pointer_casts
from llvmpy_mid.ir.statepoint import GC_RELOCATE, gc_relocate_pointers
from llvmpy_mid.ir.types import IntegerType, Type, VectorType
from llvmpy_mid.ir.value import Value

if TYPE_CHECKING:
    from llvmpy_mid.analysis.alias.aa_results import BatchAAResults
    from llvmpy_mid.analysis.assumption_cache import AssumptionCache
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.dominators import DominatorTree

DEF_MAX_INSTS_TO_SCAN = 6
"""The default of LLVM's ``-available-load-scan-limit``."""
AVAILABLE_LOAD_SCAN_LIMIT_OPTION = "available-load-scan-limit"


def available_load_scan_limit() -> int:
    """``-available-load-scan-limit`` in force (LLVM ``DefMaxInstsToScan``; 0 means no limit)."""
    from llvmpy_mid.passes.options import OPTIONS

    if OPTIONS.get(AVAILABLE_LOAD_SCAN_LIMIT_OPTION) is None:
        return DEF_MAX_INSTS_TO_SCAN
    value = OPTIONS.value(AVAILABLE_LOAD_SCAN_LIMIT_OPTION)
    return value if isinstance(value, int) else DEF_MAX_INSTS_TO_SCAN


# --- dereferenceability ------------------------------------------------------------------------


def _md_int(i: Instruction, kind: str) -> int:
    md = i.get_metadata(kind)
    if md is None or not md.operands:
        return 0
    from llvmpy_mid.ir.metadata import ConstantAsMetadata

    op = md.operands[0]
    if isinstance(op, ConstantAsMetadata) and isinstance(op.value, ConstantInt):
        return op.value.value
    return 0


def _pointee_in_memory_type(a: Argument) -> Type | None:
    attrs = a.attributes
    for kind in ("byval", "byref", "preallocated", "inalloca", "sret"):
        t = attrs.type_attr(kind)
        if t is not None:
            return t
    return None


DEREF_AT_POINT_OPTION = "use-dereferenceable-at-point-semantics"


def use_deref_at_point_semantics() -> bool:
    """``-use-dereferenceable-at-point-semantics`` (off by default): dereferenceability
    attributes and metadata hold where the pointer is defined only, so a pointer that may
    be freed later is not known dereferenceable at a later point."""
    from llvmpy_mid.passes.options import OPTIONS

    if OPTIONS.get(DEREF_AT_POINT_OPTION) is None:
        return False
    return bool(OPTIONS.value(DEREF_AT_POINT_OPTION))


def get_pointer_dereferenceable_bytes(v: Value, dl: DataLayout) -> tuple[int, bool, bool]:
    """``(bytes, can_be_null, can_be_freed)`` (LLVM ``Value::getPointerDereferenceableBytes``;
    ``can_be_freed`` only under ``-use-dereferenceable-at-point-semantics``)."""
    deref = 0
    can_be_null = False
    can_be_freed = use_deref_at_point_semantics() and _can_be_freed(v)
    if isinstance(v, Argument):
        attrs = v.attributes
        deref = attrs.dereferenceable_bytes
        if deref == 0:
            mem_ty = _pointee_in_memory_type(v)
            if mem_ty is not None and mem_ty.is_sized:
                deref = dl.type_store_size(mem_ty)
        if deref == 0:
            deref = attrs.dereferenceable_or_null_bytes
            can_be_null = True
    elif isinstance(v, CallBase):
        deref = _call_ret_bytes(v, False)
        if deref == 0:
            deref = _call_ret_bytes(v, True)
            can_be_null = True
    elif isinstance(v, LoadInst) or (isinstance(v, Instruction) and v.opcode == "inttoptr"):
        deref = _md_int(v, "dereferenceable")
        if deref == 0:
            deref = _md_int(v, "dereferenceable_or_null")
            can_be_null = True
    elif isinstance(v, AllocaInst):
        if not v.is_array_allocation:
            deref = dl.type_store_size(v.allocated_type)
            can_be_freed = False
    elif isinstance(v, GlobalVariable):
        if v.value_type.is_sized and v.linkage is not Linkage.EXTERN_WEAK:
            deref = dl.type_store_size(v.value_type)
            can_be_freed = False
    return deref, can_be_null, can_be_freed


def _call_ret_bytes(call: CallBase, or_null: bool) -> int:
    ra = call.attributes.ret_attrs
    b = ra.dereferenceable_or_null_bytes if or_null else ra.dereferenceable_bytes
    fn = call.called_function
    if fn is not None:
        fa = fn.attributes.ret_attrs
        b = max(b, fa.dereferenceable_or_null_bytes if or_null else fa.dereferenceable_bytes)
    return b


def get_pointer_alignment(v: Value, dl: DataLayout) -> int:
    """LLVM ``Value::getPointerAlignment`` (in bytes)."""
    return _pointer_alignment(v, dl)


def _is_aligned(base: Value, offset: int, alignment: int, dl: DataLayout) -> bool:
    ba = get_pointer_alignment(base, dl)
    return ba >= alignment and offset % ba == 0


def _can_be_freed(v: Value) -> bool:
    """LLVM ``Value::canBeFreed``: the ``statepoint-example`` collector's ``addrspace(1)``
    heap is not freed in a module without ``gc.statepoint`` calls."""
    if isinstance(v, Constant):
        return False
    fn: Function | None = None
    if isinstance(v, Argument):
        if _pointee_in_memory_type(v) is not None:
            return False
        fn = v.parent
        if fn.attributes.has_fn_attr("nofree") and fn.attributes.has_fn_attr("nosync"):
            return False
    elif isinstance(v, Instruction):
        fn = v.function
    if fn is None or fn.gc != "statepoint-example":
        return True
    if getattr(v.type, "address_space", 0) != 1:
        return True
    module = fn.parent
    if module is None:
        return True
    return any(f.name.startswith("llvm.experimental.gc.statepoint") for f in module.functions)


def _deref_aligned(
    v: Value,
    alignment: int,
    size: int,
    width: int,
    dl: DataLayout,
    ctx_i: Instruction | None,
    ac: AssumptionCache | None,
    dt: DominatorTree | None,
    tli: TargetLibraryInfo | None,
    visited: set[int],
    max_depth: int,
) -> bool:
    while True:
        if max_depth == 0:
            return False
        max_depth -= 1
        if id(v) in visited:
            return False
        visited.add(id(v))
        op = getattr(v, "opcode", None)
        if op == "getelementptr" and (isinstance(v, GetElementPtrInst) or getattr(v, "is_constant_expr", False)):
            w = dl.index_type_size_in_bits(v.type)
            off = accumulate_constant_offset(dl, v, w)
            if off is None or off >> (w - 1) or off % alignment:
                return False
            size = off + _sext_or_trunc(size, width, w)
            width = w
            v = v._operands[0].value  # type: ignore[attr-defined]
            continue
        if op == "bitcast" and (isinstance(v, Instruction) or getattr(v, "is_constant_expr", False)):
            src = v._operands[0].value  # type: ignore[attr-defined]
            if src.type.is_pointer:
                v = src
                continue
        if isinstance(v, SelectInst):
            return _deref_aligned(v.true_value, alignment, size, width, dl, ctx_i, ac, dt, tli, visited, max_depth) and _deref_aligned(
                v.false_value, alignment, size, width, dl, ctx_i, ac, dt, tli, visited, max_depth
            )
        deref, check_null, check_freed = get_pointer_dereferenceable_bytes(v, dl)
        deref &= (1 << width) - 1
        if deref and deref >= size and not check_freed:
            if not check_null or _known_non_zero(v, dl, dt, ac, ctx_i):
                return _is_aligned(v, 0, alignment, dl)
        if isinstance(v, CallBase):
            from llvmpy_mid.analysis.value_tracking_support import get_argument_aliasing_to_returned_pointer

            rp = get_argument_aliasing_to_returned_pointer(v, True)
            if rp is not None:
                v = rp
                continue
            from llvmpy_mid.analysis.memory_builtins import ObjectSizeOpts, get_object_size

            obj = get_object_size(v, dl, tli, ObjectSizeOpts(round_to_align=False, null_is_unknown_size=True))
            if obj is not None:
                kd = obj & ((1 << width) - 1)
                if kd and kd >= size and _known_non_zero(v, dl, dt, ac, ctx_i) and not _can_be_freed(v):
                    return _is_aligned(v, 0, alignment, dl)
        if isinstance(v, CallBase) and v.intrinsic_base == GC_RELOCATE:
            pointers = gc_relocate_pointers(v)
            if pointers is not None:
                v = pointers[2]
                continue
        if op == "addrspacecast" and (isinstance(v, Instruction) or getattr(v, "is_constant_expr", False)):
            v = v._operands[0].value  # type: ignore[attr-defined]
            continue
        if ctx_i is not None:
            return _deref_aligned_by_assumes(v, alignment, size, ctx_i, ac, dt)
        return False


def _deref_aligned_by_assumes(
    v: Value, alignment: int, size: int, ctx_i: Instruction, ac: AssumptionCache | None, dt: DominatorTree | None
) -> bool:
    """Assumptions valid at ``ctx_i`` state both ``align`` >= ``alignment`` and
    ``dereferenceable`` >= ``size`` of ``v`` (the best of each over all of them)."""
    from llvmpy_mid.analysis.assume_bundle_queries import RetainedKnowledge, get_knowledge_for_value
    from llvmpy_mid.analysis.value_tracking_support import is_valid_assume_for_context
    from llvmpy_mid.ir.attribute_kinds import AttrKind

    best = {AttrKind.ALIGNMENT: 0, AttrKind.DEREFERENCEABLE: 0}
    found = {AttrKind.ALIGNMENT: False, AttrKind.DEREFERENCEABLE: False}

    def accept(rk: RetainedKnowledge, assume: Instruction, _begin: int) -> bool:
        if not is_valid_assume_for_context(assume, ctx_i, dt):
            return False
        found[rk.kind] = True
        best[rk.kind] = max(best[rk.kind], rk.arg)
        return (
            found[AttrKind.ALIGNMENT]
            and found[AttrKind.DEREFERENCEABLE]
            and best[AttrKind.ALIGNMENT] >= alignment
            and best[AttrKind.DEREFERENCEABLE] >= size
        )

    kinds = (AttrKind.DEREFERENCEABLE, AttrKind.ALIGNMENT)
    return get_knowledge_for_value(v, kinds, ac, accept) is not None


def _sext_or_trunc(v: int, from_w: int, to_w: int) -> int:
    v &= (1 << from_w) - 1
    if v >> (from_w - 1):
        v -= 1 << from_w
    return v & ((1 << to_w) - 1)


def _known_non_zero(v: Value, dl: DataLayout, dt: DominatorTree | None, ac: AssumptionCache | None, ctx_i: Instruction | None) -> bool:
    from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
    from llvmpy_mid.analysis.simplify_query import SimplifyQuery

    q = SimplifyQuery(dl, None, dt, ac).get_with_instruction(ctx_i)
    return is_known_non_zero(v, q)


def is_dereferenceable_and_aligned_pointer(
    v: Value,
    alignment: int,
    size: int,
    dl: DataLayout,
    ctx_i: Instruction | None = None,
    ac: AssumptionCache | None = None,
    dt: DominatorTree | None = None,
    tli: TargetLibraryInfo | None = None,
    size_width: int | None = None,
) -> bool:
    """``v`` points to at least ``size`` allocated bytes aligned to ``alignment``
    (LLVM ``isDereferenceableAndAlignedPointer``); ``size_width`` is the bit width
    of the size (the pointer's by default)."""
    width = size_width if size_width is not None else dl.pointer_type_size_in_bits(v.type)
    return _deref_aligned(v, max(alignment, 1), size & ((1 << width) - 1), width, dl, ctx_i, ac, dt, tli, set(), 16)


def is_dereferenceable_and_aligned_pointer_for_type(
    v: Value,
    ty: Type,
    alignment: int,
    dl: DataLayout,
    ctx_i: Instruction | None = None,
    ac: AssumptionCache | None = None,
    dt: DominatorTree | None = None,
    tli: TargetLibraryInfo | None = None,
) -> bool:
    """The ``Type *`` overload: ``ty``'s store size, unsized/scalable types never."""
    if not ty.is_sized or (isinstance(ty, VectorType) and ty.scalable) or dl.is_scalable(ty):
        return False
    return is_dereferenceable_and_aligned_pointer(v, alignment, dl.type_store_size(ty), dl, ctx_i, ac, dt, tli)


def is_dereferenceable_pointer(
    v: Value,
    ty: Type,
    dl: DataLayout,
    ctx_i: Instruction | None = None,
    ac: AssumptionCache | None = None,
    dt: DominatorTree | None = None,
    tli: TargetLibraryInfo | None = None,
) -> bool:
    """LLVM ``isDereferenceablePointer`` (alignment 1)."""
    return is_dereferenceable_and_aligned_pointer_for_type(v, ty, 1, dl, ctx_i, ac, dt, tli)


def are_equivalent_address_values(a: Value, b: Value) -> bool:
    """The same value, or identical arithmetic/cast/phi/GEP instructions
    (LLVM ``AreEquivalentAddressValues``)."""
    if a is b:
        return True
    if isinstance(a, Instruction) and a.opcode in _EQUIV_OPCODES and isinstance(b, Instruction):
        return a.is_identical_to(b)
    return False


_EQUIV_OPCODES = frozenset(
    (
        "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
        "fadd", "fsub", "fmul", "fdiv", "frem",
        "trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
        "ptrtoint", "inttoptr", "bitcast", "addrspacecast",
        "phi", "getelementptr",
    )
)  # fmt: skip


def _is_lifetime_or_dbg(i: Instruction) -> bool:
    if not isinstance(i, CallBase):
        return False
    base = i.intrinsic_base
    return base in ("llvm.lifetime.start", "llvm.lifetime.end") or base.startswith("llvm.dbg.")


def is_safe_to_load_unconditionally(
    v: Value,
    alignment: int,
    size: int,
    dl: DataLayout,
    scan_from: Instruction | None = None,
    ac: AssumptionCache | None = None,
    dt: DominatorTree | None = None,
    tli: TargetLibraryInfo | None = None,
    size_width: int | None = None,
) -> bool:
    """Loading ``size`` bytes at ``v`` cannot trap: dereferenceable and aligned, or an
    earlier non-volatile load/store of the block touched the same address
    (LLVM ``isSafeToLoadUnconditionally``)."""
    ctx_i = scan_from if dt is not None else None
    if is_dereferenceable_and_aligned_pointer(v, alignment, size, dl, ctx_i, ac, dt, tli, size_width):
        return True
    if scan_from is None:
        return False
    v = strip_pointer_casts(v)
    inst = scan_from.prev_instruction
    while inst is not None:
        if isinstance(inst, CallInst) and inst.may_write_to_memory() and not _is_lifetime_or_dbg(inst):
            return False
        if isinstance(inst, LoadInst):
            if inst.volatile:
                inst = inst.prev_instruction
                continue
            accessed = inst.pointer_operand
            acc_ty = inst.type
            acc_align = inst.alignment
        elif isinstance(inst, StoreInst):
            if inst.volatile:
                inst = inst.prev_instruction
                continue
            accessed = inst.pointer_operand
            acc_ty = inst.value_operand.type
            acc_align = inst.alignment
        else:
            inst = inst.prev_instruction
            continue
        inst = inst.prev_instruction
        if acc_align < alignment:
            continue
        if dl.is_scalable(acc_ty):
            continue
        if accessed is v and size <= dl.type_store_size(acc_ty):
            return True
        if are_equivalent_address_values(strip_pointer_casts(accessed), v) and size <= dl.type_store_size(acc_ty):
            return True
    return False


def is_safe_to_load_unconditionally_for_type(
    v: Value,
    ty: Type,
    alignment: int,
    dl: DataLayout,
    scan_from: Instruction | None = None,
    ac: AssumptionCache | None = None,
    dt: DominatorTree | None = None,
    tli: TargetLibraryInfo | None = None,
) -> bool:
    """The ``Type *`` overload of :func:`is_safe_to_load_unconditionally`."""
    if dl.is_scalable(ty):
        return False
    return is_safe_to_load_unconditionally(
        v, alignment, dl.type_store_size(ty), dl, scan_from, ac, dt, tli, dl.index_type_size_in_bits(v.type)
    )


# --- available values ----------------------------------------------------------------------------


def is_bit_or_noop_pointer_castable(src: Type, dst: Type, dl: DataLayout) -> bool:
    """LLVM ``CastInst::isBitOrNoopPointerCastable``: a bitcast, or a ptr<->int cast of
    the pointer's width."""
    if src is dst:
        return True
    from llvmpy_mid.ir.instructions.casts import cast_is_valid

    from llvmpy_mid.ir.types import PointerType

    if isinstance(src, PointerType) and isinstance(dst, IntegerType):
        return dst.width == dl.pointer_type_size_in_bits(src) and not dl.is_non_integral_pointer_type(src)
    if isinstance(dst, PointerType) and isinstance(src, IntegerType):
        return src.width == dl.pointer_type_size_in_bits(dst) and not dl.is_non_integral_pointer_type(dst)
    return cast_is_valid("bitcast", src, dst)


def get_available_load_store(
    inst: Instruction, ptr: Value, access_ty: Type, at_least_atomic: bool, dl: DataLayout
) -> tuple[Value, bool] | None:
    """The value ``inst`` (a load, store or constant memset of ``ptr``) makes available
    for a load of ``access_ty``, and whether it is a load (LLVM ``getAvailableLoadStore``)."""
    if isinstance(inst, LoadInst):
        if inst.is_atomic < at_least_atomic:
            return None
        lp = strip_pointer_casts(inst.pointer_operand)
        if not are_equivalent_address_values(lp, ptr):
            return None
        if is_bit_or_noop_pointer_castable(inst.type, access_ty, dl):
            return inst, True
    if isinstance(inst, StoreInst):
        if inst.is_atomic < at_least_atomic:
            return None
        sp = strip_pointer_casts(inst.pointer_operand)
        if not are_equivalent_address_values(sp, ptr):
            return None
        val = inst.value_operand
        if is_bit_or_noop_pointer_castable(val.type, access_ty, dl):
            return val, False
        # TypeSize::isKnownLE(load size, store size); a scalable size is vscale x its minimum.
        if dl.is_scalable(access_ty) and not dl.is_scalable(val.type):
            return None
        if dl.type_size_in_bits(access_ty) <= dl.type_size_in_bits(val.type) and isinstance(val, Constant):
            from llvmpy_mid.analysis.constant_folding_memory import constant_fold_load_from_const

            c = constant_fold_load_from_const(val, access_ty, dl)
            return (c, False) if c is not None else None
        return None
    if isinstance(inst, CallBase) and inst.intrinsic_base in ("llvm.memset", "llvm.memset.inline"):
        if at_least_atomic:
            return None
        val = inst.args[1]
        length = inst.args[2]
        if not isinstance(val, ConstantInt) or not isinstance(length, ConstantInt):
            return None
        if not are_equivalent_address_values(inst.args[0], ptr):
            return None
        if dl.is_scalable(access_ty):
            return None
        load_size = dl.type_size_in_bits(access_ty)
        if length.value * 8 < load_size:
            return None
        if load_size >= 8:
            # APInt::getSplat: double the pattern until it covers the width.
            splat = val.value
            shift = 8
            while shift < load_size:
                splat |= splat << shift
                shift <<= 1
            splat &= (1 << load_size) - 1
        else:
            splat = val.value & ((1 << load_size) - 1)
        ctx = access_ty.context
        sc = ConstantInt.get(ctx.int_type(load_size), splat)
        if is_bit_or_noop_pointer_castable(sc.type, access_ty, dl):
            return sc, False
        return None
    return None


# --- the value a load would read (Loads.cpp FindAvailableLoadedValue) -------------------------------


def _are_non_overlap_same_base_load_and_store(load_ptr: Value, load_ty: Type, store_ptr: Value, store_ty: Type, dl: DataLayout) -> bool:
    lb, lo = strip_and_accumulate_constant_offsets(load_ptr, dl, False)
    sb, so = strip_and_accumulate_constant_offsets(store_ptr, dl, False)
    if lb is not sb:
        return False
    if dl.is_scalable(load_ty) or dl.is_scalable(store_ty):
        return False
    ls = dl.type_store_size(load_ty)
    ss = dl.type_store_size(store_ty)
    return lo + ls <= so or so + ss <= lo


def _is_debug_or_pseudo(i: Instruction) -> bool:
    if not isinstance(i, CallBase):
        return False
    base = i.intrinsic_base
    return base.startswith("llvm.dbg.") or base == "llvm.pseudoprobe"


def find_available_ptr_load_store(
    loc: MemoryLocation,
    access_ty: Type,
    at_least_atomic: bool,
    scan_bb: BasicBlock,
    scan_from: Instruction | None,
    max_insts_to_scan: int | None = None,
    aa: BatchAAResults | None = None,
) -> tuple[Value | None, bool, Instruction | None]:
    """Scan backwards from before ``scan_from`` (the block's end when None) for the value
    at ``loc`` (LLVM ``findAvailablePtrLoadStore``). A write in between stops the scan
    unless ``aa`` says it does not modify ``loc`` (without ``aa``, only a store to another
    alloca/global or to a disjoint constant offset of the same base is passed over).
    Returns ``(value, is_load_cse, new_scan_from)``; ``new_scan_from`` is where the scan
    stopped (LLVM updates its iterator argument)."""
    dl = _dl_of(scan_bb)
    if max_insts_to_scan is None:
        max_insts_to_scan = available_load_scan_limit()
    if max_insts_to_scan == 0:
        max_insts_to_scan = 1 << 62
    ptr = loc.ptr
    assert ptr is not None
    stripped = strip_pointer_casts(ptr)
    cur = scan_from.prev_instruction if scan_from is not None else scan_bb.terminator
    pos = scan_from
    while cur is not None:
        inst = cur
        cur = cur.prev_instruction
        if _is_debug_or_pseudo(inst):
            pos = inst
            continue
        if max_insts_to_scan == 0:
            return None, False, pos
        max_insts_to_scan -= 1
        pos = inst
        got = get_available_load_store(inst, stripped, access_ty, at_least_atomic, dl)
        if got is not None:
            return got[0], got[1], pos
        if isinstance(inst, StoreInst):
            sp = strip_pointer_casts(inst.pointer_operand)
            if isinstance(stripped, (AllocaInst, GlobalVariable)) and isinstance(sp, (AllocaInst, GlobalVariable)) and stripped is not sp:
                continue
            if aa is None:
                if _are_non_overlap_same_base_load_and_store(ptr, access_ty, inst.pointer_operand, inst.value_operand.type, dl):
                    continue
            elif not is_mod_set(aa.get_mod_ref_info(inst, loc)):
                continue
            return None, False, inst.next_instruction
        if inst.may_write_to_memory():
            if aa is not None and not is_mod_set(aa.get_mod_ref_info(inst, loc)):
                continue
            return None, False, inst.next_instruction
    return None, False, scan_bb.first_instruction


def _dl_of(bb: BasicBlock) -> DataLayout:
    from llvmpy_mid.ir.data_layout import DataLayout

    fn = bb.parent
    m = fn.parent if fn is not None else None
    return m.data_layout if m is not None else DataLayout()


def find_available_loaded_value_in_block(
    load: LoadInst,
    scan_bb: BasicBlock,
    scan_from: Instruction | None,
    max_insts_to_scan: int | None = None,
    aa: BatchAAResults | None = None,
) -> tuple[Value | None, bool, Instruction | None]:
    """The value ``load`` would read, found by scanning ``scan_bb`` backwards from
    ``scan_from`` (LLVM ``FindAvailableLoadedValue`` with a block, an iterator and an
    optional ``BatchAAResults``); see :func:`find_available_ptr_load_store`."""
    if not load.is_unordered:
        return None, False, scan_from
    return find_available_ptr_load_store(
        MemoryLocation.get(load), load.type, load.is_atomic, scan_bb, scan_from, max_insts_to_scan, aa
    )


def find_available_loaded_value(
    load: LoadInst, aa: BatchAAResults, max_insts_to_scan: int | None = None
) -> tuple[Value | None, bool]:
    """LLVM ``FindAvailableLoadedValue(Load, BatchAA, &IsLoadCSE)`` (InstCombine's form):
    scan back from the load for an available value first, then ask ``aa`` whether any
    write in between modifies the load's location. Returns ``(value, is_load_cse)``."""
    if not load.is_unordered:
        return None, False
    dl = _dl_of(cast("BasicBlock", load.parent))
    if max_insts_to_scan is None:
        max_insts_to_scan = available_load_scan_limit()
    stripped = strip_pointer_casts(load.pointer_operand)
    access_ty = load.type
    at_least_atomic = load.is_atomic
    must_not_alias: list[Instruction] = []
    available: tuple[Value, bool] | None = None
    cur = load.prev_instruction
    while cur is not None:
        inst = cur
        cur = cur.prev_instruction
        if _is_debug_or_pseudo(inst):
            continue
        if max_insts_to_scan == 0:
            return None, False
        max_insts_to_scan -= 1
        available = get_available_load_store(inst, stripped, access_ty, at_least_atomic, dl)
        if available is not None:
            break
        if inst.may_write_to_memory():
            must_not_alias.append(inst)
    if available is None:
        return None, False
    loc = MemoryLocation.get(load)
    for inst in must_not_alias:
        if is_mod_set(aa.get_mod_ref_info(inst, loc)):
            return None, False
    return available


# --- replacing equal pointers (Loads.cpp canReplacePointersIfEqual) ------------------------------


def _is_pointer_use_replaceable(use: object) -> bool:
    """The use feeds only ``icmp``/``ptrtoint``, maybe through phis and selects (40 users
    at most) (LLVM ``isPointerUseReplacable``)."""
    limit = 40
    worklist: list[Value] = [use.user]  # type: ignore[attr-defined]
    visited: set[Value] = set()
    while worklist:
        limit -= 1
        if limit == 0:
            break
        user = worklist.pop()
        if user in visited:
            continue
        visited.add(user)
        op = user.opcode if user.is_instruction else ""  # type: ignore[attr-defined]
        if op in ("icmp", "ptrtoint"):
            continue
        if op in ("phi", "select"):
            worklist.extend(user.users)
        else:
            return False
    return limit != 0


def _is_pointer_always_replaceable(frm: Value, to: Value, dl: DataLayout) -> bool:
    from llvmpy_mid.analysis.underlying_objects import get_underlying_object_aggressive
    from llvmpy_mid.ir.constants import ConstantPointerNull

    if isinstance(to, ConstantPointerNull):
        return True
    if isinstance(to, Constant) and is_dereferenceable_pointer(to, to.type.context.int_type(8), dl):
        return True
    return get_underlying_object_aggressive(frm) is get_underlying_object_aggressive(to)


def can_replace_pointers_if_equal(frm: Value, to: Value, dl: DataLayout) -> bool:
    """``frm`` may be replaced by the equal ``to`` everywhere: not pointers, or ``to`` is
    null, a dereferenceable constant, or of the same underlying object (LLVM
    ``canReplacePointersIfEqual``)."""
    if not frm.type.is_pointer:
        return True
    return _is_pointer_always_replaceable(frm, to, dl)


def can_replace_pointers_in_use_if_equal(use: object, to: Value, dl: DataLayout) -> bool:
    """As :func:`can_replace_pointers_if_equal` for one use, which may also be a use
    that only compares or converts the pointer (LLVM ``canReplacePointersInUseIfEqual``)."""
    if not to.type.is_pointer:
        return True
    if _is_pointer_always_replaceable(use.value, to, dl):  # type: ignore[attr-defined]
        return True
    return _is_pointer_use_replaceable(use)


__all__ = [
    "can_replace_pointers_if_equal",
    "can_replace_pointers_in_use_if_equal",
    "AVAILABLE_LOAD_SCAN_LIMIT_OPTION",
    "DEF_MAX_INSTS_TO_SCAN",
    "available_load_scan_limit",
    "are_equivalent_address_values",
    "find_available_loaded_value",
    "find_available_loaded_value_in_block",
    "find_available_ptr_load_store",
    "get_available_load_store",
    "get_pointer_alignment",
    "get_pointer_dereferenceable_bytes",
    "is_bit_or_noop_pointer_castable",
    "is_dereferenceable_and_aligned_pointer",
    "is_dereferenceable_and_aligned_pointer_for_type",
    "is_dereferenceable_pointer",
    "is_safe_to_load_unconditionally",
    "is_safe_to_load_unconditionally_for_type",
    "is_identified_function_local",
    "is_identified_object",
    "is_no_alias_call",
]
