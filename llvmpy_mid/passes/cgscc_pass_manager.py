"""The call-graph SCC layer of the pass manager (LLVM's ``CGSCCPassManager``,
``ModuleToPostOrderCGSCCPassAdaptor``, ``CGSCCToFunctionPassAdaptor`` and the
proxies between the module, SCC and function analysis managers).

What: a CGSCC pass is a ``Pass[SCC]`` (an SCC of the lazy call graph of
``llvmpy_mid.analysis.lazy_call_graph``) run with the CGSCC analysis manager.
The module adaptor visits the SCCs bottom-up (callees before callers, LLVM's
post-order of RefSCCs and SCCs); the function adaptor runs a function pass on
each function of an SCC. The ``-debug-pass-manager`` lines are opt-19's:
``Running pass: NoOpCGSCCPass on (a, b) (2 nodes)``, the proxies
``InnerAnalysisManagerProxy<CGSCCAnalysisManager, Module>``,
``FunctionAnalysisManagerCGSCCProxy`` and ``OuterAnalysisManagerProxy<...>``.

How: the module adaptor asks for the lazy call graph once and walks its RefSCCs in
post-order with LLVM's SCC worklist (``CGSCCUpdateResult`` of
``llvmpy_mid.passes.cgscc_update``). After each CGSCC pass (and after each function
pass of the function adaptor) the functions the pass changed have their edges found
again (cost: their size) and the graph is updated in place as LLVM's
``updateCGAndAnalysisManagerForPass`` does: an SCC split by a removed call queues the
split-off SCCs, a new call may merge or reorder SCCs, a deleted function's SCC is
invalidated. The pass manager goes on with the refined SCC; the adaptor runs the whole
pipeline again on it (``Re-running SCC passes after a refinement``) and skips
invalidated SCCs. Only a new edge to a function the graph does not know, or into a
RefSCC not visited yet, makes the walk rebuild the graph and go on over the SCCs holding
an unvisited function (new declarations change nothing: they have no node edges).
After a walk that changed the graph it is rebuilt once in place, so the cached ``lcg``
result stays exact. The walk stays linear in the call graph's size plus the code the
passes change.

What it does not do: the inliner's own per-caller update (LLVM's inliner updates the
graph after each caller and refuses to inline an internal edge again once that split an
SCC: ``update_after_inlining``/``is_split_internal_edge`` offer this, the inliner does
not use them yet); a bound of three runs per set of functions while a RefSCC is walked
stops a pass that keeps undoing its own split. No per-analysis outer invalidations of
function analyses for new SCCs (``updateNewSCCFunctionAnalyses``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from llvmpy_mid.analysis.lazy_call_graph import SCC, LazyCallGraph, LazyCallGraphAnalysis
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager, Invalidator, ModuleAnalysis, Analysis
from llvmpy_mid.passes.instrumentation import PassInstrumentation, UnitKind, register_unit_kind
from llvmpy_mid.passes.pass_manager import Pass, PassManager, no_result
from llvmpy_mid.passes.preserved import (
    AllAnalysesOnCGSCC,
    AllAnalysesOnFunction,
    AllAnalysesOnModule,
    AnalysisSet,
    PreservedAnalyses,
)
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.passes.cgscc_update import (
    CGSCCUpdateResult,
    SCCWorklist,
    current_update_result,
    fingerprint,
    pop_update_result,
    push_update_result,
    snapshot,
    sync_after_pass,
    update_for_pass,
)

__all__ = [
    "CGSCCAnalysisManagerModuleProxy",
    "CGSCCPassManager",
    "CGSCCToFunctionPassAdaptor",
    "DevirtSCCRepeatedPass",
    "FunctionAnalysisManagerCGSCCProxy",
    "ModuleAnalysisManagerCGSCCProxy",
    "ModuleToPostOrderCGSCCPassAdaptor",
]


def _scc_name(scc: SCC) -> str:
    return str(scc)


def _scc_description(scc: SCC) -> str:
    n = len(scc)
    return "%s (%d node%s)" % (scc, n, "" if n == 1 else "s")


def _scc_text(scc: SCC) -> str:
    from llvmpy_mid.asm import format_value

    return "".join(format_value(fn) + "\n" for fn in scc.functions)


register_unit_kind(SCC, UnitKind(_scc_name, _scc_description, _scc_text))


class CGSCCAnalysis(Analysis[SCC, Any]):
    """Base of analyses over call-graph SCCs."""

    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnCGSCC


class CGSCCPassManager(PassManager[SCC]):
    """Runs CGSCC passes in sequence on one SCC; when a pass refined the SCC (the call
    graph update split or merged it), the later passes run on the refined SCC."""

    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnCGSCC

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> PreservedAnalyses:
        ur = current_update_result()
        if ur is None:
            return super().run(unit, am)
        pi = am.instrumentation
        pa = PreservedAnalyses.all()
        c = unit
        for p in self.passes:
            if not pi.run_before_pass(p, c):
                continue
            pass_pa, c = run_cgscc_pass(p, c, am, ur)
            pa.intersect(pass_pa)
            if c in ur.invalidated:
                pi.run_after_pass_invalidated(p, pass_pa)
                break
            am.invalidate(c, pass_pa)
            pi.run_after_pass(p, c, pass_pa)
        pa.preserve_set(self.unit_set)
        return pa


def run_cgscc_pass(p: Pass[SCC], c: SCC, am: AnalysisManager[SCC], ur: CGSCCUpdateResult) -> tuple[PreservedAnalyses, SCC]:
    """Run ``p`` on ``c`` and bring the call graph up to date (a pass manager, function
    adaptor or devirt wrapper does that itself); returns its result and the current SCC."""
    before = None if isinstance(p, _SELF_UPDATING) else snapshot(c)
    pass_pa = p.run(c, am)
    if pass_pa is None:
        no_result(p)
    if before is not None:
        sync_after_pass(ur.updated_c or c, before, am, ur)
    if ur.updated_c is not None:
        c = ur.updated_c
        if _scc_module(c) is None:  # every function of the refined SCC was deleted
            ur.invalidated.add(c)
        else:
            am.get_result(FunctionAnalysisManagerCGSCCProxy, c)
    return pass_pa, c


class _ManagerResult:
    """A proxy result holding an inner analysis manager."""

    __slots__ = ("manager",)

    def __init__(self, manager: AnalysisManager[Any]) -> None:
        self.manager = manager


class _CGSCCManagerResult(_ManagerResult):
    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        if pa.are_all_preserved():
            return False
        checker = pa.checker(CGSCCAnalysisManagerModuleProxy)
        if not (checker.preserved() or checker.preserved_set(AllAnalysesOnModule)) or inv.invalidate(
            LazyCallGraphAnalysis
        ):
            self.manager.clear()
            return True
        if not pa.all_analyses_in_set_preserved(AllAnalysesOnCGSCC):
            for scc in self.manager.cached_units():
                self.manager.invalidate(scc, pa)
        return False


class CGSCCAnalysisManagerModuleProxy(ModuleAnalysis[_ManagerResult]):
    """The module analysis whose result holds the CGSCC analysis manager."""

    def __init__(self, manager: AnalysisManager[SCC]) -> None:
        self.manager = manager

    @property
    def log_name(self) -> str:
        return "InnerAnalysisManagerProxy<CGSCCAnalysisManager, Module>"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> _ManagerResult:
        # As LLVM's: the function proxy and the call graph are made available first.
        am.get_result(FunctionAnalysisManagerModuleProxy, unit)
        am.get_result(LazyCallGraphAnalysis, unit)
        return _CGSCCManagerResult(self.manager)


class _FunctionsOfSCCResult(_ManagerResult):
    """Never invalid itself (it only points at the function manager); when the SCC's
    analyses are not all kept, the SCC's functions are invalidated with the same set."""

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        if pa.are_all_preserved():
            return False
        checker = pa.checker(FunctionAnalysisManagerCGSCCProxy)
        kept = checker.preserved() or checker.preserved_set(AllAnalysesOnCGSCC)
        if not kept or not pa.all_analyses_in_set_preserved(AllAnalysesOnFunction):
            for fn in unit.functions:
                self.manager.invalidate(fn, pa)
        return False


