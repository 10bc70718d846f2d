"""The Attributor's ``nofpclass`` (LLVM 19.1.7 ``lib/Transforms/IPO/AttributorAttributes.cpp``:
``AANoFPClass``).

The state holds one bit per floating-point class (``FPClassTest``): set, the value is
assumed never of that class. It starts from what the IR states (``nofpclass`` attributes),
what the value itself shows (its known classes) and what the uses that surely run imply
(a call site argument's known classes). A floating value or call site argument takes
the state of its value's position; a call's result that of the callee's return; an
argument of an internal function what all its call sites pass. Returned values come from
value simplification, which the light configuration lacks, so a return keeps what its
attributes say.

The value's own classes come from :func:`known_never_fp_classes`, a conservative part of
LLVM's ``computeKnownFPClass``: constants (scalars, vectors, zero aggregates), the
``nofpclass`` of arguments and call results, ``nnan``/``ninf`` flags, integer to
floating-point casts and ``fneg``; anything else may be of any class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.fp_class_test import classify
from llvmpy_mid.ipo.attributor_aa import ChangeStatus, DepClass, IRAttributeAA, IntState
from llvmpy_mid.ipo.attributor_flags import clamp_from_callees
from llvmpy_mid.ipo.attributor_mbec import follow_uses_in_mbec
from llvmpy_mid.ipo.attributor_position import IRPosition, PositionKind
from llvmpy_mid.ir import apfloat
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import (
    ConstantAggregateZero,
    ConstantDataVector,
    ConstantFP,
    ConstantVector,
    UndefValue,
)
from llvmpy_mid.ir.function import Argument
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.ir.types import ArrayType, Type
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ipo.attributor import Attributor

__all__ = ["AANoFPClass", "is_no_fp_class_compatible_type", "known_never_fp_classes"]

FC_ALL = 1023
FC_NAN = 3
FC_INF = 516
FC_POS_ZERO = 64


def is_no_fp_class_compatible_type(ty: Type) -> bool:
    """``AttributeFuncs::isNoFPClassCompatibleType``."""
    while isinstance(ty, ArrayType):
        ty = ty.element_type
    return ty.is_fp_or_fp_vector


def _constant_classes(c: Value) -> int | None:
    """The classes a floating-point constant may have, None when not such a constant."""
    if isinstance(c, ConstantFP):
        sem = apfloat.semantics_of(c.type.type_id)
        return None if sem is None else classify(sem, c.bits)
    if isinstance(c, ConstantAggregateZero) and c.type.is_fp_or_fp_vector:
        return FC_POS_ZERO
    if isinstance(c, (ConstantDataVector, ConstantVector)) and c.type.is_fp_or_fp_vector:
        classes = 0
        for elt in c.elements:
            if isinstance(elt, UndefValue):
                return FC_ALL
            found = _constant_classes(elt)
            if found is None:
                return FC_ALL
            classes |= found
        return classes
    return None


_MAX_DEPTH = 6
_SWAPPED_SIGN = ((4, 512), (8, 256), (16, 128), (32, 64))
FC_POSITIVE_OR_NAN = 960 | FC_NAN
FC_SUBNORMAL = 144
FC_NEG_ZERO = 32


def _fneg_classes(classes: int) -> int:
    out = classes & FC_NAN
    for neg, pos in _SWAPPED_SIGN:
        if classes & neg:
            out |= pos
        if classes & pos:
            out |= neg
    return out


def _int_to_fp_classes(inst: Instruction) -> int:
    """``sitofp``/``uitofp``: never NaN, subnormal or -0; ``uitofp`` never negative;
    finite when the widest integer fits the format's exponent range."""
    classes = FC_ALL & ~(FC_NAN | FC_SUBNORMAL | FC_NEG_ZERO)
    if inst.opcode == "uitofp":
        classes &= FC_POSITIVE_OR_NAN
    src_ty = inst.operands[0].type
    scalar = getattr(src_ty, "element_type", src_ty)
    int_size = int(getattr(scalar, "width", 0) or 0)
    if inst.opcode == "sitofp":
        int_size -= 1
    fp_ty = inst.type
    fp_scalar = getattr(fp_ty, "element_type", fp_ty)
    sem = apfloat.semantics_of(fp_scalar.type_id)
    if sem is not None and int_size > 0:
        if sem.emax >= int_size:
            classes &= ~FC_INF
    return classes


def _flags_and_attrs_never(v: Value) -> int:
    never = 0
    if isinstance(v, CallBase):
        never |= v.attributes.ret_attrs.nofpclass
        callee = v.called_function
        if callee is not None:
            never |= callee.attributes.ret_attrs.nofpclass
    elif isinstance(v, Argument):
        never |= v.parent.attributes.param_attrs(v.arg_no).nofpclass
    if isinstance(v, Instruction):
        flags = int(getattr(v, "fast_math_flags", 0) or 0)
        if flags & FastMathFlags.NNAN:
            never |= FC_NAN
        if flags & FastMathFlags.NINF:
            never |= FC_INF
    return int(never) & FC_ALL


