"""``constmerge``: merges global constants with the same initializer into one (LLVM 19.1.7
``lib/Transforms/IPO/ConstantMerge.cpp``, ``ConstantMergePass``).

How: rounds until one changes nothing. Each round first erases the local globals nothing
uses (after dropping their dead constant users), and picks, for every mergeable initializer,
the canonical global that holds it: the first one met, replaced by a later one that is not
local while it is, or (both local or both not) by a later ``unnamed_addr`` one. Then every
other local global with that initializer is folded into the canonical one when at least one
of the two is ``unnamed_addr`` and the duplicate has no metadata but ``!dbg``: the survivor
loses ``unnamed_addr`` unless the duplicate had it, takes the larger of both alignments
(when either had one), gains the duplicate's ``!dbg`` attachments and all its uses; the
duplicate is erased. Constants are uniqued, so "same initializer" is object identity.

Mergeable: a ``constant`` in address space 0 with a definitive initializer, no section, not
thread-local, not in ``llvm.used``/``llvm.compiler.used``, not weak for the linker, with no
metadata other than ``!dbg``. Statistic ``NumIdenticalMerged``. Any change preserves nothing.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.constants import Constant
from llvmpy_mid.ir.dead_constants import remove_dead_constant_users
from llvmpy_mid.ir.global_value import GlobalValue, GlobalVariable, UnnamedAddr
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic

NUM_IDENTICAL_MERGED = Statistic("constmerge", "NumIdenticalMerged", "Number of identical global constants merged")


def _used_values(module: Module) -> set[GlobalValue]:
    """The globals named by ``llvm.used`` and ``llvm.compiler.used`` (casts stripped)."""
    used: set[GlobalValue] = set()
    for name in ("llvm.used", "llvm.compiler.used"):
        gv = module.get_global(name)
        init = gv.initializer if gv is not None else None
        if init is None:
            continue
        for op in init.operands:
            target = strip_pointer_casts(op)
            if isinstance(target, GlobalValue):
                used.add(target)
    return used


def _is_better_canonical(a: GlobalVariable, b: GlobalVariable) -> bool:
    if not a.has_local_linkage and b.has_local_linkage:
        return True
    if a.has_local_linkage and not b.has_local_linkage:
        return False
    return a.has_global_unnamed_addr


def _has_metadata_other_than_dbg(gv: GlobalVariable) -> bool:
    return any(kind != "dbg" for kind, _ in gv.metadata_items())


def _is_unmergeable(gv: GlobalVariable, used: set[GlobalValue]) -> bool:
    return (
        not gv.is_constant_global
        or not gv.has_definitive_initializer
        or gv.address_space != 0
        or bool(gv.section)
        or gv.is_thread_local
        or gv in used
    )


def _align(gv: GlobalVariable) -> int:
    """The explicit alignment, else ``DataLayout::getPreferredAlign`` of the variable."""
    explicit = gv.alignment
    if explicit is not None:
        return explicit
    module = gv.parent
    assert module is not None
    dl = module.data_layout
    ty = gv.value_type
    align = dl.pref_alignment(ty)
    if gv.has_initializer and align < 16 and dl.type_size_in_bits(ty) > 128:
        align = 16
    return align


def _replace(old: GlobalVariable, new: GlobalVariable) -> None:
    if old.alignment is not None or new.alignment is not None:
        new.alignment = max(_align(old), _align(new))
    for node in old.get_all_metadata("dbg"):
        new.add_metadata("dbg", node)
    old.replace_all_uses_with(new)
    old.erase_from_parent()


def merge_constants(module: Module) -> bool:
    """Run the merge rounds on ``module``; True when anything changed."""
    used = _used_values(module)
    changes = 0
    previous = 0
    while True:
        canonical: dict[Constant, GlobalVariable] = {}
        for gv in list(module.globals):
            remove_dead_constant_users(gv)
            if gv.use_empty and gv.has_local_linkage:
                gv.erase_from_parent()
                changes += 1
                continue
            if _is_unmergeable(gv, used) or gv.is_weak_for_linker or _has_metadata_other_than_dbg(gv):
                continue
            init = gv.initializer
            assert init is not None
            slot = canonical.get(init)
            if slot is None or _is_better_canonical(gv, slot):
                canonical[init] = gv
        replacements: list[tuple[GlobalVariable, GlobalVariable]] = []
        for gv in module.globals:
            if _is_unmergeable(gv, used) or not gv.has_local_linkage:
                continue
            init = gv.initializer
            assert init is not None
            slot = canonical.get(init)
            if slot is None or slot is gv:
                continue
            if not gv.has_global_unnamed_addr and not slot.has_global_unnamed_addr:
                continue
            if _has_metadata_other_than_dbg(gv):
                continue
            if not gv.has_global_unnamed_addr:
                slot.unnamed_addr = UnnamedAddr.NONE
            replacements.append((gv, slot))
        for old, new in replacements:
            _replace(old, new)
            changes += 1
            NUM_IDENTICAL_MERGED.add()
        if changes == previous:
            break
        previous = changes
    return changes != 0


class ConstantMergePass(Pass[Module]):
    """Merges duplicate global constants."""

    name: ClassVar[str] = "constmerge"
    debug_type: ClassVar[str] = "constmerge"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        return PreservedAnalyses.none() if merge_constants(unit) else PreservedAnalyses.all()


__all__ = ["NUM_IDENTICAL_MERGED", "ConstantMergePass", "merge_constants"]
