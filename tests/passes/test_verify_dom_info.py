"""``-verify-dom-info`` / ``-verify-each``: a dominator tree a pass says it kept is checked."""

from __future__ import annotations

import io

import pytest

from llvmpy_mid import run_passes
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes import Pass
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.registry import PassRegistry
from llvmpy_mid.passes.verify_dom_info import DominatorTreeMismatchError
from llvmpy_mid.transform.utils.basic_block_utils import replace_successor_with

DIAMOND = """define void @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  ret void
}
"""


def _registry(update_tree: bool) -> PassRegistry:
    class RetargetEntry(Pass[Function]):
        """Sends entry's edge to %b straight to %a (so %a dominates %b); says the tree is kept."""

        def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
            dt = am.get_result(DominatorTreeAnalysis, unit)
            entry, a, b = unit.blocks
            term = entry.terminator
            assert term is not None
            replace_successor_with(term, b, a)
            if update_tree:
                dt.apply_updates([("delete", entry, b)])
            pa = PreservedAnalyses()
            pa.preserve(DominatorTreeAnalysis)
            return pa

    reg = PassRegistry()
    reg.register_pass("retarget-entry", "function")(RetargetEntry)
    return reg


def test_stale_tree_is_reported() -> None:
    out = io.StringIO()
    with pytest.raises(DominatorTreeMismatchError, match="kept by pass RetargetEntry"):
        run_passes(parse_assembly(DIAMOND), "retarget-entry", registry=_registry(False),
                   verify_dom_info=True, stream=out)
    assert out.getvalue().startswith("DominatorTree is different than a freshly computed one!\n\tCurrent:\n")
    assert "Freshly computed tree:" in out.getvalue()


def test_updated_tree_passes_and_check_is_off_by_default() -> None:
    run_passes(parse_assembly(DIAMOND), "retarget-entry", registry=_registry(True), verify_each=True)
    run_passes(parse_assembly(DIAMOND), "retarget-entry", registry=_registry(False))  # not asked: no check
