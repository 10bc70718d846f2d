"""The state one printing session shares: types, slots and cached operand text.

:class:`WriterContext` is LLVM's ``AsmWriterContext`` plus the caches that
make printing fast. ``refs`` maps ``id(value)`` to the value's operand text
without type (``%x``, ``%3``, ``@g``, ``i32``-less constants such as ``42``
or ``getelementptr (...)``); the slot tracker fills it for globals and for
the locals of each function as it is incorporated, and everything else is
added on first use. ``typed_refs`` caches ``<type> <ref>`` (the slot
tracker fills it for locals too). Caches live for one session only (names and
numbering may change between prints).

It also spells metadata operands (``!5``, inline ``!DIExpression(...)``,
``!"text"``, ``i32 %v``), inline asm and the attribute sets of parameters and
returns, and answers attribute group numbers (``#0``). It writes no whole
lines: instructions, globals and functions are the printer's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.asm.print_constants import constant_text
from llvmpy_mid.asm.print_metadata import arg_list_text, expression_text, location_text
from llvmpy_mid.asm.print_names import escape, global_name, local_name
from llvmpy_mid.asm.print_types import TypePrinter
from llvmpy_mid.asm.slot_tracker import SlotTracker
from llvmpy_mid.ir.debug_info import DIExpression, DILocation

if TYPE_CHECKING:
    from llvmpy_mid.ir.attributes import AttributeSet
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.inline_asm import InlineAsm
    from llvmpy_mid.ir.metadata import Metadata
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value


class WriterContext:
    """Types, slots and text caches of one printing session."""

    __slots__ = (
        "module",
        "types",
        "slots",
        "refs",
        "typed_refs",
        "_attr_text",
        "_attr_id_text",
        "_group_text",
        "_fn_trackers",
        "tstr",
        "tcache",
        "ptr0",
        "explicit_addrspace",
    )

    def __init__(self, module: Module | None, slots: SlotTracker | None, types: TypePrinter) -> None:
        self.module = module
        self.types = types
        self.slots = slots
        refs: dict[int, str] | None = slots.refs if slots is not None else None
        if refs is None:
            refs = {}
            if slots is not None:
                slots.refs = refs
        self.refs = refs
        self.typed_refs: dict[int, str] = {}
        if slots is not None:
            slots.typed_refs = self.typed_refs
            slots.type_str = types.type_str
            slots.type_cache = types._cache
        self._attr_text: dict[AttributeSet, str] = {}
        self._attr_id_text: dict[int, str] = {}
        self._group_text: dict[int, str] = {}
        self._fn_trackers: dict[int, SlotTracker] = {}
        self.tstr = types.type_str
        self.tcache = types._cache
        """The type printer's cache, for ``tcache.get(id(ty)) or tstr(ty)`` on hot paths."""
        self.ptr0: Type | None = module.context.ptr if module is not None else None
        """``ptr`` of the module's context (a call through it needs no ``addrspace``)."""
        self.explicit_addrspace = module is None or module.data_layout.program_addr_space != 0
        """Calls print ``addrspace(N)`` even for address space 0 (no module, or a
        non-zero program address space)."""

    # --- values -----------------------------------------------------------------------------
    def ref(self, v: Value) -> str:
        """The operand text of ``v`` without its type (LLVM ``WriteAsOperandInternal``)."""
        text = self.refs.get(id(v))
        if text is not None:
            return text
        return self._ref_slow(v)

    def typed(self, v: Value) -> str:
        """``<type> <ref>``."""
        key = id(v)
        text = self.typed_refs.get(key)
        if text is None:
            ref = self.refs.get(key)
            if ref is None:
                ref = self._ref_slow(v)
            text = self.typed_refs[key] = self.tstr(v.type) + " " + ref
        return text

    def _ref_slow(self, v: Value) -> str:
        refs = self.refs
        name = v._name
        if name:
            text = global_name(name) if v.is_global_value else local_name(name)
            refs[id(v)] = text
            return text
        if v.is_constant and not v.is_global_value:
            return constant_text(self, v)  # type: ignore[arg-type]
        if v.is_inline_asm:
            text = refs[id(v)] = inline_asm_text(v)  # type: ignore[arg-type]
            return text
        if v.is_metadata_as_value:
            return self.md_value(v.metadata)  # type: ignore[attr-defined]
        if v.is_global_value:
            slot = self._global_slot(v)
            if slot < 0:
                return "<badref>"
            text = refs[id(v)] = "@" + str(slot)
            return text
        slot = self._local_slot(v)
        if slot < 0:
            return "<badref>"
        text = refs[id(v)] = "%" + str(slot)
        return text

    def _global_slot(self, v: Value) -> int:
        slots = self.slots
        if slots is not None:
            slot = slots.global_slot(v)  # type: ignore[arg-type]
            if slot >= 0:
                return slot
        module = v.parent  # type: ignore[attr-defined]
        if module is None:
            return -1
        tracker = self._fn_trackers.get(id(module))
        if tracker is None:
            tracker = self._fn_trackers[id(module)] = SlotTracker(module)
        return tracker.global_slot(v)  # type: ignore[arg-type]

    def _local_slot(self, v: Value) -> int:
        slots = self.slots
        if slots is not None:
            slot = slots.local_slot(v)
            if slot >= 0:
                return slot
        fn = _function_of(v)
        if fn is None:
            return -1
        tracker = self._fn_trackers.get(id(fn))
        if tracker is None:
            tracker = self._fn_trackers[id(fn)] = SlotTracker(None, fn)
        return tracker.local_slot(v)

    # --- metadata ---------------------------------------------------------------------------
    def md_value(self, md: Metadata) -> str:
        """Metadata as an operand (LLVM ``WriteAsOperandInternal`` for metadata)."""
        if type(md) is DIExpression:
            return expression_text(md)
        if md.is_di_arg_list:
            return arg_list_text(self, md)  # type: ignore[arg-type]
        if md.is_md_node:
            slots = self.slots
            if slots is not None:
                slots.initialize()
                text = slots.md_refs.get(id(md))
                if text is not None:
                    return text
            if type(md) is DILocation:
                return location_text(self, md)
            return "<%#x>" % id(md)
        if md.is_md_string:
            return '!"' + escape(md.string) + '"'  # type: ignore[attr-defined]
        return self.typed(md.value)  # type: ignore[attr-defined]

    def md_operand(self, md: Metadata | None) -> str:
        """Like :meth:`md_value` but ``null`` for a missing operand."""
        if md is None:
            return "null"
        if md.is_md_node:
            slots = self.slots
            if slots is not None:
                text = slots.md_refs.get(id(md))
                if text is not None:
                    return text
        return self.md_value(md)

    # --- attributes -----------------------------------------------------------------------------
    def attr_text(self, attrs: AttributeSet) -> str:
        """A parameter or return attribute set as LLVM writes it inline
        (cached by identity, then by value: equal sets made separately share one text)."""
        text = self._attr_id_text.get(id(attrs))
        if text is None:
            text = self._attr_text.get(attrs)
            if text is None:
                text = self._attr_text[attrs] = attrs.as_string(False, self.tstr)
            self._attr_id_text[id(attrs)] = text
        return text

    def attr_group(self, attrs: AttributeSet) -> str:
        """``#N`` for a function attribute set."""
        key = id(attrs)
        text = self._group_text.get(key)
        if text is None:
            slots = self.slots
            slot = slots.attribute_group_slot(attrs) if slots is not None else -1
            text = "#" + str(slot)
            if slot >= 0:
                self._group_text[key] = text
        return text

    def type_list(self, types: list[Type]) -> str:
        tstr = self.tstr
        return ", ".join([tstr(t) for t in types])


def inline_asm_text(ia: InlineAsm) -> str:
    """``asm sideeffect alignstack inteldialect unwind "template", "constraints"``."""
    parts = ["asm "]
    if ia.has_side_effects:
        parts.append("sideeffect ")
    if ia.is_align_stack:
        parts.append("alignstack ")
    if int(ia.dialect) == 1:
        parts.append("inteldialect ")
    if ia.can_throw:
        parts.append("unwind ")
    parts.append('"' + escape(ia.asm_string) + '", "' + escape(ia.constraint_string) + '"')
    return "".join(parts)


def _function_of(v: Value) -> Function | None:
    if v.is_argument:
        return v.parent  # type: ignore[attr-defined,no-any-return]
    if v.is_basic_block:
        return v.parent  # type: ignore[attr-defined,no-any-return]
    if v.is_instruction:
        bb = v.parent  # type: ignore[attr-defined]
        return bb.parent if bb is not None else None
    return None


__all__ = ["WriterContext", "inline_asm_text"]
