"""The assembly printer: a module or a single value as ``opt-19 -S`` prints it.

:func:`print_module` writes, in LLVM's order: the ``; ModuleID`` line,
``source_filename``, target data layout and triple, module-level inline asm,
the identified struct types (numbered ones first, then named ones, in the
order LLVM's type finder meets them), the comdats used by functions and
globals, globals, aliases, ifuncs, functions (with their
``; Function Attrs:`` comment, argument and block numbering, ``; preds =``
comments padded to column 50, debug records and metadata attachments), the
attribute groups ``attributes #N = { ... }``, named metadata and finally every
numbered metadata node. Slot numbers come from
:class:`~llvmpy_mid.asm.slot_tracker.SlotTracker`; text is appended to one
list and joined once. ``uselistorder`` directives are not printed (opt's
default).

:func:`format_value` prints one value the way LLVM's ``Value::print`` does:
an instruction without the leading indentation (``%5 = add nsw i32 %3, 1``),
a block with its label and instructions, a global or function definition, an
argument, constant or inline asm with its type (``i32 %a``, ``ptr @g``,
``i32 5``), metadata wrapped as a value. Numbering comes from the enclosing
function and module, as in LLVM; the trailing newline is dropped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.asm.print_context import WriterContext, _function_of, inline_asm_text
from llvmpy_mid.asm.print_instructions import HANDLERS, gc_relocate_comment, instruction_body
from llvmpy_mid.asm.print_metadata import node_text
from llvmpy_mid.asm.print_names import comdat_name, escape, label_name, metadata_identifier
from llvmpy_mid.asm.print_types import TypePrinter
from llvmpy_mid.asm.slot_tracker import SlotTracker
from llvmpy_mid.ir.calling_conv import name_of as cc_name
from llvmpy_mid.ir.debug_records import DbgLabelRecord, DbgVariableRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import (
    DLLStorageClass,
    GlobalAlias,
    GlobalIFunc,
    GlobalObject,
    GlobalValue,
    GlobalVariable,
    Linkage,
    ThreadLocalMode,
    UnnamedAddr,
    Visibility,
)
from llvmpy_mid.ir.instructions.calls import CallInst

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.debug_records import DbgRecord
    from llvmpy_mid.ir.global_value import Comdat
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.metadata import Metadata, MDNode, NamedMDNode
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.value import Value

_LINKAGE_TEXT: dict[Linkage, str] = {lk: "" if lk is Linkage.EXTERNAL else lk.value + " " for lk in Linkage}
_VISIBILITY_TEXT: dict[Visibility, str] = {
    Visibility.DEFAULT: "",
    Visibility.HIDDEN: "hidden ",
    Visibility.PROTECTED: "protected ",
}
_DLL_TEXT: dict[DLLStorageClass, str] = {
    DLLStorageClass.DEFAULT: "",
    DLLStorageClass.DLLIMPORT: "dllimport ",
    DLLStorageClass.DLLEXPORT: "dllexport ",
}
_SANITIZER_ORDER = ("no_sanitize_address", "no_sanitize_hwaddress", "sanitize_memtag", "sanitize_address_dyninit")
_PREDS_COLUMN = 50


def _dso_local(gv: GlobalValue) -> str:
    return "dso_local " if gv._dso_local and not gv.is_implicit_dso_local else ""


def _tls(gv: GlobalValue) -> str:
    mode = gv.thread_local_mode
    return "" if mode is ThreadLocalMode.NOT_THREAD_LOCAL else mode.value + " "


def _unnamed_addr(gv: GlobalValue) -> str:
    ua = gv.unnamed_addr
    return "" if ua is UnnamedAddr.NONE else ua.value + " "


class AssemblyAnnotationWriter:
    """Comments an annotated print adds (LLVM ``AssemblyAnnotationWriter``): each hook
    returns the text to insert ("" for none) — before a function, after a block's label
    line, at the end of a block, before an instruction's line, and at the end of an
    instruction's line (``print_info_comment``)."""

    def emit_function_annot(self, fn: Function) -> str:
        return ""

    def emit_basic_block_start_annot(self, bb: BasicBlock) -> str:
        return ""

    def emit_basic_block_end_annot(self, bb: BasicBlock) -> str:
        return ""

    def emit_instruction_annot(self, inst: Instruction) -> str:
        return ""

    def print_info_comment(self, inst: Instruction) -> str:
        return ""


