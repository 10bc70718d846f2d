"""The loop layer of the pass manager (LLVM's ``LoopPassManager``,
``FunctionToLoopPassAdaptor``, ``LoopAnalysisManager`` and its function proxy).

What: a loop pass is a ``Pass[Loop]`` whose ``run(loop, lam)`` gets a
:class:`LoopAnalysisManager`; besides cached loop analyses, ``lam.standard``
holds the function-level results every loop pass may use and must keep valid
(:class:`LoopStandardAnalysisResults`: the function, its dominator tree and loop
info) and ``lam.updater`` the :class:`LPMUpdater` through which a pass reports
deleted loops, new child or sibling loops, or asks to revisit the current loop.
A pass with ``is_loop_nest_pass = True`` (LLVM's ``LoopNestPass``) runs on
outermost loops only.

How (as opt-19 does it): :class:`FunctionToLoopPassAdaptor` first runs
``loop-simplify`` and ``lcssa`` on the function (a function pass manager of
its own, logged as LLVM logs it), then, when the function has loops, visits
them innermost first: for each top-level loop in program order, its nest in
post-order (children before parents, siblings in program order); a pipeline of
loop-nest passes only visits the top-level loops. After each loop pass the
loop's cached results are invalidated with what it returned; a loop the pass
deleted gets the "invalidated" instrumentation callback instead. The adaptor
returns what the canonicalisation kept plus what every loop pass must keep
(``DominatorTreeAnalysis``, ``LoopAnalysis``, all loop analyses, the proxy).

Under ``loop-mssa`` the standard results hold the function's MemorySSA, which every loop pass
must keep up to date (the adaptor reports it preserved, as LLVM's does).

The standard results carry the function's ScalarEvolution (``se``), requested after the
dominator tree as LLVM's adaptor does; every loop pass keeps it (and the adaptor reports it
preserved), and losing it drops the loop analyses, as LLVM's proxy invalidation does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar

from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import Analysis, AnalysisManager, FunctionAnalysis, Invalidator
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.instrumentation import PassInstrumentation, UnitKind, register_unit_kind
from llvmpy_mid.passes.pass_manager import FunctionPassManager, Pass, PassManager, no_result
from llvmpy_mid.passes.preserved import AllAnalysesOnFunction, AllAnalysesOnLoop, AnalysisSet, PreservedAnalyses

from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis, LoopInfo

if TYPE_CHECKING:
    from llvmpy_mid.ir.dominators import DominatorTree

__all__ = [
    "FunctionToLoopPassAdaptor",
    "LPMUpdater",
    "LoopAnalysisManager",
    "LoopAnalysisManagerFunctionProxy",
    "LoopPassManager",
    "LoopStandardAnalysisResults",
    "loop_pass_preserved_analyses",
]


def _loop_name(loop: Loop) -> str:
    """As LLVM's ``getIRName``: ``loop %<header name> in function f``, ``<unnamed loop>`` when
    the header has no name (the name is not quoted)."""
    header = loop.header
    fn = header.parent
    where = fn.name if fn is not None else "?"
    return "loop %%%s in function %s" % (header.name or "<unnamed loop>", where)


def _loop_text(loop: Loop) -> str:
    """A loop as LLVM's ``printLoop`` dumps it: the preheader, the loop blocks, the exit blocks."""
    from llvmpy_mid.asm import format_value

    out: list[str] = []
    pre = loop.preheader
    if pre is not None:
        out.append("; Preheader:" + _block_text(pre, format_value))
    out.append("; Loop:")
    for bb in loop.blocks:
        out.append(_block_text(bb, format_value))
    exits = loop.unique_exit_blocks
    if exits:
        out.append("; Exit blocks")
        for bb in exits:
            out.append(_block_text(bb, format_value))
    return "\n".join(out) + "\n"


def _block_text(bb: Any, fmt: Callable[[Any], str]) -> str:
    return "\n" + fmt(bb).rstrip("\n")


register_unit_kind(Loop, UnitKind(_loop_name, _loop_name, _loop_text, lambda loop: loop.header.parent))


