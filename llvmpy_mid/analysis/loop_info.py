"""Natural loops of a function (LLVM's ``LoopInfo`` / ``Loop``), the ``loops``
analysis and the ``print<loops>`` printer.

What: :class:`LoopInfo` finds every natural loop of a function, nests them, and
answers "which innermost loop holds this block" in O(1). :class:`Loop` holds a
loop's blocks (header first) and sub-loops in the order LLVM keeps them, and
the usual derived facts (latches, exiting and exit blocks, preheader, dedicated
exits, loop-simplify and LCSSA form, the ``llvm.loop`` ID and whether the loop
is annotated parallel). :func:`format_loop_info` renders the text that
``opt -passes='print<loops>'`` writes.

How (O(N + E) apart from LLVM's own walks up nesting chains):
1. The dominator tree is walked in post-order (children in tree order), so inner
   headers come before outer ones. A block with a reachable predecessor that it
   dominates (a back edge) is a header: a new loop is made for it.
2. From the latches, predecessors are followed backwards (explicit stack) until
   the header; an unclaimed block is mapped to the new loop, a block already in a
   loop makes that loop's outermost ancestor a child of the new one, and the walk
   continues from that ancestor's header's outside predecessors.
3. One CFG post-order walk from the entry (successors in terminator order) then
   appends each block to its innermost loop and all enclosing ones; when a
   loop's header is reached the loop is complete, so it is attached to its
   parent (or the top level), and its block list (after the header) and its
   sub-loop list are reversed. Top-level loops stay in header post-order,
   as in LLVM.

What it does not do: no incremental update beyond the small mutation API the
loop transforms use (add/remove blocks, move a header, attach loops); after
other CFG edits build a new ``LoopInfo``. Blocks unreachable from the entry
are never in a loop. ``verify`` compares with a fresh computation (block sets,
nesting, the block map), not block order.
"""

from __future__ import annotations

import sys
from typing import ClassVar, Iterator, TextIO

from llvmpy_mid.analysis.block_names import block_refs
from llvmpy_mid.asm.print_names import local_name
from llvmpy_mid.ir import _printing
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.dominators import block_successors as _successors
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.metadata import Metadata, MDNode, MDString
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import AnalysisSet, CFGAnalyses, PreservedAnalyses

# Terminators one may not hoist into (LLVM's ``isSpecialTerminator``).
_SPECIAL_TERMINATORS: frozenset[str] = frozenset(
    {"invoke", "callbr", "catchswitch", "catchret", "cleanupret", "resume"}
)




