"""SSA construction for one value with several definitions (LLVM ``SSAUpdater``).

What: a client names the blocks where the value is available
(:meth:`SSAUpdater.add_available_value`) and then asks for the value live at the
end or in the middle of any block, or rewrites a use (:meth:`SSAUpdater.rewrite_use`);
phi nodes are inserted where the definitions meet. Phis get the name given to
:meth:`SSAUpdater.initialize`, exactly as LLVM's updater names them, and are placed
at the top of their block.

How: the query walks predecessors backwards from the block until it meets blocks
with a known value, numbers the blocks it found in a forward post-order walk
from those definitions, computes dominators of that small sub-graph iteratively,
places phis on the iterated dominance frontier of the definitions, skips a phi
whose predecessors all carry one value, reuses an existing phi network that
already computes the same values, and creates empty
phis then fills their operands (the classic algorithm of LLVM's
``SSAUpdaterImpl``). All walks use explicit stacks.

:func:`simplify_phi_node` is InstSimplify's phi rule (a phi whose incoming values
are one value, itself, undef or poison folds to that value when the value
dominates the phi; LLVM 19.1.7 asks nothing more, not even that the value is not
poison when an undef is dropped), which the updater and the loop utilities share.

What it does not do: it does not handle uses in the block of a definition that
come before the definition (as LLVM, the caller handles those), nor the
``BulkSSAUpdater`` helper (``LoadAndStorePromoter`` is in
:mod:`~llvmpy_mid.transform.utils.load_store_promoter`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.constants import PoisonValue, UndefValue
from llvmpy_mid.ir.instructions.other import PHINode

if TYPE_CHECKING:
    from llvmpy_mid.ir.basic_block import BasicBlock
    from llvmpy_mid.ir.dominators import DominatorTree
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Use, Value


# --- InstSimplify's phi rule ---------------------------------------------------------------


def _value_dominates_phi(value: Value, phi: PHINode, dt: DominatorTree | None) -> bool:
    if not value.is_instruction:
        return True
    inst: Instruction = value  # type: ignore[assignment]
    if dt is not None:
        return dt.dominates(inst, phi)
    parent = inst.parent
    return parent is not None and parent.is_entry_block and inst.opcode not in ("invoke", "callbr")


def simplify_phi_node(phi: PHINode, dt: DominatorTree | None) -> Value | None:
    """The value ``phi`` always equals (InstSimplify's ``simplifyPHINode``), or None."""
    common: Value | None = None
    has_poison = False
    has_undef = False
    for use in phi.operand_uses:
        incoming = use.value
        if incoming is phi:
            continue
        if isinstance(incoming, PoisonValue):
            has_poison = True
            continue
        if isinstance(incoming, UndefValue):
            has_undef = True
            continue
        if common is not None and incoming is not common:
            return None
        common = incoming
    if common is None:
        return UndefValue.get(phi.type) if has_undef else PoisonValue.get(phi.type)
    if (has_poison or has_undef) and not _value_dominates_phi(common, phi, dt):
        return None
    return common


# --- the updater ----------------------------------------------------------------------------


class _BBInfo:
    __slots__ = ("bb", "available", "def_bb", "blk_num", "idom", "preds", "phi_tag")

    def __init__(self, bb: BasicBlock | None, available: Value | None) -> None:
        self.bb = bb
        self.available = available
        self.def_bb: _BBInfo | None = self if available is not None else None
        self.blk_num = 0
        self.idom: _BBInfo | None = None
        self.preds: list[_BBInfo] = []
        self.phi_tag: PHINode | None = None


def _pred_blocks(bb: BasicBlock) -> list[BasicBlock]:
    first = bb.instructions._first
    if first is not None and first.is_phi:
        return first.incoming_blocks  # type: ignore[no-any-return]
    return bb.predecessors


class SSAUpdater:
    """Rewrites uses of a value that has several definitions (LLVM ``SSAUpdater``).

    ``inserted_phis``, when given, receives every phi the updater creates.
    """

    __slots__ = ("proto_type", "proto_name", "_available", "inserted_phis")

    def __init__(self, inserted_phis: list[PHINode] | None = None) -> None:
        self.proto_type: Type | None = None
        self.proto_name = ""
        self._available: dict[BasicBlock, Value | None] = {}
        self.inserted_phis = inserted_phis

    def initialize(self, type: Type, name: str) -> None:
        """Start over for a value of ``type``; new phis are named ``name``."""
        self._available.clear()
        self.proto_type = type
        self.proto_name = name

    def has_value_for_block(self, bb: BasicBlock) -> bool:
        return bb in self._available

    def find_value_for_block(self, bb: BasicBlock) -> Value | None:
        return self._available.get(bb)

    def add_available_value(self, bb: BasicBlock, value: Value) -> None:
        self._available[bb] = value

    def _poison(self) -> Value:
        assert self.proto_type is not None
        return PoisonValue.get(self.proto_type)

    # --- queries ---------------------------------------------------------------------------
    def get_value_at_end_of_block(self, bb: BasicBlock) -> Value:
        v = self._available.setdefault(bb, None)
        if v is not None:
            return v
        return self._get_value(bb)

    def get_value_in_middle_of_block(self, bb: BasicBlock) -> Value:
        if bb not in self._available:
            return self.get_value_at_end_of_block(bb)
        pred_values: list[tuple[BasicBlock, Value]] = []
        singular: Value | None = None
        first = bb.instructions._first
        if first is not None and first.is_phi:
            preds: list[BasicBlock] = first.incoming_blocks
        else:
            preds = bb.predecessors
        for i, pred in enumerate(preds):
            v = self.get_value_at_end_of_block(pred)
            pred_values.append((pred, v))
            if i == 0:
                singular = v
            elif v is not singular:
                singular = None
        if not pred_values:
            return self._poison()
        if singular is not None:
            return singular
        if first is not None and first.is_phi:
            mapping = dict(pred_values)
            for phi in bb.phis():
                if phi.num_incoming == len(mapping) and all(
                    mapping.get(b) is v for v, b in phi.incoming
                ):
                    return phi
        assert self.proto_type is not None
        new_phi = PHINode(self.proto_type, name=self.proto_name)
        new_phi.insert_into(bb, bb.instructions._first)
        for pred, v in pred_values:
            new_phi.add_incoming(v, pred)
        simple = simplify_phi_node(new_phi, None)
        if simple is not None:
            new_phi.erase_from_parent()
            return simple
        after = bb.first_non_phi
        new_phi.debug_loc = after.debug_loc if after is not None else None
        if self.inserted_phis is not None:
            self.inserted_phis.append(new_phi)
        return new_phi

    def rewrite_use(self, use: Use) -> None:
        """Point ``use`` at the value live there (a phi's use: at the end of its incoming block)."""
        user = use.user
        if user.is_phi:  # type: ignore[attr-defined]
            v = self.get_value_at_end_of_block(user.get_incoming_block_for_use(use))  # type: ignore[attr-defined]
        else:
            v = self.get_value_in_middle_of_block(user.parent)  # type: ignore[attr-defined]
        use.set(v)

    # --- the SSAUpdaterImpl algorithm ---------------------------------------------------------
    def _get_value(self, bb: BasicBlock) -> Value:
        bbmap: dict[BasicBlock, _BBInfo] = {}
        block_list, pseudo_entry = self._build_block_list(bb, bbmap)
        if not block_list:
            v = self._poison()
            self._available[bb] = v
            return v
        self._find_dominators(block_list, pseudo_entry)
        _find_phi_placement(block_list)
        self._find_available_vals(block_list, bbmap)
        info = bbmap[bb].def_bb
        assert info is not None and info.available is not None
        return info.available

    def _build_block_list(
        self, bb: BasicBlock, bbmap: dict[BasicBlock, _BBInfo]
    ) -> tuple[list[_BBInfo], _BBInfo]:
        available = self._available
        roots: list[_BBInfo] = []
        info = _BBInfo(bb, None)
        bbmap[bb] = info
        work: list[_BBInfo] = [info]
        while work:
            info = work.pop()
            assert info.bb is not None
            for pred in _pred_blocks(info.bb):
                pinfo = bbmap.get(pred)
                if pinfo is not None:
                    info.preds.append(pinfo)
                    continue
                pinfo = _BBInfo(pred, available.get(pred))
                bbmap[pred] = pinfo
                info.preds.append(pinfo)
                if pinfo.available is not None:
                    roots.append(pinfo)
                else:
                    work.append(pinfo)
        pseudo = _BBInfo(None, None)
        blk_num = 1
        while roots:
            info = roots.pop()
            info.idom = pseudo
            info.blk_num = -1
            work.append(info)
        block_list: list[_BBInfo] = []
        while work:
            info = work[-1]
            if info.blk_num == -2:
                info.blk_num = blk_num
                blk_num += 1
                if info.available is None:
                    block_list.append(info)
                work.pop()
                continue
            info.blk_num = -2
            assert info.bb is not None
            for succ in info.bb.successors:
                sinfo = bbmap.get(succ)
                if sinfo is None or sinfo.blk_num:
                    continue
                sinfo.blk_num = -1
                work.append(sinfo)
        pseudo.blk_num = blk_num
        return block_list, pseudo

    def _find_dominators(self, block_list: list[_BBInfo], pseudo: _BBInfo) -> None:
        changed = True
        while changed:
            changed = False
            for i in range(len(block_list) - 1, -1, -1):
                info = block_list[i]
                new_idom: _BBInfo | None = None
                for pred in info.preds:
                    if pred.blk_num == 0:
                        # An unreachable predecessor: a definition with poison.
                        pred.available = self._poison()
                        assert pred.bb is not None
                        self._available[pred.bb] = pred.available
                        pred.def_bb = pred
                        pred.blk_num = pseudo.blk_num
                        pseudo.blk_num += 1
                    new_idom = pred if new_idom is None else _intersect(new_idom, pred)
                if new_idom is not None and new_idom is not info.idom:
                    info.idom = new_idom
                    changed = True

    def _find_singular_val(self, info: _BBInfo) -> bool:
        """All predecessors already have one and the same value: use it, no phi."""
        preds = info.preds
        if not preds:
            return False
        d0 = preds[0].def_bb
        single = d0.available if d0 is not None else None
        if single is None:
            return False
        for pred in preds[1:]:
            d = pred.def_bb
            if d is None or d.available is not single:
                return False
        assert info.bb is not None
        self._available[info.bb] = single
        info.available = single
        info.def_bb = d0
        return True

    def _find_available_vals(self, block_list: list[_BBInfo], bbmap: dict[BasicBlock, _BBInfo]) -> None:
        assert self.proto_type is not None
        for info in block_list:
            if info.def_bb is not info:
                continue
            assert info.bb is not None
            if self._find_singular_val(info):
                continue
            _find_existing_phi(info.bb, block_list, bbmap, self._available)
            if info.available is not None:
                continue
            phi = PHINode(self.proto_type, name=self.proto_name)
            phi.insert_into(info.bb, info.bb.instructions._first)
            info.available = phi
            self._available[info.bb] = phi
        for i in range(len(block_list) - 1, -1, -1):
            info = block_list[i]
            assert info.bb is not None
            if info.def_bb is not info:
                d = info.def_bb
                assert d is not None
                self._available[info.bb] = d.available
                continue
            phi_v = info.available
            if not isinstance(phi_v, PHINode) or phi_v.num_incoming != 0:
                continue
            for pinfo in info.preds:
                pred_bb = pinfo.bb
                if pinfo.def_bb is not pinfo:
                    assert pinfo.def_bb is not None
                    pinfo = pinfo.def_bb
                assert pinfo.available is not None and pred_bb is not None
                phi_v.add_incoming(pinfo.available, pred_bb)
            if self.inserted_phis is not None:
                self.inserted_phis.append(phi_v)


def _intersect(a: _BBInfo, b: _BBInfo) -> _BBInfo:
    while a is not b:
        while a.blk_num < b.blk_num:
            nxt = a.idom
            if nxt is None:
                return b
            a = nxt
        while b.blk_num < a.blk_num:
            nxt = b.idom
            if nxt is None:
                return a
            b = nxt
    return a


def _def_in_dom_frontier(pred: _BBInfo, idom: _BBInfo | None) -> bool:
    node: _BBInfo | None = pred
    while node is not idom and node is not None:
        if node.def_bb is node:
            return True
        node = node.idom
    return False


def _find_phi_placement(block_list: list[_BBInfo]) -> None:
    changed = True
    while changed:
        changed = False
        for i in range(len(block_list) - 1, -1, -1):
            info = block_list[i]
            if info.def_bb is info:
                continue
            assert info.idom is not None
            new_def = info.idom.def_bb
            for pred in info.preds:
                if _def_in_dom_frontier(pred, info.idom):
                    new_def = info
                    break
            if new_def is not info.def_bb:
                info.def_bb = new_def
                changed = True


def _find_existing_phi(
    bb: BasicBlock,
    block_list: list[_BBInfo],
    bbmap: dict[BasicBlock, _BBInfo],
    available: dict[BasicBlock, Value | None],
) -> None:
    for phi in bb.phis():
        if _phi_matches(phi, bbmap):
            for info in block_list:
                tag = info.phi_tag
                if tag is not None:
                    pbb = tag.parent
                    assert pbb is not None
                    available[pbb] = tag
                    bbmap[pbb].available = tag
            break
        for info in block_list:
            info.phi_tag = None


def _phi_matches(phi: PHINode, bbmap: dict[BasicBlock, _BBInfo]) -> bool:
    parent = phi.parent
    assert parent is not None
    bbmap[parent].phi_tag = phi
    work = [phi]
    while work:
        cur = work.pop()
        for value, block in cur.incoming:
            pinfo = bbmap.get(block)
            if pinfo is None:
                return False
            if pinfo.def_bb is not pinfo and pinfo.def_bb is not None:
                pinfo = pinfo.def_bb
            if pinfo.available is not None:
                if value is pinfo.available:
                    continue
                return False
            if not isinstance(value, PHINode) or value.parent is not pinfo.bb:
                return False
            if pinfo.phi_tag is not None:
                if value is pinfo.phi_tag:
                    continue
                return False
            pinfo.phi_tag = value
            work.append(value)
    return True


__all__ = ["SSAUpdater", "simplify_phi_node"]
