"""Branch probabilities as LLVM 19's ``BranchProbabilityInfo`` computes them.

What: :class:`BranchProbabilityInfo` gives every edge of a function a probability (a
numerator over 2**31). Blocks with fewer than two successors, and blocks unreachable
from the entry, get the uniform split.

How: the heuristics are tried in LLVM's order for each reachable block with several
successors (walked in post-order), the first that applies wins:
1. ``!prof branch_weights`` metadata (edges into blocks estimated never to run are
   lowered to 1/2**31, the rest rescaled proportionally);
2. estimated block weights: blocks ending in ``unreachable`` or in a return of a
   ``llvm.experimental.deoptimize`` call weigh 0 (1 with a ``noreturn`` call), EH pads 1, blocks with a ``cold`` call 0xffff; weights spread up
   the dominator tree along post-dominating lines and through loops (a loop weighs
   the most of its exits); loop-exiting edges are divided by 31 (the 124:4 loop-branch
   ratio), "unlikely" in-loop successors (ones that make the loop's compare false
   through a header phi) by 2; unknown blocks weigh 0xfffff;
3. pointer (in)equality 20:12; 4. integer compare with 0, 1, -1 (or the result of
   strcmp-like calls) 20:12; 5. floating equality compares 20:12 (ueq the other way), ``ord``/``uno`` 2**20-1 : 1.
Irreducible cycles (strongly connected sets of blocks outside natural loops) are
treated as loops, as LLVM does, except that (as opt-19 shows) the blocks entering such a
cycle are not given the cycle's weight. Learned from LLVM's documentation and tests and by
comparing with ``opt-19 -passes='print<branch-prob>'``.

What it does not do: the unlikely-successor test only folds integer constants.
"""

from __future__ import annotations

from llvmpy_mid.analysis.block_frequency_scaled import ONE, probability
from llvmpy_mid.analysis.loop_info import Loop, LoopInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.dominators import block_successors as successors
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.cmp import Predicate
from llvmpy_mid.ir.metadata import ConstantAsMetadata, MDNode, MDString
from llvmpy_mid.ir.value import Value

__all__ = ["BranchProbabilityInfo", "successors"]

_DEFAULT = 0xFFFFF
_COLD = 0xFFFF
_LOWEST = 1
_TRIP = 124 // 4
_U32 = 0xFFFFFFFF
_TAKEN = probability(20, 32)
_NOT_TAKEN = probability(12, 32)
_ORD = probability((1 << 20) - 1, 1 << 20)
_UNO = probability(1, 1 << 20)
_P = Predicate
_ZERO_TABLE = {_P.ICMP_EQ: False, _P.ICMP_NE: True, _P.ICMP_SLT: False, _P.ICMP_SGT: True}
_ONE_TABLE = {_P.ICMP_SLT: False}
_MINUS_ONE_TABLE = {_P.ICMP_EQ: False, _P.ICMP_NE: True, _P.ICMP_SGT: True}
_LIBCALL_TABLE = {_P.ICMP_EQ: False, _P.ICMP_NE: True}
_CMP_LIBCALLS = frozenset({"strcasecmp", "strcmp", "strncasecmp", "strncmp", "memcmp", "bcmp"})
_BRANCHING = frozenset({"br", "switch", "indirectbr", "invoke", "callbr"})

# A block's place in the loop structure: (natural loop, irreducible-cycle number).
_Where = tuple[Loop | None, int]




def _loop_contains(outer: Loop, inner: Loop | None) -> bool:
    while inner is not None:
        if inner is outer:
            return True
        inner = inner.parent_loop
    return False


_DEOPTIMIZE = "llvm.experimental.deoptimize"


def terminating_deoptimize_call(bb: BasicBlock) -> Instruction | None:
    """LLVM's ``BasicBlock::getTerminatingDeoptimizeCall``: the call of
    ``llvm.experimental.deoptimize`` right before ``bb``'s ``ret``, if there is one."""
    term = bb.terminator
    if term is None or term.opcode != "ret":
        return None
    prev = term.prev_instruction
    if prev is None or prev.opcode != "call":
        return None
    callee = getattr(prev, "called_function", None)
    if callee is None:
        return None
    name: str = callee.name
    if name == _DEOPTIMIZE or name.startswith(_DEOPTIMIZE + "."):
        return prev
    return None


