"""The value and shape rules LLVM 19's verifier applies to particular intrinsics.

What: :data:`CHECKS` maps an intrinsic's base name (``"llvm.prefetch"``) to a
rule ``check(checker, call)``, run by
:mod:`~llvmpy_mid.ir.verifier.intrinsic_rules` once the call's signature and
mangling were found right: the cases of ``Verifier::visitIntrinsicCall``'s
switch that look at the call alone (operand-bundle tags of ``llvm.assume``,
immediate ranges, vector and matrix shapes, element kinds of reductions,
masked-memory alignments, constrained FP metadata...), with LLVM 19's
messages and printed values. Each rule stops at its first finding. Operands
LLVM reads with ``cast<>`` (guaranteed by ``immarg``) are checked defensively
here, since a module built through the API may lack the intrinsic's
attributes. The helpers (:func:`arg_at`, :func:`strip_pointer_casts`...) are
shared with the rules about the call's context, in ``intrinsic_rules``.

Not done here: VP and target intrinsics; the rules that look at the
enclosing function or other instructions (frames, GC, statepoints,
coroutines, EH, ``callbr`` landing pads, debug intrinsics) are in
``intrinsic_rules``.
"""

from __future__ import annotations

from typing import Callable

from llvmpy_mid.ir.attribute_kinds import (
    AttrKind,
    can_use_as_fn_attr,
    can_use_as_param_attr,
    find_attribute_kind,
    is_int_attr_kind,
)
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.global_value import GlobalValue
from llvmpy_mid.ir.instructions.calls import CallBase
from llvmpy_mid.ir.pointer_casts import strip_pointer_casts as strip_pointer_casts
from llvmpy_mid.ir.metadata import MDNode, MDString, Metadata, MetadataAsValue
from llvmpy_mid.ir.types import PointerType, Type, VectorType
from llvmpy_mid.ir.value import Value
from llvmpy_mid.ir.verifier.checker import Checker

Check = Callable[[Checker, CallBase], None]

# --- helpers -------------------------------------------------------------------------------------------------


def arg_at(call: CallBase, i: int) -> Value | None:
    return call.get_arg(i) if i < call.num_args else None


def int_arg(call: CallBase, i: int) -> ConstantInt | None:
    v = arg_at(call, i)
    return v if isinstance(v, ConstantInt) else None


def md_arg(call: CallBase, i: int) -> Metadata | None:
    v = arg_at(call, i)
    return v.metadata if isinstance(v, MetadataAsValue) else None


def md_string(call: CallBase, i: int) -> str | None:
    md = md_arg(call, i)
    return md.string if isinstance(md, MDString) else None


def callee_base(call: Value) -> str:
    """The intrinsic base name ``call`` calls, or ``""``."""
    from llvmpy_mid.ir.verifier.intrinsic_signatures import intrinsic_base

    if not isinstance(call, CallBase):
        return ""
    fn = call.called_function
    if fn is None or not fn.intrinsic_id:
        return ""
    found = intrinsic_base(fn.name)
    return found[0] if found is not None else ""


def is_power_of_2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def element_count(ty: Type) -> tuple[int, bool] | None:
    return (ty.count, ty.scalable) if isinstance(ty, VectorType) else None


# --- assume --------------------------------------------------------------------------------------------------


