"""Debug-info fix-up after code extraction (LLVM ``lib/Transforms/Utils/CodeExtractor.cpp``
``fixupDebugInfoPostExtraction``, with ``DILocalScope::cloneScopeForSubprogram`` and
``DebugLoc::replaceInlinedAtSubprogram`` from ``lib/IR/DebugInfoMetadata.cpp`` /
``lib/IR/DebugLoc.cpp``).

When the old function has a ``DISubprogram``, the new function gets a distinct one named
after it (local to the unit, optimized, line 0); debug records whose location is not a
constant or an instruction of the new function are dropped, the others get variables
(and labels) re-created in the new subprogram, every location is re-parented, loop IDs
are rebuilt and assignment IDs renewed. Without a subprogram the new function's debug
information is stripped. Either way records left in the old function that name moved
values are erased.
"""

from __future__ import annotations

from llvmpy_mid.ir.debug_info import DIEnum, DILocation, DINode
from llvmpy_mid.ir.debug_info_strip import _strip_loop_locations
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgRecord, DbgVariableRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.metadata import MDNode, MDString, MDTuple, Metadata, ValueAsMetadata
from llvmpy_mid.ir.value import Value
from llvmpy_mid.transform.utils.local import find_dbg_records

ScopeCache = dict[int, tuple[MDNode, MDNode]]
"""Old node id -> (old node, its replacement); the old node is kept so its id stays unique."""
_DEBUG_INTRINSICS = frozenset({"llvm.dbg.declare", "llvm.dbg.value", "llvm.dbg.assign", "llvm.dbg.label"})


def function_subprogram(fn: Function) -> DINode | None:
    """``Function::getSubprogram``."""
    md = fn.get_metadata("dbg")
    if isinstance(md, DINode) and md.kind == "DISubprogram":
        return md
    return None


def clone_scope_for_subprogram(root: MDNode, new_sp: DINode, cache: ScopeCache) -> MDNode:
    """LLVM ``DILocalScope::cloneScopeForSubprogram``: the lexical-block chain of ``root``
    re-created (uniqued) under ``new_sp``."""
    chain: list[DINode] = []
    cached: MDNode | None = None
    scope: MDNode | None = root
    while isinstance(scope, DINode) and scope.kind != "DISubprogram":
        hit = cache.get(id(scope))
        if hit is not None:
            cached = hit[1]
            break
        chain.append(scope)
        nxt = scope.get_field("scope")
        scope = nxt if isinstance(nxt, MDNode) else None
    updated: MDNode = cached if cached is not None else new_sp
    for old in reversed(chain):
        fields = [(name, updated if name == "scope" else value) for name, value in old.field_items()]
        clone = DINode.get(new_sp.context, old.kind, fields)
        cache[id(old)] = (old, clone)
        updated = clone
    return updated


def replace_inlined_at_subprogram(loc: MDNode | None, new_sp: DINode, cache: ScopeCache) -> MDNode | None:
    """LLVM ``DebugLoc::replaceInlinedAtSubprogram``: ``loc`` with the end of its inline
    chain moved into ``new_sp``."""
    if not isinstance(loc, DILocation):
        return loc
    ctx = new_sp.context
    chain: list[DILocation] = []
    updated: MDNode | None = None
    cur: DILocation | None = loc
    while cur is not None:
        hit = cache.get(id(cur))
        if hit is not None:
            updated = hit[1]
            break
        chain.append(cur)
        nxt = cur.inlined_at
        cur = nxt if isinstance(nxt, DILocation) else None
    if updated is None:
        last = chain.pop()
        scope = clone_scope_for_subprogram(last.scope, new_sp, cache)
        updated = DILocation.get(ctx, last.line, last.column, scope, None)
        cache[id(last)] = (last, updated)
    for old in reversed(chain):
        updated = DILocation.get(ctx, old.line, old.column, old.scope, updated)
        cache[id(old)] = (old, updated)
    return updated


