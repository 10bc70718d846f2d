"""``aa-eval``: asks the alias-analysis chain about every pair of pointers and every
call of a function and tallies the answers (LLVM ``lib/Analysis/AliasAnalysisEvaluator.cpp``).

What: for each function, the pointers of its loads and stores (each distinct
(pointer, accessed type) pair once, in instruction order) are queried pairwise with
the store size of their types; each call is queried against every pointer
(``getModRefInfo(call, loc)``) and against every other call. With
``-print-all-alias-modref-info`` (or ``-print-no-aliases``, ``-print-may-aliases``,
``-print-partial-aliases``, ``-print-must-aliases``, ``-print-no-modref``,
``-print-ref``, ``-print-mod``, ``-print-modref`` for one kind) each answer is written
to stderr as opt-19 writes it; ``-evaluate-aa-metadata`` also queries load/store and
store/store pairs with their full locations (AA metadata included).

The summary with percentages is written once, when the pipeline is torn down (LLVM
prints it from the pass's destructor), for all functions the pass instance ran on.
A pass run by hand outside a pipeline has its summary from :meth:`AAEvaluator.report`.

What it does not do: an unnamed identified struct type prints as ``%"type 0x..."``
with a Python id where LLVM prints an address (as LLVM, never stable).
"""

from __future__ import annotations

import sys
from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import AAResults
from llvmpy_mid.analysis.alias.alias_result import AliasResult
from llvmpy_mid.analysis.alias.memory_location import LocationSize, MemoryLocation
from llvmpy_mid.asm.print_types import TypePrinter
from llvmpy_mid.asm.printer import AssemblyWriter, _references_md_node, format_value
from llvmpy_mid.asm.slot_tracker import SlotTracker
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.registry_memory import AA_EVAL_OPTIONS
from llvmpy_mid.passes.teardown import at_pipeline_end

__all__ = ["AA_EVAL_OPTIONS", "AAEvaluator"]

_ALIAS_FLAGS = ("print-no-aliases", "print-may-aliases", "print-partial-aliases", "print-must-aliases")
#: ModRefInfo value -> (message, option)
_MOD_REF_ROWS = (("NoModRef", "print-no-modref"), ("Just Ref", "print-ref"), ("Just Mod", "print-mod"), ("Both ModRef", "print-modref"))


def _flag(name: str) -> bool:
    return bool(OPTIONS.value(name))


class _Printer:
    """Operand, instruction and type text of one function as LLVM's ``printAsOperand``,
    ``Value::print`` and ``Type::print(NoDetails)`` write them."""

    __slots__ = ("writer", "types")

    def __init__(self, fn: Function) -> None:
        module = fn.parent
        # as LLVM's Value::print: metadata numbered for this function only
        slots = SlotTracker(module, init_all_metadata=False)
        slots.incorporate_function(fn)
        self.writer = AssemblyWriter(module, slots, TypePrinter(module))
        self.types = TypePrinter(None)

    def operand(self, v: Value) -> str:
        return self.writer.ctx.ref(v)

    def instruction(self, inst: Instruction) -> str:
        """``*I``: the instruction line with LLVM's two leading spaces."""
        if _references_md_node(inst):  # LLVM numbers all metadata for these
            return "  " + format_value(inst)
        text = self.writer.instruction_text(inst)
        return text if text.startswith("  ") else "  " + text

    def pointer(self, ty: Type, ptr: Value) -> tuple[str, str]:
        """(``<type>[ addrspace(N)]*``, operand) of an accessed type and its pointer."""
        head = self.types.type_str(ty)
        space = ptr.type.address_space  # type: ignore[attr-defined]
        if space:
            head += " addrspace(%d)" % space
        return head + "*", self.operand(ptr)


