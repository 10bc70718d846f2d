"""Slot numbering for the assembly printer (LLVM's ``SlotTracker``).

Unnamed values print as numbers: globals (``@0``) in module order — variables,
aliases, ifuncs, then functions; locals (``%0``) per function — arguments, then
blocks and instructions in order (void instructions take no number). Metadata
nodes (``!0``) and attribute sets (``#0``) are numbered module-wide, in the
order LLVM's tracker meets them:

* when the module is processed: each global variable's attachments and
  attribute set; then every named metadata operand; then each function's
  function attributes (and, when all metadata is wanted up front, its
  metadata);
* when a function is incorporated (as the printer reaches it): the
  function's attachments, then per instruction its debug records (an empty
  location node, the variable, the assign id and its empty address node,
  the ``!dbg`` location), the ``MDNode`` operands of calls to ``llvm.*``
  functions and its attachments (``!dbg`` first, then by kind id), and the
  function attributes of its calls.

A node's operands are numbered depth-first after the node, in LLVM's operand
order; ``DIExpression`` nodes are never numbered (they print inline). The walk
uses an explicit stack, so long chains of nodes cannot overflow.

Optionally the tracker fills a shared ``refs`` dict (``id(value)`` -> ``%x``,
``%3``, ``@g``, ``@0``) while numbering, which saves the printer a second walk.
It prints nothing itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.asm.lexer import is_digits
from llvmpy_mid.asm.print_metadata import node_operands
from llvmpy_mid.asm.print_names import global_name, local_name
from llvmpy_mid.ir.debug_info import DIExpression, DILocation
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.function import Function

if TYPE_CHECKING:
    from llvmpy_mid.ir.attributes import AttributeSet
    from llvmpy_mid.ir.debug_records import DbgRecord
    from llvmpy_mid.ir.global_value import GlobalObject, GlobalValue
    from llvmpy_mid.ir.metadata import MDNode, Metadata
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value


class SlotTracker:
    """Numbers one module's (or one function's) unnamed values, metadata and attribute sets."""

    __slots__ = (
        "module",
        "function",
        "init_all_metadata",
        "_module_pending",
        "_function_pending",
        "global_slots",
        "_next_global",
        "local_slots",
        "_next_local",
        "md_slots",
        "md_nodes",
        "md_refs",
        "attr_slots",
        "attr_sets",
        "_attr_ids",
        "refs",
        "typed_refs",
        "type_str",
        "type_cache",
    )

    def __init__(
        self,
        module: Module | None,
        function: Function | None = None,
        init_all_metadata: bool = False,
        refs: dict[int, str] | None = None,
    ) -> None:
        self.module = module
        self.function = function
        self.init_all_metadata = init_all_metadata
        self._module_pending = module is not None
        self._function_pending = function is not None
        self.global_slots: dict[int, int] = {}
        self._next_global = 0
        self.local_slots: dict[int, int] = {}
        self._next_local = 0
        self.md_slots: dict[int, int] = {}
        self.md_nodes: list[MDNode] = []
        self.md_refs: dict[int, str] = {}
        self.attr_slots: dict[AttributeSet, int] = {}
        self.attr_sets: list[AttributeSet] = []
        self._attr_ids: dict[int, int] = {}
        self.refs = refs
        self.typed_refs: dict[int, str] | None = None
        """When set (with ``type_str``), locals also get ``<type> <ref>`` texts."""
        self.type_str: Callable[[Type], str] | None = None
        self.type_cache: dict[int, str] = {}
        """The type printer's cache (``id(type)`` -> text), read directly on the hot path."""

    # --- driving ----------------------------------------------------------------------------
    def initialize(self) -> None:
        """Process the module and the incorporated function if not done yet."""
        if self._module_pending:
            self._module_pending = False
            self._process_module()
        if self._function_pending:
            self._function_pending = False
            self._process_function()

    def incorporate_function(self, fn: Function) -> None:
        """Make ``fn`` the function whose locals are numbered (LLVM ``incorporateFunction``)."""
        self.function = fn
        self._function_pending = True

    def purge_function(self) -> None:
        """Forget the current function's local numbers."""
        self.local_slots = {}
        self._next_local = 0
        self.function = None
        self._function_pending = False

    # --- queries ----------------------------------------------------------------------------
    def global_slot(self, gv: GlobalValue) -> int:
        self.initialize()
        return self.global_slots.get(id(gv), -1)

    def local_slot(self, value: Value) -> int:
        self.initialize()
        slot = self.local_slots.get(id(value))
        if slot is not None:
            return slot
        refs = self.refs
        if refs is not None and self.function is not None and _belongs_to(value, self.function):
            text = refs.get(id(value))
            if text is not None and is_digits(text[1:]):
                return int(text[1:])
        return -1

    def metadata_slot(self, node: Metadata) -> int:
        self.initialize()
        return self.md_slots.get(id(node), -1)

    def attribute_group_slot(self, attrs: AttributeSet) -> int:
        self.initialize()
        return self.attr_slots.get(attrs, -1)

    # --- numbering ---------------------------------------------------------------------------
    def _global(self, gv: GlobalValue) -> None:
        slot = self._next_global
        self._next_global = slot + 1
        self.global_slots[id(gv)] = slot
        refs = self.refs
        if refs is not None:
            refs[id(gv)] = "@" + str(slot)

    def _attr_set(self, attrs: AttributeSet) -> None:
        """Number an attribute set (equal sets share a number)."""
        if id(attrs) in self._attr_ids:
            return
        slot = self.attr_slots.get(attrs)
        if slot is None:
            slot = self.attr_slots[attrs] = len(self.attr_sets)
            self.attr_sets.append(attrs)
        self._attr_ids[id(attrs)] = slot

    def create_metadata_slot(self, node: Metadata) -> None:
        """Number ``node`` and, depth-first, the nodes among its operands."""
        slots = self.md_slots
        if id(node) in slots:
            return
        t = type(node)
        while t is DILocation:
            # The most numerous node: number it, its scope, then follow the
            # inlinedAt chain (LLVM's operand order) without recursion.
            slot = len(self.md_nodes)
            slots[id(node)] = slot
            self.md_refs[id(node)] = "!" + str(slot)
            self.md_nodes.append(node)  # type: ignore[arg-type]
            scope = node.scope  # type: ignore[attr-defined]
            if id(scope) not in slots:
                self.create_metadata_slot(scope)
            inlined = node.inlined_at  # type: ignore[attr-defined]
            if inlined is None or id(inlined) in slots:
                return
            node = inlined
            t = type(node)
        if t is DIExpression or not node.is_md_node:
            return
        nodes = self.md_nodes
        md_refs = self.md_refs
        work: list[Metadata] = [node]
        while work:
            n = work.pop()
            if id(n) in slots or type(n) is DIExpression:
                continue
            slot = len(nodes)
            slots[id(n)] = slot
            md_refs[id(n)] = "!" + str(slot)
            nodes.append(n)  # type: ignore[arg-type]
            ops = node_operands(n)  # type: ignore[arg-type]
            for i in range(len(ops) - 1, -1, -1):
                op = ops[i]
                if op is not None and op.is_md_node and id(op) not in slots:
                    work.append(op)

    def _global_object_metadata(self, go: GlobalObject) -> None:
        md = go._global_md
        if not md:
            return
        create = self.create_metadata_slot
        if len(md) == 1:
            create(md[0][1])
            return
        for _, node in sorted(md, key=_kind_key):
            create(node)

    def _record_metadata(self, rec: DbgRecord) -> None:
        create = self.create_metadata_slot
        if rec.is_variable_record:
            loc = rec._location  # type: ignore[attr-defined]
            if loc.is_md_node:
                create(loc)
            create(rec._variable)  # type: ignore[attr-defined]
            if rec._assign_id is not None:  # type: ignore[attr-defined]
                create(rec._assign_id)  # type: ignore[attr-defined]
                addr = rec._address  # type: ignore[attr-defined]
                if addr is not None and addr.is_md_node:
                    create(addr)
        else:
            create(rec._label)  # type: ignore[attr-defined]
        create(rec._debug_loc)

    def _instruction_metadata(self, inst: object) -> None:
        """Metadata of one instruction: records, intrinsic operands, attachments."""
        recs = inst._dbg_records  # type: ignore[attr-defined]
        if recs:
            for rec in recs:
                self._record_metadata(rec)
        if type(inst) is CallInst:
            callee = inst._operands[-1].value
            if (
                type(callee) is Function
                and callee.intrinsic_id
                and callee.function_type is inst.function_type
            ):
                for use in inst._operands:
                    v = use.value
                    if v.is_metadata_as_value:
                        md = v.metadata  # type: ignore[attr-defined]
                        if md.is_md_node:
                            self.create_metadata_slot(md)
        md_map = inst._md  # type: ignore[attr-defined]
        if md_map:
            create = self.create_metadata_slot
            if len(md_map) == 1:
                for node in md_map.values():
                    create(node)
            else:
                for kind in sorted(md_map):
                    create(md_map[kind])

    def _function_metadata(self, fn: Function) -> None:
        self._global_object_metadata(fn)
        inst_md = self._instruction_metadata
        for bb in fn.blocks:
            inst = bb.instructions._first
            while inst is not None:
                if inst._dbg_records or inst._md or type(inst) is CallInst:
                    inst_md(inst)
                inst = inst._next

    def _process_module(self) -> None:
        module = self.module
        assert module is not None
        refs = self.refs
        for gv in module.globals:
            if not gv._name:
                self._global(gv)
            elif refs is not None:
                refs[id(gv)] = global_name(gv._name)
            self._global_object_metadata(gv)
            if gv.attributes._attrs:
                self._attr_set(gv.attributes)
        for ga in module.aliases:
            if not ga._name:
                self._global(ga)
            elif refs is not None:
                refs[id(ga)] = global_name(ga._name)
        for gi in module.ifuncs:
            if not gi._name:
                self._global(gi)
            elif refs is not None:
                refs[id(gi)] = global_name(gi._name)
            self._global_object_metadata(gi)
        for nmd in module.named_metadata.values():
            for node in nmd._operands:
                self.create_metadata_slot(node)
        for fn in module.functions:
            if not fn._name:
                self._global(fn)
            elif refs is not None:
                refs[id(fn)] = global_name(fn._name)
            if self.init_all_metadata:
                self._function_metadata(fn)
            sets = fn.attributes._sets
            if sets and sets[0]._attrs:
                self._attr_set(sets[0])

    def _process_function(self) -> None:
        fn = self.function
        assert fn is not None
        refs = self.refs
        if refs is None:
            self._number_locals(fn)
            return
        # With a shared refs table the numbers are kept as text only ("%3");
        # local_slot() reads them back.
        if not self.init_all_metadata:
            self._global_object_metadata(fn)
        blocks = fn.blocks
        bound = len(fn.args) + len(blocks)
        for bb in blocks:
            bound += bb.instructions._size
        pct = _percent_names(bound)
        next_slot = 0
        typed = self.typed_refs
        tstr = self.type_str
        tcache = self.type_cache
        want_typed = typed is not None and tstr is not None
        for arg in fn.args:
            if arg._name:
                ref = refs[id(arg)] = local_name(arg._name)
            else:
                ref = refs[id(arg)] = pct[next_slot]
                next_slot += 1
            if typed is not None and tstr is not None:
                typed[id(arg)] = tstr(arg.type) + " " + ref
        void = fn.type.context.void
        want_md = not self.init_all_metadata
        inst_md = self._instruction_metadata
        attr_ids = self._attr_ids
        for bb in blocks:
            if bb._name:
                ref = refs[id(bb)] = local_name(bb._name)
            else:
                ref = refs[id(bb)] = pct[next_slot]
                next_slot += 1
            if typed is not None:
                typed[id(bb)] = "label " + ref
            inst = bb.instructions._first
            while inst is not None:
                ty = inst.type
                if ty is not void:
                    if inst._name:
                        ref = refs[id(inst)] = local_name(inst._name)
                    else:
                        ref = refs[id(inst)] = pct[next_slot]
                        next_slot += 1
                    if want_typed:
                        typed[id(inst)] = (tcache.get(id(ty)) or tstr(ty)) + " " + ref  # type: ignore[index,misc]
                if inst.is_call_base:
                    sets = inst.attributes._sets
                    if sets and sets[0]._attrs and id(sets[0]) not in attr_ids:
                        self._attr_set(sets[0])
                    if want_md and (inst._md or inst._dbg_records or _intrinsic_call(inst)):
                        inst_md(inst)
                elif want_md and (inst._md or inst._dbg_records):
                    inst_md(inst)
                inst = inst._next
        self._next_local = next_slot

    def _number_locals(self, fn: Function) -> None:
        """Numbering into ``local_slots`` (no shared refs table)."""
        self._next_local = 0
        slots = self.local_slots
        if not self.init_all_metadata:
            self._global_object_metadata(fn)
        next_slot = 0
        for arg in fn.args:
            if not arg._name:
                slots[id(arg)] = next_slot
                next_slot += 1
        void = fn.type.context.void
        want_md = not self.init_all_metadata
        inst_md = self._instruction_metadata
        for bb in fn.blocks:
            if not bb._name:
                slots[id(bb)] = next_slot
                next_slot += 1
            inst = bb.instructions._first
            while inst is not None:
                if not inst._name and inst.type is not void:
                    slots[id(inst)] = next_slot
                    next_slot += 1
                if inst.is_call_base:
                    sets = inst.attributes._sets
                    if sets and sets[0]._attrs:
                        self._attr_set(sets[0])
                if want_md and (inst._dbg_records or inst._md or inst.is_call_base):
                    inst_md(inst)
                inst = inst._next
        self._next_local = next_slot


_PERCENT: list[str] = []


def _percent_names(count: int) -> list[str]:
    """``["%0", "%1", ...]`` with at least ``count`` entries (shared, grown on demand)."""
    names = _PERCENT
    if len(names) < count:
        names.extend(["%" + str(i) for i in range(len(names), count + 64)])
    return names


def _intrinsic_call(inst: object) -> bool:
    """A ``call`` of an ``llvm.*`` function (whose node operands get numbered)."""
    if type(inst) is not CallInst:
        return False
    callee = inst._operands[-1].value
    return type(callee) is Function and callee.intrinsic_id


def _belongs_to(value: Value, fn: Function) -> bool:
    if value.is_argument or value.is_basic_block:
        return value.parent is fn  # type: ignore[attr-defined]
    if value.is_instruction:
        bb = value.parent  # type: ignore[attr-defined]
        return bb is not None and bb.parent is fn
    return False


def _kind_key(item: tuple[int, object]) -> int:
    return item[0]


__all__ = ["SlotTracker"]
