"""The generic dominator tree over a function's CFG (LLVM ``DominatorTree`` /
``PostDominatorTree`` as kept in lib/IR).

How: one iterative depth-first walk numbers the blocks in preorder (successors
visited in terminator order, the way LLVM's walk does, so children come out in
LLVM's order), then Semi-NCA computes semidominators with iterative path
compression and immediate dominators as nearest common ancestors. No
recursion anywhere, so very deep CFGs are fine. After construction the tree is
walked once to give every node DFS in/out numbers and a level, which makes
``dominates`` between blocks O(1). Forward trees can be updated in place as
LLVM's transforms do (``add_new_block``, ``change_immediate_dominator``,
``erase_node``); the numbers are then recomputed lazily, and until then block
dominance walks up the tree (renumbering after 32 such queries, as LLVM).
Separately, the tree keeps the state LLVM's own tree would be in (whether its
DFS numbers are valid, how many slow queries it counted): ``print<domtree>``
shows it, so printers read ``dfs_info_valid``, ``slow_queries`` and
``printed_dfs_numbers``.

Post-dominators use LLVM's virtual root (``<<exit node>>``, never exposed as a
block: ``idom`` of a root is ``None``). Roots are found as LLVM 19 does: blocks
without successors in function order, then, for every block not reverse-reachable
from those (infinite loops), the last block of a forward walk from it (successors
in function order) becomes an extra root; roots forward-reachable from another
root are then dropped.

Blocks unreachable from the entry (resp. not reaching a root) are not in the
tree: ``is_reachable`` is False for them. Beyond the three in-place updates above
(the caller keeps them true to the CFG), the tree is a snapshot: after other CFG
changes, build a new one. Dominance frontiers
and printers belong to the analysis layer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from llvmpy_mid.errors import IRError

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Use, Value


class DominatorTree:
    """Dominator (or, with ``post=True``, post-dominator) tree of ``function``.

    Internally nodes are numbered in DFS preorder of the construction walk; for a
    post-dominator tree number 0 is the virtual root and has no block.
    """

    __slots__ = (
        "function",
        "post",
        "_blocks",
        "_num",
        "_idom",
        "_children",
        "_dfs_in",
        "_dfs_out",
        "_level",
        "_preorder",
        "_roots",
        "_parent_of",
        "_stale",
        "_slow_queries",
        "_llvm_dfs_valid",
        "_llvm_slow_queries",
        "_llvm_numbers",
        "_view",
        "_recalculated",
    )

    def __init__(self, function: Function, post: bool = False) -> None:
        self.function = function
        self.post = post
        if not function.blocks._first:
            raise IRError("cannot build a dominator tree for a declaration")
        # _blocks[i] is the block of node i (None for the virtual root).
        self._blocks: list[BasicBlock | None] = []
        self._num: dict[BasicBlock, int] = {}
        if post:
            self._roots = _find_post_roots(function)
            rev_children = self._walk_post(self._roots)
        else:
            self._roots = [function.entry_block]
            rev_children = self._walk_forward(function.entry_block)
        self._idom = _semi_nca(self._parent_of, rev_children)
        self._stale = False
        self._slow_queries = 0
        # What LLVM's tree would report (printers show it): DFS numbers are only
        # computed after 32 slow queries or an explicit update_dfs_numbers().
        self._llvm_dfs_valid = False
        self._llvm_slow_queries = 0
        self._llvm_numbers: tuple[list[int], list[int]] | None = None
        # During a batch of updates: the CFG as it was before the updates not yet
        # applied (LLVM's PreViewCFG): per block, (edges to drop, edges to add) for
        # successors and for predecessors.
        self._view: tuple[_Diff, _Diff] | None = None
        self._recalculated = False
        self._build_tree()

    # --- construction ----------------------------------------------------------------
    def _walk_forward(self, entry: BasicBlock) -> list[list[int]]:
        blocks = self._blocks
        num = self._num
        parent: list[int] = []
        rev: list[list[int]] = []
        work: list[tuple[BasicBlock, int]] = [(entry, -1)]
        while work:
            bb, p = work.pop()
            n = num.get(bb)
            if n is not None:
                rev[n].append(p)
                continue
            n = len(blocks)
            num[bb] = n
            blocks.append(bb)
            parent.append(p)
            rev.append([p] if p >= 0 else [])
            succs = bb.successors
            for i in range(len(succs) - 1, -1, -1):
                succ = succs[i]
                if succ.is_basic_block:  # a broken terminator may name another value
                    work.append((succ, n))
        self._parent_of = parent
        return rev

    def _walk_post(self, roots: list[BasicBlock]) -> list[list[int]]:
        blocks = self._blocks
        num = self._num
        blocks.append(None)
        parent: list[int] = [-1]
        rev: list[list[int]] = [[]]
        for root in roots:
            work: list[tuple[BasicBlock, int]] = [(root, 0)]
            while work:
                bb, p = work.pop()
                n = num.get(bb)
                if n is not None:
                    rev[n].append(p)
                    continue
                n = len(blocks)
                num[bb] = n
                blocks.append(bb)
                parent.append(p)
                rev.append([p])
                for pred in bb.predecessors:
                    work.append((pred, n))
        self._parent_of = parent
        return rev

    def _build_tree(self) -> None:
        idom = self._idom
        count = len(idom)
        children: list[list[int]] = [[] for _ in range(count)]
        for i in range(1, count):
            children[idom[i]].append(i)
        self._children = children
        self._number()

    def _number(self) -> None:
        """DFS in/out numbers, levels and preorder from the children lists."""
        children = self._children
        count = len(children)
        dfs_in = [0] * count
        dfs_out = [0] * count
        level = [0] * count
        preorder: list[int] = []
        if count:
            clock = 0
            stack: list[tuple[int, int]] = [(0, 0)]
            dfs_in[0] = clock
            clock += 1
            preorder.append(0)
            while stack:
                node, i = stack[-1]
                kids = children[node]
                if i < len(kids):
                    stack[-1] = (node, i + 1)
                    kid = kids[i]
                    dfs_in[kid] = clock
                    clock += 1
                    level[kid] = level[node] + 1
                    preorder.append(kid)
                    stack.append((kid, 0))
                else:
                    dfs_out[node] = clock
                    clock += 1
                    stack.pop()
        self._dfs_in = dfs_in
        self._dfs_out = dfs_out
        self._level = level
        self._preorder = preorder
        self._stale = False
        self._slow_queries = 0

    def _fresh(self) -> None:
        if self._stale:
            self._number()

    # --- incremental updates (LLVM addNewBlock / changeImmediateDominator / eraseNode) ---
    def add_new_block(self, bb: BasicBlock, idom: BasicBlock) -> None:
        """Add ``bb`` (not yet in the tree) as the last child of ``idom``. DFS numbers
        are recomputed lazily; until then block dominance walks the tree."""
        if self.post:
            raise IRError("add_new_block: only forward dominator trees are updated")
        if bb in self._num:
            raise IRError("block %%%s is already in the dominator tree" % bb.name)
        p = self._node(idom)
        self._llvm_invalidate()
        n = len(self._blocks)
        self._blocks.append(bb)
        self._num[bb] = n
        self._idom.append(p)
        self._children.append([])
        self._children[p].append(n)
        self._dfs_in.append(0)
        self._dfs_out.append(0)
        self._level.append(self._level[p] + 1)
        self._stale = True

    def change_immediate_dominator(self, bb: BasicBlock, new_idom: BasicBlock) -> None:
        """Re-parent ``bb``'s node under ``new_idom`` (appended to its children)."""
        if self.post:
            raise IRError("change_immediate_dominator: only forward dominator trees are updated")
        n = self._node(bb)
        p = self._node(new_idom)
        old = self._idom[n]
        self._llvm_invalidate()  # LLVM forgets its numbers even when nothing moves
        if old == p or n == 0:
            return
        self._set_idom(n, p)

    def erase_node(self, bb: BasicBlock) -> None:
        """Remove a leaf node (the block is being deleted)."""
        if self.post:
            raise IRError("erase_node: only forward dominator trees are updated")
        n = self._node(bb)
        if self._children[n]:
            raise IRError("erase_node: block %%%s still dominates other blocks" % bb.name)
        if n == 0:
            raise IRError("erase_node: cannot erase the root")
        self._llvm_invalidate()
        self._children[self._idom[n]].remove(n)
        del self._num[bb]
        self._blocks[n] = None
        self._stale = True

    def _set_idom(self, n: int, p: int) -> None:
        """Re-parent node ``n`` under ``p`` (appended to its children) and update the
        levels below it (LLVM ``DomTreeNode::setIDom``)."""
        idom = self._idom
        old = idom[n]
        if old == p:
            return
        self._children[old].remove(n)
        idom[n] = p
        self._children[p].append(n)
        self._stale = True
        level = self._level
        want = level[p] + 1
        if level[n] == want:
            return
        level[n] = want
        children = self._children
        work = [n]
        while work:
            x = work.pop()
            lx = level[x] + 1
            for k in children[x]:
                if level[k] != lx:
                    level[k] = lx
                    work.append(k)

    # --- CFG updates (LLVM ``DomTreeBuilder`` InsertEdge / DeleteEdge / applyUpdates) ---------
    def recalculate(self) -> None:
        """Rebuild the tree from the function's current CFG (LLVM ``recalculate``)."""
        fn = self.function
        if not fn.blocks._first:
            raise IRError("cannot build a dominator tree for a declaration")
        self._blocks = []
        self._num = {}
        if self.post:
            self._roots = _find_post_roots(fn)
            rev = self._walk_post(self._roots)
        else:
            entry = fn.entry_block
            assert entry is not None
            self._roots = [entry]
            rev = self._walk_forward(entry)
        self._idom = _semi_nca(self._parent_of, rev)
        self._llvm_dfs_valid = False
        self._llvm_slow_queries = 0
        self._llvm_numbers = None
        self._recalculated = True
        self._build_tree()

    def _succs_view(self, bb: BasicBlock) -> list[BasicBlock]:
        """``bb``'s successors in the order LLVM's updater walks them (reversed), as
        the CFG stood before the pending updates of a batch (LLVM ``getChildren``)."""
        res = block_successors(bb)[::-1]
        view = self._view
        if view is not None:
            diff = view[0].get(bb)
            if diff is not None:
                dropped, added = diff
                if dropped:
                    res = [x for x in res if x not in dropped]
                res.extend(added)
        return res

    def _preds_view(self, bb: BasicBlock) -> list[BasicBlock]:
        res = bb.predecessors
        view = self._view
        if view is not None:
            diff = view[1].get(bb)
            if diff is not None:
                dropped, added = diff
                if dropped:
                    res = [x for x in res if x not in dropped]
                res.extend(added)
        return res

    def insert_edge(self, a: BasicBlock, b: BasicBlock) -> None:
        """Update the tree after the CFG gained the edge ``a -> b`` (LLVM ``insertEdge``).

        A reachable ``b`` is handled by LLVM's depth-based search (the affected nodes
        move under the nearest common dominator, children appended in LLVM's order);
        a newly reachable ``b`` and post-dominator trees are recomputed."""
        if self.post:
            self.recalculate()
            return
        na = self._num.get(a)
        if na is None:
            return
        nb = self._num.get(b)
        if nb is None:
            self.recalculate()
            return
        self._llvm_invalidate()
        self._insert_reachable(na, nb)

    def delete_edge(self, a: BasicBlock, b: BasicBlock) -> None:
        """Update the tree after the CFG lost the edge ``a -> b`` (LLVM ``deleteEdge``):
        LLVM's DeleteReachable / DeleteUnreachable (Semi-NCA on the affected subtree,
        recomputation when the affected subtree hangs from the root); post-dominator
        trees are recomputed. Nothing changes while another ``a -> b`` edge remains."""
        if self.post:
            self.recalculate()
            return
        na = self._num.get(a)
        nb = self._num.get(b)
        if na is None or nb is None:
            return
        for s in self._succs_view(a):
            if s is b:
                return
        nca = self._nca(na, nb)
        if nb == nca:
            return
        self._llvm_invalidate()
        if na != self._idom[nb] or self._has_proper_support(nb):
            self._delete_reachable(na, nb)
        else:
            self._delete_unreachable(nb)

    def apply_updates(self, updates: Sequence[tuple[str, BasicBlock, BasicBlock]]) -> None:
        """Apply CFG updates ``("insert" | "delete", from, to)`` already made to the
        function (LLVM ``applyUpdates``). As LLVM: updates of one edge that cancel out
        are dropped; one update is applied directly; a batch is applied one update at
        a time (earliest first) against a view of the CFG without the later ones,
        unless it is large for the tree (more updates than nodes, or than nodes/40
        past 100 nodes), which recomputes the tree; post-dominator trees recompute."""
        last: dict[tuple[BasicBlock, BasicBlock], int] = {}
        net: dict[tuple[BasicBlock, BasicBlock], int] = {}
        for i, (kind, a, b) in enumerate(updates):
            if kind == "insert":
                d = 1
            elif kind == "delete":
                d = -1
            else:
                raise IRError("a dominator tree update is 'insert' or 'delete', not %r" % (kind,))
            net[(a, b)] = net.get((a, b), 0) + d
            last[(a, b)] = i
        legal = [(e, d > 0) for e, d in net.items() if d != 0]
        if not legal:
            return
        if len(legal) == 1:
            (a, b), insert = legal[0]
            if insert:
                self.insert_edge(a, b)
            else:
                self.delete_edge(a, b)
            return
        size = len(self._num)
        if self.post or (len(legal) > size if size <= 100 else len(legal) > size // 40):
            self.recalculate()
            return
        legal.sort(key=lambda u: last[u[0]], reverse=True)
        succ: _Diff = {}
        pred: _Diff = {}
        for (a, b), insert in legal:
            # The view shows the CFG before the update: an inserted edge is dropped from
            # it, a deleted one added back.
            k = 0 if insert else 1
            succ.setdefault(a, ([], []))[k].append(b)
            pred.setdefault(b, ([], []))[k].append(a)
        self._view = (succ, pred)
        self._recalculated = False
        try:
            while legal and not self._recalculated:
                (a, b), insert = legal.pop()
                k = 0 if insert else 1
                succ[a][k].pop()
                pred[b][k].pop()
                if insert:
                    self.insert_edge(a, b)
                else:
                    self.delete_edge(a, b)
        finally:
            self._view = None

    def _nca(self, na: int, nb: int) -> int:
        level = self._level
        idom = self._idom
        while na != nb:
            if level[na] < level[nb]:
                na, nb = nb, na
            na = idom[na]
        return na

    def _insert_reachable(self, fr: int, to: int) -> None:
        nca = self._nca(fr, to)
        level = self._level
        nca_level = level[nca]
        if nca_level + 1 >= level[to]:
            return
        blocks = self._blocks
        num = self._num
        heap = [to]
        visited = {to}
        affected: list[int] = []
        unaffected: list[int] = []
        while heap:
            tn = _heap_pop(heap, level)
            affected.append(tn)
            current = level[tn]
            while True:
                for succ in self._succs_view(blocks[tn]):  # type: ignore[arg-type]
                    sn = num.get(succ)
                    if sn is None:
                        continue
                    sl = level[sn]
                    if sl <= nca_level + 1 or sn in visited:
                        continue
                    visited.add(sn)
                    if sl > current:
                        unaffected.append(sn)
                    else:
                        _heap_push(heap, sn, level)
                if not unaffected:
                    break
                tn = unaffected.pop()
        for tn in affected:
            self._set_idom(tn, nca)

    def _has_proper_support(self, n: int) -> bool:
        bb = self._blocks[n]
        assert bb is not None
        num = self._num
        for pred in self._preds_view(bb):
            pn = num.get(pred)
            if pn is not None and self._nca(n, pn) != n:
                return True
        return False

    def _run_dfs(self, start: int, min_level: int, collect: list[int] | None) -> tuple[list[int], list[int], list[list[int]]]:
        """LLVM ``runDFS`` from node ``start`` over tree nodes of level > ``min_level``
        (locally numbered: ``order[i]`` is the node of DFS number i, ``parent``/``rev``
        use those numbers). With ``collect``, nodes refused by the level test are
        appended there once each (DeleteUnreachable's affected queue)."""
        blocks = self._blocks
        num = self._num
        level = self._level
        local: dict[int, int] = {}
        order: list[int] = []
        parent: list[int] = []
        rev: list[list[int]] = []
        work: list[tuple[int, int]] = [(start, -1)]
        while work:
            n, p = work.pop()
            i = local.get(n)
            if i is not None:
                if p >= 0 and order[p] != n:
                    rev[i].append(p)
                continue
            i = len(order)
            local[n] = i
            order.append(n)
            parent.append(p)
            rev.append([p] if p >= 0 else [])
            for succ in self._succs_view(blocks[n]):  # type: ignore[arg-type]
                sn = num.get(succ)
                if sn is None:
                    continue
                j = local.get(sn)
                if j is not None:
                    if sn != n:
                        rev[j].append(i)
                    continue
                if level[sn] <= min_level:
                    if collect is not None and sn not in collect:
                        collect.append(sn)
                    continue
                work.append((sn, i))
        return order, parent, rev

    def _reattach(self, order: list[int], parent: list[int], rev: list[list[int]]) -> None:
        """Semi-NCA over a subtree walked by ``_run_dfs``; its root keeps its idom."""
        new_idom = _semi_nca(parent, rev)
        for i in range(1, len(order)):
            self._set_idom(order[i], order[new_idom[i]])

    def _delete_reachable(self, fr: int, to: int) -> None:
        to_idom = self._nca(fr, to)
        if to_idom == 0:
            self.recalculate()
            return
        order, parent, rev = self._run_dfs(to_idom, self._level[to_idom], None)
        self._reattach(order, parent, rev)

    def _delete_unreachable(self, to: int) -> None:
        level = self._level
        affected: list[int] = []
        order, _, _ = self._run_dfs(to, level[to], affected)
        min_node = to
        for n in affected:
            nca = self._nca(n, to)
            if nca != n and level[nca] < level[min_node]:
                min_node = nca
        if min_node == 0:
            self.recalculate()
            return
        children = self._children
        idom = self._idom
        for i in range(len(order) - 1, -1, -1):
            n = order[i]
            kids = children[idom[n]]
            at = kids.index(n)
            kids[at] = kids[-1]
            kids.pop()
            bb = self._blocks[n]
            assert bb is not None
            del self._num[bb]
            self._blocks[n] = None
        self._stale = True
        if min_node == to:
            return
        order, parent, rev = self._run_dfs(min_node, level[min_node], None)
        self._reattach(order, parent, rev)

    def verify(self) -> bool:
        """True when the tree equals one freshly computed from the current CFG: the
        same blocks, immediate dominators and (post-dominators) roots, and levels and
        children consistent with the immediate dominators (LLVM ``verify``)."""
        fresh = DominatorTree(self.function, self.post)
        if set(fresh._num) != set(self._num):
            return False
        if self.post and set(fresh._roots) != set(self._roots):
            return False
        for bb in self._num:
            if fresh.idom(bb) is not self.idom(bb):
                return False
        level = self._level
        idom = self._idom
        for bb, n in self._num.items():
            if n != 0 and level[n] != level[idom[n]] + 1:
                return False
            for k in self._children[n]:
                if idom[k] != n or self._blocks[k] is None:
                    return False
        return True

    # --- LLVM's DFS-number bookkeeping (what ``print<domtree>`` shows) ----------------------
    def _llvm_invalidate(self) -> None:
        if self._llvm_dfs_valid:
            # Keep the numbers LLVM's nodes still hold until the next renumbering.
            self._llvm_numbers = (list(self._dfs_in), list(self._dfs_out))
            self._llvm_dfs_valid = False

    def _llvm_count_query(self, na: int, nb: int) -> None:
        """Count a block-dominance query the way LLVM's tree does: only queries its
        quick checks (idom either way, levels) cannot answer are slow; the 33rd
        renumbers the tree."""
        idom = self._idom
        if idom[nb] == na or idom[na] == nb:
            return
        la = self._level[na]
        lb = self._level[nb]
        if la >= lb:
            return
        self._llvm_slow_queries += 1
        if self._llvm_slow_queries > 32:
            self.update_dfs_numbers()

    def update_dfs_numbers(self) -> None:
        """LLVM's ``updateDFSNumbers``: number the tree now (ours are always
        available; this records that LLVM's would be valid too, as after an
        iterated-dominance-frontier computation)."""
        self._fresh()
        self._llvm_dfs_valid = True
        self._llvm_slow_queries = 0
        self._llvm_numbers = None

    @property
    def dfs_info_valid(self) -> bool:
        """Whether LLVM's tree would hold valid DFS numbers now (printers show it)."""
        return self._llvm_dfs_valid

    @property
    def slow_queries(self) -> int:
        """LLVM's count of slow dominance queries since the last renumbering."""
        return self._llvm_slow_queries

    def printed_dfs_numbers(self, bb: BasicBlock | None) -> tuple[int, int]:
        """The (in, out) numbers LLVM's node for ``bb`` holds (``None``: the
        post-dominator tree's virtual root): the current numbers when valid, the
        numbers of the last renumbering otherwise, -1 for never-numbered nodes."""
        n = 0 if bb is None else self._node(bb)
        if self._llvm_dfs_valid:
            self._fresh()
            return self._dfs_in[n], self._dfs_out[n]
        saved = self._llvm_numbers
        if saved is None or n >= len(saved[0]):
            return -1, -1
        return saved[0][n], saved[1][n]

    def __repr__(self) -> str:
        from llvmpy_mid.ir._printing import block_ref

        kind = "PostDominatorTree" if self.post else "DominatorTree"
        roots = ", ".join(block_ref(r) for r in self._roots[:4]) + (", ..." if len(self._roots) > 4 else "")
        blocks = sum(1 for b in self._blocks if b is not None)
        return "<%s of %s: %d block%s, root%s %s>" % (
            kind, block_ref(self.function), blocks, "" if blocks == 1 else "s", "" if len(self._roots) == 1 else "s", roots
        )

    # --- block queries -------------------------------------------------------------------
    @property
    def roots(self) -> list[BasicBlock]:
        """The entry block; for post-dominators, the blocks under the virtual root."""
        return list(self._roots)

    def is_reachable(self, bb: BasicBlock) -> bool:
        """True if ``bb`` is in the tree (reachable from the entry, or reaching an exit)."""
        return bb in self._num

    def __contains__(self, bb: BasicBlock) -> bool:
        return bb in self._num

    def __len__(self) -> int:
        """Number of blocks in the tree (the virtual root not counted)."""
        return len(self._num)

    def __iter__(self) -> Iterator[BasicBlock]:
        """The blocks of the tree in DFS preorder (children in LLVM's order)."""
        self._fresh()
        blocks = self._blocks
        for n in self._preorder:
            bb = blocks[n]
            if bb is not None:
                yield bb

    def _node(self, bb: BasicBlock) -> int:
        n = self._num.get(bb)
        if n is None:
            raise IRError("block %%%s is not in the dominator tree" % bb.name)
        return n

    def idom(self, bb: BasicBlock) -> BasicBlock | None:
        """The immediate dominator; None for the entry, a post-dominator root, or an unreachable block."""
        n = self._num.get(bb)
        if n is None or n == 0:
            return None
        return self._blocks[self._idom[n]]

    def postorder(self, root: BasicBlock) -> list[BasicBlock]:
        """The tree below (and including) ``root`` in post-order, children in tree order (iterative)."""
        out: list[BasicBlock] = []
        stack: list[tuple[BasicBlock, list[BasicBlock], int]] = [(root, self.children(root), 0)]
        while stack:
            node, kids, i = stack[-1]
            if i < len(kids):
                stack[-1] = (node, kids, i + 1)
                kid = kids[i]
                stack.append((kid, self.children(kid), 0))
            else:
                stack.pop()
                out.append(node)
        return out

    def children(self, bb: BasicBlock) -> list[BasicBlock]:
        """The blocks ``bb`` immediately dominates, in LLVM's order (construction DFS order)."""
        blocks = self._blocks
        return [blocks[k] for k in self._children[self._node(bb)]]  # type: ignore[misc]

    def root_children(self) -> list[BasicBlock]:
        """Children of the tree's root node (for post-dominators: of the virtual root)."""
        if not self.post:
            return list(self._roots)
        blocks = self._blocks
        return [blocks[k] for k in self._children[0]]  # type: ignore[misc]

    def level(self, bb: BasicBlock) -> int:
        """Depth in the tree: the entry (or the virtual root) is level 0."""
        return self._level[self._node(bb)]

    def dfs_numbers(self, bb: BasicBlock) -> tuple[int, int]:
        """The (in, out) numbers of the tree walk (the tree root's in-number is 0)."""
        self._fresh()
        n = self._node(bb)
        return self._dfs_in[n], self._dfs_out[n]

    def dominates_block(self, a: BasicBlock, b: BasicBlock) -> bool:
        """LLVM's block rule: a block dominates itself; an unreachable ``b`` is
        dominated by everything; an unreachable ``a`` dominates nothing else."""
        if a is b:
            return True
        nb = self._num.get(b)
        if nb is None:
            return True
        na = self._num.get(a)
        if na is None:
            return False
        if not self._llvm_dfs_valid:
            self._llvm_count_query(na, nb)
        if self._stale:
            # As LLVM: walk up the tree for a while, renumber after many slow queries.
            self._slow_queries += 1
            if self._slow_queries > 32:
                self._number()
            else:
                idom = self._idom
                while nb != 0:
                    nb = idom[nb]
                    if nb == na:
                        return True
                return False
        return self._dfs_in[na] <= self._dfs_in[nb] and self._dfs_out[nb] <= self._dfs_out[na]

    def properly_dominates(self, a: BasicBlock | Instruction, b: BasicBlock | Instruction) -> bool:
        """``dominates(a, b)`` and ``a is not b``."""
        return a is not b and self.dominates(a, b)

    def dominates(self, a: Value, b: BasicBlock | Instruction) -> bool:
        """Blocks: the block rule. Otherwise ``a`` is a definition (instruction,
        argument or constant) and ``b`` an instruction or a block, with LLVM's rules
        (for post-dominators, instruction ``a`` post-dominates ``b``)."""
        if b.is_basic_block:
            if a.is_basic_block:
                return self.dominates_block(a, b)  # type: ignore[arg-type]
            if not a.is_instruction:
                return True
            return self._inst_dominates_block(a, b)  # type: ignore[arg-type]
        if a.is_basic_block:
            raise IRError("dominates: a block against an instruction")
        if not a.is_instruction:
            return True
        if self.post:
            return self._post_inst_dominates(a, b)  # type: ignore[arg-type]
        return self._inst_dominates(a, b)  # type: ignore[arg-type]

    def nearest_common_dominator(self, a: BasicBlock, b: BasicBlock) -> BasicBlock | None:
        """The deepest block dominating both; None if either is not in the tree or
        (post-dominators) only the virtual root is common."""
        na = self._num.get(a)
        nb = self._num.get(b)
        if na is None or nb is None:
            return None
        level = self._level
        idom = self._idom
        while na != nb:
            if level[na] < level[nb]:
                na, nb = nb, na
            na = idom[na]
        return self._blocks[na]

    # --- instruction and use queries ------------------------------------------------------
    def _edge_dominates_block(self, start: BasicBlock, end: BasicBlock, use_bb: BasicBlock) -> bool:
        if not self.dominates_block(end, use_bb):
            return False
        preds = end.predecessors
        if len(preds) == 1:
            return True
        seen_start = False
        for p in preds:
            if p is start:
                if seen_start:
                    return False
                seen_start = True
                continue
            if not self.dominates_block(end, p):
                return False
        return True

    def dominates_edge(self, start: BasicBlock, end: BasicBlock, bb: BasicBlock) -> bool:
        """The edge ``start -> end`` dominates ``bb`` (LLVM ``dominates(BasicBlockEdge, BasicBlock)``):
        ``end`` dominates ``bb`` and every other way into ``end`` comes from a block ``end`` dominates
        (a duplicated edge dominates nothing)."""
        return self._edge_dominates_block(start, end, bb)

    @staticmethod
    def _normal_dest(inst: Instruction) -> BasicBlock | None:
        """An invoke's normal destination: its result is defined on that edge.
        (A callbr's result is not: LLVM 19 lets it be used in the indirect
        destinations too, so it follows the plain block rule.)"""
        if inst.opcode == "invoke":
            dest = inst.normal_dest  # type: ignore[attr-defined]
            if dest.is_basic_block:
                return dest  # type: ignore[no-any-return]
        return None

    def _inst_dominates_block(self, defn: Instruction, use_bb: BasicBlock) -> bool:
        if self.post:
            def_bb0 = defn.parent
            return def_bb0 is not None and def_bb0 is not use_bb and self.dominates_block(def_bb0, use_bb)
        def_bb = defn.parent
        if use_bb not in self._num:
            return True
        if def_bb is None or def_bb not in self._num:
            return False
        if def_bb is use_bb:
            return False
        normal = self._normal_dest(defn)
        if normal is not None:
            return self._edge_dominates_block(def_bb, normal, use_bb)
        return self.dominates_block(def_bb, use_bb)

    def _inst_dominates(self, defn: Instruction, user: Instruction) -> bool:
        use_bb = user.parent
        def_bb = defn.parent
        if use_bb is None or use_bb not in self._num:
            return True
        if def_bb is None or def_bb not in self._num:
            return False
        if defn is user:
            return False
        if user.is_phi or defn.opcode == "invoke" or defn.opcode == "callbr":
            return self._inst_dominates_block(defn, use_bb)
        if def_bb is not use_bb:
            return self.dominates_block(def_bb, use_bb)
        return defn.comes_before(user)

    def _post_inst_dominates(self, a: Instruction, b: Instruction) -> bool:
        bb_a = a.parent
        bb_b = b.parent
        if bb_a is None or bb_b is None:
            return False
        if bb_a is not bb_b:
            return self.dominates_block(bb_a, bb_b)
        if a.is_phi and b.is_phi:
            return True
        return a is b or b.comes_before(a)

    def dominates_use(self, defn: Value, use: Use) -> bool:
        """Does ``defn`` dominate the operand slot ``use`` (forward trees only)?

        A phi's use happens at the end of its incoming block; an invoke's result
        is defined on the edge to its normal destination (a callbr's is not: as in
        LLVM 19 it may be used in its indirect destinations); unreachable uses are
        dominated by everything, unreachable definitions dominate nothing.
        """
        if self.post:
            raise IRError("dominates_use needs a (forward) dominator tree")
        if not defn.is_instruction:
            return True
        d: Instruction = defn  # type: ignore[assignment]
        user: Instruction = use.user  # type: ignore[assignment]
        def_bb = d.parent
        is_phi = user.is_phi
        use_bb: BasicBlock | None
        if is_phi:
            use_bb = user.get_incoming_block_for_use(use)  # type: ignore[attr-defined]
        else:
            use_bb = user.parent
        if use_bb is None or use_bb not in self._num:
            return True
        if def_bb is None or def_bb not in self._num:
            return False
        normal = self._normal_dest(d)
        if normal is not None:
            if is_phi and user.parent is normal and use_bb is def_bb:
                return True
            return self._edge_dominates_block(def_bb, normal, use_bb)
        if def_bb is not use_bb:
            return self.dominates_block(def_bb, use_bb)
        if is_phi:
            return True
        return d.comes_before(user)


def _find_post_roots(function: Function) -> list[BasicBlock]:
    """LLVM 19's post-dominator roots (see the module docstring)."""
    roots: list[BasicBlock] = []
    seen: set[BasicBlock] = set()

    def reverse_walk(start: BasicBlock) -> None:
        work = [start]
        while work:
            bb = work.pop()
            if bb in seen:
                continue
            seen.add(bb)
            work.extend(bb.predecessors)

    total = 0
    for bb in function.blocks:
        total += 1
        if not bb.successors:
            roots.append(bb)
            reverse_walk(bb)
    if len(seen) != total:
        order: dict[BasicBlock, int] = {}
        for i, bb in enumerate(function.blocks):
            order[bb] = i
        for bb in function.blocks:
            if bb in seen:
                continue
            # Forward walk (successors in function order) over unseen blocks; the
            # last block it reaches is the furthest away and becomes a root.
            visited: set[BasicBlock] = set()
            work = [bb]
            last = bb
            while work:
                cur = work.pop()
                if cur in seen or cur in visited:
                    continue
                visited.add(cur)
                last = cur
                succs = sorted(block_successors(cur), key=lambda b: order.get(b, total))
                work.extend(succs)
            roots.append(last)
            reverse_walk(last)
    _remove_redundant_roots(roots)
    return roots


def block_successors(bb: BasicBlock) -> list[BasicBlock]:
    """The successors that are blocks (a terminator broken through the API may
    name another kind of value; the verifier must still get a tree)."""
    succs = bb.successors
    for s in succs:
        if not s.is_basic_block:
            return [s for s in succs if s.is_basic_block]
    return succs


def _remove_redundant_roots(roots: list[BasicBlock]) -> None:
    root_set = set(roots)
    i = 0
    while i < len(roots):
        root = roots[i]
        if not root.successors:
            i += 1
            continue
        visited: set[BasicBlock] = {root}
        first = True
        work = [root]
        redundant = False
        while work:
            cur = work.pop()
            if not first:
                if cur in visited:
                    continue
                visited.add(cur)
                if cur in root_set:
                    redundant = True
                    break
            first = False
            succs = block_successors(cur)
            for k in range(len(succs) - 1, -1, -1):
                work.append(succs[k])
        if redundant:
            root_set.discard(root)
            roots[i] = roots[-1]
            roots.pop()
        else:
            i += 1


_Diff = dict["BasicBlock", tuple[list["BasicBlock"], list["BasicBlock"]]]
"""Per block: (neighbours to drop, neighbours to add) in a batch's view of the CFG."""


def _heap_push(heap: list[int], n: int, level: list[int]) -> None:
    """``std::push_heap`` of a max-heap by level (so ties break as in libstdc++)."""
    heap.append(n)
    hole = len(heap) - 1
    key = level[n]
    while hole > 0:
        parent = (hole - 1) // 2
        if level[heap[parent]] < key:
            heap[hole] = heap[parent]
            hole = parent
        else:
            break
    heap[hole] = n


def _heap_pop(heap: list[int], level: list[int]) -> int:
    """``std::pop_heap`` + ``pop_back`` (libstdc++'s hole-sifting order)."""
    top = heap[0]
    value = heap.pop()
    length = len(heap)
    if not length:
        return top
    hole = 0
    child = 0
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if level[heap[child]] < level[heap[child - 1]]:
            child -= 1
        heap[hole] = heap[child]
        hole = child
    if length & 1 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        heap[hole] = heap[child - 1]
        hole = child - 1
    key = level[value]
    parent = (hole - 1) // 2
    while hole > 0 and level[heap[parent]] < key:
        heap[hole] = heap[parent]
        hole = parent
        parent = (hole - 1) // 2
    heap[hole] = value
    return top


def _semi_nca(parent: list[int], rev: list[list[int]]) -> list[int]:
    """Immediate dominators of nodes numbered in DFS preorder (node 0 the root).

    ``parent`` is the DFS-tree parent, ``rev[w]`` the numbers of the visited nodes
    with an edge into ``w``. Returns ``idom`` with ``idom[0] == 0``.
    """
    count = len(parent)
    semi = list(range(count))
    label = list(range(count))
    anc = list(parent)
    for w in range(count - 1, 0, -1):
        best = semi[w]
        for v in rev[w]:
            if v < 0:
                continue
            if v <= w:
                if v < best:
                    best = v
                continue
            # eval(v): compress the path of linked nodes (numbers > w) above v.
            chain: list[int] = []
            x = v
            while anc[x] > w:
                chain.append(x)
                x = anc[x]
            for k in range(len(chain) - 1, -1, -1):
                y = chain[k]
                a = anc[y]
                if semi[label[a]] < semi[label[y]]:
                    label[y] = label[a]
                anc[y] = anc[a]
            s = semi[label[v]]
            if s < best:
                best = s
        semi[w] = best
    idom = [0] * count
    for i in range(1, count):
        d = parent[i]
        s = semi[i]
        while d > s:
            d = idom[d]
        idom[i] = d
    return idom
