"""``DomTreeUpdater``: keep a dominator and/or post-dominator tree in step with
CFG edits (LLVM ``Analysis/DomTreeUpdater.{h,cpp}`` and
``GenericDomTreeUpdater{,Impl}.h``).

A transform that changes edges reports each change as ``("insert" | "delete",
from, to)`` *after* making it. With the ``"eager"`` strategy the trees are
updated at once (:meth:`DominatorTree.apply_updates`); with ``"lazy"`` the
updates queue up and are applied when a tree is asked for
(:meth:`get_dom_tree`), at :meth:`flush`, or never when :meth:`recalculate`
supersedes them. :meth:`delete_bb` empties a block that has no predecessors
left (uses of its values become ``poison``), leaves an ``unreachable`` in it,
and erases it — at once when eager, at the next flush when lazy, so that a
pending update may still name it (:meth:`is_bb_pending_deletion`).
:meth:`apply_updates_permissive` drops duplicates, self-edges and updates that
do not match the CFG, as LLVM's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Literal, Sequence

from llvmpy_mid.errors import IRError

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.function import Function

CFGUpdate = tuple[str, "BasicBlock", "BasicBlock"]
"""``("insert" | "delete", from, to)``."""


class DomTreeUpdater:
    """Applies CFG updates to ``dt`` and ``pdt`` (either may be None) eagerly or lazily."""

    __slots__ = (
        "dt",
        "pdt",
        "strategy",
        "_pending",
        "_dt_index",
        "_pdt_index",
        "_deleted",
        "_recalculating",
        "_callbacks",
    )

    def __init__(
        self,
        dt: DominatorTree | None = None,
        pdt: DominatorTree | None = None,
        strategy: Literal["eager", "lazy"] = "eager",
    ) -> None:
        if strategy not in ("eager", "lazy"):
            raise ValueError("DomTreeUpdater strategy is 'eager' or 'lazy', not %r" % (strategy,))
        if pdt is not None and not pdt.post:
            raise ValueError("DomTreeUpdater: pdt must be a post-dominator tree")
        if dt is not None and dt.post:
            raise ValueError("DomTreeUpdater: dt must be a (forward) dominator tree")
        self.dt = dt
        self.pdt = pdt
        self.strategy = strategy
        self._pending: list[CFGUpdate] = []
        self._dt_index = 0
        self._pdt_index = 0
        # insertion-ordered set of blocks awaiting deletion
        self._deleted: dict[BasicBlock, Callable[[BasicBlock], object] | None] = {}
        self._recalculating = False
        self._callbacks = 0

    # --- state ----------------------------------------------------------------------------
    @property
    def is_lazy(self) -> bool:
        return self.strategy == "lazy"

    @property
    def is_eager(self) -> bool:
        return self.strategy == "eager"

    def has_dom_tree(self) -> bool:
        return self.dt is not None

    def has_post_dom_tree(self) -> bool:
        return self.pdt is not None

    def has_pending_dom_tree_updates(self) -> bool:
        return self.dt is not None and self._dt_index < len(self._pending)

    def has_pending_post_dom_tree_updates(self) -> bool:
        return self.pdt is not None and self._pdt_index < len(self._pending)

    def has_pending_updates(self) -> bool:
        return self.has_pending_dom_tree_updates() or self.has_pending_post_dom_tree_updates()

    def has_pending_deleted_bb(self) -> bool:
        return bool(self._deleted)

    def is_bb_pending_deletion(self, bb: BasicBlock) -> bool:
        return bb in self._deleted

    # --- updates --------------------------------------------------------------------------
    def apply_updates(self, updates: Sequence[CFGUpdate]) -> None:
        """Report CFG changes already made (LLVM ``applyUpdates``)."""
        if self.dt is None and self.pdt is None:
            return
        if self.strategy == "lazy":
            for u in updates:
                _check_kind(u[0])
                if u[1] is not u[2]:
                    self._pending.append(u)
            return
        if self.dt is not None:
            self.dt.apply_updates(updates)
        if self.pdt is not None:
            self.pdt.apply_updates(updates)

    def apply_updates_permissive(self, updates: Sequence[CFGUpdate]) -> None:
        """As :meth:`apply_updates`, after dropping self-edges, repeated edges (the
        first update of an edge wins) and updates the CFG contradicts (an insert
        whose edge is absent, a delete whose edge is still there)."""
        if self.dt is None and self.pdt is None:
            return
        seen: set[tuple[BasicBlock, BasicBlock]] = set()
        kept: list[CFGUpdate] = []
        for u in updates:
            kind, a, b = u
            _check_kind(kind)
            if a is b or (a, b) in seen:
                continue
            seen.add((a, b))
            has_edge = False
            for s in a.successors:
                if s is b:
                    has_edge = True
                    break
            if (kind == "insert") != has_edge:
                continue
            kept.append(u)
        if self.strategy == "lazy":
            self._pending.extend(kept)
            return
        if self.dt is not None:
            self.dt.apply_updates(kept)
        if self.pdt is not None:
            self.pdt.apply_updates(kept)

    # --- trees ----------------------------------------------------------------------------
    def get_dom_tree(self) -> DominatorTree:
        """The dominator tree with every pending update applied."""
        if self.dt is None:
            raise IRError("DomTreeUpdater has no dominator tree")
        self._apply_dt()
        self._drop_out_of_date()
        return self.dt

    def get_post_dom_tree(self) -> DominatorTree:
        if self.pdt is None:
            raise IRError("DomTreeUpdater has no post-dominator tree")
        self._apply_pdt()
        self._drop_out_of_date()
        return self.pdt

    def flush(self) -> None:
        """Apply every pending update and delete the blocks awaiting deletion."""
        self._apply_dt()
        self._apply_pdt()
        self._drop_out_of_date()

    def recalculate(self, fn: Function | None = None) -> None:
        """Recompute both trees from scratch; pending updates are dropped and pending
        deletions done first (LLVM ``recalculate``)."""
        if self.strategy == "eager":
            if self.dt is not None:
                self.dt.recalculate()
            if self.pdt is not None:
                self.pdt.recalculate()
            return
        self._recalculating = True
        try:
            self._force_flush_deleted()
            if self.dt is not None:
                self.dt.recalculate()
            if self.pdt is not None:
                self.pdt.recalculate()
        finally:
            self._recalculating = False
        self._dt_index = self._pdt_index = len(self._pending)
        self._drop_out_of_date()

    # --- block deletion -----------------------------------------------------------------------
    def delete_bb(self, bb: BasicBlock) -> None:
        """Delete ``bb``, which has no predecessors any more (its outgoing edges were
        reported as deleted): eagerly now, lazily at the next flush."""
        self._validate_delete(bb)
        if self.strategy == "lazy":
            self._deleted[bb] = None
            return
        self._erase_node(bb)
        bb.erase_from_parent()
        self._after_erase()

    def callback_delete_bb(self, bb: BasicBlock, callback: Callable[[BasicBlock], object]) -> None:
        """As :meth:`delete_bb`, calling ``callback(bb)`` just before the block is erased."""
        self._validate_delete(bb)
        if self.strategy == "lazy":
            self._deleted[bb] = callback
            return
        self._erase_node(bb)
        callback(bb)
        bb.erase_from_parent()
        self._after_erase()

    def _validate_delete(self, bb: BasicBlock) -> None:
        if bb.predecessors:
            raise IRError("DomTreeUpdater.delete_bb: block %%%s still has predecessors" % bb.name)
        from llvmpy_mid.ir.constants import PoisonValue
        from llvmpy_mid.ir.instructions.terminators import UnreachableInst

        insts = bb.instructions
        while True:
            last = insts.last
            if last is None:
                break
            if last._use_head is not None:
                last.replace_all_uses_with(PoisonValue.get(last.type))
            last.erase_from_parent()
        bb.append(UnreachableInst(bb.type.context))

    def _erase_node(self, bb: BasicBlock) -> None:
        if self._recalculating:
            return
        dt = self.dt
        if dt is not None and bb in dt:
            dt.erase_node(bb)

    def _after_erase(self) -> None:
        # A deleted block is a post-dominator root (it ends in unreachable) until it
        # goes; the post-dominator tree is rebuilt without it.
        if self.pdt is not None and not self._recalculating:
            self.pdt.recalculate()

    def _force_flush_deleted(self) -> None:
        if not self._deleted:
            return
        deleted = self._deleted
        self._deleted = {}
        for bb, callback in deleted.items():
            self._erase_node(bb)
            if callback is not None:
                callback(bb)
            bb.erase_from_parent()
        self._after_erase()

    # --- lazy bookkeeping ----------------------------------------------------------------------
    def _apply_dt(self) -> None:
        if self.strategy != "lazy" or self.dt is None:
            return
        if self._dt_index < len(self._pending):
            self.dt.apply_updates(self._pending[self._dt_index :])
            self._dt_index = len(self._pending)

    def _apply_pdt(self) -> None:
        if self.strategy != "lazy" or self.pdt is None:
            return
        if self._pdt_index < len(self._pending):
            self.pdt.apply_updates(self._pending[self._pdt_index :])
            self._pdt_index = len(self._pending)

    def _drop_out_of_date(self) -> None:
        if self.strategy == "eager":
            return
        if not self.has_pending_updates():
            self._force_flush_deleted()
        if self.dt is None:
            self._dt_index = len(self._pending)
        if self.pdt is None:
            self._pdt_index = len(self._pending)
        drop = min(self._dt_index, self._pdt_index)
        if drop:
            del self._pending[:drop]
            self._dt_index -= drop
            self._pdt_index -= drop


def _check_kind(kind: str) -> None:
    if kind != "insert" and kind != "delete":
        raise IRError("a CFG update is 'insert' or 'delete', not %r" % (kind,))


__all__ = ["DomTreeUpdater", "CFGUpdate"]
