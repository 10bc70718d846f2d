"""The target and attribute questions the inline cost model asks (LLVM 19.1.7
``TargetTransformInfoImpl.h`` inliner hooks, ``TargetLibraryInfo::areInlineCompatible``,
``AttributeFuncs::areInlineCompatible`` of ``lib/IR/Attributes.cpp`` with the
``CompatRule`` list of ``Attributes.td``).

What: the target-independent answers of the inliner's TTI hooks (call penalty, vector
bonus 150%, threshold multiplier 1, no threshold adjustment, no caller alloca cost,
switch case clusters = number of cases); whether a caller and a callee may be inlined
into each other by their attributes (sanitizers, safestack, shadow call stack, profile
attributes, denormal modes, strictfp, return-address signing; ``target-cpu`` and
``target-features``; the ``nobuiltin`` sets).

Each target's answers are a subclass of :class:`InlinerTargetHooks` in its own module
(``inline_cost_target_<target>.py``), chosen by the module's triple through
:data:`_TARGET_HOOKS`; a triple no row names gets the target-independent answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.analysis.target_transform_info import TargetTransformInfo
    from llvmpy_mid.ir.instructions.terminators import SwitchInst

_EQUAL_ENUM_ATTRS = (
    "sanitize_address",
    "sanitize_thread",
    "sanitize_memory",
    "sanitize_hwaddress",
    "sanitize_memtag",
    "sanitize_numerical_stability",
    "safestack",
    "shadowcallstack",
    "use-sample-profile",
    "noprofile",
)
_EQUAL_STRING_ATTRS = ("sign-return-address", "sign-return-address-key", "branch-protection-pauth-lr")


class InlinerTargetHooks:
    """The inliner's TTI hooks as ``NoTTIImpl`` answers them; a target's subclass (one module
    per target, named in :data:`_TARGET_HOOKS`) overrides what its ``TTIImpl`` overrides."""

    def __init__(self, tti: TargetTransformInfo) -> None:
        self.tti = tti

    def get_inline_call_penalty(self, caller: Function, call: CallBase, default: int) -> int:
        return default

    def get_inliner_vector_bonus_percent(self) -> int:
        return 150

    def get_inlining_threshold_multiplier(self) -> int:
        return 1

    def adjust_inlining_threshold(self, call: CallBase) -> int:
        return 0

    def get_caller_alloca_cost(self, call: CallBase, alloca: object) -> int:
        return 0

    def get_estimated_number_of_case_clusters(self, si: SwitchInst) -> tuple[int, int]:
        """``(number of case clusters, jump table size)``: one cluster per case."""
        return si.num_cases, 0

    def are_inline_compatible(self, caller: Function, callee: Function) -> bool:
        """``TTI.areInlineCompatible`` without a target: equal ``target-cpu`` and
        ``target-features``."""
        return _fn_attr_key(caller, "target-cpu") == _fn_attr_key(callee, "target-cpu") and _fn_attr_key(
            caller, "target-features"
        ) == _fn_attr_key(callee, "target-features")


# Triple architecture prefixes and the ``module:Class`` of their hooks (imported on first use).
_TARGET_HOOKS: list[tuple[tuple[str, ...], str]] = [
    (("arm-", "armv", "armeb", "thumb"), "llvmpy_mid.analysis.inline_cost_target_arm:ARMInlinerHooks"),
    (("riscv32", "riscv64"), "llvmpy_mid.analysis.inline_cost_target_riscv:RISCVInlinerHooks"),
    (("wasm32", "wasm64"), "llvmpy_mid.analysis.inline_cost_target_wasm:WebAssemblyInlinerHooks"),
    (
        ("x86_64", "amd64", "i386", "i486", "i586", "i686"),
        "llvmpy_mid.analysis.inline_cost_target_x86:X86InlinerHooks",
    ),
    (("aarch64", "arm64"), "llvmpy_mid.analysis.inline_cost_target_aarch64:AArch64InlinerHooks"),
    (("amdgcn",), "llvmpy_mid.analysis.inline_cost_target_amdgpu:GCNInlinerHooks"),
    (("r600",), "llvmpy_mid.analysis.inline_cost_target_amdgpu:R600InlinerHooks"),
]
_LOADED: dict[str, type[InlinerTargetHooks]] = {}


def hooks_for(tti: TargetTransformInfo) -> InlinerTargetHooks:
    """The inliner hooks of the target ``tti`` answers for (its function's module's triple)."""
    fn = tti.function
    module = fn.parent if fn is not None else None
    triple = module.target_triple if module is not None else ""
    if triple:
        for prefixes, where in _TARGET_HOOKS:
            if triple.startswith(prefixes):
                cls = _LOADED.get(where)
                if cls is None:
                    import importlib

                    mod_name, _, cls_name = where.partition(":")
                    cls = getattr(importlib.import_module(mod_name), cls_name)
                    assert isinstance(cls, type) and issubclass(cls, InlinerTargetHooks)
                    _LOADED[where] = cls
                return cls(tti)
    return InlinerTargetHooks(tti)


def get_inline_call_penalty(tti: TargetTransformInfo, caller: Function, call: CallBase, default: int) -> int:
    """``TTI.getInlineCallPenalty``."""
    return hooks_for(tti).get_inline_call_penalty(caller, call, default)


def get_inliner_vector_bonus_percent(tti: TargetTransformInfo) -> int:
    return hooks_for(tti).get_inliner_vector_bonus_percent()


def get_inlining_threshold_multiplier(tti: TargetTransformInfo) -> int:
    return hooks_for(tti).get_inlining_threshold_multiplier()


def adjust_inlining_threshold(tti: TargetTransformInfo, call: CallBase) -> int:
    return hooks_for(tti).adjust_inlining_threshold(call)


def get_caller_alloca_cost(tti: TargetTransformInfo, call: CallBase, alloca: object) -> int:
    return hooks_for(tti).get_caller_alloca_cost(call, alloca)


def get_estimated_number_of_case_clusters(tti: TargetTransformInfo, si: SwitchInst) -> tuple[int, int]:
    """``(number of case clusters, jump table size)``."""
    return hooks_for(tti).get_estimated_number_of_case_clusters(si)


def _fn_attr_key(fn: Function, kind: str) -> object:
    attr = fn.attributes.get_fn_attr(kind)
    return None if attr is None else attr


def _denormal(fn: Function, key: str) -> tuple[str, str] | None:
    attr = fn.attributes.get_fn_attr(key)
    if attr is None:
        return None
    text = attr.value
    parts = text.split(",")
    out = parts[0].strip()
    inp = parts[1].strip() if len(parts) > 1 else out
    return (out or "ieee", inp or "ieee")


def _denorm_compatible(caller: tuple[str, str] | None, callee: tuple[str, str] | None) -> bool:
    a = caller if caller is not None else ("ieee", "ieee")
    b = callee if callee is not None else ("ieee", "ieee")
    if a == b or b == ("dynamic", "dynamic"):
        return True
    return (b[1] == a[1] and b[0] == "dynamic") or (b[0] == a[0] and b[1] == "dynamic")


def _check_denorm_mode(caller: Function, callee: Function) -> bool:
    if not _denorm_compatible(_denormal(caller, "denormal-fp-math"), _denormal(callee, "denormal-fp-math")):
        return False
    caller32 = _denormal(caller, "denormal-fp-math-f32") or _denormal(caller, "denormal-fp-math")
    callee32 = _denormal(callee, "denormal-fp-math-f32") or _denormal(callee, "denormal-fp-math")
    return _denorm_compatible(caller32, callee32)


def attributes_are_inline_compatible(caller: Function, callee: Function) -> bool:
    """LLVM ``AttributeFuncs::areInlineCompatible``."""
    for kind in _EQUAL_ENUM_ATTRS:
        if _fn_attr_key(caller, kind) != _fn_attr_key(callee, kind):
            return False
    if not _check_denorm_mode(caller, callee):
        return False
    if callee.attributes.has_fn_attr("strictfp") and not caller.attributes.has_fn_attr("strictfp"):
        return False
    for key in _EQUAL_STRING_ATTRS:
        if _fn_attr_key(caller, key) != _fn_attr_key(callee, key):
            return False
    return True


def _features(fn: Function) -> set[str]:
    attr = fn.attributes.get_fn_attr("target-features")
    if attr is None or not attr.value:
        return set()
    return {f for f in attr.value.split(",") if f}


def target_inline_compatible(tti: TargetTransformInfo, caller: Function, callee: Function) -> bool:
    """``TTI.areInlineCompatible`` of the caller's target."""
    return hooks_for(tti).are_inline_compatible(caller, callee)


