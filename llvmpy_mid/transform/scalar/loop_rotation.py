"""``loop-rotate``: rotate loops so their test is at the bottom (LLVM 19.1.7
``lib/Transforms/Scalar/LoopRotation.cpp``; the work is in
:mod:`llvmpy_mid.transform.utils.loop_rotation_utils`).

Parameters as opt-19 parses them: ``loop-rotate<header-duplication;prepare-for-lto>`` (each
also with ``no-``; defaults ``header-duplication;no-prepare-for-lto``). The header may be
duplicated up to ``-rotation-max-header-size`` (16) code-size units when header duplication
is on and the function is not ``minsize``, or when the loop is forced to vectorize by its
metadata; otherwise only a header that simplifies away entirely (threshold 0) is rotated.
``-rotation-prepare-for-lto`` acts as ``prepare-for-lto``. The pass keeps the loop analyses,
ScalarEvolution and (under ``loop-mssa``) MemorySSA.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from llvmpy_mid.passes.pipeline_text import parse_flag_and_int_params
from llvmpy_mid.analysis.loop_info import Loop
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS, declare_option
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses

__all__ = ["LoopRotateOptions", "LoopRotatePass", "parse_loop_rotate_options"]

declare_option(
    "rotation-max-header-size", "uint", 16, "The default maximum header size for automatic loop rotation", "loop-rotate"
)
declare_option(
    "rotation-prepare-for-lto",
    "bool",
    False,
    "Run loop-rotation in the prepare-for-lto stage. This option should be used for testing only.",
    "loop-rotate",
)


@attrs.define
class LoopRotateOptions:
    enable_header_duplication: bool = True
    prepare_for_lto: bool = False


def parse_loop_rotate_options(params: str | None) -> LoopRotateOptions:
    """``loop-rotate<...>`` as opt-19's ``parseLoopRotateOptions`` reads it."""
    result = LoopRotateOptions()
    values = parse_flag_and_int_params(
        params,
        "LoopRotate",
        {"header-duplication": result.enable_header_duplication, "prepare-for-lto": result.prepare_for_lto},
    )
    result.enable_header_duplication = bool(values["header-duplication"])
    result.prepare_for_lto = bool(values["prepare-for-lto"])
    return result


def _vectorize_forced_by_user(loop: Loop) -> bool:
    """LLVM ``hasVectorizeTransformation(L) == TM_ForcedByUser``."""
    from llvmpy_mid.ir.constants import ConstantInt
    from llvmpy_mid.transform.utils.loop_utils import get_boolean_loop_attribute

    loop_id = loop.loop_id
    if loop_id is None:
        return False
    values: dict[str, Any] = {}
    for md in loop_id.operands[1:]:
        ops = getattr(md, "operands", None) if md is not None and getattr(md, "is_md_node", False) else None
        if not ops or not getattr(ops[0], "is_md_string", False):
            continue
        # A boolean option without a value, or with a non-integer one, reads as true.
        values.setdefault(ops[0].string, getattr(ops[1], "value", None) if len(ops) > 1 else None)

    def int_of(name: str) -> int | None:
        v = values.get(name)
        return v.value if isinstance(v, ConstantInt) else None

    if "llvm.loop.vectorize.enable" not in values or int_of("llvm.loop.vectorize.enable") == 0:
        return False
    width = int_of("llvm.loop.vectorize.width")
    scalable = bool(int_of("llvm.loop.vectorize.scalable.enable"))
    if width == 1 and not scalable and int_of("llvm.loop.interleave.count") == 1:
        return False
    return not get_boolean_loop_attribute(loop, "llvm.loop.isvectorized")


class LoopRotatePass(Pass[Loop]):
    """``loop-rotate`` (LLVM ``LoopRotatePass``)."""

    name: ClassVar[str] = "loop-rotate"

    def __init__(self, options: LoopRotateOptions | None = None) -> None:
        self.options = options if options is not None else LoopRotateOptions()

    def pipeline_params(self) -> str:
        o = self.options
        return "%sheader-duplication;%sprepare-for-lto" % (
            "" if o.enable_header_duplication else "no-",
            "" if o.prepare_for_lto else "no-",
        )

    def run(self, unit: Loop, am: AnalysisManager[Loop]) -> PreservedAnalyses:
        from llvmpy_mid.analysis.memory_ssa import MemorySSAAnalysis
        from llvmpy_mid.analysis.memory_ssa_updater import MemorySSAUpdater
        from llvmpy_mid.passes.loop_pass_manager import loop_pass_preserved_analyses
        from llvmpy_mid.transform.utils.loop_rotation_utils import loop_rotation

        ar = am.standard  # type: ignore[attr-defined]
        fn = unit.header.parent
        assert fn is not None and fn.parent is not None
        o = self.options
        if (o.enable_header_duplication and not fn.has_fn_attribute("minsize")) or _vectorize_forced_by_user(unit):
            threshold = int(OPTIONS.value("rotation-max-header-size"))
        else:
            threshold = 0
        sq = SimplifyQuery(fn.parent.data_layout, ar.tli, ar.dt, ar.ac)
        mssau = MemorySSAUpdater(ar.mssa) if ar.mssa is not None else None
        prepare = o.prepare_for_lto or bool(OPTIONS.value("rotation-prepare-for-lto"))
        changed = loop_rotation(
            unit, ar.li, ar.tti, ar.ac, ar.dt, ar.se, mssau, sq, False, threshold, False, prepare
        )
        if not changed:
            return PreservedAnalyses.all()
        if ar.mssa is not None and OPTIONS.value("verify-memoryssa"):
            ar.mssa.verify_memory_ssa()
        pa = loop_pass_preserved_analyses()
        if ar.mssa is not None:
            pa.preserve(MemorySSAAnalysis)
        return pa
