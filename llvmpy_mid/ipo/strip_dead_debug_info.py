"""``strip-dead-debug-info`` (``StripDeadDebugInfoPass``): drop the debug info
of global variables that no longer exist, and compile units nothing uses.

What (LLVM 19 semantics, checked against ``opt-19``):

* Each compile unit's ``globals:`` list keeps only the
  ``DIGlobalVariableExpression`` nodes still attached (``!dbg``) to a global
  variable of the module, plus those whose expression is a constant
  (``DW_OP_constu``/``DW_OP_consts`` N, optionally followed by
  ``DW_OP_stack_value`` and a fragment): such variables have no storage to
  lose. An expression listed by several units, or twice, is kept only at its
  first place, and a list is rewritten (to a new uniqued tuple, ``!{}`` when
  empty) only when some entry was dead.
* Only the units of ``!llvm.dbg.cu`` that emit debug info (not ``emissionKind:
  NoDebug``, the default) and those reached from functions are looked at: a
  ``NoDebug`` unit nothing reaches is never dead (LLVM walks
  ``Module::debug_compile_units``).
* A compile unit is live when it still lists a global, or when it is reached
  from a function: its subprogram, the locations, variables and records of
  its instructions, followed through scopes, types, subprogram units and,
  for a unit reached as a subprogram's unit, the unit's globals, enums,
  retained types and imports (LLVM's ``DebugInfoFinder`` walk). When some
  unit is dead, ``!llvm.dbg.cu`` is rebuilt with the live units only (left
  empty, not removed, when none is live), in the order the units were
  created; otherwise it is left alone.
* Nothing else changes: subprograms of deleted functions simply become
  unreachable (the printer no longer shows them) unless something still
  refers to them; retained types and imported entities stay as they are.
* The pass reports the CFG analyses preserved, changed or not, as LLVM does.

How: one walk over the module's global attachments, one iterative
``DebugInfoFinder``-style walk (explicit task stack in LLVM's visiting order,
one shared seen-set) from ``!llvm.dbg.cu`` and the functions, and one from the
functions alone. The units' creation order is read as their order in the
printer's metadata numbering of the input, which is the order in which a
textual module written by LLVM's printer defines (and so creates) them.

What it does not do: LLVM 19 orders the rebuilt ``!llvm.dbg.cu`` by the
units' addresses in memory, which mostly (not always: about three times in
four on linked clang modules) follows their creation order; no IR property
decides it, so with two or more live units and a dead one the order may
differ from opt-19's. For text not written by LLVM's printer, or units made
in memory, the numbering order stands in for creation order. LLVM's
``-strip-global-constants`` option (off by default) is not offered.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.debug_info import DIExpression, DIFieldNode, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgVariableRecord
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.metadata import MDTuple, Metadata, MetadataAsValue
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses

_TYPE_KINDS = frozenset({"DIBasicType", "DIStringType", "DIDerivedType", "DICompositeType", "DISubroutineType"})
_NESTED_SCOPE_KINDS = frozenset({"DILexicalBlock", "DILexicalBlockFile", "DINamespace", "DIModule"})
_DBG_VARIABLE_INTRINSICS = frozenset({"llvm.dbg.value", "llvm.dbg.declare", "llvm.dbg.assign"})

# Walk task codes.
_CU = 0  # process a compile unit (add it, then its globals, enums, retained types, imports)
_GVE = 1  # a global variable expression of a unit being processed
_SCOPE = 2
_TYPE = 3
_SP = 4
_VAR = 5  # a local variable
_LOC = 6


def _field(node: DINode, name: str) -> Metadata | None:
    """The metadata in ``node``'s field ``name`` (None when absent or not metadata)."""
    names = node.field_names
    if name in names:
        value = node.field_values[names.index(name)]
        if isinstance(value, Metadata):
            return value
    return None


def _list_field(node: DINode, name: str) -> tuple[Metadata | None, ...]:
    """The operands of the tuple in ``node``'s field ``name`` (empty when absent)."""
    value = _field(node, name)
    if isinstance(value, MDTuple):
        return value.operands
    return ()


def _kind(md: Metadata | None) -> str:
    return md.kind if isinstance(md, DINode) else ""


def is_constant_expression(expr: Metadata | None) -> bool:
    """True for the expressions LLVM's ``DIExpression::isConstant`` accepts:
    ``DW_OP_consts``/``DW_OP_constu`` N, alone, with ``DW_OP_stack_value``, or
    with ``DW_OP_stack_value`` and a ``DW_OP_LLVM_fragment``."""
    if not isinstance(expr, DIExpression):
        return False
    elems = expr.elements
    n = len(elems)
    if n not in (2, 3, 6) or elems[0] not in ("DW_OP_consts", "DW_OP_constu"):
        return False
    if n == 3:
        return elems[2] == "DW_OP_stack_value"
    if n == 6:
        return elems[2] == "DW_OP_stack_value" and elems[3] == "DW_OP_LLVM_fragment"
    return True


