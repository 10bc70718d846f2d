"""MemorySSA against opt-19: ``print<memoryssa>``, ``print<memoryssa><no-ensure-optimized-uses>``
and ``print<memoryssa-walker>`` on hand-written shapes and on csmith functions (as clang
writes them and after ``mem2reg``); the analysis log; and properties of the updater (after
removals the structure verifies, and equals a fresh build where LLVM guarantees it)."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

import pytest

import llvmpy_mid.passes.registry  # noqa: F401  (declares the pass options the analyses read)
from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.memory_ssa import MemoryDef, MemoryPhi, MemorySSA, MemorySSAAnalysis, MemoryUse
from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.cli import main
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from tests.oracles import csmith_cache_dir, require_tools

CASES: dict[str, str] = {
    "diamond": """
define i32 @f(ptr %p, ptr %q, i1 %c) {
entry:
  store i32 1, ptr %p
  br i1 %c, label %then, label %else
then:
  store i32 2, ptr %q
  br label %end
else:
  %v = load i32, ptr %p
  br label %end
end:
  %x = load i32, ptr %p
  ret i32 %x
}
""",
    "loop": """
declare void @g()
define void @f(ptr noalias %p, ptr noalias %q, i32 %n) {
entry:
  %a = alloca i32
  store i32 0, ptr %a
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %v = load i32, ptr %p
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %gep = getelementptr i32, ptr %q, i32 %i
  store i32 %v, ptr %gep
  %i1 = add i32 %i, 1
  br label %head
exit:
  call void @g()
  %w = load i32, ptr %a
  %y = load i32, ptr %q
  ret void
}
""",
    "unnamed_and_switch": """
define void @f(ptr %p, i32 %s) {
  store i32 1, ptr %p
  switch i32 %s, label %2 [ i32 0, label %1
                           i32 1, label %1
                           i32 2, label %3 ]
1:
  store i32 2, ptr %p
  br label %2
2:
  %x = load i32, ptr %p
  br label %3
3:
  fence seq_cst
  %y = load volatile i32, ptr %p
  %z = load atomic i32, ptr %p acquire, align 4
  ret void
}
""",
    "unreachable": """
define void @f(ptr %p) {
entry:
  store i32 1, ptr %p
  br label %join
dead:
  store i32 3, ptr %p
  br label %join
join:
  %x = load i32, ptr %p
  ret void
}
""",
    "calls_and_intrinsics": """
declare void @llvm.assume(i1)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare ptr @llvm.invariant.start.p0(i64, ptr)
declare i32 @pure(i32) readnone
declare i32 @reader(ptr) readonly
define i32 @f(ptr noalias %p, ptr noalias %q, i1 %c) {
entry:
  call void @llvm.assume(i1 %c)
  %t = call ptr @llvm.invariant.start.p0(i64 4, ptr %p)
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 8, i1 false)
  %a = call i32 @pure(i32 1)
  %b = call i32 @reader(ptr %q)
  %x = load i32, ptr %p, !invariant.load !0
  %y = load i32, ptr %q
  ret i32 %y
}
!0 = !{}
""",
    "nested_loops": """
define void @f(ptr %p, ptr %q, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i1, %olatch ]
  store i32 %i, ptr %p
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j1, %inner ]
  %v = load i32, ptr %q
  %gep = getelementptr i32, ptr %p, i32 %j
  store i32 %v, ptr %gep
  %j1 = add i32 %j, 1
  %cj = icmp slt i32 %j1, %n
  br i1 %cj, label %inner, label %olatch
olatch:
  %w = load i32, ptr %p
  %i1 = add i32 %i, 1
  %ci = icmp slt i32 %i1, %n
  br i1 %ci, label %outer, label %exit
exit:
  %z = load i32, ptr %q
  ret void
}
""",
    "eh_pads": """