class LoopStandardAnalysisResults:
    """The function-level results a loop pass reads and keeps valid (LLVM's
    ``LoopStandardAnalysisResults``): the function, its dominator tree and loop info, and,
    when the adaptor has them, alias analysis, the assumption cache, TargetLibraryInfo,
    TargetTransformInfo and (under ``loop-mssa``) MemorySSA."""

    __slots__ = ("function", "dt", "li", "aa", "ac", "tli", "tti", "mssa", "se")

    def __init__(
        self,
        function: Function,
        dt: DominatorTree,
        li: LoopInfo,
        aa: Any = None,
        ac: Any = None,
        tli: Any = None,
        tti: Any = None,
        mssa: Any = None,
        se: Any = None,
    ) -> None:
        self.function = function
        self.dt = dt
        self.li = li
        self.aa = aa
        self.ac = ac
        self.tli = tli
        self.tti = tti
        self.mssa = mssa
        self.se = se
        """The function's ScalarEvolution (LLVM ``AR.SE``)."""


class LPMUpdater:
    """What a loop pass tells the adaptor about loops it changed (LLVM's ``LPMUpdater``)."""

    __slots__ = ("_worklist", "current", "current_deleted", "revisit", "loop_nest_mode", "deleted_name")

    def __init__(self, worklist: list[Loop], loop_nest_mode: bool) -> None:
        self._worklist = worklist
        self.current: Loop | None = None
        self.current_deleted = False
        self.revisit = False
        self.loop_nest_mode = loop_nest_mode
        self.deleted_name = ""
        """The name the pass gave the deleted current loop (LLVM's ``markLoopAsDeleted(L, Name)``),
        logged when its analyses are cleared."""

    def mark_loop_as_deleted(self, loop: Loop, name: str | None = None) -> None:
        """``loop`` is gone (the pass removed it from LoopInfo); if it is the current loop no
        further pass runs on it. Its analyses are dropped. ``name``: the loop's name taken
        before the pass changed it (``Loop::getName``; by default its header's name now)."""
        if loop is self.current:
            self.current_deleted = True
            self.deleted_name = name if name is not None else (loop.header.name or "<unnamed loop>")
        if loop in self._worklist:
            self._worklist.remove(loop)

    def add_child_loops(self, loops: list[Loop]) -> None:
        """New loops nested in the current one: they are visited next (innermost first)."""
        _append_nests(loops, self._worklist)

    def add_sibling_loops(self, loops: list[Loop]) -> None:
        """New loops beside the current one: they are visited next."""
        _append_nests(loops, self._worklist)

    def revisit_current_loop(self) -> None:
        """Run the loop pipeline on the current loop again once it finishes."""
        self.revisit = True


def _append_nests(roots: list[Loop], worklist: list[Loop]) -> None:
    """Push the nests of ``roots`` so that popping from the end visits, for each root in
    order, its nest in post-order (children in order before their parent)."""
    for root in reversed(roots):
        preorder: list[Loop] = []
        stack = [root]
        while stack:
            loop = stack.pop()
            preorder.append(loop)
            stack.extend(loop.sub_loops)
        worklist.extend(preorder)


def _loops_in_visit_order(li: LoopInfo) -> list[Loop]:
    """Top-level loops in program order (the reverse of LoopInfo's order, as LLVM keeps it)."""
    return list(reversed(li.top_level_loops))


class LoopAnalysisManager(AnalysisManager[Loop]):
    """Caches loop analyses; during an adaptor run also gives ``standard`` and ``updater``."""

    __slots__ = ("standard", "updater", "instrumented")

    def __init__(self, instrumentation: PassInstrumentation | None = None) -> None:
        super().__init__(AllAnalysesOnLoop, instrumentation)
        self.standard: LoopStandardAnalysisResults | None = None
        self.updater: LPMUpdater | None = None
        self.instrumented: set[Loop] = set()
        """Loops a loop pass manager has run on since their results were last cleared: LLVM's
        ``LoopPassManager`` caches their ``PassInstrumentationAnalysis`` (a single loop pass
        under an implicit adaptor does not), and clearing such a loop is logged."""

    def clear_function(self, fn: Function, li: LoopInfo | None = None) -> None:
        """Forget the cached results of every loop of ``fn`` (LLVM's proxy invalidation): the
        loops of ``li`` in reverse sibling preorder, each one a loop pass manager ran on logged
        as "Clearing all analysis results for: <possibly invalidated loop>", then any other."""
        if li is not None:
            for loop in li.loops_in_reverse_siblings_preorder():
                if loop in self.instrumented:
                    self.instrumented.discard(loop)
                    self.instrumentation.run_analyses_cleared("<possibly invalidated loop>")
                self.clear(loop)
        for loop in self.cached_units():
            if loop.header.parent is fn:
                self.clear(loop)
        self.instrumented = {loop for loop in self.instrumented if loop.header.parent is not fn}


