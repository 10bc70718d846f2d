"""``repr()`` of IR values, written with the printer's slot numbering.

What: :func:`value_repr` is what ``repr(value)`` shows in a notebook or a
traceback: ``<AddInst %7 = add nsw i32 %5, 1>``, ``<BasicBlock %7 in @sum>``,
``<Argument i32 %x>``, ``<ConstantInt i32 1>``, ``<Function i32 (ptr, i32) @sum>``,
``<GlobalVariable [4 x i8] @.fmt>``, ``<erased AddInst>``. Numbered values show
the number ``str(module)`` gives them. :func:`value_ref` is the short typed
operand form (``i32 %7``) used inside other reprs.

How: numbering a function is a walk of the whole function, so the numbering
is cached on the function (``Function._repr_cache``) and reused by every repr
of its values until the function changes: adding, removing or renaming an
argument, block or instruction of the function drops the cache (the IR's
list and name hooks do it), and a change of the module's global list or
global names (``Module._edit_epoch``) makes it stale. A repr of every
instruction of a function therefore numbers the function once. The text
caches of the printer (operand and constant texts) are fresh for each repr.

What it does not do: a repr is one line, at most :data:`LIMIT` characters, and
leaves out metadata attachments (``, !dbg !12``) and debug records; ``str()``
prints the full text. Attribute-group and metadata numbers (``#0``, ``!3``)
that appear in a repr are those of the cached numbering: a change of
attributes or metadata alone does not drop the cache.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from llvmpy_mid.asm.print_context import WriterContext
from llvmpy_mid.asm.print_instructions import instruction_body
from llvmpy_mid.asm.print_names import global_name
from llvmpy_mid.asm.print_types import TypePrinter
from llvmpy_mid.asm.printer import AssemblyWriter, format_value
from llvmpy_mid.asm.slot_tracker import SlotTracker

if TYPE_CHECKING:
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.global_value import GlobalValue
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value

LIMIT = 300
"""Longest text shown inside a repr's angle brackets (longer text ends in ``...``)."""

_NEWLINES = re.compile(r"\s*\n\s*")


class _Numbering:
    """A function's slot numbering as of the module edit epoch it was made in."""

    __slots__ = ("module", "epoch", "slots")

    def __init__(self, module: Module | None, epoch: int, slots: SlotTracker) -> None:
        self.module = module
        self.epoch = epoch
        self.slots = slots


def _writer_for(fn: Function | None) -> AssemblyWriter:
    """A writer whose numbering is ``fn``'s cached one (made now if missing or stale)."""
    if fn is None:
        return AssemblyWriter(None, SlotTracker(None), TypePrinter(None))
    module = fn.parent
    epoch = module._edit_epoch if module is not None else -1
    cache = fn._repr_cache
    if not isinstance(cache, _Numbering) or cache.module is not module or cache.epoch != epoch:
        slots = SlotTracker(module)
        slots.incorporate_function(fn)
        slots.initialize()
        cache = _Numbering(module, epoch, slots)
        fn._repr_cache = cache
    slots = cache.slots
    # Fresh text caches: the writer context installs new ones in the tracker.
    slots.refs = None
    slots.typed_refs = None
    return AssemblyWriter(module, slots, TypePrinter(module))


def _function_of(value: Value) -> Function | None:
    if value.is_instruction:
        bb = value.parent  # type: ignore[attr-defined]
        return bb.parent if bb is not None else None
    if value.is_basic_block or value.is_argument:
        return value.parent  # type: ignore[attr-defined,no-any-return]
    return None


def _one_line(text: str) -> str:
    if "\n" in text:
        text = _NEWLINES.sub(" ", text.strip())
    if len(text) > LIMIT:
        text = text[: LIMIT - 3] + "..."
    return text


def instruction_text(inst: Instruction) -> str:
    """The instruction as ``str()`` writes it, without metadata attachments."""
    writer = _writer_for(_function_of(inst))
    ctx = writer.ctx
    body = instruction_body(ctx, inst)
    if inst._name:
        return ctx.ref(inst) + " = " + body
    if inst.type.is_void:
        return body
    slot = writer.slots.local_slot(inst) if inst.parent is not None else -1
    return ("%" + str(slot) if slot >= 0 else "<badref>") + " = " + body


def _global_ref(gv: GlobalValue) -> str:
    if gv._name:
        return global_name(gv._name)
    module = gv.parent
    slot = SlotTracker(module).global_slot(gv) if module is not None else -1
    return "@" + str(slot) if slot >= 0 else "@<unnamed>"


def _type_text(gv: GlobalValue, ty: object) -> str:
    return TypePrinter(gv.parent).type_str(ty)  # type: ignore[arg-type]


def value_ref(value: Value) -> str:
    """``i32 %7``, ``label %entry``, ``ptr @g``, ``i32 1``: the value as a typed operand."""
    fn = _function_of(value)
    if fn is not None or value.is_instruction:
        if value.is_instruction and value.is_erased:  # type: ignore[attr-defined]
            return "<erased %s>" % type(value).__name__
        ctx: WriterContext = _writer_for(fn).ctx
        return _one_line(ctx.typed(value))
    if value.is_global_value:
        return "ptr " + _global_ref(value)  # type: ignore[arg-type]
    return _one_line(format_value(value))


def value_repr(value: Value) -> str:
    """``repr(value)`` (see the module docstring)."""
    kind = type(value).__name__
    if value.is_instruction:
        inst: Instruction = value  # type: ignore[assignment]
        if inst.is_erased:
            return "<erased %s>" % kind
        return "<%s %s>" % (kind, _one_line(instruction_text(inst)))
    if value.is_basic_block:
        fn = _function_of(value)
        ref = _writer_for(fn).ctx.ref(value)
        where = " in " + _global_ref(fn) if fn is not None else " (not in a function)"
        return "<%s %s%s>" % (kind, ref, where)
    if value.is_argument:
        return "<%s %s>" % (kind, value_ref(value))
    if value.is_global_value:
        gv: GlobalValue = value  # type: ignore[assignment]
        ref = _global_ref(gv)
        ty = _type_text(gv, gv.value_type)
        if value.is_declaration and kind == "Function":  # type: ignore[attr-defined]
            return "<%s %s %s (declaration)>" % (kind, ty, ref)
        return "<%s %s %s>" % (kind, ty, ref)
    return "<%s %s>" % (kind, _one_line(format_value(value)))


__all__ = ["LIMIT", "instruction_text", "value_ref", "value_repr"]