def tli_inline_compatible(caller_tli: TargetLibraryInfo, callee_tli: TargetLibraryInfo, allow_superset: bool) -> bool:
    """``TargetLibraryInfo::areInlineCompatible``: the callee's ``nobuiltin`` set equals
    the caller's (or, with ``allow_superset``, is contained in it)."""
    caller_off: set[int] = getattr(caller_tli, "_override_unavailable", set())
    callee_off: set[int] = getattr(callee_tli, "_override_unavailable", set())
    if allow_superset:
        return callee_off <= caller_off
    return callee_off == caller_off


def functions_have_compatible_attributes(
    caller: Function,
    callee: Function,
    tti: TargetTransformInfo,
    get_tli: Callable[[Function], TargetLibraryInfo],
) -> bool:
    """LLVM's ``functionsHaveCompatibleAttributes`` in InlineCost.cpp."""
    from llvmpy_mid.analysis.inline_cost import option_bool

    callee_tli = get_tli(callee)
    if not (option_bool("ignore-tti-inline-compatible") or target_inline_compatible(tti, caller, callee)):
        return False
    if not tli_inline_compatible(get_tli(caller), callee_tli, option_bool("inline-caller-superset-nobuiltin")):
        return False
    return attributes_are_inline_compatible(caller, callee)
