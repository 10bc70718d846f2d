"""Memory dependence analysis on hand-written cases. Each expected answer is what LLVM's
algorithm (MemoryDependenceAnalysis.cpp) gives, with the reason in a comment; the analysis
log and invalidation are compared with opt-19's ``-debug-pass-manager`` output."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.memory_dependence import (
    MemDepResult,
    MemoryDependenceAnalysis,
    MemoryDependenceResults,
    NonLocalDepResult,
)
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.cli import main
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.passes.analysis import AnalysisManager
from tests.oracles import require_tools


def _setup(text: str, fn_name: str = "f", scan_limit: int | None = None) -> tuple[Function, MemoryDependenceResults, dict[str, Instruction]]:
    module = parse_assembly(text)
    fn = module.get_function(fn_name)
    assert fn is not None
    am: AnalysisManager[Function] = AnalysisManager()
    am.register(AAManager(("basic-aa",)))
    if scan_limit is not None:
        am.register(MemoryDependenceAnalysis(scan_limit))
    md = am.get_result(MemoryDependenceAnalysis, fn)
    named: dict[str, Instruction] = {}
    for bb in fn.blocks:
        for inst in bb.instructions:
            key = inst.name or str(inst).strip()
            named[key] = inst
    return fn, md, named


def _by_text(named: dict[str, Instruction], prefix: str) -> Instruction:
    found = [i for k, i in named.items() if k.startswith(prefix)]
    assert len(found) == 1, prefix
    return found[0]


LOCAL = """
declare void @g()
declare i32 @ro(ptr) readonly
define i32 @f(ptr %p, ptr %q) {
entry:
  %a = alloca i32
  store i32 1, ptr %p
  %x = load i32, ptr %p
  %y = load i32, ptr %p
  call void @g()
  %z = load i32, ptr %p
  %r1 = call i32 @ro(ptr %q)
  %r2 = call i32 @ro(ptr %q)
  %w = load i32, ptr %p
  %fresh = load i32, ptr %a
  ret i32 %x
}
"""


def test_local_dependences() -> None:
    _, md, named = _setup(LOCAL)
    store = _by_text(named, "store i32 1")
    # The must-aliasing store defines the loaded value.
    assert md.get_dependency(named["x"]) == MemDepResult.get_def(store)
    # A must-aliasing earlier load is a Def too.
    assert md.get_dependency(named["y"]) == MemDepResult.get_def(named["x"])
    call = _by_text(named, "call void @g()")
    # An unknown call may write %p: Clobber.
    assert md.get_dependency(named["z"]) == MemDepResult.get_clobber(call)
    # Read-only calls only read: a load scans past them (Ref and isLoad).
    assert md.get_dependency(named["w"]) == MemDepResult.get_def(named["z"])
    # A call after a load it may read from: any mod/ref is a Clobber for a call.
    assert md.get_dependency(named["r1"]) == MemDepResult.get_clobber(named["z"])
    # Two identical read-only calls with no write between: the first is a Def of the second.
    assert md.get_dependency(named["r2"]) == MemDepResult.get_def(named["r1"])
    # An access to a fresh alloca depends on the alloca itself (Def).
    assert md.get_dependency(named["fresh"]) == MemDepResult.get_def(named["a"])
    # The first memory access of the entry block has no dependence in the function.
    assert md.get_dependency(store).is_non_func_local()


def test_scan_limit_gives_unknown() -> None:
    # A budget of N examines N - 1 instructions: the alloca is the 9th before %fresh
    # (the others are NoAlias or NoModRef for the non-escaping alloca).
    _, md, named = _setup(LOCAL, scan_limit=9)
    assert md.get_dependency(named["fresh"]).is_unknown()
    _, md, named = _setup(LOCAL, scan_limit=10)
    assert md.get_dependency(named["fresh"]) == MemDepResult.get_def(named["a"])


DIAMOND = """
declare void @g()
define i32 @f(ptr %p, ptr %q, i1 %c) {
entry:
  store i32 0, ptr %p
  br i1 %c, label %l, label %r
l:
  store i32 1, ptr %p
  br label %m
r:
  call void @g()
  br label %m
m:
  %x = load i32, ptr %p
  ret i32 %x
}
"""


def test_non_local_pointer_dependences() -> None:
    _, md, named = _setup(DIAMOND)
    load = named["x"]
    assert md.get_dependency(load).is_non_local()
    result: list[NonLocalDepResult] = []
    md.get_non_local_pointer_dependency(load, result)
    by_block = {r.get_bb().name: r for r in result}
    assert set(by_block) == {"l", "r"}
    assert by_block["l"].get_result() == MemDepResult.get_def(_by_text(named, "store i32 1"))
    assert by_block["r"].get_result() == MemDepResult.get_clobber(_by_text(named, "call void @g()"))
    assert all(r.get_address() is load.operands[0] for r in result)
    # A second query is answered from the cache (same answers).
    again: list[NonLocalDepResult] = []
    md.get_non_local_pointer_dependency(load, again)
    assert [(r.get_bb(), r.get_result()) for r in again] == [(r.get_bb(), r.get_result()) for r in result]


PHI_TRANSLATION = """
define i32 @f(ptr %a, ptr %b, i1 %c) {
entry:
  br i1 %c, label %l, label %r
l:
  store i32 1, ptr %a
  br label %m
r:
  store i32 2, ptr %b
  br label %m
m:
  %p = phi ptr [ %a, %l ], [ %b, %r ]
  %g = getelementptr i8, ptr %p, i64 0
  %x = load i32, ptr %g
  ret i32 %x
}
"""


def test_phi_translation_into_predecessors() -> None:
    # %g = gep %p, 0 is phi-translated: in %l the address is %a, in %r it is %b (the GEP
    # simplifies away), and each store is then a must-alias Def.
    _, md, named = _setup(PHI_TRANSLATION)
    result: list[NonLocalDepResult] = []
    md.get_non_local_pointer_dependency(named["x"], result)
    by_block = {r.get_bb().name: r for r in result}
    fn_args = {a.name: a for a in named["x"].function.args}  # type: ignore[union-attr]
    assert by_block["l"].get_address() is fn_args["a"]
    assert by_block["r"].get_address() is fn_args["b"]
    assert by_block["l"].get_result() == MemDepResult.get_def(_by_text(named, "store i32 1"))
    assert by_block["r"].get_result() == MemDepResult.get_def(_by_text(named, "store i32 2"))


def test_volatile_query_is_unknown_in_its_block() -> None:
    text = DIAMOND.replace("%x = load i32, ptr %p", "%x = load volatile i32, ptr %p")
    _, md, named = _setup(text)
    result: list[NonLocalDepResult] = []
    md.get_non_local_pointer_dependency(named["x"], result)
    assert len(result) == 1 and result[0].get_bb().name == "m" and result[0].get_result().is_unknown()


CALLS = """
declare i32 @ro() readonly
declare void @g()
define i32 @f(i1 %c) {
entry:
  %a = call i32 @ro()
  br i1 %c, label %l, label %m
l:
  call void @g()
  br label %m
m:
  %b = call i32 @ro()
  ret i32 %b
}
"""


def test_non_local_call_dependences() -> None:
    _, md, named = _setup(CALLS)
    call = named["b"]
    assert isinstance(call, CallBase)
    assert md.get_dependency(call).is_non_local()
    entries = {e.get_bb().name: e.get_result() for e in md.get_non_local_call_dependency(call)}
    # The identical read-only call in entry is a Def; @g may write memory: Clobber.
    assert entries == {"entry": MemDepResult.get_def(named["a"]), "l": MemDepResult.get_clobber(_by_text(named, "call void @g()"))}


def test_remove_instruction_makes_answers_dirty() -> None:
    _, md, named = _setup(LOCAL)
    x, y = named["x"], named["y"]
    assert md.get_dependency(y) == MemDepResult.get_def(x)
    # Forget %x (as GVN does before erasing it): %y's answer is recomputed from the store.
    md.remove_instruction(x)
    x.replace_all_uses_with(y)
    x.erase_from_parent()
    assert md.get_dependency(y) == MemDepResult.get_def(_by_text(named, "store i32 1"))


def test_remove_instruction_in_non_local_cache() -> None:
    fn, md, named = _setup(DIAMOND)
    load = named["x"]
    result: list[NonLocalDepResult] = []
    md.get_non_local_pointer_dependency(load, result)
    store = _by_text(named, "store i32 1")
    md.remove_instruction(store)
    store.erase_from_parent()
    md.get_non_local_pointer_dependency(load, result)
    by_block = {r.get_bb().name: r.get_result() for r in result}
    # %l is now transparent: its predecessor (entry) holds the store of 0.
    assert by_block["entry"] == MemDepResult.get_def(_by_text(named, "store i32 0"))
    assert by_block["r"].is_clobber()


def test_invariant_group_dominating_store() -> None:
    text = """
