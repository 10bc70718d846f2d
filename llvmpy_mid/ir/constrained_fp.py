"""The metadata arguments of constrained floating-point intrinsics
(``llvm.experimental.constrained.*``), as LLVM's ``ConstrainedFPIntrinsic``
reads them (IR/IntrinsicInst.cpp): the exception behaviour is the last
argument, the rounding mode the one before it, each an ``MDString``
(``fpexcept.*`` / ``round.*``); None when the argument is not one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.metadata import MDString, MetadataAsValue

if TYPE_CHECKING:
    from llvmpy_mid.ir.instructions.calls import CallBase

__all__ = ["constrained_exception_behavior", "constrained_fp_args", "constrained_rounding_mode"]


def _md_string_arg(call: CallBase, index: int, prefix: str) -> str | None:
    if index < 0:
        return None
    arg = call.get_arg(index)
    if not isinstance(arg, MetadataAsValue):
        return None
    md = arg.metadata
    if not isinstance(md, MDString) or not md.string.startswith(prefix):
        return None
    return md.string


def constrained_exception_behavior(call: CallBase) -> str | None:
    """LLVM ``ConstrainedFPIntrinsic::getExceptionBehavior``: ``fpexcept.ignore``,
    ``fpexcept.maytrap``, ``fpexcept.strict`` or None."""
    return _md_string_arg(call, call.num_args - 1, "fpexcept.")


def constrained_rounding_mode(call: CallBase) -> str | None:
    """LLVM ``ConstrainedFPIntrinsic::getRoundingMode``: ``round.*`` or None (also for
    the intrinsics that take no rounding mode)."""
    return _md_string_arg(call, call.num_args - 2, "round.")


def constrained_fp_args(call: CallBase) -> tuple[str | None, str | None]:
    """``(rounding mode, exception behaviour)`` of a constrained intrinsic call."""
    return constrained_rounding_mode(call), constrained_exception_behavior(call)
