"""The ``debugify`` and ``check-debugify`` utility passes (LLVM's synthetic
debug-info testing pair, ``NewPMDebugifyPass`` / ``NewPMCheckDebugifyPass``).

What ``debugify`` does (behaviour checked against ``opt-19``):

* A module that already has ``!llvm.dbg.cu`` is left alone
  (``ModuleDebugify: Skipping module with debug info`` on stderr).
* Otherwise one ``distinct !DICompileUnit`` (language C, producer
  ``"debugify"``, optimized, full debug) with a ``!DIFile`` named after the
  module id (directory ``/``) is listed in ``!llvm.dbg.cu``.
* Every function with an exact definition (not a declaration, not
  ``linkonce``/``weak``/``available_externally``...) gets a ``distinct
  !DISubprogram`` whose line is the next free line. Each of its instructions
  gets ``!DILocation(line: N, column: 1)``, N counting instructions across
  the module from 1.
* Unless ``-debugify-level=locations``: in each block that is not an EH pad,
  every value-producing instruction before the block's terminating
  instruction (the terminator, or a ``musttail`` call / a call of
  ``llvm.experimental.deoptimize`` just before the ``ret``) gets a local
  variable named by a module-wide counter (type ``!DIBasicType(name:
  "ty<bits>", size: <bits>, encoding: DW_ATE_unsigned)``, bits = alloc size, 0
  when unsized) and a ``#dbg_value`` record: after the instruction, or after
  the block's phis for a phi. A function that got no variable gets one
  before the entry block's terminating instruction, for that instruction's
  value (a use before its definition, as in LLVM) or ``i32 0`` when void. The variables
  are the subprogram's ``retainedNodes``.
* ``!llvm.debugify = !{!{i32 <lines>}, !{i32 <variables>}}`` and, when absent,
  the module flag ``!{i32 2, !"Debug Info Version", i32 3}``.

What ``check-debugify`` does: reads the counts back; warns (stderr) about
non-phi instructions without a location (``WARNING: Instruction with empty
DebugLoc in function f --  <inst>``), then lists ``WARNING: Missing line N``
and ``WARNING: Missing variable N`` for lines and variables no longer found
(a line-0 location counts as missing; only ``#dbg_value`` records count for
variables), reports ``ERROR: dbg.value operand has size ...`` for records
whose value size does not fit the variable's (non-integer values of another
size; integers only narrower than a signed variable), and ends with
``CheckModuleDebugify: PASS`` or ``FAIL`` (FAIL only for those errors). The
module is not changed. ``-debugify-quiet`` silences both passes.

Not done: the ``original`` mode (``-verify-each-debuginfo-preserve``),
``-debugify-func-limit``, ``-debugify-export``, stripping after the check (the
legacy ``-check-debugify`` with strip), MIR debugify.
"""

from __future__ import annotations

import sys
from typing import ClassVar, TextIO

from llvmpy_mid.asm.print_types import TypePrinter
from llvmpy_mid.asm.printer import AssemblyWriter, format_instruction_line
from llvmpy_mid.asm.slot_tracker import SlotTracker
from llvmpy_mid.errors import IRError, PipelineError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.debug_info import DIEnum, DIExpression, DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgVariableRecord
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.casts import BitCastInst
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString, MDTuple, Metadata, ValueAsMetadata
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.module_flags import add_module_flag, get_module_flag
from llvmpy_mid.ir.types import Type
from llvmpy_mid.passes.analysis import AnalysisManager
import llvmpy_mid.passes.registry  # noqa: F401  (declares this pass's options with the pass names)
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses

__all__ = [
    "CheckDebugifyPass",
    "DebugifyPass",
    "apply_debugify",
    "check_debugify",
    "find_terminating_instruction",
]

LEVEL_OPTION = "debugify-level"
QUIET_OPTION = "debugify-quiet"
LEVELS = ("locations", "location+variables")


_DEOPTIMIZE = "llvm.experimental.deoptimize"
_DEBUG_INFO_VERSION = 3
_POINTER_TAGS = (
    "DW_TAG_pointer_type", "DW_TAG_reference_type", "DW_TAG_rvalue_reference_type", "DW_TAG_ptr_to_member_type",
)


