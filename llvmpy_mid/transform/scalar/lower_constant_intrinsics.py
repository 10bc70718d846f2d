"""``lower-constant-intrinsics``: folds ``llvm.is.constant`` and
``llvm.objectsize`` to values (LLVM ``LowerConstantIntrinsicsPass``,
lib/Transforms/Scalar/LowerConstantIntrinsics.cpp).

How: the calls are collected in reverse post-order; each is replaced (users
simplified recursively, as ``replaceAndRecursivelySimplify``) by
- ``is.constant``: true when its argument is a manifest constant (plain data, or
  aggregates and constant expressions made only of such), else false;
- ``objectsize``: :func:`~llvmpy_mid.analysis.memory_builtins.lower_object_size_call`
  (never fails: -1 or 0 when the size is unknown).
Conditional branches that the replacement made constant become unconditional
(the other successor loses the block as predecessor, the debug location kept);
when a block lost its last predecessor, unreachable blocks are removed.

What it does not do: the dominator tree is not updated (LLVM keeps a cached one up
to date), so it is dropped.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.block_frequency_bpi import reverse_post_order
from llvmpy_mid.analysis.instruction_simplify import replace_and_recursively_simplify
from llvmpy_mid.analysis.memory_builtins import lower_object_size_call
from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis, TargetLibraryInfo
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import Constant, ConstantAggregate, ConstantData, ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.terminators import BranchInst
from llvmpy_mid.ir.intrinsics import lookup_intrinsic
from llvmpy_mid.ir.value import Value
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.basic_block_utils import remove_predecessor
from llvmpy_mid.transform.utils.local import remove_unreachable_blocks

__all__ = ["LowerConstantIntrinsicsPass", "is_manifest_constant", "lower_constant_intrinsics"]

_IS_CONSTANT = "llvm.is.constant"
_OBJECTSIZE = "llvm.objectsize"


def is_manifest_constant(c: Constant) -> bool:
    """Plain constant data, or an aggregate or constant expression built only from such (LLVM
    ``Constant::isManifestConstant``); globals and block addresses are not."""
    stack: list[Constant] = [c]
    while stack:
        cur = stack.pop()
        if isinstance(cur, ConstantData):
            continue
        if isinstance(cur, (ConstantAggregate, ConstantExpr)):
            for op in cur.operands:
                if not isinstance(op, Constant):
                    return False
                stack.append(op)
            continue
        return False
    return True


def _intrinsic(inst: Instruction) -> str:
    if not isinstance(inst, CallInst):
        return ""
    fn = inst.called_function
    if fn is None or not fn.intrinsic_id:
        return ""
    base = lookup_intrinsic(fn.name)
    return base if base in (_IS_CONSTANT, _OBJECTSIZE) else ""


def _replace_branches_on_constant(inst: Instruction, new: Value) -> bool:
    """Replace ``inst`` by ``new``, simplifying users; fold the conditional branches that became
    constant. True when a block lost its last predecessor."""
    unsimplified: list[Instruction] = []
    replace_and_recursively_simplify(inst, new, unsimplified_users=unsimplified)
    has_dead_blocks = False
    for user in unsimplified:
        if not isinstance(user, BranchInst) or user.is_erased or user.is_unconditional:
            continue
        cond = user.condition
        if not isinstance(cond, ConstantInt):
            continue
        target = user.get_successor(0 if cond.value else 1)
        other = user.get_successor(1 if cond.value else 0)
        if target is other:
            continue
        source = user.parent
        assert source is not None
        remove_predecessor(other, source)
        br = BranchInst(target)
        br.insert_before(user)
        br.debug_loc = user.debug_loc
        user.erase_from_parent()
        if not other.predecessors:
            has_dead_blocks = True
    return has_dead_blocks


def lower_constant_intrinsics(fn: Function, tli: TargetLibraryInfo | None) -> bool:
    """Fold the is.constant and objectsize calls of ``fn``; True when there was one."""
    module = fn.parent
    assert module is not None
    dl = module.data_layout
    worklist: list[Instruction] = []
    for bb in reverse_post_order(fn.entry_block):
        for inst in bb.instructions:
            if _intrinsic(inst):
                worklist.append(inst)
    has_dead_blocks = False
    for inst in worklist:
        if inst.is_erased or inst.parent is None:
            continue
        kind = _intrinsic(inst)
        if not kind:
            continue
        assert isinstance(inst, CallInst)
        new: Value | None
        if kind == _IS_CONSTANT:
            arg = inst.get_arg(0)
            value = isinstance(arg, Constant) and is_manifest_constant(arg)
            new = ConstantInt.get(inst.type, int(value))
        else:
            new = lower_object_size_call(inst, dl, tli, True)
        assert new is not None
        has_dead_blocks |= _replace_branches_on_constant(inst, new)
    if has_dead_blocks:
        remove_unreachable_blocks(fn)
    return bool(worklist)


class LowerConstantIntrinsicsPass(Pass[Function]):
    """``llvm.is.constant`` and ``llvm.objectsize`` become constants (or size computations)."""

    name: ClassVar[str] = "lower-constant-intrinsics"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        tli = am.get_result(TargetLibraryAnalysis, unit)
        if lower_constant_intrinsics(unit, tli):
            # LLVM keeps a cached dominator tree up to date here; this pass does not update one.
            return PreservedAnalyses.none()
        return PreservedAnalyses.all()