def _possible_classes(v: Value, depth: int) -> int:
    classes = _constant_classes(v)
    if classes is not None:
        return classes
    never = _flags_and_attrs_never(v)
    if never == FC_ALL:
        return 0
    classes = FC_ALL
    if isinstance(v, Instruction) and depth < _MAX_DEPTH:
        op = v.opcode
        if op in ("sitofp", "uitofp"):
            classes = _int_to_fp_classes(v)
        elif op == "fneg":
            classes = _fneg_classes(_possible_classes(v.operands[0], depth + 1))
    return classes & ~never


def known_never_fp_classes(v: Value) -> int:
    """The classes ``v`` is known never to have (a conservative ``computeKnownFPClass``:
    constants, ``nofpclass`` of arguments and call results, ``nnan``/``ninf``, integer to
    floating-point casts and ``fneg``)."""
    return FC_ALL & ~_possible_classes(v, 0)


class AANoFPClass(IRAttributeAA):
    ID = "AANoFPClass"
    IR_KIND = "nofpclass"
    BEST_STATE = FC_ALL
    has_trivial_initializer = False

    @classmethod
    def is_valid_position_for_init(cls, a: Attributor, pos: IRPosition) -> bool:
        return is_no_fp_class_compatible_type(pos.associated_type)

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        return False

    def initialize(self, a: Attributor) -> None:
        value = self.pos.associated_value
        if isinstance(value, UndefValue) and self.pos.kind not in (PositionKind.RETURNED, PositionKind.FUNCTION):
            self.indicate_optimistic_fixpoint()
            return
        for attr in a.get_attrs(self.pos, ("nofpclass",)):
            self.state.add_known_bits(int(attr.fp_class_mask))
        if self.pos.kind != PositionKind.RETURNED:
            self.state.add_known_bits(known_never_fp_classes(value))
        ctx = self.pos.ctx_i
        if ctx is not None:

            def use_fn(use: Use, user: Instruction) -> tuple[int, bool]:
                if not isinstance(user, CallBase) or use.index >= user.arg_size:
                    return 0, False
                cs_aa = a.get_aa_for(AANoFPClass, self, IRPosition.callsite_argument(user, use.index), DepClass.NONE)
                return (cs_aa.state.known if cs_aa is not None else 0), False

            known = follow_uses_in_mbec(a, value, ctx, use_fn, FC_ALL, self.state.known)
            if known:
                self.state.add_known_bits(known)

    def update_impl(self, a: Attributor) -> ChangeStatus:
        kind = self.pos.kind
        if kind == PositionKind.RETURNED:
            return self.indicate_pessimistic_fixpoint()
        if kind == PositionKind.ARGUMENT:
            return self._update_argument(a)
        if kind == PositionKind.CALL_SITE_RETURNED:
            return self._update_call_site_returned(a)
        value_aa = a.get_aa_for(AANoFPClass, self, IRPosition.value(self.pos.associated_value), DepClass.REQUIRED)
        if value_aa is None or value_aa is self:
            return self.indicate_pessimistic_fixpoint()
        t = IntState(FC_ALL)
        t.intersect_assumed_bits(value_aa.state.assumed)
        if not t.is_valid():
            return self.indicate_pessimistic_fixpoint()
        return self.state.clamp(t)

    def _update_argument(self, a: Attributor) -> ChangeStatus:
        """``AAArgumentFromCallSiteArguments``: meet the states of all call site arguments."""
        fn = self.pos.anchor_scope
        assert fn is not None
        arg_no = self.pos.callee_arg_no
        met: list[IntState] = []

        def pred(call: CallBase) -> bool:
            if arg_no >= call.arg_size:
                return False
            cs_aa = a.get_aa_for(AANoFPClass, self, IRPosition.callsite_argument(call, arg_no), DepClass.REQUIRED)
            if cs_aa is None:
                return False
            if not met:
                met.append(IntState(FC_ALL))
            t = met[0]
            t.known &= cs_aa.state.known
            t.assumed &= cs_aa.state.assumed
            return t.is_valid()

        if not a.check_for_all_call_sites(pred, fn, True):
            return self.indicate_pessimistic_fixpoint()
        if met:
            return self.state.clamp(met[0])
        return ChangeStatus.UNCHANGED

    def _update_call_site_returned(self, a: Attributor) -> ChangeStatus:
        return clamp_from_callees(self, a, AANoFPClass, IRPosition.returned)

    def deduced_attributes(self, a: Attributor) -> list[Attribute]:
        return [Attribute.nofpclass(self.state.assumed)]

    def manifest(self, a: Attributor) -> ChangeStatus:
        if isinstance(self.pos.associated_value, UndefValue):
            return ChangeStatus.UNCHANGED
        attrs = a.attr_set(self.pos)
        if attrs is None:
            return ChangeStatus.UNCHANGED
        old = attrs.get("nofpclass")
        if old is not None and int(old.fp_class_mask) >= self.state.assumed:
            return ChangeStatus.UNCHANGED
        return a.manifest_attrs(self.pos, self.deduced_attributes(a), True)
