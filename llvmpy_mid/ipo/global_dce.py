"""``globaldce``: deletes the functions, variables, aliases and ifuncs nothing live
needs (LLVM 19's ``GlobalDCEPass``, lib/Transforms/IPO/GlobalDCE.cpp).

How:

1. Constructors whose body is a bare ``ret void`` leave ``llvm.global_ctors``
   (:func:`optimize_global_ctors_list`).
2. Each comdat's members are collected: keeping one member keeps them all.
3. Virtual function elimination (when ``-enable-vfe`` is on and the module flag
   ``"Virtual Function Elim"`` is a non-zero integer): vtables with ``!type``
   metadata are mapped from type id to (vtable, offset); a vtable whose
   ``!vcall_visibility`` is translation-unit (or linkage-unit with
   ``globaldce<vfe-linkage-unit-visibility>``) is *VFE-safe*. Each
   ``llvm.type.checked.load(.relative)`` call then makes its function depend
   on the function stored at the loaded offset of every vtable of its type id;
   a vtable whose entry is not a function, or loaded at a variable offset,
   loses its safety. A safe vtable does not keep its functions alive.
4. The dependency graph: a global depends on each global that uses it, through
   constants (the constants' dependency sets are cached) and instructions (their
   function). Definitions that are not discardable when unused are the roots;
   liveness spreads along the graph.
5. Dead variables lose their initialisers, dead functions their bodies, dead
   aliases and ifuncs their targets; then they are erased. A dead virtual
   function still referenced by a vtable is replaced by null there (relative
   entries ``sub (ptrtoint @f, ...)`` by 0).

Statistics follow LLVM's names (NumFunctions, NumVariables, NumAliases, NumIFuncs,
NumVFuncs).
"""

from __future__ import annotations

from typing import ClassVar, cast

from llvmpy_mid.analysis.type_metadata_utils import (
    get_pointer_at_offset,
    replace_non_metadata_uses_with,
    replace_relative_pointer_users_with_zero,
)
from llvmpy_mid.errors import PipelineError
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantPointerNull, PoisonValue
from llvmpy_mid.ir.dead_constants import is_safe_to_destroy_constant, remove_dead_constant_users
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Comdat, GlobalAlias, GlobalIFunc, GlobalObject, GlobalValue, GlobalVariable
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.metadata import ConstantAsMetadata, Metadata, MetadataAsValue
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.module_flags import get_module_flag_int
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.basic_block_utils import is_debug_or_pseudo_probe_call
from llvmpy_mid.transform.utils.ctor_utils import optimize_global_ctors_list

NUM_ALIASES = Statistic("globaldce", "NumAliases", "Number of global aliases removed")
NUM_FUNCTIONS = Statistic("globaldce", "NumFunctions", "Number of functions removed")
NUM_IFUNCS = Statistic("globaldce", "NumIFuncs", "Number of indirect functions removed")
NUM_VARIABLES = Statistic("globaldce", "NumVariables", "Number of global variables removed")
NUM_VFUNCS = Statistic("globaldce", "NumVFuncs", "Number of virtual functions removed")

VCALL_VISIBILITY_PUBLIC = 0
VCALL_VISIBILITY_LINKAGE_UNIT = 1
VCALL_VISIBILITY_TRANSLATION_UNIT = 2


def parse_global_dce_options(params: str) -> bool:
    """``vfe-linkage-unit-visibility`` or nothing (opt-19's ``parseGlobalDCEPassOptions``)."""
    result = False
    for name in params.split(";") if params else []:
        if name == "vfe-linkage-unit-visibility":
            result = True
        else:
            raise PipelineError("invalid GlobalDCE pass parameter '%s' " % name)
    return result


def vcall_visibility(obj: GlobalObject) -> int:
    """The ``!vcall_visibility`` level of ``obj`` (public when absent)."""
    node = obj.get_metadata("vcall_visibility")
    if node is None or not node.operands:
        return VCALL_VISIBILITY_PUBLIC
    op = node.operands[0]
    if isinstance(op, ConstantAsMetadata) and isinstance(op.value, ConstantInt):
        return op.value.zext_value
    return VCALL_VISIBILITY_PUBLIC


def _comdat_of(gv: GlobalValue) -> Comdat | None:
    """The comdat of ``gv``; an alias is in its aliasee object's comdat."""
    if isinstance(gv, GlobalAlias):
        base = gv.base_object
        return base.comdat if base is not None else None
    return gv.comdat


def is_empty_function(fn: Function) -> bool:
    """A definition whose entry block does nothing but ``ret void``."""
    if fn.is_declaration:
        return False
    for inst in fn.entry_block.instructions:
        if is_debug_or_pseudo_probe_call(inst):
            continue
        return inst.opcode == "ret" and inst.num_operands == 0
    return False