declare i32 @__C_specific_handler(...)
declare i32 @callee()
declare zeroext i1 @g(ptr)
define void @f(ptr %this) personality ptr @__C_specific_handler {
entry:
  %s = alloca i8
  %c0 = call i32 @callee()
  br label %body
body:
  %c2 = invoke i32 @callee() to label %cont unwind label %dispatch
dispatch:
  %0 = catchswitch within none [label %except] unwind to caller
except:
  %1 = catchpad within %0 [ptr null]
  catchret from %1 to label %except3
except3:
  %ci = call zeroext i1 @g(ptr nonnull %s)
  br label %cont
cont:
  %c = call i32 @callee()
  %t = icmp eq i32 %c, 0
  br i1 %t, label %body, label %exit
exit:
  ret void
}
""",
    "invariant_group": """
declare void @clobber(ptr)
define i32 @f(ptr %p) {
entry:
  store i32 0, ptr %p, !invariant.group !0
  call void @clobber(ptr %p)
  %a = load i32, ptr %p, !invariant.group !0
  %b = load i32, ptr %p
  ret i32 %a
}
!0 = !{}
""",
}


def _run_opt(text: str, passes: str, tmp_path: Path, aa: str = "basic-aa") -> str:
    path = tmp_path / "in.ll"
    path.write_text(text)
    ref = subprocess.run(
        ["opt-19", "-aa-pipeline=" + aa, "-passes=" + passes, "-disable-output", str(path)],
        capture_output=True, text=True, check=True,
    )
    return ref.stderr


def _run_ours(text: str, passes: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], aa: str = "basic-aa") -> str:
    path = tmp_path / "in.ll"
    path.write_text(text)
    capsys.readouterr()
    assert main(["-aa-pipeline=" + aa, "-passes=" + passes, "-disable-output", str(path)]) == 0
    captured = capsys.readouterr()
    return captured.err


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize(
    "passes", ["print<memoryssa>", "print<memoryssa><no-ensure-optimized-uses>", "print<memoryssa-walker>"]
)
def test_printers_as_opt(case: str, passes: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_tools("opt-19")
    text = CASES[case]
    assert _run_ours(text, passes, tmp_path, capsys) == _run_opt(text, passes, tmp_path)


def test_analysis_log_as_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_tools("opt-19")
    path = tmp_path / "in.ll"
    path.write_text(CASES["diamond"])
    for pipeline in (
        "require<memoryssa>,invalidate<aa>,require<memoryssa>",
        "require<memoryssa>,invalidate<domtree>,require<memoryssa>",
        "require<memoryssa>,invalidate<memoryssa>,print<memoryssa>",
    ):
        args = ["-aa-pipeline=basic-aa", "-passes=" + pipeline, "-debug-pass-manager", "-disable-output", str(path)]
        ref = subprocess.run(["opt-19", *args], capture_output=True, text=True)
        capsys.readouterr()
        assert main(args) == ref.returncode
        captured = capsys.readouterr()
        assert captured.out + captured.err == ref.stdout + ref.stderr, pipeline


# --- csmith -------------------------------------------------------------------------------------


def _csmith_files(count: int) -> list[Path]:
    folder = csmith_cache_dir()
    if folder is None:
        pytest.skip("csmith corpus unavailable")
    files = sorted((folder / "w0").glob("s*.O0.ll"))[:count]
    if not files:
        pytest.skip("csmith corpus not generated")
    return files


@pytest.mark.parametrize("mem2reg", [False, True])
def test_csmith_as_opt(mem2reg: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``print<memoryssa>`` of every function of a few csmith programs."""
    require_tools("opt-19")
    for src in _csmith_files(4):
        text = src.read_text()
        if mem2reg:
            text = subprocess.run(["opt-19", "-passes=mem2reg", "-S", str(src)], capture_output=True, text=True, check=True).stdout
        expected = _run_opt(text, "print<memoryssa>", tmp_path, aa="default")
        got = _run_ours(text, "print<memoryssa>", tmp_path, capsys, aa="default")
        assert got == expected, src.name


# --- structure and the updater ------------------------------------------------------------------


