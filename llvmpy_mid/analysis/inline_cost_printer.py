"""``print<inline-cost>``: the inline cost analysis of every direct call to a defined
function, with the callee annotated instruction by instruction (LLVM 19.1.7
``InlineCostAnnotationPrinterPass`` and ``InlineCostAnnotationWriter`` in
``lib/Analysis/InlineCost.cpp``).

What: for each ``call`` (not invoke) of a function with a body, in instruction order,
the analysis runs with the default parameters, the target-independent cost model and
the full cost computed; the pass writes ``Analyzing call of F... (caller:G)``, the
callee with a ``; cost before = .., cost after = .., threshold before = ..,
threshold after = .., cost delta = ..[, threshold delta = ..][, simplified to C]``
line above each instruction (``; No analysis for the instruction`` for those the walk
did not reach), then the analysis counters, to stderr as opt-19 does.
"""

from __future__ import annotations

import sys
from typing import TextIO

from llvmpy_mid.analysis.inline_cost import get_inline_params
from llvmpy_mid.analysis.inline_cost_analyzer import InlineCostCallAnalyzer
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses


def annotated_function_text(fn: Function, ca: InlineCostCallAnalyzer) -> str:
    """``fn`` printed with the analyzer's per-instruction annotation lines."""
    from llvmpy_mid.asm import format_value

    text = format_value(fn)
    insts: list[Instruction] = [inst for bb in fn.blocks for inst in bb.instructions]
    out: list[str] = []
    k = 0
    for line in text.split("\n"):
        if line.startswith("  ") and not line.startswith(("   ", "  ]")) and k < len(insts):
            out.append(_annotation(insts[k], ca))
            k += 1
        out.append(line)
    return "\n".join(out)


def _annotation(inst: Instruction, ca: InlineCostCallAnalyzer) -> str:
    from llvmpy_mid.asm import format_value

    record = ca.details.get(inst)
    if record is None:
        text = "; No analysis for the instruction"
    else:
        cb, caf, tb, ta = record
        text = "; cost before = %d, cost after = %d, threshold before = %d, threshold after = %d, cost delta = %d" % (
            cb,
            caf,
            tb,
            ta,
            caf - cb,
        )
        if ta != tb:
            text += ", threshold delta = %d" % (ta - tb)
    c = ca.simplified_values.get(inst)
    if c is not None:
        text += ", simplified to " + format_value(c)
    return text


class InlineCostAnnotationPrinterPass(Pass[Function]):
    """LLVM ``print<inline-cost>``."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
        from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo

        out = self.stream if self.stream is not None else sys.stderr
        from llvmpy_mid.analysis.profile_summary_info import ProfileSummaryInfo

        params = get_inline_params()
        module = unit.parent
        psi = ProfileSummaryInfo(module) if module is not None else None
        # LLVM's printer builds a target-less TTI from the data layout (``TargetTransformInfo TTI(DL)``).
        tti = TargetTransformInfo(None, module.data_layout if module is not None else None)
        for bb in unit.blocks:
            for inst in bb.instructions:
                if not isinstance(inst, CallInst):
                    continue
                callee = inst.called_function
                if callee is None or callee.is_declaration:
                    continue
                ca = InlineCostCallAnalyzer(
                    callee,
                    inst,
                    params,
                    tti,
                    lambda f: am.get_result(AssumptionAnalysis, f),
                    None,
                    psi,
                    OptimizationRemarkEmitter(callee),
                    record_details=True,
                )
                ca.analyze()
                out.write("      Analyzing call of %s... (caller:%s)\n" % (callee.name, unit.name))
                body = annotated_function_text(callee, ca)
                out.write(body if body.endswith("\n") else body + "\n")
                out.write("\n".join(ca.stats_lines()) + "\n\n")
        return PreservedAnalyses.all()
