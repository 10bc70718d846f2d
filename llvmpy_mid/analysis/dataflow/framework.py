"""A generic bit-vector data-flow solver over a function's blocks, with results
at every instruction point.

What: a problem (:class:`DataflowProblem`) names a direction (forward or
backward), a meet (union or intersection), the size of a numbered domain whose
sets are Python ints (bit ``i`` = element ``i``, see :class:`Domain`), a
transfer function per instruction in gen/kill form (``out = gen | (in & ~kill)``,
read in the direction of the problem), optional per-edge gen/kill (liveness
uses them for phi operands, which are used on the incoming edge), a boundary
value (at the entry for forward problems, at the exits for backward ones) and
an initial value (top: the full set for intersection, empty for union, unless
given). :func:`solve` returns a :class:`DataflowResult` holding IN (the point at
the top of a block) and OUT (the point at its bottom) for every block, whatever
the direction, as the Dragon book writes them; the point before or after any
instruction is recomputed on demand from its block's IN or OUT in
O(block length), so no per-instruction sets are kept.

How: the per-instruction transfers of a block are composed once into one block
gen/kill pair. Blocks are visited in reverse post-order (forward) or post-order
(backward) of an iterative depth-first walk from the entry (blocks it misses are
appended, each starting a walk of its own); sweeps over that order process only
blocks whose inputs changed, until a sweep changes nothing. Each sweep costs
O(blocks + edges) bit operations; the number of sweeps is the usual loop-depth
bound (plus two).

Blocks the boundary cannot reach (forward: not reachable from the entry;
backward: no path to a block without successors, e.g. an infinite loop) are
treated as boundary blocks too: their input is the boundary value met with
their neighbours', as if control could enter (or leave) there. For union
problems with an empty boundary this changes nothing; for intersection problems
it keeps "must" facts from holding vacuously in code that no path from the
boundary reaches (nothing is available in unreachable code, nothing is
anticipated in an infinite loop).

What it does not do: no lattices other than bit sets, no non-distributive
transfer functions, no interprocedural problems; the CFG must not change while
a result is used.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Callable, Generic, Hashable, Iterable, Sequence, TypeVar

from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction

T = TypeVar("T", bound=Hashable)

GenKill = tuple[int, int]
"""A transfer function ``x -> gen | (x & ~kill)``."""


class Direction(Enum):
    FORWARD = "forward"
    BACKWARD = "backward"


class Meet(Enum):
    UNION = "union"
    INTERSECTION = "intersection"


class Domain(Generic[T]):
    """Elements numbered 0..n-1 in insertion order; sets of them are ints."""

    __slots__ = ("elements", "_index")

    def __init__(self, elements: Iterable[T] = ()) -> None:
        self.elements: list[T] = []
        self._index: dict[T, int] = {}
        for e in elements:
            self.add(e)

    def add(self, element: T) -> int:
        """The element's number (added at the end if new)."""
        i = self._index.get(element)
        if i is None:
            i = self._index[element] = len(self.elements)
            self.elements.append(element)
        return i

    def number(self, element: T) -> int:
        return self._index[element]

    def get(self, element: T) -> int | None:
        return self._index.get(element)

    def __contains__(self, element: object) -> bool:
        return element in self._index

    def __len__(self) -> int:
        return len(self.elements)

    @property
    def full(self) -> int:
        return (1 << len(self.elements)) - 1

    def bit(self, element: T) -> int:
        return 1 << self._index[element]

    def bits_of(self, elements: Iterable[T]) -> int:
        bits = 0
        index = self._index
        for e in elements:
            bits |= 1 << index[e]
        return bits

    def set_of(self, bits: int) -> list[T]:
        """The elements of ``bits``, in domain order."""
        out: list[T] = []
        elements = self.elements
        while bits:
            low = bits & -bits
            out.append(elements[low.bit_length() - 1])
            bits ^= low
        return out


def bit_indices(bits: int) -> list[int]:
    """The numbers of the set bits, ascending."""
    out: list[int] = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class DataflowProblem:
    """One bit-vector problem. ``transfers(bb)`` gives one (gen, kill) pair per instruction
    of ``bb`` in block order; ``edge_transfer(src, dst)`` an optional (gen, kill) applied to
    what flows along the CFG edge ``src -> dst`` (in the problem's direction)."""

    __slots__ = ("name", "direction", "meet", "width", "transfers", "boundary", "initial", "edge_transfer")

    def __init__(
        self,
        name: str,
        direction: Direction,
        meet: Meet,
        width: int,
        transfers: Callable[[BasicBlock], Sequence[GenKill]],
        *,
        boundary: int = 0,
        initial: int | None = None,
        edge_transfer: Callable[[BasicBlock, BasicBlock], GenKill | None] | None = None,
    ) -> None:
        self.name = name
        self.direction = direction
        self.meet = meet
        self.width = width
        self.transfers = transfers
        self.boundary = boundary
        if initial is None:
            initial = (1 << width) - 1 if meet is Meet.INTERSECTION else 0
        self.initial = initial
        self.edge_transfer = edge_transfer


