"""Rules on calls of the vector-predicated intrinsics (LLVM 19's ``Verifier::visitVPIntrinsic``).

* the casts (``llvm.vp.trunc``, ``zext``, ``sext``, ``fptoui``, ``fptosi``, ``lrint``,
  ``llrint``, ``uitofp``, ``sitofp``, ``fptrunc``, ``fpext``, ``ptrtoint``, ``inttoptr``): the
  result has as many lanes as the first argument, and element kinds and widths as the cast
  needs;
* ``llvm.vp.fcmp`` / ``llvm.vp.icmp``: the predicate (a metadata string) is one of the
  comparison's own;
* ``llvm.vp.is.fpclass``: the test mask uses only the ten class bits.

Each rule reports its first finding, as LLVM's ``Check`` returns from the visitor. The table
:data:`VP_CHECKS` joins ``intrinsic_checks``' per-intrinsic rules.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.metadata import MDString, MetadataAsValue
from llvmpy_mid.ir.type_queries import primitive_size_in_bits
from llvmpy_mid.ir.types import Type
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.intrinsic_checks import element_count, int_arg

_FP_PREDICATES = frozenset(
    ("oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une")
)
_INT_PREDICATES = frozenset(("eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"))
_FC_ALL_FLAGS = 0x3FF


def _is_int(ty: Type) -> bool:
    return ty.scalar_type.is_integer


def _is_fp(ty: Type) -> bool:
    return ty.scalar_type.is_floating_point


def _is_ptr(ty: Type) -> bool:
    return ty.scalar_type.is_pointer


def _bits(ty: Type) -> int:
    return primitive_size_in_bits(ty.scalar_type)[0]


_Kind = Callable[[Type], bool]
# cast -> (result element kind, argument element kind, message, width rule, width message)
_CASTS: dict[str, tuple[_Kind, _Kind, str, int, str]] = {}


def _cast(names: tuple[str, ...], ret: _Kind, val: _Kind, message: str, width: int = 0, width_message: str = "") -> None:
    for name in names:
        _CASTS["llvm.vp." + name] = (ret, val, message, width, width_message)


_cast(
    ("trunc",),
    _is_int,
    _is_int,
    "llvm.vp.trunc intrinsic first argument and result element type must be integer",
    -1,
    "llvm.vp.trunc intrinsic the bit size of first argument must be larger than the bit size of the return type",
)
_cast(
    ("zext", "sext"),
    _is_int,
    _is_int,
    "llvm.vp.zext or llvm.vp.sext intrinsic first argument and result element type must be integer",
    1,
    "llvm.vp.zext or llvm.vp.sext intrinsic the bit size of first argument must be smaller than the bit size of "
    "the return type",
)
_cast(
    ("fptoui", "fptosi", "lrint", "llrint"),
    _is_int,
    _is_fp,
    # LLVM 19's wording, with no space between "llrint" and "intrinsic".
    "llvm.vp.fptoui, llvm.vp.fptosi, llvm.vp.lrint or llvm.vp.llrintintrinsic first argument element type must be "
    "floating-point and result element type must be integer",
)
_cast(
    ("uitofp", "sitofp"),
    _is_fp,
    _is_int,
    "llvm.vp.uitofp or llvm.vp.sitofp intrinsic first argument element type must be integer and result element "
    "type must be floating-point",
)
_cast(
    ("fptrunc",),
    _is_fp,
    _is_fp,
    "llvm.vp.fptrunc intrinsic first argument and result element type must be floating-point",
    -1,
    "llvm.vp.fptrunc intrinsic the bit size of first argument must be larger than the bit size of the return type",
)
_cast(
    ("fpext",),
    _is_fp,
    _is_fp,
    "llvm.vp.fpext intrinsic first argument and result element type must be floating-point",
    1,
    "llvm.vp.fpext intrinsic the bit size of first argument must be smaller than the bit size of the return type",
)
_cast(
    ("ptrtoint",),
    _is_int,
    _is_ptr,
    "llvm.vp.ptrtoint intrinsic first argument element type must be pointer and result element type must be integer",
)
_cast(
    ("inttoptr",),
    _is_ptr,
    _is_int,
    "llvm.vp.inttoptr intrinsic first argument element type must be integer and result element type must be pointer",
)


def _vp_cast(c: Checker, call: CallBase) -> None:
    callee = call.called_function
    if callee is None or not call.num_args:
        return
    from llvmpy_mid.ir.verifier.intrinsic_signatures import intrinsic_base

    found = intrinsic_base(callee.name)
    rule = _CASTS.get(found[0]) if found is not None else None
    if rule is None:
        return
    ret_ty = call.type
    val_ty = call.get_arg(0).type
    ret_lanes, val_lanes = element_count(ret_ty), element_count(val_ty)
    if ret_lanes is None or val_lanes is None:
        return  # the signature check reports these
    if ret_lanes != val_lanes:
        c.fail("VP cast intrinsic first argument and result vector lengths must be equal", call)
        return
    ret_kind, val_kind, message, width, width_message = rule
    if not (ret_kind(ret_ty) and val_kind(val_ty)):
        c.fail(message, call)
        return
    if width < 0 and not _bits(ret_ty) < _bits(val_ty):
        c.fail(width_message, call)
    elif width > 0 and not _bits(ret_ty) > _bits(val_ty):
        c.fail(width_message, call)


def _predicate(call: CallBase) -> str | None:
    arg = call.get_arg(2) if call.num_args > 2 else None
    md = arg.metadata if isinstance(arg, MetadataAsValue) else None
    return md.string if isinstance(md, MDString) else None


def _vp_fcmp(c: Checker, call: CallBase) -> None:
    if _predicate(call) not in _FP_PREDICATES:
        c.fail("invalid predicate for VP FP comparison intrinsic", call)


def _vp_icmp(c: Checker, call: CallBase) -> None:
    if _predicate(call) not in _INT_PREDICATES:
        c.fail("invalid predicate for VP integer comparison intrinsic", call)


def _vp_is_fpclass(c: Checker, call: CallBase) -> None:
    mask = int_arg(call, 1)
    if mask is not None and (mask.value & 0xFFFFFFFF) & ~_FC_ALL_FLAGS:
        c.fail("unsupported bits for llvm.vp.is.fpclass test mask")


VP_CHECKS: dict[str, Callable[[Checker, CallBase], None]] = {
    **{name: _vp_cast for name in _CASTS},
    "llvm.vp.fcmp": _vp_fcmp,
    "llvm.vp.icmp": _vp_icmp,
    "llvm.vp.is.fpclass": _vp_is_fpclass,
}

__all__ = ["VP_CHECKS"]