def _build(text: str, name: str = "f") -> tuple[Module, Function, AnalysisManager[Function]]:
    module = parse_assembly(text)
    fn = module.get_function(name)
    assert fn is not None
    am: AnalysisManager[Function] = AnalysisManager()
    am.register(AAManager(("basic-aa",)))
    return module, fn, am


def _mssa(am: AnalysisManager[Function], fn: Function) -> MemorySSA:
    return am.get_result(MemorySSAAnalysis, fn).mssa


def _shape(mssa: MemorySSA) -> list[str]:
    """Each block's accesses by kind and what defines them (instructions named by position)."""
    pos: dict[object, str] = {}
    for k, bb in enumerate(mssa.function.blocks):
        for j, inst in enumerate(bb.instructions):
            pos[inst] = "%d.%d" % (k, j)
        pos[bb] = "b%d" % k

    def name(ma: object) -> str:
        if ma is mssa.live_on_entry:
            return "live"
        if isinstance(ma, MemoryPhi):
            return "phi@" + pos[ma.block]
        assert isinstance(ma, (MemoryDef, MemoryUse))
        return pos[ma.memory_inst]

    out: list[str] = []
    for bb in mssa.function.blocks:
        for ma in mssa.get_block_accesses(bb) or ():
            if isinstance(ma, MemoryPhi):
                out.append(name(ma) + "(" + ",".join(name(v) + "/" + pos[b] for v, b in zip(ma.incoming_values, ma.blocks)) + ")")
            else:
                assert isinstance(ma, (MemoryDef, MemoryUse))
                out.append(type(ma).__name__ + " " + name(ma) + " <- " + name(ma.get_defining_access()))
    return out


def test_build_verifies() -> None:
    for case in sorted(CASES):
        _, fn, am = _build(CASES[case])
        mssa = _mssa(am, fn)
        mssa.verify_memory_ssa()
        mssa.ensure_optimized_uses()
        mssa.verify_memory_ssa()


def test_ids_follow_llvm_numbering() -> None:
    _, fn, am = _build(CASES["diamond"])
    mssa = _mssa(am, fn)
    defs = [ma for bb in fn.blocks for ma in mssa.get_block_accesses(bb) or () if not isinstance(ma, MemoryUse)]
    assert mssa.live_on_entry.get_id() == 0
    # defs first in function order, then the phi
    assert [d.get_id() for d in defs] == [1, 2, 3]
    assert isinstance(defs[-1], MemoryPhi)


def test_walker_answers_and_caches() -> None:
    _, fn, am = _build(CASES["loop"])
    mssa = _mssa(am, fn)
    walker = mssa.get_walker()
    loads = [i for bb in fn.blocks for i in bb.instructions if i.opcode == "load"]
    # %v loads from noalias %p: nothing in the function writes %p, so liveOnEntry
    v = mssa.get_memory_access(loads[0])
    assert walker.get_clobbering_memory_access(v) is mssa.live_on_entry
    assert v.is_optimized() and v.get_optimized() is mssa.live_on_entry


def _random_removals(text: str, seed: int, count: int) -> None:
    """Removing the accesses of loads (and erasing the loads) gives the MemorySSA a fresh
    build gives: uses define nothing, so nothing else changes."""
    rng = random.Random(seed)
    _, fn, am = _build(text)
    mssa = _mssa(am, fn)
    updater = MemorySSAUpdater(mssa)
    loads = [i for bb in fn.blocks for i in bb.instructions if i.opcode == "load" and not i.has_uses]
    rng.shuffle(loads)
    for load in loads[:count]:
        updater.remove_memory_access(load, True)
        load.erase_from_parent()
        mssa.verify_memory_ssa()
    _, fn2, am2 = _build(str(fn.parent))
    assert _shape(mssa) == _shape(_mssa(am2, fn2))


@pytest.mark.parametrize("seed", range(4))
def test_removing_uses_equals_fresh_build(seed: int) -> None:
    for case in ("diamond", "loop", "nested_loops", "unnamed_and_switch"):
        _random_removals(CASES[case], seed, 3)


