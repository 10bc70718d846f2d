"""``inferattrs``: attributes of function declarations from what is known of them (LLVM 19.1.7
``lib/Transforms/IPO/InferFunctionAttrs.cpp``, ``InferFunctionAttrsPass``).

How: every declaration that is not ``optnone`` gets, unless it is ``nobuiltin``, the
attributes of the C library function it declares (:func:`infer_non_mandatory_lib_func_attrs`,
asked with the function's own target library info, so ``no-builtin-NAME`` attributes and
``-disable-builtin`` count), then the attributes implied by the ones it has
(:func:`infer_attributes_from_others`: ``nosync``, ``nofree``, ``mustprogress``). Definitions
are left alone. Any change preserves no analysis; no change preserves all.

What it does not do: ``-force-attribute`` and ``-force-remove-attribute`` belong to
``forceattrs``.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.analysis.target_library_info import TargetLibraryAnalysis
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.proxies import FunctionAnalysisManagerModuleProxy
from llvmpy_mid.transform.utils.infer_lib_func_attrs import infer_attributes_from_others, infer_non_mandatory_lib_func_attrs


class InferFunctionAttrsPass(Pass[Module]):
    """Infers attributes of the module's function declarations."""

    name: ClassVar[str] = "inferattrs"
    debug_type: ClassVar[str] = "inferattrs"

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        fam = am.get_result(FunctionAnalysisManagerModuleProxy, unit).manager
        changed = False
        for fn in list(unit.functions):
            if not fn.is_declaration or fn.has_fn_attribute("optnone"):
                continue
            if not fn.has_fn_attribute("nobuiltin"):
                changed |= infer_non_mandatory_lib_func_attrs(fn, fam.get_result(TargetLibraryAnalysis, fn))
            changed |= infer_attributes_from_others(fn)
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()


__all__ = ["InferFunctionAttrsPass"]
