"""The target-independent cost model (``NoTTIImpl``) against opt-19's
``print<cost-model>`` in each cost kind, with and without a data layout, and the
small ``InstructionCost`` arithmetic."""

from __future__ import annotations

import io
import subprocess

import pytest

from llvmpy_mid.analysis.target_transform_info import (
    COST_KIND_NAMES,
    CostModelPrinterPass,
    InstructionCost,
    TargetTransformInfo,
)
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes import registry as _registry  # noqa: F401  (declares the options)
from llvmpy_mid.passes.options import OPTIONS
from oracles import require_llvm_tests, require_tools

_BODY = """
%S = type { i32, i64, [4 x i16] }
@g = global [10 x i32] zeroinitializer
declare i32 @ext(i32, i32)
declare double @sqrt(double)
declare i32 @other(i32)
declare void @llvm.assume(i1)
declare i32 @llvm.ctpop.i32(i32)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare i1 @llvm.experimental.widenable.condition()
define internal void @loc() { ret void }
define i32 @f(i32 %a, i32 %b, ptr %p, i64 %i, double %d, i1 %c, <4 x i32> %v, <4 x i32> %w, <2 x ptr> %vp) {
entry:
  %al = alloca i32
  %x1 = add i32 %a, %b
  %x2 = sdiv i32 %a, %b
  %x3 = fadd double %d, %d
  %x4 = fdiv double %d, %d
  %x5 = fneg double %d
  %x6 = fmul <2 x float> zeroinitializer, zeroinitializer
  %g1 = getelementptr i32, ptr %p, i64 0
  %g2 = getelementptr i32, ptr %p, i64 1
  %g3 = getelementptr i32, ptr %p, i64 %i
  %g4 = getelementptr i8, ptr %p, i64 %i
  %g5 = getelementptr %S, ptr %p, i64 0, i32 0
  %g6 = getelementptr %S, ptr %p, i64 0, i32 1
  %g7 = getelementptr %S, ptr %p, i64 %i, i32 2, i64 %i
  %g8 = getelementptr [10 x i32], ptr @g, i64 0, i64 0
  %g9 = getelementptr i8, ptr %p
  %g10 = getelementptr [4 x i8], ptr %p, i64 %i, i64 %i
  %g11 = getelementptr [2 x i32], ptr %p, i64 -1, i64 2
  %g12 = getelementptr [4 x i8], ptr %p, i64 1, i64 -4
  %l = load i32, ptr %p
  %l2 = load i64, ptr %p
  %t = trunc i64 %l2 to i32
  %t2 = trunc i64 %l2 to i7
  %z = zext i32 %a to i64
  %pi = ptrtoint ptr %p to i64
  %pi2 = ptrtoint ptr %p to i32
  %ip = inttoptr i64 %i to ptr
  %ip2 = inttoptr i32 %a to ptr
  %bc = bitcast i32 %a to float
  %bc2 = bitcast ptr %p to ptr
  %fp = sitofp i32 %a to double
  store i32 %a, ptr %p
  %c1 = icmp eq i32 %a, %b
  %c2 = fcmp olt double %d, %d
  %s1 = select i1 %c, i32 %a, i32 %b
  %s2 = select i1 %c, i1 %c1, i1 false
  %s3 = select i1 %c, i1 true, i1 %c1
  %wc = call i1 @llvm.experimental.widenable.condition()
  %an = and i1 %wc, %c
  %s4 = select i1 %c, i1 %wc, i1 false
  %k1 = call i32 @ext(i32 %a, i32 %b)
  %k2 = call double @sqrt(double %d)
  %k5 = call i32 @other(i32 %a)
  call void @llvm.assume(i1 %c)
  %k3 = call i32 @llvm.ctpop.i32(i32 %a)
  call void @llvm.lifetime.start.p0(i64 4, ptr %al)
  call void @loc()
  %k4 = call i32 %p(i32 1)
  %fr = freeze i32 %a
  %e1 = extractelement <4 x i32> %v, i32 1
  %e2 = insertelement <4 x i32> %v, i32 1, i32 1
  %sh1 = shufflevector <4 x i32> %v, <4 x i32> %w, <4 x i32> <i32 0, i32 1, i32 2, i32 3>
  %sh2 = shufflevector <4 x i32> %v, <4 x i32> %w, <4 x i32> <i32 0, i32 5, i32 2, i32 3>
  %sh3 = shufflevector <4 x i32> %v, <4 x i32> %w, <2 x i32> <i32 2, i32 3>
  %sh4 = shufflevector <4 x i32> %v, <4 x i32> %w, <2 x i32> <i32 3, i32 1>
  %sh5 = shufflevector <4 x i32> %v, <4 x i32> %w, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 undef, i32 undef, i32 undef, i32 undef>
  %sh6 = shufflevector <4 x i32> %v, <4 x i32> %w, <4 x i32> <i32 4, i32 5, i32 6, i32 7>
  %ev = extractvalue {i32, i32} undef, 0
  %va = mul <4 x i32> %v, %w
  %vd = udiv <4 x i32> %v, %w
  %cf = fptosi double %d to i32
  %u = urem i32 %a, 7
  %vg = getelementptr i32, <2 x ptr> %vp, <2 x i64> <i64 1, i64 1>
  %vg2 = getelementptr i32, <2 x ptr> %vp, <2 x i64> zeroinitializer
  br label %next
next:
  %ph = phi i32 [ %a, %entry ]
  switch i32 %a, label %r [ i32 1, label %r ]
r:
  unreachable
}
"""