def _assume(c: Checker, call: CallBase) -> None:
    ops = call.operands
    for tag, begin, end in call.operand_bundle_ranges:
        count = end - begin
        if tag == "separate_storage":
            if count != 2:
                c.fail("separate_storage assumptions should have 2 arguments", call)
                return
            if not (ops[begin].type.is_pointer and ops[begin + 1].type.is_pointer):
                c.fail("arguments to separate_storage assumptions should be pointers", call)
            return
        kind = find_attribute_kind(tag)
        if tag != "ignore" and kind is None:
            c.fail("tags must be valid attribute names", call)
            return
        if kind is AttrKind.ALIGNMENT:
            if not 2 <= count <= 3:
                c.fail("alignment assumptions should have 2 or 3 arguments", call)
            elif not ops[begin].type.is_pointer:
                c.fail("first argument should be a pointer", call)
            elif not ops[begin + 1].type.is_integer:
                c.fail("second argument should be an integer", call)
            elif count == 3 and not ops[begin + 2].type.is_integer:
                c.fail("third argument should be an integer if present", call)
            return
        if count > 2:
            c.fail("too many arguments", call)
            return
        if kind is None:
            break
        if is_int_attr_kind(kind):
            if count != 2:
                c.fail("this attribute should have 2 arguments", call)
                return
            if not isinstance(ops[begin + 1], ConstantInt):
                c.fail("the second argument should be a constant integral value", call)
                return
        elif can_use_as_param_attr(kind):
            if count != 1:
                c.fail("this attribute should have one argument", call)
                return
        elif can_use_as_fn_attr(kind):
            if count != 0:
                c.fail("this attribute has no argument", call)
                return


# --- integers and floating point -----------------------------------------------------------------------------


def _cmp3(c: Checker, call: CallBase) -> None:
    src = arg_at(call, 0)
    dest = call.type
    if src is None:
        return
    scalar = dest.scalar_type
    if not (scalar.is_integer and scalar.width >= 2):  # type: ignore[attr-defined]
        c.fail("result type must be at least 2 bits wide", call)
    elif src.type.is_vector != dest.is_vector:
        c.fail("ucmp/scmp argument and result types must both be either vector or scalar types", call)
    elif dest.is_vector and element_count(src.type) != element_count(dest):
        c.fail("return type and arguments must have the same number of elements", call)


def _is_fpclass(c: Checker, call: CallBase) -> None:
    mask = int_arg(call, 1)
    if mask is not None and mask.value & ~0x3FF:
        c.fail("unsupported bits for llvm.is.fpclass test mask")


_ROUNDING = frozenset(
    ("round.dynamic", "round.tonearest", "round.downward", "round.upward", "round.towardzero", "round.tonearestaway")
)
_EXCEPTIONS = frozenset(("fpexcept.ignore", "fpexcept.maytrap", "fpexcept.strict"))
_FP_PREDICATES = frozenset("oeq ogt oge olt ole one ord uno ueq ugt uge ult ule une".split())


def _fptrunc_round(c: Checker, call: CallBase) -> None:
    md = md_arg(call, 1)
    if md is None:
        c.fail("missing rounding mode argument", call)
    elif not isinstance(md, MDString):
        c.fail("invalid value for llvm.fptrunc.round metadata operand (the operand should be a string)", md)
    elif md.string not in _ROUNDING or md.string == "round.dynamic":
        c.fail("unsupported rounding mode argument", call)


def _constrained(rounding: bool, extra: str = "") -> Check:
    """visitConstrainedFPIntrinsic for one constrained intrinsic: ``rounding``
    when it takes a rounding-mode operand; ``extra`` names its own rule."""

    def check(c: Checker, call: CallBase) -> None:
        n = call.num_args
        arg0 = arg_at(call, 0)
        if arg0 is None:
            return
        val_ty = arg0.type
        res_ty = call.type
        if extra == "novec":
            if val_ty.is_vector or res_ty.is_vector:
                c.fail("Intrinsic does not support vectors", call)
                return
        elif extra == "cmp":
            if md_string(call, 2) not in _FP_PREDICATES:
                c.fail("invalid predicate for constrained FP comparison intrinsic", call)
                return
        elif extra in ("fptoint", "inttofp"):
            to_int = extra == "fptoint"
            if not (val_ty.is_fp_or_fp_vector if to_int else val_ty.is_int_or_int_vector):
                what = "floating point" if to_int else "integer"
                c.fail("Intrinsic first argument must be " + what, call)
                return
            if val_ty.is_vector != res_ty.is_vector:
                c.fail("Intrinsic first argument and result disagree on vector use", call)
                return
            if not (res_ty.is_int_or_int_vector if to_int else res_ty.is_fp_or_fp_vector):
                what = "an integer" if to_int else "a floating point"
                c.fail("Intrinsic result must be " + what, call)
                return
            if res_ty.is_vector and element_count(val_ty) != element_count(res_ty):
                c.fail("Intrinsic first argument and result vector lengths must be equal", call)
                return
        elif extra in ("fptrunc", "fpext"):
            if not val_ty.is_fp_or_fp_vector:
                c.fail("Intrinsic first argument must be FP or FP vector", call)
                return
            if not res_ty.is_fp_or_fp_vector:
                c.fail("Intrinsic result must be FP or FP vector", call)
                return
            if val_ty.is_vector != res_ty.is_vector:
                c.fail("Intrinsic first argument and result disagree on vector use", call)
                return
            if val_ty.is_vector and element_count(val_ty) != element_count(res_ty):
                c.fail("Intrinsic first argument and result vector lengths must be equal", call)
                return
            src_bits = _fp_bits(val_ty.scalar_type)
            dst_bits = _fp_bits(res_ty.scalar_type)
            if extra == "fptrunc" and not src_bits > dst_bits:
                c.fail("Intrinsic first argument's type must be larger than result type", call)
                return
            if extra == "fpext" and not src_bits < dst_bits:
                c.fail("Intrinsic first argument's type must be smaller than result type", call)
                return
        if md_string(call, n - 1) not in _EXCEPTIONS:
            c.fail("invalid exception behavior argument", call)
            return
        if rounding and md_string(call, n - 2) not in _ROUNDING:
            c.fail("invalid rounding mode argument", call)

    return check


