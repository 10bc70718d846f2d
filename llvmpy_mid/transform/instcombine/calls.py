"""InstCombine's visitors of calls (LLVM 19.1.7 ``lib/Transforms/InstCombine/InstCombineCalls.cpp``:
``visitCallInst``, ``visitInvokeInst``, ``visitCallBrInst``, ``visitCallBase``, ``tryOptimizeCall``).

``visit_call`` follows LLVM's order: InstructionSimplify's ``simplifyCall``, calls of ``free``,
the ``nounwind`` of a call in a ``nounwind`` function, then for intrinsics the memory
intrinsics (:mod:`.calls_memory`), the commutative canonicalisation and the per-intrinsic folds
(:mod:`.calls_intrinsics`), and last :func:`visit_call_base`, shared with ``invoke`` and
``callbr``: ``nonnull`` on arguments known non-null, allocation-site annotation, a call whose
function type is not its callee's own called with the callee's type instead
(:mod:`.calls_cast_callee`, ``transformConstExprCastCall``), calls through a null or undef
callee, calls through an ``llvm.adjust.trampoline`` made direct (:mod:`.calls_trampoline`),
library calls (:mod:`llvmpy_mid.transform.utils.simplify_lib_calls`), ``returned`` arguments,
dropped ``kcfi`` bundles and removable allocations.

Not done (yet): ``gc.statepoint`` relocations, target intrinsics,
``-instcombine-guard-widening-window``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llvmpy_mid.analysis.instruction_simplify import simplify_call
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.analysis.memory_builtins import get_freed_operand, is_removable_alloc
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import ConstantInt, ConstantPointerNull, PoisonValue, UndefValue
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.instructions.flags import TailCallKind
from llvmpy_mid.transform.instcombine.calls_cast_callee import transform_const_expr_cast_call
from llvmpy_mid.transform.instcombine.calls_trampoline import find_init_trampoline, transform_call_through_trampoline
from llvmpy_mid.transform.utils.build_lib_calls import is_calling_conv_c_compatible

if TYPE_CHECKING:
    from llvmpy_mid.ir.instruction import Instruction
    from llvmpy_mid.ir.value import Value
    from llvmpy_mid.transform.instcombine.combiner import InstCombiner


def _null_pointer_is_defined(fn: Function | None) -> bool:
    return fn is not None and fn.has_fn_attribute("null_pointer_is_valid")


def create_non_terminator_unreachable(ic: InstCombiner, at: Instruction) -> None:
    """``CreateNonTerminatorUnreachable``: ``store i1 true, ptr poison`` before ``at``."""
    from llvmpy_mid.ir.instructions.memory import StoreInst

    ctx = at.type.context
    st = StoreInst(ConstantInt.get(ctx.i1, 1), PoisonValue.get(ctx.pointer_type(0)), alignment=1)
    ic.insert_new_inst_with(st, at)


def visit_call(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``visitCallInst``."""
    assert isinstance(i, CallInst)
    ci = i
    if ci._use_head is not None:
        v = simplify_call(ci, ci.callee, ci.args, ic.query(ci))
        if v is not None:
            return ic.replace_inst_uses_with(ci, v)

    freed = get_freed_operand(ci, ic.tli)
    if freed is not None:
        from llvmpy_mid.transform.instcombine import instruction_combining

        return instruction_combining.visit_free(ic, ci, freed)

    fn = ci.function
    if fn is not None and fn.does_not_throw and not ci.does_not_throw:
        ci.add_fn_attr(Attribute.enum("nounwind"))
        return ci

    if not ci.is_intrinsic_call:
        return visit_call_base(ic, ci)

    from llvmpy_mid.transform.instcombine.calls_intrinsics import visit_intrinsic

    return visit_intrinsic(ic, ci)