class Loop:
    """One natural loop: ``blocks[0]`` is the header; ``blocks`` also holds the blocks of
    nested loops. Membership is O(1) through a set kept beside the list."""

    __slots__ = ("parent_loop", "sub_loops", "blocks", "block_set")

    def __init__(self, header: BasicBlock) -> None:
        self.parent_loop: Loop | None = None
        self.sub_loops: list[Loop] = []
        self.blocks: list[BasicBlock] = [header]
        self.block_set: set[BasicBlock] = {header}

    # --- structure -----------------------------------------------------------------------
    @property
    def header(self) -> BasicBlock:
        return self.blocks[0]

    def contains(self, x: BasicBlock | Loop | Instruction) -> bool:
        """Whether a block (or an instruction's block) is in the loop, or a loop is nested in it
        (a loop contains itself)."""
        if isinstance(x, Loop):
            node: Loop | None = x
            while node is not None:
                if node is self:
                    return True
                node = node.parent_loop
            return False
        if isinstance(x, Instruction):
            parent = x.parent
            return parent is not None and parent in self.block_set
        return x in self.block_set

    def __contains__(self, x: BasicBlock | Loop | Instruction) -> bool:
        return self.contains(x)

    @property
    def depth(self) -> int:
        """Nesting depth: an outermost loop is at depth 1."""
        d = 1
        node = self.parent_loop
        while node is not None:
            d += 1
            node = node.parent_loop
        return d

    @property
    def is_innermost(self) -> bool:
        return not self.sub_loops

    @property
    def is_outermost(self) -> bool:
        return self.parent_loop is None

    @property
    def num_blocks(self) -> int:
        return len(self.blocks)

    def loops_in_preorder(self) -> list[Loop]:
        """This loop, then its nested loops depth first, sub-loops in order."""
        out: list[Loop] = []
        stack: list[Loop] = [self]
        while stack:
            loop = stack.pop()
            out.append(loop)
            stack.extend(reversed(loop.sub_loops))
        return out

    # --- latches, exits, preheader -------------------------------------------------------
    @property
    def latches(self) -> list[BasicBlock]:
        """Predecessors of the header inside the loop, in predecessor order (repeats kept)."""
        s = self.block_set
        return [p for p in self.header.predecessors if p in s]

    @property
    def latch(self) -> BasicBlock | None:
        """The only latch edge's source; None when the header has several in-loop predecessor
        edges (even from one block, as LLVM)."""
        s = self.block_set
        found: BasicBlock | None = None
        for p in self.header.predecessors:
            if p in s:
                if found is not None:
                    return None
                found = p
        return found

    def is_loop_latch(self, bb: BasicBlock) -> bool:
        return bb in self.block_set and any(p is bb for p in self.header.predecessors)

    def is_loop_exiting(self, bb: BasicBlock) -> bool:
        s = self.block_set
        return any(succ not in s for succ in _successors(bb))

    def _exit_edges(self) -> Iterator[tuple[BasicBlock, BasicBlock]]:
        """Every edge leaving the loop, (inside block, outside successor), in block order;
        terminators and membership read directly (the hot path of the loop passes)."""
        s = self.block_set
        for bb in self.blocks:
            term = bb.instructions._last
            if term is not None and term.is_terminator_class:
                for succ in term.successors:
                    if succ not in s:
                        yield bb, succ

    @property
    def exiting_blocks(self) -> list[BasicBlock]:
        out: list[BasicBlock] = []
        for bb, _ in self._exit_edges():
            if not out or out[-1] is not bb:
                out.append(bb)
        return out

    @property
    def exiting_block(self) -> BasicBlock | None:
        """The only exiting block, or None."""
        found = self.exiting_blocks
        return found[0] if len(found) == 1 else None

    @property
    def exit_blocks(self) -> list[BasicBlock]:
        """Successors outside the loop, per exiting edge (repeats kept), in block order."""
        return [succ for _, succ in self._exit_edges()]

    @property
    def unique_exit_blocks(self) -> list[BasicBlock]:
        s = self.block_set
        seen: set[BasicBlock] = set()
        out: list[BasicBlock] = []
        for bb in self.blocks:
            term = bb.instructions._last
            if term is not None and term.is_terminator_class:
                for succ in term.successors:
                    if succ not in s and succ not in seen:
                        seen.add(succ)
                        out.append(succ)
        return out

    @property
    def exit_edges(self) -> list[tuple[BasicBlock, BasicBlock]]:
        s = self.block_set
        out: list[tuple[BasicBlock, BasicBlock]] = []
        for bb in self.blocks:
            term = bb.instructions._last
            if term is not None and term.is_terminator_class:
                for succ in term.successors:
                    if succ not in s:
                        out.append((bb, succ))
        return out

    @property
    def exit_block(self) -> BasicBlock | None:
        """The only exit block (reached by any number of edges), or None."""
        s = self.block_set
        found: BasicBlock | None = None
        for bb in self.blocks:
            term = bb.instructions._last
            if term is not None and term.is_terminator_class:
                for succ in term.successors:
                    if succ not in s:
                        if found is not None and found is not succ:
                            return None
                        found = succ
        return found

    @property
    def loop_predecessor(self) -> BasicBlock | None:
        """The one block outside the loop that branches to the header (by any terminator)."""
        s = self.block_set
        found: BasicBlock | None = None
        for p in self.header.predecessors:
            if p not in s:
                if found is not None and found is not p:
                    return None
                found = p
        return found

    @property
    def preheader(self) -> BasicBlock | None:
        """The loop predecessor when its terminator has exactly one successor and may take
        hoisted code (not an invoke, callbr, or EH terminator)."""
        pred = self.loop_predecessor
        if pred is None:
            return None
        term = pred.terminator
        if term is None:
            return pred
        if term.opcode in _SPECIAL_TERMINATORS:
            return None
        return pred if len(term.successors) == 1 else None

    @property
    def has_dedicated_exits(self) -> bool:
        """Every exit block has only in-loop predecessors."""
        s = self.block_set
        for exit_bb in self.unique_exit_blocks:
            for p in exit_bb.predecessors:
                if p not in s:
                    return False
        return True

    def is_loop_simplify_form(self) -> bool:
        return self.preheader is not None and self.latch is not None and self.has_dedicated_exits

    # --- LCSSA -----------------------------------------------------------------------------
    def is_lcssa_form(self, dt: DominatorTree) -> bool:
        """No value defined in the loop is used outside it except through phis (a phi's use
        counts in its incoming block); uses in unreachable blocks and token values are ignored."""
        s = self.block_set
        return all(_block_in_lcssa_form(s, bb, dt) for bb in self.blocks)

    def is_recursively_lcssa_form(self, dt: DominatorTree, li: LoopInfo) -> bool:
        """Every block's values are LCSSA with respect to the block's innermost loop."""
        for bb in self.blocks:
            inner = li.loop_for(bb)
            if inner is None or not _block_in_lcssa_form(inner.block_set, bb, dt):
                return False
        return True

    # --- loop metadata -----------------------------------------------------------------------
    @property
    def loop_id(self) -> MDNode | None:
        """The ``!llvm.loop`` node all latch terminators share (self-referencing), or None."""
        found: MDNode | None = None
        for latch in self.latches:
            term = latch.terminator
            md = term.get_metadata("llvm.loop") if term is not None else None
            if md is None:
                return None
            if found is None:
                found = md
            elif md is not found:
                return None
        if found is None or found.num_operands == 0 or found.operands[0] is not found:
            return None
        return found

    def is_annotated_parallel(self) -> bool:
        """LLVM 19's rule: the loop has an ID and every memory access in it is in an access
        group named by the ID's ``llvm.loop.parallel_accesses`` or lists the ID in its
        ``llvm.mem.parallel_loop_access``."""
        loop_id = self.loop_id
        if loop_id is None:
            return False
        groups: set[int] = set()
        option = _find_loop_option(loop_id, "llvm.loop.parallel_accesses")
        if option is not None:
            for md in option.operands[1:]:
                if md is not None:
                    groups.add(id(md))
        for bb in self.blocks:
            for inst in bb.instructions:
                if not inst.may_read_or_write_memory():
                    continue
                group = inst.get_metadata("llvm.access.group")
                if group is not None:
                    if group.num_operands == 0:
                        if id(group) in groups:
                            continue
                    elif any(id(g) in groups for g in group.operands if g is not None):
                        continue
                access = inst.get_metadata("llvm.mem.parallel_loop_access")
                if access is None or not any(op is loop_id for op in access.operands):
                    return False
        return True

    # --- mutation (for loop transforms) --------------------------------------------------------
    def add_block_entry(self, bb: BasicBlock) -> None:
        """Append ``bb`` to this loop only (no parents, no block map)."""
        self.blocks.append(bb)
        self.block_set.add(bb)

    def remove_block_from_loop(self, bb: BasicBlock) -> None:
        """Remove ``bb`` from this loop only."""
        self.blocks.remove(bb)
        self.block_set.discard(bb)

    def add_child_loop(self, child: Loop) -> None:
        if child.parent_loop is not None:
            raise ValueError("loop already has a parent")
        child.parent_loop = self
        self.sub_loops.append(child)

    def remove_child_loop(self, child: Loop) -> Loop:
        """Detach ``child`` (its blocks stay in this loop's block list)."""
        self.sub_loops.remove(child)
        child.parent_loop = None
        return child

    def replace_child_loop_with(self, old: Loop, new: Loop) -> None:
        index = self.sub_loops.index(old)
        self.sub_loops[index] = new
        old.parent_loop = None
        new.parent_loop = self

    def move_to_header(self, bb: BasicBlock) -> None:
        """Make ``bb`` (already in the loop) the header by swapping it with the current one."""
        blocks = self.blocks
        if blocks[0] is bb:
            return
        index = blocks.index(bb)
        blocks[index] = blocks[0]
        blocks[0] = bb

    def __repr__(self) -> str:
        return "<Loop %s depth %d>" % (_printing.block_ref(self.header), self.depth)


