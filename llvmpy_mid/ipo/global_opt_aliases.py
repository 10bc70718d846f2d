"""GlobalOpt's module-level clean-ups (LLVM lib/Transforms/IPO/GlobalOpt.cpp:
``LLVMUsed``/``setUsedInitializer``, ``OptimizeGlobalAliases``,
``OptimizeEmptyGlobalAtExitDtors``, ``OptimizeStaticIFuncs``, ``DeleteDeadIFuncs``).

- aliases of a module-local target are resolved: their uses use the aliasee, and
  an alias of an internal target nothing else names gives the target its name
  and linkage; ``llvm.used``/``llvm.compiler.used`` are rewritten (sorted by name);
- ``__cxa_atexit``/``atexit`` registrations of empty functions are deleted;
- ifuncs whose resolver is one side-effect-free block returning a function are
  replaced by that function; dead ifuncs are deleted.
"""

from __future__ import annotations

from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantArray
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Comdat, GlobalAlias, GlobalValue, GlobalVariable, Linkage
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.types import ArrayType, PointerType
from llvmpy_mid.ipo.global_opt_cleanup import GetTLI
from llvmpy_mid.ipo.global_opt_process import delete_if_dead
from llvmpy_mid.ipo.global_opt_stats import (
    NUM_ALIASES_REMOVED,
    NUM_ALIASES_RESOLVED,
    NUM_ATEXIT_REMOVED,
    NUM_CXX_DTORS_REMOVED,
    NUM_IFUNCS_DELETED,
    NUM_IFUNCS_RESOLVED,
)

__all__ = [
    "delete_dead_ifuncs",
    "find_at_exit_lib_func",
    "optimize_empty_global_at_exit_dtors",
    "optimize_global_aliases",
    "optimize_static_ifuncs",
]


def _collect_used(module: Module, name: str) -> tuple[GlobalVariable | None, list[GlobalValue]]:
    gv = module.get_global(name)
    if gv is None or not gv.has_initializer:
        return gv if gv is not None and gv.has_initializer else None, []
    init = gv.initializer
    found: list[GlobalValue] = []
    if init is not None:
        for op in init.operands:
            target = strip_pointer_casts(op)
            if isinstance(target, GlobalValue) and target not in found:
                found.append(target)
    return gv, found


def _set_used_initializer(module: Module, gv: GlobalVariable, members: list[GlobalValue]) -> None:
    if not members:
        gv.erase_from_parent() if gv.use_empty else None
        return
    vat = gv.value_type
    assert isinstance(vat, ArrayType)
    elt = vat.element_type
    assert isinstance(elt, PointerType)
    ptr_ty = module.context.pointer_type(elt.address_space)
    arr: list[Constant] = []
    for m in members:
        arr.append(m if m.type is ptr_ty else ConstantExpr.get_cast("addrspacecast", m, ptr_ty))
    arr.sort(key=lambda c: strip_pointer_casts(c).name.encode())
    aty = module.context.array_type(ptr_ty, len(arr))
    nv = GlobalVariable(aty, "", Linkage.APPENDING, ConstantArray.get(aty, arr))
    gv.remove_from_parent()
    module.globals.append(nv)
    nv.take_name(gv)
    nv.section = "llvm.metadata"
    gv.drop_all_references()


class _LLVMUsed:
    def __init__(self, module: Module) -> None:
        self.module = module
        self.used_v, used = _collect_used(module, "llvm.used")
        self.compiler_used_v, cused = _collect_used(module, "llvm.compiler.used")
        self.used: list[GlobalValue] = used
        self.compiler_used: list[GlobalValue] = cused

    def sync(self) -> None:
        if self.used_v is not None:
            _set_used_initializer(self.module, self.used_v, self.used)
        if self.compiler_used_v is not None:
            _set_used_initializer(self.module, self.compiler_used_v, self.compiler_used)


def _has_use_other_than_llvm_used(ga: GlobalAlias, u: _LLVMUsed) -> bool:
    if ga.use_empty:
        return False
    if not ga.has_one_use:
        return True
    return ga not in u.used and ga not in u.compiler_used


def _may_have_other_references(gv: GlobalValue, u: _LLVMUsed) -> bool:
    if not gv.has_local_linkage:
        return True
    return gv in u.used or gv in u.compiler_used


def _has_uses_to_replace(ga: GlobalAlias, u: _LLVMUsed) -> tuple[bool, bool]:
    """(whether to replace, whether the target takes the alias's name)."""
    if ga.is_weak_for_linker:
        return False, False
    ret = _has_use_other_than_llvm_used(ga, u)
    if not _may_have_other_references(ga, u):
        return ret, False
    target = strip_pointer_casts(ga.aliasee)
    assert isinstance(target, GlobalValue)
    if _may_have_other_references(target, u):
        return ret, False
    return True, True


def _is_module_local(gv: GlobalValue) -> bool:
    return not gv.linkage.is_interposable and (gv.is_dso_local or gv.is_implicit_dso_local)


