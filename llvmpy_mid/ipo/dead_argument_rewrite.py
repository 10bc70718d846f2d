"""The rewrites of dead argument elimination (LLVM's
lib/Transforms/IPO/DeadArgumentElimination.cpp, ``deleteDeadVarargs`` and
``removeDeadStuffFromFunction``): a function is replaced by a new one with a
smaller signature, inserted before it, taking its name, attributes, comdat,
metadata and body; each call is rebuilt for the new signature.

* Dropped arguments become ``poison`` inside the body; call sites drop them and
  their attributes (``allocsize`` goes from the function and calls, since its
  indices may no longer hold).
* Dropped return values: the function returns the live elements only (a
  literal struct of several, the bare element for one, ``void`` for none); its
  ``ret``s extract and repack them (``oldret``/``newret``), and each caller
  rebuilds the old aggregate from the new result with ``insertvalue`` (after an
  ``invoke``, on a new block split off its normal edge). A function with a live
  ``returned`` argument keeps its return type.
* A rebuilt function with ``!dbg`` gets ``cc: DW_CC_nocall`` on its subroutine type.
"""

from __future__ import annotations

from typing import Sequence, cast

from llvmpy_mid.ir.attribute_list import AttributeList
from llvmpy_mid.ir.attributes import AttributeSet
from llvmpy_mid.analysis.address_taken import has_address_taken
from llvmpy_mid.ir.constants import PoisonValue
from llvmpy_mid.ir.dead_constants import remove_dead_constant_users
from llvmpy_mid.ir.debug_info import DINode
from llvmpy_mid.ir.debug_info_tables import DIEnum
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.terminators import InvokeInst, ReturnInst
from llvmpy_mid.ir.instructions.vector import ExtractValueInst, InsertValueInst
from llvmpy_mid.ir.metadata import DISTINCT
from llvmpy_mid.ir.types import ArrayType, FunctionType, StructType, Type, TypeID
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier.attribute_compat import type_incompatible
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.basic_block_utils import split_edge

NUM_ARGUMENTS_ELIMINATED = Statistic("deadargelim", "NumArgumentsEliminated", "Number of unread args removed")
NUM_RET_VALS_ELIMINATED = Statistic("deadargelim", "NumRetValsEliminated", "Number of unused return values removed")


def num_ret_vals(fn: Function) -> int:
    """0 for void, the element count of a returned struct or array, else 1."""
    ty = fn.return_type
    if ty.type_id is TypeID.VOID:
        return 0
    if isinstance(ty, StructType):
        return len(ty.elements)
    if isinstance(ty, ArrayType):
        return ty.count
    return 1


def ret_component_type(fn: Function, idx: int) -> Type:
    """The type of return value ``idx`` (what ``extractvalue`` at that index gives)."""
    ty = fn.return_type
    if isinstance(ty, StructType):
        return ty.elements[idx]
    if isinstance(ty, ArrayType):
        return ty.element_type
    return ty


# --- small IR helpers -------------------------------------------------------------------------------
def _insert_adopting(inst: Instruction, pos: Instruction) -> None:
    """Insert ``inst`` before ``pos``; the debug records before ``pos`` now
    precede ``inst`` (LLVM's insertion at an instruction's iterator)."""
    inst.insert_before(pos)
    for rec in pos.take_dbg_records():
        inst.add_dbg_record(rec)


def _put_before(inst: Instruction, pos: Instruction, name: str = "") -> Instruction:
    """Insert as an ``IRBuilder`` positioned at ``pos`` would: named, with ``pos``'s location."""
    loc = pos.stable_debug_loc
    if loc is not None:
        inst.debug_loc = loc
    _insert_adopting(inst, pos)
    if name:
        inst.set_name(name)
    return inst


def _is_x86_mmx(ty: Type) -> bool:
    return str(ty) == "x86_mmx"


def _replace_with_poison(value: Value) -> None:
    if not _is_x86_mmx(value.type):
        value.replace_all_uses_with(PoisonValue.get(value.type))