@pytest.mark.parametrize("seed", range(6))
def test_removing_stores_verifies(seed: int) -> None:
    """Removing stores keeps the structure valid (phis may stay: LLVM does not promise a
    minimal form after removals), and every remaining use/def is defined by an access that
    dominates it."""
    rng = random.Random(seed)
    for case in ("diamond", "loop", "nested_loops", "unnamed_and_switch", "unreachable"):
        _, fn, am = _build(CASES[case])
        mssa = _mssa(am, fn)
        if rng.random() < 0.5:
            mssa.ensure_optimized_uses()
        updater = MemorySSAUpdater(mssa)
        stores = [i for bb in fn.blocks for i in bb.instructions if i.opcode == "store"]
        rng.shuffle(stores)
        for store in stores[: rng.randint(1, len(stores))]:
            updater.remove_memory_access(store, rng.random() < 0.5)
            store.erase_from_parent()
            mssa.verify_memory_ssa()
            for bb in fn.blocks:
                for ma in mssa.get_block_accesses(bb) or ():
                    if isinstance(ma, (MemoryDef, MemoryUse)) and mssa.dt.is_reachable(bb):
                        d = ma.get_defining_access()
                        assert d is not None and mssa.dominates(d, ma)


def test_insert_def_matches_fresh_build() -> None:
    """A store created after an existing one and inserted with renaming gives what a fresh
    build of the edited function gives."""
    from llvmpy_mid.ir.builder import IRBuilder

    for case in ("diamond", "loop", "nested_loops"):
        _, fn, am = _build(CASES[case])
        mssa = _mssa(am, fn)
        updater = MemorySSAUpdater(mssa)
        stores = [i for bb in fn.blocks for i in bb.instructions if i.opcode == "store"]
        for store in stores:
            builder = IRBuilder(before=store.next_instruction)
            new = builder.store(store.operands[0], store.operands[1])
            access = updater.create_memory_access_after(new, None, mssa.get_memory_access(store))
            assert isinstance(access, MemoryDef)
            updater.insert_def(access, True)
            mssa.verify_memory_ssa()
        _, fn2, am2 = _build(str(fn.parent))
        assert _shape(mssa) == _shape(_mssa(am2, fn2)), case


@pytest.mark.parametrize("seed", range(8))
def test_edge_insertion_keeps_structure(seed: int) -> None:
    """An unconditional branch becomes conditional with a new edge (to a block without IR
    phis), or is retargeted (an edge deleted and one inserted); after the dominator tree
    and ``apply_updates`` the structure verifies fully (each phi incoming is the last def
    dominating its block) and defs dominate uses."""
    from llvmpy_mid.ir.builder import IRBuilder

    rng = random.Random(seed)
    for case in ("diamond", "loop", "nested_loops", "unnamed_and_switch"):
        _, fn, am = _build(CASES[case])
        mssa = _mssa(am, fn)
        if rng.random() < 0.5:
            mssa.ensure_optimized_uses()
        blocks = list(fn.blocks)
        sources = [b for b in blocks if b.terminator is not None and b.terminator.opcode == "br" and len(b.successors) == 1]
        targets = [b for b in blocks[1:] if b.instructions.first is not None and b.instructions.first.opcode != "phi"]
        if not sources or not targets:
            continue
        src = rng.choice(sources)
        dst = rng.choice(targets)
        old = src.terminator
        assert old is not None
        keep = old.successors[0]
        if keep is dst:  # not a new edge (LLVM's updates are for new edges only)
            continue
        cond = next((a for a in fn.args if a.type.is_integer and a.type.width == 1), None)
        if cond is None:
            continue
        retarget = rng.random() < 0.5 and (keep.instructions.first is None or keep.instructions.first.opcode != "phi")
        updates = [("insert", src, dst)]
        if retarget:  # the branch now goes to dst only: one edge deleted, one inserted
            IRBuilder(before=old).br(dst)
            updates.append(("delete", src, keep))
        else:
            IRBuilder(before=old).cond_br(cond, keep, dst)
        old.erase_from_parent()
        dt = mssa.dt
        MemorySSAUpdater(mssa).apply_updates(updates, dt, update_dt=True)
        assert dt.verify()
        mssa.verify_memory_ssa()
        for bb in fn.blocks:
            for ma in mssa.get_block_accesses(bb) or ():
                if isinstance(ma, (MemoryDef, MemoryUse)) and dt.is_reachable(bb):
                    d = ma.get_defining_access()
                    assert d is not None and mssa.dominates(d, ma), case