def _is_no_debug_unit(cu: Metadata | None) -> bool:
    """A ``DICompileUnit`` with ``emissionKind: NoDebug`` (also when the field is absent)."""
    if _kind(cu) != "DICompileUnit":
        return False
    assert isinstance(cu, DINode)
    names = cu.field_names
    if "emissionKind" not in names:
        return True
    kind = cu.field_values[names.index("emissionKind")]
    return getattr(kind, "names", None) == ("NoDebug",)


class DebugInfoFinder:
    """The compile units reachable from the roots given, found as LLVM's
    ``DebugInfoFinder`` finds them (same visiting order, one seen-set)."""

    __slots__ = ("compile_units", "_seen", "_seen_locs", "_stack")

    def __init__(self) -> None:
        self.compile_units: list[DINode] = []
        """Units in the order found."""
        self._seen: set[int] = set()
        self._seen_locs: set[int] = set()
        self._stack: list[tuple[int, Metadata | None]] = []

    # --- roots --------------------------------------------------------------------------------
    def process_module(self, module: Module) -> None:
        """The units of ``!llvm.dbg.cu`` that emit debug info (LLVM's ``debug_compile_units``:
        not ``emissionKind: NoDebug``, the default), then every function."""
        nmd = module.get_named_metadata("llvm.dbg.cu")
        if nmd is not None:
            for cu in nmd.operands:
                if not _is_no_debug_unit(cu):
                    self._run(_CU, cu)
        self.process_functions(module)

    def process_functions(self, module: Module) -> None:
        """Every function's subprogram and instructions."""
        for fn in module.functions:
            sp = fn.get_metadata("dbg")
            if _kind(sp) == "DISubprogram":
                self._run(_SP, sp)
            for bb in fn.blocks:
                for inst in bb.instructions:
                    self._process_instruction(inst)

    def _process_instruction(self, inst: object) -> None:
        if isinstance(inst, CallInst):
            callee = inst.called_function
            if callee is not None and callee.name in _DBG_VARIABLE_INTRINSICS and len(inst.args) > 1:
                arg = inst.args[1]
                if isinstance(arg, MetadataAsValue):
                    self._run(_VAR, arg.metadata)
        md = getattr(inst, "_md", None)
        if md:
            loc = md.get(0)
            if loc is not None:
                self._run(_LOC, loc)
        records = getattr(inst, "_dbg_records", None)
        if records:
            for rec in records:
                if isinstance(rec, DbgVariableRecord):
                    self._run(_VAR, rec.variable)
                self._run(_LOC, rec.debug_loc)

    # --- the walk -----------------------------------------------------------------------------
    def _run(self, code: int, node: Metadata | None) -> None:
        stack = self._stack
        stack.append((code, node))
        seen = self._seen
        while stack:
            code, md = stack.pop()
            if not isinstance(md, DINode):
                continue
            kind = md.kind
            todo: list[tuple[int, Metadata | None]]
            if code == _LOC:
                if not isinstance(md, DILocation) or id(md) in self._seen_locs:
                    continue
                self._seen_locs.add(id(md))
                todo = [(_SCOPE, md.scope), (_LOC, md.inlined_at)]
            elif code == _SCOPE:
                if kind in _TYPE_KINDS:
                    stack.append((_TYPE, md))
                    continue
                if kind == "DICompileUnit":
                    self._add_unit(md)
                    continue
                if kind == "DISubprogram":
                    stack.append((_SP, md))
                    continue
                if not md.operands or id(md) in seen:
                    continue
                seen.add(id(md))
                if kind not in _NESTED_SCOPE_KINDS:
                    continue
                todo = [(_SCOPE, _field(md, "scope"))]
            elif code == _TYPE:
                if kind not in _TYPE_KINDS or id(md) in seen:
                    continue
                seen.add(id(md))
                todo = [(_SCOPE, _field(md, "scope"))]
                if kind == "DISubroutineType":
                    todo.extend([(_TYPE, t) for t in _list_field(md, "types")])
                elif kind == "DICompositeType":
                    todo.append((_TYPE, _field(md, "baseType")))
                    for el in _list_field(md, "elements"):
                        ek = _kind(el)
                        if ek in _TYPE_KINDS:
                            todo.append((_TYPE, el))
                        elif ek == "DISubprogram":
                            todo.append((_SP, el))
                elif kind == "DIDerivedType":
                    todo.append((_TYPE, _field(md, "baseType")))
            elif code == _SP:
                if kind != "DISubprogram" or id(md) in seen:
                    continue
                seen.add(id(md))
                todo = [(_SCOPE, _field(md, "scope")), (_CU, _field(md, "unit")), (_TYPE, _field(md, "type"))]
                for param in _list_field(md, "templateParams"):
                    if _kind(param) in ("DITemplateTypeParameter", "DITemplateValueParameter"):
                        assert isinstance(param, DINode)
                        todo.append((_TYPE, _field(param, "type")))
            elif code == _CU:
                if kind != "DICompileUnit" or not self._add_unit(md):
                    continue
                todo = [(_GVE, g) for g in _list_field(md, "globals")]
                todo.extend([(_TYPE, t) for t in _list_field(md, "enums")])
                for rt in _list_field(md, "retainedTypes"):
                    todo.append((_SP if _kind(rt) == "DISubprogram" else _TYPE, rt))
                for imp in _list_field(md, "imports"):
                    if not isinstance(imp, DINode):
                        continue
                    entity = _field(imp, "entity")
                    ek = _kind(entity)
                    if ek in _TYPE_KINDS:
                        todo.append((_TYPE, entity))
                    elif ek == "DISubprogram":
                        todo.append((_SP, entity))
                    elif ek in ("DINamespace", "DIModule"):
                        assert isinstance(entity, DINode)
                        todo.append((_SCOPE, _field(entity, "scope")))
            elif code == _GVE:
                if id(md) in seen:
                    continue
                seen.add(id(md))
                var = _field(md, "var")
                if not isinstance(var, DINode):
                    continue
                todo = [(_SCOPE, _field(var, "scope")), (_TYPE, _field(var, "type"))]
            else:  # _VAR
                if id(md) in seen:
                    continue
                seen.add(id(md))
                todo = [(_SCOPE, _field(md, "scope")), (_TYPE, _field(md, "type"))]
            todo.reverse()
            stack.extend(todo)

    def _add_unit(self, cu: DINode) -> bool:
        if id(cu) in self._seen:
            return False
        self._seen.add(id(cu))
        self.compile_units.append(cu)
        return True


