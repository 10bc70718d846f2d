"""Tests for llvmpy_mid.analysis.region_info: ``print<regions>`` text compared byte for byte
with opt-19 in the three ``-print-region-style`` styles (hand-written CFGs, seeded random
CFGs, csmith output), the single-entry single-exit definition and the tree shape on random
CFGs (hypothesis), the query API against its definitions, and the pass-manager glue."""

from __future__ import annotations

import io
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
from llvmpy_mid.analysis.region_info import (
    Region,
    RegionInfo,
    RegionInfoAnalysis,
    RegionInfoPrinterPass,
    format_region_info,
)
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")
STYLES = ("none", "bb", "rn")


# --- helpers -------------------------------------------------------------------------------------


def opt_regions(path_or_text: str | Path, style: str) -> str | None:
    """opt-19's print<regions> text (warnings dropped), or None if opt rejects the input."""
    assert OPT is not None
    args = [OPT, "-passes=print<regions>", "-print-region-style=" + style, "-disable-output"]
    if isinstance(path_or_text, Path):
        r = subprocess.run([*args, str(path_or_text)], capture_output=True)
    else:
        r = subprocess.run([*args, "-"], input=path_or_text.encode(), capture_output=True)
    if r.returncode != 0:
        return None
    text = r.stderr.decode("utf-8", "surrogateescape")
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("warning: "))


def our_regions(module: Module, style: str) -> str:
    return "".join(
        "Region Tree for function: %s\n" % fn.name + format_region_info(RegionInfo(fn), style)
        for fn in module.functions
        if not fn.is_declaration
    )


def check_against_opt(text: str) -> None:
    module = llvmpy_mid.parse_assembly(text)
    for style in STYLES:
        expected = opt_regions(text, style)
        assert expected is not None
        assert our_regions(module, style) == expected, style


def only_fn(text: str) -> Function:
    fns = [f for f in llvmpy_mid.parse_assembly(text).functions if not f.is_declaration]
    assert len(fns) == 1
    return fns[0]


def block(fn: Function, name: str) -> BasicBlock:
    for bb in fn.blocks:
        if bb.name == name:
            return bb
    raise KeyError(name)


def names(ri: RegionInfo) -> list[tuple[int, str]]:
    return [(r.depth, r.name_str()) for r in ri.regions()]


# --- hand-written CFGs against opt-19 ---------------------------------------------------------------