def test_csmith_walker_as_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``print<memoryssa-walker>`` (every def and use's clobber) of the smallest csmith programs."""
    require_tools("opt-19")
    files = sorted(_csmith_files(40), key=lambda p: p.stat().st_size)[:2]
    for src in files:
        text = src.read_text()
        expected = _run_opt(text, "print<memoryssa-walker>", tmp_path, aa="default")
        assert _run_ours(text, "print<memoryssa-walker>", tmp_path, capsys, aa="default") == expected, src.name


def test_dot_cfg_mssa_as_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``-dot-cfg-mssa=FILE``: the same graph as opt-19 but for the node addresses."""
    import re

    require_tools("opt-19")
    path = tmp_path / "in.ll"
    path.write_text(CASES["unnamed_and_switch"] + CASES["nested_loops"].replace("@f(", "@g("))
    theirs = tmp_path / "theirs.dot"
    ours = tmp_path / "ours.dot"
    ref = subprocess.run(
        ["opt-19", "-passes=print<memoryssa>", "-dot-cfg-mssa=" + str(theirs), "-disable-output", str(path)],
        capture_output=True, text=True, check=True,
    )
    capsys.readouterr()
    assert main(["-passes=print<memoryssa>", "-dot-cfg-mssa=" + str(ours), "-disable-output", str(path)]) == 0
    err = capsys.readouterr().err
    assert err == ref.stderr.replace(str(theirs), str(ours))

    def strip(text: str) -> str:
        return re.sub(r"Node0x[0-9a-f]+", "N", text)

    assert strip(ours.read_text()) == strip(theirs.read_text())


def test_cloned_block_into_pred() -> None:
    """``join``'s body cloned into its predecessor ``a`` (before ``a``'s branch): the clones'
    accesses are defined through the phi's incoming value from ``a`` (LLVM
    ``updateForClonedBlockIntoPred``)."""
    text = """
define void @f(ptr noalias %p, ptr noalias %q, ptr noalias %r, i1 %c) {
entry:
  store i32 0, ptr %p
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr %q
  br label %join
b:
  br label %join
join:
  %x = load i32, ptr %p
  store i32 %x, ptr %r
  ret void
}
"""
    _, fn, am = _build(text)
    mssa = _mssa(am, fn)
    blocks = {bb.name: bb for bb in fn.blocks}
    a, join = blocks["a"], blocks["join"]
    term = a.terminator
    assert term is not None
    vmap: dict[object, object] = {}
    for inst in list(join.instructions)[:-1]:
        copy = inst.clone()
        copy.insert_before(term)
        vmap[inst] = copy
    for copy in vmap.values():
        from llvmpy_mid.ir.cloning import remap_instruction

        remap_instruction(copy, vmap)  # type: ignore[arg-type]
    MemorySSAUpdater(mssa).update_for_cloned_block_into_pred(join, a, vmap)  # type: ignore[arg-type]
    store_q = mssa.get_memory_access(list(a.instructions)[0])
    load_clone = mssa.get_memory_access(list(a.instructions)[1])
    store_clone = mssa.get_memory_access(list(a.instructions)[2])
    assert isinstance(load_clone, MemoryUse) and load_clone.get_defining_access() is store_q
    assert isinstance(store_clone, MemoryDef) and store_clone.get_defining_access() is store_q
    assert mssa.get_block_accesses(a) == [store_q, load_clone, store_clone]