def _creation_order(module: Module, units: list[DINode]) -> list[DINode]:
    """``units`` in the order a printed module defines them (see the module doc)."""
    from llvmpy_mid.asm.slot_tracker import SlotTracker

    tracker = SlotTracker(module)
    tracker.initialize()
    slots = tracker.md_slots
    big = len(slots) + 1
    keyed = [(slots.get(id(cu), big), i, cu) for i, cu in enumerate(units)]
    keyed.sort(key=lambda item: (item[0], item[1]))
    return [cu for _, _, cu in keyed]


def strip_dead_debug_info(module: Module) -> bool:
    """Apply ``strip-dead-debug-info`` to ``module`` (see the module doc); True
    when something changed."""
    live_gves: set[int] = set()
    for gv in module.globals:
        for node in gv.get_all_metadata("dbg"):
            live_gves.add(id(node))

    live_finder = DebugInfoFinder()
    live_finder.process_functions(module)
    live_units: list[DINode] = list(live_finder.compile_units)
    live_ids = {id(cu) for cu in live_units}

    finder = DebugInfoFinder()
    finder.process_module(module)

    visited: set[int] = set()
    rewrites: list[tuple[DINode, list[Metadata | None]]] = []
    has_dead_units = False
    for cu in finder.compile_units:
        kept: list[Metadata | None] = []
        dropped = False
        for gve in _list_field(cu, "globals"):
            if not isinstance(gve, DINode):
                continue
            if is_constant_expression(_field(gve, "expr")):
                live_gves.add(id(gve))
            if id(gve) in visited:
                continue
            visited.add(id(gve))
            if id(gve) in live_gves:
                kept.append(gve)
            else:
                dropped = True
        if kept:
            if id(cu) not in live_ids:
                live_ids.add(id(cu))
                live_units.append(cu)
        elif id(cu) not in live_ids:
            has_dead_units = True
        if dropped:
            rewrites.append((cu, kept))

    order: list[DINode] = []
    if has_dead_units:
        order = _creation_order(module, live_units) if len(live_units) > 1 else live_units

    ctx = module.context
    for cu, kept in rewrites:
        if isinstance(cu, DIFieldNode):
            cu.set_field("globals", MDTuple.get(ctx, kept))
    if has_dead_units:
        nmd = module.get_or_insert_named_metadata("llvm.dbg.cu")
        nmd.clear_operands()
        for cu in order:
            nmd.add_operand(cu)
    return bool(rewrites) or has_dead_units


class StripDeadDebugInfoPass(Pass[Module]):
    """``strip-dead-debug-info``: debug info of deleted globals and unused units goes."""

    name: ClassVar[str] = "strip-dead-debug-info"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        strip_dead_debug_info(unit)
        return PreservedAnalyses.none().preserve_set(CFGAnalyses)


__all__ = [
    "DebugInfoFinder",
    "StripDeadDebugInfoPass",
    "is_constant_expression",
    "strip_dead_debug_info",
]