_LAYOUTS = {
    "no-layout": "",
    "x86-64": 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n',
    "32-bit": 'target datalayout = "e-p:32:32-i64:64-n8:16:32"\n',
}


def _ours(text: str, kind: str) -> str:
    module = parse_assembly(text)
    out = io.StringIO()
    with OPTIONS.overriding({"cost-kind": kind}):
        am: AnalysisManager[Function] = AnalysisManager()
        for fn in module.functions:
            if not fn.is_declaration:
                CostModelPrinterPass(out).run(fn, am)
    return out.getvalue()


@pytest.mark.parametrize("layout", sorted(_LAYOUTS))
@pytest.mark.parametrize("kind", sorted(COST_KIND_NAMES))
def test_costs_like_opt(layout: str, kind: str) -> None:
    require_tools("opt-19")
    text = _LAYOUTS[layout] + _BODY
    r = subprocess.run(
        ["opt-19", "-passes=print<cost-model>", "-cost-kind=" + kind, "-disable-output", "-"],
        input=text, capture_output=True, text=True,
    )
    assert r.returncode == 0, r.stderr
    assert _ours(text, kind) == r.stdout + r.stderr


def test_instruction_cost_arithmetic() -> None:
    bad = InstructionCost.invalid()
    assert not bad.is_valid
    assert (InstructionCost(2) + bad).value is None
    assert InstructionCost(2) + 3 == 5
    assert InstructionCost(4) > 3
    assert bad > InstructionCost(1 << 40)
    assert (InstructionCost(3) * 2).value == 6


def test_simple_queries() -> None:
    tti = TargetTransformInfo()
    assert tti.get_predictable_branch_threshold() == (99, 100)
    assert tti.get_branch_mispredict_penalty() == 0
    with OPTIONS.overriding({"predictable-branch-threshold": 70}):
        assert tti.get_predictable_branch_threshold() == (70, 100)


@pytest.mark.parametrize("name", ["free-intrinsics-no_info.ll", "free-intrinsics-datalayout.ll", "no_info.ll"])
@pytest.mark.parametrize("kind", ["code-size", "throughput", "size-latency"])
def test_llvm_cost_model_tests_like_opt(name: str, kind: str) -> None:
    """LLVM's own target-independent cost-model tests, printed as opt-19 prints them."""
    require_tools("opt-19")
    path = require_llvm_tests() / "Analysis" / "CostModel" / name
    r = subprocess.run(
        ["opt-19", "-passes=print<cost-model>", "-cost-kind=" + kind, "-disable-output", str(path)],
        capture_output=True, text=True,
    )
    assert r.returncode == 0, r.stderr
    assert _ours(path.read_text(), kind) == r.stdout + r.stderr


_POISON_MASKS = """define void @f(<1 x double> %a, <1 x double> %b, <4 x i16> %c, <2 x i8> %d) {
  %s1 = shufflevector <1 x double> %a, <1 x double> %b, <1 x i32> poison
  %s2 = shufflevector <4 x i16> %c, <4 x i16> %c, <4 x i32> poison
  %s3 = shufflevector <2 x i8> %d, <2 x i8> poison, <4 x i32> poison
  %s4 = shufflevector <4 x i16> %c, <4 x i16> poison, <2 x i32> poison
  %s5 = shufflevector <4 x i16> %c, <4 x i16> poison, <4 x i32> <i32 0, i32 poison, i32 2, i32 poison>
  ret void
}
"""


@pytest.mark.parametrize("kind", sorted(COST_KIND_NAMES))
def test_shuffles_with_poison_masks_like_opt(kind: str) -> None:
    """An all-poison mask uses neither source: not an identity (LLVM's isSingleSourceMask)."""
    require_tools("opt-19")
    r = subprocess.run(
        ["opt-19", "-passes=print<cost-model>", "-cost-kind=" + kind, "-disable-output", "-"],
        input=_POISON_MASKS, capture_output=True, text=True,
    )
    assert r.returncode == 0, r.stderr
    assert _ours(_POISON_MASKS, kind) == r.stdout + r.stderr