HAND_WRITTEN: dict[str, str] = {
    "straight_line": """
define void @straight_line() {
entry:
  br label %a
a:
  br label %b
b:
  ret void
}
""",
    "diamond": """
define void @diamond(i1 %c) {
entry:
  br i1 %c, label %l, label %r
l:
  br label %m
r:
  br label %m
m:
  ret void
}
""",
    "diamonds_in_sequence": """
define void @diamonds_in_sequence(i1 %c) {
entry:
  br i1 %c, label %l1, label %r1
l1:
  br label %m1
r1:
  br label %m1
m1:
  br i1 %c, label %l2, label %r2
l2:
  br label %m2
r2:
  br label %m2
m2:
  br i1 %c, label %m3, label %r3
r3:
  br label %m3
m3:
  ret void
}
""",
    "nested_ifs": """
define void @nested_ifs(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br i1 %d, label %a1, label %a2
a1:
  br i1 %d, label %a11, label %a1m
a11:
  br label %a1m
a1m:
  br label %am
a2:
  br label %am
am:
  br label %m
b:
  br label %m
m:
  br label %0
0:
  ret void
}
""",
    "loops": """
define void @loops(i1 %c, i1 %d) {
entry:
  br label %outer
outer:
  br label %inner
inner:
  br i1 %d, label %inner, label %latch
latch:
  br i1 %c, label %outer, label %exit
exit:
  br label %do
do:
  br i1 %c, label %body, label %done
body:
  br i1 %d, label %cont, label %do
cont:
  br label %do
done:
  ret void
}
""",
    "multiple_exits": """
define i32 @multiple_exits(i1 %c, i1 %d) {
entry:
  br label %h
h:
  br i1 %c, label %b1, label %ret1
b1:
  br i1 %d, label %b2, label %ret2
b2:
  br i1 %c, label %h, label %ret3
ret1:
  ret i32 1
ret2:
  ret i32 2
ret3:
  br label %ret2
}
""",
    "irreducible": """
define void @irreducible(i1 %c, i1 %d) {
entry:
  br i1 %c, label %x, label %y
x:
  br i1 %d, label %y, label %out
y:
  br i1 %d, label %x, label %out
out:
  br i1 %c, label %p, label %q
p:
  br i1 %d, label %q, label %end
q:
  br i1 %d, label %p, label %end
end:
  ret void
}
""",
    "unreachable_blocks": """
define void @unreachable_blocks(i1 %c) {
entry:
  br i1 %c, label %a, label %b
dead:
  br i1 %c, label %a, label %m
a:
  br label %m
b:
  br label %m
m:
  ret void
dead2:
  br label %dead
}
""",
    "switch": """
define void @switch(i32 %x) {
entry:
  switch i32 %x, label %d [ i32 0, label %c0
                            i32 1, label %c1
                            i32 2, label %c1
                            i32 3, label %c3 ]
c0:
  br label %join
c1:
  br label %join
c3:
  switch i32 %x, label %join [ i32 7, label %c0 ]
d:
  br label %join
join:
  ret void
}
""",
    "infinite_loop_and_unreachable": """
define void @infinite_loop_and_unreachable(i1 %c) {
entry:
  br i1 %c, label %spin, label %a
spin:
  br i1 %c, label %spin2, label %spin
spin2:
  br label %spin
a:
  br i1 %c, label %trap, label %ok
trap:
  unreachable
ok:
  ret void
}
""",
    "unnamed_blocks": """
define void @unnamed_blocks(i1 %c, i32) {
  %2 = add i32 %0, 1
  br i1 %c, label %3, label %4
3:
  br label %6
4:
  br i1 %c, label %6, label %5
5:
  br label %6
6:
  ret void
}
""",
    "same_entry_chain": """
define void @same_entry_chain(i1 %c) {
entry:
  br label %e
e:
  br i1 %c, label %a, label %b
a:
  br label %x1
b:
  br label %x1
x1:
  br i1 %c, label %x2, label %y
y:
  br label %x2
x2:
  br i1 %c, label %z, label %x3
z:
  br label %x3
x3:
  ret void
}
""",
    "invoke": """
declare void @g()
declare i32 @__gxx_personality_v0(...)
define void @invoke(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %call, label %done
call:
  invoke void @g() to label %cont unwind label %lpad
cont:
  br label %done
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
done:
  ret void
}
""",
    "two_functions_and_declaration": """
declare void @ext()
define void @one() {
e:
  ret void
}
define void @"quoted name"(i1 %c) {
"entry block":
  br i1 %c, label %"a b", label %m
"a b":
  br label %m
m:
  ret void
}
""",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(HAND_WRITTEN))
def test_hand_written_matches_opt(name: str) -> None:
    check_against_opt(HAND_WRITTEN[name])


def _compare_files(files: list[Path], styles: tuple[str, ...] = STYLES) -> int:
    compared = 0
    for path in files:
        module = llvmpy_mid.parse_file(path)
        for style in styles:
            expected = opt_regions(path, style)
            if expected is None:
                continue  # opt-19 rejects it: not a test of ours
            assert our_regions(module, style) == expected, "%s (%s)" % (path, style)
            compared += 1
    return compared


@needs_opt
def test_csmith_sample_matches_opt() -> None:
    files = csmith_paths()
    if not files:
        pytest.skip("csmith corpus not present")
    assert _compare_files(files[::15]) > 0


@needs_opt
@pytest.mark.slow
def test_csmith_all_match_opt() -> None:
    files = csmith_paths()
    if not files:
        pytest.skip("csmith corpus not present")
    assert _compare_files(files) > 0


# --- random CFGs ------------------------------------------------------------------------------------

Cfg = list[list[int]]  # successors of block i, as written in its terminator


