"""Metadata of inlined code (LLVM InlineFunction.cpp: ``fixupLineNumbers``,
``PropagateCallSiteMetadata``, ``ScopedAliasMetadataDeepCloner``,
``AddAliasScopeMetadata``, ``updateCallProfile``; ``DebugLoc::appendInlinedAt``
and ``updateLoopMetadataDebugLocations`` of lib/IR).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.debug_info import DILocation
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import AllocaInst
from llvmpy_mid.ir.metadata import Metadata, MDNode, MDTuple

if TYPE_CHECKING:
    from llvmpy_mid.ir.context import Context
    from llvmpy_mid.transform.utils.clone_function import ClonedCodeInfo, TrackingValueMap
    from llvmpy_mid.transform.utils.inline_function import InlineFunctionInfo

__all__ = [
    "ScopedAliasMetadataDeepCloner",
    "add_alias_scope_metadata",
    "concatenate",
    "fixup_line_numbers",
    "propagate_call_site_metadata",
    "update_call_profile",
]


def blocks_from(start: BasicBlock) -> Iterator[BasicBlock]:
    bb: BasicBlock | None = start
    while bb is not None:
        nxt = bb.next_block
        yield bb
        bb = nxt


def concatenate(ctx: Context, a: MDNode | None, b: MDNode | None) -> MDNode | None:
    """LLVM ``MDNode::concatenate``: the operands of both, without repeats."""
    if a is None:
        return b
    if b is None:
        return a
    ops: list[Metadata | None] = []
    seen: set[int] = set()
    for op in (*a.operands, *b.operands):
        if id(op) in seen:
            continue
        seen.add(id(op))
        ops.append(op)
    first = ops[0] if ops else None
    if isinstance(first, MDNode) and first.num_operands == len(ops) and first.get_operand(0) is first:
        if all(ops[i] is first.get_operand(i) for i in range(1, len(ops))):
            return first
    return MDNode.get(ctx, ops)


# --- debug locations ------------------------------------------------------------------------------


def _append_inlined_at(
    loc: DILocation, inlined_at: DILocation, ctx: Context, cache: dict[int, DILocation]
) -> DILocation:
    """LLVM ``DebugLoc::appendInlinedAt``."""
    chain: list[DILocation] = []
    last = inlined_at
    cur = loc
    while True:
        ia = cur.inlined_at
        if not isinstance(ia, DILocation):
            break
        found = cache.get(id(ia))
        if found is not None:
            last = found
            break
        chain.append(ia)
        cur = ia
    for node in reversed(chain):
        last = DILocation.distinct(ctx, node.line, node.column, node.scope, last)
        cache[id(node)] = last
    return last


def _inline_debug_loc(loc: DILocation, inlined_at: DILocation, ctx: Context, cache: dict[int, DILocation]) -> DILocation:
    ia = _append_inlined_at(loc, inlined_at, ctx, cache)
    return DILocation.get(ctx, loc.line, loc.column, loc.scope, ia)


def _update_loop_metadata(inst: Instruction, inlined_at: DILocation, ctx: Context, cache: dict[int, DILocation]) -> None:
    """LLVM ``updateLoopMetadataDebugLocations``: a fresh distinct loop ID whose
    locations are inlined."""
    loop_id = inst.get_metadata("llvm.loop")
    if loop_id is None or loop_id.num_operands == 0:
        return
    ops: list[Metadata | None] = [None]
    for i in range(1, loop_id.num_operands):
        op = loop_id.get_operand(i)
        if isinstance(op, DILocation):
            ops.append(_inline_debug_loc(op, inlined_at, ctx, cache))
        else:
            ops.append(op)
    new_id = MDTuple.distinct(ctx, ops)
    new_id.replace_operand_with(0, new_id)
    inst.set_metadata("llvm.loop", new_id)


def fixup_line_numbers(fn: Function, first: BasicBlock, call: Instruction, callee_has_debug_info: bool) -> None:
    """Give inlined instructions and debug records an ``inlinedAt`` chain ending at
    a distinct copy of the call's location (LLVM ``fixupLineNumbers``)."""
    call_loc = call.debug_loc
    if not isinstance(call_loc, DILocation):
        return
    ctx = fn.type.context
    inlined_at = DILocation.distinct(ctx, call_loc.line, call_loc.column, call_loc.scope, call_loc.inlined_at)
    cache: dict[int, DILocation] = {}
    no_inline_line_tables = fn.attributes.fn_attrs.has_string("no-inline-line-tables")
    from llvmpy_mid.transform.utils.inline_function_allocas import alloca_would_be_static_in_entry

    for bb in blocks_from(first):
        for inst in list(bb.instructions):
            _update_loop_metadata(inst, inlined_at, ctx, cache)
            done = False
            if not no_inline_line_tables:
                loc = inst.debug_loc
                if isinstance(loc, DILocation):
                    inst.debug_loc = _inline_debug_loc(loc, inlined_at, ctx, cache)
                    done = True
            if not done and not (callee_has_debug_info and not no_inline_line_tables):
                skip = isinstance(inst, AllocaInst) and alloca_would_be_static_in_entry(inst)
                if isinstance(inst, CallBase) and inst.intrinsic_name == "llvm.pseudoprobe":
                    skip = True
                if not skip:
                    inst.debug_loc = call_loc
            for record in list(inst.iter_dbg_records()):
                if no_inline_line_tables:
                    record.debug_loc = call_loc
                    continue
                rloc = record.debug_loc
                if isinstance(rloc, DILocation):
                    record.debug_loc = _inline_debug_loc(rloc, inlined_at, ctx, cache)
        if no_inline_line_tables:
            for inst in list(bb.instructions):
                if isinstance(inst, CallBase) and inst.intrinsic_name.startswith("llvm.dbg."):
                    inst.erase_from_parent()
                    continue
                for record in list(inst.iter_dbg_records()):
                    inst.remove_dbg_record(record)


