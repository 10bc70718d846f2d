"""Target answers about how arguments are passed between two functions: the
``TargetTransformInfo`` queries ``areTypesABICompatible`` and ``getMaxNumArgs``
(LLVM include/llvm/Analysis/TargetTransformInfoImpl.h, and the X86 and BPF
overrides in lib/Target/X86/X86TargetTransformInfo.cpp and
lib/Target/BPF/BPFTargetTransformInfo.h).

What: a caller and a callee agree on how values of some types are passed when
their ``target-cpu`` and ``target-features`` attributes are equal; on x86
they must also agree on whether 512-bit vector registers are used (decided by
the AVX-512 features and the ``min-legal-vector-width`` and
``prefer-vector-width`` attributes), unless none of the types is a vector or
an aggregate. BPF passes at most five arguments; other targets have no limit.

What it does not do: the x86 subtarget is modelled only as far as this question
needs: the AVX-512 feature implications, the CPUs that have AVX512VL, and which of
them prefer 256-bit vectors.
"""

from __future__ import annotations

from typing import Sequence

from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import ArrayType, StructType, Type, VectorType

__all__ = ["are_types_abi_compatible", "max_num_args"]

_UNLIMITED = 0xFFFFFFFF
_X86_ARCHS = ("x86_64", "amd64", "i386", "i486", "i586", "i686", "x86")


def _arch(module: Module | None) -> str:
    if module is None:
        return ""
    return module.target_triple.split("-", 1)[0]


def _string_attr(fn: Function, key: str) -> str | None:
    return fn.attributes.fn_attrs.string_value(key)


def _int_attr(fn: Function, key: str, default: int) -> int:
    text = _string_attr(fn, key)
    if text is None:
        return default
    try:
        return int(text, 0)
    except ValueError:
        return default


#: What enabling an AVX-512 feature enables with it (X86.td implications, transitively).
_IMPLIES: dict[str, tuple[str, ...]] = {
    "avx512cd": ("avx512f",), "avx512bw": ("avx512f",), "avx512dq": ("avx512f",), "avx512vl": ("avx512f",),
    "avx512ifma": ("avx512f",), "avx512vnni": ("avx512f",), "avx512vpopcntdq": ("avx512f",),
    "avx512vp2intersect": ("avx512f",), "avx512vbmi": ("avx512bw",), "avx512vbmi2": ("avx512bw",),
    "avx512bitalg": ("avx512bw",), "avx512bf16": ("avx512bw",),
    "avx512fp16": ("avx512bw", "avx512vl", "avx512dq"),
    "avx10.1-256": ("avx512cd", "avx512vbmi", "avx512ifma", "avx512vnni", "avx512bf16", "avx512vpopcntdq",
                    "avx512vbmi2", "avx512bitalg", "avx512fp16"),
    "avx10.1-512": ("avx10.1-256", "evex512"),
}  # fmt: skip

#: CPUs with AVX-512 and AVX512VL (and 512-bit registers); those but the AMD ones also
#: prefer 256-bit vectors when no ``prefer-vector-width`` is given (measured with opt-19).
_CPUS_AVX512VL = frozenset((
    "cannonlake", "cascadelake", "cooperlake", "emeraldrapids", "graniterapids", "graniterapids-d",
    "graniterapids_d", "icelake-client", "icelake-server", "icelake_client", "icelake_server", "rocketlake",
    "sapphirerapids", "skx", "skylake-avx512", "skylake_avx512", "tigerlake", "x86-64-v4", "znver4", "znver5",
))  # fmt: skip
_CPUS_PREFER_256 = _CPUS_AVX512VL - {"znver4", "znver5"}
#: CPUs with AVX-512 but without AVX512VL (Xeon Phi).
_CPUS_AVX512_ONLY = frozenset(("knl", "knm", "mic_avx512"))
_DEFAULT_CPUS = ("", "generic", "pentium4", "x86-64")


def _closure(name: str) -> set[str]:
    found = {name}
    stack = [name]
    while stack:
        for implied in _IMPLIES.get(stack.pop(), ()):
            if implied not in found:
                found.add(implied)
                stack.append(implied)
    return found


def _uses_avx512_regs(fn: Function) -> bool:
    """X86Subtarget ``useAVX512Regs`` for ``fn``."""
    cpu = _string_attr(fn, "target-cpu") or ""
    features = _string_attr(fn, "target-features") or ""
    enabled: set[str] = set()
    if cpu in _CPUS_AVX512VL:
        enabled = {"avx512f", "avx512vl", "evex512"}
    elif cpu in _CPUS_AVX512_ONLY:
        enabled = {"avx512f", "evex512"}
    for feature in features.split(","):
        feature = feature.strip()
        if len(feature) < 2 or feature[0] not in "+-":
            continue
        name = feature[1:]
        if feature[0] == "+":
            enabled |= _closure(name)
        else:
            enabled -= {f for f in list(enabled) if name in _closure(f)}
    if cpu in _DEFAULT_CPUS and "+evex512" not in features and "-evex512" not in features:
        # LLVM attaches evex512 to a default CPU given any AVX-512 feature not disabled afterwards.
        pos_avx512 = features.rfind("+avx512")
        pos_no_f = len(features) - 8 if features.endswith("-avx512f") else features.rfind("-avx512f,")
        if pos_avx512 >= 0 and (pos_no_f < 0 or pos_no_f < pos_avx512):
            enabled.add("evex512")
    if "avx512f" not in enabled or "evex512" not in enabled:
        return False
    prefer = _int_attr(fn, "prefer-vector-width", 256 if cpu in _CPUS_PREFER_256 else 512)
    required = _int_attr(fn, "min-legal-vector-width", _UNLIMITED)
    return "avx512vl" not in enabled or prefer >= 512 or required > 256


def _is_vector_or_aggregate(ty: Type) -> bool:
    return isinstance(ty, (VectorType, StructType, ArrayType))


def are_types_abi_compatible(caller: Function, callee: Function, types: Sequence[Type]) -> bool:
    """Whether ``caller`` may pass values of ``types`` to ``callee`` as the callee
    expects (``TTI::areTypesABICompatible``, asked of the callee's TTI)."""
    if _string_attr(caller, "target-cpu") != _string_attr(callee, "target-cpu"):
        return False
    if _string_attr(caller, "target-features") != _string_attr(callee, "target-features"):
        return False
    if _arch(callee.parent) not in _X86_ARCHS:
        return True
    if _uses_avx512_regs(caller) == _uses_avx512_regs(callee):
        return True
    return not any(_is_vector_or_aggregate(t) for t in types)


def max_num_args(fn: Function) -> int:
    """``TTI::getMaxNumArgs`` for ``fn``'s target."""
    if _arch(fn.parent) in ("bpf", "bpfel", "bpfeb"):
        return 5
    return _UNLIMITED
