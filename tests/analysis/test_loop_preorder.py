"""LoopInfo's preorder walks follow LLVM's GenericLoopInfoImpl.h: top-level loops are kept in
reverse program order (as ``print<loops>`` shows, checked against opt-19), ``getLoopsInPreorder``
walks them last to first (program order), ``getLoopsInReverseSiblingPreorder`` first to last."""

from __future__ import annotations

import subprocess

from oracles import require_tools

from llvmpy_mid.analysis.loop_info import LoopInfo, format_loop_info
from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir.dominators import DominatorTree

# Two top-level loops, A (with sub-loops A1, A2) then B, in program order.
SRC = """
define void @f(i1 %c) {
entry:
  br label %a
a:
  br label %a1
a1:
  br i1 %c, label %a1, label %a2
a2:
  br i1 %c, label %a2, label %alatch
alatch:
  br i1 %c, label %a, label %mid
mid:
  br label %b
b:
  br i1 %c, label %b, label %exit
exit:
  ret void
}
"""


def _headers(loops: list) -> list[str]:  # type: ignore[type-arg]
    return [loop.header.name for loop in loops]


def test_stored_order_is_llvms() -> None:
    require_tools("opt-19")
    m = parse_assembly(SRC)
    fn = m.get_function("f")
    assert fn is not None
    li = LoopInfo(fn, DominatorTree(fn))
    ours = format_loop_info(li, fn.name)
    theirs = subprocess.run(
        ["opt-19", "-passes=print<loops>", "-disable-output"], input=SRC, capture_output=True, text=True, check=True
    ).stderr
    assert ours.strip() in theirs
    assert _headers(li.top_level_loops) == ["b", "a"]


def test_preorder_walks() -> None:
    m = parse_assembly(SRC)
    fn = m.get_function("f")
    assert fn is not None
    li = LoopInfo(fn, DominatorTree(fn))
    assert _headers(li.loops_in_preorder()) == ["a", "a1", "a2", "b"]
    assert _headers(li.loops_in_reverse_siblings_preorder()) == ["b", "a", "a2", "a1"]
