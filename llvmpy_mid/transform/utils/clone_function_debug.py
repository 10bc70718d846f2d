"""Cloning a function inside its module with its debug information duplicated, as LLVM's
``CloneFunction`` does (LLVM 19.1.7 ``lib/Transforms/Utils/CloneFunction.cpp``
``CloneFunctionInto`` with ``LocalChangesOnly``, ``DebugInfoFinder`` of
``lib/IR/DebugInfo.cpp`` and the metadata half of ``lib/Transforms/Utils/ValueMapper.cpp``).

What: :func:`clone_function_in_module` is :func:`llvmpy_mid.ir.cloning.clone_function`
plus the metadata step: when the function's ``DISubprogram`` or the debug locations and
records of its body name some subprogram, the subprograms met (but the function's own),
their lexical scopes, the compile units and the types met are kept, and every other
metadata node reachable from the copy is mapped: distinct nodes (the function's
subprogram, its lexical blocks, distinct inline locations, loop IDs, assignment IDs...)
are duplicated, uniqued nodes are re-uniqued over their mapped operands. The copy's
attachments, its instructions' attachments and operands, and its debug records then
use the mapped nodes.
"""

from __future__ import annotations

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.cloning import clone_function
from llvmpy_mid.ir.debug_info import DIFieldNode, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgVariableRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.metadata import MDNode, MDTuple, Metadata, MetadataAsValue
from llvmpy_mid.ir.value import Value

__all__ = ["clone_function_in_module"]

_TYPE_KINDS = frozenset(("DIBasicType", "DIDerivedType", "DICompositeType", "DISubroutineType", "DIStringType"))
_LEXICAL = frozenset(("DILexicalBlock", "DILexicalBlockFile"))


def _field(node: DINode, name: str) -> Metadata | None:
    try:
        value = node.get_field(name)
    except Exception:
        return None
    return value if isinstance(value, Metadata) else None


def _elements(md: Metadata | None) -> list[Metadata | None]:
    return list(md.operands) if isinstance(md, MDNode) else []


class _Finder:
    """LLVM ``DebugInfoFinder``, the parts ``CloneFunctionInto`` uses."""

    def __init__(self) -> None:
        self.subprograms: dict[MDNode, None] = {}
        self.scopes: dict[MDNode, None] = {}
        self.units: dict[MDNode, None] = {}
        self.types: dict[MDNode, None] = {}
        self.seen: set[MDNode] = set()

    def subprogram(self, sp: MDNode) -> None:
        if sp in self.subprograms or not isinstance(sp, DINode):
            return
        self.subprograms[sp] = None
        self.scope(_field(sp, "scope"))
        unit = _field(sp, "unit")
        if isinstance(unit, DINode):
            self.unit(unit)
        self.type(_field(sp, "type"))
        for param in _elements(_field(sp, "templateParams")):
            if isinstance(param, DINode):
                self.type(_field(param, "type"))

    def unit(self, cu: DINode) -> None:
        if cu in self.units:
            return
        self.units[cu] = None
        for gve in _elements(_field(cu, "globals")):
            if isinstance(gve, DINode) and gve not in self.seen:
                self.seen.add(gve)
                var = _field(gve, "var")
                if isinstance(var, DINode):
                    self.scope(_field(var, "scope"))
                    self.type(_field(var, "type"))
        for et in _elements(_field(cu, "enums")):
            self.type(et)
        for rt in _elements(_field(cu, "retainedTypes")):
            if isinstance(rt, DINode) and rt.kind == "DISubprogram":
                self.subprogram(rt)
            else:
                self.type(rt)
        for imp in _elements(_field(cu, "imports")):
            entity = _field(imp, "entity") if isinstance(imp, DINode) else None
            if not isinstance(entity, DINode):
                continue
            if entity.kind in _TYPE_KINDS:
                self.type(entity)
            elif entity.kind == "DISubprogram":
                self.subprogram(entity)
            elif entity.kind in ("DINamespace", "DIModule"):
                self.scope(_field(entity, "scope"))

    def type(self, ty: Metadata | None) -> None:
        if not isinstance(ty, DINode) or ty in self.types:
            return
        self.types[ty] = None
        self.scope(_field(ty, "scope"))
        if ty.kind == "DISubroutineType":
            for t in _elements(_field(ty, "types")):
                self.type(t)
            return
        if ty.kind == "DICompositeType":
            self.type(_field(ty, "baseType"))
            for e in _elements(_field(ty, "elements")):
                if isinstance(e, DINode) and e.kind == "DISubprogram":
                    self.subprogram(e)
                else:
                    self.type(e)
            return
        if ty.kind == "DIDerivedType":
            self.type(_field(ty, "baseType"))

    def scope(self, scope: Metadata | None) -> None:
        if not isinstance(scope, DINode):
            return
        kind = scope.kind
        if kind in _TYPE_KINDS:
            self.type(scope)
            return
        if kind == "DICompileUnit":
            self.units.setdefault(scope, None)
            return
        if kind == "DISubprogram":
            self.subprogram(scope)
            return
        if scope in self.scopes:
            return
        self.scopes[scope] = None
        if kind in _LEXICAL or kind in ("DINamespace", "DIModule"):
            self.scope(_field(scope, "scope"))

    def location(self, loc: Metadata | None) -> None:
        while isinstance(loc, DILocation):
            self.scope(loc.scope)
            loc = loc.inlined_at

    def variable(self, var: Metadata | None) -> None:
        if not isinstance(var, DINode) or var in self.seen:
            return
        self.seen.add(var)
        self.scope(_field(var, "scope"))
        self.type(_field(var, "type"))


