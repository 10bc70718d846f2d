"""The memory effects ``function-attrs`` infers for an SCC (LLVM 19.1.7
``lib/Transforms/IPO/FunctionAttrs.cpp``: ``addLocAccess``, ``addArgLocs``,
``checkFunctionMemoryAccess``, ``computeFunctionBodyMemoryAccess``, ``addMemoryAttrs``).

How: each function's body is scanned. A call into the SCC (without operand bundles) is
ignored, but the memory its pointer arguments reach is remembered: it counts only if the
SCC turns out to touch argument memory. Another call contributes its effects (from alias
analysis), its ``other`` accesses also as argument accesses (a captured argument may be
reached that way), and its argument accesses through the locations its pointer arguments
may point to. A load, store or other memory instruction contributes its location: nothing
for constant or local memory (the alias analysis mask), argument memory for an argument's
pointee, ``other`` (and argument memory, when not an identified object) otherwise; a
volatile access also touches inaccessible memory. The SCC's union, intersected with each
function's present effects, becomes its ``memory(...)``; a function that may no longer
write argument memory loses its ``writable`` arguments.

A function whose definition may be replaced at link time keeps the effects its
declaration states.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.alias.aa_results import AAResults
from llvmpy_mid.analysis.alias.identified_objects import is_identified_object
from llvmpy_mid.analysis.alias.memory_location import AAMDNodes, MemoryLocation
from llvmpy_mid.analysis.underlying_objects import get_underlying_object
from llvmpy_mid.ipo.function_attrs_common import (
    NUM_MEMORY_ATTR,
    SCCNodeSet,
    fn_memory_effects,
    remove_param_attr,
    set_fn_memory_effects,
)
from llvmpy_mid.ir.function import Argument, Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.memory_effects import IRMemLocation, MemoryEffects, ModRefInfo

__all__ = ["add_memory_attrs", "check_function_memory_access", "compute_function_body_memory_access"]

AARGetter = Callable[[Function], AAResults]


def _add_loc_access(me: MemoryEffects, loc: MemoryLocation, mr: ModRefInfo, aar: AAResults) -> MemoryEffects:
    """The effects ``me`` widened by an access ``mr`` of ``loc``."""
    widest = (mr & 3) * 0b010001  # ``mr`` for argument memory and for other memory
    if me.data & widest == widest:
        return me  # nothing this access could add (saves the alias queries)
    mr = ModRefInfo(mr & aar.get_mod_ref_info_mask(loc, True))
    if not mr:
        return me
    assert loc.ptr is not None
    obj = get_underlying_object(loc.ptr)
    if isinstance(obj, Argument):
        return me | MemoryEffects.arg_mem_only(mr)
    if not is_identified_object(obj):
        me = me | MemoryEffects.arg_mem_only(mr)
    return me | MemoryEffects.from_locations(other=mr)


def _add_arg_locs(me: MemoryEffects, call: CallBase, arg_mr: ModRefInfo, aar: AAResults) -> MemoryEffects:
    """``me`` widened by an access ``arg_mr`` through each pointer argument of ``call``."""
    tags = AAMDNodes.of(call)
    for arg in call.args:
        if not arg.type.is_ptr_or_ptr_vector:
            continue
        me = _add_loc_access(me, MemoryLocation.get_before_or_after(arg, tags), arg_mr, aar)
    return me


def check_function_memory_access(
    fn: Function, this_body: bool, aar: AAResults, scc_nodes: SCCNodeSet
) -> tuple[MemoryEffects, MemoryEffects]:
    """The effects that always apply to ``fn``, and those added if the SCC accesses
    argument memory (LLVM ``checkFunctionMemoryAccess``)."""
    orig = aar.get_function_memory_effects(fn)
    if orig.does_not_access_memory or not this_body:
        return orig, MemoryEffects.none()
    me = MemoryEffects.none()
    recursive_arg = MemoryEffects.none()
    attrs = fn.attributes
    if attrs.has_attr_somewhere("inalloca") or attrs.has_attr_somewhere("preallocated"):
        me = me | MemoryEffects.arg_mem_only(ModRefInfo.MOD_REF)
    for bb in fn.blocks:
        for inst in bb.instructions:
            if isinstance(inst, CallBase):
                callee = inst.called_function
                if callee is not None and not inst.has_operand_bundles and callee in scc_nodes:
                    recursive_arg = _add_arg_locs(recursive_arg, inst, ModRefInfo.MOD_REF, aar)
                    continue
                call_me = aar.get_memory_effects(inst)
                if call_me.does_not_access_memory:
                    continue
                if inst.intrinsic_base == "llvm.pseudoprobe":
                    continue
                me = me | call_me.without_location(IRMemLocation.ARG_MEM)
                me = me | MemoryEffects.arg_mem_only(call_me.get_mod_ref(IRMemLocation.OTHER))
                arg_mr = call_me.get_mod_ref(IRMemLocation.ARG_MEM)
                if arg_mr:
                    me = _add_arg_locs(me, inst, arg_mr, aar)
                continue
            mr = 0
            if inst.may_write_to_memory():
                mr |= ModRefInfo.MOD
            if inst.may_read_from_memory():
                mr |= ModRefInfo.REF
            if not mr:
                continue
            loc = MemoryLocation.get_or_none(inst)
            if loc is None:
                me = me | MemoryEffects.with_all(mr)
                continue
            if inst.is_volatile:
                me = me | MemoryEffects.inaccessible_mem_only(mr)
            me = _add_loc_access(me, loc, ModRefInfo(mr), aar)
    return orig & me, recursive_arg


def compute_function_body_memory_access(fn: Function, aar: AAResults) -> MemoryEffects:
    """The memory effects of ``fn``'s body (LLVM ``computeFunctionBodyMemoryAccess``)."""
    return check_function_memory_access(fn, True, aar, {})[0]


def add_memory_attrs(scc_nodes: SCCNodeSet, aar_getter: AARGetter, changed: dict[Function, None]) -> None:
    """Give every function of the SCC the memory effects of the whole SCC
    (LLVM ``addMemoryAttrs``)."""
    me = MemoryEffects.none()
    recursive_arg = MemoryEffects.none()
    for fn in scc_nodes:
        aar = aar_getter(fn)
        fn_me, fn_recursive = check_function_memory_access(fn, fn.has_exact_definition, aar, scc_nodes)
        me = me | fn_me
        recursive_arg = recursive_arg | fn_recursive
        if me.is_unknown:
            return
    arg_mr = me.get_mod_ref(IRMemLocation.ARG_MEM)
    if arg_mr:
        me = me | (recursive_arg & MemoryEffects.with_all(arg_mr))
    for fn in scc_nodes:
        old = fn_memory_effects(fn)
        new = me & old
        if new != old:
            NUM_MEMORY_ATTR.add()
            set_fn_memory_effects(fn, new)
            if not new.get_mod_ref(IRMemLocation.ARG_MEM) & ModRefInfo.MOD:
                for arg in fn.args:
                    remove_param_attr(arg, "writable")
            changed[fn] = None
