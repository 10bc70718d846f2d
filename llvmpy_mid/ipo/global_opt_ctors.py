"""Static constructor evaluation for GlobalOpt (LLVM lib/Transforms/IPO/GlobalOpt.cpp
``EvaluateStaticConstructor``): run the constructor with the
:mod:`transform.utils.evaluator`; on success its stores become the globals'
initializers and the globals it proved invariant become constants."""

from __future__ import annotations

from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
from llvmpy_mid.ir.data_layout import DataLayout
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ipo.global_opt_stats import NUM_CTORS_EVALUATED

__all__ = ["evaluate_static_constructor"]


def evaluate_static_constructor(fn: Function, dl: DataLayout, tli: TargetLibraryInfo | None) -> bool:
    """Evaluate ``fn`` at compile time and commit its effects; whether it succeeded."""
    if fn.is_declaration:
        return False
    from llvmpy_mid.transform.utils.evaluator import Evaluator

    ev = Evaluator(dl, tli)
    ok = ev.evaluate_function(fn, [])
    if ok:
        NUM_CTORS_EVALUATED.add()
        for gv, init in ev.mutated_initializers():
            gv.initializer = init
        for gv in ev.invariants:
            gv.is_constant_global = True
    ev.finish()
    return ok