def _subprogram_of(scope: Metadata | None) -> MDNode | None:
    seen = 0
    while isinstance(scope, DINode) and seen < 10000:
        if scope.kind == "DISubprogram":
            return scope
        scope = _field(scope, "scope")
        seen += 1
    return None


class _Mapper:
    """The metadata half of LLVM's ``ValueMapper`` with module-level changes: distinct
    nodes are copied (their operands mapped afterwards), uniqued nodes rebuilt when an
    operand changes."""

    def __init__(self, md_map: dict[Metadata, Metadata], vmap: dict[Value, Value]) -> None:
        self.md_map = md_map
        self.vmap = vmap
        self.pending: list[tuple[MDNode, MDNode]] = []

    def map(self, md: Metadata | None) -> Metadata | None:
        result = self._map(md)
        while self.pending:
            old, new = self.pending.pop()
            self._fill(old, new)
        return result

    def _map(self, md: Metadata | None) -> Metadata | None:
        if md is None:
            return None
        hit = self.md_map.get(md)
        if hit is not None:
            return hit
        value = getattr(md, "value", None)
        if not isinstance(md, MDNode):
            if isinstance(value, Value) and getattr(md, "is_value_as_metadata", False):
                new_value = self.vmap.get(value)
                if new_value is not None and new_value is not value:
                    mapped = type(md).get(new_value)  # type: ignore[attr-defined]
                    self.md_map[md] = mapped
                    return mapped  # type: ignore[no-any-return]
            return md
        if md.is_distinct:
            copy = self._distinct_copy(md)
            self.md_map[md] = copy
            if copy is not md:
                self.pending.append((md, copy))
            return copy
        new = self._rebuild_uniqued(md)
        self.md_map[md] = new
        return new

    def _distinct_copy(self, node: MDNode) -> MDNode:
        ctx = node.context
        if isinstance(node, DILocation):
            scope = self._map(node.scope)
            inlined = self._map(node.inlined_at)
            assert isinstance(scope, MDNode)
            return DILocation.distinct(ctx, node.line, node.column, scope,
                                       inlined if isinstance(inlined, MDNode) else None, node.is_implicit_code)
        if isinstance(node, DINode):
            return DINode.distinct(ctx, node.kind, node.field_items())
        if isinstance(node, MDTuple):
            return MDTuple.distinct(ctx, list(node.operands))
        return node

    def _fill(self, old: MDNode, new: MDNode) -> None:
        if isinstance(old, DILocation):
            return
        if isinstance(old, DINode):
            if not isinstance(new, DIFieldNode):
                return
            for name, value in old.field_items():
                mapped = self._map_field(value)
                if mapped is not value:
                    new.set_field(name, mapped)  # type: ignore[arg-type]
            return
        for i, op in enumerate(old.operands):
            mapped_op = self._map(op)
            if mapped_op is not op:
                new.replace_operand_with(i, mapped_op)

    def _map_field(self, value: object) -> object:
        if isinstance(value, Metadata):
            return self._map(value)
        if type(value) is tuple:
            items = tuple(self._map(v) if isinstance(v, Metadata) else v for v in value)
            return value if all(a is b for a, b in zip(items, value)) else items
        return value

    def _rebuild_uniqued(self, node: MDNode) -> MDNode:
        ctx = node.context
        if isinstance(node, DILocation):
            scope = self._map(node.scope)
            inlined = self._map(node.inlined_at)
            if scope is node.scope and inlined is node.inlined_at:
                return node
            assert isinstance(scope, MDNode)
            return DILocation.get(ctx, node.line, node.column, scope,
                                  inlined if isinstance(inlined, MDNode) else None, node.is_implicit_code)
        if isinstance(node, DINode):
            items = node.field_items()
            mapped = [(name, self._map_field(value)) for name, value in items]
            if all(a[1] is b[1] for a, b in zip(mapped, items)):
                return node
            return DINode.get(ctx, node.kind, mapped)  # type: ignore[arg-type]
        if isinstance(node, MDTuple):
            ops = list(node.operands)
            new_ops = [self._map(op) for op in ops]
            if all(a is b for a, b in zip(new_ops, ops)):
                return node
            return MDTuple.get(ctx, new_ops)
        return node