class AssemblyWriter:
    """Writes a module, or pieces of it, into one list of strings. ``annotator`` (an
    :class:`AssemblyAnnotationWriter`, None by default) adds comments to functions."""

    __slots__ = ("module", "slots", "types", "ctx", "out", "_kind_prefix", "_kind_names", "annotator")

    def __init__(
        self, module: Module | None, slots: SlotTracker, types: TypePrinter, annotator: AssemblyAnnotationWriter | None = None
    ) -> None:
        self.module = module
        self.slots = slots
        self.types = types
        self.ctx = WriterContext(module, slots, types)
        self.out: list[str] = []
        self._kind_prefix: dict[tuple[str, int], str] = {}
        self._kind_names: list[str] | None = None
        self.annotator = annotator

    # --- metadata attachments ----------------------------------------------------------------
    def _kind_text(self, sep: str, kind: int, context_names: list[str]) -> str:
        key = (sep, kind)
        text = self._kind_prefix.get(key)
        if text is None:
            if kind < len(context_names):
                text = sep + "!" + metadata_identifier(context_names[kind]) + " "
            else:
                text = sep + "!<unknown kind #%d> " % kind
            self._kind_prefix[key] = text
        return text

    def _md_ref(self, node: Metadata) -> str:
        text = self.slots.md_refs.get(id(node))
        return text if text is not None else self.ctx.md_value(node)

    def instruction_attachments(self, inst: Instruction) -> str:
        md = inst._md
        if not md:
            return ""
        names = inst.type.context.md_kind_names
        if len(md) == 1:
            for kind, node in md.items():
                return self._kind_text(", ", kind, names) + self._md_ref(node)
        return "".join([self._kind_text(", ", k, names) + self._md_ref(md[k]) for k in sorted(md)])

    def object_attachments(self, go: GlobalObject, sep: str) -> str:
        md = go._global_md
        if not md:
            return ""
        names = go.type.context.md_kind_names
        items = sorted(md, key=lambda item: item[0]) if len(md) > 1 else md
        return "".join([self._kind_text(sep, k, names) + self._md_ref(node) for k, node in items])

    # --- module ---------------------------------------------------------------------------------
    def module_text(self) -> str:
        module = self.module
        assert module is not None
        slots = self.slots
        slots.initialize()
        out = self.out
        name = module.name
        if name and "\n" not in name:
            out.append("; ModuleID = '" + name + "'\n")
        if module.source_filename:
            out.append('source_filename = "' + escape(module.source_filename) + '"\n')
        if module.data_layout_text:
            out.append('target datalayout = "' + module.data_layout_text + '"\n')
        if module.target_triple:
            out.append('target triple = "' + module.target_triple + '"\n')
        self._write_module_asm(module.module_asm)
        self._write_type_identities()
        self._write_comdats(module)
        if module.globals:
            out.append("\n")
            for gv in module.globals:
                out.append(self.global_variable_text(gv) + "\n")
        if module.aliases:
            out.append("\n")
            for ga in module.aliases:
                out.append(self.alias_text(ga))
        if module.ifuncs:
            out.append("\n")
            for gi in module.ifuncs:
                out.append(self.ifunc_text(gi))
        for fn in module.functions:
            out.append("\n")
            self.write_function(fn)
        if slots.attr_sets:
            out.append("\n")
            tstr = self.ctx.tstr
            for i, attrs in enumerate(slots.attr_sets):
                out.append("attributes #%d = { %s }\n" % (i, attrs.as_string(True, tstr)))
        if module.named_metadata:
            out.append("\n")
            for nmd in module.named_metadata.values():
                out.append(self.named_metadata_text(nmd))
        if slots.md_nodes:
            out.append("\n")
            ctx = self.ctx
            for i, node in enumerate(slots.md_nodes):
                out.append("!" + str(i) + " = " + node_text(ctx, node) + "\n")
        return "".join(out)

    def _write_module_asm(self, lines: list[str]) -> None:
        if not lines:
            return
        text = "".join([line if line.endswith("\n") else line + "\n" for line in lines])
        if not text:
            return
        out = self.out
        out.append("\n")
        while True:
            front, sep, text = text.partition("\n")
            out.append('module asm "' + escape(front) + '"\n')
            if not text:
                break

    def _write_type_identities(self) -> None:
        types = self.types
        if types.is_empty:
            return
        out = self.out
        out.append("\n")
        for i, st in enumerate(types.numbered):
            out.append("%" + str(i) + " = type " + types.struct_body(st) + "\n")
        for st in types.named:
            out.append(types.type_str(st) + " = type " + types.struct_body(st) + "\n")

    def _write_comdats(self, module: Module) -> None:
        seen: dict[int, Comdat] = {}
        for fn in module.functions:
            c = fn._comdat
            if c is not None and id(c) not in seen:
                seen[id(c)] = c
        for gv in module.globals:
            c = gv._comdat
            if c is not None and id(c) not in seen:
                seen[id(c)] = c
        if not seen:
            return
        out = self.out
        out.append("\n")
        comdats = list(seen.values())
        for i, c in enumerate(comdats):
            out.append(comdat_name(c.name) + " = comdat " + c.selection.value + "\n")
            if i != len(comdats) - 1:
                out.append("\n")

    def named_metadata_text(self, nmd: NamedMDNode) -> str:
        parts = []
        for node in nmd._operands:
            if node.is_di_node and node.kind == "DIExpression":  # type: ignore[attr-defined]
                parts.append(self.ctx.md_value(node))
                continue
            text = self.slots.md_refs.get(id(node))
            parts.append(text if text is not None else "<badref>")
        return "!" + metadata_identifier(nmd.name) + " = !{" + ", ".join(parts) + "}\n"

    # --- globals ----------------------------------------------------------------------------------
    def _comdat_text(self, go: GlobalObject, comma: bool) -> str:
        c = go._comdat
        if c is None:
            return ""
        text = ", comdat" if comma else " comdat"
        if go._name == c.name:
            return text
        return text + "(" + comdat_name(c.name) + ")"

    def global_variable_text(self, gv: GlobalVariable) -> str:
        ctx = self.ctx
        parts = [ctx.ref(gv), " = "]
        init = gv._operands[0].value if gv._operands else None
        if init is None and gv._linkage is Linkage.EXTERNAL:
            parts.append("external ")
        parts.append(_LINKAGE_TEXT[gv._linkage])
        parts.append(_dso_local(gv))
        parts.append(_VISIBILITY_TEXT[gv._visibility])
        parts.append(_DLL_TEXT[gv.dll_storage_class])
        parts.append(_tls(gv))
        parts.append(_unnamed_addr(gv))
        space = gv.address_space
        if space:
            parts.append("addrspace(%d) " % space)
        if gv.externally_initialized:
            parts.append("externally_initialized ")
        parts.append("constant " if gv.is_constant_global else "global ")
        parts.append(ctx.tstr(gv.value_type))
        if init is not None:
            parts.append(" " + ctx.ref(init))
        if gv.section:
            parts.append(', section "' + escape(gv.section) + '"')
        if gv.partition:
            parts.append(', partition "' + escape(gv.partition) + '"')
        if gv.code_model:
            parts.append(', code_model "' + gv.code_model + '"')
        if gv.sanitizer_metadata:
            for flag in _SANITIZER_ORDER:
                if flag in gv.sanitizer_metadata:
                    parts.append(", " + flag)
        parts.append(self._comdat_text(gv, True))
        if gv.alignment:
            parts.append(", align %d" % gv.alignment)
        parts.append(self.object_attachments(gv, ", "))
        if gv.attributes._attrs:
            parts.append(" " + ctx.attr_group(gv.attributes))
        return "".join(parts)

    def alias_text(self, ga: GlobalAlias) -> str:
        ctx = self.ctx
        parts = [
            ctx.ref(ga),
            " = ",
            _LINKAGE_TEXT[ga._linkage],
            _dso_local(ga),
            _VISIBILITY_TEXT[ga._visibility],
            _DLL_TEXT[ga.dll_storage_class],
            _tls(ga),
            _unnamed_addr(ga),
            "alias ",
            ctx.tstr(ga.value_type),
            ", ",
        ]
        parts.append(self._target_and_partition(ga, " <<NULL ALIASEE>>"))
        return "".join(parts) + "\n"

    def _target_and_partition(self, g: GlobalAlias | GlobalIFunc, null_note: str) -> str:
        """The aliasee/resolver operand (bare reference for a constant expression) and
        the optional partition, shared by alias and ifunc lines."""
        ctx = self.ctx
        target = g._operands[0].value if g._operands else None
        if target is None:
            text = ctx.tstr(g.type) + null_note
        elif getattr(target, "is_constant_expr", False):
            text = ctx.ref(target)
        else:
            text = ctx.typed(target)
        if g.partition:
            text += ', partition "' + escape(g.partition) + '"'
        return text

    def ifunc_text(self, gi: GlobalIFunc) -> str:
        ctx = self.ctx
        parts = [
            ctx.ref(gi),
            " = ",
            _LINKAGE_TEXT[gi._linkage],
            _dso_local(gi),
            _VISIBILITY_TEXT[gi._visibility],
            "ifunc ",
            ctx.tstr(gi.value_type),
            ", ",
        ]
        parts.append(self._target_and_partition(gi, " <<NULL RESOLVER>>"))
        parts.append(self.object_attachments(gi, ", "))
        return "".join(parts) + "\n"

    # --- functions -------------------------------------------------------------------------------
    def write_function(self, fn: Function) -> None:
        out = self.out
        ctx = self.ctx
        slots = self.slots
        if self.annotator is not None:
            out.append(self.annotator.emit_function_annot(fn))
        sets = fn.attributes._sets
        fn_attrs = sets[0] if sets and sets[0]._attrs else None
        if fn_attrs is not None:
            comment = " ".join([a.as_string() for a in fn_attrs._attrs if a.kind_number != 0])
            if comment:
                out.append("; Function Attrs: " + comment + "\n")
        slots.incorporate_function(fn)
        slots.initialize()
        decl = fn.is_declaration
        parts: list[str] = []
        if decl:
            parts.append("declare" + self.object_attachments(fn, " ") + " ")
        else:
            parts.append("define ")
        parts.append(_LINKAGE_TEXT[fn._linkage])
        parts.append(_dso_local(fn))
        parts.append(_VISIBILITY_TEXT[fn._visibility])
        parts.append(_DLL_TEXT[fn.dll_storage_class])
        if fn.calling_conv:
            parts.append(cc_name(fn.calling_conv) + " ")
        if len(sets) > 1 and sets[1]._attrs:
            parts.append(ctx.attr_text(sets[1]) + " ")
        fty = fn.function_type
        tstr = ctx.tstr
        parts.append(tstr(fty.return_type) + " " + ctx.ref(fn) + "(")
        params: list[str] = []
        for i, arg in enumerate(fn.args):
            pattrs = sets[i + 2] if i + 2 < len(sets) else None
            text = tstr(arg.type)
            if pattrs is not None and pattrs._attrs:
                text += " " + ctx.attr_text(pattrs)
            if not decl:
                text += " " + ctx.ref(arg)
            params.append(text)
        if fty.is_vararg:
            params.append("...")
        parts.append(", ".join(params) + ")")
        if fn.unnamed_addr is not UnnamedAddr.NONE:
            parts.append(" " + fn.unnamed_addr.value)
        module = fn.parent
        space = fn.address_space
        if space != 0 or module is None or module.data_layout.program_addr_space != 0:
            parts.append(" addrspace(%d)" % space)
        if fn_attrs is not None:
            parts.append(" " + ctx.attr_group(fn_attrs))
        if fn.section:
            parts.append(' section "' + escape(fn.section) + '"')
        if fn.partition:
            parts.append(' partition "' + escape(fn.partition) + '"')
        parts.append(self._comdat_text(fn, False))
        if fn.alignment:
            parts.append(" align %d" % fn.alignment)
        if fn.gc:
            parts.append(' gc "' + fn.gc + '"')
        prefix = fn.prefix_data
        if prefix is not None:
            parts.append(" prefix " + ctx.typed(prefix))
        prologue = fn.prologue_data
        if prologue is not None:
            parts.append(" prologue " + ctx.typed(prologue))
        personality = fn.personality
        if personality is not None:
            parts.append(" personality " + ctx.typed(personality))
        if decl:
            parts.append("\n")
            out.append("".join(parts))
        else:
            parts.append(self.object_attachments(fn, " "))
            parts.append(" {")
            out.append("".join(parts))
            first = True
            for bb in fn.blocks:
                self.write_block(bb, first)
                first = False
            out.append("}\n")
        slots.purge_function()

    def write_block(self, bb: BasicBlock, is_entry: bool) -> None:
        out = self.out
        ctx = self.ctx
        refs = ctx.refs
        if bb._name or not is_entry:
            ref = refs.get(id(bb))
            if ref is None:
                ref = ctx.ref(bb)
            label = (ref[1:] if ref.startswith("%") else ref) + ":"
            if is_entry:
                out.append("\n" + label + "\n")
            else:
                pad = _PREDS_COLUMN - len(label)
                preds: list[str] = []
                use = bb._use_head
                while use is not None:
                    user = use.user
                    if user.is_instruction and user.is_terminator_class:  # type: ignore[attr-defined]
                        parent = user.parent  # type: ignore[attr-defined]
                        if parent is not None:
                            r = refs.get(id(parent))
                            preds.append(r if r is not None else ctx.ref(parent))
                    use = use._next
                comment = "; preds = " + ", ".join(preds) if preds else "; No predecessors!"
                out.append("\n" + label + " " * (pad if pad > 1 else 1) + comment + "\n")
        else:
            out.append("\n")
        annot = self.annotator
        if annot is not None:
            out.append(annot.emit_basic_block_start_annot(bb))
        handlers = HANDLERS
        void = bb.type.context.void
        md_refs = self.slots.md_refs
        kind_names = bb.type.context.md_kind_names
        kind_text = self._kind_text
        record_text = self.record_text
        call_class = CallInst
        gc_comment = gc_relocate_comment
        append = out.append
        inst = bb.instructions._first
        while inst is not None:
            if inst._dbg_records:
                for rec in inst._dbg_records:
                    append("    " + record_text(rec) + "\n")
            if annot is not None:
                append(annot.emit_instruction_annot(inst))
            handler = handlers.get(type(inst))
            body = handler(ctx, inst) if handler is not None else instruction_body(ctx, inst)
            md = inst._md
            if md:
                if len(md) == 1:
                    for kind, node in md.items():
                        r = md_refs.get(id(node))
                        body += kind_text(", ", kind, kind_names) + (r if r is not None else ctx.md_value(node))
                else:
                    for kind in sorted(md):
                        node = md[kind]
                        r = md_refs.get(id(node))
                        body += kind_text(", ", kind, kind_names) + (r if r is not None else ctx.md_value(node))
            if type(inst) is call_class:
                body += gc_comment(ctx, inst)
            if annot is not None:
                body += annot.print_info_comment(inst)
            if inst.type is void:
                append(f"  {body}\n")
            else:
                append(f"  {refs.get(id(inst)) or ctx.ref(inst)} = {body}\n")
            inst = inst._next
        if annot is not None:
            out.append(annot.emit_basic_block_end_annot(bb))

    def record_text(self, rec: DbgRecord) -> str:
        """``#dbg_value(...)``, ``#dbg_declare(...)``, ``#dbg_assign(...)`` or ``#dbg_label(...)``."""
        md = self.ctx.md_value
        if isinstance(rec, DbgVariableRecord):
            text = "#dbg_" + rec.kind.value + "("
            text += md(rec._location) + ", " + md(rec._variable) + ", " + md(rec._expression) + ", "
            if rec._assign_id is not None:
                address = rec._address
                addr_expr = rec._address_expression
                text += md(rec._assign_id) + ", "
                text += (md(address) if address is not None else "null") + ", "
                text += (md(addr_expr) if addr_expr is not None else "null") + ", "
            return text + md(rec._debug_loc) + ")"
        assert isinstance(rec, DbgLabelRecord)
        return "#dbg_label(" + md(rec._label) + ", " + md(rec._debug_loc) + ")"

    def instruction_text(self, inst: Instruction) -> str:
        """One instruction as LLVM's ``printInstruction`` writes it (with the two-space indent)."""
        ctx = self.ctx
        body = instruction_body(ctx, inst)
        if inst._name:
            # Named even if void (only a broken module has that; LLVM prints the name).
            line = "  " + ctx.ref(inst) + " = " + body
        elif inst.type.is_void:
            line = "  " + body
        else:
            slot = self.slots.local_slot(inst)
            line = "  " + ("%" + str(slot) if slot >= 0 else "<badref>") + " = " + body
        line += self.instruction_attachments(inst)
        if isinstance(inst, CallInst):
            line += gc_relocate_comment(ctx, inst)
        return line