def fixup_assignments_if_enabled(fn: Function, first: BasicBlock, call: Instruction) -> None:
    """Under assignment tracking (module flag ``debug-info-assignment-tracking``), the
    inlined code's ``DIAssignID`` attachments and ``#dbg_assign`` ids are replaced by
    fresh distinct ones, consistently (LLVM ``fixupAssignments``). LLVM's
    ``trackInlinedStores`` (new ``#dbg_assign`` for inlined stores to escaped caller
    locals) is not done."""
    from llvmpy_mid.ir.debug_info import DINode
    from llvmpy_mid.ir.module_flags import get_module_flag_int

    module = fn.parent
    if module is None or not get_module_flag_int(module, "debug-info-assignment-tracking"):
        return
    ctx = fn.type.context
    fresh: dict[int, MDNode] = {}

    def new_id(old: MDNode) -> MDNode:
        found = fresh.get(id(old))
        if found is None:
            found = fresh[id(old)] = DINode.distinct(ctx, "DIAssignID", {})
        return found

    for bb in blocks_from(first):
        for inst in bb.instructions:
            for record in inst.iter_dbg_records():
                assign = getattr(record, "assign_id", None) if record.is_variable_record else None
                if isinstance(assign, MDNode):
                    record.assign_id = new_id(assign)  # type: ignore[attr-defined]
            attached = inst.get_metadata("DIAssignID")
            if attached is not None:
                inst.set_metadata("DIAssignID", new_id(attached))


# --- call-site metadata ---------------------------------------------------------------------------


def _unite_access_groups(ctx: Context, a: MDNode | None, b: MDNode) -> MDNode:
    """LLVM ``uniteAccessGroups``."""
    if a is None:
        return b
    if a is b:
        return a

    def groups(n: MDNode) -> list[Metadata]:
        if n.num_operands == 0:
            return [n]
        return [op for op in n.operands if op is not None]

    out: list[Metadata] = []
    seen: set[int] = set()
    for g in (*groups(a), *groups(b)):
        if id(g) not in seen:
            seen.add(id(g))
            out.append(g)
    if len(out) == 1:
        only = out[0]
        assert isinstance(only, MDNode)
        return only
    return MDNode.get(ctx, list(out))


def propagate_call_site_metadata(call: CallBase, first: BasicBlock) -> None:
    """LLVM ``PropagateCallSiteMetadata``: the call's ``!llvm.mem.parallel_loop_access``,
    ``!llvm.access.group``, ``!alias.scope`` and ``!noalias`` on every inlined memory access."""
    parallel = call.get_metadata("llvm.mem.parallel_loop_access")
    access_group = call.get_metadata("llvm.access.group")
    alias_scope = call.get_metadata("alias.scope")
    noalias = call.get_metadata("noalias")
    if parallel is None and access_group is None and alias_scope is None and noalias is None:
        return
    ctx = call.type.context
    for bb in blocks_from(first):
        for inst in bb.instructions:
            if not inst.may_read_or_write_memory():
                continue
            if parallel is not None:
                parallel = concatenate(ctx, inst.get_metadata("llvm.mem.parallel_loop_access"), parallel)
                inst.set_metadata("llvm.mem.parallel_loop_access", parallel)
            if access_group is not None:
                inst.set_metadata("llvm.access.group", _unite_access_groups(ctx, inst.get_metadata("llvm.access.group"), access_group))
            if alias_scope is not None:
                inst.set_metadata("alias.scope", concatenate(ctx, inst.get_metadata("alias.scope"), alias_scope))
            if noalias is not None:
                inst.set_metadata("noalias", concatenate(ctx, inst.get_metadata("noalias"), noalias))


