"""The WebAssembly inliner hooks (LLVM 19.1.7
``lib/Target/WebAssembly/WebAssemblyTargetTransformInfo.cpp`` ``areInlineCompatible``,
with the features and processors of ``WebAssembly.td``).

What: a callee may be inlined when its subtarget features are a subset of the caller's
(the processor's features plus ``target-features``; no WebAssembly feature implies
another). A function without ``target-cpu`` uses ``generic``. Switch clusters are
:mod:`.inline_cost_target_basic`'s, with jump tables from 2 cases.

What it does not do: anything else of ``WebAssemblyTTIImpl`` (the inliner's other hooks
keep the target-independent answers).
"""

from __future__ import annotations

from llvmpy_mid.analysis.inline_cost_target_basic import BasicInlinerHooks
from llvmpy_mid.analysis.subtarget_features import FeatureTable, function_cpu, function_feature_flags
from llvmpy_mid.ir.function import Function

_FEATURES = (
    "atomics", "bulk-memory", "exception-handling", "extended-const", "half-precision", "multimemory",
    "multivalue", "mutable-globals", "nontrapping-fptoint", "reference-types", "relaxed-simd", "sign-ext",
    "simd128", "tail-call",
)  # fmt: skip

WASM_FEATURES = FeatureTable(
    {name: () for name in _FEATURES},
    {
        "mvp": (),
        "generic": ("multivalue", "mutable-globals", "reference-types", "sign-ext"),
        "bleeding-edge": _FEATURES,
    },
)


class WebAssemblyInlinerHooks(BasicInlinerHooks):
    """``WebAssemblyTTIImpl``'s inliner hooks."""

    #: ``WebAssemblyTargetLowering`` makes every switch of two cases or more a ``br_table``.
    min_jump_table_entries = 2

    def are_inline_compatible(self, caller: Function, callee: Function) -> bool:
        have = _bits(caller)
        return _bits(callee) <= have


def _bits(fn: Function) -> frozenset[str]:
    cpu = function_cpu(fn) or "generic"
    return WASM_FEATURES.feature_bits(cpu, function_feature_flags(fn))