# --- entry points ---------------------------------------------------------------------------------


def print_module(module: Module) -> str:
    """The module's text exactly as ``opt-19 -S`` prints it."""
    slots = SlotTracker(module, refs={})
    writer = AssemblyWriter(module, slots, TypePrinter(module))
    return writer.module_text()


def print_function(fn: Function, annotator: AssemblyAnnotationWriter | None = None) -> str:
    """``Function::print`` with an optional annotation writer: the function's text (a
    module-level slot tracker, no leading blank line), ending with a newline."""
    module = fn.parent
    slots = SlotTracker(module)
    writer = AssemblyWriter(module, slots, TypePrinter(module), annotator)
    writer.write_function(fn)
    return "".join(writer.out)


def _references_md_node(inst: Instruction) -> bool:
    """LLVM's ``isReferencingMDNode``: an intrinsic call with a node operand."""
    if type(inst) is not CallInst:
        return False
    fn = inst.called_function
    if fn is None or not fn.intrinsic_id:
        return False
    for use in inst._operands:
        v = use.value
        if v.is_metadata_as_value and v.metadata.is_md_node:  # type: ignore[attr-defined]
            return True
    return False


def format_value(value: Value) -> str:
    """One value as LLVM's ``Value::print`` writes it (see the module docstring)."""
    if value.is_instruction:
        inst: Instruction = value  # type: ignore[assignment]
        bb = inst.parent
        fn = bb.parent if bb is not None else None
        module = fn.parent if fn is not None else None
        slots = SlotTracker(module, init_all_metadata=_references_md_node(inst))
        if fn is not None:
            slots.incorporate_function(fn)
        writer = AssemblyWriter(module, slots, TypePrinter(module))
        text = writer.instruction_text(inst)
        return text[2:] if text.startswith("  ") else text
    if value.is_basic_block:
        block: BasicBlock = value  # type: ignore[assignment]
        fn = block.parent
        module = fn.parent if fn is not None else None
        slots = SlotTracker(module)
        if fn is not None:
            slots.incorporate_function(fn)
        writer = AssemblyWriter(module, slots, TypePrinter(module))
        is_entry = fn is not None and fn.blocks._first is block
        writer.write_block(block, is_entry)
        text = "".join(writer.out)
        if text.startswith("\n"):
            text = text[1:]
        return text.rstrip("\n")
    if value.is_global_value:
        module = value.parent  # type: ignore[attr-defined]
        slots = SlotTracker(module, init_all_metadata=isinstance(value, Function))
        writer = AssemblyWriter(module, slots, TypePrinter(module))
        if isinstance(value, GlobalVariable):
            text = writer.global_variable_text(value)
        elif isinstance(value, Function):
            writer.write_function(value)
            text = "".join(writer.out)
        elif isinstance(value, GlobalAlias):
            text = writer.alias_text(value)
        elif isinstance(value, GlobalIFunc):
            text = writer.ifunc_text(value)
        else:
            text = writer.ctx.typed(value)
        return text.rstrip("\n")
    if value.is_metadata_as_value:
        return _metadata_value_text(value)
    if value.is_argument:
        fn = value.parent  # type: ignore[attr-defined]
        module = fn.parent if fn is not None else None
        slots = SlotTracker(module)
        if fn is not None:
            slots.incorporate_function(fn)
        ctx = WriterContext(module, slots, TypePrinter(module))
        return ctx.typed(value)
    if value.is_inline_asm:
        return TypePrinter(None).type_str(value.type) + " " + inline_asm_text(value)  # type: ignore[arg-type]
    if value.is_constant:
        ctx = WriterContext(None, None, TypePrinter(None))
        return ctx.typed(value)
    return "<unknown value %s>" % type(value).__name__