def propagate_mem_prof_metadata(callee: Function, call: CallBase, info: ClonedCodeInfo, vmap: TrackingValueMap) -> None:
    """``!memprof``/``!callsite`` of the cloned calls: see :mod:`inline_function_memprof`."""
    from llvmpy_mid.transform.utils.inline_function_memprof import propagate_mem_prof_metadata as impl

    impl(callee, call, info, vmap)


# --- scoped noalias metadata ----------------------------------------------------------------------


class ScopedAliasMetadataDeepCloner:
    """Clones the callee's ``!alias.scope``/``!noalias`` scope lists, scopes and domains
    so each inlined copy has its own (LLVM ``ScopedAliasMetadataDeepCloner``)."""

    def __init__(self, fn: Function) -> None:
        self._nodes: dict[int, MDNode] = {}
        self._order: list[MDNode] = []
        self._map: dict[int, MDNode] = {}
        for bb in fn.blocks:
            for inst in bb.instructions:
                for kind in ("alias.scope", "noalias"):
                    node = inst.get_metadata(kind)
                    if node is not None:
                        self._add(node)
                if isinstance(inst, CallBase) and inst.intrinsic_name == "llvm.experimental.noalias.scope.decl":
                    arg = inst.get_arg(0)
                    md = getattr(arg, "metadata", None)
                    if isinstance(md, MDNode):
                        self._add(md)
        self._add_recursive()

    def _add(self, node: MDNode) -> None:
        if id(node) not in self._nodes:
            self._nodes[id(node)] = node
            self._order.append(node)

    def _add_recursive(self) -> None:
        queue = list(self._order)
        while queue:
            node = queue.pop()
            for op in node.operands:
                if isinstance(op, MDNode) and not isinstance(op, DILocation) and id(op) not in self._nodes:
                    self._add(op)
                    queue.append(op)

    def clone(self) -> None:
        """Fresh copies: temporaries first, then filled in and made permanent."""
        if not self._order:
            return
        self._map = {}
        temps: dict[int, MDNode] = {}
        for node in self._order:
            temps[id(node)] = MDNode.temporary(node.context, [])
        for node in self._order:
            ops: list[Metadata | None] = []
            for op in node.operands:
                if isinstance(op, MDNode) and id(op) in temps:
                    ops.append(temps[id(op)])
                else:
                    ops.append(op)
            new = MDNode.get(node.context, ops)
            self._map[id(node)] = new
        for node in self._order:
            temp = temps[id(node)]
            temp.replace_all_uses_with(self._map[id(node)])

    def remap(self, first: BasicBlock) -> None:
        if not self._map:
            return
        for bb in blocks_from(first):
            for inst in bb.instructions:
                for kind in ("alias.scope", "noalias"):
                    node = inst.get_metadata(kind)
                    if node is not None:
                        new = self._map.get(id(node))
                        if new is not None:
                            inst.set_metadata(kind, new)
                if isinstance(inst, CallBase) and inst.intrinsic_name == "llvm.experimental.noalias.scope.decl":
                    arg = inst.get_arg(0)
                    md = getattr(arg, "metadata", None)
                    if isinstance(md, MDNode):
                        new = self._map.get(id(md))
                        if new is not None:
                            from llvmpy_mid.ir.metadata import MetadataAsValue

                            inst.set_arg(0, MetadataAsValue.get(inst.type.context, new))


def add_alias_scope_metadata(
    call: CallBase, vmap: TrackingValueMap, dl: object, aa: object | None, info: ClonedCodeInfo
) -> None:
    """Scoped-noalias metadata for ``noalias`` arguments: see
    :mod:`inline_function_noalias`."""
    from llvmpy_mid.transform.utils.inline_function_noalias import add_alias_scope_metadata as impl

    impl(call, vmap, dl, aa, info)


def update_call_profile(callee: Function, vmap: TrackingValueMap, call: CallBase, ifi: InlineFunctionInfo) -> None:
    """Scale the ``!prof`` counts of the cloned calls by call count / entry count
    (LLVM ``updateCallProfile``): see :mod:`inline_function_profile`."""
    from llvmpy_mid.transform.utils.inline_function_profile import update_call_profile as impl

    impl(callee, vmap, call, ifi)

