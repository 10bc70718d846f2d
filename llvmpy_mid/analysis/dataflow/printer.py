"""Text views of data-flow results and the ``print<...>`` passes that write them.

What: :func:`format_dataflow` renders any result of :mod:`.framework` (or an
analysis object holding one: :class:`~.liveness.Liveness`,
:class:`~.reaching_definitions.ReachingDefinitions`,
:class:`~.available_expressions.AvailableExpressions`,
:class:`~.anticipated_expressions.AnticipatedExpressions`) as the function's
instructions with the set at every point between them; :func:`format_lcm` does
the same for :class:`~.lazy_code_motion.LazyCodeMotion` and lists each
expression's placements. The printer passes ``print<liveness>``,
``print<reaching-defs>``, ``print<available-exprs>``, ``print<anticipated-exprs>``
and ``print<lcm>`` write these texts to stderr, as LLVM's printer passes do.

The format (ours; LLVM has no such printer), for each function::

    Data-flow 'liveness' (backward, union) for function 'f':
    entry:
      ; IN: {%a, %b}
      %x = add i32 %a, %b
      ; {%x}
      ret i32 %x
      ; OUT: {}

A header line; then per block, in function order, its label, ``; IN: {...}``
(the set at the top of the block), each instruction as ``opt -S`` prints it
followed by the set at the point after it, the last one written
``; OUT: {...}`` (the set at the bottom). Elements are written in domain order:
SSA values as operands (``%x``, ``%3``), memory variables as ``[%a]`` (the
variable held in ``alloca %a``), expressions as ``opcode op1, op2`` (casts add
``to <type>``), definitions (reaching-defs) as the value for SSA definitions
and ``d<k>`` for the k-th store, with a ``; d<k>: [%v]`` note after the store.

:func:`format_lcm` prints ``Lazy code motion for function 'f':``, the numbered
expressions (``e0 = add [%b], [%c]``), the instructions with a
``; ant={..} av={..} earliest={..} pp={..} latest={..} used.out={..}`` line
before each one that has any of these non-empty (ANT.in, AV.in, earliest,
PP.in, latest and USED.out of the instruction), and per expression its
``earliest``, ``latest``, ``insert`` points (``%bb:k`` = before instruction k,
0-based) and the computations it would ``replace`` or ``keep``.

What it does not do: no colour, no DOT; names follow one numbering of the
function, computed once per call.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, ClassVar, TextIO

from llvmpy_mid.analysis.dataflow.anticipated_expressions import AnticipatedExpressionsAnalysis
from llvmpy_mid.analysis.dataflow.available_expressions import AvailableExpressionsAnalysis
from llvmpy_mid.analysis.dataflow.expressions import Expression
from llvmpy_mid.analysis.dataflow.framework import DataflowResult, bit_indices
from llvmpy_mid.analysis.dataflow.lazy_code_motion import LazyCodeMotion, LazyCodeMotionAnalysis, Point
from llvmpy_mid.analysis.dataflow.liveness import LivenessAnalysis
from llvmpy_mid.analysis.dataflow.reaching_definitions import ReachingDefinitions, ReachingDefinitionsAnalysis
from llvmpy_mid.analysis.dataflow.variables import MemoryVariable
from llvmpy_mid.asm.print_types import TypePrinter
from llvmpy_mid.asm.printer import AssemblyWriter
from llvmpy_mid.asm.slot_tracker import SlotTracker
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses


class _Namer:
    """Operand names of one function (one slot numbering) and element labels."""

    __slots__ = ("writer", "store_numbers")

    def __init__(self, function: Function) -> None:
        module = function.parent
        slots = SlotTracker(module)
        slots.incorporate_function(function)
        self.writer = AssemblyWriter(module, slots, TypePrinter(module))
        self.store_numbers: dict[Instruction, int] = {}

    def ref(self, v: Value) -> str:
        return self.writer.ctx.ref(v)

    def block(self, bb: BasicBlock) -> str:
        return self.ref(bb)

    def label(self, element: object) -> str:
        if isinstance(element, MemoryVariable):
            return "[" + self.ref(element.alloca) + "]"
        if isinstance(element, Expression):
            text = element.opcode + " " + ", ".join(self.label(o) for o in element.operands)
            if element.opcode in _CASTS:
                text += " to " + self.writer.ctx.tstr(element.type)
            return text
        if isinstance(element, Instruction):
            k = self.store_numbers.get(element)
            if k is not None:
                return "d%d" % k
        if isinstance(element, Value):
            return self.ref(element)
        return str(element)

    def set_text(self, bits: int, elements: list[Any]) -> str:
        label = self.label
        return "{" + ", ".join(label(elements[i]) for i in bit_indices(bits)) + "}"

    def instruction(self, inst: Instruction) -> str:
        return self.writer.instruction_text(inst)


_CASTS = frozenset(
    {
        "trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp",
        "ptrtoint", "inttoptr", "bitcast", "addrspacecast",
    }
)  # fmt: skip


def _result_of(obj: object) -> tuple[DataflowResult, Callable[[_Namer, Instruction], str | None] | None]:
    if isinstance(obj, DataflowResult):
        return obj, None
    result = getattr(obj, "result", None)
    if not isinstance(result, DataflowResult):
        raise TypeError("format_dataflow needs a DataflowResult or an analysis holding one")
    if isinstance(obj, ReachingDefinitions):
        rd = obj

        def note(namer: _Namer, inst: Instruction) -> str | None:
            k = namer.store_numbers.get(inst)
            if k is None:
                return None
            var = rd.variable_of(inst)
            return "d%d: %s" % (k, namer.label(var))

        return result, note
    return result, None


def _number_stores(namer: _Namer, result: DataflowResult) -> None:
    if result.domain is None:
        return
    k = 0
    for element in result.domain.elements:
        if isinstance(element, Instruction) and element.opcode == "store":
            k += 1
            namer.store_numbers[element] = k


def format_dataflow(result: object) -> str:
    """The instructions of the analysed function with the set at every point (module docstring)."""
    res, note = _result_of(result)
    fn = res.function
    problem = res.problem
    namer = _Namer(fn)
    _number_stores(namer, res)
    elements: list[Any] = res.domain.elements if res.domain is not None else list(range(problem.width))
    out: list[str] = [
        "Data-flow '%s' (%s, %s) for function '%s':\n"
        % (problem.name, problem.direction.value, problem.meet.value, fn.name)
    ]
    for bb in res.blocks:
        pts = res.points(bb)
        out.append(namer.block(bb).lstrip("%") + ":\n")
        out.append("  ; IN: " + namer.set_text(pts[0], elements) + "\n")
        last = len(pts) - 1
        for i, inst in enumerate(bb.instructions):
            line = namer.instruction(inst)
            extra = note(namer, inst) if note is not None else None
            if extra:
                line += "  ; " + extra
            out.append(line + "\n")
            prefix = "  ; OUT: " if i + 1 == last else "  ; "
            out.append(prefix + namer.set_text(pts[i + 1], elements) + "\n")
    return "".join(out)


def _point_text(namer: _Namer, p: Point) -> str:
    return "%s:%d" % (namer.block(p[0]), p[1])


def format_lcm(lcm: LazyCodeMotion) -> str:
    """The LCM sets at each instruction and each expression's placements (module docstring)."""
    fn = lcm.function
    namer = _Namer(fn)
    exprs = lcm.domain.elements
    names = ["e%d" % i for i in range(len(exprs))]

    def sset(bits: int) -> str:
        return "{" + ", ".join(names[i] for i in bit_indices(bits)) + "}"

    out: list[str] = ["Lazy code motion for function '%s':\n" % fn.name, "expressions:\n"]
    for i, e in enumerate(exprs):
        out.append("  %s = %s\n" % (names[i], namer.label(e)))
    for bb in fn.blocks:
        out.append(namer.block(bb).lstrip("%") + ":\n")
        ant = lcm.anticipated.points(bb)
        av = lcm.available.points(bb)
        pp = lcm.postponable.points(bb)
        used_out = lcm.used_out(bb)
        ea = lcm.earliest[bb]
        la = lcm.latest[bb]
        for i, inst in enumerate(bb.instructions):
            parts = [
                (tag, bits)
                for tag, bits in (
                    ("ant", ant[i]),
                    ("av", av[i]),
                    ("earliest", ea[i]),
                    ("pp", pp[i]),
                    ("latest", la[i]),
                    ("used.out", used_out[i]),
                )
                if bits
            ]
            if parts:
                out.append("  ; " + " ".join("%s=%s" % (t, sset(b)) for t, b in parts) + "\n")
            out.append(namer.instruction(inst) + "\n")
    for i, pl in enumerate(lcm.placements()):
        out.append("%s = %s:\n" % (names[i], namer.label(pl.expression)))
        out.append("  earliest: " + ", ".join(_point_text(namer, p) for p in pl.earliest) + "\n")
        out.append("  latest: " + ", ".join(_point_text(namer, p) for p in pl.latest) + "\n")
        out.append("  insert: " + ", ".join(_point_text(namer, p) for p in pl.insert) + "\n")
        out.append("  replace: " + ", ".join(_inst_text(namer, x) for x in pl.replace) + "\n")
        out.append("  keep: " + ", ".join(_inst_text(namer, x) for x in pl.keep) + "\n")
    return "".join(out).replace(": \n", ":\n")