def _module_of(value: Value) -> Module | None:
    if value.is_global_value or value.is_argument or value.is_basic_block:
        parent = value.parent  # type: ignore[attr-defined]
        if value.is_global_value:
            return parent  # type: ignore[no-any-return]
        return parent.parent if parent is not None else None
    if value.is_instruction:
        return value.module  # type: ignore[attr-defined,no-any-return]
    return None


class DiagnosticWriter:
    """Values as LLVM's verifier writes them, for one module that does not change
    while the writer is used (:class:`llvmpy_mid.ir._printing.DiagnosticWriter`).

    The module's metadata is numbered once, on first need, and a function's
    locals once while the writer stays in that function (findings come function
    by function), as LLVM's verifier keeps one ``ModuleSlotTracker``; so writing
    many findings costs no new walk of the module per finding.
    """

    __slots__ = ("module", "types", "_fn", "_writer", "_md_slots", "_md_ctx")

    def __init__(self, module: Module | None) -> None:
        self.module = module
        self.types = TypePrinter(module)
        self._fn: Function | None = None
        self._writer: AssemblyWriter | None = None
        self._md_slots: SlotTracker | None = None
        self._md_ctx: WriterContext | None = None

    def _writer_for(self, fn: Function | None) -> AssemblyWriter:
        writer = self._writer
        if writer is None or fn is not self._fn:
            slots = SlotTracker(self.module, init_all_metadata=True)
            if fn is not None:
                slots.incorporate_function(fn)
            writer = self._writer = AssemblyWriter(self.module, slots, self.types)
            self._fn = fn
        return writer

    def instruction(self, inst: Value) -> str:
        fn = inst.function  # type: ignore[attr-defined]
        text = self._writer_for(fn).instruction_text(inst)  # type: ignore[arg-type]
        return text[2:] if text.startswith("  ") else text

    def operand(self, value: Value) -> str:
        if value.is_metadata_as_value:
            return "metadata " + self._md_context()[1].md_value(self._numbered(value.metadata))  # type: ignore[attr-defined]
        module = _module_of(value)
        if module is not self.module:
            return DiagnosticWriter(module).operand(value)
        ctx = self._writer_for(_function_of(value) or self._fn).ctx
        if value.is_inline_asm:
            return ctx.tstr(value.type) + " " + inline_asm_text(value)  # type: ignore[arg-type]
        return ctx.typed(value)

    def metadata(self, md: Metadata) -> str:
        slots, ctx = self._md_context()
        if md.is_md_node:
            node: MDNode = md  # type: ignore[assignment]
            if node.is_di_node and node.kind == "DIExpression":  # type: ignore[attr-defined]
                return ctx.md_value(node)
            self._numbered(node)
            return ctx.md_value(node) + " = " + node_text(ctx, node)
        return ctx.md_value(md)

    def _md_context(self) -> tuple[SlotTracker, WriterContext]:
        if self._md_slots is None or self._md_ctx is None:
            self._md_slots = SlotTracker(self.module, init_all_metadata=True)
            self._md_ctx = WriterContext(self.module, self._md_slots, self.types)
        return self._md_slots, self._md_ctx

    def _numbered(self, md: Metadata) -> Metadata:
        """Give a node outside the module's numbering the next slot (as LLVM does)."""
        slots = self._md_context()[0]
        if md.is_md_node:
            slots.initialize()
            if id(md) not in slots.md_refs:
                slots.create_metadata_slot(md)
        return md


def _metadata_value_text(value: Value) -> str:
    md: Metadata = value.metadata  # type: ignore[attr-defined]
    slots = SlotTracker(None, init_all_metadata=True)
    ctx = WriterContext(None, slots, TypePrinter(None))
    if md.is_md_node:
        node: MDNode = md  # type: ignore[assignment]
        slots.create_metadata_slot(node)
        head = ctx.md_value(node)
        if node.is_di_node and node.kind == "DIExpression":  # type: ignore[attr-defined]
            return head
        return head + " = " + node_text(ctx, node)
    return ctx.md_value(md)


def format_instruction_line(inst: Instruction, slots: SlotTracker, types: TypePrinter) -> str:
    """One instruction with a caller's tracker and type printer (for pass printers)."""
    writer = AssemblyWriter(slots.module, slots, types)
    return writer.instruction_text(inst)


__all__ = ["AssemblyAnnotationWriter", "AssemblyWriter", "format_instruction_line", "format_value", "print_function", "print_module"]
