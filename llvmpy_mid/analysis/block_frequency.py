"""Block frequencies as LLVM 19's ``BlockFrequencyInfo`` computes them, the "branch-prob"
and "block-freq" analyses, and the small helpers the DOT CFG writer uses.

What: :class:`BlockFrequencyInfo` gives each block reachable from the entry a relative
frequency (:meth:`BlockFrequencyInfo.float_frequency`, a :class:`Scaled` with the entry at
1.0) and LLVM's integer frequency (:meth:`BlockFrequencyInfo.frequency`, the hottest
block near 2**54); unreachable blocks get 0. :func:`edge_probabilities`,
:func:`block_frequencies` and :func:`format_probability` serve ``dot-cfg``.
``BranchProbabilityAnalysis`` ("branch-prob") and ``BlockFrequencyAnalysis``
("block-freq") are the pass-manager analyses.

How (LLVM's mass-distribution algorithm): blocks are numbered in reverse post-order;
natural loops (from LoopInfo) are processed innermost first. In a loop the header gets
a full 64-bit mass which flows along the edges in RPO, split by the branch
probabilities with "dithering" (each successor takes its share of what is left, the
weights normalised to 32 bits); mass returning to the header and mass leaving are
recorded, the loop's scale is 1 / (exit mass) (4096 for a loop that never exits), and
the loop is then "packaged": seen from outside it is one node whose successors are its
exits. The same flow over the whole function follows; then the scales are multiplied
back into the members, outermost first, and the results converted to integers so that
the largest becomes about 2**54. All arithmetic rounds as LLVM's fixed-point types do
(:mod:`block_frequency_scaled`). Learned from LLVM's documentation (the block frequency
design notes) and by comparing with ``opt-19 -passes='print<block-freq>'``.

Irreducible control flow: when mass would flow backwards to a block that is not a
loop header, the region's masses are dropped, its strongly connected parts become
loops with several headers (the blocks entered from outside, plus blocks reached by a
backward edge from a non-entry block), the full mass is split evenly between the
headers and, after one pass, re-split in proportion to the mass flowing back to each;
then the region is computed again.

What it does not do: ``irr_loop_header_weight`` metadata does not steer the mass of
irreducible cycles (the printer shows it, and the profile counts, as LLVM does). Switches with more than 128 cases to
distinct blocks may merge weights in another order than LLVM (which hashes then).
"""

from __future__ import annotations

from collections import deque
from typing import ClassVar

from llvmpy_mid.analysis.block_frequency_bpi import BranchProbabilityInfo, reverse_post_order, successors
from llvmpy_mid.analysis.block_frequency_scaled import MASS_FULL, ONE, Scaled, probability, scale_by_probability
from llvmpy_mid.analysis.loop_info import Loop, LoopAnalysis, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.passes.analysis import AnalysisManager, FunctionAnalysis
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis, PostDominatorTreeAnalysis
from llvmpy_mid.passes.preserved import AnalysisSet, CFGAnalyses

__all__ = [
    "BlockFrequencyAnalysis",
    "BlockFrequencyInfo",
    "BranchProbabilityAnalysis",
    "BranchProbabilityInfo",
    "block_frequencies",
    "cfg_heat_inputs",
    "edge_probabilities",
    "format_probability",
]

_LOCAL, _BACKEDGE, _EXIT = 0, 1, 2
_U32 = 0xFFFFFFFF
_U64 = (1 << 64) - 1


class _LoopData:
    """A loop being processed: a natural loop (one header) or an irreducible cycle (several
    headers, sorted, first in ``nodes``)."""

    __slots__ = ("headers", "parent", "nodes", "backedge_mass", "exits", "scale", "mass", "packaged")

    def __init__(self, parent: _LoopData | None, headers: list[int], others: list[int] = []) -> None:
        self.headers = headers
        self.parent = parent
        self.nodes: list[int] = headers + others
        self.backedge_mass = [0] * len(headers)
        self.exits: list[tuple[int, int]] = []
        self.scale = Scaled(1, 0)
        self.mass = 0
        self.packaged = False

    @property
    def header(self) -> int:
        return self.headers[0]

    @property
    def irreducible(self) -> bool:
        return len(self.headers) > 1

    def is_header(self, i: int) -> bool:
        return i == self.headers[0] or (len(self.headers) > 1 and i in self.headers)