def reverse_post_order(entry: BasicBlock) -> list[BasicBlock]:
    """Blocks reachable from ``entry`` in reverse post-order (successors in terminator order)."""
    post: list[BasicBlock] = []
    seen = {entry}
    stack: list[tuple[BasicBlock, list[BasicBlock], int]] = [(entry, successors(entry), 0)]
    while stack:
        bb, succs, k = stack[-1]
        if k < len(succs):
            stack[-1] = (bb, succs, k + 1)
            s = succs[k]
            if s not in seen:
                seen.add(s)
                stack.append((s, successors(s), 0))
        else:
            stack.pop()
            post.append(bb)
    post.reverse()
    return post


class _Cycles:
    """Strongly connected sets of two or more reachable blocks (Tarjan, iterative)."""

    __slots__ = ("number", "headers", "blocks")

    def __init__(self, rpo: list[BasicBlock]) -> None:
        self.number: dict[BasicBlock, int] = {}
        self.blocks: list[list[BasicBlock]] = []
        index: dict[BasicBlock, int] = {}
        low: dict[BasicBlock, int] = {}
        on: set[BasicBlock] = set()
        comp: list[BasicBlock] = []
        counter = 0
        if rpo:
            root = rpo[0]
            index[root] = low[root] = 0
            counter = 1
            comp.append(root)
            on.add(root)
            work: list[tuple[BasicBlock, list[BasicBlock], int]] = [(root, successors(root), 0)]
            while work:
                bb, succs, k = work[-1]
                if k < len(succs):
                    work[-1] = (bb, succs, k + 1)
                    s = succs[k]
                    if s not in index:
                        index[s] = low[s] = counter
                        counter += 1
                        comp.append(s)
                        on.add(s)
                        work.append((s, successors(s), 0))
                    elif s in on:
                        low[bb] = min(low[bb], index[s])
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[bb])
                if low[bb] == index[bb]:
                    members: list[BasicBlock] = []
                    while True:
                        x = comp.pop()
                        on.discard(x)
                        members.append(x)
                        if x is bb:
                            break
                    if len(members) > 1:
                        n = len(self.blocks)
                        self.blocks.append(members)
                        for x in members:
                            self.number[x] = n
        self.headers: set[BasicBlock] = set()
        for n, members in enumerate(self.blocks):
            for x in members:
                if any(self.number.get(p, -1) != n for p in x.predecessors):
                    self.headers.add(x)

    def exit_blocks(self, n: int) -> list[BasicBlock]:
        out: list[BasicBlock] = []
        for x in self.blocks[n]:
            out.extend(s for s in successors(x) if self.number.get(s, -1) != n)
        return out