def _new_function_like(fn: Function, fty: FunctionType) -> Function:
    """A body-less copy of ``fn`` with type ``fty``, placed before it and holding its name."""
    module = fn.parent
    assert module is not None
    nf = Function(fty, "", fn.linkage, address_space=fn.address_space)
    nf.copy_attributes_from(fn)
    nf.comdat = fn.comdat
    module.functions.insert_before(nf, fn)
    nf.take_name(fn)
    return nf


def _move_body(fn: Function, nf: Function) -> None:
    for bb in list(fn.blocks):
        fn.blocks.remove(bb)
        nf.blocks.append(bb)


def _copy_call_metadata(new: CallBase, old: CallBase) -> None:
    prof = old.get_metadata("prof")
    if prof is not None:
        new.set_metadata("prof", prof)
    loc = old.debug_loc
    if loc is not None:
        new.debug_loc = loc


def _remove_kinds(attrs: AttributeSet, kinds: Sequence[object]) -> AttributeSet:
    present = [k for k in kinds if attrs.has(k)]  # type: ignore[arg-type]
    return attrs.remove_all(present) if present else attrs  # type: ignore[arg-type]


# --- deleteDeadVarargs -------------------------------------------------------------------------------
def delete_dead_varargs(fn: Function) -> bool:
    """Drop the ``...`` of a local variadic definition that never reads it."""
    if fn.is_declaration or not fn.has_local_linkage:
        return False
    if has_address_taken(fn) or fn.has_fn_attribute("naked"):
        return False
    for bb in fn.blocks:
        for inst in bb.instructions:
            if not isinstance(inst, CallInst):
                continue
            if inst.is_must_tail_call:
                return False
            callee = inst.called_function
            if callee is not None and callee.name.startswith("llvm.va_start"):
                return False
    fty = fn.function_type
    params = list(fty.params)
    nfty = fty.context.function_type(fty.return_type, params, False)
    num_args = len(params)
    nf = _new_function_like(fn, nfty)

    for user in list(fn.users):
        if not isinstance(user, CallBase):
            continue
        cb = user
        args = cb.args[:num_args]
        pal = cb.attributes
        if pal:
            pal = AttributeList(pal.fn_attrs, pal.ret_attrs, [pal.param_attrs(i) for i in range(num_args)])
        bundles = cb.operand_bundles
        new_cb: CallBase
        if isinstance(cb, InvokeInst):
            new_cb = InvokeInst(nfty, nf, cb.normal_dest, cb.unwind_dest, args, bundles=bundles)
        else:
            new_cb = CallInst(nfty, nf, args, bundles=bundles, tail_call_kind=cast(CallInst, cb).tail_call_kind)
        _insert_adopting(new_cb, cb)
        new_cb.calling_conv = cb.calling_conv
        new_cb.attributes = pal
        _copy_call_metadata(new_cb, cb)
        if not cb.use_empty:
            cb.replace_all_uses_with(new_cb)
        new_cb.take_name(cb)
        cb.erase_from_parent()

    _move_body(fn, nf)
    for old_arg, new_arg in zip(fn.args, nf.args):
        old_arg.replace_all_uses_with(new_arg)
        new_arg.take_name(old_arg)
    for kind, node in fn.metadata_items():
        nf.add_metadata(kind, node)
    fn.replace_all_uses_with(nf)
    remove_dead_constant_users(nf)
    fn.erase_from_parent()
    return True