class _OuterResult(_ManagerResult):
    """The outer proxy's result is never invalidated (as LLVM's)."""

    def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Invalidator) -> bool:
        return False


class FunctionAnalysisManagerCGSCCProxy(CGSCCAnalysis):
    """The SCC analysis giving the function analysis manager (found through the module proxy)."""

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> _ManagerResult:
        module = _scc_module(unit)
        found = am.outer(FunctionAnalysisManagerModuleProxy, unit) if module is not None else None
        if found is None:
            raise RuntimeError("FunctionAnalysisManagerCGSCCProxy needs the module-level proxy computed first")
        return _FunctionsOfSCCResult(found.manager)


class ModuleAnalysisManagerCGSCCProxy(CGSCCAnalysis):
    """Gives cached module analyses to CGSCC passes (LLVM's outer proxy; ``am.outer`` does the work)."""

    @property
    def log_name(self) -> str:
        return "OuterAnalysisManagerProxy<ModuleAnalysisManager, LazyCallGraph::SCC, LazyCallGraph &>"

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> _ManagerResult:
        outer = am.outer_manager
        if outer is None:
            raise RuntimeError("the CGSCC analysis manager has no module manager")
        return _OuterResult(outer)


def _scc_module(scc: SCC) -> Module | None:
    """The module of the SCC's functions (a function a pass deleted has none)."""
    for fn in scc.functions:
        if fn.parent is not None:
            return fn.parent
    return None