def _fp_bits(ty: Type) -> int:
    return getattr(ty, "bits", 0)


def _reduce(fp: bool, operand: int) -> Check:
    def check(c: Checker, call: CallBase) -> None:
        arg = arg_at(call, operand)
        if arg is None:
            return
        ty = arg.type
        ok = (ty.is_fp_or_fp_vector if fp else ty.is_int_or_int_vector) and ty.is_vector
        if not ok:
            c.fail("Intrinsic has incorrect argument type!")

    return check


def _fixed_point(signed: bool) -> Check:
    def check(c: Checker, call: CallBase) -> None:
        op1 = arg_at(call, 0)
        op2 = arg_at(call, 1)
        scale = int_arg(call, 2)
        if op1 is None or op2 is None:
            return
        if not op1.type.is_int_or_int_vector:
            c.fail("first operand of [us][mul|div]_fix[_sat] must be an int type or vector of ints")
        elif not op2.type.is_int_or_int_vector:
            c.fail("second operand of [us][mul|div]_fix[_sat] must be an int type or vector of ints")
        elif scale is None:
            return
        elif scale.type.width > 32:
            c.fail("third operand of [us][mul|div]_fix[_sat] must fit within 32 bits")
        elif signed and not scale.value < op1.type.scalar_type.width:  # type: ignore[attr-defined]
            c.fail("the scale of s[mul|div]_fix[_sat] must be less than the width of the operands")
        elif not signed and not scale.value <= op1.type.scalar_type.width:  # type: ignore[attr-defined]
            c.fail("the scale of u[mul|div]_fix[_sat] must be less than or equal to the width of the operands")

    return check


def _lrint(c: Checker, call: CallBase) -> None:
    arg = arg_at(call, 0)
    if arg is None:
        return
    val_ty = arg.type
    res_ty = call.type
    if not (val_ty.is_fp_or_fp_vector and res_ty.is_int_or_int_vector):
        c.fail(
            "llvm.lrint, llvm.llrint: argument must be floating-point or vector of floating-points, and result "
            "must be integer or vector of integers",
            call,
        )
    elif val_ty.is_vector != res_ty.is_vector:
        c.fail("llvm.lrint, llvm.llrint: argument and result disagree on vector use", call)
    elif val_ty.is_vector and element_count(val_ty) != element_count(res_ty):
        c.fail("llvm.lrint, llvm.llrint: argument must be same length as result", call)


def _lround(c: Checker, call: CallBase) -> None:
    arg = arg_at(call, 0)
    if arg is not None and (arg.type.is_vector or call.type.is_vector):
        c.fail("Intrinsic does not support vectors", call)


