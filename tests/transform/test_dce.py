"""``dce`` against opt-19: our printed module equals ``opt-19 -passes=dce -S`` (ModuleID
aside) and verifies, on hand-made functions (dead chains, operands used twice,
lifetime markers of allocas/arguments/globals, ``llvm.assume(true)``, guards on true,
side-effect-free intrinsic calls, volatile loads and loads from constants),
with debugify first (debug records of deleted values are salvaged as LLVM
does: casts, binary operators with constants, GEPs, icmp), on llvm-stress-19
programs and on the csmith corpus (a sample; all under ``--run-slow``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from loop_oracle import STRESS, body, needs_opt, opt19
from pass_oracle import check_like_opt, csmith_params

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, parse_file, print_module
from llvmpy_mid.transform.scalar.dce import eliminate_dead_code

HAND = """
@glob = global i8 1
@cst = constant i32 7

declare void @llvm.lifetime.start.p0(i64, ptr nocapture)
declare void @llvm.lifetime.end.p0(i64, ptr nocapture)
declare void @llvm.assume(i1)
declare void @llvm.experimental.guard(i1, ...)
declare i32 @llvm.smax.i32(i32, i32)
declare ptr @llvm.stacksave.p0()
declare void @ext(i32)
declare i32 @pure(i32) nounwind willreturn memory(none)
declare i32 @reads(i32) nounwind willreturn memory(read)
declare i32 @may_throw(i32) willreturn memory(none)

define i32 @chain(i32 %a, i32 %b) {
  %x = add i32 %a, %b
  %y = mul i32 %x, %x
  %z = sub i32 %y, 3
  %w = xor i32 %z, %a
  %keep = add i32 %a, 1
  ret i32 %keep
}

define void @lifetimes(ptr %arg) {
  %i = alloca i8, align 4
  call void @llvm.lifetime.start.p0(i64 -1, ptr %i)
  call void @llvm.lifetime.end.p0(i64 -1, ptr %i)
  call void @llvm.lifetime.start.p0(i64 -1, ptr %arg)
  call void @llvm.lifetime.end.p0(i64 -1, ptr %arg)
  call void @llvm.lifetime.start.p0(i64 -1, ptr @glob)
  call void @llvm.lifetime.end.p0(i64 -1, ptr @glob)
  %cast = getelementptr i8, ptr %arg, i64 1
  call void @llvm.lifetime.start.p0(i64 -1, ptr %cast)
  call void @llvm.lifetime.start.p0(i64 -1, ptr undef)
  ret void
}

define i32 @calls(i32 %a, i1 %c) {
  call void @llvm.assume(i1 true)
  call void @llvm.assume(i1 %c)
  call void (i1, ...) @llvm.experimental.guard(i1 true) [ "deopt"() ]
  call void (i1, ...) @llvm.experimental.guard(i1 %c) [ "deopt"() ]
  %m = call i32 @llvm.smax.i32(i32 %a, i32 1)
  %s = call ptr @llvm.stacksave.p0()
  %p = call i32 @pure(i32 %a)
  %r = call i32 @reads(i32 %a)
  %t = call i32 @may_throw(i32 %a)
  call void @ext(i32 %a)
  ret i32 0
}

define i32 @loads(ptr %p) {
  %a = load i32, ptr %p
  %b = load volatile i32, ptr %p
  %c = load i32, ptr @cst
  %d = load atomic i32, ptr @cst seq_cst, align 4
  %e = load atomic i32, ptr %p seq_cst, align 4
  ret i32 0
}

define i32 @phis(i1 %c, i32 %a) {
entry:
  br i1 %c, label %l, label %r
l:
  %x = add i32 %a, 1
  br label %j
r:
  %y = add i32 %a, 2
  br label %j
j:
  %p = phi i32 [ %x, %l ], [ %y, %r ]
  %q = add i32 %p, %p
  ret i32 %a
}

define void @salvage(i32 %a, ptr %p, i64 %n) {
  %add = add i32 %a, 5
  %sub = sub i32 %add, 7
  %mul = mul i32 %a, 3
  %shl = shl i32 %a, %a
  %z = zext i32 %a to i64
  %s = sext i32 %a to i64
  %t = trunc i32 %a to i8
  %g = getelementptr inbounds { i32, [4 x i16] }, ptr %p, i64 1, i32 1, i64 %n
  %pi = ptrtoint ptr %p to i64
  %c1 = icmp slt i32 %a, -4
  %c2 = icmp ult i32 %a, %a
  %c3 = icmp eq i32 %mul, 9
  %fa = fadd float 1.0, 2.0
  ret void
}
"""


def _check(text: str, tmp_path: Path, pipeline: str) -> None:
    path = tmp_path / "in.ll"
    path.write_text(text)
    expected = opt19(path, pipeline)
    assert expected is not None, "opt-19 rejects the input"
    module = parse_file(str(path))
    llvmpy_mid.run_passes(module, pipeline)
    assert body(print_module(module)) == body(expected)
    llvmpy_mid.verify_module(module)


@needs_opt
def test_hand_made_functions(tmp_path: Path) -> None:
    _check(HAND, tmp_path, "dce")


@needs_opt
def test_hand_made_functions_with_debugify(tmp_path: Path) -> None:
    """Debug records of deleted values are salvaged onto operands or killed, as opt-19."""
    _check(HAND, tmp_path, "module(debugify),function(dce)")


def test_dead_chain_goes_and_live_code_stays() -> None:
    module = parse_assembly(HAND)
    fn = module.get_function("chain")
    assert fn is not None
    assert eliminate_dead_code(fn)
    assert [i.opcode for i in fn.blocks._first.instructions] == ["add", "ret"]  # type: ignore[union-attr]
    assert not eliminate_dead_code(fn)


@needs_opt
@pytest.mark.skipif(STRESS is None, reason="llvm-stress-19 not installed")
@pytest.mark.parametrize("seed", [1, 7, 19])
def test_llvm_stress_with_debugify(tmp_path: Path, seed: int) -> None:
    assert STRESS is not None
    path = tmp_path / "stress.ll"
    subprocess.run([STRESS, "-seed=%d" % seed, "-size=300", "-o", str(path)], check=True)
    _check(path.read_text(), tmp_path, "module(debugify),function(dce)")


@needs_opt
@pytest.mark.parametrize("path", csmith_params())
def test_csmith(path: Path) -> None:
    check_like_opt(path, "dce")


@needs_opt
def test_redundant_dbg_inst_elim_matches_opt(tmp_path: Path) -> None:
    """Runs of records redefining a variable, repeated locations, fragments, labels."""
    from oracles import require_llvm_tests

    root = require_llvm_tests()
    path = root / "Transforms" / "DCE" / "dbg-value-removal.ll"
    expected = opt19(path, "redundant-dbg-inst-elim")
    assert expected is not None
    module = parse_file(str(path))
    llvmpy_mid.run_passes(module, "redundant-dbg-inst-elim")
    assert body(print_module(module)) == body(expected)


@needs_opt
@pytest.mark.parametrize("path", csmith_params(2, ".O2g.ll"))
def test_redundant_dbg_inst_elim_csmith(path: Path) -> None:
    check_like_opt(path, "redundant-dbg-inst-elim")
