"""build_pipeline / run_passes tests: pipelines from text give opt-19's
-debug-pass-manager log, unknown passes fail as opt-19 words it (plus a
suggestion), registered passes run, verify_each catches a broken module."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.errors import PipelineError, VerifierError
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes import (
    InvalidateAllAnalysesPass,
    ModulePassManager,
    ModuleToFunctionPassAdaptor,
    Pass,
    PreservedAnalyses,
    RequireAnalysisPass,
)
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.builder import build_pipeline
from llvmpy_mid.passes.registry import PassRegistry
from llvmpy_mid.passes.run import RunResult, run_passes

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

EXPECTED = [  # recorded from opt-19 -disable-verify -debug-pass-manager
    "Running analysis: InnerAnalysisManagerProxy<FunctionAnalysisManager, Module> on [module]",
    "Running pass: RequireAnalysisPass<llvm::DominatorTreeAnalysis, llvm::Function, "
    "llvm::AnalysisManager<Function>> on f (3 instructions)",
    "Running analysis: DominatorTreeAnalysis on f",
    "Running pass: InvalidateAllAnalysesPass on f (3 instructions)",
    "Invalidating analysis: DominatorTreeAnalysis on f",
    "Running pass: RequireAnalysisPass<llvm::DominatorTreeAnalysis, llvm::Function, "
    "llvm::AnalysisManager<Function>> on f (3 instructions)",
    "Running analysis: DominatorTreeAnalysis on f",
    "Running pass: RequireAnalysisPass<llvm::DominatorTreeAnalysis, llvm::Function, "
    "llvm::AnalysisManager<Function>> on g (1 instruction)",
    "Running analysis: DominatorTreeAnalysis on g",
    "Running pass: InvalidateAllAnalysesPass on g (1 instruction)",
    "Invalidating analysis: DominatorTreeAnalysis on g",
    "Running pass: RequireAnalysisPass<llvm::DominatorTreeAnalysis, llvm::Function, "
    "llvm::AnalysisManager<Function>> on g (1 instruction)",
    "Running analysis: DominatorTreeAnalysis on g",
]


def _opt_log(tmp_path: Path, pipeline: str) -> list[str]:
    src = tmp_path / "in.ll"
    src.write_text(IR)
    proc = subprocess.run(
        ["opt-19", "-disable-verify", "-passes=" + pipeline, "-debug-pass-manager", "-disable-output", str(src)],
        capture_output=True, text=True, check=True,
    )
    return (proc.stdout + proc.stderr).splitlines()


def _opt_error(tmp_path: Path, pipeline: str) -> str:
    src = tmp_path / "in.ll"
    src.write_text(IR)
    proc = subprocess.run(["opt-19", "-passes=" + pipeline, "-disable-output", str(src)], capture_output=True, text=True)
    assert proc.returncode == 1
    return proc.stderr.strip().removeprefix("opt-19: ")


def test_built_pipeline_shape() -> None:
    mpm = build_pipeline("function(require<domtree>,invalidate<all>,require<domtree>)")
    assert isinstance(mpm, ModulePassManager) and len(mpm) == 1
    adaptor = mpm.passes[0]
    assert isinstance(adaptor, ModuleToFunctionPassAdaptor)
    inner = adaptor.function_pass.passes  # type: ignore[attr-defined]
    assert [type(p) for p in inner] == [RequireAnalysisPass, InvalidateAllAnalysesPass, RequireAnalysisPass]
    top = build_pipeline("invalidate<all>")
    assert [type(p) for p in top.passes] == [InvalidateAllAnalysesPass]


@pytest.mark.parametrize("pipeline", [
    "function(require<domtree>,invalidate<all>,require<domtree>)",
    "require<domtree>,invalidate<all>,require<domtree>",  # implicit function pipeline
])
def test_log_matches_opt(tmp_path: Path, pipeline: str) -> None:
    result = run_passes(parse_assembly(IR), pipeline, debug_pass_manager=True)
    assert isinstance(result, RunResult)
    assert list(result.log) == EXPECTED
    assert result.changed is False and result.statistics == {}
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 not installed")
    assert list(result.log) == _opt_log(tmp_path, pipeline)


@pytest.mark.parametrize("pipeline", [
    "function(require<domtree>,require<postdomtree>,invalidate<domtree>,require<domtree>,require<postdomtree>)",
    "function(require<domtree>),invalidate<all>,function(require<domtree>)",
])
def test_more_logs_match_opt(tmp_path: Path, pipeline: str) -> None:
    if shutil.which("opt-19") is None:
        pytest.skip("opt-19 not installed")
    result = llvmpy_mid.run_passes(parse_assembly(IR), pipeline, debug_pass_manager=True)
    assert list(result.log) == _opt_log(tmp_path, pipeline)


def test_no_log_unless_asked() -> None:
    assert run_passes(parse_assembly(IR), "function(require<domtree>)").log == ()


UNKNOWN = [
    ("mem2rge", "unknown pass name 'mem2rge'"),
    ("function(foo)", "unknown function pass 'foo'"),
    ("require<foo>", "unknown pass name 'require<foo>'"),
    ("function(invalidate<foo>)", "unknown function pass 'invalidate<foo>'"),
    ("instcount,strip-dead-prototypes", "unknown function pass 'strip-dead-prototypes'"),
    ("invalidate<all>,require<domtree>", "unknown module pass 'require<domtree>'"),
]


@pytest.mark.parametrize("pipeline,message", UNKNOWN)
def test_unknown_pass_errors(tmp_path: Path, pipeline: str, message: str) -> None:
    with pytest.raises(PipelineError) as info:
        build_pipeline(pipeline)
    assert str(info.value).startswith(message)
    if shutil.which("opt-19") is not None:
        assert _opt_error(tmp_path, pipeline) == message


def test_did_you_mean() -> None:
    with pytest.raises(PipelineError, match=r"^unknown pass name 'instcont' \(did you mean 'instcount'\?\)$"):
        build_pipeline("instcont")
    with pytest.raises(PipelineError, match=r"unknown function pass 'requre<domtree>' \(did you mean 'require<domtree>'\?\)"):
        build_pipeline("function(requre<domtree>)")
    with pytest.raises(PipelineError, match=r"^unknown pass name 'zzzzzzzz'$"):
        build_pipeline("zzzzzzzz")


def test_unsupported_nesting() -> None:
    with pytest.raises(PipelineError, match="not supported"):
        build_pipeline("coro-cond(no-op-module)")
    build_pipeline("cgscc(function(require<domtree>))")  # CGSCC pipelines are supported
    build_pipeline("cgscc(devirt<2>(no-op-cgscc))")  # and devirt<N>


class _Rename(Pass[Function]):
    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        for bb in unit.blocks:
            for inst in bb.instructions:
                if not inst.type.is_void and not inst.name:
                    inst.name = "v"
        return PreservedAnalyses.none()


def _registry_with_rename() -> PassRegistry:
    reg = PassRegistry()
    reg.register_pass("test-rename", "function")(_Rename)
    reg.add_analysis("domtree", "function", "llvmpy_mid.passes.dominator_analyses:DominatorTreeAnalysis")
    return reg


def test_decorated_pass_runs_and_changes() -> None:
    reg = _registry_with_rename()
    m = parse_assembly("define i32 @f(i32 %x) {\n  %1 = add i32 %x, 1\n  ret i32 %1\n}\n")
    result = run_passes(m, "test-rename,require<domtree>", registry=reg, debug_pass_manager=True)
    assert result.changed is True
    assert "%v = add i32 %x, 1" in llvmpy_mid.print_module(m)
    assert result.log[1] == "Running pass: _Rename on f (2 instructions)"
    assert run_passes(m, "function(require<domtree>)", registry=reg).changed is False


class _Break(Pass[Function]):
    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        unit.blocks[0].instructions[-1].erase_from_parent()  # no terminator any more
        return PreservedAnalyses.none()


def test_verify_each() -> None:
    reg = PassRegistry()
    reg.register_pass("test-break", "function")(_Break)
    with pytest.raises(VerifierError, match="Broken module found after pass _Break"):
        run_passes(parse_assembly(IR), "test-break", registry=reg, verify_each=True)
    run_passes(parse_assembly(IR), "test-break", registry=reg)  # not checked without verify_each