class LoopProxyResult:
    """The function-level proxy's result: ``manager`` is the loop analysis manager."""

    __slots__ = ("manager", "function", "li", "mssa_used")

    def __init__(self, manager: LoopAnalysisManager, function: Function, li: LoopInfo | None = None) -> None:
        self.manager = manager
        self.function = function
        self.li = li
        self.mssa_used = False
        """Set by a ``loop-mssa`` adaptor: then losing MemorySSA drops the loop results too."""

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        if pa.are_all_preserved():
            return False
        from llvmpy_mid.analysis.alias.aa_manager import AAManager
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis

        checker = pa.checker(LoopAnalysisManagerFunctionProxy)
        proxy_kept = checker.preserved() or checker.preserved_set(AllAnalysesOnFunction)
        mssa_lost = self.mssa_used and inv.invalidate(MemorySSAAnalysis)
        if (
            not proxy_kept
            or inv.invalidate(AAManager)
            or inv.invalidate(AssumptionAnalysis)
            or inv.invalidate(DominatorTreeAnalysis)
            or inv.invalidate(LoopAnalysis)
            or inv.invalidate(_scalar_evolution_analysis())
            or mssa_lost
        ):
            self.manager.clear_function(self.function, self.li)
            return True
        if not pa.all_analyses_in_set_preserved(AllAnalysesOnLoop):
            for loop in self.manager.cached_units():
                if loop.header.parent is self.function:
                    self.manager.invalidate(loop, pa)
        return False


class LoopAnalysisManagerFunctionProxy(FunctionAnalysis[LoopProxyResult]):
    """The function analysis whose result holds the loop analysis manager."""

    name: ClassVar[str] = ""

    def __init__(self, manager: LoopAnalysisManager) -> None:
        self.manager = manager

    @property
    def log_name(self) -> str:
        return "InnerAnalysisManagerProxy<LoopAnalysisManager, Function>"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> LoopProxyResult:
        return LoopProxyResult(self.manager, unit, am.get_cached_result(LoopAnalysis, unit))


def loop_pass_preserved_analyses() -> PreservedAnalyses:
    """What every loop pass keeps valid (LLVM's ``getLoopPassPreservedAnalyses``)."""
    pa = PreservedAnalyses()
    pa.preserve(DominatorTreeAnalysis)
    pa.preserve(LoopAnalysis)
    pa.preserve(LoopAnalysisManagerFunctionProxy)
    pa.preserve(_scalar_evolution_analysis())
    return pa


def _scalar_evolution_analysis() -> Any:
    from llvmpy_mid.analysis.scalar_evolution import ScalarEvolutionAnalysis

    return ScalarEvolutionAnalysis


class LoopPassManager(PassManager[Loop]):
    """Runs loop passes in sequence on one loop; loop-nest passes only on outermost loops."""

    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnLoop

    @property
    def is_loop_nest_mode(self) -> bool:
        return bool(self.passes) and all(getattr(p, "is_loop_nest_pass", False) for p in self.passes)

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        pi = am.instrumentation
        pa = PreservedAnalyses.all()
        updater = am.updater if isinstance(am, LoopAnalysisManager) else None
        for p in self.passes:
            if getattr(p, "is_loop_nest_pass", False) and unit.parent_loop is not None:
                continue
            if not pi.run_before_pass(p, unit):
                continue
            pass_pa = p.run(unit, am)
            if pass_pa is None:
                no_result(p)
            if updater is not None and updater.current_deleted:
                pi.run_after_pass_invalidated(p, pass_pa)
                pa.intersect(pass_pa)
                return pa
            am.invalidate(unit, pass_pa)
            pi.run_after_pass(p, unit, pass_pa)
            pa.intersect(pass_pa)
        pa.preserve_set(AllAnalysesOnLoop)
        return pa


def _canonicalization_passes() -> FunctionPassManager:
    from llvmpy_mid.transform.utils.lcssa import LCSSAPass
    from llvmpy_mid.transform.utils.loop_simplify import LoopSimplifyPass

    return FunctionPassManager([LoopSimplifyPass(), LCSSAPass()])


