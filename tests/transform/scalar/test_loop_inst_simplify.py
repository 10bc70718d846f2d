"""``loop-instsimplify`` and the loop block order it walks (``analysis/loop_iterator.py``):
compared with opt-19 under ``loop`` and ``loop-mssa`` (with ``-verify-memoryssa``), and the
reverse post-order checked on random loops."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402

from llvmpy_mid.analysis.loop_info import LoopInfo  # noqa: E402
from llvmpy_mid.analysis.loop_iterator import loop_blocks_postorder, loop_blocks_rpo  # noqa: E402
from llvmpy_mid.asm import parse_assembly  # noqa: E402
from llvmpy_mid.ir.dominators import DominatorTree  # noqa: E402

CASES = {
    # A phi visited before its incoming value simplifies: a second round is needed.
    "phi_needs_second_round": """
define i32 @f(i32 %n, i1 %c) {
entry:
  br label %loop
loop:
  %p = phi i32 [ 0, %entry ], [ %z, %latch ]
  %x = add i32 %p, 0
  br i1 %c, label %latch, label %side
side:
  br label %latch
latch:
  %z = sub i32 %x, %x
  %i = add i32 %p, 1
  %d = icmp slt i32 %i, %n
  br i1 %d, label %loop, label %exit
exit:
  ret i32 %p
}""",
    # A load made redundant in a loop with memory: MemorySSA must follow under loop-mssa.
    "memory_in_loop": """
define i32 @g(ptr %q, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]
  %a = and i32 %i, -1
  store i32 %a, ptr %q
  %v = load i32, ptr %q
  %w = or i32 %v, 0
  %i2 = add i32 %w, 1
  %d = icmp slt i32 %i2, %n
  br i1 %d, label %loop, label %exit
exit:
  %r = phi i32 [ %i2, %loop ]
  ret i32 %r
}""",
    # Nested loops: the outer pass must not break the inner loop's LCSSA form.
    "nested": """
define i32 @h(i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i2, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j2, %inner ]
  %k = mul i32 %i, 1
  %j2 = add i32 %j, %k
  %c = icmp slt i32 %j2, %n
  br i1 %c, label %inner, label %outer.latch
outer.latch:
  %i2 = add i32 %i, 1
  %d = icmp slt i32 %i2, %n
  br i1 %d, label %outer, label %exit
exit:
  ret i32 %i2
}""",
}


@pytest.mark.parametrize("adaptor", ["loop", "loop-mssa"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_like_opt19(name: str, adaptor: str) -> None:
    options = {"verify-memoryssa": True} if adaptor == "loop-mssa" else None
    out = assert_same_as_opt(CASES[name], "%s(loop-instsimplify)" % adaptor, options)
    assert "add i32 %p, 0" not in out and "or i32 %v, 0" not in out and "mul i32 %i, 1" not in out


def _random_function(rng: random.Random, n: int) -> str:
    """A function of ``n`` blocks with random forward and backward branches."""
    lines = ["define void @r(i1 %c) {", "b0:", "  br label %b1"]
    for k in range(1, n):
        succ = [rng.randrange(1, n) for _ in range(2)]
        if k == n - 1:
            lines += ["b%d:" % k, "  ret void"]
        else:
            lines += ["b%d:" % k, "  br i1 %%c, label %%b%d, label %%b%d" % tuple(succ)]
    lines.append("}")
    return "\n".join(lines)


def _reference_postorder(loop: object) -> list[object]:
    """A textbook recursive depth-first post-order from the header inside the loop (small
    graphs only), successors in terminator order."""
    seen: set[object] = set()
    out: list[object] = []

    def visit(bb: object) -> None:
        seen.add(bb)
        for succ in bb.terminator.successors:  # type: ignore[attr-defined]
            if succ in loop.block_set and succ not in seen:  # type: ignore[attr-defined]
                visit(succ)
        out.append(bb)

    visit(loop.header)  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("seed", range(40))
def test_loop_rpo_matches_a_reference_dfs(seed: int) -> None:
    """On random CFGs (irreducible parts included): each loop's order holds each of its blocks
    once, the header first, and equals a recursive depth-first walk's reverse post-order."""
    rng = random.Random(seed)
    m = parse_assembly(_random_function(rng, rng.randrange(4, 14)))
    fn = m.get_function("r")
    assert fn is not None
    li = LoopInfo(fn, DominatorTree(fn))
    for loop in li.loops_in_preorder():
        order = loop_blocks_rpo(loop)
        assert order[0] is loop.header
        assert sorted(map(id, order)) == sorted(map(id, loop.block_set))
        assert loop_blocks_postorder(loop) == _reference_postorder(loop)
        assert list(reversed(loop_blocks_postorder(loop))) == order
