"""``is_potentially_reachable`` with loop information (LLVM ``isPotentiallyReachable``
with ``LoopInfo``): on random CFGs small enough for the 32-block limit not to matter,
the answer equals exact reachability, for blocks and for instructions, as it does
without loop information."""

from __future__ import annotations

import random

from llvmpy_mid.analysis.cfg import is_potentially_reachable, is_potentially_reachable_inst
from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree


def _random_function(rng: random.Random, n: int) -> str:
    lines = ["define void @f(i1 %c) {"]
    for i in range(n):
        lines.append("b%d:" % i)
        lines.append("  %%x%d = add i32 0, %d" % (i, i))
        k = rng.random()
        if i == n - 1 or k < 0.15:
            lines.append("  ret void")
        elif k < 0.55:
            lines.append("  br label %%b%d" % rng.randrange(1, n))
        else:
            lines.append("  br i1 %%c, label %%b%d, label %%b%d" % (rng.randrange(1, n), rng.randrange(1, n)))
    lines.append("}")
    return "\n".join(lines)


def _exact(a: BasicBlock, b: BasicBlock) -> bool:
    seen = {a}
    work = [a]
    while work:
        bb = work.pop()
        if bb is b:
            return True
        for s in bb.successors:
            if s not in seen:
                seen.add(s)
                work.append(s)
    return False


def _strictly_after(a: BasicBlock, b: BasicBlock) -> bool:
    """A path of at least one edge from ``a`` to ``b``."""
    return any(_exact(s, b) for s in a.successors)


def test_reachability_with_loop_info_is_exact_on_small_cfgs() -> None:
    rng = random.Random(19)
    for _ in range(150):
        fn = parse_assembly(_random_function(rng, rng.randint(2, 12))).get_function("f")
        assert fn is not None
        dt = DominatorTree(fn)
        li = LoopInfo(fn, dt)
        blocks = list(fn.blocks)
        for a in blocks:
            for b in blocks:
                want = _exact(a, b)
                assert is_potentially_reachable(a, b, dt, None, li) == want
                assert is_potentially_reachable(a, b, None, None, li) == want
                ia, ib = a.first_instruction, b.first_instruction
                assert ia is not None and ib is not None
                want_inst = _strictly_after(a, b) if a is b else want
                if a is b:
                    want_inst = True  # the same instruction reaches itself
                assert is_potentially_reachable_inst(ia, ib, None, dt, li) == want_inst
                term_a = a.terminator
                assert term_a is not None
                if a is b:
                    # from the terminator back to the block's first instruction: only round a cycle
                    assert is_potentially_reachable_inst(term_a, ib, None, dt, li) == _strictly_after(a, a)