def _update_loop_id(node: MDNode, new_sp: DINode, cache: ScopeCache) -> MDNode:
    ops: list[Metadata | None] = [None]
    for op in list(node.operands)[1:]:
        if op is None:
            ops.append(None)
        elif isinstance(op, DILocation):
            ops.append(replace_inlined_at_subprogram(op, new_sp, cache))
        else:
            ops.append(op)
    new = MDTuple.distinct(node.context, ops)
    new.replace_operand_with(0, new)
    return new


def _is_invalid_location(v: Value | None, new_fn: Function) -> bool:
    if v is None:
        return True
    if v.is_instruction:
        return v.function is not new_fn  # type: ignore[attr-defined]
    return not v.is_constant


def _location_value(md: Metadata | None) -> Value | None:
    return md.value if isinstance(md, ValueAsMetadata) else None


def _strip_function_debug_info(fn: Function) -> None:
    """LLVM ``stripDebugInfo(Function&)``."""
    if fn.get_metadata("dbg") is not None:
        fn.set_metadata("dbg", None)
    for bb in fn.blocks:
        for inst in list(bb):
            if _is_debug_intrinsic(inst):
                inst.erase_from_parent()
                continue
            if inst.debug_loc is not None:
                inst.debug_loc = None
            loop_md = inst.get_metadata("llvm.loop")
            if loop_md is not None:
                new = _strip_loop_locations(loop_md)
                if new is not loop_md:
                    inst.set_metadata("llvm.loop", new)
            if inst.get_metadata("heapallocsite") is not None:
                inst.set_metadata("heapallocsite", None)
            if inst.get_metadata("DIAssignID") is not None:
                inst.set_metadata("DIAssignID", None)
            for rec in list(inst.iter_dbg_records()):
                rec.erase_from_parent()


def _is_debug_intrinsic(inst: Instruction) -> bool:
    if inst.opcode != "call":
        return False
    callee = inst.called_function  # type: ignore[attr-defined]
    return callee is not None and callee.name in _DEBUG_INTRINSICS


def _erase_debug_records_with_non_local_refs(fn: Function) -> None:
    for bb in fn.blocks:
        for inst in bb:
            for rec in find_dbg_records(inst):
                if rec.function is not fn:
                    rec.erase_from_parent()


