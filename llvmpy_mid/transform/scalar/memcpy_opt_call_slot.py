"""memcpyopt's call-slot and stack-move optimisations and the undef-contents test (LLVM
19.1.7 ``performCallSlotOptzn``, ``performStackMoveOptzn`` and ``hasUndefContents``,
lib/Transforms/Scalar/MemCpyOptimizer.cpp).

- Call slot: ``call f(src)`` followed by a copy (memcpy, or load/store pair) of the
  alloca ``src`` to ``dest`` becomes ``call f(dest)`` and the copy goes, when ``src``
  is an alloca only the call and the copy use (through casts, zero GEPs and lifetime
  markers) of no more bytes than copied, the call is in the copy's block and nothing
  between touches ``dest`` (one ``lifetime.start`` of it may be moved above the call),
  ``dest`` is writable and dereferenceable for the copied bytes, cannot be seen through
  an unwind between the two, is aligned at least as ``src`` (an alloca's alignment may
  be raised), dominates the call (a constant-index GEP may be moved above it), is not
  accessed by the call (AA, then ``callCapturesBefore``), and, when the call captures
  ``src``, ``dest`` is a local object not captured before the call and nothing after it
  in the block may touch ``src`` before its lifetime ends.
- Stack move: a full copy between two static allocas of the same size and address
  space whose uses never capture them, where ``dest`` is not accessed before the copy
  and, after the copy, ``src`` is not read while ``dest`` is written nor written while
  ``dest`` is read (uses post-dominated by the copy excepted), merges ``dest`` into
  ``src``: ``src`` takes the larger alignment, their lifetime markers of the whole
  object go, and ``!noalias`` is dropped from their users.
- ``has_undef_contents``: the bytes read are undef because the clobber is the function's
  entry (an alloca) or a ``lifetime.start`` covering them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from llvmpy_mid.analysis.alias.aa_results import BatchAAResults, is_mod_or_ref_set, is_mod_set, is_ref_set
from llvmpy_mid.analysis.alias.memory_location import LocationSize, MemoryLocation
from llvmpy_mid.analysis.alias.object_visibility import is_writable_object
from llvmpy_mid.analysis.capture_tracking import (
    DEFAULT_MAX_USES_TO_EXPLORE,
    UseCaptureKind,
    determine_use_capture_kind,
    pointer_may_be_captured_before,
)
from llvmpy_mid.analysis.cfg import is_potentially_reachable_from_many
from llvmpy_mid.analysis.loads import is_dereferenceable_and_aligned_pointer, is_identified_function_local
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import AllocaInst, StoreInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.statistics import Statistic

if TYPE_CHECKING:
    from llvmpy_mid.transform.scalar.memcpy_opt import MemCpyOptimizer

__all__ = ["has_undef_contents", "perform_call_slot_optzn", "perform_stack_move_optzn"]

NUM_CALL_SLOT = Statistic("memcpyopt", "NumCallSlot", "Number of call slot optimizations performed")
NUM_STACK_MOVE = Statistic("memcpyopt", "NumStackMove", "Number of stack-move optimizations performed")


def _is_intrinsic(v: Value, base: str) -> bool:
    return isinstance(v, CallBase) and v.intrinsic_base == base


def has_undef_contents(opt: MemCpyOptimizer, baa: BatchAAResults, v: Value, definition: Any, size: Value) -> bool:
    """Are the bytes at ``v`` undef after ``definition`` (a MemoryDef)?"""
    from llvmpy_mid.transform.scalar.memcpy_opt import _must_alias_values, allocation_size

    if opt.mssa.is_live_on_entry_def(definition):
        return isinstance(get_underlying_object(v), AllocaInst)
    ii = definition.memory_inst
    if ii is not None and _is_intrinsic(ii, "llvm.lifetime.start"):
        lt_size = ii.operands[0]
        assert isinstance(lt_size, ConstantInt)
        if isinstance(size, ConstantInt):
            if _must_alias_values(baa, v, ii.operands[1]) and lt_size.zext_value >= size.zext_value:
                return True
        alloca = get_underlying_object(v)
        if isinstance(alloca, AllocaInst) and get_underlying_object(ii.operands[1]) is alloca:
            asize = allocation_size(alloca)
            if asize is not None and not asize[1] and asize[0] == lt_size.zext_value:
                return True
    return False


def perform_call_slot_optzn(
    opt: MemCpyOptimizer,
    cpy_load: Instruction,
    cpy_store: Instruction,
    cpy_dest: Value,
    cpy_src: Value,
    cpy_size: int,
    cpy_size_scalable: bool,
    cpy_dest_align: int,
    baa: BatchAAResults,
    get_call: Callable[[], CallInst | None],
) -> bool:
    """Let the call that filled the alloca ``cpy_src`` write ``cpy_dest`` directly;
    True if it now does (the caller deletes the copy)."""
    from llvmpy_mid.transform.scalar.memcpy_opt import may_be_visible_through_unwinding
    from llvmpy_mid.transform.utils.local_metadata import combine_aa_metadata

    if cpy_size_scalable:
        return False
    src_alloca = cpy_src
    if not isinstance(src_alloca, AllocaInst):
        return False
    src_array_size = src_alloca.operands[0]
    if not isinstance(src_array_size, ConstantInt):
        return False
    module = cpy_load.module
    assert module is not None
    dl = module.data_layout
    if dl.is_scalable(src_alloca.allocated_type):
        return False
    src_size = dl.type_alloc_size(src_alloca.allocated_type) * src_array_size.zext_value
    if cpy_size < src_size:
        return False
    c = get_call()
    if c is None:
        return False
    if _is_intrinsic(c, "llvm.lifetime.start"):
        return False
    if c.parent is not cpy_store.parent:
        return False
    if isinstance(cpy_store, StoreInst):
        dest_loc = MemoryLocation.get(cpy_store)
    else:
        assert isinstance(cpy_store, CallBase)
        dest_loc = MemoryLocation.get_for_dest(cpy_store)
    skipped: list[Instruction] = []
    if opt.accessed_between(baa, dest_loc, opt.access(c), opt.access(cpy_store), skipped):
        return False
    skipped_lifetime_start = skipped[0] if skipped else None
    if skipped_lifetime_start is not None:
        lifetime_arg = skipped_lifetime_start.operands[1]
        if isinstance(lifetime_arg, Instruction) and lifetime_arg.parent is c.parent and c.comes_before(lifetime_arg):
            return False
    writable, _explicit = is_writable_object(get_underlying_object(cpy_dest))
    if not writable or not is_dereferenceable_and_aligned_pointer(cpy_dest, 1, cpy_size, dl, c, opt.ac, opt.dt, size_width=64):
        return False
    if may_be_visible_through_unwinding(cpy_dest, c, cpy_store):
        return False
    src_align = src_alloca.alignment or 1
    dest_sufficiently_aligned = src_align <= cpy_dest_align
    if not dest_sufficiently_aligned and not isinstance(cpy_dest, AllocaInst):
        return False
    worklist: list[Value] = list(src_alloca.users)
    while worklist:
        u = worklist.pop()
        op = u.opcode if isinstance(u, Instruction) else ""
        if op in ("bitcast", "addrspacecast"):
            worklist.extend(u.users)
            continue
        if isinstance(u, GetElementPtrInst) and u.has_all_zero_indices:
            worklist.extend(u.users)
            continue
        if _is_intrinsic(u, "llvm.lifetime.start") or _is_intrinsic(u, "llvm.lifetime.end"):
            continue
        if u is not c and u is not cpy_load:
            return False
    src_is_captured = any(
        strip_pointer_casts(a) is cpy_src and not c.param_has_attr(i, "nocapture") for i, a in enumerate(c.args)
    )
    if src_is_captured:
        dest_obj = get_underlying_object(cpy_dest)
        if not is_identified_function_local(dest_obj) or pointer_may_be_captured_before(dest_obj, True, True, c, opt.dt, include_i=True):
            return False
        src_loc = MemoryLocation(src_alloca, LocationSize.precise(src_size))
        i = c.next_instruction
        while i is not None:
            if _is_intrinsic(i, "llvm.lifetime.end"):
                assert isinstance(i, CallBase)
                n = i.operands[0]
                if strip_pointer_casts(i.operands[1]) is src_alloca and isinstance(n, ConstantInt) and n.zext_value >= src_size:
                    break
            if i.opcode == "ret":
                break
            if i is not cpy_load:
                if is_mod_or_ref_set(baa.get_mod_ref_info(i, src_loc)) or i.is_terminator:
                    return False
            i = i.next_instruction
    need_move_gep = False
    if not opt.dt.dominates(cpy_dest, c):
        if (
            isinstance(cpy_dest, GetElementPtrInst)
            and cpy_dest.has_all_constant_indices
            and opt.dt.dominates(cpy_dest.pointer_operand, c)
        ):
            need_move_gep = True
        else:
            return False
    dest_with_src_size = MemoryLocation(cpy_dest, LocationSize.precise(src_size))
    mr = baa.get_mod_ref_info(c, dest_with_src_size)
    if is_mod_or_ref_set(mr):
        mr = baa.call_captures_before(c, dest_with_src_size, opt.dt)
    if is_mod_or_ref_set(mr):
        return False
    if cpy_src.type is not cpy_dest.type:
        return False
    args = c.args
    for a in args:
        if strip_pointer_casts(a) is cpy_src and a.type is not cpy_src.type:
            return False
    changed_argument = False
    for i2, a in enumerate(args):
        if strip_pointer_casts(a) is cpy_src:
            changed_argument = True
            c.set_arg(i2, cpy_dest)
    if not changed_argument:
        return False
    if not dest_sufficiently_aligned:
        assert isinstance(cpy_dest, AllocaInst)
        cpy_dest.alignment = src_align
    if need_move_gep:
        assert isinstance(cpy_dest, Instruction)
        cpy_dest.move_before(c)
    if skipped_lifetime_start is not None:
        skipped_lifetime_start.move_before(c)
        opt.mssau.move_before(opt.access(skipped_lifetime_start), opt.access(c))
    combine_aa_metadata(c, cpy_load)
    if cpy_load is not cpy_store:
        combine_aa_metadata(c, cpy_store)
    NUM_CALL_SLOT.add()
    return True


def perform_stack_move_optzn(
    opt: MemCpyOptimizer,
    load: Instruction,
    store: Instruction,
    dest_alloca: AllocaInst,
    src_alloca: AllocaInst,
    size: tuple[int, bool],
    baa: BatchAAResults,
) -> bool:
    """Merge ``dest_alloca`` into ``src_alloca`` when the copy between them is their
    only interaction; True if done (the caller deletes the copy)."""
    from llvmpy_mid.transform.scalar.memcpy_opt import allocation_size

    if src_alloca.address_space != dest_alloca.address_space:
        return False
    src_size = allocation_size(src_alloca)
    if src_size is None or size != src_size:
        return False
    dest_size = allocation_size(dest_alloca)
    if dest_size is None or size != dest_size:
        return False
    if not src_alloca.is_static_alloca or not dest_alloca.is_static_alloca:
        return False
    lifetime_markers: list[Instruction] = []
    no_alias_instrs: dict[Instruction, None] = {}
    src_not_dom = False
    dt = opt.dt

    def capture_tracking_with_mod_ref(ai: Instruction, callback: Callable[[Instruction], bool]) -> bool:
        nonlocal src_not_dom
        worklist: list[Instruction] = [ai]
        visited: set[int] = set()
        while worklist:
            i = worklist.pop()
            for u in i.uses:
                ui = u.user
                assert isinstance(ui, Instruction)
                if not dt.dominates(src_alloca, ui):
                    src_not_dom = True
                if len(visited) >= DEFAULT_MAX_USES_TO_EXPLORE:
                    return False
                key = id(u)
                if key in visited:
                    continue
                visited.add(key)
                kind = determine_use_capture_kind(u)
                if kind is UseCaptureKind.MAY_CAPTURE:
                    return False
                if kind is UseCaptureKind.PASSTHROUGH:
                    worklist.append(ui)
                    continue
                if _is_intrinsic(ui, "llvm.lifetime.start") or _is_intrinsic(ui, "llvm.lifetime.end"):
                    n = ui.operands[0]
                    assert isinstance(n, ConstantInt)
                    sz = n.sext_value
                    if sz < 0 or (not dest_size[1] and sz == dest_size[0]):
                        lifetime_markers.append(ui)
                        continue
                if ui.get_metadata("noalias") is not None:
                    no_alias_instrs[ui] = None
                if not callback(ui):
                    return False
        return True

    dest_mod_ref = 0
    dest_loc = MemoryLocation(dest_alloca, LocationSize.precise(size[0], size[1]))
    reach_worklist: list[BasicBlock] = []
    store_bb = store.parent
    assert store_bb is not None

    def dest_mod_ref_callback(ui: Instruction) -> bool:
        nonlocal dest_mod_ref
        if ui is store:
            return True
        res = baa.get_mod_ref_info(ui, dest_loc)
        dest_mod_ref |= res
        if is_mod_or_ref_set(res):
            bb = ui.parent
            assert bb is not None
            if bb is store_bb:
                if ui.comes_before(store):
                    return False
                if bb.is_entry_block:
                    return True
                reach_worklist.extend(bb.successors)
            else:
                reach_worklist.append(bb)
        return True

    if not capture_tracking_with_mod_ref(dest_alloca, dest_mod_ref_callback):
        return False
    if reach_worklist and is_potentially_reachable_from_many(reach_worklist, store_bb, None, dt):
        return False
    src_loc = MemoryLocation(src_alloca, LocationSize.precise(size[0], size[1]))
    pdt = opt.pdt

    def src_mod_ref_callback(ui: Instruction) -> bool:
        if pdt.dominates(load, ui) or ui is load or ui is store:
            return True
        res = baa.get_mod_ref_info(ui, src_loc)
        if (is_mod_set(dest_mod_ref) and is_ref_set(res)) or (is_ref_set(dest_mod_ref) and is_mod_set(res)):
            return False
        return True

    if not capture_tracking_with_mod_ref(src_alloca, src_mod_ref_callback):
        return False
    if src_not_dom:
        parent = src_alloca.parent
        assert parent is not None
        pos = parent.first_insertion_point
        assert pos is not None
        if pos is not src_alloca:
            src_alloca.move_before(pos)
    src_alloca.alignment = max(src_alloca.alignment or 1, dest_alloca.alignment or 1)
    dest_alloca.replace_all_uses_with(src_alloca)
    opt.erase_instruction(dest_alloca)
    src_alloca.drop_unknown_non_debug_metadata()
    for marker in lifetime_markers:
        opt.erase_instruction(marker)
    for inst in no_alias_instrs:
        inst.set_metadata("noalias", None)
    NUM_STACK_MOVE.add()
    return True

