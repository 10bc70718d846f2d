"""``elim-avail-extern``: turns ``available_externally`` definitions into declarations
(LLVM 19.1.7 ``lib/Transforms/IPO/ElimAvailExtern.cpp``, ``EliminateAvailableExternallyPass``).

How: every ``available_externally`` global variable loses its initializer (destroyed when
nothing else needs it) and becomes ``external`` (statistic ``NumVariables``); then every
``available_externally`` function definition loses its body and becomes an ``external``
declaration (``NumRemovals``). Visibility, attributes and the rest stay.

With ``-avail-extern-to-local`` a function that some call instruction uses (as callee or as an
argument) is kept instead as an ``internal`` copy renamed ``NAME.__uniq.<module id>``
(:func:`~llvmpy_mid.transform.utils.unique_module_id.get_unique_module_id`; its subprogram's
``linkageName`` follows), and a new ``external`` declaration of the old name, appended to the
module, takes over every use that is not a call instruction (``NumConversions``); a function
no call uses is dropped as above. Any change preserves nothing.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.dead_constants import is_safe_to_destroy_constant, remove_dead_constant_users
from llvmpy_mid.ir.debug_info import DIFieldNode
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.global_value import GlobalValue, Linkage
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import MDString
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.value import Use
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.unique_module_id import get_unique_module_id

NUM_REMOVALS = Statistic("elim-avail-extern", "NumRemovals", "Number of functions removed")
NUM_CONVERSIONS = Statistic("elim-avail-extern", "NumConversions", "Number of functions converted")
NUM_VARIABLES = Statistic("elim-avail-extern", "NumVariables", "Number of global variables removed")


def _delete_function(fn: Function) -> None:
    fn.delete_body()
    NUM_REMOVALS.add()


def _is_call_use(use: Use) -> bool:
    return isinstance(use.user, CallBase)


def _replace_non_call_uses(fn: Function, decl: Function) -> None:
    """Give ``decl`` every use of ``fn`` that is not a call instruction, constant expressions
    included (rebuilt after the other uses, last met first, as LLVM's ``replaceUsesWithIf``)."""
    constants: list[Constant] = []
    seen: set[int] = set()
    for use in list(fn.uses):
        user = use.user
        if _is_call_use(use):
            continue
        if isinstance(user, Constant) and not isinstance(user, GlobalValue):
            if id(user) not in seen:
                seen.add(id(user))
                constants.append(user)
            continue
        use.set(decl)
    while constants:
        c = constants.pop()
        if any(op is fn for op in c.operands):
            c.handle_operand_change(fn, decl)


def _convert_to_local_copy(module: Module, fn: Function) -> None:
    """Keep ``fn`` as an internal renamed copy for its call uses; a new declaration of
    the old name takes the other uses."""
    if not any(_is_call_use(u) for u in fn.uses):
        _delete_function(fn)
        return
    orig_name = fn.name
    new_name = orig_name + ".__uniq" + get_unique_module_id(module)
    fn.set_name(new_name)
    sp = fn.get_metadata("dbg")
    if isinstance(sp, DIFieldNode) and sp.kind == "DISubprogram":
        sp.set_field("linkageName", MDString.get(module.context, fn.name))
    fn.linkage = Linkage.INTERNAL
    decl = Function(fn.function_type, orig_name, Linkage.EXTERNAL, module=module, address_space=fn.address_space)
    _replace_non_call_uses(fn, decl)
    NUM_CONVERSIONS.add()


def eliminate_available_externally(module: Module, convert_to_local: bool = False) -> bool:
    """Drop the bodies and initializers of ``available_externally`` globals; True on change."""
    changed = False
    for gv in module.globals:
        if gv.linkage is not Linkage.AVAILABLE_EXTERNALLY:
            continue
        init = gv.initializer
        if init is not None:
            gv.initializer = None
            if is_safe_to_destroy_constant(init):
                remove_dead_constant_users(init)
                if init.use_empty:
                    init.destroy_constant()
        remove_dead_constant_users(gv)
        gv.linkage = Linkage.EXTERNAL
        NUM_VARIABLES.add()
        changed = True
    for fn in list(module.functions):
        if fn.is_declaration or fn.linkage is not Linkage.AVAILABLE_EXTERNALLY:
            continue
        if convert_to_local:
            _convert_to_local_copy(module, fn)
        else:
            _delete_function(fn)
        remove_dead_constant_users(fn)
        changed = True
    return changed


class EliminateAvailableExternallyPass(Pass[Module]):
    """Turns ``available_externally`` definitions into declarations."""

    name: ClassVar[str] = "elim-avail-extern"
    debug_type: ClassVar[str] = "elim-avail-extern"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        convert = bool(OPTIONS.value("avail-extern-to-local"))
        changed = eliminate_available_externally(unit, convert)
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()


__all__ = [
    "NUM_CONVERSIONS",
    "NUM_REMOVALS",
    "NUM_VARIABLES",
    "EliminateAvailableExternallyPass",
    "eliminate_available_externally",
]