def _bswap(c: Checker, call: CallBase) -> None:
    scalar = call.type.scalar_type
    if scalar.is_integer and scalar.width % 16:  # type: ignore[attr-defined]
        c.fail("bswap must be an even number of bytes", call)


# --- memory --------------------------------------------------------------------------------------------------


def _element_atomic(transfer: bool) -> Check:
    def check(c: Checker, call: CallBase) -> None:
        size = int_arg(call, 3)
        if size is None:
            return
        if not is_power_of_2(size.value):
            c.fail("element size of the element-wise atomic memory intrinsic must be a power of 2", call)
            return
        dest = call.attributes.param_alignment(0)
        if dest is None or size.value > dest:
            c.fail("incorrect alignment of the destination argument", call)
            return
        if transfer:
            src = call.attributes.param_alignment(1)
            if src is None or size.value > src:
                c.fail("incorrect alignment of the source argument", call)

    return check


def _invariant_start(c: Checker, call: CallBase) -> None:
    size = int_arg(call, 0)
    if size is None or (size.is_negative and not size.is_all_ones_value):
        c.fail("invariant_start parameter must be -1, 0 or a positive number", call)


def _prefetch(c: Checker, call: CallBase) -> None:
    rw, locality, cache = int_arg(call, 1), int_arg(call, 2), int_arg(call, 3)
    if rw is not None and rw.value >= 2:
        c.fail("rw argument to llvm.prefetch must be 0-1", call)
    elif locality is not None and locality.value >= 4:
        c.fail("locality argument to llvm.prefetch must be 0-3", call)
    elif cache is not None and cache.value >= 2:
        c.fail("cache type argument to llvm.prefetch must be 0-1", call)


def _ptrmask(c: Checker, call: CallBase) -> None:
    a, b = arg_at(call, 0), arg_at(call, 1)
    if a is None or b is None:
        return
    ty0, ty1 = a.type, b.type
    if not ty0.is_ptr_or_ptr_vector:
        c.fail("llvm.ptrmask intrinsic first argument must be pointer or vector of pointers", call)
        return
    if ty0.is_vector != ty1.is_vector:
        c.fail("llvm.ptrmask intrinsic arguments must be both scalars or both vectors", call)
        return
    if ty0.is_vector and element_count(ty0) != element_count(ty1):
        c.fail("llvm.ptrmask intrinsic arguments must have the same number of elements", call)
        return
    module = c.module if c.module is not None else (call.function.parent if call.function is not None else None)
    if module is None:
        return
    scalar = ty0.scalar_type
    assert isinstance(scalar, PointerType)
    index_bits = module.data_layout.index_size_in_bits(scalar.address_space)
    if index_bits != getattr(ty1.scalar_type, "width", -1):
        c.fail(
            "llvm.ptrmask intrinsic second argument bitwidth must match pointer index type size of first argument",
            call,
        )


def _threadlocal_address(c: Checker, call: CallBase) -> None:
    arg = arg_at(call, 0)
    if not isinstance(arg, GlobalValue):
        c.fail("llvm.threadlocal.address first argument must be a GlobalValue")
    elif not arg.is_thread_local:
        c.fail("llvm.threadlocal.address operand isThreadLocal() must be true")


def _masked_load(c: Checker, call: CallBase) -> None:
    align, mask, passthru = int_arg(call, 1), arg_at(call, 2), arg_at(call, 3)
    if not call.type.is_vector:
        c.fail("masked_load: must return a vector", call)
    elif mask is None or passthru is None or align is None:
        return
    elif not mask.type.is_vector:
        c.fail("masked_load: mask must be vector", call)
    elif not is_power_of_2(align.value):
        c.fail("masked_load: alignment must be a power of 2", call)
    elif passthru.type is not call.type:
        c.fail("masked_load: pass through and return type must match", call)
    elif element_count(mask.type) != element_count(call.type):
        c.fail("masked_load: vector mask must be same length as return", call)


