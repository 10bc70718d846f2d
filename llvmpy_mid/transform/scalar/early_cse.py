"""``early-cse`` and ``early-cse<memssa>``: a dominator-tree walk that removes
trivially redundant instructions (LLVM 19.1.7 ``EarlyCSEPass``,
``llvm/lib/Transforms/Scalar/EarlyCSE.cpp``).

How: a depth-first walk of the dominator tree with an explicit stack (no
recursion). Each node opens a scope in five scoped hash tables (pure values,
loads/stores by pointer, invariant locations, read-only calls, GEPs; keys in
:mod:`llvmpy_mid.transform.scalar.early_cse_keys`) and carries the memory
*generation* it starts with; a block with several predecessors, and every
instruction that may write memory (or an ordered/volatile load), starts a new
generation. In each block, in order: trivially dead instructions are deleted
(debug info salvaged); ``llvm.assume`` and ``llvm.experimental.guard``
conditions become known true, a guard whose condition is known true is
deleted; ``invariant.start`` without uses and ``!invariant.load`` make a
location invariant from the current generation on; InstructionSimplify
answers replace instructions; pure values, loads (forwarded from a load or
store of the same pointer in the same generation, or on invariant memory),
read-only calls and GEPs (equal base and constant offset) are replaced by an
available equal one; a store of the value just loaded from the same place is
deleted, and a store overwritten by the next store to the same pointer with no
read in between is deleted. On entry to a block whose single predecessor ends
in a conditional branch, the condition (and, through ``and``/``or``, its
operands) is known on that edge: dominated uses are replaced by ``true`` or
``false``. Masked loads and stores (``llvm.masked.load/store``) take part with
LLVM's mask-subset rules.

With ``<memssa>``, two memory operations of different generations still match
when MemorySSA's walker finds the later one's clobber dominating the earlier one
(at most ``-earlycse-mssa-optimization-cap`` walker queries per function, then
the defining access), and MemorySSA is kept up to date on every deletion (the
updater's ``remove_memory_access`` with phi optimisation; ``-verify-memoryssa``
checks it first).

Options: ``-earlycse-debug-hash`` (checks that equal keys hash equally),
``-earlycse-mssa-optimization-cap`` (500). ``-stats``: NumSimplify, NumCSE,
NumCSECVP, NumCSELoad, NumCSECall, NumCSEGEP, NumDSE.

With ``-enable-knowledge-retention`` every deleted instruction first leaves what it
knew about its pointers in an ``llvm.assume`` (:mod:`llvmpy_mid.transform.utils.assume_bundle_builder`).

What it does not do (yet): target memory intrinsics (``getTgtMemIntrinsic``:
AArch64 ``ldN``/``stN``, AMDGPU) and the ``-debug-counter=early-cse`` counter.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.assumption_cache import AssumptionAnalysis
from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.memory_ssa import MemorySSA, MemorySSAAnalysis
from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
from llvmpy_mid.analysis.poison_tracking import has_poison_generating_flags, program_undefined_if_poison
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.analysis.target_transform_info import TargetIRAnalysis
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constants import ConstantInt, ConstantVector, UndefValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import FenceInst, LoadInst, StoreInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.pattern_match import m_logical_and, m_logical_or, m_value, match
from llvmpy_mid.ir.pointer_casts import accumulate_constant_offset
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.scalar.early_cse_keys import (
    CallValue,
    GEPValue,
    ScopedHashTable,
    SimpleValue,
    and_ir_flags,
    can_handle_call_value,
    can_handle_simple_value,
    is_fp_math_operator,
    is_true_constant,
    set_debug_hash,
)
from llvmpy_mid.transform.utils.assume_bundle_builder import salvage_knowledge
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead, replace_dominated_uses_with, salvage_debug_info
from llvmpy_mid.transform.utils.local_metadata import combine_metadata_for_cse

__all__ = ["EarlyCSEOptions", "EarlyCSEPass", "parse_early_cse_options", "run_early_cse"]

_DT = "early-cse"
NUM_SIMPLIFY = Statistic(_DT, "NumSimplify", "Number of instructions simplified or DCE'd")
NUM_CSE = Statistic(_DT, "NumCSE", "Number of instructions CSE'd")
NUM_CSE_CVP = Statistic(_DT, "NumCSECVP", "Number of compare instructions CVP'd")
NUM_CSE_LOAD = Statistic(_DT, "NumCSELoad", "Number of load instructions CSE'd")
NUM_CSE_CALL = Statistic(_DT, "NumCSECall", "Number of call instructions CSE'd")
NUM_CSE_GEP = Statistic(_DT, "NumCSEGEP", "Number of GEP instructions CSE'd")
NUM_DSE = Statistic(_DT, "NumDSE", "Number of trivial dead stores removed")

_MASKED_LOAD = "llvm.masked.load"
_MASKED_STORE = "llvm.masked.store"
_SKIPPED_INTRINSICS = frozenset(("llvm.experimental.noalias.scope.decl", "llvm.sideeffect", "llvm.pseudoprobe"))
_NOT_ATOMIC = AtomicOrdering.NOT_ATOMIC
_UNORDERED = AtomicOrdering.UNORDERED
_MATCHING_ID_MASKED = 1
"""The ``MatchingId`` of masked loads and stores (LLVM uses the intrinsic's ID; only
equality with other ids matters, and plain loads/stores have -1)."""


# --- ParseMemoryInst ---------------------------------------------------------------------------


class ParseMemoryInst:
    """A load, store or masked load/store seen uniformly (LLVM ``ParseMemoryInst``)."""

    __slots__ = ("inst", "intrinsic", "ptr", "read_mem", "write_mem")

    def __init__(self, inst: Instruction) -> None:
        self.inst = inst
        self.intrinsic = ""
        self.ptr: Value | None = None
        self.read_mem = False
        self.write_mem = False
        if isinstance(inst, LoadInst):
            self.ptr = inst._operands[0].value
        elif isinstance(inst, StoreInst):
            self.ptr = inst._operands[1].value
        elif isinstance(inst, CallInst):
            base = inst.intrinsic_base
            if base:
                self.intrinsic = base
                if base == _MASKED_LOAD:
                    self.ptr = inst._operands[0].value
                    self.read_mem = True
                elif base == _MASKED_STORE:
                    self.ptr = inst._operands[1].value
                    self.write_mem = True

    @property
    def is_valid(self) -> bool:
        return self.ptr is not None

    @property
    def is_load(self) -> bool:
        if self.intrinsic:
            return self.read_mem
        return isinstance(self.inst, LoadInst)

    @property
    def is_store(self) -> bool:
        if self.intrinsic:
            return self.write_mem
        return isinstance(self.inst, StoreInst)

    @property
    def is_atomic(self) -> bool:
        if self.intrinsic:
            return False
        return self.inst.is_atomic

    @property
    def is_unordered(self) -> bool:
        if self.intrinsic:
            return True
        inst = self.inst
        if isinstance(inst, (LoadInst, StoreInst)):
            return inst.is_unordered
        return not inst.is_atomic

    @property
    def is_volatile(self) -> bool:
        if self.intrinsic:
            return False
        inst = self.inst
        if isinstance(inst, (LoadInst, StoreInst)):
            return inst.is_volatile
        return True

    @property
    def is_invariant_load(self) -> bool:
        return isinstance(self.inst, LoadInst) and self.inst.get_metadata("invariant.load") is not None

    @property
    def matching_id(self) -> int:
        return _MATCHING_ID_MASKED if self.intrinsic else -1

    @property
    def value_type(self) -> Type | None:
        """LLVM ``Instruction::getAccessType`` for the kinds parsed here."""
        inst = self.inst
        if isinstance(inst, StoreInst) or self.intrinsic == _MASKED_STORE:
            return inst._operands[0].value.type
        if isinstance(inst, LoadInst) or self.intrinsic == _MASKED_LOAD:
            return inst.type
        return None

    def may_read_from_memory(self) -> bool:
        if self.intrinsic:
            return self.read_mem
        return self.inst.may_read_from_memory()


def _is_masked(v: Value) -> bool:
    """LLVM ``isHandledNonTargetIntrinsic``."""
    return isinstance(v, CallInst) and v.intrinsic_base in (_MASKED_LOAD, _MASKED_STORE)


def _is_submask(mask0: Value, mask1: Value) -> bool:
    """Every lane ``mask0`` enables, ``mask1`` enables too (constant masks)."""
    if mask0 is mask1:
        return True
    if isinstance(mask0, UndefValue) or isinstance(mask1, UndefValue):
        return False
    if not isinstance(mask0, ConstantVector) or not isinstance(mask1, ConstantVector):
        return False
    if mask0.type is not mask1.type:
        return False
    for e0, e1 in zip(mask0.operands, mask1.operands):
        if isinstance(e0, ConstantInt) and e0.value == 0:
            continue
        if isinstance(e1, ConstantInt) and e1.value != 0:
            continue
        if isinstance(e0, UndefValue) or isinstance(e1, UndefValue):
            return False
        if e0 is e1:
            continue
        return False
    return True


def _masked_ptr(ii: CallInst) -> Value:
    return ii._operands[0 if ii.intrinsic_base == _MASKED_LOAD else 1].value


def _masked_mask(ii: CallInst) -> Value:
    return ii._operands[2 if ii.intrinsic_base == _MASKED_LOAD else 3].value


def _non_target_intrinsic_match(earlier: CallInst, later: CallInst) -> bool:
    """LLVM ``isNonTargetIntrinsicMatch``: masked load/store pairs by pointer, mask
    subsets and undef pass-throughs."""
    if _masked_ptr(earlier) is not _masked_ptr(later):
        return False
    ide, idl = earlier.intrinsic_base, later.intrinsic_base
    if ide == _MASKED_LOAD and idl == _MASKED_LOAD:
        thru_e, thru_l = earlier._operands[3].value, later._operands[3].value
        if _masked_mask(earlier) is _masked_mask(later) and thru_e is thru_l:
            return True
        if not isinstance(thru_l, UndefValue):
            return False
        return _is_submask(_masked_mask(later), _masked_mask(earlier))
    if ide == _MASKED_STORE and idl == _MASKED_LOAD:
        if not _is_submask(_masked_mask(later), _masked_mask(earlier)):
            return False
        return isinstance(later._operands[3].value, UndefValue)
    if ide == _MASKED_LOAD and idl == _MASKED_STORE:
        return _is_submask(_masked_mask(later), _masked_mask(earlier))
    if ide == _MASKED_STORE and idl == _MASKED_STORE:
        return _is_submask(_masked_mask(earlier), _masked_mask(later))
    return False


def _get_or_create_result(inst: Value, expected: Type) -> Value | None:
    """The value ``inst`` loads or stores when it has type ``expected`` (LLVM
    ``getOrCreateResult``; no casts are made)."""
    if isinstance(inst, LoadInst):
        return inst if inst.type is expected else None
    if isinstance(inst, StoreInst):
        v = inst._operands[0].value
        return v if v.type is expected else None
    if isinstance(inst, CallInst):
        base = inst.intrinsic_base
        if base == _MASKED_LOAD:
            return inst if inst.type is expected else None
        if base == _MASKED_STORE:
            v = inst._operands[0].value
            return v if v.type is expected else None
    return None


def _combine_ir_flags(frm: Instruction, to: Value) -> None:
    """LLVM ``combineIRFlags``: the kept instruction keeps only the flags both have,
    unless its poison would be UB anyway (FP flags are always intersected)."""
    if isinstance(to, Instruction):
        if is_fp_math_operator(to) or (has_poison_generating_flags(to) and not program_undefined_if_poison(to)):
            and_ir_flags(to, frm)


class _LoadValue:
    """An ``AvailableLoads`` entry (LLVM ``LoadValue``)."""

    __slots__ = ("def_inst", "generation", "matching_id", "is_atomic", "is_load")

    def __init__(self, def_inst: Instruction, generation: int, matching_id: int, is_atomic: bool, is_load: bool) -> None:
        self.def_inst = def_inst
        self.generation = generation
        self.matching_id = matching_id
        self.is_atomic = is_atomic
        self.is_load = is_load


class _StackNode:
    __slots__ = ("generation", "child_generation", "block", "children", "next_child", "processed")

    def __init__(self, generation: int, block: BasicBlock, children: list[BasicBlock]) -> None:
        self.generation = generation
        self.child_generation = generation
        self.block = block
        self.children = children
        self.next_child = 0
        self.processed = False


# --- the pass body ---------------------------------------------------------------------------


class EarlyCSE:
    """One run of EarlyCSE over one function (LLVM's ``EarlyCSE`` class)."""

    def __init__(
        self,
        dl: DataLayout,
        tli: TargetLibraryInfo | None,
        dt: DominatorTree,
        ac: object | None,
        mssa: MemorySSA | None = None,
    ) -> None:
        self.dl = dl
        self.tli = tli
        self.dt = dt
        self.ac = ac
        self.sq = SimplifyQuery(dl, tli, dt, ac)  # type: ignore[arg-type]
        self.mssa = mssa
        self.mssa_updater: MemorySSAUpdater | None = MemorySSAUpdater(mssa) if mssa is not None else None
        self.available_values: ScopedHashTable[SimpleValue, Value] = ScopedHashTable()
        self.available_loads: ScopedHashTable[Value, _LoadValue] = ScopedHashTable()
        self.available_invariants: ScopedHashTable[MemoryLocation, int] = ScopedHashTable()
        self.available_calls: ScopedHashTable[CallValue, tuple[Instruction, int]] = ScopedHashTable()
        self.available_geps: ScopedHashTable[GEPValue, Value] = ScopedHashTable()
        self._tables = (
            self.available_values, self.available_loads, self.available_invariants,
            self.available_calls, self.available_geps,
        )
        self.generation = 0
        self.clobber_counter = 0
        self._retain_knowledge = bool(OPTIONS.value("enable-knowledge-retention"))
        self._verify_mssa = mssa is not None and OPTIONS.get("verify-memoryssa") is not None and bool(
            OPTIONS.value("verify-memoryssa")
        )
        self.clobber_cap = int(OPTIONS.value("earlycse-mssa-optimization-cap"))

    # -- scopes -----------------------------------------------------------------------------
    def _push_scopes(self) -> None:
        for t in self._tables:
            t.push_scope()

    def _pop_scopes(self) -> None:
        for t in self._tables:
            t.pop_scope()

    # -- MemorySSA --------------------------------------------------------------------------
    def _remove_mssa(self, inst: Instruction) -> None:
        if self.mssa_updater is None:
            return
        if self._verify_mssa and self.mssa is not None:
            self.mssa.verify_memory_ssa()
        self.mssa_updater.remove_memory_access(inst, True)

    def _erase(self, inst: Instruction, salvage_from: Instruction | None = None) -> None:
        """``salvageKnowledge`` (of ``salvage_from``, by default ``inst``), MemorySSA
        removal and erasure."""
        if self._retain_knowledge:
            salvage_knowledge(salvage_from if salvage_from is not None else inst, self.ac)  # type: ignore[arg-type]
        self._remove_mssa(inst)
        inst.erase_from_parent()

    def is_same_mem_generation(self, earlier_gen: int, later_gen: int, earlier: Instruction, later: Instruction) -> bool:
        """Nothing may have written the memory ``later`` reads between ``earlier`` and
        ``later`` (LLVM ``isSameMemGeneration``)."""
        if earlier_gen == later_gen:
            return True
        mssa = self.mssa
        if mssa is None:
            return False
        earlier_ma = mssa.get_memory_access(earlier)
        if earlier_ma is None:
            return True
        later_ma = mssa.get_memory_access(later)
        if later_ma is None:
            return True
        if self.clobber_counter < self.clobber_cap:
            later_def = mssa.get_walker().get_clobbering_memory_access(later)
            self.clobber_counter += 1
        else:
            later_def = later_ma.get_defining_access()
        return bool(mssa.dominates(later_def, earlier_ma))

    def _is_operating_on_invariant_mem_at(self, inst: Instruction, gen_at: int) -> bool:
        if isinstance(inst, LoadInst) and inst.get_metadata("invariant.load") is not None:
            return True
        loc = MemoryLocation.get_or_none(inst)
        if loc is None:
            return False
        gen = self.available_invariants.lookup(loc)
        return gen is not None and gen <= gen_at

    # -- branch conditions ------------------------------------------------------------------
    def _handle_branch_condition(self, cond: Instruction, bi: BranchInst, bb: BasicBlock, pred: BasicBlock) -> bool:
        ctx = bb.context
        on_true = bi.successors[0] is bb
        known = ConstantInt.get_true(ctx.i1) if on_true else ConstantInt.get_false(ctx.i1)
        pattern = _LOGICAL_AND if on_true else _LOGICAL_OR
        changed = False
        worklist: list[Instruction] = [cond]
        visited: set[Instruction] = set()
        while worklist:
            curr = worklist.pop()
            self.available_values.insert(SimpleValue(curr), known)
            count = replace_dominated_uses_with(curr, known, self.dt, (pred, bb))
            if count:
                NUM_CSE_CVP.add(count)
                changed = True
            m = match(curr, pattern)
            if m is not None:
                for op in (m.l, m.r):
                    if isinstance(op, Instruction) and can_handle_simple_value(op) and op not in visited:
                        visited.add(op)
                        worklist.append(op)
        return changed

    # -- loads and stores -------------------------------------------------------------------
    def _get_matching_value(self, inval: _LoadValue | None, mem: ParseMemoryInst) -> Value | None:
        if inval is None:
            return None
        if inval.matching_id != mem.matching_id:
            return None
        if mem.is_volatile or not mem.is_unordered:
            return None
        if mem.is_load and not inval.is_atomic and mem.is_atomic:
            return None
        mem_is_matching = not mem.is_load
        matching = mem.inst if mem_is_matching else inval.def_inst
        other = inval.def_inst if mem_is_matching else mem.inst
        result: Value | None = None
        if mem.is_store:
            result = _get_or_create_result(matching, other.type)
            if inval.def_inst is not result:
                return None
        matching_nti = _is_masked(matching)
        if _is_masked(other) != matching_nti:
            return None
        if matching_nti:
            if not _non_target_intrinsic_match(inval.def_inst, mem.inst):  # type: ignore[arg-type]
                return None
        if not self._is_operating_on_invariant_mem_at(mem.inst, inval.generation) and not self.is_same_mem_generation(
            inval.generation, self.generation, inval.def_inst, mem.inst
        ):
            return None
        if result is None:
            result = _get_or_create_result(matching, other.type)
        return result

    @staticmethod
    def _overriding_stores(earlier: ParseMemoryInst, later: ParseMemoryInst) -> bool:
        """The ``earlier`` store is dead because ``later`` overwrites it (LLVM ``overridingStores``)."""
        if earlier.ptr is not later.ptr:
            return False
        et, lt = earlier.value_type, later.value_type
        if et is None or lt is None or et is not lt:
            return False
        if earlier.matching_id != later.matching_id:
            return False
        if not earlier.is_unordered or not later.is_unordered:
            return False
        enti = _is_masked(earlier.inst)
        lnti = _is_masked(later.inst)
        if enti and lnti:
            return _non_target_intrinsic_match(earlier.inst, later.inst)  # type: ignore[arg-type]
        return enti == lnti

    # -- one block --------------------------------------------------------------------------
    def process_node(self, bb: BasicBlock) -> bool:
        changed = False
        tli = self.tli
        pred = bb.single_predecessor
        if pred is None:
            self.generation += 1
        else:
            bi = pred.terminator
            if isinstance(bi, BranchInst) and bi.is_conditional:
                cond = bi.condition
                if isinstance(cond, Instruction) and can_handle_simple_value(cond):
                    changed |= self._handle_branch_condition(cond, bi, bb, pred)

        last_store: Instruction | None = None
        ctx = bb.context
        node = bb.instructions._first
        while node is not None:
            inst: Instruction = node
            node = node._next

            if is_instruction_trivially_dead(inst, tli):
                if self._retain_knowledge:
                    salvage_knowledge(inst, self.ac)  # type: ignore[arg-type]
                salvage_debug_info(inst)
                self._remove_mssa(inst)
                inst.erase_from_parent()
                changed = True
                NUM_SIMPLIFY.add()
                continue

            base = inst.intrinsic_base if isinstance(inst, CallInst) else ""
            if base:
                if base == "llvm.assume":
                    cond_i = inst._operands[0].value
                    if isinstance(cond_i, Instruction) and can_handle_simple_value(cond_i):
                        self.available_values.insert(SimpleValue(cond_i), ConstantInt.get_true(ctx.i1))
                    continue
                if base in _SKIPPED_INTRINSICS:
                    continue
                if base == "llvm.invariant.start":
                    if inst._use_head is not None:
                        continue
                    loc = MemoryLocation.get_for_argument(inst, 1, tli)  # type: ignore[arg-type]
                    if not self.available_invariants.count(loc):
                        self.available_invariants.insert(loc, self.generation)
                    continue
                if base == "llvm.experimental.guard":
                    cond_i = inst._operands[0].value
                    if isinstance(cond_i, Instruction) and can_handle_simple_value(cond_i):
                        known = self.available_values.lookup(SimpleValue(cond_i))
                        if known is not None:
                            if is_true_constant(known):
                                self._erase(inst)
                                changed = True
                                continue
                            inst.set_operand(0, known)
                        self.available_values.insert(SimpleValue(cond_i), ConstantInt.get_true(ctx.i1))
                    last_store = None
                    continue

            v = simplify_instruction(inst, self.sq)
            if v is not None:
                killed = False
                if inst._use_head is not None:
                    inst.replace_all_uses_with(v)
                    changed = True
                if is_instruction_trivially_dead(inst, tli):
                    self._erase(inst)
                    changed = True
                    killed = True
                if changed:
                    NUM_SIMPLIFY.add()
                if killed:
                    continue

            if can_handle_simple_value(inst):
                key = SimpleValue(inst)
                avail = self.available_values.lookup(key)
                if avail is not None:
                    _combine_ir_flags(inst, avail)
                    inst.replace_all_uses_with(avail)
                    self._erase(inst)
                    changed = True
                    NUM_CSE.add()
                    continue
                self.available_values.insert(key, inst)
                continue

            mem = ParseMemoryInst(inst)
            if mem.ptr is not None and mem.is_load:
                if mem.is_volatile or not mem.is_unordered:
                    last_store = None
                    self.generation += 1
                if mem.is_invariant_load:
                    loc = MemoryLocation.get(inst)
                    if not self.available_invariants.count(loc):
                        self.available_invariants.insert(loc, self.generation)
                inval = self.available_loads.lookup(mem.ptr)
                op = self._get_matching_value(inval, mem)
                if op is not None:
                    assert inval is not None
                    if inval.is_load and isinstance(op, Instruction):
                        combine_metadata_for_cse(op, inst, False)
                    if inst._use_head is not None:
                        inst.replace_all_uses_with(op)
                    self._erase(inst)
                    changed = True
                    NUM_CSE_LOAD.add()
                    continue
                self.available_loads.insert(
                    mem.ptr, _LoadValue(inst, self.generation, mem.matching_id, mem.is_atomic, mem.is_load)
                )
                last_store = None
                continue

            if (inst.may_read_from_memory() or inst.may_throw()) and not (
                mem.ptr is not None and not mem.may_read_from_memory()
            ):
                last_store = None

            if can_handle_call_value(inst):
                assert isinstance(inst, CallInst)
                ckey = CallValue(inst)
                cval = self.available_calls.lookup(ckey)
                if cval is not None and self.is_same_mem_generation(cval[1], self.generation, cval[0], inst):
                    if inst._use_head is not None:
                        inst.replace_all_uses_with(cval[0])
                    self._erase(inst)
                    changed = True
                    NUM_CSE_CALL.add()
                    continue
                self.available_calls.insert(ckey, (inst, self.generation))
                continue

            if isinstance(inst, GetElementPtrInst):
                gkey = GEPValue(inst, self._gep_offset(inst))
                gval = self.available_geps.lookup(gkey)
                if gval is not None:
                    _combine_ir_flags(inst, gval)
                    inst.replace_all_uses_with(gval)
                    self._erase(inst)
                    changed = True
                    NUM_CSE_GEP.add()
                    continue
                self.available_geps.insert(gkey, inst)
                continue

            if isinstance(inst, FenceInst) and inst.ordering is AtomicOrdering.RELEASE:
                continue

            if mem.ptr is not None and mem.is_store:
                inval = self.available_loads.lookup(mem.ptr)
                if inval is not None and inval.def_inst is self._get_matching_value(inval, mem):
                    self._erase(inst)
                    changed = True
                    NUM_DSE.add()
                    continue

            if inst.may_write_to_memory():
                self.generation += 1
                if mem.ptr is not None and mem.is_store:
                    if last_store is not None:
                        if self._overriding_stores(ParseMemoryInst(last_store), mem):
                            self._erase(last_store, salvage_from=inst)
                            changed = True
                            NUM_DSE.add()
                            last_store = None
                    self.available_loads.insert(
                        mem.ptr, _LoadValue(inst, self.generation, mem.matching_id, mem.is_atomic, mem.is_load)
                    )
                    last_store = inst if (mem.is_unordered and not mem.is_volatile) else None
        return changed

    def _gep_offset(self, gep: GetElementPtrInst) -> int | None:
        """The GEP's constant byte offset as a signed 64-bit value, if it has one."""
        width = self.dl.index_type_size_in_bits(gep.type)
        off = accumulate_constant_offset(self.dl, gep, width)
        if off is None:
            return None
        off &= (1 << width) - 1
        if off >> (width - 1):
            off -= 1 << width
        if not -(1 << 63) <= off < (1 << 63):
            return None
        return off

    # -- the walk ---------------------------------------------------------------------------
    def run(self, fn: Function) -> bool:
        dt = self.dt
        entry = fn.entry_block
        changed = False
        self._push_scopes()
        stack = [_StackNode(self.generation, entry, dt.children(entry))]
        while stack:
            top = stack[-1]
            self.generation = top.generation
            if not top.processed:
                changed |= self.process_node(top.block)
                top.child_generation = self.generation
                top.processed = True
            elif top.next_child < len(top.children):
                child = top.children[top.next_child]
                top.next_child += 1
                self._push_scopes()
                stack.append(_StackNode(top.child_generation, child, dt.children(child)))
            else:
                self._pop_scopes()
                stack.pop()
        return changed


_LOGICAL_AND = m_logical_and(m_value("l"), m_value("r"))
_LOGICAL_OR = m_logical_or(m_value("l"), m_value("r"))


def run_early_cse(
    fn: Function, dt: DominatorTree, tli: TargetLibraryInfo | None = None, ac: object | None = None, mssa: MemorySSA | None = None
) -> bool:
    """Run EarlyCSE over ``fn``; True when anything changed."""
    module = fn.parent
    dl = module.data_layout if module is not None else DataLayout()
    set_debug_hash(bool(OPTIONS.value("earlycse-debug-hash")))
    return EarlyCSE(dl, tli, dt, ac, mssa).run(fn)


# --- the pass ----------------------------------------------------------------------------------


class EarlyCSEOptions:
    """``early-cse<memssa>``'s one parameter."""

    __slots__ = ("use_memory_ssa",)

    def __init__(self, use_memory_ssa: bool = False) -> None:
        self.use_memory_ssa = use_memory_ssa


def parse_early_cse_options(params: str) -> EarlyCSEOptions:
    """``memssa`` (any number of times) or nothing; anything else is an error, as
    opt-19's ``parseEarlyCSEPassOptions``."""
    opts = EarlyCSEOptions()
    for name in params.split(";") if params else []:
        if name == "memssa":
            opts.use_memory_ssa = True
        else:
            raise PipelineError("invalid EarlyCSE pass parameter '%s' " % name)
    return opts


class EarlyCSEPass(Pass[Function]):
    """``early-cse``: removes trivially redundant instructions on a dominator-tree walk."""

    name: ClassVar[str] = "early-cse"

    def __init__(self, options: EarlyCSEOptions | None = None) -> None:
        self.options = options if options is not None else EarlyCSEOptions()

    @property
    def log_name(self) -> str:
        return "EarlyCSEPass"

    def pipeline_params(self) -> str:
        """``memssa`` or nothing, as opt-19's ``printPipeline`` writes it."""
        return "memssa" if self.options.use_memory_ssa else ""

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if unit.is_declaration:
            return PreservedAnalyses.all()
        tli = am.get_result(TargetLibraryAnalysis, unit)
        am.get_result(TargetIRAnalysis, unit)
        dt = am.get_result(DominatorTreeAnalysis, unit)
        ac = am.get_result(AssumptionAnalysis, unit)
        mssa: MemorySSA | None = None
        use_mssa = self.options.use_memory_ssa
        if use_mssa:
            mssa = am.get_result(MemorySSAAnalysis, unit).mssa
        if not run_early_cse(unit, dt, tli, ac, mssa):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        if use_mssa:
            pa.preserve(MemorySSAAnalysis)
        return pa
