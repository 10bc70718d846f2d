"""``lower-atomic``: makes every atomic operation a plain one, for
single-threaded targets (LLVM ``LowerAtomicPass``,
lib/Transforms/Scalar/LowerAtomicPass.cpp).

``fence`` is erased; ``cmpxchg`` and ``atomicrmw`` become load/compute/store
(:mod:`llvmpy_mid.transform.utils.lower_atomic`); atomic ``load``/``store``
lose their ordering and sync scope.  As LLVM, only the first three count as a
change (an atomic load or store made plain alone leaves every analysis
preserved).
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.flags import AtomicOrdering
from llvmpy_mid.ir.instructions.memory import (
    AtomicCmpXchgInst,
    AtomicRMWInst,
    FenceInst,
    LoadInst,
    StoreInst,
)
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.lower_atomic import lower_atomic_cmpxchg, lower_atomic_rmw

__all__ = ["LowerAtomicPass", "lower_atomics"]


def lower_atomics(fn: Function) -> bool:
    """Lower the atomics of ``fn``; True when a fence, cmpxchg or atomicrmw was rewritten."""
    changed = False
    for bb in fn.blocks:
        inst = bb.instructions.first
        while inst is not None:
            nxt = inst.next_instruction
            if isinstance(inst, FenceInst):
                inst.erase_from_parent()
                changed = True
            elif isinstance(inst, AtomicCmpXchgInst):
                changed |= lower_atomic_cmpxchg(inst)
            elif isinstance(inst, AtomicRMWInst):
                changed |= lower_atomic_rmw(inst)
            elif isinstance(inst, (LoadInst, StoreInst)) and inst.is_atomic:
                inst.ordering = AtomicOrdering.NOT_ATOMIC
                inst.sync_scope = ""
            inst = nxt
    return changed


class LowerAtomicPass(Pass[Function]):
    """Atomic instructions become their single-threaded equivalents."""

    name: ClassVar[str] = "lower-atomic"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if lower_atomics(unit):
            return PreservedAnalyses.none()
        return PreservedAnalyses.all()