declare void @g()
define i32 @f(ptr %p, i1 %c) {
entry:
  store i32 1, ptr %p, !invariant.group !0
  br label %b
b:
  call void @g()
  %x = load i32, ptr %p, !invariant.group !0
  ret i32 %x
}
!0 = !{}
"""
    _, md, named = _setup(text)
    # The dominating store with the same invariant.group in another block: NonLocal, and
    # the non-local query returns it as a Def without scanning.
    assert md.get_dependency(named["x"]).is_non_local()
    result: list[NonLocalDepResult] = []
    md.get_non_local_pointer_dependency(named["x"], result)
    assert len(result) == 1 and result[0].get_result() == MemDepResult.get_def(_by_text(named, "store i32 1"))


def test_deep_cfg_does_not_overflow() -> None:
    # A chain of 3000 blocks above the load; the block-number limit (200) stops the walk.
    lines = ["define i32 @f(ptr %p) {", "b0:", "  store i32 0, ptr %p", "  br label %b1"]
    for i in range(1, 3000):
        lines += ["b%d:" % i, "  br label %%b%d" % (i + 1)]
    lines += ["b3000:", "  %x = load i32, ptr %p", "  ret i32 %x", "}"]
    _, md, named = _setup("\n".join(lines))
    result: list[NonLocalDepResult] = []
    md.get_non_local_pointer_dependency(named["x"], result)
    assert len(result) == 1 and result[0].get_result().is_unknown()


@pytest.fixture()
def small(tmp_path: Path) -> Path:
    path = tmp_path / "f.ll"
    path.write_text("define void @f(ptr %p) {\n  store i32 1, ptr %p\n  ret void\n}\n")
    return path


@pytest.mark.parametrize(
    "pipeline",
    [
        "require<memdep>,invalidate<domtree>,require<memdep>",
        "require<memdep>,invalidate<assumptions>,require<memdep>",
        "require<memdep>,invalidate<aa>,require<memdep>",
        "require<memdep>,require<phi-values>,invalidate<memdep>,print<phi-values>",
    ],
)
def test_analysis_log_as_opt(pipeline: str, small: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_tools("opt-19")
    args = ["-passes=" + pipeline, "-debug-pass-manager", "-disable-output", str(small)]
    ref = subprocess.run(["opt-19", *args], capture_output=True, text=True)
    assert main(args) == ref.returncode
    captured = capsys.readouterr()
    assert captured.out + captured.err == ref.stdout + ref.stderr


def test_capture_after_the_query_does_not_count() -> None:
    # EarliestEscapeInfo: %a escapes only after the load, so @g cannot see it when the
    # load's dependence is computed (a position-blind capture check would say Clobber).
    text = """
