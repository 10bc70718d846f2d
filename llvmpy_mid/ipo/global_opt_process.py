"""GlobalOpt's per-global driver (LLVM lib/Transforms/IPO/GlobalOpt.cpp:
``deleteIfDead``, ``isPointerValueDeadOnEntryToFunction``, ``processInternalGlobal``,
``processGlobal``).

For each global the uses are analysed (:mod:`transform.utils.global_status`);
an uncompared global becomes ``unnamed_addr`` (``local_unnamed_addr`` when not
local). An internal, non-constant, initialised variable is then, in order:
localised into an alloca of its only (norecurse) accessing function when every
load there follows a store; deleted with its stores when never loaded; marked
constant when never stored (besides its initializer), its loads folded; split
(SRA) when an aggregate; given the stored value as initializer when undef;
rewritten by the stored-once optimisations; or shrunk to a boolean.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo
from llvmpy_mid.ir.constants import BlockAddress, Constant, UndefValue
from llvmpy_mid.ir.dominators import DominatorTree
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Comdat, GlobalAlias, GlobalValue, GlobalVariable, UnnamedAddr
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.memory import AllocaInst, LoadInst, StoreInst
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ipo.global_opt_cleanup import (
    GetTLI,
    cleanup_constant_global_users,
    cleanup_pointer_root_users,
    is_leak_checker_root,
)
from llvmpy_mid.ipo.global_opt_shrink import try_to_shrink_global_to_boolean
from llvmpy_mid.ipo.global_opt_sra import sra_global
from llvmpy_mid.ipo.global_opt_stats import (
    NUM_DELETED,
    NUM_LOCALIZED,
    NUM_MARKED,
    NUM_SHRUNK_TO_BOOL,
    NUM_SUBSTITUTE,
    NUM_UNNAMED,
    copy_global_variable_attributes,
)
from llvmpy_mid.ipo.global_opt_stored_once import forward_stored_once_store, optimize_once_stored_global
from llvmpy_mid.transform.utils.global_status import (
    GlobalStatus,
    StoredType,
    analyze_global,
    remove_dead_constant_users,
)

__all__ = ["comdat_of", "delete_if_dead", "is_def_trivially_dead", "process_global", "LookupDomTree", "GetTTI"]

LookupDomTree = Callable[[Function], DominatorTree]
GetTTI = Callable[[Function], TargetTransformInfo]


def is_def_trivially_dead(fn: Function) -> bool:
    """LLVM ``Function::isDefTriviallyDead``: a discardable definition used by block addresses only."""
    if not (fn.has_linkonce_linkage or fn.has_local_linkage or fn.has_available_externally_linkage):
        return False
    return all(isinstance(u, BlockAddress) for u in fn.users)


def comdat_of(gv: GlobalValue) -> Comdat | None:
    """LLVM ``GlobalValue::getComdat``: an alias is in its aliasee object's comdat."""
    if isinstance(gv, GlobalAlias):
        base = gv.base_object
        return base.comdat if base is not None else None
    return gv.comdat


def delete_if_dead(
    gv: GlobalValue, not_discardable: set[Comdat], on_delete_fn: Callable[[Function], None] | None = None
) -> bool:
    """Erase ``gv`` when nothing uses it and it may be discarded."""
    remove_dead_constant_users(gv)
    if not gv.is_discardable_if_unused and not gv.is_declaration:
        return False
    c = comdat_of(gv)
    if c is not None and not gv.has_local_linkage and c in not_discardable:
        return False
    if isinstance(gv, Function):
        dead = (gv.is_declaration and gv.use_empty) or is_def_trivially_dead(gv)
    else:
        dead = gv.use_empty
    if not dead:
        return False
    if isinstance(gv, Function):
        if on_delete_fn is not None:
            on_delete_fn(gv)
        # Its blocks' addresses go with the body.
        gv.drop_all_references()
    gv.erase_from_parent()
    NUM_DELETED.add()
    return True


def _is_single_value_type(ty: Type) -> bool:
    return ty.is_single_value


def _is_pointer_value_dead_on_entry(fn: Function, gv: GlobalVariable, lookup_dom_tree: LookupDomTree) -> bool:
    module = gv.parent
    assert module is not None
    dl = module.data_layout
    loads: list[LoadInst] = []
    stores: list[StoreInst] = []
    for user in gv.users:
        if not isinstance(user, Instruction):
            return False
        if isinstance(user, LoadInst):
            loads.append(user)
        elif isinstance(user, StoreInst):
            stores.append(user)
        else:
            return False
    dt = lookup_dom_tree(fn)
    if len(loads) * len(stores) > 100:
        return False
    for load in loads:
        lsize = dl.type_store_size(load.type)
        if not any(
            dt.dominates(s, load) and lsize <= dl.type_store_size(s.value_operand.type) for s in stores
        ):
            return False
    return True