def cfg_text(name: str, cfg: Cfg, unnamed: list[bool] | None = None) -> str:
    """A function whose block i branches to cfg[i] (ret / unreachable / br / br i1 / switch);
    blocks flagged ``unnamed`` get numeric labels (the entry one none at all)."""
    n = len(cfg)
    flags = unnamed if unnamed is not None else [False] * n
    labels: list[str] = []
    slot = 0
    for i in range(n):
        if flags[i]:
            labels.append(str(slot))
            slot += 1
        else:
            labels.append("b%d" % i)
    lines = ["define void @%s(i1 %%c, i32 %%x) {" % name]
    for i, succs in enumerate(cfg):
        if i or not flags[i]:
            lines.append("%s:" % labels[i])
        if not succs:
            lines.append("  unreachable" if i % 3 == 2 else "  ret void")
        elif len(succs) == 1:
            lines.append("  br label %%%s" % labels[succs[0]])
        elif len(succs) == 2:
            lines.append("  br i1 %%c, label %%%s, label %%%s" % (labels[succs[0]], labels[succs[1]]))
        else:
            cases = " ".join("i32 %d, label %%%s" % (k, labels[s]) for k, s in enumerate(succs[1:]))
            lines.append("  switch i32 %%x, label %%%s [ %s ]" % (labels[succs[0]], cases))
    lines.append("}")
    return "\n".join(lines) + "\n"


def random_cfg(rng: random.Random, n: int) -> tuple[Cfg, list[bool]]:
    """Half the edges go a few blocks forward (structured shapes with real regions), the rest
    anywhere but the entry (loops, irreducible cycles, unreachable blocks)."""
    cfg: Cfg = []
    for i in range(n):
        k = rng.choice((0, 1, 1, 1, 2, 2, 2, 3))
        succs: list[int] = []
        for _ in range(k if n > 1 else 0):
            if rng.random() < 0.5 and i < n - 1:
                succs.append(min(n - 1, i + rng.randint(1, 3)))
            else:
                succs.append(rng.randrange(1, n))
        cfg.append(succs)
    return cfg, [rng.random() < 0.2 for _ in range(n)]


@needs_opt
def test_seeded_random_cfgs_match_opt() -> None:
    rng = random.Random(20240607)
    text = "".join(cfg_text("f%d" % i, *random_cfg(rng, rng.randint(1, 16))) for i in range(400))
    check_against_opt(text)


@needs_opt
@pytest.mark.slow
def test_many_seeded_random_cfgs_match_opt() -> None:
    rng = random.Random(7)
    for _ in range(40):
        text = "".join(cfg_text("f%d" % i, *random_cfg(rng, rng.randint(1, 40))) for i in range(250))
        check_against_opt(text)


cfg_strategy = st.integers(min_value=1, max_value=12).flatmap(
    lambda n: st.lists(
        st.lists(st.integers(min_value=1, max_value=max(1, n - 1)), min_size=0, max_size=3 if n > 1 else 0),
        min_size=n,
        max_size=n,
    )
)


def reachable(fn: Function) -> set[BasicBlock]:
    seen = {fn.entry_block}
    stack = [fn.entry_block]
    while stack:
        for s in stack.pop().successors:
            if s not in seen:
                seen.add(s)
                stack.append(s)
    return seen


def check_region_definition(region: Region, reach: set[BasicBlock]) -> set[BasicBlock]:
    """The single-entry single-exit definition, checked on the region's block set: the entry
    is the only block with a (reachable) predecessor outside, and every edge leaving a block
    of the region goes to the exit. Returns the block set."""
    blocks = set(region.blocks())
    assert len(blocks) == len(region.blocks())
    assert region.entry in blocks and region.exit not in blocks
    assert blocks == {bb for bb in reach if region.contains(bb)}
    for bb in blocks:
        for s in bb.successors:
            assert s in blocks or s is region.exit, "edge %s -> %s leaves %s" % (bb.name, s.name, region.name_str())
        if bb is not region.entry:
            for p in bb.predecessors:
                assert p in blocks or p not in reach, "edge %s -> %s enters %s" % (
                    p.name,
                    bb.name,
                    region.name_str(),
                )
    return blocks


@settings(max_examples=150, deadline=None)
@given(cfg_strategy)
def test_regions_are_sese_and_form_a_tree(cfg: Cfg) -> None:
    fn = only_fn(cfg_text("f", cfg))
    reach = reachable(fn)
    ri = RegionInfo(fn)
    top = ri.top_level_region
    assert top.is_top_level_region and top.parent is None and top.exit is None
    assert top.entry is fn.entry_block and set(top.blocks()) == reach
    block_sets: dict[Region, set[BasicBlock]] = {top: reach}
    seen: set[Region] = {top}
    for region in ri.regions():
        if region is not top:
            assert region.exit is not None and region.parent is not None
            assert region.parent.children.count(region) == 1
            block_sets[region] = check_region_definition(region, reach)
            # LLVM never makes the trivial region of a block falling through to its exit.
            assert region.entry.successors != [region.exit]
        for child in region.children:
            assert child.parent is region and child not in seen
            seen.add(child)
    # Nesting is a tree over block sets: children inside parents, siblings disjoint.
    for region in ri.regions():
        union: set[BasicBlock] = set()
        for child in region.children:
            kid = block_sets[child]
            assert kid < block_sets[region]
            assert not (kid & union)
            union |= kid
            assert region.contains(child)
    # Every reachable block maps to the innermost region holding it.
    for bb in fn.blocks:
        r = ri.region_for(bb)
        if bb not in reach:
            assert r is None
            continue
        assert r is not None and bb in block_sets[r]
        assert all(bb not in block_sets[c] for c in r.children)