def _inst_text(namer: _Namer, inst: Instruction) -> str:
    bb = inst.parent
    where = namer.block(bb) if bb is not None else "?"
    return "%s in %s" % (namer.ref(inst) if not inst.type.is_void else inst.opcode, where)


class _DataflowPrinter(Pass[Function]):
    analysis: ClassVar[type[FunctionAnalysis[Any]]]

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def text(self, result: Any) -> str:
        return format_dataflow(result)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if unit.is_declaration:
            return PreservedAnalyses.all()
        out = self.stream if self.stream is not None else sys.stderr
        out.write(self.text(am.get_result(self.analysis, unit)))
        return PreservedAnalyses.all()


class LivenessPrinterPass(_DataflowPrinter):
    """``print<liveness>``."""

    name: ClassVar[str] = "print<liveness>"
    analysis = LivenessAnalysis


class ReachingDefinitionsPrinterPass(_DataflowPrinter):
    """``print<reaching-defs>``."""

    name: ClassVar[str] = "print<reaching-defs>"
    analysis = ReachingDefinitionsAnalysis


class AvailableExpressionsPrinterPass(_DataflowPrinter):
    """``print<available-exprs>``."""

    name: ClassVar[str] = "print<available-exprs>"
    analysis = AvailableExpressionsAnalysis


class AnticipatedExpressionsPrinterPass(_DataflowPrinter):
    """``print<anticipated-exprs>``."""

    name: ClassVar[str] = "print<anticipated-exprs>"
    analysis = AnticipatedExpressionsAnalysis


class LazyCodeMotionPrinterPass(_DataflowPrinter):
    """``print<lcm>``."""

    name: ClassVar[str] = "print<lcm>"
    analysis = LazyCodeMotionAnalysis

    def text(self, result: Any) -> str:
        return format_lcm(result)


__all__ = [
    "AnticipatedExpressionsPrinterPass",
    "AvailableExpressionsPrinterPass",
    "LazyCodeMotionPrinterPass",
    "LivenessPrinterPass",
    "ReachingDefinitionsPrinterPass",
    "format_dataflow",
    "format_lcm",
]