class GlobalDCEPass(Pass[Module]):
    """Erases the globals that no externally visible definition needs."""

    name: ClassVar[str] = "globaldce"
    debug_type: ClassVar[str] = "globaldce"

    def __init__(self, in_lto_post_link: bool = False) -> None:
        self.in_lto_post_link = in_lto_post_link
        self._alive: set[GlobalValue] = set()
        self._deps: dict[GlobalValue, set[GlobalValue]] = {}
        self._constant_deps: dict[Constant, set[GlobalValue]] = {}
        self._comdat_members: dict[Comdat, list[GlobalValue]] = {}
        self._type_id_map: dict[Metadata, set[tuple[GlobalVariable, int]]] = {}
        self._vfe_safe_vtables: set[GlobalValue] = set()

    @property
    def log_name(self) -> str:
        return "GlobalDCEPass"

    def pipeline_params(self) -> str:
        return "vfe-linkage-unit-visibility" if self.in_lto_post_link else ""

    # --- dependency graph -------------------------------------------------------------------
    def _constant_dependencies(self, root: Constant) -> set[GlobalValue]:
        """The globals that (transitively) use constant ``root``, cached per constant."""
        cache = self._constant_deps
        cached = cache.get(root)
        if cached is not None:
            return cached
        stack: list[tuple[Constant, bool]] = [(root, False)]
        while stack:
            c, expanded = stack.pop()
            if c in cache:
                continue
            if not expanded:
                stack.append((c, True))
                for user in c.users:
                    if user.is_constant and not user.is_global_value and user not in cache:
                        stack.append((cast(Constant, user), False))
                continue
            deps: set[GlobalValue] = set()
            for user in c.users:
                self._add_dependency(user, deps)
            cache[c] = deps
        return cache[root]

    def _add_dependency(self, user: Value, deps: set[GlobalValue]) -> None:
        if user.is_instruction:
            bb = user.parent  # type: ignore[attr-defined]
            fn = bb.parent if bb is not None else None
            if fn is not None:
                deps.add(fn)
        elif user.is_global_value:
            deps.add(cast(GlobalValue, user))
        elif user.is_constant:
            deps.update(self._constant_dependencies(cast(Constant, user)))

    def _update_gv_dependencies(self, gv: GlobalValue) -> None:
        deps: set[GlobalValue] = set()
        for user in gv.users:
            self._add_dependency(user, deps)
        deps.discard(gv)
        is_fn = isinstance(gv, Function)
        for user_gv in deps:
            if is_fn and user_gv in self._vfe_safe_vtables:
                continue
            self._deps.setdefault(user_gv, set()).add(gv)

    def _mark_live(self, gv: GlobalValue, updates: list[GlobalValue] | None = None) -> None:
        if gv in self._alive:
            return
        self._alive.add(gv)
        if updates is not None:
            updates.append(gv)
        comdat = _comdat_of(gv)
        if comdat is not None:
            for member in self._comdat_members.get(comdat, ()):
                self._mark_live(member, updates)

    # --- virtual function elimination --------------------------------------------------------
    def _scan_vtables(self, module: Module) -> None:
        for gv in module.globals:
            types = gv.get_all_metadata("type")
            if gv.is_declaration or not types:
                continue
            for node in types:
                ops = node.operands
                if len(ops) < 2:
                    continue
                off = ops[0]
                type_id = ops[1]
                if not (isinstance(off, ConstantAsMetadata) and isinstance(off.value, ConstantInt)) or type_id is None:
                    continue
                self._type_id_map.setdefault(type_id, set()).add((gv, off.value.zext_value))
            vis = vcall_visibility(gv)
            if vis == VCALL_VISIBILITY_TRANSLATION_UNIT or (
                self.in_lto_post_link and vis == VCALL_VISIBILITY_LINKAGE_UNIT
            ):
                self._vfe_safe_vtables.add(gv)

    def _scan_vtable_load(self, module: Module, caller: Function, type_id: Metadata, call_offset: int) -> None:
        for vtable, vtable_offset in self._type_id_map.get(type_id, set()):
            init = vtable.initializer
            ptr = None
            if init is not None:
                ptr = get_pointer_at_offset(init, vtable_offset + call_offset, module, vtable)
            if ptr is None:
                self._vfe_safe_vtables.discard(vtable)
                continue
            callee = strip_pointer_casts(ptr)
            if not isinstance(callee, Function):
                self._vfe_safe_vtables.discard(vtable)
                continue
            self._deps.setdefault(caller, set()).add(callee)

    def _scan_type_checked_loads(self, module: Module) -> None:
        for name in ("llvm.type.checked.load", "llvm.type.checked.load.relative"):
            loader = module.get_function(name)
            if loader is None:
                continue
            for user in list(loader.users):
                if not isinstance(user, CallInst) or user.arg_size < 3:
                    continue
                offset = user.get_arg(1)
                type_id_value = user.get_arg(2)
                if not isinstance(type_id_value, MetadataAsValue):
                    continue
                type_id = type_id_value.metadata
                caller = user.caller
                if isinstance(offset, ConstantInt):
                    if caller is not None:
                        self._scan_vtable_load(module, caller, type_id, offset.zext_value)
                else:
                    for vtable, _ in self._type_id_map.get(type_id, set()):
                        self._vfe_safe_vtables.discard(vtable)

    def _add_virtual_function_dependencies(self, module: Module) -> None:
        if not OPTIONS.value("enable-vfe"):
            return
        flag = get_module_flag_int(module, "Virtual Function Elim")
        if not flag:
            return
        self._scan_vtables(module)
        if not self._vfe_safe_vtables:
            return
        self._scan_type_checked_loads(module)

    # --- the pass ---------------------------------------------------------------------------------
    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        try:
            return self._run(unit)
        finally:
            self._alive = set()
            self._deps = {}
            self._constant_deps = {}
            self._comdat_members = {}
            self._type_id_map = {}
            self._vfe_safe_vtables = set()

    def _run(self, module: Module) -> PreservedAnalyses:
        changed = optimize_global_ctors_list(module, lambda _prio, fn: is_empty_function(fn))

        members = self._comdat_members
        for objs in (module.functions, module.globals, module.aliases):
            for gv in objs:
                comdat = _comdat_of(gv)
                if comdat is not None:
                    members.setdefault(comdat, []).append(gv)

        self._add_virtual_function_dependencies(module)

        for go in [*module.functions, *module.globals]:
            remove_dead_constant_users(go)
            if not go.is_declaration and not go.is_discardable_if_unused:
                self._mark_live(go)
            self._update_gv_dependencies(go)
        for ga in module.aliases:
            remove_dead_constant_users(ga)
            if not ga.is_discardable_if_unused:
                self._mark_live(ga)
            self._update_gv_dependencies(ga)
        for gif in module.ifuncs:
            remove_dead_constant_users(gif)
            if not gif.is_discardable_if_unused:
                self._mark_live(gif)
            self._update_gv_dependencies(gif)

        worklist = list(self._alive)
        while worklist:
            live = worklist.pop()
            for dep in self._deps.get(live, ()):
                self._mark_live(dep, worklist)

        alive = self._alive
        dead_vars: list[GlobalVariable] = []
        for gv in module.globals:
            if gv in alive:
                continue
            dead_vars.append(gv)
            init = gv.initializer
            if init is not None:
                gv.initializer = None
                if is_safe_to_destroy_constant(init):
                    remove_dead_constant_users(init)
                    if init.use_empty:
                        init.destroy_constant()
        dead_fns: list[Function] = []
        for fn in module.functions:
            if fn in alive:
                continue
            dead_fns.append(fn)
            if not fn.is_declaration:
                fn.delete_body()
        dead_aliases: list[GlobalAlias] = []
        for ga in module.aliases:
            if ga not in alive:
                dead_aliases.append(ga)
                ga.drop_all_references()
        dead_ifuncs: list[GlobalIFunc] = []
        for gif in module.ifuncs:
            if gif not in alive:
                dead_ifuncs.append(gif)
                gif.drop_all_references()

        NUM_FUNCTIONS.add(len(dead_fns))
        for fn in dead_fns:
            if not fn.use_empty:
                NUM_VFUNCS.add()
                replace_relative_pointer_users_with_zero(fn)
                replace_non_metadata_uses_with(fn, ConstantPointerNull.get(fn.type))
            self._erase(fn)
            changed = True
        NUM_VARIABLES.add(len(dead_vars))
        for var in dead_vars:
            self._erase(var)
            changed = True
        NUM_ALIASES.add(len(dead_aliases))
        for ga in dead_aliases:
            self._erase(ga)
            changed = True
        NUM_IFUNCS.add(len(dead_ifuncs))
        for gif in dead_ifuncs:
            self._erase(gif)
            changed = True
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()

    @staticmethod
    def _erase(gv: GlobalValue) -> None:
        remove_dead_constant_users(gv)
        if not gv.use_empty:
            # Only dead globals use it; never leave a dangling use behind.
            replace_non_metadata_uses_with(gv, PoisonValue.get(gv.type))
        gv.erase_from_parent()


__all__ = [
    "GlobalDCEPass",
    "NUM_ALIASES",
    "NUM_FUNCTIONS",
    "NUM_IFUNCS",
    "NUM_VARIABLES",
    "NUM_VFUNCS",
    "is_empty_function",
    "parse_global_dce_options",
    "vcall_visibility",
]
