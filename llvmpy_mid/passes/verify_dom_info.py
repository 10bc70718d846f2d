"""``-verify-dom-info`` (and ``-verify-each``): a dominator tree a pass kept must be the right one.

After each function or loop pass that says it preserved ``DominatorTreeAnalysis`` (or
``PostDominatorTreeAnalysis``) while a tree is cached for the function, the cached tree is compared
with one freshly computed from the current CFG (``DominatorTree.verify``). A stale tree is reported
as LLVM's verifier reports it — ``DominatorTree is different than a freshly computed one!`` followed
by both trees — and the run stops with :class:`DominatorTreeMismatchError`.

LLVM runs the same check under ``-verify-dom-info`` in builds with assertions
(``DominatorTree::verify`` in ``GenericDomTreeConstruction.h``, the loop pass manager's
``LAR.DT.verify()``); opt-19 is a release build, where the option is accepted and checks nothing.
Here the check always runs when asked for: a pass that updates the tree incrementally (through the
``DomTreeUpdater``) is caught the moment its tree goes stale instead of misleading a later pass.
"""

from __future__ import annotations

from typing import Any, TextIO

from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.cached_analysis_check import CachedAnalysisCheck
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.instrumentation import PassInstrumentation
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["DominatorTreeMismatchError", "VerifyDomInfo"]


class DominatorTreeMismatchError(PipelineError):
    """A pass said it preserved a dominator tree that no longer matches the CFG."""


class VerifyDomInfo(CachedAnalysisCheck):
    """Registers the after-pass check on ``instrumentation``; ``attach(fam)`` names the function
    analysis manager whose cached trees are checked (created after the instrumentation)."""

    def __init__(self, instrumentation: PassInstrumentation, stream: TextIO) -> None:
        super().__init__(instrumentation)
        self._stream = stream

    def check(self, pass_: Pass[Any], fn: Function, pa: PreservedAnalyses, fam: AnalysisManager[Function]) -> None:
        for analysis, what in ((DominatorTreeAnalysis, "DominatorTree"),
                               (PostDominatorTreeAnalysis, "PostDominatorTree")):
            if not pa.preserved(analysis):
                continue
            tree = fam.get_cached_result(analysis, fn)
            if tree is None or tree.verify():
                continue
            from llvmpy_mid.analysis.dominator_printers import format_dominator_tree
            from llvmpy_mid.ir.dominators import DominatorTree

            fresh = DominatorTree(fn, tree.post)
            self._stream.write("%s is different than a freshly computed one!\n\tCurrent:\n%s\n"
                               "\tFreshly computed tree:\n%s" % (what, format_dominator_tree(tree),
                                                                 format_dominator_tree(fresh)))
            raise DominatorTreeMismatchError(
                "%s of function '%s' kept by pass %s is different than a freshly computed one"
                % (what, fn.name, pass_.log_name))
