"""``loop-extract`` / ``loop-extract<single>``: extracts loops into new functions (LLVM
``lib/Transforms/IPO/LoopExtractor.cpp``).

Each function that existed when the pass started is visited in module order (the
functions it creates are not). With several top-level loops each loop in simplified
form is extracted; with one top-level loop, that loop is extracted when the function
does more than enter it and return after it, else its sub-loops are. ``<single>``
stops after the first extraction.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis, LoopInfo
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.code_extractor import CodeExtractor, CodeExtractorAnalysisCache

NUM_EXTRACTED = Statistic("loop-extract", "NumExtracted", "Number of loops extracted")


def parse_loop_extractor_options(params: str) -> bool:
    """``single`` or nothing (opt's ``parseLoopExtractorPassOptions``)."""
    if params == "":
        return False
    if params == "single":
        return True
    raise PipelineError("invalid LoopExtractorPass pass parameter '%s' " % params)


class LoopExtractorPass(Pass[Module]):
    """Extracts loops into new functions (``-passes=loop-extract``)."""

    name: ClassVar[str] = "loop-extract"
    debug_type: ClassVar[str] = "loop-extract"

    def __init__(self, single: bool = False) -> None:
        self.num_loops = 1 if single else 0xFFFFFFFF

    @property
    def log_name(self) -> str:
        return "LoopExtractorPass"

    def pipeline_params(self) -> str:
        return "single" if self.num_loops == 1 else ""

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        self._fam = fam
        remaining = self.num_loops
        changed = False
        if remaining:
            for fn in list(unit.functions):
                fn_changed, remaining = self._run_on_function(fn, remaining)
                changed |= fn_changed
                if not remaining:
                    break
        if not changed:
            return PreservedAnalyses.all()
        pa = PreservedAnalyses.none()
        pa.preserve(LoopAnalysis)
        return pa

    def _run_on_function(self, fn: Function, remaining: int) -> tuple[bool, int]:
        if fn.has_fn_attribute("optnone") or not fn.blocks:
            return False, remaining
        li: LoopInfo = self._fam.get_result(LoopAnalysis, fn)
        top = list(li)
        if not top:
            return False, remaining
        dt: DominatorTree = self._fam.get_result(DominatorTreeAnalysis, fn)
        if len(top) > 1:
            return self._extract_loops(top, li, dt, remaining)
        tll = top[0]
        if tll.is_loop_simplify_form():
            should = False
            entry_term = fn.entry_block.terminator
            if (entry_term is None or entry_term.opcode != "br" or len(entry_term.successors) != 1
                    or entry_term.successors[0] is not tll.header):
                should = True
            else:
                for exit_bb in tll.exit_blocks:
                    term = exit_bb.terminator
                    if term is None or term.opcode != "ret":
                        should = True
                        break
            if should:
                return self._extract_loop(tll, li, dt, remaining)
        return self._extract_loops(list(tll.sub_loops), li, dt, remaining)

    def _extract_loops(self, loops: list[Loop], li: LoopInfo, dt: DominatorTree, remaining: int) -> tuple[bool, int]:
        changed = False
        for loop in loops:
            if not loop.is_loop_simplify_form():
                continue
            done, remaining = self._extract_loop(loop, li, dt, remaining)
            changed |= done
            if not remaining:
                break
        return changed, remaining

    def _extract_loop(self, loop: Loop, li: LoopInfo, dt: DominatorTree, remaining: int) -> tuple[bool, int]:
        fn = loop.header.parent
        assert fn is not None
        ac = self._fam.get_cached_result(AssumptionAnalysis, fn)
        cache = CodeExtractorAnalysisCache(fn)
        extractor = CodeExtractor(list(loop.blocks), dt, False, None, None, ac)
        if extractor.extract_code_region(cache) is not None:
            NUM_EXTRACTED.add()
            return True, remaining - 1
        return False, remaining


__all__ = ["NUM_EXTRACTED", "LoopExtractorPass", "parse_loop_extractor_options"]
