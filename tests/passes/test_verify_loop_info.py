"""``-verify-loop-info``: a ``LoopInfo`` left cached after a pass is checked against a fresh one."""

from __future__ import annotations

import pytest

from llvmpy_mid import run_passes
from llvmpy_mid.analysis.loop_info import LoopAnalysis
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes import Pass
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.registry import PassRegistry
from llvmpy_mid.passes.verify_loop_info import LoopInfoMismatchError
from llvmpy_mid.transform.utils.basic_block_utils import replace_successor_with

LOOP = """define void @f(i1 %c) {
entry:
  br label %body
body:
  br i1 %c, label %body, label %exit
exit:
  ret void
}
"""


def _registry() -> PassRegistry:
    class CutBackedge(Pass[Function]):
        """Retargets the loop's back edge to the exit and says every analysis is kept."""

        def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
            am.get_result(LoopAnalysis, unit)
            _entry, body, exit_ = unit.blocks
            term = body.terminator
            assert term is not None
            replace_successor_with(term, body, exit_)
            return PreservedAnalyses.all()

    reg = PassRegistry()
    reg.register_pass("cut-backedge", "function")(CutBackedge)
    return reg


def test_stale_loop_info_is_reported() -> None:
    with pytest.raises(LoopInfoMismatchError, match="kept by pass CutBackedge"):
        run_passes(parse_assembly(LOOP), "cut-backedge", registry=_registry(), verify_loop_info=True)


def test_check_is_off_by_default_and_passes_on_correct_passes() -> None:
    run_passes(parse_assembly(LOOP), "cut-backedge", registry=_registry())  # not asked: no check
    run_passes(parse_assembly(LOOP), "function(loop-simplify,lcssa),gvn", verify_loop_info=True)
