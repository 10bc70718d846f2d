"""GlobalOpt's rewrites of an internal global stored one value besides its initializer
(LLVM lib/Transforms/IPO/GlobalOpt.cpp: ``AllUsesOfValueWillTrapIfNull``,
``OptimizeAwayTrappingUsesOfValue/Loads``, ``ConstantPropUsersOf``,
``OptimizeGlobalAddressOfAllocation``, ``valueIsOnlyUsedLocallyOrStoredToOneGlobal``,
``tryToOptimizeStoreOfAllocationToGlobal``, ``optimizeOnceStoredGlobal``,
``forwardStoredOnceStore``).

- a null-initialised pointer global stored one constant: the uses of its loads
  that would trap on null (loads, stores, calls through it) use the constant;
- stored the result of a small removable allocation whose every use traps on
  null: the allocation becomes an internal ``[N x i8]`` global ``name.body``
  (memset when the allocation zeroes memory) and compares with null read a
  ``name.init`` flag;
- a store of a constant dominating loads in its function is forwarded to them.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.constant_folding import constant_fold_instruction
from llvmpy_mid.analysis.memory_builtins import get_initial_value_of_allocation, get_object_size, is_removable_alloc
from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantPointerNull, UndefValue
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function, null_pointer_is_defined
from llvmpy_mid.ir.global_value import GlobalVariable, Linkage
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.binary import BinaryOperator
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.casts import AddrSpaceCastInst, BitCastInst
from llvmpy_mid.ir.instructions.cmp import CmpInst, ICmpInst, Predicate
from llvmpy_mid.ir.instructions.gep import GetElementPtrInst
from llvmpy_mid.ir.instructions.memory import LoadInst, StoreInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import InvokeInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import PointerType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ipo.global_opt_cleanup import (
    GetTLI,
    cleanup_constant_global_users,
    cleanup_pointer_root_users,
    is_allocation_fn,
    is_leak_checker_root,
)
from llvmpy_mid.ipo.global_opt_stats import NUM_DELETED, NUM_GLOB_USES
from llvmpy_mid.transform.scalar.memcpy_opt import create_mem_set
from llvmpy_mid.transform.utils.local import is_instruction_trivially_dead

__all__ = ["forward_stored_once_store", "optimize_once_stored_global"]

_SIGNED = frozenset((Predicate.ICMP_SGT, Predicate.ICMP_SGE, Predicate.ICMP_SLT, Predicate.ICMP_SLE))


def _all_uses_will_trap_if_null(v: Value, phis: set[int]) -> bool:
    for user in list(v.users):
        if isinstance(user, Instruction):
            if null_pointer_is_defined(user.function):
                return False
        if isinstance(user, LoadInst):
            continue
        if isinstance(user, StoreInst):
            if user.get_operand(0) is v:
                return False
        elif isinstance(user, (CallInst, InvokeInst)):
            if user.called_operand is not v:
                return False
        elif isinstance(user, (AddrSpaceCastInst, GetElementPtrInst)):
            if not _all_uses_will_trap_if_null(user, phis):
                return False
        elif isinstance(user, PHINode):
            if id(user) not in phis:
                phis.add(id(user))
                if not _all_uses_will_trap_if_null(user, phis):
                    return False
        elif (
            isinstance(user, ICmpInst)
            and user.predicate not in _SIGNED
            and isinstance(user.get_operand(0), LoadInst)
            and isinstance(user.get_operand(1), ConstantPointerNull)
        ):
            pass
        else:
            return False
    return True


def _all_uses_of_loaded_value_will_trap_if_null(gv: GlobalVariable) -> bool:
    worklist: list[Value] = [gv]
    while worklist:
        p = worklist.pop()
        for user in p.users:
            if isinstance(user, LoadInst):
                if not _all_uses_will_trap_if_null(user, set()):
                    return False
            elif isinstance(user, StoreInst):
                if user.pointer_operand is not p:
                    return False
            elif isinstance(user, ConstantExpr):
                if strip_pointer_casts(user) is not gv:
                    return False
                worklist.append(user)
            else:
                return False
    return True


def _all_loads_and_stores(gv: GlobalVariable) -> list[Value]:
    found: list[Value] = []
    worklist: list[Value] = [gv]
    while worklist:
        p = worklist.pop()
        for user in p.users:
            if isinstance(user, ConstantExpr):
                worklist.append(user)
                continue
            found.append(user)
    return found


def _optimize_away_trapping_uses_of_value(v: Value, new_v: Constant) -> bool:
    changed = False
    users = list(v.users)
    i = 0
    while i < len(users):
        inst = users[i]
        i += 1
        assert isinstance(inst, Instruction)
        if inst.is_erased or not v.is_used_by(inst):
            continue
        if null_pointer_is_defined(inst.function):
            return False
        if isinstance(inst, LoadInst):
            inst.set_operand(0, new_v)
            changed = True
        elif isinstance(inst, StoreInst):
            if inst.get_operand(1) is v:
                inst.set_operand(1, new_v)
                changed = True
        elif isinstance(inst, (CallInst, InvokeInst)):
            if inst.called_operand is v:
                inst.called_operand_use.set(new_v)
                changed = True
                for n in range(inst.arg_size):
                    if inst.get_arg(n) is v:
                        inst.set_arg(n, new_v)
        elif isinstance(inst, AddrSpaceCastInst):
            changed |= _optimize_away_trapping_uses_of_value(
                inst, ConstantExpr.get_cast("addrspacecast", new_v, inst.type)
            )
            if inst.use_empty:
                changed = True
                inst.erase_from_parent()
        elif isinstance(inst, GetElementPtrInst):
            idxs = inst.operands[1:]
            if all(isinstance(ix, Constant) for ix in idxs):
                gep = ConstantExpr.get_gep(inst.source_element_type, new_v, [ix for ix in idxs if isinstance(ix, Constant)])
                changed |= _optimize_away_trapping_uses_of_value(inst, gep)
            if inst.use_empty:
                changed = True
                inst.erase_from_parent()
    return changed


def _optimize_away_trapping_uses_of_loads(gv: GlobalVariable, lv: Constant, dl: DataLayout, get_tli: GetTLI) -> bool:
    changed = False
    all_non_store_uses_gone = True
    for user in list(gv.users):
        if isinstance(user, LoadInst):
            changed |= _optimize_away_trapping_uses_of_value(user, lv)
            if user.use_empty:
                user.erase_from_parent()
                changed = True
            else:
                all_non_store_uses_gone = False
        elif isinstance(user, StoreInst):
            pass
        else:
            all_non_store_uses_gone = False
    if changed:
        NUM_GLOB_USES.add()
    if all_non_store_uses_gone:
        if is_leak_checker_root(gv):
            changed |= cleanup_pointer_root_users(gv, get_tli)
        else:
            changed = True
            cleanup_constant_global_users(gv, dl)
        if gv.use_empty:
            changed = True
            gv.erase_from_parent()
            NUM_DELETED.add()
    return changed


def _constant_prop_users_of(v: Value, dl: DataLayout, tli: TargetLibraryInfo | None) -> None:
    for user in list(v.users):
        if not isinstance(user, Instruction) or user.is_erased:
            continue
        folded = constant_fold_instruction(user, dl, tli)
        if folded is not None:
            user.replace_all_uses_with(folded)
            if is_instruction_trivially_dead(user, tli):
                user.erase_from_parent()


def _optimize_global_address_of_allocation(
    gv: GlobalVariable, ci: CallInst, alloc_size: int, init_val: Constant, dl: DataLayout, tli: TargetLibraryInfo | None
) -> GlobalVariable:
    ctx = gv.context
    module = gv.parent
    assert module is not None
    global_type = ctx.array_type(ctx.i8, alloc_size)
    new_gv = GlobalVariable(global_type, gv.name + ".body", Linkage.INTERNAL, UndefValue.get(global_type))
    new_gv.thread_local_mode = gv.thread_local_mode
    module.globals.append(new_gv)
    if not isinstance(init_val, UndefValue):
        nxt = ci.next_instruction
        assert nxt is not None
        b = IRBuilder(before=nxt)
        create_mem_set(b, new_gv, init_val, ConstantInt.get(ctx.i64, alloc_size), None)
    ci.replace_all_uses_with(new_gv)

    init_bool = GlobalVariable(ctx.i1, gv.name + ".init", Linkage.INTERNAL, ConstantInt.get(ctx.i1, 0))
    init_bool.thread_local_mode = gv.thread_local_mode
    init_bool_used = False
    pending_stores: list[StoreInst] = []
    for u in _all_loads_and_stores(gv):
        if isinstance(u, StoreInst):
            flag = ConstantInt.get(ctx.i1, int(not isinstance(u.value_operand, ConstantPointerNull)))
            ns = StoreInst(flag, init_bool, alignment=1, ordering=u.ordering, sync_scope=u.sync_scope)
            ns.insert_before(u)
            pending_stores.append(ns)
            u.erase_from_parent()
            continue
        assert isinstance(u, LoadInst)
        while not u.use_empty:
            use = next(iter(u.uses))
            icmp = use.user
            if not isinstance(icmp, ICmpInst):
                use.set(new_gv)
                continue
            lv: Value = LoadInst(
                ctx.i1, init_bool, alignment=1, ordering=u.ordering, sync_scope=u.sync_scope, name=init_bool.name + ".val"
            )
            assert isinstance(lv, Instruction)
            lv.insert_before(u)
            init_bool_used = True
            pred = icmp.predicate
            if pred == Predicate.ICMP_ULT:
                lv = ConstantInt.get(ctx.i1, 0)
            elif pred == Predicate.ICMP_UGE:
                lv = ConstantInt.get(ctx.i1, 1)
            elif pred in (Predicate.ICMP_ULE, Predicate.ICMP_EQ):
                notv = BinaryOperator.create("xor", lv, ConstantInt.get(ctx.i1, 1), name="notinit")
                notv.insert_before(icmp)
                lv = notv
            icmp.replace_all_uses_with(lv)
            icmp.erase_from_parent()
        u.erase_from_parent()
    if not init_bool_used:
        for ns in pending_stores:
            ns.erase_from_parent()
        init_bool.drop_all_references()
    else:
        module.globals.insert_before(init_bool, gv)
    gv.erase_from_parent()
    ci.erase_from_parent()
    _constant_prop_users_of(new_gv, dl, tli)
    return new_gv


def _value_is_only_used_locally_or_stored_to_one_global(ci: CallInst, gv: GlobalVariable) -> bool:
    visited: set[int] = set()
    worklist: list[Value] = [ci]
    while worklist:
        v = worklist.pop()
        if id(v) in visited:
            continue
        visited.add(id(v))
        for use in v.uses:
            user = use.user
            if isinstance(user, (LoadInst, CmpInst)):
                continue
            if isinstance(user, StoreInst):
                if user.value_operand is v and strip_pointer_casts(user.pointer_operand) is not gv:
                    return False
                continue
            if isinstance(user, (BitCastInst, GetElementPtrInst)):
                worklist.append(user)
                continue
            return False
    return True


def _try_to_optimize_store_of_allocation(
    gv: GlobalVariable, ci: CallInst, dl: DataLayout, tli: TargetLibraryInfo | None
) -> bool:
    if not is_removable_alloc(ci, tli):
        return False
    init_val = get_initial_value_of_allocation(ci, tli, ci.context.i8)
    if init_val is None:
        return False
    size = get_object_size(ci, dl, tli)
    if size is None or size >= 2048:
        return False
    if not _all_uses_of_loaded_value_will_trap_if_null(gv):
        return False
    if not _value_is_only_used_locally_or_stored_to_one_global(ci, gv):
        return False
    _optimize_global_address_of_allocation(gv, ci, size, init_val, dl, tli)
    return True


def optimize_once_stored_global(gv: GlobalVariable, stored: Value, dl: DataLayout, get_tli: GetTLI) -> bool:
    """Use the knowledge that ``stored`` is the only value besides the initializer."""
    stored = strip_pointer_casts(stored)
    init = gv.initializer
    assert init is not None
    if (
        isinstance(init.type, PointerType)
        and init.is_null_value
        and isinstance(stored.type, PointerType)
        and not null_pointer_is_defined(None, init.type.address_space)
    ):
        if isinstance(stored, Constant):
            if _optimize_away_trapping_uses_of_loads(gv, stored, dl, get_tli):
                return True
        elif is_allocation_fn(stored, get_tli):
            if isinstance(stored, CallInst):
                fn = stored.function
                tli = get_tli(fn) if fn is not None else None
                if _try_to_optimize_store_of_allocation(gv, stored, dl, tli):
                    return True
    return False


def forward_stored_once_store(
    gv: GlobalVariable, store: StoreInst, lookup_dom_tree: Callable[[Function], DominatorTree]
) -> bool:
    """Replace the loads in the store's function that the store dominates by the stored constant."""
    stored = store.value_operand
    if not isinstance(stored, Constant):
        return False
    fn = store.function
    loads = [
        u
        for u in gv.users
        if isinstance(u, LoadInst) and u.function is fn and u.type is stored.type and u.is_simple
    ]
    changed = False
    if loads:
        assert fn is not None
        dt = lookup_dom_tree(fn)
        for load in loads:
            if dt.dominates(store, load):
                load.replace_all_uses_with(stored)
                load.erase_from_parent()
                changed = True
    return changed
