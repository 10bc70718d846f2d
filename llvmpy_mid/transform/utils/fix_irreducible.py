"""``fix-irreducible``: turns irreducible control flow into natural loops (LLVM
``FixIrreduciblePass``, Transforms/Utils/FixIrreducible.cpp).

What: every strongly connected set of two or more blocks that is entered through
more than one block (its "headers") gets a control-flow hub: all edges into the
headers, from outside and from inside, go through new ``irr.guard`` blocks
(``Guard.<header>`` flags; phis of the headers move into the first guard as
``.moved`` phis), which then head a new natural loop. LoopInfo gets the new
loop (child loops whose header was one of the headers are merged into it, the
others nest under it) and the dominator tree is updated, so both are kept.

How: LLVM 19.1.7's walk: Tarjan's SCCs (:func:`llvmpy_mid.analysis.call_graph.scc_postorder`,
LLVM's ``scc_iterator`` order) of the whole function, then, loop by loop from a
worklist, of each loop's body without its header; the hub is
:func:`llvmpy_mid.transform.utils.basic_block_utils.create_control_flow_hub`.

What it does not do: terminators other than ``br`` (run ``lower-switch`` first, as
LLVM requires).
"""

from __future__ import annotations

from typing import Callable, ClassVar, Sequence

from llvmpy_mid.analysis.call_graph import scc_postorder
from llvmpy_mid.analysis.dom_tree_updater import DomTreeUpdater
from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import create_control_flow_hub


def _partition(items: list[Loop], keep: Callable[[Loop], bool]) -> int:
    """Move the loops for which ``keep`` holds to the front, as libstdc++'s ``std::partition``
    (not stable: the same swaps as the C++ library, so the order matches opt-19's);
    returns where the others start."""
    first = 0
    last = len(items)
    while True:
        while True:
            if first == last:
                return first
            if keep(items[first]):
                first += 1
            else:
                break
        last -= 1
        while True:
            if first == last:
                return first
            if not keep(items[last]):
                last -= 1
            else:
                break
        items[first], items[last] = items[last], items[first]
        first += 1


def _reconnect_child_loops(
    li: LoopInfo, parent: Loop | None, new_loop: Loop, blocks: dict[BasicBlock, None], headers: dict[BasicBlock, None]
) -> None:
    candidates = parent.sub_loops if parent is not None else li.top_level_loops
    cut = _partition(candidates, lambda loop: loop is new_loop or loop.header not in blocks)
    children = candidates[cut:]
    del candidates[cut:]
    for child in children:
        if child.header in headers:
            for bb in child.blocks:
                if li.loop_for(bb) is child:
                    li.change_loop_for(bb, new_loop)
            grand = child.sub_loops
            child.sub_loops = []
            for g in grand:
                g.parent_loop = None
                new_loop.add_child_loop(g)
            child.parent_loop = None
            continue
        child.parent_loop = None
        new_loop.add_child_loop(child)


def _create_natural_loop(
    li: LoopInfo, dt: DominatorTree, parent: Loop | None, blocks: dict[BasicBlock, None], headers: dict[BasicBlock, None]
) -> None:
    preds: dict[BasicBlock, None] = {}
    for h in headers:
        for p in h.predecessors:
            preds[p] = None
    guards: list[BasicBlock] = []
    dtu = DomTreeUpdater(dt, strategy="eager")
    create_control_flow_hub(dtu, guards, list(preds), list(headers), "irr")
    new_loop = li.allocate_loop(guards[0])
    if parent is not None:
        parent.add_child_loop(new_loop)
    else:
        li.add_top_level_loop(new_loop)
    li.change_loop_for(guards[0], new_loop)
    outer = parent
    while outer is not None:
        outer.add_block_entry(guards[0])
        outer = outer.parent_loop
    for g in guards[1:]:
        li.add_block_to_loop(g, new_loop)
    for bb in blocks:
        new_loop.add_block_entry(bb)
        if li.loop_for(bb) is parent:
            li.change_loop_for(bb, new_loop)
    _reconnect_child_loops(li, parent, new_loop, blocks, headers)


def _make_reducible(
    li: LoopInfo,
    dt: DominatorTree,
    entry: BasicBlock,
    successors: Callable[[BasicBlock], Sequence[BasicBlock]],
    parent: Loop | None,
) -> bool:
    changed = False
    for scc in scc_postorder(entry, successors):
        if len(scc) < 2:
            continue
        blocks: dict[BasicBlock, None] = dict.fromkeys(scc)
        headers: dict[BasicBlock, None] = {}
        for bb in reversed(scc):
            for p in bb.predecessors:
                if not dt.is_reachable(p):
                    continue
                if p not in blocks:
                    headers[bb] = None
                    break
        if len(headers) == 1:
            continue
        _create_natural_loop(li, dt, parent, blocks, headers)
        changed = True
    return changed


def _loop_body_successors(loop: Loop) -> Callable[[BasicBlock], Sequence[BasicBlock]]:
    header = loop.header
    members = loop.block_set

    def succs(bb: BasicBlock) -> Sequence[BasicBlock]:
        return [s for s in bb.successors if s is not header and s in members]

    return succs


def fix_irreducible(fn: Function, li: LoopInfo, dt: DominatorTree) -> bool:
    """Make every cycle of ``fn`` a natural loop; True if anything changed."""
    entry = fn.blocks._first
    if entry is None:
        return False
    changed = _make_reducible(li, dt, entry, lambda bb: bb.successors, None)
    worklist: list[Loop] = list(li.top_level_loops)
    while worklist:
        loop = worklist.pop()
        changed |= _make_reducible(li, dt, loop.header, _loop_body_successors(loop), loop)
        worklist.extend(loop.sub_loops)
    return changed


class FixIrreduciblePass(Pass[Function]):
    """``fix-irreducible``: irreducible cycles become natural loops."""

    name: ClassVar[str] = "fix-irreducible"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "FixIrreduciblePass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        li = am.get_result(LoopAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        if not fix_irreducible(unit, li, dt):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve(LoopAnalysis)
        pa.preserve(DominatorTreeAnalysis)
        return pa


__all__ = ["FixIrreduciblePass", "fix_irreducible"]
