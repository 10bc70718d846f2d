"""``instsimplify``: replace every instruction that InstructionSimplify proves
equal to an existing value, and delete what becomes dead (LLVM
``InstSimplifyPass``, ``llvm/lib/Transforms/Scalar/InstSimplifyPass.cpp``).

How: rounds over the blocks reachable from the entry, in layout order. The
first round looks at every instruction; a later round only at the users of
instructions replaced in the round before. An unused instruction that is
trivially dead is queued for deletion; a used one is asked of
:func:`~llvmpy_mid.analysis.instruction_simplify.simplify_instruction`, and on
an answer its uses move to the answer (a call that simplifies may stay when it
has side effects). At the end of each block the queued instructions and the
operands they leave dead are deleted. Unreachable blocks are skipped (their
instructions may refer to themselves). The CFG never changes, so CFG analyses
are kept when anything changed.

What it does not do: the pass itself is complete; what it finds is bounded by
the folds :mod:`llvmpy_mid.analysis.instsimplify` implements.
"""

from __future__ import annotations

import importlib
from typing import ClassVar

from llvmpy_mid.analysis.instruction_simplify import simplify_instruction
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.dominator_analyses import DominatorTreeAnalysis
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import CFGAnalyses, PreservedAnalyses
from llvmpy_mid.transform.utils.local import (
    is_instruction_trivially_dead,
    recursively_delete_trivially_dead_instructions_permissive,
)


def _optional_result(module_name: str, analysis_name: str, fn: Function, am: AnalysisManager[Function]) -> object | None:
    """The result of an analysis another module provides, when it exists."""
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    analysis = getattr(module, analysis_name, None)
    if analysis is None:
        return None
    result: object = am.get_result(analysis, fn)
    return result


def simplify_function(fn: Function, q: SimplifyQuery) -> bool:
    """Run the instsimplify rounds over ``fn`` (LLVM ``runImpl``); True if anything changed."""
    dt = q.dt
    to_simplify: set[Instruction] = set()
    first = True
    changed = False
    tli = q.tli
    while True:
        next_round: set[Instruction] = set()
        for bb in fn.blocks:
            if dt is not None and not dt.is_reachable(bb):
                continue
            dead: list[Value | None] = []
            node = bb.instructions._first
            while node is not None:
                inst: Instruction = node
                node = node._next
                if not first and inst not in to_simplify:
                    continue
                if is_instruction_trivially_dead(inst, tli):
                    dead.append(inst)
                    changed = True
                elif inst._use_head is not None:
                    v = simplify_instruction(inst, q)
                    if v is not None:
                        for user in inst.users:
                            next_round.add(user)  # type: ignore[arg-type]
                        inst.replace_all_uses_with(v)
                        changed = True
                        if is_instruction_trivially_dead(inst, tli):
                            dead.append(inst)
            if dead:
                recursively_delete_trivially_dead_instructions_permissive(dead, tli)
        if not next_round:
            break
        to_simplify = next_round
        first = False
    return changed


class InstSimplifyPass(Pass[Function]):
    """``instsimplify``: removes instructions that simplify to existing values."""

    name: ClassVar[str] = "instsimplify"

    @property
    def log_name(self) -> str:
        """LLVM's class name, as ``-debug-pass-manager`` prints it."""
        return "InstSimplifyPass"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        dt = am.get_result(DominatorTreeAnalysis, unit)
        tli = _optional_result("llvmpy_mid.analysis.target_library_info", "TargetLibraryAnalysis", unit, am)
        ac = _optional_result("llvmpy_mid.analysis.assumption_cache", "AssumptionAnalysis", unit, am)
        module = unit.parent
        dl = module.data_layout if module is not None else DataLayout()
        q = SimplifyQuery(dl, tli, dt, ac)  # type: ignore[arg-type]
        if not simplify_function(unit, q):
            return PreservedAnalyses.all()
        pa = PreservedAnalyses()
        pa.preserve_set(CFGAnalyses)
        return pa


__all__ = ["InstSimplifyPass", "simplify_function"]
