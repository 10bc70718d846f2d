"""The must-be-executed context of an instruction, as the light Attributor sees it (LLVM
19.1.7 ``lib/Analysis/MustExecute.cpp``: ``MustBeExecutedContextExplorer`` with
inter-block, forward and backward exploration and no loop, dominator or post-dominator
trees, which the light module pass does not have cached).

Forward, the context continues from an instruction that surely passes control on to the
next one, to the first instruction of a lone successor or of a join block (the immediate post-dominator when the post-dominator
tree is at hand, else one found by pattern matching: a one-block conditional or loop, a
loop's unique exit) when the blocks in between surely pass control on. Backward, it
continues to the previous instruction, or to the terminator of the immediate dominator,
a lone predecessor or a join block found the same way. The module pass has no analyses
cached; the CGSCC pass computes them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.analysis.cfg import may_contain_irreducible_control
from llvmpy_mid.analysis.loop_info import LoopInfo
from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ipo.attributor import Attributor

__all__ = ["ExplorerAnalyses", "MustBeExecutedContext", "UseInContext", "explorer", "follow_uses_in_mbec"]

UseInContext = Callable[[Use, Instruction], tuple[int, bool]]
"""What one use in the context tells: (known bits, follow the user's uses)."""


def _first(bb: BasicBlock) -> Instruction | None:
    first = bb.instructions.first
    return first if isinstance(first, Instruction) else None


class ExplorerAnalyses:
    """The loop info and (post-)dominator trees of one function, when the pass has them."""

    __slots__ = ("li", "dt", "pdt")

    def __init__(self, li: LoopInfo | None, dt: DominatorTree | None, pdt: DominatorTree | None) -> None:
        self.li = li
        self.dt = dt
        self.pdt = pdt


AnalysesGetter = Callable[[Function], ExplorerAnalyses]


class MustBeExecutedContext:
    """Memoized contexts of one Attributor run."""

    def __init__(self, analyses: AnalysesGetter | None = None) -> None:
        self._analyses = analyses
        self._irreducible: dict[Function, bool] = {}
        self._transfers: dict[BasicBlock, bool] = {}
        self._contexts: dict[Instruction, dict[Instruction, None]] = {}

    def _block_transfers(self, bb: BasicBlock) -> bool:
        found = self._transfers.get(bb)
        if found is None:
            found = all(
                is_guaranteed_to_transfer_execution_to_successor(i)
                for i in bb.instructions
                if isinstance(i, Instruction)
            )
            self._transfers[bb] = found
        return found

    def _get(self, fn: Function) -> ExplorerAnalyses:
        if self._analyses is None:
            return ExplorerAnalyses(None, None, None)
        return self._analyses(fn)

    def _forward_join(self, init: BasicBlock) -> BasicBlock | None:
        fn = init.parent
        assert isinstance(fn, Function)
        an = self._get(fn)
        li = an.li
        loop = li.loop_for(init) if li is not None else None
        header = loop.header if loop is not None else init
        will_return = fn.attributes.has_fn_attr("willreturn")
        no_throw = fn.attributes.has_fn_attr("nounwind")
        will_return_no_throw = will_return and no_throw
        worklist = [s for s in init.successors if not (will_return_no_throw and s is header)]
        if not worklist:
            return None
        if len(worklist) == 1:
            return worklist[0]
        join: BasicBlock | None = None
        if an.pdt is not None:
            join = an.pdt.idom(init)
        if join is None and len(worklist) == 2:
            s0, s1 = worklist
            u0 = s0.unique_successor
            u1 = s1.unique_successor
            if u0 is init:
                join = s1
            elif u1 is init:
                join = s0
            elif s0 is u1:
                join = s0
            elif s1 is u0:
                join = s1
            elif u0 is u1:
                join = u0
        if join is None and loop is not None:
            exits = loop.unique_exit_blocks
            join = exits[0] if len(exits) == 1 else None
        if join is None:
            return None
        if not will_return or not no_throw:
            visited: set[BasicBlock] = set()
            while worklist:
                to = worklist.pop()
                if to is join:
                    continue
                if to in visited:
                    if not will_return:
                        if li is None or self._is_irreducible(fn, li):
                            return None
                        if li.loop_for(to) is not None:
                            return None
                    continue
                visited.add(to)
                if not self._block_transfers(to):
                    return None
                worklist.extend(to.successors)
        return join

    def _is_irreducible(self, fn: Function, li: LoopInfo) -> bool:
        found = self._irreducible.get(fn)
        if found is None:
            found = self._irreducible[fn] = may_contain_irreducible_control(fn, li)
        return found

    def _backward_join(self, init: BasicBlock) -> BasicBlock | None:
        fn = init.parent
        assert isinstance(fn, Function)
        an = self._get(fn)
        if an.dt is not None:
            idom = an.dt.idom(init)
            if idom is not None:
                return idom
        loop = an.li.loop_for(init) if an.li is not None else None
        header = loop.header if loop is not None else None
        worklist = [
            p
            for p in init.predecessors
            if not (p is init or (header is init and loop is not None and loop.contains(p)))
        ]
        if not worklist:
            return None
        if len(worklist) == 1:
            return worklist[0]
        if len(worklist) == 2:
            p0, p1 = worklist
            u0 = p0.unique_predecessor
            u1 = p1.unique_predecessor
            if p0 is u1:
                return p0
            if p1 is u0:
                return p1
            if u0 is u1:
                return u0
        if loop is not None:
            return loop.header
        return None

    def _next(self, pp: Instruction) -> Instruction | None:
        if not is_guaranteed_to_transfer_execution_to_successor(pp):
            return None
        if not pp.is_terminator:
            nxt = pp._next
            return nxt if isinstance(nxt, Instruction) else None
        succs = pp.successors
        if not succs:
            return None
        if len(succs) == 1:
            return _first(succs[0])
        bb = pp.parent
        assert bb is not None
        join = self._forward_join(bb)
        return _first(join) if join is not None else None

    def _prev(self, pp: Instruction) -> Instruction | None:
        prev = pp._prev
        if isinstance(prev, Instruction):
            return prev
        bb = pp.parent
        assert bb is not None
        join = self._backward_join(bb)
        return join.terminator if join is not None else None

    def context(self, ctx: Instruction) -> dict[Instruction, None]:
        """The instructions that surely run whenever ``ctx`` runs (``ctx`` included), in
        the order the explorer visits them (not to be modified)."""
        found = self._contexts.get(ctx)
        if found is not None:
            return found
        out: dict[Instruction, None] = {ctx: None}
        forward = {ctx}
        head: Instruction | None = ctx
        while head is not None:
            head = self._next(head)
            if head is None or head in forward:
                break
            forward.add(head)
            out[head] = None
        backward = {ctx}
        tail: Instruction | None = ctx
        while tail is not None:
            tail = self._prev(tail)
            if tail is None or tail in backward:
                break
            backward.add(tail)
            out[tail] = None
        self._contexts[ctx] = out
        return out


def _follow_uses_in_context(context: dict[Instruction, None], uses: dict[Use, None], use_fn: UseInContext) -> int:
    """``followUsesInContext``: the known bits the uses inside ``context`` give; uses of
    followed users join ``uses``."""
    known = 0
    worklist = list(uses)
    u = 0
    while u < len(worklist):
        use = worklist[u]
        u += 1
        user = use.user
        if isinstance(user, Instruction) and user in context:
            bits, follow = use_fn(use, user)
            known |= bits
            if follow:
                for more in user.uses:
                    if more not in uses:
                        uses[more] = None
                        worklist.append(more)
    return known


def explorer(a: Attributor) -> MustBeExecutedContext:
    """The run's explorer (with the analyses the Attributor was given)."""
    mbec = a.caches.get("mbec")
    if not isinstance(mbec, MustBeExecutedContext):
        getter = a.analyses
        mbec = a.caches["mbec"] = MustBeExecutedContext(
            None if getter is None else lambda fn: ExplorerAnalyses(
                getter.loop_info(fn), getter.dominator_tree(fn), getter.post_dominator_tree(fn)
            )
        )
    return mbec


def follow_uses_in_mbec(
    a: Attributor, value: Value, ctx: Instruction, use_fn: UseInContext, best: int, known: int
) -> int:
    """``followUsesInMBEC``: ``known`` widened by what the uses of ``value`` in the
    must-be-executed context of ``ctx`` give, and by what every successor of a conditional
    branch in that context gives (each successor's own context)."""
    mbec = explorer(a)
    uses: dict[Use, None] = dict.fromkeys(value.uses)
    context = mbec.context(ctx)
    known |= _follow_uses_in_context(context, uses, use_fn)
    if known == best:
        return known
    branches = [i for i in context if i.opcode == "br" and len(i.operands) == 3]
    for br in branches:
        parent = best
        for succ in br.successors:
            first = _first(succ)
            if first is None:
                parent = 0
                continue
            parent &= _follow_uses_in_context(mbec.context(first), dict(uses), use_fn)
        known |= parent
    return known
