"""``make-guards-explicit``: calls of ``llvm.experimental.guard`` become widenable branches to
a deoptimizing block (LLVM 19.1.7 ``lib/Transforms/Scalar/MakeGuardsExplicit.cpp``).

What: when the module declares ``llvm.experimental.guard`` and uses it, every guard of the
function (collected first, in instruction order) is rewritten by
:func:`~llvmpy_mid.transform.utils.guard_utils.make_guard_control_flow_explicit` with a
widenable condition, and erased. The deoptimizing call goes to
``llvm.experimental.deoptimize`` overloaded on the function's return type, declared with the
guard declaration's calling convention. A changed function keeps no analysis.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.guard_utils import GUARD, is_guard
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.intrinsics import intrinsic_declaration
from llvmpy_mid.ir.type_mangling import intrinsic_name
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.transform.utils.guard_utils import make_guard_control_flow_explicit

__all__ = ["MakeGuardsExplicitPass", "explicify_guards"]


def explicify_guards(fn: Function) -> bool:
    """Rewrite the guards of ``fn``; True when there was one (LLVM ``explicifyGuards``)."""
    module = fn.parent
    if module is None:
        return False
    guard_decl = module.get_function(GUARD)
    if guard_decl is None or guard_decl._use_head is None:
        return False
    guards: list[CallInst] = []
    for bb in fn.blocks:
        for inst in bb.instructions:
            # A guard without its deopt bundle is malformed IR: left alone.
            if is_guard(inst) and isinstance(inst, CallInst) and inst.get_operand_bundle("deopt") is not None:
                guards.append(inst)
    if not guards:
        return False
    ret = fn.return_type
    name = intrinsic_name("llvm.experimental.deoptimize", [ret])
    if name is None:
        return False
    deopt = intrinsic_declaration(module, name, ret.context.function_type(ret, [], True))
    deopt.calling_conv = guard_decl.calling_conv
    for guard in guards:
        make_guard_control_flow_explicit(deopt, guard, True)
        guard.erase_from_parent()
    return True


class MakeGuardsExplicitPass(Pass[Function]):
    """``make-guards-explicit`` (LLVM ``MakeGuardsExplicitPass``)."""

    name: ClassVar[str] = "make-guards-explicit"

    def run(self, unit: Function, am: AnalysisManager[Function]) -> PreservedAnalyses:
        if explicify_guards(unit):
            return PreservedAnalyses.none()
        return PreservedAnalyses.all()