def _masked_store(c: Checker, call: CallBase) -> None:
    val, align, mask = arg_at(call, 0), int_arg(call, 2), arg_at(call, 3)
    if val is None or align is None or mask is None:
        return
    if not mask.type.is_vector:
        c.fail("masked_store: mask must be vector", call)
    elif not is_power_of_2(align.value):
        c.fail("masked_store: alignment must be a power of 2", call)
    elif element_count(mask.type) != element_count(val.type):
        c.fail("masked_store: vector mask must be same length as value", call)


def _masked_gather_scatter(name: str, operand: int) -> Check:
    def check(c: Checker, call: CallBase) -> None:
        align = int_arg(call, operand)
        if align is not None and align.value != 0 and not is_power_of_2(align.value):
            c.fail("%s: alignment must be 0 or a power of 2" % name, call)

    return check


# --- vectors and matrices ------------------------------------------------------------------------------------


def _active_lane_mask(c: Checker, call: CallBase) -> None:
    if not call.type.is_vector:
        c.fail("get_active_lane_mask: must return a vector", call)
    elif not call.type.scalar_type.is_integer_bits(1):
        c.fail("get_active_lane_mask: element type is not i1", call)


def _vector_length(c: Checker, call: CallBase) -> None:
    vf = int_arg(call, 1)
    if vf is not None and (vf.is_negative or vf.value == 0):
        c.fail("get_vector_length: VF must be positive", call)


def _matrix(kind: str) -> Check:
    def check(c: Checker, call: CallBase) -> None:
        fn = call.called_function
        stride: ConstantInt | None = None
        op0_elem: Type | None = None
        op1_elem: Type | None = None
        if kind == "multiply":
            rows, n, cols = int_arg(call, 2), int_arg(call, 3), int_arg(call, 4)
            a, b = arg_at(call, 0), arg_at(call, 1)
            if rows is None or n is None or cols is None or a is None or b is None:
                return
            if not isinstance(a.type, VectorType) or not isinstance(b.type, VectorType):
                return
            if a.type.count != rows.value * n.value:
                c.fail("First argument of a matrix operation does not match specified shape!")
                return
            if b.type.count != n.value * cols.value:
                c.fail("Second argument of a matrix operation does not match specified shape!")
                return
            result = call.type
            op0_elem, op1_elem = a.type.element_type, b.type.element_type
        elif kind == "transpose":
            rows, cols = int_arg(call, 1), int_arg(call, 2)
            a = arg_at(call, 0)
            if a is None or not isinstance(a.type, VectorType):
                return
            result = call.type
            op0_elem = a.type.element_type
        elif kind == "load":
            stride = int_arg(call, 1)
            rows, cols = int_arg(call, 3), int_arg(call, 4)
            result = call.type
        else:
            stride = int_arg(call, 2)
            rows, cols = int_arg(call, 4), int_arg(call, 5)
            a = arg_at(call, 0)
            if a is None:
                return
            result = a.type
            if isinstance(a.type, VectorType):
                op0_elem = a.type.element_type
        if rows is None or cols is None or not isinstance(result, VectorType):
            return
        elem = result.element_type
        if not (elem.is_integer or elem.is_floating_point):
            c.fail("Result type must be an integer or floating-point type!", fn)
        elif op0_elem is not None and elem is not op0_elem:
            c.fail("Vector element type mismatch of the result and first operand vector!", fn)
        elif op1_elem is not None and elem is not op1_elem:
            c.fail("Vector element type mismatch of the result and second operand vector!", fn)
        elif result.count != rows.value * cols.value:
            c.fail("Result of a matrix operation does not fit in the returned vector!")
        elif stride is not None and stride.value < rows.value:
            c.fail("Stride must be greater or equal than the number of rows!", fn)

    return check


def _vector_splice(c: Checker, call: CallBase) -> None:
    ty = call.type
    idx = int_arg(call, 2)
    if not isinstance(ty, VectorType) or idx is None:
        return
    known_min = ty.count
    fn = call.function
    if fn is not None:
        vscale = fn.attributes.fn_attrs.get(AttrKind.VSCALE_RANGE)
        if vscale is not None:
            known_min *= vscale.vscale_range_args[0]
    i = idx.sext_value
    if not ((i < 0 and -i <= known_min) or (0 <= i < known_min)):
        c.fail(
            "The splice index exceeds the range [-VL, VL-1] where VL is the known minimum number of elements in "
            "the vector. For scalable vectors the minimum number of elements is determined from vscale_range.",
            call,
        )