# --- the query API ----------------------------------------------------------------------------------


def test_nested_ifs_tree_and_queries() -> None:
    fn = only_fn(HAND_WRITTEN["nested_ifs"])
    ri = RegionInfo(fn)
    assert names(ri) == [
        (0, "entry => <Function Return>"),
        (1, "entry => m"),
        (2, "a => am"),
        (3, "a1 => a1m"),
    ]
    top = ri.top_level_region
    (outer,) = top.children
    (inner,) = outer.children
    (innermost,) = inner.children
    assert ri.region_for(block(fn, "a11")) is innermost
    assert ri.region_for(block(fn, "a2")) is inner
    assert ri.region_for(block(fn, "b")) is outer
    assert ri.region_for(block(fn, "m")) is top
    assert ri.common_region(block(fn, "a11"), block(fn, "a2")) is inner
    assert ri.common_region(block(fn, "a11"), block(fn, "b")) is outer
    assert [bb.name for bb in inner.blocks()] == ["a", "a1", "a11", "a1m", "a2"]
    assert inner.elements() == [block(fn, "a"), innermost, block(fn, "a1m"), block(fn, "a2")] or (
        inner.elements()[:2] == [block(fn, "a"), innermost]
    )
    # a => am: one edge in (entry -> a), one edge out (a1m -> am, a2 -> am: two) -> not simple.
    assert inner.entering_block is block(fn, "entry")
    assert inner.exiting_block is None and not inner.is_simple
    assert {bb.name for bb in inner.exiting_blocks} == {"a1m", "a2"}
    assert not innermost.is_simple and {bb.name for bb in innermost.exiting_blocks} == {"a1", "a11"}
    assert not top.is_simple and top.depth == 0 and innermost.depth == 3
    assert outer.contains(inner) and not inner.contains(outer) and top.contains(innermost)
    assert block(fn, "a11") in inner and block(fn, "am") not in inner
    assert repr(inner) == "<Region a => am depth 2>"


def test_loop_regions_and_is_simple() -> None:
    fn = only_fn(HAND_WRITTEN["loops"])
    ri = RegionInfo(fn)
    assert names(ri) == [
        (0, "entry => <Function Return>"),
        (1, "outer => exit"),
        (2, "inner => latch"),
        (1, "do => done"),
        (2, "body => do"),
    ]
    _, outer, inner, do, body = ri.regions()
    assert outer.is_simple and outer.entering_block is block(fn, "entry") and outer.exiting_block is block(fn, "latch")
    assert inner.is_simple and inner.exiting_block is block(fn, "inner")
    assert do.is_simple
    # The exit of body => do is the loop header: two edges (body, cont) go back to it.
    assert body.entering_block is block(fn, "do") and body.exiting_block is None and not body.is_simple


def test_is_simple_matches_definition_on_random_cfgs() -> None:
    rng = random.Random(99)
    checked = 0
    for i in range(200):
        fn = only_fn(cfg_text("f%d" % i, *random_cfg(rng, rng.randint(2, 14))))
        reach = reachable(fn)
        for region in RegionInfo(fn).regions()[1:]:
            blocks = set(region.blocks())
            entering = [p for p in region.entry.predecessors if p in reach and p not in blocks]
            assert region.exit is not None
            exiting = [p for p in region.exit.predecessors if p in blocks]
            assert region.is_simple == (len(entering) == 1 and len(exiting) == 1)
            checked += 1
    assert checked > 50