def cgscc_analysis_manager(mam: AnalysisManager[Module]) -> AnalysisManager[SCC]:
    """A CGSCC analysis manager linked to ``mam`` (outer) and sharing its instrumentation."""
    cgam: AnalysisManager[SCC] = AnalysisManager(AllAnalysesOnCGSCC, mam.instrumentation)
    cgam.set_outer(mam, _scc_module)
    return cgam


class ModuleToPostOrderCGSCCPassAdaptor(Pass[Module]):
    """Runs ``cgscc_pass`` on every SCC of the call graph, callees first."""

    is_special: ClassVar[bool] = True

    def __init__(self, cgscc_pass: Pass[SCC]) -> None:
        self.cgscc_pass = cgscc_pass

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        if not am.is_registered(CGSCCAnalysisManagerModuleProxy):
            am.register(CGSCCAnalysisManagerModuleProxy(cgscc_analysis_manager(am)))
        cgam: AnalysisManager[SCC] = am.get_result(CGSCCAnalysisManagerModuleProxy, unit).manager
        am.get_result(FunctionAnalysisManagerModuleProxy, unit)
        graph = am.get_result(LazyCallGraphAnalysis, unit)
        ur = CGSCCUpdateResult(graph)
        push_update_result(ur)
        try:
            pa = self._walk(unit, graph, cgam, ur)
        finally:
            pop_update_result()
        pa.preserve_set(AllAnalysesOnCGSCC)
        pa.preserve(LazyCallGraphAnalysis)  # kept up to date in place
        pa.preserve(CGSCCAnalysisManagerModuleProxy)
        pa.preserve(FunctionAnalysisManagerModuleProxy)
        return pa

    def _walk(self, unit: Module, graph: LazyCallGraph, cgam: AnalysisManager[SCC], ur: CGSCCUpdateResult) -> PreservedAnalyses:
        pi: PassInstrumentation = am_instrumentation(cgam)
        visited: set[Function] = set()
        changed = False
        rebuilt = False  # after a rebuild, SCCs whose functions were all visited are skipped
        pa = PreservedAnalyses.all()
        ref_sccs = list(reversed(graph.postorder_ref_sccs()))
        while ref_sccs:
            rc = ref_sccs.pop()
            ur.visited_ref_sccs.add(rc)
            ur.cworklist = SCCWorklist(list(reversed(rc.sccs)))
            ur.inlined_internal_edges.clear()
            last_updated: SCC | None = None
            runs: dict[frozenset[Function], int] = {}
            while ur.cworklist:
                c = ur.cworklist.pop()
                if c in ur.invalidated or not c.nodes or _scc_module(c) is None:
                    continue  # invalidated, or every function of it deleted
                if last_updated is c:
                    continue
                if rebuilt and all(fn in visited or fn.parent is not unit for fn in c.functions):
                    continue
                cgam.get_result(FunctionAnalysisManagerCGSCCProxy, c)
                cgam.get_result(ModuleAnalysisManagerCGSCCProxy, c)
                while True:
                    last_updated = ur.updated_c
                    ur.updated_c = None
                    visited.update(c.functions)
                    shape = frozenset(c.functions)
                    runs[shape] = runs.get(shape, 0) + 1
                    if runs[shape] > _MAX_RUNS_PER_SHAPE:
                        break  # a split/merge cycle (a pass undoing its own refinement): stop it
                    if not pi.run_before_pass(self.cgscc_pass, c):
                        break
                    before = snapshot(c)
                    pass_pa, c = run_cgscc_pass(self.cgscc_pass, c, cgam, ur)
                    pa.intersect(pass_pa)
                    if any(fn.parent is not unit or fingerprint(fn) != fp for fn, fp in before):
                        changed = True
                    visited.update(fn for fn in c.functions if fn.parent is unit)
                    if c in ur.invalidated:
                        pi.run_after_pass_invalidated(self.cgscc_pass, pass_pa)
                        break
                    cgam.invalidate(c, pass_pa)
                    pi.run_after_pass(self.cgscc_pass, c, pass_pa)
                    if ur.rebuild:
                        break
                    if ur.updated_c is None:
                        break
                if ur.rebuild:
                    # An edge to a new function, or one the incremental update does not model:
                    # rebuild, and go on over the SCCs holding a function not visited yet.
                    graph.refresh()
                    ur.rebuild = False
                    ur.invalidated.clear()
                    ur.updated_c = None
                    rebuilt = True
                    changed = False
                    cgam.clear()
                    ref_sccs = list(reversed(graph.postorder_ref_sccs()))
                    ur.cworklist = SCCWorklist()
                    last_updated = None
                    ur.visited_ref_sccs = set()
                    ref_sccs = [r for r in ref_sccs
                                if not all(f in visited for s in r.sccs for f in s.functions)]
                    break
        if changed or ur.dead:
            graph.refresh()  # once per walk: the graph as the module is now, for later users
        return pa


