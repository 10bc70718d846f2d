"""Pass manager tests: caching, invalidation, the outer proxy and the
-debug-pass-manager log (compared with opt-19's when it is installed)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes import (
    CFGAnalyses,
    DebugPassManagerLog,
    DominatorTreeAnalysis,
    FunctionPassManager,
    InvalidateAllAnalysesPass,
    InvalidateAnalysisPass,
    ModuleAnalysis,
    ModulePassManager,
    ModuleToFunctionPassAdaptor,
    Pass,
    PassInstrumentation,
    PostDominatorTreeAnalysis,
    PreservedAnalyses,
    RequireAnalysisPass,
    make_analysis_managers,
)
from llvmpy_mid.passes.analysis import AnalysisManager

IR = """define i32 @f(i32 %x) {
entry:
  %a = add i32 %x, 1
  br label %next
next:
  ret i32 %a
}

define void @g() {
  ret void
}

declare void @h()
"""


class CountGlobals(ModuleAnalysis[int]):
    name = "count-globals"
    runs = 0

    def run(self, unit: Module, am: AnalysisManager[Module]) -> int:
        CountGlobals.runs += 1
        return len(unit.functions)


class KeepCFG(Pass[Function]):
    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        return PreservedAnalyses.none().preserve_set(CFGAnalyses)


class SeeOuter(Pass[Function]):
    def __init__(self) -> None:
        self.seen: list[int | None] = []

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        self.seen.append(am.outer(CountGlobals, unit))
        return PreservedAnalyses.all()


def _setup() -> tuple[Module, AnalysisManager[Module], AnalysisManager[Function], DebugPassManagerLog]:
    pi = PassInstrumentation()
    log = DebugPassManagerLog(pi)
    mam, fam = make_analysis_managers(pi)
    return parse_assembly(IR), mam, fam, log


def _run(passes: list[Pass[Function]]) -> tuple[list[str], AnalysisManager[Function], Module]:
    m, mam, fam, log = _setup()
    ModulePassManager([ModuleToFunctionPassAdaptor(FunctionPassManager(passes))]).run(m, mam)
    return log.lines, fam, m


# --- PreservedAnalyses -----------------------------------------------------------------
def test_preserved_analyses_queries() -> None:
    assert PreservedAnalyses.all().are_all_preserved()
    assert not PreservedAnalyses.none().preserved(DominatorTreeAnalysis)
    cfg = PreservedAnalyses.none().preserve_set(CFGAnalyses)
    assert cfg.preserved(DominatorTreeAnalysis) and cfg.preserved(PostDominatorTreeAnalysis)
    assert not cfg.preserved(CountGlobals)
    one = PreservedAnalyses.none().preserve(DominatorTreeAnalysis)
    assert one.preserved(DominatorTreeAnalysis) and not one.preserved(PostDominatorTreeAnalysis)
    # abandon is sticky across sets and all()
    ab = PreservedAnalyses.all().abandon(DominatorTreeAnalysis)
    assert not ab.are_all_preserved() and not ab.preserved(DominatorTreeAnalysis)
    assert ab.preserved(PostDominatorTreeAnalysis)
    ab.preserve_set(CFGAnalyses)
    assert not ab.preserved(DominatorTreeAnalysis)
    ab.preserve(DominatorTreeAnalysis)
    assert ab.preserved(DominatorTreeAnalysis)


def test_intersect() -> None:
    a = PreservedAnalyses.none().preserve(DominatorTreeAnalysis).preserve(PostDominatorTreeAnalysis)
    b = PreservedAnalyses.none().preserve(DominatorTreeAnalysis)
    a.intersect(b)
    assert a.preserved(DominatorTreeAnalysis) and not a.preserved(PostDominatorTreeAnalysis)
    c = PreservedAnalyses.all().intersect(PreservedAnalyses.all().abandon(DominatorTreeAnalysis))
    assert not c.preserved(DominatorTreeAnalysis) and c.preserved(PostDominatorTreeAnalysis)
    assert PreservedAnalyses.all().intersect(PreservedAnalyses.all()).are_all_preserved()


# --- caching and invalidation ----------------------------------------------------------
def test_analysis_computed_once_and_cached() -> None:
    m, _mam, fam, log = _setup()
    f = m.get_function("f")
    assert f is not None
    assert fam.get_cached_result(DominatorTreeAnalysis, f) is None
    dt = fam.get_result(DominatorTreeAnalysis, f)
    assert fam.get_result(DominatorTreeAnalysis, f) is dt
    assert fam.get_cached_result(DominatorTreeAnalysis, f) is dt
    assert log.lines == ["Running analysis: DominatorTreeAnalysis on f"]
    fam.clear()
    assert fam.get_cached_result(DominatorTreeAnalysis, f) is None


def test_preserving_nothing_forces_recomputation() -> None:
    lines, fam, m = _run([RequireAnalysisPass(DominatorTreeAnalysis), InvalidateAllAnalysesPass(),
                          RequireAnalysisPass(DominatorTreeAnalysis)])
    doms = [x for x in lines if "DominatorTreeAnalysis on f" in x and not x.startswith("Running pass")]
    assert doms == ["Running analysis: DominatorTreeAnalysis on f",
                    "Invalidating analysis: DominatorTreeAnalysis on f",
                    "Running analysis: DominatorTreeAnalysis on f"]


def test_preserving_cfg_keeps_domtree() -> None:
    lines, fam, m = _run([RequireAnalysisPass(DominatorTreeAnalysis), KeepCFG(),
                          RequireAnalysisPass(DominatorTreeAnalysis)])
    assert lines.count("Running analysis: DominatorTreeAnalysis on f") == 1
    assert not any(x.startswith("Invalidating") for x in lines)
    f = m.get_function("f")
    assert f is not None and fam.get_cached_result(DominatorTreeAnalysis, f) is not None


def test_result_invalidate_hook_decides() -> None:
    class Sticky:
        def invalidate(self, unit: Any, pa: PreservedAnalyses, inv: Any) -> bool:
            return False

    class StickyAnalysis(ModuleAnalysis[Sticky]):
        def run(self, unit: Module, am: AnalysisManager[Module]) -> Sticky:
            return Sticky()

    m, mam, _fam, _log = _setup()
    r = mam.get_result(StickyAnalysis, m)
    mam.invalidate(m, PreservedAnalyses.none())
    assert mam.get_cached_result(StickyAnalysis, m) is r


def test_module_invalidation_clears_function_results() -> None:
    m, mam, fam, log = _setup()
    pm = ModulePassManager([
        ModuleToFunctionPassAdaptor(RequireAnalysisPass(DominatorTreeAnalysis)),
        InvalidateAllAnalysesPass(),
    ])
    pm.run(m, mam)
    f = m.get_function("f")
    assert f is not None and fam.get_cached_result(DominatorTreeAnalysis, f) is None


# --- proxy -----------------------------------------------------------------------------
def test_outer_proxy_returns_cached_module_result_only() -> None:
    m, mam, fam, _log = _setup()
    see = SeeOuter()
    CountGlobals.runs = 0
    adaptor = ModuleToFunctionPassAdaptor(see)
    adaptor.run(m, mam)
    assert see.seen == [None, None]  # never computed through the proxy
    mam.get_result(CountGlobals, m)
    adaptor.run(m, mam)
    assert see.seen[2:] == [3, 3] and CountGlobals.runs == 1


# --- the -debug-pass-manager log -------------------------------------------------------
def _opt_log(tmp_path: Path, pipeline: str) -> list[str]:
    src = tmp_path / "in.ll"
    src.write_text(IR)
    proc = subprocess.run(
        ["opt-19", "-disable-verify", "-passes=" + pipeline, "-debug-pass-manager", "-disable-output", str(src)],
        capture_output=True, text=True, check=True,
    )
    return (proc.stdout + proc.stderr).splitlines()


SHAPES: list[tuple[str, list[Pass[Function]]]] = [
    ("function(require<domtree>,invalidate<all>,require<domtree>)",
     [RequireAnalysisPass(DominatorTreeAnalysis), InvalidateAllAnalysesPass(),
      RequireAnalysisPass(DominatorTreeAnalysis)]),
    ("function(require<domtree>,require<postdomtree>,invalidate<domtree>,require<domtree>,require<postdomtree>)",
     [RequireAnalysisPass(DominatorTreeAnalysis), RequireAnalysisPass(PostDominatorTreeAnalysis),
      InvalidateAnalysisPass(DominatorTreeAnalysis), RequireAnalysisPass(DominatorTreeAnalysis),
      RequireAnalysisPass(PostDominatorTreeAnalysis)]),
]

EXPECTED_FIRST = [
    "Running analysis: InnerAnalysisManagerProxy<FunctionAnalysisManager, Module> on [module]",
    "Running pass: RequireAnalysisPass<llvm::DominatorTreeAnalysis, llvm::Function, "
    "llvm::AnalysisManager<Function>> on f (3 instructions)",
    "Running analysis: DominatorTreeAnalysis on f",
    "Running pass: InvalidateAllAnalysesPass on f (3 instructions)",
    "Invalidating analysis: DominatorTreeAnalysis on f",
]


@pytest.mark.parametrize("pipeline,passes", SHAPES)
def test_debug_log_matches_opt(tmp_path: Path, pipeline: str, passes: list[Pass[Function]]) -> None:
    lines, _fam, _m = _run(passes)
    if pipeline == SHAPES[0][0]:
        assert lines[:5] == EXPECTED_FIRST  # recorded from opt-19
        assert "Running pass: InvalidateAllAnalysesPass on g (1 instruction)" in lines
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 not installed")
    assert lines == _opt_log(tmp_path, pipeline)


def test_module_level_log_matches_opt(tmp_path: Path) -> None:
    m, mam, _fam, log = _setup()
    ModulePassManager([
        ModuleToFunctionPassAdaptor(RequireAnalysisPass(DominatorTreeAnalysis)),
        InvalidateAllAnalysesPass(),
        ModuleToFunctionPassAdaptor(RequireAnalysisPass(DominatorTreeAnalysis)),
    ]).run(m, mam)
    assert "Running pass: InvalidateAllAnalysesPass on [module]" in log.lines
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 not installed")
    assert log.lines == _opt_log(tmp_path, "function(require<domtree>),invalidate<all>,function(require<domtree>)")