class BranchProbabilityInfo:
    """Edge probabilities of one function (numerators over 2**31)."""

    __slots__ = ("function", "probs", "_li", "_cycles", "_block_weight", "_loop_weight")

    def __init__(self, function: Function, li: LoopInfo, dt: DominatorTree, pdt: DominatorTree) -> None:
        self.function = function
        self.probs: dict[BasicBlock, list[int]] = {}
        self._li = li
        entry = function.blocks._first
        rpo = reverse_post_order(entry) if entry is not None else []
        self._cycles = _Cycles(rpo)
        self._block_weight: dict[BasicBlock, int] = {}
        self._loop_weight: dict[_Where, int] = {}
        self._estimate(rpo, dt, pdt)
        for bb in reversed(rpo):
            term = bb.terminator
            if term is None or len(successors(bb)) < 2:
                continue
            for heuristic in (self._metadata, self._estimated, self._pointer, self._zero, self._float):
                if heuristic(bb, term):
                    break

    # --- queries ------------------------------------------------------------------------
    def edge_probability(self, src: BasicBlock, index: int) -> int:
        probs = self.probs.get(src)
        if probs is not None:
            return probs[index]
        return probability(1, len(successors(src)))

    def edge_probability_to(self, src: BasicBlock, dst: BasicBlock) -> int:
        """Sum over all edges from ``src`` to ``dst``."""
        succs = successors(src)
        probs = self.probs.get(src)
        if probs is None:
            return probability(sum(1 for s in succs if s is dst), len(succs))
        total = sum(p for s, p in zip(succs, probs) if s is dst)
        return min(total, ONE)

    def is_edge_hot(self, src: BasicBlock, dst: BasicBlock) -> bool:
        return self.edge_probability_to(src, dst) > probability(4, 5)

    # --- loop structure -----------------------------------------------------------------
    def _where(self, bb: BasicBlock) -> _Where:
        loop = self._li.loop_for(bb)
        if loop is not None:
            return loop, -1
        return None, self._cycles.number.get(bb, -1)

    @staticmethod
    def _entering(src: _Where, dst: _Where) -> bool:
        if dst[0] is not None and not _loop_contains(dst[0], src[0]):
            return True
        return dst[1] != -1 and src[1] != dst[1]

    def _edge_weight(self, src: _Where, dst: BasicBlock, dst_where: _Where) -> int | None:
        if self._entering(src, dst_where):
            return self._loop_weight.get(dst_where)
        return self._block_weight.get(dst)

    def _max_weight(self, src: _Where, dsts: list[BasicBlock]) -> int | None:
        best: int | None = None
        for d in dsts:
            w = self._edge_weight(src, d, self._where(d))
            if w is None:
                return None
            if best is None or w > best:
                best = w
        return best

    # --- estimated block weights --------------------------------------------------------
    @staticmethod
    def _initial_weight(bb: BasicBlock) -> int | None:
        term = bb.terminator
        if term is not None and (term.opcode == "unreachable" or terminating_deoptimize_call(bb) is not None):
            for inst in bb.instructions:
                if inst.opcode == "call" and getattr(inst, "has_fn_attr")("noreturn"):
                    return _LOWEST
            return 0
        first = bb.first_non_phi
        if first is not None and first.is_eh_pad:
            return _LOWEST
        for inst in bb.instructions:
            if inst.opcode == "call" and getattr(inst, "has_fn_attr")("cold"):
                return _COLD
        return None

    def _estimate(self, rpo: list[BasicBlock], dt: DominatorTree, pdt: DominatorTree) -> None:
        blocks: list[BasicBlock] = []
        loops: list[tuple[BasicBlock, _Where]] = []
        exits_cache: dict[_Where, list[BasicBlock]] = {}

        def update(bb: BasicBlock, where: _Where, weight: int) -> bool:
            if bb in self._block_weight:
                return False
            self._block_weight[bb] = weight
            for p in bb.predecessors:
                pw = self._where(p)
                if self._entering(where, pw):
                    if pw not in self._loop_weight:
                        loops.append((p, pw))
                elif p not in self._block_weight:
                    blocks.append(p)
            return True

        def propagate(bb: BasicBlock, where: _Where, weight: int) -> None:
            dom: BasicBlock | None = bb
            while dom is not None:
                if not pdt.dominates_block(bb, dom):
                    break
                dw = self._where(dom)
                if not (self._entering(dw, where) or self._entering(where, dw)):
                    if not update(dom, dw, weight):
                        break
                elif self._entering(where, dw):
                    loops.append((dom, dw))
                dom = dt.idom(dom)

        for bb in rpo:
            w = self._initial_weight(bb)
            if w is not None:
                propagate(bb, self._where(bb), w)
        while blocks or loops:
            while loops:
                bb, where = loops.pop()
                if where in self._loop_weight:
                    continue
                exits = exits_cache.get(where)
                if exits is None:
                    if where[0] is not None:
                        exits = where[0].exit_blocks
                    else:
                        exits = self._cycles.exit_blocks(where[1])
                    exits_cache[where] = exits
                w = self._max_weight(where, exits)
                if w is not None:
                    self._loop_weight[where] = max(w, _LOWEST)
                    loop = where[0]
                    if loop is not None:
                        blocks.extend(p for p in loop.header.predecessors if p not in loop.block_set)
                    # (opt-19 does not revisit the blocks entering an irreducible cycle)
            while blocks:
                bb = blocks.pop()
                if bb in self._block_weight:
                    continue
                where = self._where(bb)
                w = self._max_weight(where, successors(bb))
                if w is not None:
                    propagate(bb, where, w)

    def _estimated(self, bb: BasicBlock, term: Instruction) -> bool:
        where = self._where(bb)
        unlikely = _unlikely_successors(bb, term, where[0]) if where[0] is not None else set()
        found = False
        weights: list[int] = []
        for s in successors(bb):
            sw = self._where(s)
            w = self._edge_weight(where, s, sw)
            if w != 0 and self._entering(sw, where):
                w = max(_LOWEST, (_DEFAULT if w is None else w) // _TRIP)
            if w != 0 and s in unlikely:
                w = max(_LOWEST, (_DEFAULT if w is None else w) // 2)
            if w is not None:
                found = True
            weights.append(_DEFAULT if w is None else w)
        total = sum(weights)
        if not found or total == 0:
            return False
        if total > _U32:
            factor = total // _U32 + 1
            weights = [max(w // factor, _LOWEST) for w in weights]
            total = sum(weights)
        self.probs[bb] = [probability(w, total) for w in weights]
        return True

    # --- metadata -----------------------------------------------------------------------
    def _metadata(self, bb: BasicBlock, term: Instruction) -> bool:
        if term.opcode not in _BRANCHING:
            return False
        succs = successors(bb)
        weights = _branch_weights(term, len(succs))
        if weights is None:
            return False
        where = self._where(bb)
        cold: list[int] = []
        warm: list[int] = []
        for i, s in enumerate(succs):
            w = self._edge_weight(where, s, self._where(s))
            (cold if w is not None and w <= 0 else warm).append(i)
        total = sum(weights)
        if total > _U32:
            factor = total // _U32 + 1
            weights = [w // factor for w in weights]
            total = sum(weights)
        if total == 0 or not warm:
            weights = [1] * len(succs)
            total = len(succs)
        probs = [probability(w, total) for w in weights]
        if cold and warm:
            for i in cold:
                probs[i] = min(probs[i], 1)
            new_warm = ONE - min(ONE, sum(probs[i] for i in cold))
            old_warm = min(ONE, sum(probs[i] for i in warm))
            if old_warm != new_warm:
                if old_warm == 0:
                    each = (new_warm + len(warm) // 2) // len(warm)
                    for i in warm:
                        probs[i] = each
                else:
                    for i in warm:
                        probs[i] = (new_warm * probs[i] + old_warm // 2) // old_warm
        self.probs[bb] = probs
        return True

    # --- compare heuristics -------------------------------------------------------------
    def _set(self, bb: BasicBlock, taken_likely: bool, likely: int = _TAKEN, unlikely: int = _NOT_TAKEN) -> bool:
        self.probs[bb] = [likely, unlikely] if taken_likely else [unlikely, likely]
        return True

    def _pointer(self, bb: BasicBlock, term: Instruction) -> bool:
        cond = _branch_condition(term)
        if cond is None or cond.opcode != "icmp":
            return False
        pred = getattr(cond, "predicate")
        if pred not in (_P.ICMP_EQ, _P.ICMP_NE) or not cond.operands[0].type.is_pointer:
            return False
        return self._set(bb, pred == _P.ICMP_NE)

    def _zero(self, bb: BasicBlock, term: Instruction) -> bool:
        cond = _branch_condition(term)
        if cond is None or cond.opcode != "icmp":
            return False
        rhs = _constant_int(cond.operands[1])
        if rhs is None:
            return False
        lhs = cond.operands[0]
        if isinstance(lhs, Instruction) and lhs.opcode == "and":
            mask = _constant_int(lhs.operands[1])
            if mask is not None and mask.value != 0 and mask.value & (mask.value - 1) == 0:
                return False
        pred = getattr(cond, "predicate")
        table: dict[Predicate, bool]
        if _is_cmp_libcall(lhs):
            table = _LIBCALL_TABLE
        elif rhs.value == 0:
            table = _ZERO_TABLE
        elif rhs.value == 1:
            table = _ONE_TABLE
        elif rhs.value == rhs.type.mask:
            table = _MINUS_ONE_TABLE
        else:
            return False
        likely = table.get(pred)
        if likely is None:
            return False
        return self._set(bb, likely)

    def _float(self, bb: BasicBlock, term: Instruction) -> bool:
        cond = _branch_condition(term)
        if cond is None or cond.opcode != "fcmp":
            return False
        pred = getattr(cond, "predicate")
        if pred.is_equality:
            # only ueq (true for equal operands, NaNs included) is predicted not taken
            return self._set(bb, pred != _P.FCMP_UEQ)
        if pred == _P.FCMP_ORD:
            return self._set(bb, True, _ORD, _UNO)
        if pred == _P.FCMP_UNO:
            return self._set(bb, False, _ORD, _UNO)
        return False


def _branch_condition(term: Instruction) -> Instruction | None:
    if term.opcode != "br" or len(term.operands) != 3:
        return None
    cond = term.operands[0]
    return cond if isinstance(cond, Instruction) else None


def _constant_int(v: Value) -> ConstantInt | None:
    if isinstance(v, Instruction) and v.opcode == "bitcast":
        v = v.operands[0]
    return v if isinstance(v, ConstantInt) else None


def _is_cmp_libcall(v: Value) -> bool:
    if not isinstance(v, Instruction) or v.opcode != "call":
        return False
    fn = getattr(v, "called_function", None)
    if fn is None or fn.name not in _CMP_LIBCALLS or not fn.is_declaration:
        return False
    ret = fn.function_type.return_type
    return bool(getattr(ret, "is_integer", False)) and getattr(ret, "width", 0) == 32


def _branch_weights(term: Instruction, n: int) -> list[int] | None:
    md = term.get_metadata("prof")
    if not isinstance(md, MDNode):
        return None
    ops = list(md.operands)
    if not ops or not isinstance(ops[0], MDString) or ops[0].string != "branch_weights":
        return None
    ops = ops[1:]
    if ops and isinstance(ops[0], MDString):
        if ops[0].string != "expected":
            return None
        ops = ops[1:]
    weights: list[int] = []
    for op in ops:
        if not isinstance(op, ConstantAsMetadata) or not isinstance(op.value, ConstantInt):
            return None
        weights.append(op.value.value & _U32)
    return weights if len(weights) == n else None


def _eval_icmp(pred: Predicate, a: ConstantInt, b: ConstantInt) -> bool | None:
    if a.type is not b.type:
        return None
    ua, ub = a.value, b.value
    sa, sb = a.sext_value, b.sext_value
    table = {
        _P.ICMP_EQ: ua == ub, _P.ICMP_NE: ua != ub,
        _P.ICMP_UGT: ua > ub, _P.ICMP_UGE: ua >= ub, _P.ICMP_ULT: ua < ub, _P.ICMP_ULE: ua <= ub,
        _P.ICMP_SGT: sa > sb, _P.ICMP_SGE: sa >= sb, _P.ICMP_SLT: sa < sb, _P.ICMP_SLE: sa <= sb,
    }
    return table.get(pred)


def _unlikely_successors(bb: BasicBlock, term: Instruction, loop: Loop | None) -> set[BasicBlock]:
    """In-loop successors that take the branch's compare to the value sending control elsewhere."""
    from llvmpy_mid.ir.constant_fold import constant_fold_binary_instruction

    out: set[BasicBlock] = set()
    if loop is None:
        return out
    cond = _branch_condition(term)
    if cond is None or cond.opcode != "icmp":
        return out
    lhs, rhs = cond.operands[0], cond.operands[1]
    if not isinstance(lhs, Instruction) or not isinstance(rhs, ConstantInt):
        return out
    chain: list[Instruction] = []
    node: Value = lhs
    while isinstance(node, Instruction) and node.opcode != "phi":
        if not getattr(node, "is_binary_op", False) and node.opcode not in _BINOPS:
            return out
        if not isinstance(node.operands[1], ConstantInt) or node.parent not in loop.block_set:
            return out
        chain.append(node)
        node = node.operands[0]
    if not isinstance(node, Instruction) or node.parent not in loop.block_set:
        return out
    pred = getattr(cond, "predicate")
    succs = successors(bb)
    true_bb, false_bb = term.operands[2], term.operands[1]
    seen = {node}
    work = [node]
    while work:
        phi = work.pop()
        for v, b in getattr(phi, "incoming"):
            if b not in loop.block_set:
                continue
            if isinstance(v, Instruction) and v.opcode == "phi":
                if v not in seen:
                    seen.add(v)
                    work.append(v)
                continue
            if not isinstance(v, ConstantInt) or b not in succs:
                continue
            c: object = v
            for inst in reversed(chain):
                c = constant_fold_binary_instruction(inst.opcode, c, inst.operands[1])  # type: ignore[arg-type]
                if c is None:
                    break
            if not isinstance(c, ConstantInt):
                continue
            r = _eval_icmp(pred, c, rhs)
            if r is None:
                continue
            if isinstance(b, BasicBlock) and ((not r and b is true_bb) or (r and b is false_bb)):
                out.add(b)
    return out


_BINOPS = frozenset(
    {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
     "fadd", "fsub", "fmul", "fdiv", "frem"}
)