def _is_skipped(fn: Function) -> bool:
    """Functions neither pass looks at: declarations and definitions that may be replaced."""
    return fn.is_declaration or not fn.has_exact_definition


def find_terminating_instruction(bb: BasicBlock) -> Instruction | None:
    """The instruction that ends ``bb``'s straight-line code: a ``musttail`` call
    (looking through a returned ``bitcast``) or a call of
    ``llvm.experimental.deoptimize`` right before the ``ret``, else the terminator."""
    term = bb.terminator
    if not isinstance(term, ReturnInst):
        return term
    prev = term.prev_instruction
    if prev is None:
        return term
    rv = term.return_value
    tail: Instruction | None = prev
    if rv is not None:
        if rv is not prev:
            tail = None
        elif isinstance(prev, BitCastInst):
            before = prev.prev_instruction
            tail = before if before is not None and prev.operands[0] is before else None
    if isinstance(tail, CallInst) and tail.is_must_tail_call:
        return tail
    if isinstance(prev, CallInst):
        callee = prev.called_function
        if callee is not None and (callee.name == _DEOPTIMIZE or callee.name.startswith(_DEOPTIMIZE + ".")):
            return prev
    return term


def _size_in_bits(dl: DataLayout, ty: Type) -> int:
    """LLVM's alloc size in bits, 0 for unsized types."""
    if not ty.is_sized:
        return 0
    if dl.is_scalable(ty):
        raise IRError("Invalid size request on a scalable vector.")
    return dl.type_alloc_size_in_bits(ty)


def _quiet() -> bool:
    return bool(OPTIONS.value(QUIET_OPTION))


def _level() -> str:
    level = str(OPTIONS.value(LEVEL_OPTION))
    if level not in LEVELS:
        raise PipelineError(
            "for the --%s option: Cannot find option named '%s'!" % (LEVEL_OPTION, level)
        )
    return level


def _const_node(module: Module, value: int) -> MDTuple:
    return MDTuple.get(module.context, [ConstantAsMetadata.get(ConstantInt.get(module.context.i32, value))])