def _stepvector(c: Checker, call: CallBase) -> None:
    ty = call.type
    scalar = ty.scalar_type
    if not (ty.is_vector and scalar.is_integer and scalar.width >= 8):  # type: ignore[attr-defined]
        c.fail("experimental_stepvector only supported for vectors of integers with a bitwidth of at least 8.", call)


def _subvector_fault(vty: VectorType, sub: VectorType, n: int) -> int:
    """What is wrong with ``sub`` at element ``n`` of ``vty`` (vector_insert,
    vector_extract): 1 element types differ, 2 ``n`` is not a multiple of the
    subvector's minimum length, 3 it overruns (both fixed or both scalable); 0 nothing."""
    if vty.element_type is not sub.element_type:
        return 1
    if sub.count and n % sub.count:
        return 2
    if vty.scalable == sub.scalable and not (n < vty.count and n + sub.count <= vty.count):
        return 3
    return 0


def _vector_insert(c: Checker, call: CallBase) -> None:
    vec, sub, idx = arg_at(call, 0), arg_at(call, 1), int_arg(call, 2)
    if vec is None or sub is None or idx is None:
        return
    vty, sty = vec.type, sub.type
    if not isinstance(vty, VectorType) or not isinstance(sty, VectorType):
        return
    fault = _subvector_fault(vty, sty, idx.value & 0xFFFFFFFF)
    if fault == 1:
        c.fail("vector_insert parameters must have the same element type.", call)
    elif fault == 2:
        c.fail("vector_insert index must be a constant multiple of the subvector's known minimum vector length.")
    elif fault == 3:
        c.fail("subvector operand of vector_insert would overrun the vector being inserted into.")


def _vector_extract(c: Checker, call: CallBase) -> None:
    vec, idx = arg_at(call, 0), int_arg(call, 1)
    rty = call.type
    if vec is None or idx is None:
        return
    vty = vec.type
    if not isinstance(vty, VectorType) or not isinstance(rty, VectorType):
        return
    fault = _subvector_fault(vty, rty, idx.value & 0xFFFFFFFF)
    if fault == 1:
        c.fail("vector_extract result must have the same element type as the input vector.", call)
    elif fault == 2:
        c.fail("vector_extract index must be a constant multiple of the result type's known minimum vector length.")
    elif fault == 3:
        c.fail("vector_extract would overrun.")


def _noalias_scope_decl(c: Checker, call: CallBase) -> None:
    arg = arg_at(call, 0)
    if not isinstance(arg, MetadataAsValue):
        c.fail("llvm.experimental.noalias.scope.decl must have a MetadataAsValue argument", call)
    elif not isinstance(arg.metadata, MDNode):
        c.fail("!id.scope.list must point to an MDNode", call)
    elif len(arg.metadata.operands) != 1:
        c.fail("!id.scope.list must point to a list with a single scope", call)


def _element_type_attr(index: int) -> Check:
    def check(c: Checker, call: CallBase) -> None:
        if call.attributes.param_type_attr(index, AttrKind.ELEMENT_TYPE) is None:
            which = "first" if index == 0 else "second"
            c.fail("Intrinsic requires elementtype attribute on %s argument." % which, call)

    return check


# --- the table -----------------------------------------------------------------------------------------------

_ROUNDED = (
    "fadd fsub fmul fdiv frem fma fmuladd sqrt powi ldexp sin cos tan pow log log10 log2 exp exp2 rint nearbyint"
    " lrint llrint sitofp uitofp fptrunc"
)
_UNROUNDED = (
    "maxnum minnum maximum minimum ceil floor round roundeven trunc lround llround fptosi fptoui fpext fcmp fcmps"
)
_CONSTRAINED_EXTRA = {
    "lrint": "novec",
    "llrint": "novec",
    "lround": "novec",
    "llround": "novec",
    "fcmp": "cmp",
    "fcmps": "cmp",
    "fptosi": "fptoint",
    "fptoui": "fptoint",
    "sitofp": "inttofp",
    "uitofp": "inttofp",
    "fptrunc": "fptrunc",
    "fpext": "fpext",
}

