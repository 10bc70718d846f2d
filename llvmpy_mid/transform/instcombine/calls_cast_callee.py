"""InstCombine's rewrite of a call whose function type is not its callee's own
(LLVM 19.1.7 ``InstCombineCalls.cpp``: ``transformConstExprCastCall``).

With opaque pointers the parser gives ``call void @c(ptr %y)`` the type built from its
arguments even when ``@c`` is ``void (...)``; :func:`transform_const_expr_cast_call` calls the
callee with its real type instead when every argument converts by a bitcast or a no-op
``ptrtoint``/``inttoptr``, the attributes allow it (``AttributeFuncs::typeIncompatible``) and
the ``thunk``/``naked``/``musttail``/``byval``/``inalloca``/``preallocated``/``swifterror``/
varargs rules of LLVM hold. Missing parameters are passed as zero, extra arguments of a varargs
callee are promoted (integers narrower than 32 bits zero-extended to ``i32``), operand bundles,
the tail-call kind, the calling convention and ``!prof`` are kept; the result is cast back after
the new call (after an ``invoke``'s normal destination's phis).

``callbr`` is left alone (LLVM asserts it never gets here: there is no single point after its
definition to cast the result at).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.ir.attribute_kinds import AttrKind
from llvmpy_mid.ir.attribute_list import AttributeList
from llvmpy_mid.ir.attributes import AttributeSet
from llvmpy_mid.ir.constants import Constant, PoisonValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import BundleLike, CallBase, CallInst
from llvmpy_mid.ir.instructions.casts import CastInst
from llvmpy_mid.ir.instructions.other import PHINode
from llvmpy_mid.ir.instructions.terminators import InvokeInst
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts
from llvmpy_mid.ir.type_queries import primitive_size_in_bits
from llvmpy_mid.ir.types import IntegerType, PointerType, Type, TypeID, VectorType
from llvmpy_mid.ir.verifier.attribute_compat import ALL_KINDS, SAFE_TO_DROP, UNSAFE_TO_DROP, type_incompatible
from llvmpy_mid.transform.instcombine.combiner import take_name

if TYPE_CHECKING:
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner

_SAFE = SAFE_TO_DROP
_UNSAFE = UNSAFE_TO_DROP
_ALL = ALL_KINDS


def _overlaps(attrs: AttributeSet, kinds: tuple[AttrKind, ...]) -> bool:
    return bool(attrs) and any(attrs.has(k) for k in kinds)


def _is_bit_castable(src: Type, dst: Type) -> bool:
    """``CastInst::isBitCastable``."""
    if not src.is_first_class or not dst.is_first_class:
        return False
    if src is dst:
        return True
    if isinstance(src, VectorType) and isinstance(dst, VectorType):
        if src.count == dst.count and src.scalable == dst.scalable:
            src = src.element_type
            dst = dst.element_type
    if isinstance(dst, PointerType) and isinstance(src, PointerType):
        return src.address_space == dst.address_space
    sb = primitive_size_in_bits(src)
    db = primitive_size_in_bits(dst)
    if sb[0] == 0 or db[0] == 0 or sb != db:
        return False
    return src.type_id is not TypeID.X86_MMX and dst.type_id is not TypeID.X86_MMX


def is_bit_or_noop_pointer_castable(src: Type, dst: Type, dl: DataLayout) -> bool:
    """``CastInst::isBitOrNoopPointerCastable``."""
    if isinstance(src, PointerType) and isinstance(dst, IntegerType):
        return dst.width == dl.pointer_type_size_in_bits(src) and not dl.is_non_integral_pointer_type(src)
    if isinstance(dst, PointerType) and isinstance(src, IntegerType):
        return src.width == dl.pointer_type_size_in_bits(dst) and not dl.is_non_integral_pointer_type(dst)
    return _is_bit_castable(src, dst)


def _bit_or_pointer_cast(ic: InstCombiner, v: Value, ty: Type) -> Value:
    """``IRBuilder::CreateBitOrPointerCast`` (folding constants)."""
    return ic.builder.create_bit_or_pointer_cast(v, ty)


def _promoted_cast_opcode(src: Type, dst: Type) -> str:
    """``CastInst::getCastOpcode(V, false, PTy, false)`` for the vararg promotion (an integer
    narrower than 32 bits to ``i32``): ``zext``."""
    assert isinstance(src, IntegerType) and isinstance(dst, IntegerType) and src.width < dst.width
    return "zext"


def transform_const_expr_cast_call(ic: InstCombiner, call: CallBase) -> bool:
    """``transformConstExprCastCall``: call the stripped callee with its own function type;
    True when ``call`` was replaced (and erased)."""
    callee = strip_pointer_casts(call.called_operand)
    if not isinstance(callee, Function):
        return False
    if call.opcode == "callbr":
        return False
    if callee.has_fn_attribute("thunk") or callee.has_fn_attribute("naked"):
        return False
    if isinstance(call, CallInst) and call.is_must_tail_call:
        return False

    dl = ic.dl
    caller_pal = call.attributes
    ft = callee.function_type
    old_ret_ty = call.type
    new_ret_ty = ft.return_type
    used = call._use_head is not None

    if old_ret_ty is not new_ret_ty:
        if new_ret_ty.type_id is TypeID.STRUCT:
            return False
        if not is_bit_or_noop_pointer_castable(new_ret_ty, old_ret_ty, dl):
            if callee.is_declaration:
                return False
            if used and not new_ret_ty.is_void:
                return False
        if caller_pal and used and _overlaps(caller_pal.ret_attrs, type_incompatible(new_ret_ty)):
            return False
        if used and isinstance(call, InvokeInst):
            normal = call.normal_dest
            use = call._use_head
            while use is not None:
                u = use.user
                if isinstance(u, PHINode) and u.parent is normal:
                    return False
                use = use._next

    args = call.args
    num_actual = len(args)
    params = ft.params
    num_params = len(params)
    num_common = min(num_params, num_actual)

    callee_pal = callee.attributes
    if callee_pal.has_attr_somewhere(AttrKind.IN_ALLOCA) or callee_pal.has_attr_somewhere(AttrKind.PREALLOCATED):
        return False

    for i in range(num_common):
        param_ty = params[i]
        if not is_bit_or_noop_pointer_castable(args[i].type, param_ty, dl):
            return False
        pattrs = caller_pal.param_attrs(i)
        if _overlaps(pattrs, type_incompatible(param_ty, _UNSAFE)):
            return False
        if call.param_has_attr(i, AttrKind.IN_ALLOCA) or pattrs.has(AttrKind.PREALLOCATED):
            return False
        if pattrs.has(AttrKind.SWIFT_ERROR):
            return False
        if pattrs.has(AttrKind.BY_VAL) != callee_pal.has_param_attr(i, AttrKind.BY_VAL):
            return False

    call_ft = call.function_type
    if callee.is_declaration:
        if num_params < num_actual and not ft.is_vararg:
            return False
        if ft.is_vararg != call_ft.is_vararg:
            return False
        if ft.is_vararg and call_ft.is_vararg and num_params != len(call_ft.params):
            return False

    if num_params < num_actual and ft.is_vararg and caller_pal:
        sret = caller_pal.param_with_attr(AttrKind.STRUCT_RET)
        if sret is not None and sret >= num_params:
            return False

    # Safe: build the new call. The debug records before the call stay before everything the
    # builder inserts (LLVM's insertion at the call's position adopts them).
    prev = call.prev_instruction
    new_args: list[Value] = []
    arg_attrs: list[AttributeSet] = []
    ret_attrs = caller_pal.ret_attrs.remove_all(type_incompatible(new_ret_ty))
    for i in range(num_common):
        param_ty = params[i]
        a = args[i]
        new_args.append(a if a.type is param_ty else _bit_or_pointer_cast(ic, a, param_ty))
        arg_attrs.append(caller_pal.param_attrs(i).remove_all(type_incompatible(param_ty, _SAFE)))
    for i in range(num_common, num_params):
        new_args.append(Constant.get_null_value(params[i]))
        arg_attrs.append(AttributeSet.EMPTY)
    if num_params < num_actual and ft.is_vararg:
        ctx = call.type.context
        for i in range(num_params, num_actual):
            a = args[i]
            aty = a.type
            if isinstance(aty, IntegerType) and aty.width < 32:
                a = ic.builder.create_cast(_promoted_cast_opcode(aty, ctx.i32), a, ctx.i32)
            new_args.append(a)
            arg_attrs.append(caller_pal.param_attrs(i))

    if new_ret_ty.is_void:
        call.name = ""
    new_pal = AttributeList(caller_pal.fn_attrs, ret_attrs, arg_attrs)
    bundles: list[BundleLike] = list(call.operand_bundles)

    new_call: CallBase
    if isinstance(call, InvokeInst):
        new_call = InvokeInst(ft, callee, call.normal_dest, call.unwind_dest, new_args, bundles=bundles)
    else:
        assert isinstance(call, CallInst)
        new_call = CallInst(ft, callee, new_args, bundles=bundles, tail_call_kind=call.tail_call_kind)
    ic.builder.insert(new_call)
    recs = call.take_dbg_records()
    if recs:
        bb = call.parent
        assert bb is not None
        first = prev.next_instruction if prev is not None else bb.instructions.first
        assert first is not None
        for r in recs:
            first.add_dbg_record(r)
    take_name(new_call, call)
    new_call.calling_conv = call.calling_conv
    new_call.attributes = new_pal
    prof = call.get_metadata("prof")
    if prof is not None:
        new_call.set_metadata("prof", prof)

    nv: Value = new_call
    if old_ret_ty is not new_ret_ty and used:
        if not new_ret_ty.is_void:
            cast = CastInst.create(_bit_or_pointer_cast_opcode(new_ret_ty, old_ret_ty), new_call, old_ret_ty)
            cast.debug_loc = call.debug_loc
            at = _insertion_point_after_def(new_call)
            assert at is not None, "no place to insert the cast of the result"
            ic.insert_new_inst_before(cast, at)
            ic.worklist.push_users_to_worklist(call)
            nv = cast
        else:
            nv = PoisonValue.get(old_ret_ty)

    if used:
        ic.replace_inst_uses_with(call, nv)
    ic.erase_inst_from_function(call)
    return True


def _bit_or_pointer_cast_opcode(src: Type, dst: Type) -> str:
    """The opcode of ``CastInst::CreateBitOrPointerCast``."""
    if src.is_ptr_or_ptr_vector and dst.is_int_or_int_vector:
        return "ptrtoint"
    if src.is_int_or_int_vector and dst.is_ptr_or_ptr_vector:
        return "inttoptr"
    return "bitcast"


def _insertion_point_after_def(inst: CallBase) -> Instruction | None:
    """``getInsertionPointAfterDef`` of a ``call`` or ``invoke``."""
    if isinstance(inst, InvokeInst):
        return inst.normal_dest.first_insertion_point
    return inst.next_instruction


__all__ = ["is_bit_or_noop_pointer_castable", "transform_const_expr_cast_call"]
