"""Tests for llvmpy_mid.ir.dominators: trees checked against opt-19's
print<domtree>/print<postdomtree>, LLVM's instruction/use rules, a deep chain,
and random CFGs against a plain data-flow dominator computation."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llvmpy_mid
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")


def fn_of(text: str) -> Function:
    # Some cases use a value where it is not dominated (that is what they query), so the
    # module is not verified.
    m = llvmpy_mid.parse_assembly(text, verify=False)
    fns = [f for f in m.functions if not f.is_declaration]
    assert len(fns) == 1
    return fns[0]


def block(fn: Function, name: str) -> BasicBlock:
    for bb in fn.blocks:
        if bb.name == name:
            return bb
    raise KeyError(name)


def our_tree(fn: Function, post: bool) -> list[tuple[int, str]]:
    """(level, name) in preorder, children in the tree's order; the virtual root is '<<exit>>'."""
    dt = DominatorTree(fn, post=post)
    out: list[tuple[int, str]] = []
    if post:
        out.append((0, "<<exit>>"))
    stack = [(bb, 1 if post else 0) for bb in reversed(dt.root_children())]
    while stack:
        bb, lvl = stack.pop()
        assert dt.level(bb) == lvl
        out.append((lvl, bb.name))
        for kid in reversed(dt.children(bb)):
            stack.append((kid, lvl + 1))
    return out


def opt_tree(text: str, post: bool) -> tuple[list[tuple[int, str]], list[str]]:
    assert OPT is not None
    pas = "print<postdomtree>" if post else "print<domtree>"
    r = subprocess.run(
        [OPT, "-disable-output", "-passes=" + pas], input=text, capture_output=True, text=True, check=True
    )
    nodes: list[tuple[int, str]] = []
    roots: list[str] = []
    for line in r.stderr.splitlines() + r.stdout.splitlines():
        m = re.match(r"\s*\[(\d+)\]\s+(%\S+|<<exit node>>) \{", line)
        if m:
            name = "<<exit>>" if m.group(2) == "<<exit node>>" else m.group(2)[1:]
            nodes.append((int(m.group(1)) - 1, name))
        elif line.startswith("Roots:"):
            roots = [t[1:] for t in line.split()[1:]]
    return nodes, roots


CASES = {
    "diamond": """
define i32 @f(i1 %c) {
entry:
  br i1 %c, label %l, label %r
l:
  br label %join
r:
  br label %join
join:
  %p = phi i32 [ 1, %l ], [ 2, %r ]
  ret i32 %p
}
""",
    "loops": """
define void @f(i1 %c) {
entry:
  br label %outer
outer:
  br label %inner
inner:
  br i1 %c, label %inner, label %latch
latch:
  br i1 %c, label %outer, label %exit
exit:
  ret void
}
""",
    "irreducible": """
define void @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br i1 %d, label %b, label %x
b:
  br i1 %d, label %a, label %y
x:
  br label %y
y:
  br i1 %c, label %a, label %out
out:
  ret void
}
""",
    "mixed": """
define void @f(i1 %c, i32 %x) {
entry:
  br i1 %c, label %a, label %b
a:
  switch i32 %x, label %d [ i32 1, label %e
                            i32 2, label %e
                            i32 3, label %c2 ]
b:
  br label %d
c2:
  br label %c2
d:
  ret void
e:
  br label %loop
loop:
  br i1 %c, label %loop, label %e2
e2:
  br i1 %c, label %d, label %loop2
loop2:
  br label %loop3
loop3:
  br label %loop2
dead:
  br label %d
dead2:
  br label %dead
}
""",
    "multi_exit": """
define i32 @f(i1 %c, i1 %d) {
entry:
  br i1 %c, label %a, label %b
a:
  br i1 %d, label %ra, label %u
b:
  br i1 %d, label %ra, label %rb
ra:
  ret i32 0
rb:
  ret i32 1
u:
  unreachable
}
""",
    "infinite_only": """
define void @f(i1 %c) {
entry:
  br label %h
h:
  br i1 %c, label %x, label %y
x:
  br label %h
y:
  br label %z
z:
  br i1 %c, label %h, label %z
}
""",
    "invoke": """
declare i32 @g()
declare i32 @__gxx_personality_v0(...)
define i32 @f(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  %v = invoke i32 @g() to label %ok unwind label %lp
ok:
  br label %join
lp:
  %l = landingpad { ptr, i32 } cleanup
  br label %join
join:
  %p = phi i32 [ %v, %ok ], [ 0, %lp ]
  ret i32 %p
}
""",
}


@needs_opt
@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("post", [False, True])
def test_against_opt(name: str, post: bool) -> None:
    text = CASES[name]
    fn = fn_of(text)
    expected, roots = opt_tree(text, post)
    assert our_tree(fn, post) == expected
    assert [bb.name for bb in DominatorTree(fn, post=post).roots] == roots