# --- removeDeadStuffFromFunction ---------------------------------------------------------------------
def rewrite_function(fn: Function, arg_alive: Sequence[bool], ret_alive: Sequence[bool]) -> bool:
    """Rebuild ``fn`` without its dead arguments and return values; False when
    the signature would not change."""
    fty = fn.function_type
    ctx = fty.context
    pal = fn.attributes
    params: list[Type] = []
    arg_attrs: list[AttributeSet] = []
    has_live_returned_arg = False
    for i, arg in enumerate(fn.args):
        if arg_alive[i]:
            params.append(arg.type)
            arg_attrs.append(pal.param_attrs(i))
            has_live_returned_arg |= pal.has_param_attr(i, "returned")
        else:
            NUM_ARGUMENTS_ELIMINATED.add()

    ret_ty = fty.return_type
    ret_count = num_ret_vals(fn)
    new_ret_idxs = [-1] * ret_count
    ret_types: list[Type] = []
    if ret_ty.type_id is TypeID.VOID or has_live_returned_arg:
        nret_ty = ret_ty
    else:
        for ri in range(ret_count):
            if ret_alive[ri]:
                ret_types.append(ret_component_type(fn, ri))
                new_ret_idxs[ri] = len(ret_types) - 1
            else:
                NUM_RET_VALS_ELIMINATED.add()
        if len(ret_types) > 1:
            if isinstance(ret_ty, StructType):
                nret_ty = ctx.struct_type(ret_types, ret_ty.packed)
            else:
                nret_ty = ctx.array_type(ret_types[0], len(ret_types))
        elif len(ret_types) == 1:
            nret_ty = ret_types[0]
        else:
            nret_ty = ctx.void

    ret_attrs = pal.ret_attrs
    if nret_ty.type_id is TypeID.VOID:
        ret_attrs = _remove_kinds(ret_attrs, type_incompatible(nret_ty))
    fn_attrs = _remove_kinds(pal.fn_attrs, ("allocsize",))
    new_pal = AttributeList(fn_attrs, ret_attrs, arg_attrs)
    nfty = ctx.function_type(nret_ty, params, fty.is_vararg)
    if nfty is fty:
        return False

    nf = _new_function_like(fn, nfty)
    nf.attributes = new_pal
    incompatible = type_incompatible(nret_ty)
    num_params = len(fty.params)
    for use in list(fn.uses):  # LLVM takes user_back(), the most recent use, first
        cb = use.user
        assert isinstance(cb, CallBase)
        _rewrite_call(
            cb, nf, nfty, ret_ty, nret_ty, arg_alive, num_params, incompatible, new_ret_idxs, len(ret_types)
        )

    _move_body(fn, nf)
    new_args = iter(nf.args)
    for i, arg in enumerate(fn.args):
        if arg_alive[i]:
            new_arg = next(new_args)
            arg.replace_all_uses_with(new_arg)
            new_arg.take_name(arg)
        else:
            _replace_with_poison(arg)

    if fn.return_type is not nf.return_type:
        for bb in nf.blocks:
            term = bb.instructions._last
            if isinstance(term, ReturnInst):
                _rewrite_return(term, nret_ty, ret_count, new_ret_idxs, len(ret_types))

    for kind, node in fn.metadata_items():
        nf.add_metadata(kind, node)
    _mark_subprogram_nocall(nf)
    fn.erase_from_parent()
    return True