def apply_debugify(module: Module, level: str = "location+variables", err: TextIO | None = None) -> bool:
    """Attach synthetic debug info to ``module`` (see the module docstring).

    Returns False (and leaves the module alone) when it already has debug info.
    ``err`` receives the skip message (None: silent)."""
    ctx = module.context
    if module.get_named_metadata("llvm.dbg.cu") is not None:
        if err is not None:
            err.write("ModuleDebugify: Skipping module with debug info\n")
        return False
    with_vars = level != "locations"
    dl = module.data_layout
    file = DINode.get(ctx, "DIFile", [
        ("filename", MDString.get(ctx, module.name)),
        ("directory", MDString.get(ctx, "/")),
    ])
    cu = DINode.distinct(ctx, "DICompileUnit", [
        ("language", DIEnum.of("DW_LANG_C")),
        ("file", file),
        ("producer", MDString.get(ctx, "debugify")),
        ("isOptimized", True),
        ("runtimeVersion", 0),
        ("emissionKind", DIEnum.of("FullDebug")),
    ])
    module.get_or_insert_named_metadata("llvm.dbg.cu").add_operand(cu)
    sp_type = DINode.get(ctx, "DISubroutineType", [("types", MDTuple.get(ctx, ()))])
    empty_expr = DIExpression.get(ctx, ())
    types: dict[int, DINode] = {}

    def basic_type(ty: Type) -> DINode:
        bits = _size_in_bits(dl, ty)
        node = types.get(bits)
        if node is None:
            node = types[bits] = DINode.get(ctx, "DIBasicType", [
                ("name", MDString.get(ctx, "ty%d" % bits)),
                ("size", bits),
                ("encoding", DIEnum.of("DW_ATE_unsigned")),
            ])
        return node

    next_line = 1
    next_var = 1
    plain_flags = DIEnum.of("DISPFlagDefinition", "DISPFlagOptimized")
    local_flags = DIEnum.of("DISPFlagLocalToUnit", "DISPFlagDefinition", "DISPFlagOptimized")
    for fn in module.functions:
        if _is_skipped(fn):
            continue
        local = fn.linkage is Linkage.PRIVATE or fn.linkage is Linkage.INTERNAL
        fields: list[tuple[str, object]] = [
            ("name", MDString.get(ctx, fn.name)),
            ("linkageName", MDString.get(ctx, fn.name)),
            ("scope", None),
            ("file", file),
            ("line", next_line),
            ("type", sp_type),
            ("scopeLine", next_line),
            ("spFlags", local_flags if local else plain_flags),
            ("unit", cu),
        ]
        variables: list[Metadata | None] = []
        sp = DINode.distinct(ctx, "DISubprogram", fields)  # type: ignore[arg-type]
        fn.set_metadata("dbg", sp)
        for bb in fn.blocks:
            for inst in bb.instructions:
                inst.debug_loc = DILocation.get(ctx, next_line, 1, sp)
                next_line += 1
        if not with_vars:
            continue

        def add_variable(value: object, loc: DILocation, before: Instruction) -> None:
            nonlocal next_var
            assert isinstance(value, (Instruction, ConstantInt))
            var = DINode.get(ctx, "DILocalVariable", [
                ("name", MDString.get(ctx, str(next_var))),
                ("scope", sp),
                ("file", file),
                ("line", loc.line),
                ("type", basic_type(value.type)),
            ])
            next_var += 1
            variables.append(var)
            before.add_dbg_record(DbgVariableRecord.create_value(value, var, empty_expr, loc))

        for bb in fn.blocks:
            first = bb.first_non_phi
            if first is not None and first.is_eh_pad:
                continue
            last = find_terminating_instruction(bb)
            if last is None:
                continue
            insert_at: Instruction | None = bb.first_insertion_point
            cur: Instruction | None = bb.instructions.first
            while cur is not None and cur is not last:
                nxt = cur._next
                if not cur.is_phi and not cur.is_eh_pad:
                    insert_at = nxt
                if not cur.type.is_void and insert_at is not None:
                    loc = cur.debug_loc
                    assert isinstance(loc, DILocation)
                    add_variable(cur, loc, insert_at)
                cur = nxt
        if not variables:
            term = find_terminating_instruction(fn.entry_block)
            if term is not None:
                loc = term.debug_loc
                assert isinstance(loc, DILocation)
                # The terminating instruction's own value (even before its definition, as
                # LLVM does), or i32 0 when it has none.
                add_variable(term if not term.type.is_void else ConstantInt.get(ctx.i32, 0), loc, term)
        sp.set_field("retainedNodes", MDTuple.get(ctx, variables))  # type: ignore[attr-defined]
    named = module.get_or_insert_named_metadata("llvm.debugify")
    named.add_operand(_const_node(module, next_line - 1))
    named.add_operand(_const_node(module, next_var - 1))
    if get_module_flag(module, "Debug Info Version") is None:
        add_module_flag(module, 2, "Debug Info Version", _DEBUG_INFO_VERSION)
    return True


def _read_count(node: MDNode) -> int | None:
    ops = node.operands
    if len(ops) != 1 or not isinstance(ops[0], ConstantAsMetadata):
        return None
    value = ops[0].value
    return value.value if isinstance(value, ConstantInt) else None


def _variable_size(var: MDNode, expr: MDNode) -> int | None:
    """The bits the record describes: the expression's fragment, else the variable type's size."""
    if isinstance(expr, DIExpression):
        fragment = expr.fragment
        if fragment is not None:
            return fragment[1]
    if not isinstance(var, DINode):
        return None
    ty = var.get_field("type")
    while isinstance(ty, DINode) and ty.kind == "DIDerivedType" and not ty.get_field("size"):
        if str(ty.get_field("tag")) in _POINTER_TAGS:
            break
        ty = ty.get_field("baseType")
    if not isinstance(ty, DINode):
        return None
    size = ty.get_field("size")
    return size if isinstance(size, int) else None


def _is_signed(var: MDNode) -> bool:
    ty = var.get_field("type") if isinstance(var, DINode) else None
    if not isinstance(ty, DINode) or ty.kind != "DIBasicType":
        return False
    return str(ty.get_field("encoding")) in ("DW_ATE_signed", "DW_ATE_signed_char")