def test_diamond_queries() -> None:
    fn = fn_of(CASES["diamond"])
    dt = DominatorTree(fn)
    entry, l, r, join = (block(fn, n) for n in ("entry", "l", "r", "join"))
    assert dt.idom(entry) is None
    assert dt.idom(join) is entry and dt.idom(l) is entry
    assert dt.children(entry) == [l, join, r]  # DFS order, as opt prints it
    assert dt.dominates(entry, join) and dt.dominates(join, join)
    assert not dt.properly_dominates(join, join)
    assert not dt.dominates(l, join)
    assert dt.nearest_common_dominator(l, r) is entry
    assert dt.nearest_common_dominator(join, join) is join
    assert list(dt) == [entry, l, join, r]
    assert dt.roots == [entry]
    pdt = DominatorTree(fn, post=True)
    assert pdt.idom(entry) is join and pdt.idom(join) is None
    assert pdt.dominates(join, l) and not pdt.dominates(l, entry)
    assert pdt.roots == [join]
    # Instruction queries: a phi's use sits at the end of the incoming block.
    phi = join.instructions._first
    ret = join.terminator
    assert phi is not None and ret is not None
    assert dt.dominates(phi, ret) and not dt.dominates(ret, phi) and not dt.dominates(phi, phi)
    assert dt.dominates(fn.args[0], phi)
    assert pdt.dominates(ret, phi) and not pdt.dominates(phi, ret)


def test_unreachable_blocks() -> None:
    fn = fn_of(CASES["mixed"])
    dt = DominatorTree(fn)
    dead, dead2, d = block(fn, "dead"), block(fn, "dead2"), block(fn, "d")
    assert not dt.is_reachable(dead) and not dt.is_reachable(dead2)
    assert dt.idom(dead) is None
    assert dt.dominates(d, dead)  # unreachable blocks are dominated by everything
    assert not dt.dominates(dead, d)
    assert dead not in list(dt)
    assert len(dt) == len(list(fn.blocks)) - 2
    assert dt.nearest_common_dominator(dead, d) is None
    pdt = DominatorTree(fn, post=True)
    assert pdt.is_reachable(dead2)  # reaches the exit
    assert pdt.idom(block(fn, "a")) is None  # only the virtual root post-dominates it
    assert pdt.nearest_common_dominator(block(fn, "a"), d) is None


def test_phi_and_invoke_uses() -> None:
    fn = fn_of(CASES["invoke"])
    dt = DominatorTree(fn)
    entry, ok, lp, join = (block(fn, n) for n in ("entry", "ok", "lp", "join"))
    inv = entry.terminator
    phi = join.instructions._first
    assert inv is not None and phi is not None
    # The invoke result is defined on the edge to %ok only.
    assert dt.dominates(inv, ok)
    assert not dt.dominates(inv, lp) and not dt.dominates(inv, join)
    phi_use = next(u for u in _uses_of(inv) if u.user is phi)
    assert dt.dominates_use(inv, phi_use)  # at the end of %ok
    # Using the invoke result directly in %ok is fine; in %lp it is not.
    text2 = CASES["invoke"].replace("%l = landingpad { ptr, i32 } cleanup", "%l = landingpad { ptr, i32 } cleanup\n  %bad = add i32 %v, 1")
    fn2 = fn_of(text2)
    dt2 = DominatorTree(fn2)
    inv2 = block(fn2, "entry").terminator
    bad = next(u for u in _uses_of(inv2) if u.user.parent is block(fn2, "lp"))
    assert not dt2.dominates_use(inv2, bad)  # type: ignore[arg-type]


def _uses_of(v: object) -> list:  # type: ignore[type-arg]
    out = []
    use = v._use_head  # type: ignore[attr-defined]
    while use is not None:
        out.append(use)
        use = use._next
    return out


def test_invoke_critical_normal_edge() -> None:
    text = """
declare i32 @g()
declare i32 @__gxx_personality_v0(...)
define i32 @f(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %a, label %ok
a:
  %v = invoke i32 @g() to label %ok unwind label %lp
ok:
  %p = phi i32 [ %v, %a ], [ 0, %entry ]
  ret i32 %p
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret i32 1
}
"""
    fn = fn_of(text)
    dt = DominatorTree(fn)
    inv = block(fn, "a").terminator
    assert inv is not None
    (use,) = _uses_of(inv)
    assert dt.dominates_use(inv, use)  # the phi entry for the invoke's own edge
    assert not dt.dominates(inv, block(fn, "ok"))  # %ok is also reached from %entry


def test_same_block_and_self_use() -> None:
    text = """
define i32 @f(i32 %x) {
entry:
  br label %loop
loop:
  %p = phi i32 [ %x, %entry ], [ %n, %loop ]
  %n = add i32 %p, 1
  %c = icmp eq i32 %n, 10
  br i1 %c, label %out, label %loop
out:
  ret i32 %n
}
"""
    fn = fn_of(text)
    dt = DominatorTree(fn)
    loop = block(fn, "loop")
    p, n, c, _br = list(loop.instructions)
    assert dt.dominates(p, n) and dt.dominates(n, c) and not dt.dominates(c, n)
    phi_use = next(u for u in _uses_of(n) if u.user is p)
    assert dt.dominates_use(n, phi_use)  # back-edge value at the end of %loop
    assert not dt.dominates(n, p)  # the phi counts as a use of the whole block
    out_use = next(u for u in _uses_of(n) if u.user is not p and u.user is not c)
    assert dt.dominates_use(n, out_use)


