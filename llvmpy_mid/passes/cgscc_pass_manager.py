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

How: the module adaptor asks for the lazy call graph once. Before and after
each SCC it compares a fingerprint of the SCC's functions' references to other
functions and the module's function count; when a pass changed them, only the
changed functions' edges are found again (``LazyCallGraph.update_edges``: cost
their size), and the walk goes on. Only when a function was created, or a
changed function gained an edge to a function not visited yet (the remaining
bottom-up order may be wrong), is the graph rebuilt and the walk continued over
the new graph's SCCs that hold a function not yet visited. After a walk that
updated edges the graph is rebuilt once in place, so the cached ``lcg`` result
stays exact. The inliner's typical change (calls to already-visited callees
added, calls removed, dead callees deleted) costs no rebuild: the walk is linear
in the call graph's size plus the code the passes change.

What it does not do: LLVM's ``updateCGAndAnalysisManagerForPass`` in full
(SCCs split or merged by a pass are not revisited with the rest of the
pipeline; a rebuild keeps only the bottom-up order), no invalidation of SCC
analyses from function-level changes beyond what each pass returns.
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
    """Runs CGSCC passes in sequence on one SCC."""

    unit_set: ClassVar[type[AnalysisSet]] = AllAnalysesOnCGSCC


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
    return scc.functions[0].parent if scc.functions else None


def _fingerprint(functions: list[Function]) -> tuple[Any, ...]:
    """What the call graph depends on for these functions: each instruction's function operands."""
    refs: list[int] = []
    for fn in functions:
        refs.append(id(fn))
        for bb in fn.blocks:
            for inst in bb.instructions:
                for op in inst.operands:
                    if isinstance(op, Function):
                        refs.append(id(op))
    return tuple(refs)


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
        pi: PassInstrumentation = am.instrumentation
        visited: set[Function] = set()
        stale = False  # edges were updated since the graph was last built
        count = len(unit.functions)
        pa = PreservedAnalyses.all()
        pending = list(reversed(graph.sccs_in_postorder()))
        while pending:
            scc = pending.pop()
            if all(fn in visited or fn.parent is not unit for fn in scc.functions):
                continue
            visited.update(scc.functions)
            before = _fingerprint(scc.functions)
            cgam.get_result(FunctionAnalysisManagerCGSCCProxy, scc)
            cgam.get_result(ModuleAnalysisManagerCGSCCProxy, scc)
            if not pi.run_before_pass(self.cgscc_pass, scc):
                continue
            pass_pa = self.cgscc_pass.run(scc, cgam)
            if pass_pa is None:
                no_result(self.cgscc_pass)
            cgam.invalidate(scc, pass_pa)
            pi.run_after_pass(self.cgscc_pass, scc, pass_pa)
            pa.intersect(pass_pa)
            live = [fn for fn in scc.functions if fn.parent is unit]
            visited.update(live)  # a function that replaced one of the SCC's (as LLVM's replaceNodeFunction) is done
            now = len(unit.functions)
            dead = len(scc.functions) - len(live)
            if dead or now != count or _fingerprint(live) != before:
                # Incremental update: the changed functions' edges only, unless a function was
                # created (more functions than the deletions here leave) or a changed function
                # gained an edge to one not visited yet: then the remaining order is rebuilt.
                stale = True
                for fn in scc.functions:
                    if fn.parent is not unit:
                        graph.forget(fn)
                if now > count - dead or not graph.update_edges(live, visited):
                    graph.refresh()
                    stale = False
                    cgam.clear()
                    pending = [s for s in reversed(graph.sccs_in_postorder())
                               if not all(f in visited for f in s.functions)]
            count = now
        if stale:
            graph.refresh()  # once per walk: the SCCs of the updated edges, for later users
        pa.preserve_set(AllAnalysesOnCGSCC)
        pa.preserve(LazyCallGraphAnalysis)  # kept up to date in place
        pa.preserve(CGSCCAnalysisManagerModuleProxy)
        pa.preserve(FunctionAnalysisManagerModuleProxy)
        return pa


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
        iteration = 0
        while True:
            if not pi.run_before_pass(self.cgscc_pass, unit):
                break
            pass_pa = self.cgscc_pass.run(unit, am)
            if pass_pa is None:
                no_result(self.cgscc_pass)
            pa.intersect(pass_pa)
            am.invalidate(unit, pass_pa)
            pi.run_after_pass(self.cgscc_pass, unit, pass_pa)
            live = [fn for fn in unit.functions if fn.parent is not None]
            if len(live) != len(unit.functions) or not live:
                break
            devirt = any(call.parent is not None and call.called_function is not None for call in indirect)
            new_counts, indirect = _call_counts(unit)
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
        for fn in list(unit.functions):
            if fn.is_declaration or fn.parent is None or not pi.run_before_pass(self.function_pass, fn):
                continue
            pass_pa = self.function_pass.run(fn, fam)
            if pass_pa is None:
                no_result(self.function_pass)
            fam.invalidate(fn, PreservedAnalyses.none() if self.eagerly_invalidate else pass_pa)
            pi.run_after_pass(self.function_pass, fn, pass_pa)
            pa.intersect(pass_pa)
        pa.preserve_set(AllAnalysesOnFunction)
        pa.preserve(FunctionAnalysisManagerCGSCCProxy)
        return pa