def check_debugify(module: Module, err: TextIO | None = None) -> bool:
    """Check the synthetic debug info ``debugify`` added (see the module docstring).

    Returns False on errors (mis-sized ``#dbg_value`` records); missing lines
    and variables are only warnings. ``err`` receives the report (None: silent)."""
    out: list[str] = []
    named = module.get_named_metadata("llvm.debugify")
    if named is None:
        if err is not None:
            err.write("CheckModuleDebugify: Skipping module without debugify metadata\n")
        return True
    counts = [_read_count(n) for n in named.operands]
    num_lines = counts[0] if counts and counts[0] is not None else 0
    num_vars = counts[1] if len(counts) > 1 and counts[1] is not None else 0
    missing_lines = [True] * num_lines
    missing_vars = [True] * num_vars
    has_errors = False
    dl = module.data_layout
    types: TypePrinter | None = None
    for fn in module.functions:
        if _is_skipped(fn):
            continue
        slots: SlotTracker | None = None
        for bb in fn.blocks:
            for inst in bb.instructions:
                loc = inst.debug_loc
                if isinstance(loc, DILocation) and loc.line != 0:
                    if 0 < loc.line <= num_lines:
                        missing_lines[loc.line - 1] = False
                elif loc is None and not inst.is_phi and err is not None:
                    if slots is None:
                        slots = SlotTracker(module)
                        slots.incorporate_function(fn)
                    if types is None:
                        types = TypePrinter(module)
                    out.append("WARNING: Instruction with empty DebugLoc in function %s --%s\n"
                               % (fn.name, format_instruction_line(inst, slots, types)))
        for bb in fn.blocks:
            for inst in bb.instructions:
                for rec in inst.iter_dbg_records():
                    if not isinstance(rec, DbgVariableRecord) or not rec.is_dbg_value:
                        continue
                    var = rec.variable
                    name = var.get_string("name") if isinstance(var, DINode) else ""
                    if not name.isdigit():
                        continue
                    index = int(name)
                    bad = _mis_sized(dl, rec)
                    if bad is not None:
                        has_errors = True
                        if err is not None:
                            out.append("ERROR: dbg.value operand has size %d, but its variable has size %d: %s\n"
                                       % (bad[0], bad[1], _record_text(module, fn, rec)))
                        continue
                    if 0 < index <= num_vars:
                        missing_vars[index - 1] = False
    if err is not None:
        for i, missing in enumerate(missing_lines):
            if missing:
                out.append("WARNING: Missing line %d\n" % (i + 1))
        for i, missing in enumerate(missing_vars):
            if missing:
                out.append("WARNING: Missing variable %d\n" % (i + 1))
        out.append("CheckModuleDebugify: %s\n" % ("FAIL" if has_errors else "PASS"))
        err.write("".join(out))
    return not has_errors


def _mis_sized(dl: DataLayout, rec: DbgVariableRecord) -> tuple[int, int] | None:
    """(value bits, variable bits) when the record's first value does not fit its variable."""
    values = rec.location_values()
    if not values:
        return None
    ty = values[0].type
    value_bits = _size_in_bits(dl, ty)
    var_bits = _variable_size(rec.variable, rec.expression)
    if not value_bits or not var_bits:
        return None
    if ty.is_integer:
        bad = _is_signed(rec.variable) and value_bits < var_bits
    else:
        bad = value_bits != var_bits
    return (value_bits, var_bits) if bad else None


def _record_text(module: Module, fn: Function, rec: DbgVariableRecord) -> str:
    slots = SlotTracker(module, init_all_metadata=True)
    slots.incorporate_function(fn)
    return AssemblyWriter(module, slots, TypePrinter(module)).record_text(rec)


def _stream() -> TextIO | None:
    return None if _quiet() else sys.stderr


class DebugifyPass(Pass[Module]):
    """``debugify``: synthetic debug info on every instruction (LLVM ``NewPMDebugifyPass``)."""

    name: ClassVar[str] = "debugify"

    @property
    def log_name(self) -> str:
        return "NewPMDebugifyPass"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        if not apply_debugify(unit, _level(), _stream()):
            return PreservedAnalyses.all()
        return PreservedAnalyses.none().preserve_set(CFGAnalyses)


class CheckDebugifyPass(Pass[Module]):
    """``check-debugify``: report what survived of ``debugify``'s info (LLVM ``NewPMCheckDebugifyPass``)."""

    name: ClassVar[str] = "check-debugify"

    @property
    def log_name(self) -> str:
        return "NewPMCheckDebugifyPass"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        check_debugify(unit, _stream())
        return PreservedAnalyses.all()
