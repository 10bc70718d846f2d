"""Branch probabilities and block frequencies, as far as the DOT CFG writer needs them
(a small stand-in for LLVM's ``BranchProbabilityInfo`` and ``BlockFrequencyInfo``).

What: :func:`edge_probabilities` gives each CFG edge a probability as a numerator over
2**31 (LLVM's ``BranchProbability``); :func:`block_frequencies` gives each reachable block
an integer frequency with the entry at 2**54 (the scale opt-19 shows for loop-free code);
:func:`format_probability` prints ``50.00%``.

How: ``branch_weights`` metadata when present; an invoke's unwind edge weighs 1 against
2**20 - 1; an edge into a block that ends in ``unreachable`` is as cold; loop back edges and
exits follow LLVM's loop-branch weights (124 : 4); the rest is uniform. Frequencies are
propagated in reverse post-order; a loop header's frequency is scaled by
1 / (1 - back-edge probability mass), capped at 4096, innermost loops first.

What it does not do: LLVM's pointer, zero, floating-point and call heuristics, its
irreducible-loop handling and its exact scaled-number rounding: on such code the
percentages and heat colours of ``dot-cfg`` may differ from opt-19's (labels, nodes and
edges do not depend on them).
"""

from __future__ import annotations

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function

__all__ = ["block_frequencies", "edge_probabilities", "format_probability"]

_DENOM = 1 << 31
_NORMAL = (1 << 20) - 1
_COLD = 1
_LOOP_TAKEN = 124
_LOOP_EXIT = 4


def _succs(bb: BasicBlock) -> list[BasicBlock]:
    term = bb.terminator
    if term is None:
        return []
    return [s for s in term.successors if s.is_basic_block]


def _scale(weights: list[int]) -> list[int]:
    total = sum(weights)
    if total == 0:
        n = len(weights)
        return [(_DENOM + n // 2) // n for _ in weights]
    return [(w * _DENOM + total // 2) // total for w in weights]


def _metadata_weights(bb: BasicBlock, n: int) -> list[int] | None:
    term = bb.terminator
    if term is None:
        return None
    md = term.get_metadata("prof")
    if md is None:
        return None
    ops = list(getattr(md, "operands", []))
    if not ops or getattr(ops[0], "string", getattr(ops[0], "value", None)) != "branch_weights":
        return None
    weights: list[int] = []
    for op in ops[1:]:
        value = getattr(op, "value", None)
        const = getattr(value, "value", None)
        if isinstance(const, int):
            weights.append(const)
    if len(weights) == n + 1:  # "expected" marker is not used here
        weights = weights[1:]
    return weights if len(weights) == n else None


def _back_edges(fn: Function) -> tuple[set[tuple[BasicBlock, BasicBlock]], dict[BasicBlock, int]]:
    """Back edges of a depth-first walk from the entry, and reverse post-order indexes."""
    entry = fn.blocks._first
    back: set[tuple[BasicBlock, BasicBlock]] = set()
    rpo: dict[BasicBlock, int] = {}
    if entry is None:
        return back, rpo
    post: list[BasicBlock] = []
    on_stack: set[BasicBlock] = {entry}
    seen: set[BasicBlock] = {entry}
    stack: list[tuple[BasicBlock, list[BasicBlock], int]] = [(entry, _succs(entry), 0)]
    while stack:
        bb, succs, k = stack[-1]
        if k < len(succs):
            stack[-1] = (bb, succs, k + 1)
            s = succs[k]
            if s in on_stack:
                back.add((bb, s))
            elif s not in seen:
                seen.add(s)
                on_stack.add(s)
                stack.append((s, _succs(s), 0))
        else:
            stack.pop()
            on_stack.discard(bb)
            post.append(bb)
    for i, bb in enumerate(reversed(post)):
        rpo[bb] = i
    return back, rpo


def edge_probabilities(fn: Function) -> dict[BasicBlock, list[int]]:
    """For each block, one numerator (over 2**31) per successor edge, in successor order."""
    back, _rpo = _back_edges(fn)
    headers = {h for _, h in back}
    result: dict[BasicBlock, list[int]] = {}
    for bb in fn.blocks:
        succs = _succs(bb)
        n = len(succs)
        if n == 0:
            continue
        if n == 1:
            result[bb] = [_DENOM]
            continue
        weights = _metadata_weights(bb, n)
        if weights is None:
            term = bb.terminator
            assert term is not None
            if term.opcode == "invoke":
                weights = [_NORMAL, _COLD]
            else:
                cold = []
                for s in succs:
                    t = s.terminator
                    cold.append(t is not None and t.opcode == "unreachable")
                if any(cold) and not all(cold):
                    weights = [_COLD if c else _NORMAL for c in cold]
                elif any((bb, s) in back for s in succs) and not all((bb, s) in back for s in succs):
                    weights = [_LOOP_TAKEN if (bb, s) in back else _LOOP_EXIT for s in succs]
                    if bb in headers:
                        weights = [_LOOP_TAKEN if (bb, s) in back else _LOOP_EXIT for s in succs]
                else:
                    weights = [1] * n
        result[bb] = _scale(weights)
    return result


def format_probability(numerator: int) -> str:
    """``12.50%`` as LLVM prints a branch probability."""
    return "%.2f%%" % (numerator / _DENOM * 100.0)


def block_frequencies(fn: Function, probs: dict[BasicBlock, list[int]] | None = None) -> dict[BasicBlock, int]:
    """Integer block frequencies (entry = 2**54 before loop scaling); unreachable blocks get 0."""
    if probs is None:
        probs = edge_probabilities(fn)
    back, rpo = _back_edges(fn)
    order = sorted(rpo, key=rpo.__getitem__)
    # Per-header scale: 1 / (1 - mass that returns to the header), from a loop-free sweep.
    scale: dict[BasicBlock, float] = {}
    headers = {h for _, h in back}
    for h in sorted(headers, key=lambda b: -rpo[b]):
        mass: dict[BasicBlock, float] = {h: 1.0}
        returned = 0.0
        for bb in order[rpo[h] :]:
            m = mass.get(bb, 0.0)
            if m == 0.0:
                continue
            if bb is not h and bb in scale:
                m *= scale[bb]
            for s, p in zip(_succs(bb), probs.get(bb, [])):
                share = m * p / _DENOM
                if (bb, s) in back:
                    if s is h:
                        returned += share
                    continue
                if rpo.get(s, -1) > rpo[h]:
                    mass[s] = mass.get(s, 0.0) + share
        returned = min(returned, 1.0)
        scale[h] = 4096.0 if returned >= 1.0 - 1.0 / 4096 else 1.0 / (1.0 - returned)
    freq: dict[BasicBlock, float] = {}
    if order:
        freq[order[0]] = 1.0
    for bb in order:
        f = freq.get(bb, 0.0)
        if bb in scale:
            f *= scale[bb]
            freq[bb] = f
        for s, p in zip(_succs(bb), probs.get(bb, [])):
            if (bb, s) in back:
                continue
            freq[s] = freq.get(s, 0.0) + f * p / _DENOM
    base = float(1 << 54)
    out: dict[BasicBlock, int] = {}
    for bb in fn.blocks:
        out[bb] = int(freq.get(bb, 0.0) * base)
    return out