def visit_invoke(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``visitInvokeInst``: the shared call folds."""
    assert isinstance(i, CallBase)
    return visit_call_base(ic, i)


def visit_callbr(ic: InstCombiner, i: Instruction) -> Instruction | None:
    """``visitCallBrInst``: the shared call folds."""
    assert isinstance(i, CallBase)
    return visit_call_base(ic, i)


def annotate_any_alloc_site(ic: InstCombiner, call: CallBase) -> bool:
    """``annotateAnyAllocSite``: ``dereferenceable(_or_null)`` and ``align`` on what an
    allocation function returns, from its size and alignment arguments."""
    if not call.type.is_pointer:
        return False
    from llvmpy_mid.analysis.memory_builtins import get_alloc_alignment, get_alloc_size

    changed = False
    size = get_alloc_size(call, ic.tli, ic.dl)
    if size:
        attrs = call.attributes
        if call.has_ret_attr("nonnull"):
            changed = not call.has_ret_attr("dereferenceable")
            call.attributes = attrs.with_ret_attr(Attribute.dereferenceable(size))
        else:
            changed = not call.has_ret_attr("dereferenceable_or_null")
            call.attributes = attrs.with_ret_attr(Attribute.dereferenceable_or_null(size))
    align = get_alloc_alignment(call, ic.tli)
    if align is None:
        return changed
    if isinstance(align, ConstantInt) and align.value < (1 << 32):
        a = align.value
        if a > 0 and a & (a - 1) == 0:
            existing = call.attributes.ret_alignment or 1
            if a > existing:
                call.attributes = call.attributes.with_ret_attr(Attribute.alignment(a))
                changed = True
    return changed


def visit_call_base(ic: InstCombiner, call: CallBase) -> Instruction | None:
    """``visitCallBase``: what ``call``, ``invoke`` and ``callbr`` share."""
    changed = annotate_any_alloc_site(ic, call)

    # nonnull on the pointer arguments known to be non-null.
    q = ic.query(call)
    arg_nos: list[int] = []
    for n, v in enumerate(call.args):
        if v.type.is_pointer and not call.param_has_attr(n, "nonnull") and is_known_non_zero(v, q):
            arg_nos.append(n)
    if arg_nos:
        attrs = call.attributes
        nn = Attribute.enum("nonnull")
        for n in arg_nos:
            attrs = attrs.with_param_attr(n, nn)
        call.attributes = attrs
        changed = True

    callee = call.callee
    callee_f = callee if isinstance(callee, Function) else None
    if (callee_f is None or callee_f.function_type is not call.function_type) and transform_const_expr_cast_call(
        ic, call
    ):
        return None
    if callee_f is not None:
        if call.is_convergent and not callee_f.has_fn_attribute("convergent") and not callee_f.intrinsic_id:
            call.remove_fn_attr("convergent")
            return call
        ccc = callee_f.calling_conv
        cc = call.calling_conv
        module = callee_f.parent
        if (
            ccc != cc
            and not (ccc == 0 and is_calling_conv_c_compatible(cc, call.function_type, module))
            and not (cc == 0 and is_calling_conv_c_compatible(ccc, callee_f.function_type, module))
            and not callee_f.is_declaration
        ):
            create_non_terminator_unreachable(ic, call)
            if not call.type.is_void:
                ic.replace_inst_uses_with(call, PoisonValue.get(call.type))
            if isinstance(call, CallInst):
                ic.erase_inst_from_function(call)
                return None
            call.callee = ConstantPointerNull.get(callee_f.type)
            return None

    if (isinstance(callee, ConstantPointerNull) and not _null_pointer_is_defined(call.function)) or isinstance(
        callee, UndefValue
    ):
        if not call.type.is_void:
            ic.replace_inst_uses_with(call, PoisonValue.get(call.type))
        if call.is_terminator:
            return None
        create_non_terminator_unreachable(ic, call)
        ic.erase_inst_from_function(call)
        return None

    tramp = find_init_trampoline(callee)
    if tramp is not None:
        return transform_call_through_trampoline(ic, call, tramp)

    if callee.is_inline_asm and not call.does_not_throw:
        if not getattr(callee, "can_throw", False):
            call.add_fn_attr(Attribute.enum("nounwind"))
            changed = True

    if isinstance(call, CallInst):
        done = try_optimize_call(ic, call)
        if done is not None:
            ic.erase_inst_from_function(done)
            return None

    if call._use_head is not None and not (isinstance(call, CallInst) and call.is_must_tail_call):
        returned = _returned_arg_operand(call)
        if returned is not None:
            rt = returned.type
            ct = call.type
            if rt is ct or _can_losslessly_bitcast(rt, ct):
                return ic.replace_inst_uses_with(call, _bit_or_pointer_cast(ic, returned, ct))

    if call.get_operand_bundle("kcfi") is not None and not call.is_indirect_call:
        return call.without_operand_bundle("kcfi")

    from llvmpy_mid.transform.instcombine import instruction_combining

    if is_removable_alloc(call, ic.tli):
        return instruction_combining.visit_alloc_site(ic, call)

    return call if changed else None


def _returned_arg_operand(call: CallBase) -> Value | None:
    """``getReturnedArgOperand``: the argument marked ``returned`` at the call or on the callee."""
    attrs = call.attributes
    for n in range(call.num_args):
        if attrs.param_attrs(n).has("returned"):
            return call.get_arg(n)
    fn = call.called_function
    if fn is not None:
        for n in range(call.num_args):
            if fn.attributes.param_attrs(n).has("returned"):
                return call.get_arg(n)
    return None


def _can_losslessly_bitcast(a: object, b: object) -> bool:
    """``Type::canLosslesslyBitCastTo``: identical, vectors of the same size, or pointers of the
    same address space."""
    from llvmpy_mid.ir.types import Type, VectorType

    assert isinstance(a, Type) and isinstance(b, Type)
    if a is b:
        return True
    if not (a.is_first_class and b.is_first_class):
        return False
    if isinstance(a, VectorType) and isinstance(b, VectorType):
        if a.scalable != b.scalable:
            return False
        return a.count * _scalar_primitive_bits(a.element_type) == b.count * _scalar_primitive_bits(b.element_type)
    if a.is_pointer and b.is_pointer:
        return getattr(a, "address_space", 0) == getattr(b, "address_space", 0)
    return False


def _scalar_primitive_bits(t: object) -> int:
    """``getPrimitiveSizeInBits`` of a scalar (0 for pointers, as in LLVM)."""
    from llvmpy_mid.ir import fp_bits
    from llvmpy_mid.ir.types import IntegerType, Type

    assert isinstance(t, Type)
    if isinstance(t, IntegerType):
        return t.width
    if t.is_floating_point:
        return fp_bits.bit_width(t.type_id)
    return 0


def _bit_or_pointer_cast(ic: InstCombiner, v: Value, ty: object) -> Value:
    """``CreateBitOrPointerCast``."""
    from llvmpy_mid.ir.types import Type

    assert isinstance(ty, Type)
    return ic.builder.create_bit_or_pointer_cast(v, ty)


def try_optimize_call(ic: InstCombiner, ci: CallInst) -> Instruction | None:
    """``tryOptimizeCall``: the library-call simplifier; returns the call to erase."""
    if ci.called_function is None:
        return None
    tk = ci.tail_call_kind
    if tk is TailCallKind.MUSTTAIL or tk is TailCallKind.NOTAIL:
        return None
    from llvmpy_mid.transform.utils.simplify_lib_calls import LibCallSimplifier

    simplifier = LibCallSimplifier(
        ic.dl,
        ic.tli,
        ic.ac,
        replacer=lambda frm, to: ic.replace_inst_uses_with(frm, to),
        eraser=ic.erase_inst_from_function,
        ore=ic.ore,
    )
    with_v = simplifier.optimize_call(ci, ic.builder)
    if with_v is None:
        return None
    if ci._use_head is None:
        return ci
    ic.replace_inst_uses_with(ci, with_v)
    return ci


__all__ = [
    "annotate_any_alloc_site",
    "create_non_terminator_unreachable",
    "try_optimize_call",
    "visit_call",
    "visit_call_base",
    "visit_callbr",
    "visit_invoke",
]