def _find(fn: Function, finder: _Finder) -> None:
    for bb in fn.blocks:
        for inst in bb:
            callee = getattr(inst, "called_function", None)
            if callee is not None and callee.name.startswith("llvm.dbg.") and inst.num_operands > 1:
                arg = inst.get_operand(1)
                if isinstance(arg, MetadataAsValue):
                    finder.variable(arg.metadata)
            finder.location(inst.debug_loc)
            for record in inst.iter_dbg_records():
                if isinstance(record, DbgVariableRecord):
                    finder.variable(record.variable)
                finder.location(record.debug_loc)


def clone_function_in_module(fn: Function, vmap: dict[Value, Value]) -> Function:
    """LLVM ``CloneFunction(F, VMap)`` (see the module docstring)."""
    sp = fn.get_metadata("dbg")
    finder = _Finder()
    cloned_sp = sp if isinstance(sp, DINode) and sp.kind == "DISubprogram" else None
    if cloned_sp is not None:
        finder.subprogram(cloned_sp)
    _find(fn, finder)
    copy = clone_function(fn, vmap)
    if not finder.subprograms:
        return copy
    md_map: dict[Metadata, Metadata] = {}
    self_sps: set[MDNode] = set()
    for isp in finder.subprograms:
        if isp is not cloned_sp:
            md_map.setdefault(isp, isp)
            self_sps.add(isp)
    for scope in finder.scopes:
        if isinstance(scope, DINode) and scope.kind in _LEXICAL and _subprogram_of(scope) in self_sps:
            md_map.setdefault(scope, scope)
    for cu in finder.units:
        md_map.setdefault(cu, cu)
    for ty in finder.types:
        md_map.setdefault(ty, ty)
    mapper = _Mapper(md_map, vmap)
    for kind, node in fn.metadata_items():
        mapped = mapper.map(node)
        if isinstance(mapped, MDNode) and mapped is not node:
            copy.set_metadata(kind, mapped)
    for bb in copy.blocks:
        _remap_block(bb, mapper)
    return copy


def _remap_block(bb: BasicBlock, mapper: _Mapper) -> None:
    for inst in bb:
        for kind, node in inst.metadata_items():
            mapped = mapper.map(node)
            if isinstance(mapped, MDNode) and mapped is not node:
                inst.set_metadata(kind, mapped)
        for i, op in enumerate(inst.operands):
            if isinstance(op, MetadataAsValue):
                mapped_md = mapper.map(op.metadata)
                if mapped_md is not op.metadata and mapped_md is not None:
                    inst.set_operand(i, MetadataAsValue.get(op.context, mapped_md))
        for record in inst.iter_dbg_records():
            loc = mapper.map(record.debug_loc)
            if isinstance(loc, MDNode) and loc is not record.debug_loc:
                record.debug_loc = loc
            if isinstance(record, DbgVariableRecord):
                var = mapper.map(record.variable)
                if isinstance(var, MDNode) and var is not record.variable:
                    record.variable = var
                aid = record.assign_id
                if aid is not None:
                    new_aid = mapper.map(aid)
                    if isinstance(new_aid, MDNode) and new_aid is not aid:
                        record.assign_id = new_aid
            elif isinstance(record, DbgLabelRecord):
                label = mapper.map(record.label)
                if isinstance(label, MDNode) and label is not record.label:
                    record.label = label