def _can_have_non_undef_initializer(module_triple: str, address_space: int) -> bool:
    """TTI ``canHaveNonUndefGlobalInitializerInAddressSpace`` for the targets that restrict it."""
    if module_triple.startswith(("amdgcn", "r600")):
        return address_space not in (2, 3, 5)
    if module_triple.startswith("nvptx"):
        return address_space not in (3, 5)
    return True


def _process_internal_global(
    gv: GlobalVariable, gs: GlobalStatus, get_tli: GetTLI, lookup_dom_tree: LookupDomTree
) -> bool:
    module = gv.parent
    assert module is not None
    dl = module.data_layout
    fn = gs.accessing_function
    if (
        not gs.has_multiple_accessing_functions
        and fn is not None
        and _is_single_value_type(gv.value_type)
        and gv.address_space == dl.alloca_addr_space
        and not gv.externally_initialized
        and fn.has_fn_attribute("norecurse")
        and _is_pointer_value_dead_on_entry(fn, gv, lookup_dom_tree)
    ):
        first = fn.entry_block.instructions.first
        assert first is not None
        alloca = AllocaInst(
            gv.value_type, address_space=dl.alloca_addr_space, alignment=dl.pref_alignment(gv.value_type), name=gv.name
        )
        alloca.insert_before(first)
        init = gv.initializer
        assert init is not None
        if not isinstance(init, UndefValue):
            st = StoreInst(init, alloca, alignment=dl.abi_alignment(init.type))
            st.insert_before(first)
        gv.replace_all_uses_with(alloca)
        gv.erase_from_parent()
        NUM_LOCALIZED.add()
        return True

    changed = False
    if not gs.is_loaded:
        if is_leak_checker_root(gv):
            changed = cleanup_pointer_root_users(gv, get_tli)
        else:
            changed = cleanup_constant_global_users(gv, dl)
        if gv.use_empty:
            gv.erase_from_parent()
            NUM_DELETED.add()
            changed = True
        return changed

    if gs.stored_type <= StoredType.INITIALIZER_STORED:
        if gs.ordering == AtomicOrdering.NOT_ATOMIC:
            gv.is_constant_global = True
            changed = True
        changed |= cleanup_constant_global_users(gv, dl)
        if gv.use_empty:
            gv.erase_from_parent()
            NUM_DELETED.add()
            return True
        NUM_MARKED.add()

    init = gv.initializer
    assert init is not None
    if not _is_single_value_type(init.type):
        if sra_global(gv, dl) is not None:
            return True

    stored_once = gs.stored_once_value
    if gs.stored_type == StoredType.STORED_ONCE and stored_once is not None:
        can_init = _can_have_non_undef_initializer(module.target_triple, gv.address_space)
        init = gv.initializer
        assert init is not None
        sov = stored_once if isinstance(stored_once, Constant) else None
        if (
            sov is not None
            and isinstance(init, UndefValue)
            and dl.type_alloc_size(sov.type) == dl.type_alloc_size(gv.value_type)
            and can_init
        ):
            if sov.type is gv.value_type:
                gv.initializer = sov
            else:
                ngv = GlobalVariable(sov.type, "", gv.linkage, sov, gv.is_constant_global, gv.address_space)
                ngv.thread_local_mode = gv.thread_local_mode
                module.globals.insert_before(ngv, gv)
                ngv.take_name(gv)
                copy_global_variable_attributes(ngv, gv)
                gv.replace_all_uses_with(ngv)
                gv.erase_from_parent()
                gv = ngv
            cleanup_constant_global_users(gv, dl)
            if gv.use_empty:
                gv.erase_from_parent()
                NUM_DELETED.add()
            NUM_SUBSTITUTE.add()
            return True

        if optimize_once_stored_global(gv, stored_once, dl, get_tli):
            return True

        if gs.num_stores == 1:
            assert gs.stored_once_store is not None
            if forward_stored_once_store(gv, gs.stored_once_store, lookup_dom_tree):
                return True

        if (
            sov is not None
            and gs.ordering == AtomicOrdering.NOT_ATOMIC
            and (not isinstance(gv.initializer, UndefValue) or can_init)
        ):
            if try_to_shrink_global_to_boolean(gv, sov):
                NUM_SHRUNK_TO_BOOL.add()
                return True
    return changed


def process_global(gv: GlobalValue, get_tli: GetTLI, lookup_dom_tree: LookupDomTree) -> bool:
    """Analyse ``gv`` and optimise it when possible; whether anything changed."""
    if gv.name.startswith("llvm."):
        return False
    gs = GlobalStatus()
    if analyze_global(gv, gs):
        return False
    changed = False
    if not gs.is_compared and not gv.has_global_unnamed_addr:
        new = UnnamedAddr.GLOBAL if gv.has_local_linkage else UnnamedAddr.LOCAL
        if new is not gv.unnamed_addr:
            gv.unnamed_addr = new
            NUM_UNNAMED.add()
            changed = True
    if not gv.has_local_linkage:
        return changed
    if not isinstance(gv, GlobalVariable):
        return changed
    if gv.is_constant_global or not gv.has_initializer:
        return changed
    return _process_internal_global(gv, gs, get_tli, lookup_dom_tree) or changed