CHECKS: dict[str, Check] = {
    "llvm.assume": _assume,
    "llvm.ucmp": _cmp3,
    "llvm.scmp": _cmp3,
    "llvm.is.fpclass": _is_fpclass,
    "llvm.fptrunc.round": _fptrunc_round,
    "llvm.memcpy.element.unordered.atomic": _element_atomic(True),
    "llvm.memmove.element.unordered.atomic": _element_atomic(True),
    "llvm.memset.element.unordered.atomic": _element_atomic(False),
    "llvm.prefetch": _prefetch,
    "llvm.get.active.lane.mask": _active_lane_mask,
    "llvm.experimental.get.vector.length": _vector_length,
    "llvm.masked.load": _masked_load,
    "llvm.masked.store": _masked_store,
    "llvm.masked.gather": _masked_gather_scatter("masked_gather", 1),
    "llvm.masked.scatter": _masked_gather_scatter("masked_scatter", 2),
    "llvm.vector.reduce.fadd": _reduce(True, 1),
    "llvm.vector.reduce.fmul": _reduce(True, 1),
    "llvm.vector.reduce.fmax": _reduce(True, 0),
    "llvm.vector.reduce.fmin": _reduce(True, 0),
    "llvm.lrint": _lrint,
    "llvm.llrint": _lrint,
    "llvm.lround": _lround,
    "llvm.llround": _lround,
    "llvm.bswap": _bswap,
    "llvm.invariant.start": _invariant_start,
    "llvm.matrix.multiply": _matrix("multiply"),
    "llvm.matrix.transpose": _matrix("transpose"),
    "llvm.matrix.column.major.load": _matrix("load"),
    "llvm.matrix.column.major.store": _matrix("store"),
    "llvm.vector.splice": _vector_splice,
    "llvm.experimental.stepvector": _stepvector,
    "llvm.vector.insert": _vector_insert,
    "llvm.vector.extract": _vector_extract,
    "llvm.experimental.noalias.scope.decl": _noalias_scope_decl,
    "llvm.preserve.array.access.index": _element_type_attr(0),
    "llvm.preserve.struct.access.index": _element_type_attr(0),
    "llvm.aarch64.ldxr": _element_type_attr(0),
    "llvm.aarch64.ldaxr": _element_type_attr(0),
    "llvm.arm.ldrex": _element_type_attr(0),
    "llvm.arm.ldaex": _element_type_attr(0),
    "llvm.aarch64.stxr": _element_type_attr(1),
    "llvm.aarch64.stlxr": _element_type_attr(1),
    "llvm.arm.strex": _element_type_attr(1),
    "llvm.arm.stlex": _element_type_attr(1),
    "llvm.ptrmask": _ptrmask,
    "llvm.threadlocal.address": _threadlocal_address,
}
for _name in "and or xor add mul smax smin umax umin".split():
    CHECKS["llvm.vector.reduce." + _name] = _reduce(False, 0)
for _name in ("smul.fix", "smul.fix.sat", "sdiv.fix", "sdiv.fix.sat"):
    CHECKS["llvm." + _name] = _fixed_point(True)
for _name in ("umul.fix", "umul.fix.sat", "udiv.fix", "udiv.fix.sat"):
    CHECKS["llvm." + _name] = _fixed_point(False)
for _names, _rounding in ((_ROUNDED, True), (_UNROUNDED, False)):
    for _name in _names.split():
        CHECKS["llvm.experimental.constrained." + _name] = _constrained(_rounding, _CONSTRAINED_EXTRA.get(_name, ""))

__all__ = [
    "CHECKS",
    "Check",
    "arg_at",
    "callee_base",
    "element_count",
    "int_arg",
    "is_power_of_2",
    "md_arg",
    "md_string",
    "strip_pointer_casts",
]