def fixup_debug_info_post_extraction(old_fn: Function, new_fn: Function, call: Instruction) -> None:
    """LLVM ``fixupDebugInfoPostExtraction``."""
    old_sp = function_subprogram(old_fn)
    if old_sp is None:
        _strip_function_debug_info(new_fn)
        _erase_debug_records_with_non_local_refs(new_fn)
        return
    ctx = old_fn.type.context
    unit = old_sp.get_field("unit")
    sp_type = DINode.get(ctx, "DISubroutineType", [("types", MDTuple.get(ctx, ()))])
    new_sp = DINode.distinct(ctx, "DISubprogram", [
        ("name", MDString.get(ctx, new_fn.name)),
        ("linkageName", MDString.get(ctx, new_fn.name)),
        ("scope", None),
        ("file", old_sp.get_field("file")),
        ("type", sp_type),
        ("spFlags", DIEnum.of("DISPFlagLocalToUnit", "DISPFlagDefinition", "DISPFlagOptimized")),
        ("unit", unit),
    ])  # fmt: skip
    new_fn.set_metadata("dbg", new_sp)
    remapped: dict[int, tuple[MDNode, MDNode]] = {}
    cache: ScopeCache = {}

    def updated_variable(old_var: MDNode) -> MDNode:
        hit = remapped.get(id(old_var))
        if hit is not None:
            return hit[1]
        assert isinstance(old_var, DINode)
        scope = clone_scope_for_subprogram(old_var.get_field("scope"), new_sp, cache)
        fields: list[tuple[str, object]] = [
            ("name", old_var.get_field("name")),
            ("scope", scope),
            ("file", old_var.get_field("file")),
            ("line", old_var.get_field("line")),
            ("type", old_var.get_field("type")),
        ]
        align = old_var.get_field("align") if old_var.has_field("align") else None
        if align:
            fields.append(("align", align))
        var = DINode.get(ctx, "DILocalVariable", fields)  # type: ignore[arg-type]
        remapped[id(old_var)] = (old_var, var)
        return var

    def update_label(rec: DbgLabelRecord) -> None:
        loc = rec.debug_loc
        if isinstance(loc, DILocation) and loc.inlined_at is not None:
            return
        old_label = rec.label
        known = remapped.get(id(old_label))
        new_label = known[1] if known is not None else None
        if new_label is None:
            assert isinstance(old_label, DINode)
            scope = clone_scope_for_subprogram(old_label.get_field("scope"), new_sp, cache)
            new_label = DINode.get(ctx, "DILabel", [
                (name, scope if name == "scope" else value) for name, value in old_label.field_items()
            ])
            remapped[id(old_label)] = (old_label, new_label)
        rec.label = new_label

    to_delete: list[DbgRecord] = []
    for bb in new_fn.blocks:
        for inst in bb:
            for rec in inst.iter_dbg_records():
                if isinstance(rec, DbgLabelRecord):
                    update_label(rec)
                    continue
                assert isinstance(rec, DbgVariableRecord)
                values = rec.location_values()
                loc_md = rec.location
                if isinstance(loc_md, ValueAsMetadata) or values:
                    if any(_is_invalid_location(v, new_fn) for v in values):
                        to_delete.append(rec)
                        continue
                if rec.is_dbg_assign and _is_invalid_location(_location_value(rec.address), new_fn):
                    to_delete.append(rec)
                    continue
                loc = rec.debug_loc
                if not (isinstance(loc, DILocation) and loc.inlined_at is not None):
                    rec.variable = updated_variable(rec.variable)
    for rec in to_delete:
        rec.erase_from_parent()
    if any(isinstance(v, DINode) and v.kind == "DILocalVariable" for _, v in remapped.values()):
        # DIBuilder's finalizeSubprogram: a subprogram that got variables has a retained list.
        new_sp.set_field("retainedNodes", MDTuple.get(ctx, ()))  # type: ignore[attr-defined]
    assign_ids: dict[int, tuple[MDNode, MDNode]] = {}

    def new_assign_id(old: MDNode) -> MDNode:
        hit = assign_ids.get(id(old))
        if hit is None:
            hit = assign_ids[id(old)] = (old, DINode.distinct(ctx, "DIAssignID", []))
        return hit[1]

    for bb in new_fn.blocks:
        for inst in bb:
            inst_loc = inst.debug_loc
            if inst_loc is not None:
                inst.debug_loc = replace_inlined_at_subprogram(inst_loc, new_sp, cache)
            for rec in inst.iter_dbg_records():
                new_loc = replace_inlined_at_subprogram(rec.debug_loc, new_sp, cache)
                if isinstance(new_loc, DILocation):
                    rec.debug_loc = new_loc
            loop_md = inst.get_metadata("llvm.loop")
            if loop_md is not None:
                inst.set_metadata("llvm.loop", _update_loop_id(loop_md, new_sp, cache))
            for rec in inst.iter_dbg_records():
                if isinstance(rec, DbgVariableRecord) and rec.is_dbg_assign and rec.assign_id is not None:
                    rec.assign_id = new_assign_id(rec.assign_id)
            aid = inst.get_metadata("DIAssignID")
            if aid is not None:
                inst.set_metadata("DIAssignID", new_assign_id(aid))
    if call.debug_loc is None:
        call.debug_loc = DILocation.get(ctx, 0, 0, old_sp, None)
    _erase_debug_records_with_non_local_refs(new_fn)


__all__ = [
    "clone_scope_for_subprogram",
    "fixup_debug_info_post_extraction",
    "function_subprogram",
    "replace_inlined_at_subprogram",
]