def _percent(num: int, total: int) -> str:
    return "(%d.%d%%)\n" % (num * 100 // total, (num * 1000 // total) % 10)


class AAEvaluator(Pass[Function]):
    """``aa-eval`` (LLVM ``AAEvaluator``)."""

    name: ClassVar[str] = "aa-eval"

    def __init__(self) -> None:
        self.function_count = 0
        self.alias_counts = [0, 0, 0, 0]
        """Answers by :class:`AliasKind` (No, May, Partial, Must)."""
        self.mod_ref_counts = [0, 0, 0, 0]
        """Answers by ``ModRefInfo`` value (NoModRef, Ref, Mod, ModRef)."""

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        aa = am.get_result(AAManager, unit)
        if self.function_count == 0:
            at_pipeline_end(self._write_report)
        self.evaluate(unit, aa)
        return PreservedAnalyses.all()

    # --- one function ---------------------------------------------------------------------------
    def evaluate(self, fn: Function, aa: AAResults) -> None:
        """Query ``aa`` about ``fn`` (LLVM ``runInternal``), writing the selected answers
        to stderr and adding to the tallies."""
        module = fn.parent
        dl = module.data_layout if module is not None else DataLayout.default()
        self.function_count += 1
        pointers: dict[tuple[Value, Type], None] = {}
        calls: dict[CallBase, None] = {}
        loads: list[LoadInst] = []
        stores: list[StoreInst] = []
        for bb in fn.blocks:
            for inst in bb.instructions:
                tp = type(inst)
                if tp is LoadInst:
                    pointers[(inst.operands[0], inst.type)] = None
                    loads.append(inst)  # type: ignore[arg-type]
                elif tp is StoreInst:
                    pointers[(inst.operands[1], inst.operands[0].type)] = None
                    stores.append(inst)  # type: ignore[arg-type]
                elif isinstance(inst, CallBase):
                    calls[inst] = None

        print_all = _flag("print-all-alias-modref-info")
        alias_flags = [print_all or _flag(n) for n in _ALIAS_FLAGS]
        mr_flags = [print_all or _flag(n) for _, n in _MOD_REF_ROWS]
        out: list[str] = []
        if any(alias_flags) or any(mr_flags):
            out.append("Function: %s: %d pointers, %d call sites\n" % (fn.name, len(pointers), len(calls)))
        printer = _Printer(fn) if any(alias_flags) or any(mr_flags) else None
        counts = self.alias_counts

        pointer_list = list(pointers)
        sizes = [LocationSize.precise(dl.type_store_size(ty), dl.is_scalable(ty)) for _, ty in pointer_list]
        for i1, (v1, t1) in enumerate(pointer_list):
            size1 = sizes[i1]
            for i2 in range(i1):
                v2, t2 = pointer_list[i2]
                ar = aa.alias(MemoryLocation(v1, size1), MemoryLocation(v2, sizes[i2]))
                kind = ar.kind
                counts[kind] += 1
                if alias_flags[kind] and printer is not None:
                    out.append(self._alias_line(printer, ar, (v1, t1), (v2, t2)))

        if _flag("evaluate-aa-metadata"):
            for load in loads:
                for store in stores:
                    ar = aa.alias(MemoryLocation.get(load), MemoryLocation.get(store))
                    counts[ar.kind] += 1
                    if alias_flags[ar.kind] and printer is not None:
                        out.append("  %s: %s <-> %s\n" % (ar, printer.instruction(load), printer.instruction(store)))
            for j1, s1 in enumerate(stores):
                for j2 in range(j1):
                    s2 = stores[j2]
                    ar = aa.alias(MemoryLocation.get(s1), MemoryLocation.get(s2))
                    counts[ar.kind] += 1
                    if alias_flags[ar.kind] and printer is not None:
                        out.append("  %s: %s <-> %s\n" % (ar, printer.instruction(s1), printer.instruction(s2)))

        mr_counts = self.mod_ref_counts
        for call in calls:
            for idx, (ptr, ty) in enumerate(pointer_list):
                mr = int(aa.get_mod_ref_info(call, MemoryLocation(ptr, sizes[idx])))
                mr_counts[mr] += 1
                if mr_flags[mr] and printer is not None:
                    # LLVM writes no address space here
                    text = "%s* %s" % (printer.types.type_str(ty), printer.operand(ptr))
                    out.append("  %s:  Ptr: %s\t<->%s\n" % (_MOD_REF_ROWS[mr][0], text, printer.instruction(call)))
        for call_a in calls:
            for call_b in calls:
                if call_a is call_b:
                    continue
                mr = int(aa.get_mod_ref_info_calls(call_a, call_b))
                mr_counts[mr] += 1
                if mr_flags[mr] and printer is not None:
                    out.append(
                        "  %s: %s <-> %s\n" % (_MOD_REF_ROWS[mr][0], printer.instruction(call_a), printer.instruction(call_b))
                    )
        if out:
            sys.stderr.write("".join(out))

    @staticmethod
    def _alias_line(printer: _Printer, ar: AliasResult, loc1: tuple[Value, Type], loc2: tuple[Value, Type]) -> str:
        h1, o1 = printer.pointer(loc1[1], loc1[0])
        h2, o2 = printer.pointer(loc2[1], loc2[0])
        if o2 < o1:
            h1, o1, h2, o2 = h2, o2, h1, o1
            ar = ar.swap()
        return "  %s:\t%s %s, %s %s\n" % (ar, h1, o1, h2, o2)

    # --- the summary ----------------------------------------------------------------------------
    def report(self) -> str:
        """The summary LLVM prints when the pass is destroyed ("" if it never ran)."""
        if self.function_count == 0:
            return ""
        no, may, partial, must = self.alias_counts
        out = ["===== Alias Analysis Evaluator Report =====\n"]
        total = no + may + partial + must
        if total == 0:
            out.append("  Alias Analysis Evaluator Summary: No pointers!\n")
        else:
            out.append("  %d Total Alias Queries Performed\n" % total)
            for n, what in ((no, "no alias"), (may, "may alias"), (partial, "partial alias"), (must, "must alias")):
                out.append("  %d %s responses %s" % (n, what, _percent(n, total)))
            out.append(
                "  Alias Analysis Evaluator Pointer Alias Summary: %d%%/%d%%/%d%%/%d%%\n"
                % (no * 100 // total, may * 100 // total, partial * 100 // total, must * 100 // total)
            )
        nmr, ref, mod, modref = self.mod_ref_counts
        total = nmr + ref + mod + modref
        if total == 0:
            out.append("  Alias Analysis Mod/Ref Evaluator Summary: no mod/ref!\n")
        else:
            out.append("  %d Total ModRef Queries Performed\n" % total)
            for n, what in ((nmr, "no mod/ref"), (mod, "mod"), (ref, "ref"), (modref, "mod & ref")):
                out.append("  %d %s responses %s" % (n, what, _percent(n, total)))
            out.append(
                "  Alias Analysis Evaluator Mod/Ref Summary: %d%%/%d%%/%d%%/%d%%\n"
                % (nmr * 100 // total, mod * 100 // total, ref * 100 // total, modref * 100 // total)
            )
        return "".join(out)

    def _write_report(self) -> None:
        text = self.report()
        if text:
            sys.stderr.write(text)