declare void @g()
declare void @esc(ptr)
define i32 @f() {
entry:
  %a = alloca i32
  store i32 1, ptr %a
  call void @g()
  %x = load i32, ptr %a
  call void @esc(ptr %a)
  ret i32 %x
}
"""
    _, md, named = _setup(text)
    assert md.get_dependency(named["x"]) == MemDepResult.get_def(_by_text(named, "store i32 1"))


def test_long_phi_translation_chain_does_not_overflow() -> None:
    # 3000 blocks, each translating the address through a phi into its predecessor: LLVM
    # recurses once per block; the answer is the store at the top.
    lines = ["define i32 @f(ptr %a) {", "b0:", "  store i32 7, ptr %a", "  br label %b1"]
    prev = "%a"
    for i in range(1, 3001):
        lines += ["b%d:" % i, "  %%p%d = phi ptr [ %s, %%b%d ]" % (i, prev, i - 1), "  br label %%b%d" % (i + 1)]
        prev = "%%p%d" % i
    lines += ["b3001:", "  %%x = load i32, ptr %s" % prev, "  ret i32 %x", "}"]
    _, md, named = _setup("\n".join(lines))
    result: list[NonLocalDepResult] = []
    md.get_non_local_pointer_dependency(named["x"], result)
    assert len(result) == 1
    assert result[0].get_bb().name == "b0"
    assert result[0].get_result() == MemDepResult.get_def(_by_text(named, "store i32 7"))
