"""``mldst-motion``: merged store sinking out of diamonds (LLVM
``MergedLoadStoreMotionPass``, lib/Transforms/Scalar/MergedLoadStoreMotion.cpp).

What: at the head of a diamond (a conditional branch to two blocks, each with this
one predecessor and the same single successor, the tail), a store that ends up on
both sides (the same address, must-alias, with the same volatility, alignment,
ordering and a value type that bit-or-no-op-pointer casts to the other's) is
replaced by one store at the tail's first insertion point; differing stored values
meet in a phi ``<value>.sink``. When both addresses are GEPs that are identical,
used once and in the stores' own blocks, the GEP sinks with them. No instruction
after either store up to the block's end may throw or mod/ref the stored location
(asked of AA). The walk runs over the first side's stores bottom-up, restarting
after each merge; it stops at a pair it cannot sink with its GEPs, and LLVM's
compile-time cap ``stores × size(second side) < 250`` bounds it.

Parameter ``<split-footer-bb>`` (default ``no-split-footer-bb``, as opt-19 parses and
prints it): when the tail has three or more predecessors, the stores are sunk into a
new block ``<tail>.sink.split`` that takes the two sides' edges
(``SplitBlockPredecessors``); without it such diamonds are left alone. The CFG
analyses are preserved unless splitting is allowed.

LLVM 19 does not hoist loads in this pass (only its name remembers it), and has no
``-mldst-motion-*`` options; neither does this module.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.aa_manager import AAManager
from llvmpy_mid.analysis.alias.aa_results import MOD_REF, AAResults
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.loads import is_bit_or_noop_pointer_castable
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.debug_loc_merge import get_merged_location
from llvmpy_mid.ir.folders import ConstantFolder
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.pipeline_text import parse_flag_and_int_params
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import is_debug_or_pseudo_probe_call, split_block_predecessors
from llvmpy_mid.transform.utils.local_metadata import merge_di_assign_id

__all__ = ["MergedLoadStoreMotionPass", "merged_load_store_motion", "parse_merged_load_store_motion_options"]

#: LLVM's ``MagicCompileTimeControl``: stop when stores seen × size of the other side reaches it.
MAGIC_COMPILE_TIME_CONTROL = 250


def parse_merged_load_store_motion_options(params: str) -> bool:
    """``mldst-motion<[no-]split-footer-bb>`` as opt-19's ``parseMergedLoadStoreMotionOptions``
    reads it: the split-footer-bb flag."""
    return bool(parse_flag_and_int_params(params, "MergedLoadStoreMotion", {"split-footer-bb": False})["split-footer-bb"])


def _is_diamond_head(bb: BasicBlock) -> bool:
    br = bb.terminator
    if type(br) is not BranchInst or not br.is_conditional:
        return False
    succ0 = br.get_successor(0)
    succ1 = br.get_successor(1)
    if succ0.single_predecessor is None or succ1.single_predecessor is None:
        return False
    tail0 = succ0.single_successor
    tail1 = succ1.single_successor
    return tail0 is not None and tail0 is tail1


class _MergedLoadStoreMotion:
    __slots__ = ("aa", "split_footer_bb")

    def __init__(self, aa: AAResults, split_footer_bb: bool) -> None:
        self.aa = aa
        self.split_footer_bb = split_footer_bb

    def _is_store_sink_barrier_in_range(self, start: Instruction, end: Instruction, loc: MemoryLocation) -> bool:
        """May something in ``[start, end)`` throw, or in ``[start, end]`` mod/ref ``loc``?"""
        inst: Instruction | None = start
        while inst is not None and inst is not end:
            if inst.may_throw():
                return True
            inst = inst.next_instruction
        return self.aa.can_instruction_range_mod_ref(start, end, loc, MOD_REF)

    def _can_sink_from_block(self, bb1: BasicBlock, store0: StoreInst) -> StoreInst | None:
        """The store of ``bb1`` (latest first) that may sink together with ``store0``."""
        bb0 = store0.parent
        assert bb0 is not None
        last0 = bb0.instructions.last
        last1 = bb1.instructions.last
        assert last0 is not None and last1 is not None
        dl = bb1.module.data_layout if bb1.module is not None else None
        inst: Instruction | None = last1
        while inst is not None:
            prev = inst.prev_instruction
            if isinstance(inst, StoreInst):
                loc0 = MemoryLocation.get(store0)
                loc1 = MemoryLocation.get(inst)
                nxt1 = inst.next_instruction
                nxt0 = store0.next_instruction
                assert nxt0 is not None and nxt1 is not None
                if (
                    self.aa.is_must_alias(loc0, loc1)
                    and not self._is_store_sink_barrier_in_range(nxt1, last1, loc1)
                    and not self._is_store_sink_barrier_in_range(nxt0, last0, loc0)
                    and store0.has_same_special_state(inst)
                    and dl is not None
                    and is_bit_or_noop_pointer_castable(store0.value_operand.type, inst.value_operand.type, dl)
                ):
                    return inst
            inst = prev
        return None

    @staticmethod
    def _can_sink_stores_and_geps(s0: StoreInst, s1: StoreInst) -> bool:
        p0 = s0.pointer_operand
        p1 = s1.pointer_operand
        if p0 is p1:
            return True
        return (
            type(p0) is GetElementPtrInst
            and type(p1) is GetElementPtrInst
            and p0.is_identical_to(p1)
            and p0.has_one_use
            and p0.parent is s0.parent
            and p1.has_one_use
            and p1.parent is s1.parent
        )

    @staticmethod
    def _phi_operand(bb: BasicBlock, s0: StoreInst, s1: StoreInst) -> PHINode | None:
        """A phi in ``bb`` of the two stored values, when they differ."""
        v0 = s0.value_operand
        v1 = s1.value_operand
        if v0 is v1:
            return None
        phi = PHINode(v0.type, name=v1.name + ".sink")
        first = bb.instructions.first
        if first is not None:
            phi.insert_before(first)
        else:
            bb.append(phi)
        phi.debug_loc = get_merged_location(s0.debug_loc, s1.debug_loc)
        b0 = s0.parent
        b1 = s1.parent
        assert b0 is not None and b1 is not None
        phi.add_incoming(v0, b0)
        phi.add_incoming(v1, b1)
        return phi

    def _sink_stores_and_geps(self, bb: BasicBlock, s0: StoreInst, s1: StoreInst) -> None:
        """Replace ``s0`` and ``s1`` by one store at ``bb``'s first insertion point."""
        ptr0 = s0.pointer_operand
        ptr1 = s1.pointer_operand
        insert_pt = bb.first_insertion_point
        assert insert_pt is not None
        s0.drop_unknown_non_debug_metadata()
        s0.debug_loc = get_merged_location(s0.debug_loc, s1.debug_loc)
        merge_di_assign_id(s0, [s1])
        builder = IRBuilder(before=s0, folder=ConstantFolder())
        builder.debug_loc = s0.debug_loc
        cast = builder.create_bit_or_pointer_cast(s0.value_operand, s1.value_operand.type)
        s0.set_operand(0, cast)
        new_store = s0.clone()
        new_store.insert_before(insert_pt)
        phi = self._phi_operand(bb, s0, s1)
        if phi is not None:
            new_store.set_operand(0, phi)
        s0.erase_from_parent()
        s1.erase_from_parent()
        if ptr0 is not ptr1:
            assert isinstance(ptr0, GetElementPtrInst) and isinstance(ptr1, GetElementPtrInst)
            new_gep = ptr0.clone()
            new_gep.insert_before(new_store)
            new_gep.debug_loc = get_merged_location(ptr0.debug_loc, ptr1.debug_loc)
            new_store.set_operand(1, new_gep)
            ptr0.replace_all_uses_with(new_gep)
            ptr0.erase_from_parent()
            ptr1.replace_all_uses_with(new_gep)
            ptr1.erase_from_parent()

    def merge_stores(self, head: BasicBlock) -> bool:
        """Sink the stores the two sides of the diamond headed by ``head`` share."""
        term = head.terminator
        assert term is not None
        pred0 = term.get_successor(0)
        pred1 = term.get_successor(1)
        tail = pred0.single_successor
        assert tail is not None
        sink_bb = tail
        if pred0 is pred1:
            return False
        if not self.split_footer_bb and tail.has_n_predecessors_or_more(3):
            return False
        size1 = sum(1 for i in pred1.instructions if not is_debug_or_pseudo_probe_call(i))
        n_stores = 0
        merged = False
        inst = pred0.instructions.last
        while inst is not None:
            s0 = inst
            inst = inst.prev_instruction
            if type(s0) is not StoreInst or not s0.is_simple:
                continue
            n_stores += 1
            if n_stores * size1 >= MAGIC_COMPILE_TIME_CONTROL:
                break
            s1 = self._can_sink_from_block(pred1, s0)
            if s1 is None:
                continue
            if not self._can_sink_stores_and_geps(s0, s1):
                break
            if sink_bb is tail and tail.has_n_predecessors_or_more(3):
                split = split_block_predecessors(tail, [pred0, pred1], ".sink.split")
                if split is None:
                    break
                sink_bb = split
            merged = True
            self._sink_stores_and_geps(sink_bb, s0, s1)
            inst = pred0.instructions.last
        return merged

    def run(self, fn: Function) -> bool:
        changed = False
        for bb in list(fn.blocks):
            if _is_diamond_head(bb):
                changed |= self.merge_stores(bb)
        return changed


def merged_load_store_motion(fn: Function, aa: AAResults, split_footer_bb: bool = False) -> bool:
    """Sink the stores the two sides of each diamond of ``fn`` share; True if any moved."""
    return _MergedLoadStoreMotion(aa, split_footer_bb).run(fn)


class MergedLoadStoreMotionPass(Pass[Function]):
    """``mldst-motion``: sinks the stores both sides of a diamond make."""

    name: ClassVar[str] = "mldst-motion"

    def __init__(self, split_footer_bb: bool = False) -> None:
        self.split_footer_bb = split_footer_bb

    @property
    def log_name(self) -> str:
        return "MergedLoadStoreMotionPass"

    def pipeline_params(self) -> str:
        """``split-footer-bb`` or ``no-split-footer-bb``, as LLVM's ``printPipeline``."""
        return "split-footer-bb" if self.split_footer_bb else "no-split-footer-bb"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        aa = am.get_result(AAManager, unit)
        if not merged_load_store_motion(unit, aa, self.split_footer_bb):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        if not self.split_footer_bb:
            pa.preserve_set(CFGAnalyses)
        return pa