def _plain_block_name(bb: BasicBlock) -> str:
    return local_name(bb.name) if bb.name else "%<unnamed>"


def _find_loop_option(loop_id: MDNode, name: str) -> MDNode | None:
    for md in loop_id.operands[1:]:
        if md is None or not md.is_md_node:
            continue
        node: MDNode = md  # type: ignore[assignment]
        ops = node.operands
        if not ops:
            continue
        first: Metadata | None = ops[0]
        if first is not None and first.is_md_string and isinstance(first, MDString) and first.string == name:
            return node
    return None


def _block_in_lcssa_form(loop_blocks: set[BasicBlock], bb: BasicBlock, dt: DominatorTree) -> bool:
    for inst in bb.instructions:
        if inst.type.is_token:
            continue
        use = inst._use_head
        while use is not None:
            user = use.user
            if user.is_instruction:
                user_inst: Instruction = user  # type: ignore[assignment]
                if user_inst.is_phi:
                    user_bb = user_inst._blocks[use.index]  # type: ignore[attr-defined]
                else:
                    user_bb = user_inst.parent
                if (
                    user_bb is not None
                    and user_bb is not bb
                    and user_bb not in loop_blocks
                    and dt.is_reachable(user_bb)
                ):
                    return False
            use = use._next
    return True