def _rewrite_call(
    cb: CallBase,
    nf: Function,
    nfty: FunctionType,
    ret_ty: Type,
    nret_ty: Type,
    arg_alive: Sequence[bool],
    num_params: int,
    incompatible: Sequence[object],
    new_ret_idxs: Sequence[int],
    num_ret_types: int,
) -> None:
    call_pal = cb.attributes
    ret_attrs = _remove_kinds(call_pal.ret_attrs, incompatible)
    args: list[Value] = []
    arg_attrs: list[AttributeSet] = []
    all_args = cb.args
    for pi in range(num_params):
        if arg_alive[pi]:
            args.append(all_args[pi])
            attrs = call_pal.param_attrs(pi)
            if nret_ty is not ret_ty and attrs.has("returned"):
                attrs = attrs.remove("returned")
            arg_attrs.append(attrs)
    for pi in range(num_params, len(all_args)):
        args.append(all_args[pi])
        arg_attrs.append(call_pal.param_attrs(pi))
    fn_attrs = _remove_kinds(call_pal.fn_attrs, ("allocsize",))
    new_call_pal = AttributeList(fn_attrs, ret_attrs, arg_attrs)
    bundles = cb.operand_bundles
    new_cb: CallBase
    if isinstance(cb, InvokeInst):
        new_cb = InvokeInst(nfty, nf, cb.normal_dest, cb.unwind_dest, args, bundles=bundles)
        bb = cb.parent
        assert bb is not None
        new_cb.insert_into(bb)
    else:
        new_cb = CallInst(nfty, nf, args, bundles=bundles, tail_call_kind=cast(CallInst, cb).tail_call_kind)
        _insert_adopting(new_cb, cb)
    new_cb.calling_conv = cb.calling_conv
    new_cb.attributes = new_call_pal
    _copy_call_metadata(new_cb, cb)

    if not cb.use_empty or cb.context.value_metadata.get(cb) is not None:
        if new_cb.type is cb.type:
            cb.replace_all_uses_with(new_cb)
            new_cb.take_name(cb)
        elif new_cb.type.type_id is TypeID.VOID:
            _replace_with_poison(cb)
        else:
            insert_pt: Instruction = cb
            if isinstance(new_cb, InvokeInst):
                parent = new_cb.parent
                assert parent is not None
                new_edge = split_edge(parent, new_cb.normal_dest)
                assert new_edge is not None
                first = new_edge.first_insertion_point
                assert first is not None
                insert_pt = first
            ret_val: Value = PoisonValue.get(ret_ty)
            for ri, new_idx in enumerate(new_ret_idxs):
                if new_idx == -1:
                    continue
                value: Value = new_cb
                if num_ret_types > 1:
                    value = _put_before(ExtractValueInst(new_cb, [new_idx]), insert_pt, "newret")
                ret_val = _put_before(InsertValueInst(ret_val, value, [ri]), insert_pt, "oldret")
            cb.replace_all_uses_with(ret_val)
            new_cb.take_name(cb)
    cb.erase_from_parent()


def _rewrite_return(
    ret: ReturnInst, nret_ty: Type, ret_count: int, new_ret_idxs: Sequence[int], num_ret_types: int
) -> None:
    ret_val: Value | None = None
    if nret_ty.type_id is not TypeID.VOID:
        old_ret = ret.get_operand(0)
        ret_val = PoisonValue.get(nret_ty)
        for ri in range(ret_count):
            new_idx = new_ret_idxs[ri]
            if new_idx == -1:
                continue
            ev = _put_before(ExtractValueInst(old_ret, [ri]), ret, "oldret")
            if num_ret_types > 1:
                ret_val = _put_before(InsertValueInst(ret_val, ev, [new_idx]), ret, "newret")
            else:
                ret_val = ev
    new_ret = ReturnInst(ret.context, ret_val)
    _insert_adopting(new_ret, ret)
    loc = ret.debug_loc
    if loc is not None:
        new_ret.debug_loc = loc
    ret.erase_from_parent()


def _mark_subprogram_nocall(nf: Function) -> None:
    """``cc: DW_CC_nocall`` on the subroutine type of ``nf``'s subprogram."""
    sp = nf.get_metadata("dbg")
    if not isinstance(sp, DINode) or sp.kind != "DISubprogram":
        return
    sub_ty = sp.get_field("type")
    if not isinstance(sub_ty, DINode):
        return
    fields = dict(sub_ty.field_items())
    fields["cc"] = DIEnum.of("DW_CC_nocall")
    if sub_ty._storage == DISTINCT:
        new_ty = DINode.distinct(nf.context, sub_ty.kind, fields)
    else:
        new_ty = DINode.get(nf.context, sub_ty.kind, fields)
    sp.set_field("type", new_ty)  # type: ignore[attr-defined]


__all__ = [
    "NUM_ARGUMENTS_ELIMINATED",
    "NUM_RET_VALS_ELIMINATED",
    "delete_dead_varargs",
    "num_ret_vals",
    "ret_component_type",
    "rewrite_function",
]