class FunctionToLoopPassAdaptor(Pass[Function]):
    """Runs ``loop_pass`` on every loop of a function, innermost first."""

    is_special: ClassVar[bool] = True

    def __init__(self, loop_pass: Pass[Loop], *, use_memory_ssa: bool = False) -> None:
        self.loop_pass = loop_pass
        self.use_memory_ssa = use_memory_ssa
        self.canonicalization = _canonicalization_passes()

    @property
    def loop_nest_mode(self) -> bool:
        lp = self.loop_pass
        if isinstance(lp, LoopPassManager):
            return lp.is_loop_nest_mode
        return bool(getattr(lp, "is_loop_nest_pass", False))

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        pi = am.instrumentation
        canon = self.canonicalization
        pi.run_before_pass(canon, unit)
        pa = canon.run(unit, am)
        am.invalidate(unit, pa)
        pi.run_after_pass(canon, unit, pa)
        li = am.get_result(LoopAnalysis, unit)
        if not li.top_level_loops:
            return pa
        # FunctionToLoopPassAdaptor::run's analyses, in its order: MemorySSA for loop-mssa, then the
        # LoopStandardAnalysisResults.
        from llvmpy_mid.analysis.alias.aa_manager import AAManager
        from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis
        from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
        from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis

        mssa = am.get_result(MemorySSAAnalysis, unit).mssa if self.use_memory_ssa else None
        aa = am.get_result(AAManager, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        se = am.get_result(_scalar_evolution_analysis(), unit)
        tli = am.get_result(TargetLibraryAnalysis, unit)
        tti = am.get_result(TargetIRAnalysis, unit)
        proxy = am.get_result(_proxy_class(am), unit)
        if self.use_memory_ssa:
            proxy.mssa_used = True
        lam = proxy.manager
        worklist: list[Loop] = []
        nest_mode = self.loop_nest_mode
        roots = _loops_in_visit_order(li)
        if nest_mode:
            worklist.extend(reversed(roots))
        else:
            _append_nests(roots, worklist)
        updater = LPMUpdater(worklist, nest_mode)
        saved = (lam.standard, lam.updater)
        lam.standard = LoopStandardAnalysisResults(unit, dt, li, aa, ac, tli, tti, mssa, se)
        lam.updater = updater
        loop_pa = PreservedAnalyses.all()
        try:
            while worklist:
                loop = worklist.pop()
                updater.current = loop
                updater.current_deleted = False
                updater.revisit = False
                if not pi.run_before_pass(self.loop_pass, loop):
                    continue
                if isinstance(self.loop_pass, LoopPassManager):
                    lam.instrumented.add(loop)
                pass_pa = self.loop_pass.run(loop, lam)
                if pass_pa is None:
                    no_result(self.loop_pass)
                if updater.current_deleted:
                    if loop in lam.instrumented:
                        pi.run_analyses_cleared(updater.deleted_name)
                    lam.clear(loop)
                    lam.instrumented.discard(loop)
                    pi.run_after_pass_invalidated(self.loop_pass, pass_pa)
                else:
                    lam.invalidate(loop, pass_pa)
                    pi.run_after_pass(self.loop_pass, loop, pass_pa)
                    if updater.revisit:
                        worklist.append(loop)
                loop_pa.intersect(pass_pa)
        finally:
            lam.standard, lam.updater = saved
        # What the loop passes kept, within what canonicalisation kept; then what every loop
        # pass must keep valid (as LLVM, these are added after the intersection).
        pa.intersect(loop_pa)
        pa.preserve_set(AllAnalysesOnLoop)
        pa.preserve(LoopAnalysisManagerFunctionProxy)
        pa.preserve(DominatorTreeAnalysis)
        pa.preserve(LoopAnalysis)
        pa.preserve(_scalar_evolution_analysis())
        if self.use_memory_ssa:
            pa.preserve(MemorySSAAnalysis)
        return pa


def _loop_function(loop: Loop) -> Function | None:
    return loop.header.parent


def _proxy_class(am: AnalysisManager[Function]) -> type[Analysis[Function, LoopProxyResult]]:
    """The loop proxy registered on ``am`` (registered, with a new loop manager, on first use)."""
    if not am.is_registered(LoopAnalysisManagerFunctionProxy):
        lam = LoopAnalysisManager(am.instrumentation)
        lam.set_outer(am, _loop_function)
        am.register(LoopAnalysisManagerFunctionProxy(lam))
    return LoopAnalysisManagerFunctionProxy