class LoopInfo:
    """All natural loops of ``function`` (see the module docstring for the algorithm)."""

    __slots__ = ("function", "top_level_loops", "_loop_for")

    def __init__(self, function: Function, dt: DominatorTree) -> None:
        self.function = function
        self.top_level_loops: list[Loop] = []
        self._loop_for: dict[BasicBlock, Loop] = {}
        if function.blocks._first is not None:
            self._analyze(dt)

    # --- construction ----------------------------------------------------------------------
    def _analyze(self, dt: DominatorTree) -> None:
        loop_for = self._loop_for
        for header in dt.postorder(self.function.entry_block):
            backedges = [p for p in header.predecessors if dt.is_reachable(p) and dt.dominates_block(header, p)]
            if backedges:
                self._discover(Loop(header), backedges, dt)
        # Fill block lists and nesting in CFG post-order, then fix the order.
        top = self.top_level_loops
        for bb in _cfg_postorder(self.function.entry_block):
            loop = loop_for.get(bb)
            if loop is not None and loop.blocks[0] is bb:
                parent = loop.parent_loop
                if parent is not None:
                    parent.sub_loops.append(loop)
                else:
                    top.append(loop)
                blocks = loop.blocks
                blocks[1:] = blocks[:0:-1]
                loop.sub_loops.reverse()
                loop = parent
            while loop is not None:
                loop.blocks.append(bb)
                loop.block_set.add(bb)
                loop = loop.parent_loop

    def _discover(self, loop: Loop, backedges: list[BasicBlock], dt: DominatorTree) -> None:
        loop_for = self._loop_for
        header = loop.blocks[0]
        work = backedges
        while work:
            bb = work.pop()
            inner = loop_for.get(bb)
            if inner is None:
                if not dt.is_reachable(bb):
                    continue
                loop_for[bb] = loop
                if bb is not header:
                    work.extend(bb.predecessors)
                continue
            parent = inner.parent_loop
            while parent is not None:
                inner = parent
                parent = inner.parent_loop
            if inner is loop:
                continue
            inner.parent_loop = loop
            for p in inner.blocks[0].predecessors:
                if loop_for.get(p) is not inner:
                    work.append(p)

    # --- queries ---------------------------------------------------------------------------
    def __iter__(self) -> Iterator[Loop]:
        return iter(self.top_level_loops)

    def __len__(self) -> int:
        return len(self.top_level_loops)

    def __repr__(self) -> str:
        loops = self.loops_in_preorder()
        depth = max((loop.depth for loop in loops), default=0)
        return "<LoopInfo of %s: %d loop%s (%d top-level), max depth %d>" % (
            _printing.block_ref(self.function), len(loops), "" if len(loops) == 1 else "s", len(self.top_level_loops), depth
        )

    def loop_for(self, bb: BasicBlock) -> Loop | None:
        """The innermost loop holding ``bb``, or None."""
        return self._loop_for.get(bb)

    def loop_depth(self, bb: BasicBlock) -> int:
        loop = self._loop_for.get(bb)
        return loop.depth if loop is not None else 0

    def replacement_preserves_lcssa_form(self, old: Instruction, new: Value) -> bool:
        """Replacing ``old`` by ``new`` keeps LCSSA form: ``new`` is no instruction, sits in
        ``old``'s block, in no loop, or in a loop holding ``old``'s (LLVM
        ``replacementPreservesLCSSAForm``)."""
        if not isinstance(new, Instruction):
            return True
        if new.parent is old.parent:
            return True
        to_loop = self.loop_for(new.parent) if new.parent is not None else None
        if to_loop is None:
            return True
        from_loop = self.loop_for(old.parent) if old.parent is not None else None
        return from_loop is not None and to_loop.contains(from_loop)

    def is_loop_header(self, bb: BasicBlock) -> bool:
        loop = self._loop_for.get(bb)
        return loop is not None and loop.blocks[0] is bb

    def loops_in_preorder(self) -> list[Loop]:
        """Every loop, each nest in preorder (LLVM ``getLoopsInPreorder``): the
        top-level loops last to first, as they are kept in reverse program order."""
        out: list[Loop] = []
        for top in reversed(self.top_level_loops):
            out.extend(top.loops_in_preorder())
        return out

    def loops_in_reverse_siblings_preorder(self) -> list[Loop]:
        """LLVM ``getLoopsInReverseSiblingPreorder``: the top-level loops in stored
        order, each nest in preorder with sibling sub-loops visited last to first."""
        out: list[Loop] = []
        for root in self.top_level_loops:
            stack: list[Loop] = [root]
            while stack:
                loop = stack.pop()
                out.append(loop)
                stack.extend(loop.sub_loops)
        return out

    # --- mutation --------------------------------------------------------------------------
    def change_loop_for(self, bb: BasicBlock, loop: Loop | None) -> None:
        if loop is None:
            self._loop_for.pop(bb, None)
        else:
            self._loop_for[bb] = loop

    def add_block_to_loop(self, bb: BasicBlock, loop: Loop) -> None:
        """Add a new block to ``loop`` and every enclosing loop; it maps to ``loop``."""
        if bb in self._loop_for:
            raise ValueError("block is already in a loop")
        self._loop_for[bb] = loop
        node: Loop | None = loop
        while node is not None:
            node.add_block_entry(bb)
            node = node.parent_loop

    def add_top_level_loop(self, loop: Loop) -> None:
        if loop.parent_loop is not None:
            raise ValueError("a top-level loop has no parent")
        self.top_level_loops.append(loop)

    def remove_top_level_loop(self, loop: Loop) -> Loop:
        self.top_level_loops.remove(loop)
        return loop

    def change_top_level_loop(self, old: Loop, new: Loop) -> None:
        index = self.top_level_loops.index(old)
        self.top_level_loops[index] = new
        new.parent_loop = None

    def allocate_loop(self, header: BasicBlock) -> Loop:
        return Loop(header)

    def remove_block(self, bb: BasicBlock) -> None:
        """Forget ``bb``: out of every loop holding it and out of the block map."""
        loop = self._loop_for.pop(bb, None)
        while loop is not None:
            loop.remove_block_from_loop(bb)
            loop = loop.parent_loop

    def verify(self, dt: DominatorTree) -> None:
        """Recompute from scratch and compare loops (by header), nesting, block sets and the
        block map; raises AssertionError on a mismatch."""
        fresh = LoopInfo(self.function, dt)
        mine = {loop.blocks[0]: loop for loop in self.loops_in_preorder()}
        theirs = {loop.blocks[0]: loop for loop in fresh.loops_in_preorder()}
        if set(mine) != set(theirs):
            raise AssertionError("loop headers differ from a fresh LoopInfo")
        for header, loop in mine.items():
            other = theirs[header]
            name = _plain_block_name(header)
            if loop.block_set != other.block_set or len(loop.blocks) != len(loop.block_set):
                raise AssertionError("loop %s: blocks differ from a fresh LoopInfo" % name)
            if loop.blocks[0] is not header:
                raise AssertionError("loop %s: header is not first" % name)
            mp = loop.parent_loop.blocks[0] if loop.parent_loop is not None else None
            tp = other.parent_loop.blocks[0] if other.parent_loop is not None else None
            if mp is not tp:
                raise AssertionError("loop %s: parent differs from a fresh LoopInfo" % name)
            if {s.blocks[0] for s in loop.sub_loops} != {s.blocks[0] for s in other.sub_loops}:
                raise AssertionError("loop %s: sub-loops differ from a fresh LoopInfo" % name)
            for sub in loop.sub_loops:
                if sub.parent_loop is not loop:
                    raise AssertionError("loop %s: sub-loop with another parent" % name)
        if {top.blocks[0] for top in self.top_level_loops} != {top.blocks[0] for top in fresh.top_level_loops}:
            raise AssertionError("top-level loops differ from a fresh LoopInfo")
        for bb, loop in self._loop_for.items():
            other_loop = fresh._loop_for.get(bb)
            if other_loop is None or other_loop.blocks[0] is not loop.blocks[0]:
                raise AssertionError("block map differs from a fresh LoopInfo")
        if len(self._loop_for) != len(fresh._loop_for):
            raise AssertionError("block map differs from a fresh LoopInfo")