_MAX_RUNS_PER_SHAPE = 3
"""How often the pipeline may run on one set of functions while a RefSCC is walked
(LLVM needs no such bound: its inliner refuses to inline an internal edge again once
inlining it split the SCC; the bound only stops a pass that keeps undoing its split)."""


def am_instrumentation(am: AnalysisManager[Any]) -> PassInstrumentation:
    return am.instrumentation


def _call_counts(scc: SCC) -> tuple[dict[Function, tuple[int, int]], list[Any]]:
    """Per function of ``scc``: (direct calls, indirect calls); and the indirect calls."""
    from llvmpy_mid.ir.instructions.calls import CallBase

    counts: dict[Function, tuple[int, int]] = {}
    indirect: list[Any] = []
    for fn in scc.functions:
        direct = other = 0
        for bb in fn.blocks:
            for inst in bb.instructions:
                if isinstance(inst, CallBase):
                    if inst.called_function is not None:
                        direct += 1
                    else:
                        other += 1
                        indirect.append(inst)
        counts[fn] = (direct, other)
    return counts, indirect


class DevirtSCCRepeatedPass(Pass[SCC]):
    """``devirt<N>(...)``: runs its CGSCC pipeline on an SCC again, up to ``N`` more times,
    while a run turned an indirect call into a direct one (LLVM ``DevirtSCCRepeatedPass``):
    one of the indirect calls seen before the run now has a called function, or some
    function has fewer indirect and more direct calls than before."""

    is_special: ClassVar[bool] = False

    def __init__(self, cgscc_pass: Pass[SCC], max_iterations: int) -> None:
        self.cgscc_pass = cgscc_pass
        self.max_iterations = max_iterations

    @property
    def log_name(self) -> str:
        return "DevirtSCCRepeatedPass"

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> PreservedAnalyses:
        from llvmpy_mid.passes.options import OPTIONS

        pi = am.instrumentation
        pa = PreservedAnalyses.all()
        counts, indirect = _call_counts(unit)
        ur0 = current_update_result()
        if ur0 is not None:
            ur0.indirect_calls = {id(call): call for call in indirect}
        iteration = 0
        while True:
            if not pi.run_before_pass(self.cgscc_pass, unit):
                break
            ur = current_update_result()
            before = None if ur is None or isinstance(self.cgscc_pass, _SELF_UPDATING) else snapshot(unit)
            pass_pa = self.cgscc_pass.run(unit, am)
            if pass_pa is None:
                no_result(self.cgscc_pass)
            if ur is not None and before is not None:
                sync_after_pass(ur.updated_c or unit, before, am, ur)
            pa.intersect(pass_pa)
            if ur is not None and unit in ur.invalidated:
                pi.run_after_pass_invalidated(self.cgscc_pass, pass_pa)
                break
            am.invalidate(unit, pass_pa)
            pi.run_after_pass(self.cgscc_pass, unit, pass_pa)
            if ur is not None and ur.updated_c is not None and ur.updated_c is not unit:
                break
            live = [fn for fn in unit.functions if fn.parent is not None]
            if len(live) != len(unit.functions) or not live:
                break
            seen = list(ur.indirect_calls.values()) if ur is not None else indirect
            devirt = any(call.parent is not None and call.called_function is not None for call in seen)
            new_counts, indirect = _call_counts(unit)
            if ur is not None:
                ur.indirect_calls = {id(call): call for call in indirect}
            if not devirt:
                for fn, (direct, other) in new_counts.items():
                    old = counts.get(fn)
                    if old is not None and old[1] > other and old[0] < direct:
                        devirt = True
                        break
            if not devirt:
                break
            if iteration >= self.max_iterations:
                if OPTIONS.value("abort-on-max-devirt-iterations-reached"):
                    from llvmpy_mid.errors import FatalError

                    raise FatalError("Max devirtualization iterations reached", gen_crash_diag=True)
                break
            counts = new_counts
            iteration += 1
        return pa


