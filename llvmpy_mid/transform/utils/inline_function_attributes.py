"""Attributes of inlined code (LLVM InlineFunction.cpp: ``AddReturnAttributes``,
``AddParamAndFnBasicAttributes``; ``AttributeFuncs::mergeAttributesForInlining``
of lib/IR/Attributes.cpp with the merge rules of include/llvm/IR/Attributes.td).

Return attributes: the call site's ``dereferenceable(_or_null)``, ``noalias`` and
``noundef`` (UB-generating) and ``nonnull``, ``align`` and ``range``
(poison-generating) go to an inlined call whose result the callee returns from the
same block with nothing that may throw or exit in between (a window of
``-max-inst-checked-for-throw-during-inlining`` instructions); the poison-generating
ones only when the call site is ``noundef`` or the inner result has one use and is
not ``noundef``. Parameter attributes: the call site's ``readnone``/``readonly`` on
an argument reach the inner calls' arguments based on it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.instructions.terminators import ReturnInst

if TYPE_CHECKING:
    from llvmpy_mid.transform.utils.clone_function import ClonedCodeInfo, TrackingValueMap

__all__ = ["add_param_and_fn_basic_attributes", "add_return_attributes", "merge_attributes_for_inlining"]




def _is_simplified(info: ClonedCodeInfo, old: object, new: object) -> bool:
    return info.orig_vmap.get(old) is not new  # type: ignore[call-overload]


def _may_throw_or_exit_after(call: CallBase, ret: ReturnInst) -> bool:
    """LLVM ``MayContainThrowingOrExitingCallAfterCB``."""
    from llvmpy_mid.analysis.poison_tracking import is_guaranteed_to_transfer_execution_to_successor

    from llvmpy_mid.passes.options import OPTIONS

    limit = int(OPTIONS.value("max-inst-checked-for-throw-during-inlining")) + 1
    inst = call.next_instruction
    while inst is not None and inst is not ret:
        limit -= 1
        if limit < 0:
            return True
        if not is_guaranteed_to_transfer_execution_to_successor(inst):
            return True
        inst = inst.next_instruction
    return False


def add_return_attributes(call: CallBase, vmap: TrackingValueMap, info: ClonedCodeInfo) -> None:
    # The call site's return attributes, else the callee's (LLVM's CallBase getters).
    ret = call.attributes.ret_attrs
    callee_fn = call.called_function
    fn_ret = callee_fn.attributes.ret_attrs if callee_fn is not None else ret
    valid_ub: dict[str, Attribute] = {}
    deref = max(ret.dereferenceable_bytes, fn_ret.dereferenceable_bytes)
    if deref:
        valid_ub["dereferenceable"] = Attribute.dereferenceable(deref)
    deref_or_null = max(ret.dereferenceable_or_null_bytes, fn_ret.dereferenceable_or_null_bytes)
    if deref_or_null:
        valid_ub["dereferenceable_or_null"] = Attribute.dereferenceable_or_null(deref_or_null)
    for kind in ("noalias", "noundef"):
        if call.has_ret_attr(kind):
            valid_ub[kind] = Attribute.enum(kind)
    valid_pg: dict[str, Attribute] = {}
    if call.has_ret_attr("nonnull"):
        valid_pg["nonnull"] = Attribute.enum("nonnull")
    align = ret.alignment if ret.alignment is not None else fn_ret.alignment
    if align is not None:
        valid_pg["align"] = Attribute.alignment(align)
    rng = ret.get("range") or fn_ret.get("range")
    if rng is not None:
        valid_pg["range"] = rng
    if not valid_ub and not valid_pg:
        return
    callee = call.called_function
    assert callee is not None
    site_noundef = call.has_ret_attr("noundef")
    for bb in callee.blocks:
        ri = bb.terminator
        if not isinstance(ri, ReturnInst):
            continue
        rv = ri.return_value
        if not isinstance(rv, CallBase):
            continue
        new_rv = vmap.get(rv)
        if not isinstance(new_rv, CallBase):
            continue
        if _is_simplified(info, rv, new_rv):
            continue
        if rv.parent is not bb or _may_throw_or_exit_after(rv, ri):
            continue
        al = new_rv.attributes
        old_ret = al.ret_attrs
        ub = dict(valid_ub)
        if ub.get("dereferenceable") is not None and ub["dereferenceable"].int_value < old_ret.dereferenceable_bytes:
            del ub["dereferenceable"]
        if (
            ub.get("dereferenceable_or_null") is not None
            and ub["dereferenceable_or_null"].int_value < old_ret.dereferenceable_or_null_bytes
        ):
            del ub["dereferenceable_or_null"]
        new_al = al.merge_ret_attrs(ub.values())
        pg = dict(valid_pg)
        if "align" in pg and (align or 1) < (old_ret.alignment or 1):
            del pg["align"]
        if pg:
            if "range" in pg:
                inner = old_ret.get("range")
                if inner is not None:
                    pg["range"] = _intersect_ranges(pg["range"], inner)
            if site_noundef or (rv.has_one_use and not rv.attributes.ret_attrs.has("noundef")):
                new_al = new_al.merge_ret_attrs(pg.values())
        new_rv.attributes = new_al


def _intersect_ranges(a: Attribute, b: Attribute) -> Attribute:
    from llvmpy_mid.analysis.constant_range import ConstantRange

    ty = a.range_type
    ra = ConstantRange(ty.width, a.range_lower, a.range_upper)
    rb = ConstantRange(ty.width, b.range_lower, b.range_upper)
    r = ra.intersect_with(rb)
    return Attribute.range(ty, r.lower, r.upper, allow_full_or_empty=True)


def add_param_and_fn_basic_attributes(call: CallBase, vmap: TrackingValueMap, info: ClonedCodeInfo) -> None:
    from llvmpy_mid.analysis.underlying_objects import get_underlying_object
    from llvmpy_mid.ir.function import Argument

    valid: list[list[str]] = []
    any_attr = False
    for i in range(len(call.args)):
        kinds: list[str] = []
        if call.param_has_attr(i, "readnone"):
            kinds.append("readnone")
        if call.param_has_attr(i, "readonly"):
            kinds.append("readonly")
        any_attr = any_attr or bool(kinds)
        valid.append(kinds)
    if not any_attr:
        return
    callee = call.called_function
    assert callee is not None
    for bb in callee.blocks:
        for inst in bb.instructions:
            if not isinstance(inst, CallBase):
                continue
            new_cb = vmap.get(inst)
            if not isinstance(new_cb, CallBase):
                continue
            if _is_simplified(info, inst, new_cb):
                continue
            al = new_cb.attributes
            for i, arg in enumerate(inst.args):
                under = get_underlying_object(arg)
                if not isinstance(under, Argument):
                    continue
                if new_cb.param_has_attr(i, "byval"):
                    continue
                kinds = valid[under.arg_no] if under.arg_no < len(valid) else []
                al = al.merge_param_attrs(i, [Attribute.enum(k) for k in kinds])
                if al.has_param_attr(i, "readonly") and al.has_param_attr(i, "writeonly"):
                    al = al.with_param_attr(i, Attribute.enum("readnone"))
                if al.has_param_attr(i, "readnone"):
                    al = al.without_param_attr(i, "readonly").without_param_attr(i, "writeonly")
                if al.has_param_attr(i, "readonly") or al.has_param_attr(i, "readnone"):
                    al = al.without_param_attr(i, "writable")
            new_cb.attributes = al


# --- AttributeFuncs::mergeAttributesForInlining --------------------------------------------------

_STR_AND = ("less-precise-fpmad", "no-infs-fp-math", "no-nans-fp-math", "approx-func-fp-math",
            "no-signed-zeros-fp-math", "unsafe-fp-math")
_STR_OR = ("no-jump-tables", "profile-sample-accurate")
_ENUM_OR = ("noimplicitfloat", "speculative_load_hardening")


def _str_is_set(fn: Function, key: str) -> bool:
    return fn.attributes.fn_attrs.string_value(key) == "true"


def _add_fn(fn: Function, attr: Attribute) -> None:
    fn.attributes = fn.attributes.with_fn_attr(attr)


def _remove_fn(fn: Function, kind: str) -> None:
    fn.attributes = fn.attributes.without_fn_attr(kind)


def _string_int(fn: Function, key: str) -> int | None:
    value = fn.attributes.fn_attrs.string_value(key)
    if value is None:
        return None
    try:
        return int(value, 0)
    except ValueError:
        return 0


def merge_attributes_for_inlining(caller: Function, callee: Function) -> None:
    """LLVM ``AttributeFuncs::mergeAttributesForInlining``."""
    for key in _STR_AND:
        if _str_is_set(caller, key) and not _str_is_set(callee, key):
            _add_fn(caller, Attribute.string(key, "false"))
    for key in _STR_OR:
        if not _str_is_set(caller, key) and _str_is_set(callee, key):
            _add_fn(caller, Attribute.string(key, "true"))
    for kind in _ENUM_OR:
        if not caller.has_fn_attribute(kind) and callee.has_fn_attribute(kind):
            _add_fn(caller, Attribute.enum(kind))
    # Stack protector level.
    if any(caller.has_fn_attribute(k) for k in ("ssp", "sspstrong", "sspreq")):
        if callee.has_fn_attribute("sspreq"):
            for k in ("ssp", "sspstrong", "sspreq"):
                _remove_fn(caller, k)
            _add_fn(caller, Attribute.enum("sspreq"))
        elif callee.has_fn_attribute("sspstrong") and not caller.has_fn_attribute("sspreq"):
            for k in ("ssp", "sspstrong", "sspreq"):
                _remove_fn(caller, k)
            _add_fn(caller, Attribute.enum("sspstrong"))
        elif (
            callee.has_fn_attribute("ssp")
            and not caller.has_fn_attribute("sspreq")
            and not caller.has_fn_attribute("sspstrong")
        ):
            _add_fn(caller, Attribute.enum("ssp"))
    probe = callee.attributes.fn_attrs.get_string("probe-stack")
    if caller.attributes.fn_attrs.get_string("probe-stack") is None and probe is not None:
        _add_fn(caller, probe)
    callee_size = callee.attributes.fn_attrs.get_string("stack-probe-size")
    if callee_size is not None:
        caller_size = _string_int(caller, "stack-probe-size")
        if caller_size is None or caller_size > (_string_int(callee, "stack-probe-size") or 0):
            _add_fn(caller, callee_size)
    caller_width = _string_int(caller, "min-legal-vector-width")
    if caller_width is not None:
        callee_attr = callee.attributes.fn_attrs.get_string("min-legal-vector-width")
        if callee_attr is not None:
            if caller_width < (_string_int(callee, "min-legal-vector-width") or 0):
                _add_fn(caller, callee_attr)
        else:
            _remove_fn(caller, "min-legal-vector-width")
    if callee.has_fn_attribute("null_pointer_is_valid") and not caller.has_fn_attribute("null_pointer_is_valid"):
        _add_fn(caller, Attribute.enum("null_pointer_is_valid"))
    if caller.has_fn_attribute("mustprogress") and not callee.has_fn_attribute("mustprogress"):
        _remove_fn(caller, "mustprogress")