def test_unreachable_blocks_are_in_no_region() -> None:
    fn = only_fn(HAND_WRITTEN["unreachable_blocks"])
    ri = RegionInfo(fn)
    dead = block(fn, "dead")
    assert ri.region_for(dead) is None and ri.common_region(dead, fn.entry_block) is None
    assert not ri.top_level_region.contains(dead)
    # The edge from the unreachable block does not stop entry => m from being a region.
    assert names(ri) == [(0, "entry => <Function Return>"), (1, "entry => m")]


def test_unnamed_blocks_print_as_operands() -> None:
    fn = only_fn(HAND_WRITTEN["unnamed_blocks"])
    text = format_region_info(RegionInfo(fn), "bb")
    assert "[1] %1 => %6\n" in text
    assert ", , " in text  # unnamed blocks have empty names in the block lists, as in LLVM


def test_deep_cfg_no_recursion() -> None:
    # 3000 nested ifs: t_i -> t_{i+1} | j_i, the joins unwind in reverse.
    n = 3000
    lines = ["define void @deep(i1 %c) {", "entry:", "  br label %t0"]
    for i in range(n):
        lines += ["t%d:" % i, "  br i1 %%c, label %%t%d, label %%j%d" % (i + 1, i)]
    lines += ["t%d:" % n, "  br label %%j%d" % (n - 1)]
    for i in range(n - 1, 0, -1):
        lines += ["j%d:" % i, "  br label %%j%d" % (i - 1)]
    lines += ["j0:", "  ret void", "}"]
    fn = only_fn("\n".join(lines) + "\n")
    ri = RegionInfo(fn, DominatorTree(fn), DominatorTree(fn, post=True))
    regions = ri.regions()
    assert len(regions) == n + 1
    assert max(r.depth for r in regions) == n
    text = format_region_info(ri, "rn")
    assert text.startswith("Region tree:\n[0] entry => <Function Return>\n") and text.endswith("End region tree\n")


# --- pass-manager glue ------------------------------------------------------------------------------


def test_region_analysis_invalidation() -> None:
    fn = only_fn(HAND_WRITTEN["diamond"])
    am: AnalysisManager[Function] = AnalysisManager()
    ri = am.get_result(RegionInfoAnalysis, fn)
    assert isinstance(ri, RegionInfo)
    am.invalidate(fn, PreservedAnalyses.none().preserve_set(CFGAnalyses))
    assert am.get_cached_result(RegionInfoAnalysis, fn) is ri
    am.invalidate(fn, PreservedAnalyses.none())
    assert am.get_cached_result(RegionInfoAnalysis, fn) is None


def test_printer_pass_writes_stream() -> None:
    fn = only_fn(HAND_WRITTEN["nested_ifs"])
    am: AnalysisManager[Function] = AnalysisManager()
    for style in STYLES:
        out = io.StringIO()
        assert RegionInfoPrinterPass(out, style).run(fn, am).are_all_preserved()
        expected = format_region_info(am.get_result(RegionInfoAnalysis, fn), style)
        assert out.getvalue() == "Region Tree for function: nested_ifs\n" + expected
    with pytest.raises(ValueError):
        format_region_info(RegionInfo(fn), "fancy")


@needs_opt
@pytest.mark.parametrize("style", [None, "rn"])
def test_cli_print_regions_like_opt(tmp_path: Path, style: str | None) -> None:
    src = tmp_path / "f.ll"
    src.write_text(HAND_WRITTEN["nested_ifs"] + HAND_WRITTEN["loops"])
    args = ["-passes=print<regions>", "-disable-output", str(src)]
    if style is not None:
        args.insert(0, "-print-region-style=" + style)
    ours = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], capture_output=True)
    assert OPT is not None
    theirs = subprocess.run([OPT, *args], capture_output=True)
    assert ours.returncode == theirs.returncode == 0
    assert ours.stdout == theirs.stdout == b""
    assert ours.stderr == theirs.stderr


@needs_opt
def test_cli_debug_pass_manager_log_like_opt(tmp_path: Path) -> None:
    src = tmp_path / "f.ll"
    src.write_text(HAND_WRITTEN["diamond"])
    args = ["-passes=print<regions>", "-disable-output", "-debug-pass-manager", str(src)]

    def running(cmd: list[str]) -> list[str]:
        r = subprocess.run(cmd, capture_output=True)
        return [ln for ln in r.stderr.decode().splitlines() if ln.startswith("Running")]

    assert OPT is not None
    assert running([sys.executable, "-m", "llvmpy_mid", *args]) == running([OPT, *args])
