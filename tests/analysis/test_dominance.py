"""Tests for the dominance analyses and printers (llvmpy_mid.analysis.dominance_frontier,
llvmpy_mid.analysis.dominator_printers): ``print<domtree>``, ``print<postdomtree>`` and
``print<domfrontier>`` against opt-19 byte for byte (hand-written CFGs, LLVM's Dominators and
PostDominators tests, seeded random CFGs, csmith programs), LLVM's DFS-number state as opt shows
it after passes, and dominators, post-dominators, frontiers and iterated frontiers against their
definitions on random CFGs (hypothesis).

opt-19 lists frontiers in the order of a pointer-keyed hash map (it changes from run to run), so
frontier text is compared per function as the header plus the sorted set of lines; each line (a
block's frontier in LLVM's insertion order) must match exactly."""

from __future__ import annotations

import contextlib
import io
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from csmith_files import csmith_paths
from hypothesis import given, settings
from hypothesis import strategies as st

import llvmpy_mid
from llvmpy_mid.analysis.dominance_frontier import (
    DominanceFrontier,
    DominanceFrontierAnalysis,
    IDFCalculator,
    iterated_dominance_frontier,
)
from llvmpy_mid.analysis.dominator_printers import (
    DominatorTreePrinterPass,
    format_dominance_frontier,
    format_dominator_tree,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.run import run_passes
from oracles import LLVM_TEST_ROOT  # noqa: E402

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")
REPO = Path(__file__).resolve().parents[2]
ANALYSIS_TESTS = LLVM_TEST_ROOT / "Analysis"
PRINTERS = ("print<domtree>", "print<postdomtree>", "print<domfrontier>")


# --- helpers -------------------------------------------------------------------------------------


def opt_output(pipeline: str, text: str) -> str:
    """What opt-19 writes to stderr for ``pipeline`` on ``text`` (warnings dropped)."""
    assert OPT is not None
    r = subprocess.run(
        [OPT, "-passes=" + pipeline, "-disable-output", "-"], input=text.encode(), capture_output=True
    )
    assert r.returncode == 0, r.stderr.decode()
    out = r.stderr.decode("utf-8", "surrogateescape")
    return "".join(line for line in out.splitlines(keepends=True) if not line.startswith("warning: "))


def ours(printer: str, module: Module) -> str:
    parts: list[str] = []
    for fn in module.functions:
        if fn.is_declaration:
            continue
        if printer == "print<domtree>":
            parts.append(format_dominator_tree(DominatorTree(fn)))
        elif printer == "print<postdomtree>":
            parts.append(format_dominator_tree(DominatorTree(fn, post=True)))
        else:
            parts.append(format_dominance_frontier(DominanceFrontier(DominatorTree(fn))))
    return "".join(parts)


def frontier_key(text: str) -> list[tuple[str, list[str]]]:
    """Per function: the header and the sorted frontier lines."""
    groups: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("DominanceFrontier for function: "):
            groups.append((line, []))
        else:
            assert groups, line
            groups[-1][1].append(line)
    return [(h, sorted(lines)) for h, lines in groups]


def check_printer(printer: str, text: str, expected: str | None = None) -> None:
    if expected is None:
        expected = opt_output(printer, text)
    got = ours(printer, llvmpy_mid.parse_assembly(text))
    if printer == "print<domfrontier>":
        assert frontier_key(got) == frontier_key(expected)
    else:
        assert got == expected


def check_all_printers(text: str) -> None:
    for printer in PRINTERS:
        check_printer(printer, text)


def block(fn: Function, name: str) -> BasicBlock:
    for bb in fn.blocks:
        if bb.name == name:
            return bb
    raise KeyError(name)


def only_fn(text: str) -> Function:
    fns = [f for f in llvmpy_mid.parse_assembly(text).functions if not f.is_declaration]
    assert len(fns) == 1
    return fns[0]


# --- hand-written CFGs against opt-19 -------------------------------------------------------------

HAND_WRITTEN: dict[str, str] = {
    "diamond_and_loop": """
define void @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  br label %join
b:
  br label %join
join:
  br i1 %c, label %loop, label %exit
loop:
  br i1 %c, label %loop, label %join
exit:
  ret void
}
""",
    "irreducible": """
define void @f(i1 %c) {
entry:
  br i1 %c, label %x, label %y
x:
  br i1 %c, label %y, label %out
y:
  br i1 %c, label %x, label %out
out:
  ret void
}
""",
    "infinite_loops": """
define void @f(i1 %c) {
entry:
  br i1 %c, label %spin, label %other
spin:
  br label %spin
other:
  br i1 %c, label %ring1, label %done
ring1:
  br label %ring2
ring2:
  br i1 %c, label %ring1, label %ring3
ring3:
  br label %ring2
done:
  ret void
}
define void @g() {
entry:
  br label %l
l:
  br label %l
}
""",
    "unreachable_blocks": """
define i32 @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
dead1:
  br label %a
a:
  br label %b
dead2:
  br i1 %c, label %dead1, label %dead3
b:
  ret i32 0
dead3:
  unreachable
}
""",
    "multiple_exits": """
define i32 @f(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %r1, label %next
next:
  %d = icmp eq i32 %x, 1
  br i1 %d, label %r2, label %trap
r1:
  ret i32 1
r2:
  ret i32 2
trap:
  unreachable
}
""",
    "switch_duplicates": """
define void @f(i32 %x) {
entry:
  switch i32 %x, label %d [ i32 0, label %a
                            i32 1, label %a
                            i32 2, label %b
                            i32 3, label %d ]
a:
  br label %b
b:
  switch i32 %x, label %entry2 [ i32 7, label %b ]
d:
  br label %entry2
entry2:
  ret void
}
""",
    "invoke": """
declare i32 @g()
declare i32 @__gxx_personality_v0(...)
define i32 @f(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %try, label %join
try:
  %v = invoke i32 @g() to label %cont unwind label %lpad
cont:
  %w = invoke i32 @g() to label %join unwind label %lpad
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  br label %join
join:
  ret i32 0
}
""",
    "callbr": """
define i32 @f(i1 %c) {
entry:
  %r = callbr i32 asm "", "=r,!i,!i"() to label %fall [label %ind1, label %ind2]
fall:
  br i1 %c, label %ind1, label %end
ind1:
  br label %end
ind2:
  br label %ind1
end:
  ret i32 0
}
""",
    "unnamed_blocks_and_quoted_names": """
define void @"odd name"(i1 %c, i32) {
  %x = add i32 %0, 1
  br i1 %c, label %"a b", label %4
"a b":
  br label %4
4:
  %y = add i32 %x, 1
  br label %5
5:
  br i1 %c, label %5, label %"a b2"
"a b2":
  ret void
}
""",
    "indirectbr_and_self_loops": """
define void @f(ptr %p, i1 %c) {
entry:
  indirectbr ptr %p, [label %a, label %b, label %a]
a:
  br i1 %c, label %a, label %b
b:
  br i1 %c, label %entry.x, label %a
entry.x:
  ret void
}
""",
    "single_block": """
define void @f() {
  ret void
}
""",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(HAND_WRITTEN))
def test_hand_written_matches_opt(name: str) -> None:
    check_all_printers(HAND_WRITTEN[name])


# --- LLVM's own tests and csmith programs ---------------------------------------------------------


def _conformance_files() -> list[Path]:
    files: list[Path] = []
    for folder in ("Dominators", "PostDominators"):
        files.extend(sorted((ANALYSIS_TESTS / folder).glob("*.ll")))
    return files


@needs_opt
def test_conformance_files_match_opt() -> None:
    files = _conformance_files()
    if not files:
        pytest.skip("LLVM's Analysis tests are not present")
    for path in files:
        check_all_printers(path.read_text())


def _compare_csmith(files: list[Path]) -> None:
    for path in files:
        text = path.read_text()
        for printer in PRINTERS:
            check_printer(printer, text)


@pytest.mark.slow
@needs_opt
def test_csmith_sample_matches_opt() -> None:
    files = csmith_paths()
    if not files:
        pytest.skip("csmith corpus unavailable")
    _compare_csmith(random.Random(7).sample(files, min(12, len(files))))


@pytest.mark.slow
@needs_opt
def test_csmith_all_match_opt() -> None:
    files = csmith_paths()
    if not files:
        pytest.skip("csmith corpus unavailable")
    _compare_csmith(files)


def _pipeline_output(module: Module, pipeline: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stderr(buf):
        run_passes(module, pipeline)
    return buf.getvalue()


@pytest.mark.slow
@needs_opt
def test_csmith_dfs_state_after_lcssa_matches_opt() -> None:
    """The slow-query counts and DFS numbers opt shows after passes that query the tree."""
    files = csmith_paths()
    if not files:
        pytest.skip("csmith corpus unavailable")
    pipeline = "loop-simplify,lcssa,print<domtree>"
    for path in files:
        text = path.read_text()
        assert _pipeline_output(llvmpy_mid.parse_assembly(text), pipeline) == opt_output(pipeline, text)


# --- random CFGs ------------------------------------------------------------------------------------

Cfg = list[list[int]]  # successors of block i, as written in its terminator


def cfg_text(name: str, cfg: Cfg) -> str:
    """A function whose block i branches to cfg[i] (ret / br / br i1 / switch)."""
    lines = ["define void @%s(i1 %%c, i32 %%x) {" % name]
    for i, succs in enumerate(cfg):
        lines.append("b%d:" % i)
        if not succs:
            lines.append("  ret void")
        elif len(succs) == 1:
            lines.append("  br label %%b%d" % succs[0])
        elif len(succs) == 2:
            lines.append("  br i1 %%c, label %%b%d, label %%b%d" % (succs[0], succs[1]))
        else:
            cases = " ".join("i32 %d, label %%b%d" % (k, s) for k, s in enumerate(succs[1:]))
            lines.append("  switch i32 %%x, label %%b%d [ %s ]" % (succs[0], cases))
    lines.append("}")
    return "\n".join(lines) + "\n"


def random_cfg(rng: random.Random, n: int) -> Cfg:
    # No edge into the entry: the verifier (and opt-19) reject that.
    return [
        [rng.randrange(1, n) for _ in range(rng.choice((0, 1, 1, 2, 2, 2, 3)))] if n > 1 else [] for _ in range(n)
    ]


@needs_opt
def test_seeded_random_cfgs_match_opt() -> None:
    rng = random.Random(4321)
    text = "".join(cfg_text("f%d" % i, random_cfg(rng, rng.randint(1, 16))) for i in range(250))
    check_all_printers(text)


cfg_strategy = st.integers(min_value=2, max_value=10).flatmap(
    lambda n: st.lists(
        st.lists(st.integers(min_value=1, max_value=n - 1), min_size=0, max_size=3), min_size=n, max_size=n
    )
)


def reach_from(starts: list[int], edges: Cfg, removed: int = -1) -> set[int]:
    seen: set[int] = set()
    work = [s for s in starts if s != removed]
    while work:
        b = work.pop()
        if b in seen:
            continue
        seen.add(b)
        work.extend(s for s in edges[b] if s != removed and s not in seen)
    return seen


def reverse(cfg: Cfg) -> Cfg:
    rev: Cfg = [[] for _ in cfg]
    for b, succs in enumerate(cfg):
        for s in succs:
            rev[s].append(b)
    return rev


def brute_dominance(edges: Cfg, starts: list[int]) -> dict[int, set[int]]:
    """dom[b] = blocks b dominates: c is reachable from ``starts`` but not with b removed."""
    reach = reach_from(starts, edges)
    return {b: {c for c in reach if c == b or c not in reach_from(starts, edges, b)} for b in reach}


def brute_frontiers(edges: Cfg, dom: dict[int, set[int]]) -> dict[int, set[int]]:
    """DF(b) = {y : b dominates a predecessor of y, b does not strictly dominate y}."""
    preds = reverse(edges)
    return {
        b: {y for y in dom if any(p in dom[b] for p in preds[y]) and not (y in dom[b] and y != b)} for b in dom
    }


def brute_idf(df: dict[int, set[int]], defs: set[int], live: set[int] | None) -> set[int]:
    result: set[int] = set()
    while True:
        nxt: set[int] = set()
        for b in defs | result:
            nxt |= df.get(b, set())
        if live is not None:
            nxt &= live
        if nxt == result:
            return result
        result = nxt


def build(cfg: Cfg) -> tuple[Function, list[BasicBlock]]:
    fn = only_fn(cfg_text("f", cfg))
    blocks = list(fn.blocks)
    return fn, blocks


@settings(max_examples=60, deadline=None)
@given(cfg_strategy)
def test_dominators_match_path_removal(cfg: Cfg) -> None:
    fn, blocks = build(cfg)
    dt = DominatorTree(fn)
    dom = brute_dominance(cfg, [0])
    assert {blocks.index(bb) for bb in dt} == set(dom)
    for b in dom:
        for c in dom:
            assert dt.dominates_block(blocks[b], blocks[c]) == (c in dom[b])


@settings(max_examples=60, deadline=None)
@given(cfg_strategy)
def test_post_dominators_match_reverse_path_removal(cfg: Cfg) -> None:
    fn, blocks = build(cfg)
    pdt = DominatorTree(fn, post=True)
    roots = [blocks.index(bb) for bb in pdt.roots]
    exits = {b for b, s in enumerate(cfg) if not s}
    assert exits <= set(roots)
    if all(reach_from([b], cfg) & exits for b in range(len(cfg))):
        assert set(roots) == exits  # without infinite loops the roots are the exits
    pdom = brute_dominance(reverse(cfg), roots)
    assert set(pdom) == set(range(len(cfg)))  # every block is in the post-dominator tree
    for b in pdom:
        for c in pdom:
            assert pdt.dominates_block(blocks[b], blocks[c]) == (c in pdom[b])


@settings(max_examples=60, deadline=None)
@given(cfg_strategy, st.data())
def test_frontiers_and_idf_match_definition(cfg: Cfg, data: st.DataObject) -> None:
    fn, blocks = build(cfg)
    for post in (False, True):
        dt = DominatorTree(fn, post=post)
        edges = reverse(cfg) if post else cfg
        starts = [blocks.index(bb) for bb in dt.roots]
        dom = brute_dominance(edges, starts)
        expected = brute_frontiers(edges, dom)
        df = DominanceFrontier(dt)
        for b in dom:
            got = df.frontier(blocks[b])
            assert len(got) == len(set(got))
            assert {blocks.index(y) for y in got} == expected[b]
        idf = IDFCalculator(dt)
        for _ in range(3):
            defs = set(data.draw(st.lists(st.sampled_from(sorted(dom)), max_size=4)))
            live = None
            if data.draw(st.booleans()):
                live = set(data.draw(st.lists(st.sampled_from(sorted(dom)), max_size=len(dom))))
            want = brute_idf(expected, defs, live)
            def_blocks = [blocks[b] for b in defs]
            got_idf = idf.calculate(def_blocks, None if live is None else [blocks[b] for b in live])
            assert [blocks.index(bb) for bb in got_idf] == sorted(want)
            if live is None:
                assert iterated_dominance_frontier(dt, def_blocks) == got_idf
                assert df.iterated(def_blocks) == got_idf


# --- LLVM's DFS-number state as opt prints it -------------------------------------------------------

MEM2REG_INPUT = """
define i32 @f(i1 %c) {
entry:
  %p = alloca i32
  store i32 0, ptr %p
  br i1 %c, label %then, label %else
then:
  store i32 1, ptr %p
  br label %join
else:
  br i1 %c, label %deep, label %join
deep:
  store i32 2, ptr %p
  br label %join
join:
  %v = load i32, ptr %p
  br i1 %c, label %entry2, label %exit
entry2:
  br label %exit
exit:
  ret i32 %v
}
"""


@needs_opt
def test_idf_numbers_the_tree_as_mem2reg_shows() -> None:
    """LLVM's IDF calculation numbers the tree: after mem2reg (which only needs the IDF here, the
    CFG is unchanged) opt prints valid DFS numbers; ours after an IDF query print the same."""
    expected = opt_output("mem2reg,print<domtree>", MEM2REG_INPUT)
    assert "DFSNumbers invalid" not in expected
    fn = only_fn(MEM2REG_INPUT)
    dt = DominatorTree(fn)
    assert "DFSNumbers invalid: 0 slow queries." in format_dominator_tree(dt)
    assert [bb.name for bb in iterated_dominance_frontier(dt, [block(fn, n) for n in ("entry", "then", "deep")])] == [
        "join"
    ]
    assert format_dominator_tree(dt) == expected


LCSSA_INPUT = """
define i32 @f(i1 %c, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner.latch ]
  %a = add i32 %i, %j
  br i1 %c, label %inner.a, label %inner.b
inner.a:
  br label %inner.latch
inner.b:
  br label %inner.latch
inner.latch:
  %j.next = add i32 %j, 1
  %cj = icmp slt i32 %j.next, %n
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %i.next = add i32 %i, %a
  %ci = icmp slt i32 %i.next, %n
  br i1 %ci, label %outer, label %exit
exit:
  %r = add i32 %a, %i.next
  ret i32 %r
}
"""


@needs_opt
def test_slow_query_count_after_lcssa_matches_opt() -> None:
    pipeline = "lcssa,print<domtree>"
    expected = opt_output(pipeline, LCSSA_INPUT)
    assert "DFSNumbers invalid: 0 slow" not in expected  # opt's lcssa made slow queries
    assert _pipeline_output(llvmpy_mid.parse_assembly(LCSSA_INPUT), pipeline) == expected


def test_slow_queries_counted_as_llvm_counts_them() -> None:
    """Queries answered by the idom/level shortcuts are free; the 33rd slow one numbers the tree;
    an update forgets the numbers again (nodes keep the numbers they had)."""
    n = 8
    text = "define void @f() {\n" + "".join("b%d:\n  br label %%b%d\n" % (i, i + 1) for i in range(n)) + "b%d:\n  ret void\n}\n" % n
    fn = only_fn(text)
    dt = DominatorTree(fn)
    bbs = list(fn.blocks)
    assert dt.dominates(bbs[0], bbs[1]) and not dt.dominates(bbs[3], bbs[1])  # shortcuts
    assert dt.slow_queries == 0 and not dt.dfs_info_valid
    assert dt.dominates(bbs[0], bbs[5])
    assert dt.slow_queries == 1
    assert "DFSNumbers invalid: 1 slow queries.\n" in format_dominator_tree(dt)
    for _ in range(32):
        dt.dominates(bbs[1], bbs[6])
    assert dt.dfs_info_valid and dt.slow_queries == 0
    text_valid = format_dominator_tree(dt)
    assert "Inorder Dominator Tree: \n  [1] %b0 {0," in text_valid
    new = BasicBlock(fn.type.context, "extra", parent=fn)
    dt.add_new_block(new, bbs[2])
    assert not dt.dfs_info_valid
    assert dt.printed_dfs_numbers(new) == (-1, -1)
    assert dt.printed_dfs_numbers(bbs[0])[0] == 0


# --- pass-manager glue and the command line --------------------------------------------------------


def test_analysis_cached_and_invalidated_with_cfg() -> None:
    fn = only_fn(HAND_WRITTEN["diamond_and_loop"])
    am: AnalysisManager[Function] = AnalysisManager()
    df = am.get_result(DominanceFrontierAnalysis, fn)
    assert df is am.get_result(DominanceFrontierAnalysis, fn)
    assert df.dt is am.get_result(DominatorTreeAnalysis, fn)
    assert [bb.name for bb in df.frontier(block(fn, "loop"))] == ["loop", "join"]
    pa = PreservedAnalyses.none()
    pa.preserve_set(CFGAnalyses)
    am.invalidate(fn, pa)
    assert am.get_result(DominanceFrontierAnalysis, fn) is df
    am.invalidate(fn, PreservedAnalyses.none())
    assert am.get_result(DominanceFrontierAnalysis, fn) is not df


def test_printer_pass_writes_stream() -> None:
    fn = only_fn(HAND_WRITTEN["single_block"])
    buf = io.StringIO()
    am: AnalysisManager[Function] = AnalysisManager()
    assert DominatorTreePrinterPass(buf).run(fn, am).are_all_preserved()
    assert buf.getvalue().startswith("DominatorTree for function: f\n")


@needs_opt
def test_cli_matches_opt_with_pass_manager_log(tmp_path: Path) -> None:
    path = tmp_path / "in.ll"
    path.write_text(HAND_WRITTEN["diamond_and_loop"] + HAND_WRITTEN["unreachable_blocks"].replace("@f", "@h"))
    pipeline = "print<domtree>,print<postdomtree>,require<domfrontier>"
    args = ["-debug-pass-manager", "-passes=" + pipeline, "-disable-output", str(path)]
    assert OPT is not None
    expected = subprocess.run([OPT, *args], capture_output=True, text=True)
    got = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], capture_output=True, text=True)
    assert got.returncode == 0

    def split(text: str) -> tuple[list[str], list[str]]:
        lines = text.splitlines()
        log = [line for line in lines if line.startswith("Running ")]
        return log, [line for line in lines if not line.startswith("Running ")]

    # The log and the printed text are compared apart: opt interleaves its two streams differently.
    assert split(got.stderr) == split(expected.stderr)