class BlockFrequencyInfo:
    """Block frequencies of one function."""

    __slots__ = ("function", "bpi", "irreducible", "_index", "_rpo", "_loop", "_mass", "_freq", "_int")

    def __init__(self, function: Function, bpi: BranchProbabilityInfo, li: LoopInfo) -> None:
        self.function = function
        self.bpi = bpi
        self.irreducible = False
        entry = function.blocks._first
        self._rpo: list[BasicBlock] = reverse_post_order(entry) if entry is not None else []
        self._index: dict[BasicBlock, int] = {bb: i for i, bb in enumerate(self._rpo)}
        n = len(self._rpo)
        self._loop: list[_LoopData | None] = [None] * n
        self._mass: list[int] = [0] * n
        self._freq: list[Scaled] = []
        self._int: list[int] = []
        if n:
            loops = self._build_loops(li)
            k = len(loops) - 1
            while k >= 0:
                ld = loops[k]
                if not self._loop_mass(ld):
                    loops[k + 1 : k + 1] = self._irreducible_loops(ld)
                    ok = self._loop_mass(ld)
                    assert ok, "unhandled irreducible control flow"
                k -= 1
            if not self._function_mass():
                loops[0:0] = self._irreducible_loops(None)
                ok = self._function_mass()
                assert ok, "unhandled irreducible control flow"
            self._unwrap(loops)

    # --- results ------------------------------------------------------------------------
    def float_frequency(self, bb: BasicBlock) -> Scaled:
        i = self._index.get(bb)
        return Scaled(0, 0) if i is None else self._freq[i]

    def frequency(self, bb: BasicBlock) -> int:
        i = self._index.get(bb)
        return 0 if i is None else self._int[i]

    def set_block_freq(self, bb: BasicBlock, freq: int) -> None:
        """LLVM ``setBlockFreq``: overwrite (or add) ``bb``'s integer frequency."""
        i = self._index.get(bb)
        if i is None:
            i = self._index[bb] = len(self._int)
            self._rpo.append(bb)
            self._loop.append(None)
            self._mass.append(0)
            self._freq.append(Scaled(0, 0))
            self._int.append(0)
        self._int[i] = freq

    def set_block_freq_and_scale(self, reference: BasicBlock, freq: int, blocks: list[BasicBlock]) -> None:
        """LLVM ``setBlockFreqAndScale``: ``blocks`` scaled by freq / freq(reference), then
        ``reference`` set to ``freq``."""
        old = self.frequency(reference)
        for bb in blocks:
            scaled = self.frequency(bb) * freq // old if old else 0
            self.set_block_freq(bb, min(scaled, (1 << 64) - 1))
        self.set_block_freq(reference, freq)

    # --- loops --------------------------------------------------------------------------
    def _build_loops(self, li: LoopInfo) -> list[_LoopData]:
        loops: list[_LoopData] = []
        queue: deque[tuple[Loop, _LoopData | None]] = deque((top, None) for top in li)
        while queue:
            loop, parent = queue.popleft()
            ld = _LoopData(parent, [self._index[loop.header]])
            loops.append(ld)
            self._loop[ld.header] = ld
            queue.extend((sub, ld) for sub in loop.sub_loops)
        for i, bb in enumerate(self._rpo):
            own = self._loop[i]
            if own is not None and own.header == i:
                if own.parent is not None:
                    own.parent.nodes.append(i)
                continue
            member = li.loop_for(bb)
            if member is None:
                continue
            ld2 = self._loop[self._index[member.header]]
            assert ld2 is not None
            ld2.nodes.append(i)
            self._loop[i] = ld2
        return loops

    def _is_double_header(self, i: int) -> bool:
        ld = self._loop[i]
        if ld is None or not ld.is_header(i):
            return False
        p = ld.parent
        return p is not None and p.irreducible and p.is_header(i)

    def _packaged_loop(self, i: int) -> _LoopData | None:
        ld = self._loop[i]
        if ld is None or not ld.packaged:
            return None
        while ld.parent is not None and ld.parent.packaged:
            ld = ld.parent
        return ld

    def _resolved(self, i: int) -> int:
        ld = self._packaged_loop(i)
        return i if ld is None else ld.header

    def _containing(self, i: int) -> _LoopData | None:
        ld = self._loop[i]
        if ld is None or not ld.is_header(i):
            return ld
        if not self._is_double_header(i):
            return ld.parent
        assert ld.parent is not None
        return ld.parent.parent

    def _mass_owner(self, i: int) -> _LoopData | None:
        """The loop whose mass stands for node ``i`` (a package header), else None."""
        ld = self._loop[i]
        if ld is None or not ld.is_header(i) or not ld.packaged:
            return None
        if self._is_double_header(i):
            assert ld.parent is not None
            if ld.parent.packaged:
                return ld.parent
        return ld

    def _add_mass(self, i: int, amount: int) -> None:
        owner = self._mass_owner(i)
        if owner is not None:
            owner.mass = min(owner.mass + amount, _U64)
        else:
            self._mass[i] = min(self._mass[i] + amount, _U64)

    def _set_mass(self, i: int, amount: int) -> None:
        owner = self._mass_owner(i)
        if owner is not None:
            owner.mass = amount
        else:
            self._mass[i] = amount

    def _get_mass(self, i: int) -> int:
        owner = self._mass_owner(i)
        return self._mass[i] if owner is None else owner.mass

    def _spread_full_mass(self, amounts: list[tuple[int, int]]) -> None:
        """Split a full mass between nodes in proportion to ``amounts`` (dithering)."""
        dist, rem_weight = _normalize([[_LOCAL, n, a] for n, a in amounts])
        rem_mass = MASS_FULL
        for _kind, node, amount in dist:
            taken = scale_by_probability(rem_mass, probability(amount, rem_weight)) if rem_weight else 0
            rem_weight -= amount
            rem_mass -= taken
            self._set_mass(node, taken)

    def _loop_mass(self, ld: _LoopData) -> bool:
        if ld.irreducible:
            self._spread_full_mass([(h, 1) for h in ld.headers])
        else:
            self._mass[ld.header] = MASS_FULL
        for i in ld.nodes:
            if not self._propagate(ld, i):
                return False
        if ld.irreducible:
            self._spread_full_mass(list(zip(ld.headers, ld.backedge_mass)))
        total_back = min(sum(ld.backedge_mass), _U64)
        exit_mass = max(MASS_FULL - total_back, 0)
        ld.scale = Scaled(1, 12) if exit_mass == 0 else Scaled.from_mass(exit_mass).inverse()
        for i in ld.nodes:
            inner = self._packaged_loop(i)
            if inner is not None:
                inner.exits.clear()
        ld.packaged = True
        return True

    def _function_mass(self) -> bool:
        self._mass[0] = MASS_FULL
        for i in range(len(self._rpo)):
            if self._resolved(i) == i and not self._propagate(None, i):
                return False
        return True

    # --- irreducible cycles -------------------------------------------------------------
    def _irreducible_loops(self, outer: _LoopData | None) -> list[_LoopData]:
        """Turn the strongly connected parts of ``outer`` (or of the function) into loops."""
        self.irreducible = True
        nodes = list(outer.nodes) if outer is not None else [i for i in range(len(self._rpo)) if self._resolved(i) == i]
        for i in nodes:  # forget what the aborted attempt spread
            self._set_mass(i, 0)
        present = set(nodes)
        succs: dict[int, list[int]] = {i: [] for i in nodes}
        preds: dict[int, list[int]] = {i: [] for i in nodes}

        def edge(a: int, b: int) -> None:
            if (outer is not None and outer.is_header(b)) or b not in present:
                return
            succs[a].append(b)
            preds[b].append(a)

        for i in nodes:
            inner = self._packaged_loop(i)
            if inner is not None:
                for target, _m in inner.exits:
                    edge(i, target)
            else:
                for s in successors(self._rpo[i]):
                    edge(i, self._index[s])
        start = outer.header if outer is not None else 0
        created: list[_LoopData] = []
        for comp in _sccs(start, succs):
            if len(comp) < 2:
                continue
            members = set(comp)
            entries = {i for i in comp if any(p not in members for p in preds[i])}
            headers = set(entries)
            if len(entries) != len(comp):
                for i in comp:
                    if i not in entries and any(p >= i and p not in entries for p in preds[i]):
                        headers.add(i)
            others = sorted(i for i in comp if i not in headers)
            ld = _LoopData(outer, sorted(headers), others)
            created.append(ld)
            for i in ld.nodes:
                own = self._loop[i]
                if own is not None and own.is_header(i):
                    own.parent = ld
                else:
                    self._loop[i] = ld
        for ld in created:
            ok = self._loop_mass(ld)
            assert ok, "unhandled irreducible control flow"
        if outer is not None:
            outer.exits.clear()
            outer.backedge_mass = [0] * len(outer.headers)
            outer.nodes = outer.nodes[:1] + [i for i in outer.nodes[1:] if self._resolved(i) == i]
        return created

    # --- mass flow ----------------------------------------------------------------------
    def _propagate(self, outer: _LoopData | None, i: int) -> bool:
        dist: list[list[int]] = []
        inner = self._packaged_loop(i)
        if inner is not None:
            for target, mass in inner.exits:
                if not self._add_to_dist(dist, outer, i, target, mass):
                    return False
        else:
            bb = self._rpo[i]
            bpi = self.bpi
            for k, s in enumerate(successors(bb)):
                if not self._add_to_dist(dist, outer, i, self._index[s], bpi.edge_probability(bb, k)):
                    return False
        self._distribute(i, outer, dist)
        return True

    def _add_to_dist(self, dist: list[list[int]], outer: _LoopData | None, pred: int, succ: int, weight: int) -> bool:
        if not weight:
            weight = 1
        r = self._resolved(succ)
        if outer is not None and outer.is_header(r):
            dist.append([_BACKEDGE, r, weight])
        elif self._containing(r) is not outer:
            dist.append([_EXIT, r, weight])
        elif r < pred and not (outer is not None and outer.is_header(pred)):
            return False  # an irreducible back edge
        else:
            dist.append([_LOCAL, r, weight])
        return True

    def _distribute(self, i: int, outer: _LoopData | None, dist: list[list[int]]) -> None:
        if not dist:
            return
        mass = self._get_mass(i)
        dist, total = _normalize(dist)
        rem_weight = total
        rem_mass = mass
        for kind, target, amount in dist:
            taken = scale_by_probability(rem_mass, probability(amount, rem_weight))
            rem_weight -= amount
            rem_mass -= taken
            if kind == _LOCAL:
                self._add_mass(target, taken)
            elif kind == _BACKEDGE:
                assert outer is not None
                h = outer.headers.index(target)
                outer.backedge_mass[h] = min(outer.backedge_mass[h] + taken, _U64)
            else:
                assert outer is not None
                outer.exits.append((target, taken))

    # --- final frequencies --------------------------------------------------------------
    def _unwrap(self, loops: list[_LoopData]) -> None:
        freq = [Scaled.from_mass(m) for m in self._mass]
        for ld in loops:
            ld.scale = ld.scale * Scaled.from_mass(ld.mass)
            ld.packaged = False
            for i in ld.nodes:
                own = self._loop[i]
                if own is not None and own.is_header(i) and own.packaged:
                    pl = self._packaged_loop(i)
                    assert pl is not None
                    pl.scale = ld.scale * pl.scale
                else:
                    freq[i] = ld.scale * freq[i]
        self._freq = freq
        lo = hi = freq[0]
        for f in freq:
            if f.compare(lo) < 0:
                lo = f
            if f.compare(hi) > 0:
                hi = f
        factor = Scaled(1, 54) / hi if not hi.is_zero() else Scaled(1, 54)
        self._int = [max(1, (f * factor).to_int()) for f in freq]


