"""The Attributor's pointer attributes (LLVM 19.1.7
``lib/Transforms/IPO/AttributorAttributes.cpp``: ``AANoCapture`` and ``AANonNull``).

``AANoCapture`` holds three bits: not captured in memory, in an integer, through the
return value. Each use of the pointer is classified like capture tracking does
(``DetermineUseCaptureKind``); a use as a call site argument asks that argument's
``nocapture`` (or follows the call's result when the argument may only be returned). A
read-only function cannot capture in memory, a ``nounwind`` function returning nothing
not through its return. ``nocapture`` is manifested on arguments and call site arguments.

``AANonNull`` is one bit: an argument is ``nonnull`` when every call site passes a
non-null value (all call sites known), a return when every returned value is, a call site
argument or other value when its value is known non-null, or when a use that must be
executed implies it (a load, a store, a ``nonnull`` call argument).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.capture_tracking import UseCaptureKind, determine_use_capture_kind
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.simplify_query import SimplifyQuery
from llvmpy_mid.ipo.attributor_aa import (
    IR_ATTR_AAS,
    ChangeStatus,
    DepClass,
    IRAttributeAA,
    IntState,
    has_assumed_ir_attr,
)
from llvmpy_mid.analysis.alias.memory_location import MemoryLocation
from llvmpy_mid.analysis.underlying_objects import get_pointer_base_with_constant_offset
from llvmpy_mid.ipo.attributor_mbec import follow_uses_in_mbec
from llvmpy_mid.ipo.attributor_position import IRPosition, PositionKind
from llvmpy_mid.ir.constants import ConstantPointerNull, UndefValue
from llvmpy_mid.ir.function import Function, null_pointer_is_defined
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.terminators import ReturnInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.value import Use, Value

if TYPE_CHECKING:
    from llvmpy_mid.ipo.attributor import Attributor

__all__ = ["AANoCapture", "AANonNull"]

NOT_CAPTURED_IN_MEM = 1
NOT_CAPTURED_IN_INT = 2
NOT_CAPTURED_IN_RET = 4
NO_CAPTURE_MAYBE_RETURNED = 3
NO_CAPTURE = 7


def _fn_only_reads_memory(fn: Function) -> bool:
    return fn.attributes.fn_attrs.memory_effects.only_reads_memory


def determine_function_capture_capabilities(pos: IRPosition, fn: Function, state: IntState) -> None:
    """``AANoCapture::determineFunctionCaptureCapabilities`` (from the IR attributes)."""
    read_only = _fn_only_reads_memory(fn)
    no_throw = fn.attributes.has_fn_attr("nounwind")
    void_return = fn.return_type.is_void
    if read_only and no_throw and void_return:
        state.add_known_bits(NO_CAPTURE)
        return
    if read_only:
        state.add_known_bits(NOT_CAPTURED_IN_MEM)
    if no_throw and void_return:
        state.add_known_bits(NOT_CAPTURED_IN_RET)
    arg_no = pos.callee_arg_no
    if not no_throw or arg_no < 0 or not fn.attributes.has_attr_somewhere("returned"):
        return
    for u in range(len(fn.args)):
        if fn.attributes.has_param_attr(u, "returned"):
            if u == arg_no:
                state.remove_assumed_bits(NOT_CAPTURED_IN_RET)
            elif read_only:
                state.add_known_bits(NO_CAPTURE)
            else:
                state.add_known_bits(NOT_CAPTURED_IN_RET)
            break


class AANoCapture(IRAttributeAA):
    ID = "AANoCapture"
    IR_KIND = "nocapture"
    BEST_STATE = NO_CAPTURE

    @classmethod
    def is_valid_position_for_init(cls, a: Attributor, pos: IRPosition) -> bool:
        return pos.associated_type.is_ptr_or_ptr_vector

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        v = pos.associated_value
        if not pos.is_argument_position:
            return v.use_empty
        if isinstance(v, UndefValue) or (
            isinstance(v, ConstantPointerNull) and int(getattr(v.type, "address_space", 0)) == 0
        ):
            return True
        if a.has_attr(pos, ("nocapture",), True, "nocapture"):
            return True
        if pos.kind == PositionKind.CALL_SITE_ARGUMENT:
            arg = pos.associated_argument
            if arg is not None and a.has_attr(IRPosition.argument(arg), ("nocapture", "byval"), True):
                a.manifest_attrs(pos, [IRAttributeAA.enum_attr("nocapture")])
                return True
        fn = pos.associated_function
        if fn is not None:
            state = IntState(NO_CAPTURE)
            determine_function_capture_capabilities(pos, fn, state)
            if state.is_known(NO_CAPTURE):
                a.manifest_attrs(pos, [IRAttributeAA.enum_attr("nocapture")])
                return True
        return False

    def initialize(self, a: Attributor) -> None:
        if self.pos.kind == PositionKind.CALL_SITE_RETURNED:
            scope = self.pos.anchor_scope
            assert scope is not None
            determine_function_capture_capabilities(self.pos, scope, self.state)

    def deduced_attributes(self, a: Attributor) -> list[object]:  # type: ignore[override]
        if not self.is_assumed(NO_CAPTURE_MAYBE_RETURNED):
            return []
        if self.pos.is_argument_position and self.is_assumed(NO_CAPTURE):
            return [IRAttributeAA.enum_attr("nocapture")]
        return []

    def update_impl(self, a: Attributor) -> ChangeStatus:
        if self.pos.kind == PositionKind.CALL_SITE_ARGUMENT:
            arg = self.pos.associated_argument
            if arg is None:
                return self.indicate_pessimistic_fixpoint()
            ok, _, arg_aa = has_assumed_ir_attr(a, self, IRPosition.argument(arg), "nocapture", DepClass.REQUIRED)
            if ok:
                return ChangeStatus.UNCHANGED
            if arg_aa is None or not arg_aa.is_assumed(NO_CAPTURE_MAYBE_RETURNED):
                return self.indicate_pessimistic_fixpoint()
            return self.state.clamp(arg_aa.state)
        return self._update_uses(a)

    def _update_uses(self, a: Attributor) -> ChangeStatus:
        pos = self.pos
        v = pos.associated_argument if pos.is_argument_position else pos.associated_value
        if v is None:
            return self.indicate_pessimistic_fixpoint()
        fn = pos.associated_function if pos.is_argument_position else pos.anchor_scope
        if fn is None:
            return self.indicate_pessimistic_fixpoint()
        t = IntState(NO_CAPTURE)
        fn_pos = IRPosition.function(fn)
        from llvmpy_mid.ipo.attributor_memory import is_assumed_read_only

        ro, ro_known = is_assumed_read_only(a, fn_pos, self)
        if ro:
            t.add_known_bits(NOT_CAPTURED_IN_MEM)
            if ro_known:
                self.state.add_known_bits(NOT_CAPTURED_IN_MEM)
        nu, nu_known, _ = has_assumed_ir_attr(a, self, fn_pos, "nounwind", DepClass.OPTIONAL)
        if nu:
            # Without value simplification only a void function settles its returns.
            if fn.return_type.is_void:
                t.add_known_bits(NOT_CAPTURED_IN_RET)
                if t.is_known(NOT_CAPTURED_IN_MEM):
                    return ChangeStatus.UNCHANGED
                if nu_known:
                    self.state.add_known_bits(NOT_CAPTURED_IN_RET)
                    if self.state.is_known(NOT_CAPTURED_IN_MEM):
                        return self.indicate_optimistic_fixpoint()
        scope = pos.anchor_scope

        def use_check(use: Use) -> tuple[bool, bool]:
            kind = determine_use_capture_kind(use)
            if kind == UseCaptureKind.NO_CAPTURE:
                return True, False
            if kind == UseCaptureKind.PASSTHROUGH:
                return True, True
            return self._check_use(a, t, use, scope)

        if not a.check_for_all_uses(use_check, self, v):
            return self.indicate_pessimistic_fixpoint()
        before = self.state.assumed
        self.state.intersect_assumed_bits(t.assumed)
        if not self.is_assumed(NO_CAPTURE_MAYBE_RETURNED):
            return self.indicate_pessimistic_fixpoint()
        return self.changed_since(before)

    def _check_use(self, a: Attributor, t: IntState, use: Use, scope: Function | None) -> tuple[bool, bool]:
        user = use.user
        assert isinstance(user, Instruction)
        op = user.opcode
        if op in ("ptrtoint", "store"):
            return _captured_in(t, True, True, True), False
        if isinstance(user, ReturnInst):
            if user.function is scope:
                return _captured_in(t, False, False, True), False
            return _captured_in(t, True, True, True), False
        if not isinstance(user, CallBase) or use.index >= user.arg_size:
            return _captured_in(t, True, True, True), False
        cs_pos = IRPosition.callsite_argument(user, use.index)
        ok, _, arg_aa = has_assumed_ir_attr(a, self, cs_pos, "nocapture", DepClass.REQUIRED)
        if ok:
            return _captured_in(t, False, False, False), False
        if arg_aa is not None and arg_aa.is_assumed(NO_CAPTURE_MAYBE_RETURNED):
            return _captured_in(t, False, False, False), True
        return _captured_in(t, True, True, True), False


def _captured_in(t: IntState, in_mem: bool, in_int: bool, in_ret: bool) -> bool:
    if in_mem:
        t.remove_assumed_bits(NOT_CAPTURED_IN_MEM)
    if in_int:
        t.remove_assumed_bits(NOT_CAPTURED_IN_INT)
    if in_ret:
        t.remove_assumed_bits(NOT_CAPTURED_IN_RET)
    return t.is_assumed(NO_CAPTURE_MAYBE_RETURNED)


# --- nonnull ------------------------------------------------------------------------------------
def _address_space(pos: IRPosition) -> int:
    return int(getattr(pos.associated_type, "address_space", 0))


class AANonNull(IRAttributeAA):
    ID = "AANonNull"
    IR_KIND = "nonnull"

    @classmethod
    def is_valid_position_for_init(cls, a: Attributor, pos: IRPosition) -> bool:
        return pos.associated_type.is_ptr_or_ptr_vector

    @classmethod
    def is_implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool = False) -> bool:
        not_implied = a.caches.setdefault("nonnull-not-implied", {})
        assert isinstance(not_implied, dict)
        key = (pos, ignore_subsuming)
        if not_implied.get(key) == a.attrs_version:
            return False
        if cls._implied_by_ir(a, pos, ignore_subsuming):
            return True
        not_implied[key] = a.attrs_version
        return False

    @classmethod
    def _implied_by_ir(cls, a: Attributor, pos: IRPosition, ignore_subsuming: bool) -> bool:
        kinds: tuple[str, ...] = ("nonnull",)
        if not null_pointer_is_defined(pos.anchor_scope, _address_space(pos)):
            kinds = ("nonnull", "dereferenceable")
        if a.has_attr(pos, kinds, ignore_subsuming, "nonnull"):
            return True
        values: list[tuple[object, Instruction | None]] = []
        if pos.kind != PositionKind.RETURNED:
            values.append((pos.associated_value, pos.ctx_i))
        else:

            def collect(inst: Instruction) -> bool:
                values.append((inst.operands[0], inst))
                return True

            if not a.check_for_all_instructions(collect, pos.associated_function, ("ret",)):
                return False
        dl = a.data_layout
        if dl is None:
            return False
        dt = ac = None
        scope = pos.anchor_scope
        if a.analyses is not None and scope is not None and not scope.is_declaration:
            dt = a.analyses.dominator_tree(scope)
            ac = a.analyses.assumption_cache(scope)
        for value, ctx in values:
            assert isinstance(value, Value)
            if not is_known_non_zero(value, SimplifyQuery(dl, dt=dt, ac=ac, cxt_i=ctx)):
                return False
        a.manifest_attrs(pos, [IRAttributeAA.enum_attr("nonnull")])
        return True

    def initialize(self, a: Attributor) -> None:
        if self.pos.kind == PositionKind.RETURNED:
            return
        v = strip_pointer_casts(self.pos.associated_value)
        if isinstance(v, ConstantPointerNull):
            self.indicate_pessimistic_fixpoint()
            return
        ctx = self.pos.ctx_i
        if ctx is not None:
            self._follow_uses_in_mbec(a, ctx)

    # --- the must-be-executed context (``followUsesInMBEC``) ---------------------------------
    def _use_implies_non_null(self, a: Attributor, use: Use, user: Instruction) -> tuple[bool, bool]:
        """``getKnownNonNullAndDerefBytesForUse``: (non-null known, follow the user)."""
        used = use.value
        if not used.type.is_pointer:
            return False, False
        if user.is_cast or user.opcode == "getelementptr":
            return False, True
        fn = user.function
        null_defined = True if fn is None else null_pointer_is_defined(fn, int(getattr(used.type, "address_space", 0)))
        if isinstance(user, CallBase):
            index = use.index
            if user.is_bundle_operand(index):
                if user.intrinsic_base != "llvm.assume":
                    return False, False
                bundle = user.bundle_of_operand(index)
                start = next(info[1] for info in user.operand_bundle_ranges if info[1] <= index < info[2])
                if index != start or bundle.tag not in ("nonnull", "dereferenceable"):
                    return False, False
                return bundle.tag == "nonnull" or not null_defined, False
            if index == len(user.operands) - 1:
                return not null_defined, False
            if index >= user.arg_size:
                return False, False
            known = has_assumed_ir_attr(a, self, IRPosition.callsite_argument(user, index), "nonnull", DepClass.NONE)[1]
            return known, False
        loc = MemoryLocation.get_or_none(user)
        if loc is None or loc.ptr is not used or not loc.size.is_precise or loc.size.is_scalable or user.is_volatile:
            return False, False
        module = fn.parent if fn is not None else None
        if module is None:
            return False, False
        assoc = self.pos.associated_value
        base, _ = get_pointer_base_with_constant_offset(used, module.data_layout, False)
        if base is assoc:
            return not null_defined, False
        base, offset = get_pointer_base_with_constant_offset(used, module.data_layout, True)
        if base is assoc and offset == 0:
            return not null_defined, False
        return False, False

    def _follow_uses_in_mbec(self, a: Attributor, ctx: Instruction) -> None:
        def use_fn(use: Use, user: Instruction) -> tuple[int, bool]:
            non_null, follow = self._use_implies_non_null(a, use, user)
            return int(non_null), follow

        known = follow_uses_in_mbec(a, self.pos.associated_value, ctx, use_fn, 1, self.state.known)
        if known:
            self.state.add_known_bits(known)

    def update_impl(self, a: Attributor) -> ChangeStatus:
        kind = self.pos.kind
        if kind == PositionKind.RETURNED:
            return self._update_returned(a)
        if kind == PositionKind.ARGUMENT:
            return self._update_argument(a)
        if kind == PositionKind.CALL_SITE_RETURNED:
            from llvmpy_mid.ipo.attributor_flags import callee_to_call_site_update

            return callee_to_call_site_update(self, a)
        return self._update_floating(a)

    def _update_floating(self, a: Attributor) -> ChangeStatus:
        value = self.pos.associated_value
        op = getattr(value, "opcode", "")
        if op == "phi":
            assert isinstance(value, Instruction)
            if all(
                has_assumed_ir_attr(a, self, IRPosition.value(inc), "nonnull", DepClass.OPTIONAL)[0]
                for inc in value.operands
            ):
                return ChangeStatus.UNCHANGED
        if op == "select":
            assert isinstance(value, Instruction)
            if (
                has_assumed_ir_attr(a, self, IRPosition.value(value.operands[2]), "nonnull", DepClass.OPTIONAL)[0]
                and has_assumed_ir_attr(a, self, IRPosition.value(value.operands[1]), "nonnull", DepClass.OPTIONAL)[0]
            ):
                return ChangeStatus.UNCHANGED
        value_pos = IRPosition.value(value)
        if value_pos == self.pos or not has_assumed_ir_attr(a, self, value_pos, "nonnull", DepClass.OPTIONAL)[0]:
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED

    def _update_argument(self, a: Attributor) -> ChangeStatus:
        """``AAArgumentFromCallSiteArguments``: every call site passes a non-null value."""
        fn = self.pos.anchor_scope
        assert fn is not None
        arg_no = self.pos.callee_arg_no
        assumed = True

        def pred(call: CallBase) -> bool:
            nonlocal assumed
            if arg_no >= call.arg_size:
                return False
            ok = has_assumed_ir_attr(a, self, IRPosition.callsite_argument(call, arg_no), "nonnull", DepClass.REQUIRED)[0]
            assumed = assumed and ok
            return ok

        if not a.check_for_all_call_sites(pred, fn, True) or not assumed:
            return self.indicate_pessimistic_fixpoint()
        return ChangeStatus.UNCHANGED

    def _update_returned(self, a: Attributor) -> ChangeStatus:
        """``AAReturnedFromReturnedValues``: the returned values come from value
        simplification, which the light configuration lacks, so nothing is assumed
        beyond what the IR implies."""
        return self.indicate_pessimistic_fixpoint()


for _cls in (AANoCapture, AANonNull):
    IR_ATTR_AAS[_cls.IR_KIND] = _cls