def test_deep_cfg_no_recursion() -> None:
    n = 12000
    lines = ["define void @f(i1 %c) {"]
    for i in range(n):
        lines.append("b%d:\n  br i1 %%c, label %%b%d, label %%b%d" % (i, i + 1, max(i - 1, 1) if i else 1))
    lines.append("b%d:\n  ret void\n}" % n)
    fn = only_fn("\n".join(lines) + "\n")
    dt = DominatorTree(fn)
    df = DominanceFrontier(dt)
    assert len(df) == n + 1
    last = list(fn.blocks)[-2]
    assert [bb.name for bb in iterated_dominance_frontier(dt, [last])][:2] == ["b1", "b2"]
    pdt = DominatorTree(fn, post=True)
    assert len(DominanceFrontier(pdt)) == n + 1


@pytest.mark.skipif(shutil.which("FileCheck-19") is None, reason="FileCheck-19 not installed")
@pytest.mark.parametrize("name", ["infinite-loop.ll", "infinite-loop2.ll", "pr6047_a.ll", "pr6047_b.ll"])
def test_postdominators_checks_with_text_output(name: str) -> None:
    """LLVM's PostDominators tests pipe opt's bitcode output with the printer's text into FileCheck;
    llvmpy-opt writes no bitcode, so the runner lists them as unsupported (bitcode). Their CHECK
    lines are checked here with the module output turned off instead."""
    path = ANALYSIS_TESTS / "PostDominators" / name
    if not path.exists():
        pytest.skip("LLVM's Analysis tests are not present")
    ours = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", "-passes=print<postdomtree>", "-disable-output", str(path)],
        capture_output=True, text=True,
    )
    assert ours.returncode == 0
    check = subprocess.run(["FileCheck-19", str(path)], input=ours.stderr, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