def _successors(bb: BasicBlock) -> list[BasicBlock]:
    term = bb.terminator
    if term is None:
        return []
    return list(dict.fromkeys(term.successors))


class FlowGraph:
    """A function's blocks with their distinct successors and predecessors (edges to blocks
    of other functions dropped) and the post-order :func:`solve` visits them in; several
    problems solved on one unchanged CFG may share one."""

    __slots__ = ("blocks", "succs", "preds", "postorder")

    def __init__(self, function: Function) -> None:
        blocks = self.blocks = list(function.blocks)
        succs: dict[BasicBlock, list[BasicBlock]] = {bb: _successors(bb) for bb in blocks}
        preds: dict[BasicBlock, list[BasicBlock]] = {bb: [] for bb in blocks}
        for bb in blocks:
            ss = succs[bb]
            for s in ss:
                p = preds.get(s)
                if p is None:
                    succs[bb] = [x for x in ss if x in preds]
                else:
                    p.append(bb)
        self.succs = succs
        self.preds = preds
        self.postorder = cfg_postorder(blocks, succs) if blocks else []


def cfg_postorder(blocks: Sequence[BasicBlock], succs: dict[BasicBlock, list[BasicBlock]]) -> list[BasicBlock]:
    """Post-order of iterative DFS walks, first from ``blocks[0]``, then from each block not
    yet visited, in ``blocks`` order (successors in terminator order)."""
    order: list[BasicBlock] = []
    visited: set[BasicBlock] = set()
    for root in blocks:
        if root in visited:
            continue
        visited.add(root)
        stack: list[tuple[BasicBlock, int]] = [(root, 0)]
        while stack:
            bb, i = stack[-1]
            ss = succs[bb]
            if i < len(ss):
                stack[-1] = (bb, i + 1)
                s = ss[i]
                if s not in visited:
                    visited.add(s)
                    stack.append((s, 0))
            else:
                stack.pop()
                order.append(bb)
    return order


def _reached(roots: Iterable[BasicBlock], edges: dict[BasicBlock, list[BasicBlock]]) -> set[BasicBlock]:
    seen: set[BasicBlock] = set(roots)
    stack = list(seen)
    while stack:
        bb = stack.pop()
        for n in edges[bb]:
            if n not in seen:
                seen.add(n)
                stack.append(n)
    return seen


class DataflowResult:
    """The fixed point of one problem on one function.

    ``block_in[bb]`` is the set at the top of ``bb``, ``block_out[bb]`` the set at its
    bottom (for both directions). ``points(bb)`` lists the ``len(bb) + 1`` sets between
    instructions: ``points(bb)[k]`` is the set just before instruction ``k`` and the last
    one is ``block_out[bb]``."""

    __slots__ = (
        "function",
        "problem",
        "domain",
        "blocks",
        "block_in",
        "block_out",
        "block_gen",
        "block_kill",
        "boundary_blocks",
        "sweeps",
        "visits",
        "_transfers",
        "_points",
        "_positions",
    )

    def __init__(self, function: Function, problem: DataflowProblem, domain: Domain[Any] | None) -> None:
        self.function = function
        self.problem = problem
        self.domain = domain
        self.blocks: list[BasicBlock] = list(function.blocks)
        self.block_in: dict[BasicBlock, int] = {}
        self.block_out: dict[BasicBlock, int] = {}
        self.block_gen: dict[BasicBlock, int] = {}
        self.block_kill: dict[BasicBlock, int] = {}
        self.boundary_blocks: set[BasicBlock] = set()
        self.sweeps = 0
        self.visits = 0
        self._transfers: dict[BasicBlock, Sequence[GenKill]] = {}
        self._points: dict[BasicBlock, list[int]] = {}
        self._positions: dict[BasicBlock, dict[Instruction, int]] = {}

    # --- per instruction --------------------------------------------------------------------
    def instruction_transfers(self, bb: BasicBlock) -> Sequence[GenKill]:
        return self._transfers[bb]

    def points(self, bb: BasicBlock) -> list[int]:
        """The sets before each instruction of ``bb`` and, last, after the last one
        (computed once per block; the result never changes after solving)."""
        cached = self._points.get(bb)
        if cached is None:
            cached = self._points[bb] = self._compute_points(bb)
        return cached

    def _compute_points(self, bb: BasicBlock) -> list[int]:
        tr = self._transfers[bb]
        n = len(tr)
        pts = [0] * (n + 1)
        if self.problem.direction is Direction.FORWARD:
            x = pts[0] = self.block_in[bb]
            for i in range(n):
                g, k = tr[i]
                if g or k:  # (else the same set: shared, not copied)
                    x = g | (x & ~k)
                pts[i + 1] = x
        else:
            x = pts[n] = self.block_out[bb]
            for i in range(n - 1, -1, -1):
                g, k = tr[i]
                if g or k:
                    x = g | (x & ~k)
                pts[i] = x
        return pts

    def _position(self, inst: Instruction) -> tuple[BasicBlock, int]:
        bb = inst.parent
        if bb is None or bb not in self.block_in:
            raise ValueError("instruction is not in the analysed function")
        positions = self._positions.get(bb)
        if positions is None:
            positions = self._positions[bb] = {x: i for i, x in enumerate(bb.instructions)}
        return bb, positions[inst]

    def before(self, inst: Instruction) -> int:
        """The set at the point just before ``inst`` (O(1) after the block's first query)."""
        bb, i = self._position(inst)
        return self.points(bb)[i]

    def after(self, inst: Instruction) -> int:
        """The set at the point just after ``inst`` (O(1) after the block's first query)."""
        bb, i = self._position(inst)
        return self.points(bb)[i + 1]

    # --- naming -----------------------------------------------------------------------------
    def elements(self, bits: int) -> list[object]:
        if self.domain is None:
            return list(bit_indices(bits))
        return self.domain.set_of(bits)