# --- helpers for dot-cfg ------------------------------------------------------------------


def _normalize(dist: list[list[int]]) -> tuple[list[list[int]], int]:
    """LLVM's weight normalisation: merge weights to one target (sorted by target), a single
    target weighs 1, and totals beyond 32 bits are shifted down (rounding, at least 1 each)."""
    total = sum(w[2] for w in dist)
    if len(dist) > 1:
        dist.sort(key=lambda w: w[1])
        merged: list[list[int]] = []
        for w in dist:
            if merged and merged[-1][1] == w[1]:
                merged[-1][2] = min(merged[-1][2] + w[2], _U64)
            else:
                merged.append(list(w))
        dist = merged
    if len(dist) == 1:
        dist[0][2] = 1
        return dist, 1
    shift = 0
    if total > _U64:
        shift = 33
    elif total > _U32:
        shift = total.bit_length() - 31
    if shift:
        total = 0
        for w in dist:
            a = w[2]
            w[2] = max(1, (a >> shift) + ((a >> (shift - 1)) & 1))
            total += w[2]
    return dist, total


def _sccs(start: int, succs: dict[int, list[int]]) -> list[list[int]]:
    """Strongly connected components reachable from ``start`` (Tarjan, iterative)."""
    index: dict[int, int] = {start: 0}
    low: dict[int, int] = {start: 0}
    stack = [start]
    on = {start}
    out: list[list[int]] = []
    work: list[tuple[int, int]] = [(start, 0)]
    while work:
        v, k = work[-1]
        if k < len(succs[v]):
            work[-1] = (v, k + 1)
            w = succs[v][k]
            if w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, 0))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            u = work[-1][0]
            low[u] = min(low[u], low[v])
        if low[v] == index[v]:
            comp: list[int] = []
            while True:
                x = stack.pop()
                on.discard(x)
                comp.append(x)
                if x == v:
                    break
            out.append(comp)
    return out