def optimize_global_aliases(module: Module, not_discardable: set[Comdat]) -> bool:
    """Resolve the aliases whose target cannot change; whether anything changed."""
    changed = False
    used = _LLVMUsed(module)
    used.compiler_used = [g for g in used.compiler_used if g not in used.used]
    for ga in list(module.aliases):
        if ga.parent is not module:
            continue
        if not ga.has_name and not ga.is_declaration and not ga.has_local_linkage:
            ga.linkage = Linkage.INTERNAL
        if delete_if_dead(ga, not_discardable):
            changed = True
            continue
        if not _is_module_local(ga):
            continue
        aliasee = ga.aliasee
        target = strip_pointer_casts(aliasee)
        if not isinstance(target, GlobalValue) or not _is_module_local(target):
            continue
        from llvmpy_mid.transform.utils.global_status import remove_dead_constant_users

        remove_dead_constant_users(target)
        replace, rename = _has_uses_to_replace(ga, used)
        if not replace:
            continue
        ga.replace_all_uses_with(aliasee)
        NUM_ALIASES_RESOLVED.add()
        changed = True
        if rename:
            target.take_name(ga)
            target.linkage = ga.linkage
            target.is_dso_local = ga.is_dso_local
            target.visibility = ga.visibility
            target.dll_storage_class = ga.dll_storage_class
            if ga in used.used:
                used.used.remove(ga)
                if target not in used.used:
                    used.used.append(target)
            if ga in used.compiler_used:
                used.compiler_used.remove(ga)
                if target not in used.compiler_used:
                    used.compiler_used.append(target)
        elif _may_have_other_references(ga, used):
            continue
        ga.erase_from_parent()
        NUM_ALIASES_REMOVED.add()
        changed = True
    used.sync()
    return changed


def find_at_exit_lib_func(module: Module, get_tli: GetTLI, lib: str) -> Function | None:
    """The module's declaration of ``__cxa_atexit``/``atexit`` with the library prototype."""
    first = module.functions.first
    if first is None:
        return None
    tli: TargetLibraryInfo = get_tli(first)
    if not tli.has(lib):
        return None
    fn = module.get_function(tli.get_name(lib))
    if fn is None:
        return None
    tli = get_tli(fn)
    return fn if tli.get_lib_func(fn) == lib else None


def _is_empty_at_exit_function(fn: Function) -> bool:
    if fn.is_declaration:
        return False
    for inst in fn.entry_block.instructions:
        if isinstance(inst, CallInst) and inst.intrinsic_name.startswith(("llvm.dbg.", "llvm.pseudoprobe")):
            continue
        return isinstance(inst, ReturnInst)
    return False


def optimize_empty_global_at_exit_dtors(at_exit: Function, is_cxx: bool) -> bool:
    """Delete the registrations of empty exit handlers."""
    changed = False
    for user in list(at_exit.users):
        if not isinstance(user, CallInst):
            continue
        dtor = strip_pointer_casts(user.get_arg(0))
        if not isinstance(dtor, Function) or not _is_empty_at_exit_function(dtor):
            continue
        user.replace_all_uses_with(Constant.get_null_value(user.type)) if not user.type.is_void else None
        user.erase_from_parent()
        (NUM_CXX_DTORS_REMOVED if is_cxx else NUM_ATEXIT_REMOVED).add()
        changed = True
    return changed


def _static_resolution(ifunc: GlobalValue) -> Function | None:
    from llvmpy_mid.ir.global_value import GlobalIFunc

    assert isinstance(ifunc, GlobalIFunc)
    if ifunc.is_interposable:
        return None
    resolver = strip_pointer_casts(ifunc.resolver)
    if not isinstance(resolver, Function) or resolver.is_interposable or resolver.is_declaration:
        return None
    if len(resolver.blocks) != 1:
        return None
    bb = resolver.entry_block
    if any(inst.may_have_side_effects() for inst in bb.instructions):
        return None
    ret = bb.terminator
    if not isinstance(ret, ReturnInst) or not ret.num_operands:
        return None
    value = ret.get_operand(0)
    return value if isinstance(value, Function) else None


def optimize_static_ifuncs(module: Module) -> bool:
    """Replace ifuncs resolved statically by their target."""
    changed = False
    for ifunc in list(module.ifuncs):
        callee = _static_resolution(ifunc)
        if callee is None or ifunc.use_empty:
            continue
        if callee.is_declaration and any(isinstance(u, GlobalAlias) for u in ifunc.users):
            continue
        ifunc.replace_all_uses_with(callee)
        NUM_IFUNCS_RESOLVED.add()
        changed = True
    return changed


def delete_dead_ifuncs(module: Module, not_discardable: set[Comdat]) -> bool:
    """Erase the unused discardable ifuncs."""
    changed = False
    for ifunc in list(module.ifuncs):
        if delete_if_dead(ifunc, not_discardable):
            NUM_IFUNCS_DELETED.add()
            changed = True
    return changed