def _cfg_postorder(entry: BasicBlock) -> list[BasicBlock]:
    out: list[BasicBlock] = []
    seen: set[BasicBlock] = {entry}
    stack: list[tuple[BasicBlock, list[BasicBlock], int]] = [(entry, _successors(entry), 0)]
    while stack:
        node, succs, i = stack[-1]
        n = len(succs)
        while i < n and succs[i] in seen:
            i += 1
        if i < n:
            stack[-1] = (node, succs, i + 1)
            succ = succs[i]
            seen.add(succ)
            stack.append((succ, _successors(succ), 0))
        else:
            stack.pop()
            out.append(node)
    return out


# --- printing ---------------------------------------------------------------------------------


def format_loop_info(li: LoopInfo, function_name: str) -> str:
    """What ``opt -passes='print<loops>'`` writes for one function."""
    out: list[str] = ["Loop info for function '%s':\n" % function_name]
    if not li.top_level_loops:
        return out[0]
    refs = block_refs(li.function)
    stack: list[tuple[Loop, int]] = [(loop, 1) for loop in reversed(li.top_level_loops)]
    while stack:
        loop, depth = stack.pop()
        s = loop.block_set
        header = loop.blocks[0]
        latches = {p for p in header.predecessors if p in s}
        parts: list[str] = []
        for bb in loop.blocks:
            text = refs.get(bb, "<badref>")
            if bb is header:
                text += "<header>"
            if bb in latches:
                text += "<latch>"
            if any(succ not in s for succ in _successors(bb)):
                text += "<exiting>"
            parts.append(text)
        out.append(
            "%s%sLoop at depth %d containing: %s\n"
            % ("    " * (depth - 1), "Parallel " if loop.is_annotated_parallel() else "", depth, ",".join(parts))
        )
        stack.extend((sub, depth + 1) for sub in reversed(loop.sub_loops))
    return "".join(out)


# --- pass-manager glue ------------------------------------------------------------------------


class LoopAnalysis(FunctionAnalysis[LoopInfo]):
    """``loops``: the function's :class:`LoopInfo`; kept while the CFG is kept."""

    name: ClassVar[str] = "loops"
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = (CFGAnalyses,)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> LoopInfo:
        return LoopInfo(unit, am.get_result(DominatorTreeAnalysis, unit))


class LoopPrinterPass(Pass[Function]):
    """``print<loops>``: writes :func:`format_loop_info` to ``stream`` (stderr by default, as opt)."""

    name: ClassVar[str] = "print<loops>"

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        out = self.stream if self.stream is not None else sys.stderr
        out.write(format_loop_info(am.get_result(LoopAnalysis, unit), unit.name))
        return PreservedAnalyses.all()


__all__ = ["Loop", "LoopAnalysis", "LoopInfo", "LoopPrinterPass", "format_loop_info"]