def solve(
    function: Function, problem: DataflowProblem, domain: Domain[Any] | None = None, graph: FlowGraph | None = None
) -> DataflowResult:
    """Iterate ``problem`` on ``function`` to its fixed point (see the module docstring);
    ``graph``, if given, is ``function``'s current :class:`FlowGraph`."""
    result = DataflowResult(function, problem, domain)
    blocks = result.blocks
    if not blocks:
        return result
    forward = problem.direction is Direction.FORWARD
    union = problem.meet is Meet.UNION
    if graph is None:
        graph = FlowGraph(function)
    succs = graph.succs
    preds = graph.preds

    # Compose each block's transfer (in the direction of flow).
    transfers = result._transfers
    block_gen = result.block_gen
    block_kill = result.block_kill
    for bb in blocks:
        tr = problem.transfers(bb)
        transfers[bb] = tr
        gen = kill = 0
        seq = tr if forward else reversed(tr)
        for g, k in seq:
            if k:
                gen = g | (gen & ~k)
                kill |= k
            elif g:
                gen |= g
        block_gen[bb] = gen
        block_kill[bb] = kill

    # Flow graph in the problem's direction: sources feed a block's input.
    if forward:
        sources, sinks = preds, succs
        roots = [blocks[0]]
        order = graph.postorder[::-1]
    else:
        sources, sinks = succs, preds
        roots = [bb for bb in blocks if not succs[bb]]
        order = graph.postorder
    reached = _reached(roots, sinks)
    boundary_blocks = {bb for bb in blocks if bb not in reached}
    boundary_blocks.update(roots)
    result.boundary_blocks = boundary_blocks

    edge_fn = problem.edge_transfer
    edge_tr: dict[tuple[BasicBlock, BasicBlock], GenKill] = {}
    if edge_fn is not None:
        for bb in blocks:
            for s in succs[bb]:
                t = edge_fn(bb, s)
                if t is not None:
                    edge_tr[(bb, s)] = t

    boundary = problem.boundary
    initial = problem.initial
    inputs: dict[BasicBlock, int] = {}
    outputs: dict[BasicBlock, int] = {bb: initial for bb in blocks}
    position = {bb: i for i, bb in enumerate(order)}
    dirty = [True] * len(order)
    pending = len(order)
    sweeps = visits = 0
    while pending:
        sweeps += 1
        for i, bb in enumerate(order):
            if not dirty[i]:
                continue
            dirty[i] = False
            pending -= 1
            visits += 1
            srcs = sources[bb]
            if bb in boundary_blocks:
                x = boundary
                first = False
            else:
                x = 0
                first = True
            for s in srcs:
                v = outputs[s]
                if edge_tr:
                    t = edge_tr.get((s, bb) if forward else (bb, s))
                    if t is not None:
                        v = t[0] | (v & ~t[1])
                if first:
                    x = v
                    first = False
                elif union:
                    x |= v
                else:
                    x &= v
            if first:  # no sources and not a boundary block (cannot happen) -> keep top
                x = initial
            inputs[bb] = x
            out = block_gen[bb] | (x & ~block_kill[bb])
            if out != outputs[bb]:
                outputs[bb] = out
                for n in sinks[bb]:
                    j = position[n]
                    if not dirty[j]:
                        dirty[j] = True
                        pending += 1
    result.sweeps = sweeps
    result.visits = visits
    if forward:
        result.block_in = inputs
        result.block_out = outputs
    else:
        result.block_in = outputs
        result.block_out = inputs
    return result


__all__ = [
    "DataflowProblem",
    "DataflowResult",
    "Direction",
    "Domain",
    "FlowGraph",
    "GenKill",
    "Meet",
    "bit_indices",
    "cfg_postorder",
    "solve",
]
