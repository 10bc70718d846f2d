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

What it does not do: the x86 subtarget is read from the feature string only
(a ``target-cpu`` that implies AVX-512 on its own is not recognised).
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


def _uses_avx512_regs(fn: Function) -> bool:
    """X86Subtarget ``useAVX512Regs`` for ``fn`` (generic CPU)."""
    features = _string_attr(fn, "target-features") or ""
    avx512 = False
    vlx = False
    evex512: bool | None = None
    for feature in features.split(","):
        feature = feature.strip()
        if len(feature) < 2:
            continue
        on = feature[0] == "+"
        name = feature[1:]
        if name == "evex512":
            evex512 = on
        elif name.startswith("avx512"):
            if on:
                avx512 = True
                if name == "avx512vl":
                    vlx = True
            elif name == "avx512f":
                avx512 = False
                vlx = False
            elif name == "avx512vl":
                vlx = False
    if not avx512 or evex512 is False:
        return False
    prefer = _int_attr(fn, "prefer-vector-width", 512)
    required = _int_attr(fn, "min-legal-vector-width", _UNLIMITED)
    can_extend_to_512dq = not vlx or prefer >= 512
    return can_extend_to_512dq or required > 256


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