def _infos(fn: Function) -> tuple[BranchProbabilityInfo, LoopInfo]:
    dt = DominatorTree(fn)
    li = LoopInfo(fn, dt)
    pdt = DominatorTree(fn, post=True)
    return BranchProbabilityInfo(fn, li, dt, pdt), li


def edge_probabilities(fn: Function) -> dict[BasicBlock, list[int]]:
    """For each block, one numerator (over 2**31) per successor edge, in successor order."""
    return cfg_heat_inputs(fn)[0]


def format_probability(numerator: int) -> str:
    """``12.50%`` as LLVM prints a branch probability."""
    return "%.2f%%" % (numerator / ONE * 100.0)


def block_frequencies(fn: Function) -> dict[BasicBlock, int]:
    """LLVM's integer block frequencies; unreachable blocks get 0."""
    return cfg_heat_inputs(fn)[1]


def cfg_heat_inputs(fn: Function) -> tuple[dict[BasicBlock, list[int]], dict[BasicBlock, int]]:
    """(edge probabilities, block frequencies) of ``fn`` from one set of analyses, for ``dot-cfg``."""
    bpi, li = _infos(fn)
    probs: dict[BasicBlock, list[int]] = {}
    for bb in fn.blocks:
        n = len(successors(bb))
        if n:
            probs[bb] = [bpi.edge_probability(bb, k) for k in range(n)]
    bfi = BlockFrequencyInfo(fn, bpi, li)
    return probs, {bb: bfi.frequency(bb) for bb in fn.blocks}


# --- analyses -----------------------------------------------------------------------------


class BranchProbabilityAnalysis(FunctionAnalysis[BranchProbabilityInfo]):
    """LLVM's ``BranchProbabilityAnalysis``."""

    name: ClassVar[str] = "branch-prob"
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = (CFGAnalyses,)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> BranchProbabilityInfo:
        li = am.get_result(LoopAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        pdt = am.get_result(PostDominatorTreeAnalysis, unit)
        return BranchProbabilityInfo(unit, li, dt, pdt)


class BlockFrequencyAnalysis(FunctionAnalysis[BlockFrequencyInfo]):
    """LLVM's ``BlockFrequencyAnalysis``."""

    name: ClassVar[str] = "block-freq"
    sets: ClassVar[tuple[type[AnalysisSet], ...]] = (CFGAnalyses,)

    def run(self, unit: Function, am: AnalysisManager[Function]) -> BlockFrequencyInfo:
        bpi = am.get_result(BranchProbabilityAnalysis, unit)
        li = am.get_result(LoopAnalysis, unit)
        return BlockFrequencyInfo(unit, bpi, li)