def test_deep_chain() -> None:
    n = 10000
    lines = ["define void @f() {", "b0:"]
    for i in range(1, n):
        lines.append("  br label %%b%d" % i)
        lines.append("b%d:" % i)
    lines.append("  ret void")
    lines.append("}")
    fn = fn_of("\n".join(lines))
    dt = DominatorTree(fn)
    blocks = list(fn.blocks)
    assert dt.level(blocks[-1]) == n - 1
    assert dt.idom(blocks[-1]) is blocks[-2]
    assert dt.dominates(blocks[0], blocks[-1]) and not dt.dominates(blocks[-1], blocks[0])
    assert dt.nearest_common_dominator(blocks[-1], blocks[5000]) is blocks[5000]
    pdt = DominatorTree(fn, post=True)
    assert pdt.idom(blocks[0]) is blocks[1] and pdt.level(blocks[0]) == n
    assert sys.getrecursionlimit() < n  # really would overflow if recursive


# --- random CFGs against a data-flow dominator computation ----------------------------------


def dataflow_doms(succs: list[list[int]]) -> list[set[int] | None]:
    n = len(succs)
    preds: list[list[int]] = [[] for _ in range(n)]
    for a, ss in enumerate(succs):
        for b in ss:
            preds[b].append(a)
    reach = {0}
    work = [0]
    while work:
        a = work.pop()
        for b in succs[a]:
            if b not in reach:
                reach.add(b)
                work.append(b)
    dom: list[set[int] | None] = [set(reach) if i in reach else None for i in range(n)]
    dom[0] = {0}
    changed = True
    while changed:
        changed = False
        for b in range(1, n):
            if b not in reach:
                continue
            new = set(reach)
            for p in preds[b]:
                if p in reach:
                    d = dom[p]
                    assert d is not None
                    new &= d
            new.add(b)
            if new != dom[b]:
                dom[b] = new
                changed = True
    return dom


@st.composite
def cfgs(draw: st.DrawFn) -> list[list[int]]:
    n = draw(st.integers(1, 14))
    return [draw(st.lists(st.integers(0, n - 1), min_size=0, max_size=3)) for _ in range(n)]


def cfg_text(succs: list[list[int]]) -> str:
    lines = ["define void @f(i32 %x) {"]
    for i, ss in enumerate(succs):
        lines.append("b%d:" % i)
        if not ss:
            lines.append("  ret void")
        elif len(ss) == 1:
            lines.append("  br label %%b%d" % ss[0])
        else:
            cases = " ".join("i32 %d, label %%b%d" % (k, s) for k, s in enumerate(ss[1:]))
            lines.append("  switch i32 %%x, label %%b%d [ %s ]" % (ss[0], cases))
    lines.append("}")
    return "\n".join(lines)


@settings(max_examples=150, deadline=None)
@given(cfgs())
def test_random_cfgs_match_dataflow(succs: list[list[int]]) -> None:
    # The entry block may not have predecessors: drop edges into block 0.
    succs = [[s for s in ss if s != 0] for ss in succs]
    # Duplicate switch cases are invalid IR; keep the duplicate edges via distinct values anyway.
    fn = fn_of(cfg_text(succs))
    blocks = list(fn.blocks)
    dt = DominatorTree(fn)
    doms = dataflow_doms(succs)
    for b, d in enumerate(doms):
        bb = blocks[b]
        if d is None:
            assert not dt.is_reachable(bb)
            continue
        assert dt.is_reachable(bb)
        for a in range(len(blocks)):
            if doms[a] is not None:
                assert dt.dominates(blocks[a], bb) == (a in d), (a, b)
        strict = d - {b}
        if strict:
            # idom: the strict dominator dominated by all the others
            idom = max(strict, key=lambda k: len(doms[k]))  # type: ignore[arg-type]
            assert dt.idom(bb) is blocks[idom]
        else:
            assert dt.idom(bb) is None
    # children/level consistency
    for bb in dt:
        for kid in dt.children(bb):
            assert dt.idom(kid) is bb and dt.level(kid) == dt.level(bb) + 1


@needs_opt
@settings(max_examples=40, deadline=None)
@given(cfgs())
def test_random_cfgs_match_opt_postdom(succs: list[list[int]]) -> None:
    succs = [[s for s in ss if s != 0] for ss in succs]
    text = cfg_text(succs)
    fn = fn_of(text)
    for post in (False, True):
        expected, roots = opt_tree(text, post)
        assert our_tree(fn, post) == expected
        assert [bb.name for bb in DominatorTree(fn, post=post).roots] == roots