class CGSCCToFunctionPassAdaptor(Pass[SCC]):
    """Runs ``function_pass`` on each function of an SCC (``eagerly_invalidate``: as
    :class:`~llvmpy_mid.passes.pass_manager.ModuleToFunctionPassAdaptor`)."""

    is_special: ClassVar[bool] = True

    def __init__(self, function_pass: Pass[Function], eagerly_invalidate: bool = False) -> None:
        self.function_pass = function_pass
        self.eagerly_invalidate = eagerly_invalidate

    def run(self, unit: SCC, am: AnalysisManager[SCC]) -> PreservedAnalyses:
        fam: AnalysisManager[Function] = am.get_result(FunctionAnalysisManagerCGSCCProxy, unit).manager
        pi = fam.instrumentation
        pa = PreservedAnalyses.all()
        ur = current_update_result()
        graph = ur.graph if ur is not None else None
        current = unit
        for fn in list(unit.functions):
            if graph is not None and graph.scc_of(fn) is not current:
                continue  # split off into another SCC: visited there
            if fn.is_declaration or fn.parent is None or not pi.run_before_pass(self.function_pass, fn):
                continue
            before = fingerprint(fn) if ur is not None else None
            pass_pa = self.function_pass.run(fn, fam)
            if pass_pa is None:
                no_result(self.function_pass)
            fam.invalidate(fn, PreservedAnalyses.none() if self.eagerly_invalidate else pass_pa)
            pi.run_after_pass(self.function_pass, fn, pass_pa)
            pa.intersect(pass_pa)
            if ur is not None and fn.parent is not None and fingerprint(fn) != before:
                current = update_for_pass(current, fn, am, ur)
        pa.preserve_set(AllAnalysesOnFunction)
        pa.preserve(FunctionAnalysisManagerCGSCCProxy)
        return pa


_SELF_UPDATING = (CGSCCPassManager, CGSCCToFunctionPassAdaptor, DevirtSCCRepeatedPass)
