"""Stores that write what memory already holds, and malloc + memset folding (after LLVM
19.1.7 ``lib/Transforms/Scalar/DeadStoreElimination.cpp``: ``storeIsNoop``,
``dominatingConditionImpliesValue``, ``tryFoldIntoCalloc`` and
``eliminateRedundantStoresOfExistingValues`` of ``DSEState``).

- :func:`store_is_noop`: a store of a value loaded from the same address with no write
  in between (through MemoryPhis too), a store/memset of an allocation's initial value
  with nothing written since, or a store a dominating ``icmp eq/ne`` of a load of the
  address already implies.
- :func:`try_fold_into_calloc`: ``malloc(n)`` then ``memset(p, 0, n)`` (same block, or
  behind the ``p == null`` test) with nothing writing ``p`` in between -> ``calloc(1, n)``.
- :func:`eliminate_redundant_stores_of_existing_values`: a def identical to the def it
  is (optimised to be) defined by, or a store of a byte a covering memset wrote.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.bytewise_value import is_bytewise_value
from llvmpy_mid.analysis.memory_builtins import get_initial_value_of_allocation
from llvmpy_mid.analysis.memory_ssa import MemoryAccess, MemoryDef, MemoryPhi
from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constants import Constant, ConstantInt
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.scalar.dse_objects import _defining, _inst
from llvmpy_mid.transform.scalar.dse_overwrite import OverwriteResult, mem_set, memory_is_not_modified_between
from llvmpy_mid.transform.utils.build_lib_calls import emit_calloc

if TYPE_CHECKING:
    from llvmpy_mid.transform.scalar.dse import DSEState

__all__ = [
    "NUM_REDUNDANT_STORES",
    "eliminate_redundant_stores_of_existing_values",
    "store_is_noop",
    "try_fold_into_calloc",
]

NUM_REDUNDANT_STORES = Statistic("dse", "NumRedundantStores", "Number of redundant stores deleted")


def _parent(i: Instruction) -> BasicBlock:
    bb = i.parent
    assert bb is not None
    return bb


def try_fold_into_calloc(state: DSEState, d: MemoryDef, def_uo: Value) -> bool:
    """``malloc(n)`` then ``memset(p, 0, n)`` -> ``calloc(1, n)``."""
    def_i = _inst(d)
    if not mem_set(def_i):
        return False
    assert isinstance(def_i, CallBase)
    stored = def_i.get_arg(1)
    if not isinstance(stored, Constant) or not stored.is_null_value:
        return False
    if not state.is_removable(def_i):
        return False
    fn = state.fn
    if (
        fn.has_fn_attribute("sanitize_memory")
        or fn.has_fn_attribute("sanitize_address")
        or fn.has_fn_attribute("sanitize_hwaddress")
        or fn.name == "calloc"
    ):
        return False
    malloc = def_uo
    if not isinstance(malloc, CallInst):
        return False
    callee = malloc.called_function
    if callee is None:
        return False
    lib = state.tli.get_lib_func(callee)
    if lib is None or not state.tli.has(lib) or lib != "malloc":
        return False
    malloc_def = state.mssa.get_memory_access(malloc)
    if not isinstance(malloc_def, MemoryDef):
        return False
    if malloc.operands[0] is not def_i.get_arg(2):
        return False
    if not _should_create_calloc(malloc, def_i):
        return False
    if not state.dt.dominates(malloc, def_i):
        return False
    if not memory_is_not_modified_between(malloc, def_i, state.batch_aa, state.dl, state.dt):
        return False
    b = IRBuilder(before=malloc)
    b.debug_loc = malloc.debug_loc
    size = malloc.get_arg(0)
    calloc = emit_calloc(ConstantInt.get(size.type, 1), size, b, state.tli)
    if calloc is None:
        return False
    for rec in malloc.take_dbg_records():  # the call goes after the records before malloc, as LLVM
        calloc.add_dbg_record(rec)
    updater = MemorySSAUpdater(state.mssa)
    new_access = updater.create_memory_access_after(calloc, None, malloc_def)
    assert isinstance(new_access, MemoryDef)
    updater.insert_def(new_access, True)
    malloc.replace_all_uses_with(calloc)
    state.clear_pointer_caches()
    state.delete_dead_instruction(malloc)
    return True


def dominating_condition_implies_value(state: DSEState, d: MemoryDef) -> bool:
    store = _inst(d)
    assert isinstance(store, StoreInst)
    store_bb = _parent(store)
    store_ptr = store.operands[1]
    store_val = store.operands[0]
    idom = state.dt.idom(store_bb)
    if idom is None:
        return False
    br = idom.terminator
    if not isinstance(br, BranchInst) or not br.is_conditional:
        return False
    succ0 = br.get_successor(0)
    succ1 = br.get_successor(1)
    if succ0 is succ1:
        return False
    cond = br.condition
    if not isinstance(cond, ICmpInst):
        return False
    a, c = cond.operands[0], cond.operands[1]
    load: Value
    if isinstance(a, LoadInst) and a.operands[0] is store_ptr and c is store_val:
        load = a
    elif isinstance(c, LoadInst) and c.operands[0] is store_ptr and a is store_val:
        load = c
    else:
        return False
    pred = cond.predicate
    if pred is not Predicate.ICMP_EQ and pred is not Predicate.ICMP_NE:
        return False
    if pred is Predicate.ICMP_EQ and not state.dt.dominates_edge(idom, succ0, store_bb):
        return False
    if pred is Predicate.ICMP_NE and not state.dt.dominates_edge(idom, succ1, store_bb):
        return False
    assert isinstance(load, Instruction)
    load_acc = state.mssa.get_memory_access(load)
    if load_acc is None:
        return False
    clob = state.mssa.get_skip_self_walker().get_clobbering_memory_access(d, baa=state.batch_aa)
    return state.mssa.dominates(clob, load_acc)


def store_is_noop(state: DSEState, d: MemoryDef, def_uo: Value) -> bool:
    """The store writes the value the memory already holds (LLVM ``storeIsNoop``)."""
    def_i = _inst(d)
    store = def_i if isinstance(def_i, StoreInst) else None
    is_memset = mem_set(def_i)
    stored: Value
    if store is not None:
        stored = store.operands[0]
    elif is_memset:
        assert isinstance(def_i, CallBase)
        stored = def_i.get_arg(1)
    else:
        return False
    if not state.is_removable(def_i):
        return False
    if isinstance(stored, Constant):
        init = get_initial_value_of_allocation(def_uo, state.tli, stored.type)
        if init is not None and init is stored:
            clob = state.mssa.get_skip_self_walker().get_clobbering_memory_access(d, baa=state.batch_aa)
            return state.mssa.is_live_on_entry_def(clob)
    if store is None:
        return False
    if dominating_condition_implies_value(state, d):
        return True
    load = store.operands[0]
    if isinstance(load, LoadInst) and load.operands[0] is store.operands[1]:
        load_ma = state.mssa.get_memory_access(load)
        if load_ma is None:
            return False
        load_access = _defining(load_ma)
        if load_access is _defining(d):
            return True
        to_check: list[MemoryAccess] = [d]
        seen: set[MemoryAccess] = {d}
        current = state.mssa.get_walker().get_clobbering_memory_access(d, baa=state.batch_aa)
        if current not in seen:
            to_check.append(current)
            seen.add(current)
        k = 1
        while k < len(to_check):
            current = to_check[k]
            k += 1
            if isinstance(current, MemoryPhi):
                for incoming in current.incoming_values:
                    if incoming not in seen:
                        seen.add(incoming)
                        to_check.append(incoming)
                continue
            if load_access is not current:
                return False
        return True
    return False


def eliminate_redundant_stores_of_existing_values(state: DSEState) -> bool:
    made_change = False
    for d in state.mem_defs:
        if d in state.skip_stores or state.mssa.is_live_on_entry_def(d):
            continue
        def_inst = _inst(d)
        def_loc = state.get_loc_for_write(def_inst)
        if def_loc is None or not state.is_removable(def_inst):
            continue
        upper = d.get_optimized() if d.is_optimized() else _defining(d)
        if not isinstance(upper, MemoryDef) or state.mssa.is_live_on_entry_def(upper):
            continue
        upper_inst = _inst(upper)
        if not _is_redundant_store(state, def_inst, def_loc, upper_inst) or state.is_read_clobber(def_loc, def_inst):
            continue
        state.delete_dead_instruction(def_inst)
        NUM_REDUNDANT_STORES.add()
        made_change = True
    return made_change


def _is_redundant_store(state: DSEState, def_inst: Instruction, def_loc: MemoryLocation, upper_inst: Instruction) -> bool:
    if def_inst.is_identical_to(upper_inst):
        return True
    if mem_set(upper_inst) and isinstance(def_inst, StoreInst):
        upper_loc = state.get_loc_for_write(upper_inst)
        if upper_loc is None:
            return False
        ow = state.is_overwrite(upper_inst, def_inst, upper_loc, def_loc)[0]
        stored_byte = is_bytewise_value(def_inst.operands[0], state.dl)
        assert isinstance(upper_inst, CallBase)
        return stored_byte is not None and stored_byte is upper_inst.get_arg(1) and ow is OverwriteResult.COMPLETE
    return False


def _should_create_calloc(malloc: CallInst, memset: CallBase) -> bool:
    malloc_bb = _parent(malloc)
    memset_bb = _parent(memset)
    if malloc_bb is memset_bb:
        return True
    ptr = memset.get_arg(0)
    term = malloc_bb.terminator
    if not isinstance(term, BranchInst) or not term.is_conditional:
        return False
    cond = term.condition
    if not isinstance(cond, ICmpInst):
        return False
    zero = cond.operands[1]
    if cond.operands[0] is not ptr or not (isinstance(zero, Constant) and zero.is_null_value):
        return False
    return cond.predicate is Predicate.ICMP_EQ and memset_bb is term.get_successor(1)


