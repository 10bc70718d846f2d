"""The library-call simplifier (LLVM 19.1.7 ``lib/Transforms/Utils/SimplifyLibCalls.cpp``:
``LibCallSimplifier::optimizeCall`` and the ``optimize*`` functions it dispatches to).

:meth:`LibCallSimplifier.optimize_call` looks at a call of a C library function the target
library info knows (with a valid prototype, not ``nobuiltin``) and returns the value that
replaces it, emitting what it needs through the builder, or None. InstCombine calls it from
``tryOptimizeCall``. The string and memory functions (``strlen``, ``strnlen``, ``wcslen``,
``strchr``, ``strrchr``, ``strcmp``, ``strncmp``, ``strcpy``, ``stpcpy``, ``memchr``,
``memrchr``, ``memcmp``, ``bcmp``, ``memcpy``, ``mempcpy``, ``memmove``, ``memset``), the
integer functions (``ffs``, ``abs``, ``isdigit``, ``isascii``, ``toascii``) and the output
functions (``puts``, ``fputs``, ``fwrite``, ``printf`` of a plain string, a ``%s\\n`` or a
``%c``) are done, with the argument annotations LLVM adds (``noundef``, ``nonnull``,
``dereferenceable``).

Not done (yet): the fortified ``*_chk`` functions, ``strcat``/``strncat``, ``strncpy``,
``strlcpy``, ``strpbrk``/``strspn``/``strcspn``/``strstr``, ``strto*``/``atoi``,
``sprintf``/``snprintf``/``fprintf``, ``memccpy``, ``new`` hot/cold, the floating-point
library (pow, exp2, log, sqrt, shrinking double calls to float, sin/cos pairs), ``cabs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from llvmpy_mid.analysis.constant_strings import (
    get_constant_data_array_info,
    get_constant_string_info,
    get_string_length,
    is_gep_based_on_pointer_to_string,
)
from llvmpy_mid.analysis.known_non_zero import is_known_non_zero
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import Constant, ConstantInt, ConstantPointerNull
from llvmpy_mid.ir.instruction import Instruction
from llvmpy_mid.ir.instructions.calls import CallInst
from llvmpy_mid.ir.instructions.cmp import ICmpInst, Predicate
from llvmpy_mid.ir.instructions.other import SelectInst
from llvmpy_mid.ir.types import IntegerType, Type, TypeID
from llvmpy_mid.ir.instructions.flags import FastMathFlags
from llvmpy_mid.transform.utils import build_lib_calls as bl

from llvmpy_mid.analysis.remark import optimization_remark

if TYPE_CHECKING:
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.ir.data_layout import DataLayout
    from llvmpy_mid.ir.value import Value


# --- helpers (SimplifyLibCalls.cpp statics and ValueTracking's use tests) --------------------


def _apint(v: Value) -> int | None:
    return v.value if isinstance(v, ConstantInt) else None


def is_only_used_in_zero_equality_comparison(i: Value) -> bool:
    """``isOnlyUsedInZeroEqualityComparison``: every user is ``icmp eq/ne i, 0`` (and there is one)."""
    if i._use_head is None:
        return False
    for u in i.users:
        if not isinstance(u, ICmpInst) or not u.predicate.is_equality:
            return False
        rhs = u.operands[1]
        if not (isinstance(rhs, Constant) and rhs.is_null_value):
            return False
    return True


def _is_only_used_in_equality_comparison(v: Value, with_: Value) -> bool:
    for u in v.users:
        if isinstance(u, ICmpInst) and u.predicate.is_equality and u.operands[1] is with_:
            continue
        return False
    return True


def _is_only_used_in_comparison_with_zero(v: Value) -> bool:
    for u in v.users:
        if isinstance(u, ICmpInst):
            c = u.operands[1]
            if isinstance(c, Constant) and c.is_null_value:
                continue
        return False
    return True


def _null_pointer_is_defined(ci: CallInst, addrspace: int) -> bool:
    fn = ci.function
    if fn is not None and fn.has_fn_attribute("null_pointer_is_valid"):
        return True
    return addrspace != 0


def _addrspace(v: Value) -> int:
    return int(getattr(v.type, "address_space", 0))


def _param_deref(ci: CallInst, n: int, kind: str) -> int:
    a = ci.attributes.param_attrs(n).get(kind)
    return a.int_value if a is not None else 0


def annotate_dereferenceable_bytes(ci: CallInst, arg_nos: list[int], nbytes: int) -> None:
    """``annotateDereferenceableBytes``."""
    if ci.function is None:
        return
    for n in arg_nos:
        deref = nbytes
        nodef = not _null_pointer_is_defined(ci, _addrspace(ci.get_arg(n))) or ci.param_has_attr(n, "nonnull")
        if nodef:
            deref = max(_param_deref(ci, n, "dereferenceable_or_null"), nbytes)
        if _param_deref(ci, n, "dereferenceable") < deref:
            attrs = ci.attributes.without_param_attr(n, "dereferenceable")
            if nodef:
                attrs = attrs.without_param_attr(n, "dereferenceable_or_null")
            ci.attributes = attrs.with_param_attr(n, Attribute.dereferenceable(deref))


def annotate_non_null_no_undef_based_on_access(ci: CallInst, arg_nos: list[int]) -> None:
    """``annotateNonNullNoUndefBasedOnAccess``."""
    if ci.function is None:
        return
    for n in arg_nos:
        if not ci.param_has_attr(n, "noundef"):
            ci.attributes = ci.attributes.with_param_attr(n, Attribute.enum("noundef"))
        if not ci.param_has_attr(n, "nonnull"):
            if _null_pointer_is_defined(ci, _addrspace(ci.get_arg(n))):
                continue
            ci.attributes = ci.attributes.with_param_attr(n, Attribute.enum("nonnull"))
        annotate_dereferenceable_bytes(ci, [n], 1)


def annotate_non_null_and_dereferenceable(ci: CallInst, arg_nos: list[int], size: Value, dl: DataLayout) -> None:
    """``annotateNonNullAndDereferenceable``."""
    if isinstance(size, ConstantInt):
        annotate_non_null_no_undef_based_on_access(ci, arg_nos)
        annotate_dereferenceable_bytes(ci, arg_nos, size.value)
    elif is_known_non_zero(size, dl):
        annotate_non_null_no_undef_based_on_access(ci, arg_nos)
        if isinstance(size, SelectInst):
            x = _apint(size.true_value)
            y = _apint(size.false_value)
            if x is not None and y is not None:
                annotate_dereferenceable_bytes(ci, arg_nos, min(x, y))


def copy_flags(old: CallInst, new: Value | None) -> Value | None:
    """``copyFlags``: the new call gets the old one's tail-call kind."""
    if isinstance(new, CallInst):
        new.tail_call_kind = old.tail_call_kind
    return new


def merge_attributes_and_flags(new: CallInst, old: CallInst) -> None:
    """``mergeAttributesAndFlags``: the union of both calls' attributes (return attributes a void
    call cannot have dropped), and the old call's tail-call kind."""
    attrs = new.attributes
    oa = old.attributes
    attrs = attrs.merge_fn_attrs(oa.fn_attrs)
    if not new.type.is_void:
        attrs = attrs.merge_ret_attrs(oa.ret_attrs)
    for n in range(min(new.num_args, old.num_args)):
        extra = [a for a in oa.param_attrs(n) if not attrs.param_attrs(n).has(a.kind_name if not a.is_string_attr else a.kind_name)]
        if extra:
            attrs = attrs.merge_param_attrs(n, extra)
    new.attributes = attrs
    copy_flags(old, new)


def _is_dereferenceable_and_aligned(ptr: Value, size: int, dl: DataLayout) -> bool:
    """``isDereferenceableAndAlignedPointer(Ptr, Align(1), Size)``: the object behind ``ptr`` (an
    alloca, a global or a ``dereferenceable`` argument, at a constant offset) has ``size`` bytes."""
    from llvmpy_mid.ir.function import Argument
    from llvmpy_mid.ir.global_value import GlobalVariable
    from llvmpy_mid.ir.instructions.memory import AllocaInst
    from llvmpy_mid.ir.pointer_casts import strip_and_accumulate_constant_offsets

    base, off = strip_and_accumulate_constant_offsets(ptr, dl, False)
    if off < 0:
        return False
    avail = -1
    if isinstance(base, AllocaInst):
        n = base.operands[0]
        if isinstance(n, ConstantInt) and base.allocated_type.is_sized:
            avail = dl.type_alloc_size(base.allocated_type) * n.value
    elif isinstance(base, GlobalVariable):
        if not base.is_declaration and not base.is_interposable:
            avail = dl.type_alloc_size(base.value_type)
    elif isinstance(base, Argument):
        a = base.parent.attributes.param_attrs(base.arg_no).get("dereferenceable")
        if a is not None:
            avail = a.int_value
    return avail >= 0 and off + size <= avail


def _can_transform_to_mem_cmp(ci: CallInst, s: Value, n: int, dl: DataLayout) -> bool:
    if not _is_only_used_in_comparison_with_zero(ci):
        return False
    if not _is_dereferenceable_and_aligned(s, n, dl):
        return False
    fn = ci.function
    return not (fn is not None and fn.has_fn_attribute("sanitize_memory"))


def _compare(a: bytes, b: bytes) -> int:
    return -1 if a < b else (1 if a > b else 0)


def _wchar_size(module: object) -> int:
    """``TLI->getWCharSize(M)``: the ``wchar_size`` module flag, 0 when absent."""
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.module_flags import get_module_flag_int

    if not isinstance(module, Module):
        return 0
    return get_module_flag_int(module, "wchar_size") or 0


# --- the simplifier ---------------------------------------------------------------------------


class LibCallSimplifier:
    """``LibCallSimplifier``: ``optimize_call(ci, builder)`` -> the replacement value or None."""

    __slots__ = ("dl", "tli", "ac", "replacer", "eraser", "ore")

    def __init__(
        self,
        dl: DataLayout,
        tli: TargetLibraryInfo | None,
        ac: object | None = None,
        replacer: Callable[[Instruction, Value], object] | None = None,
        eraser: Callable[[Instruction], object] | None = None,
        ore: OptimizationRemarkEmitter | None = None,
    ) -> None:
        self.ore = ore
        self.dl = dl
        self.tli = tli
        self.ac = ac
        self.replacer = replacer
        self.eraser = eraser

    # --- entry ---------------------------------------------------------------------------
    def optimize_call(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeCall``."""
        if ci.is_no_builtin:
            return None
        callee = ci.called_function
        if callee is None:
            return None
        cc_c = bl.is_calling_conv_c_compatible(ci.calling_conv, ci.function_type, ci.module)
        module = callee.parent
        if module is None:
            return None
        if callee.intrinsic_id:
            if not cc_c:
                return None
            iid = ci.intrinsic_base
            if iid == "llvm.memset":
                return self.optimize_mem_set(ci, b)
            if iid == "llvm.memcpy":
                return self.optimize_mem_cpy(ci, b)
            if iid == "llvm.memmove":
                return self.optimize_mem_move(ci, b)
            if iid == "llvm.exp2":
                return self._optimize_exp2(ci, b)
            if iid == "llvm.pow":
                return self._optimize_pow(ci, b)
            if iid == "llvm.sqrt":
                return self._optimize_sqrt(ci, b)
            return None
        tli = self.tli
        if tli is None:
            return None
        fortified = self._optimize_fortified(ci, b, cc_c)
        if fortified is not None:
            return fortified
        func = tli.get_lib_func(callee)
        if func is None or not bl.is_lib_func_emittable(module, tli, func):
            return None
        if func not in ("abs", "labs", "llabs", "strlen") and not cc_c:
            return None
        handler = _STRING_MEMORY.get(func)
        if handler is not None:
            r = self._run(handler, ci, b)
            if r is not None:
                return r
        fp = self._run(LibCallSimplifier.optimize_floating_point_lib_call, ci, b)
        if fp is not None:
            return fp
        if ci.parent is None:
            return None
        handler = _OTHER.get(func)
        if handler is None:
            return None
        return self._run(handler, ci, b)

    def _run(self, handler: _Handler, ci: CallInst, b: IRBuilder) -> Value | None:
        """Call ``handler``; the calls it makes carry ``ci``'s operand bundles."""
        if not ci.has_operand_bundles:
            v: Value | None = handler(self, ci, b)
            return v
        prev = ci.prev_instruction
        v = handler(self, ci, b)
        return self._apply_default_bundles(ci, prev, b, v)

    def _apply_default_bundles(self, ci: CallInst, prev: Instruction | None, b: IRBuilder, v: Value | None) -> Value | None:
        """``setDefaultOperandBundles``: the calls made for ``ci`` carry its operand bundles."""
        bundles = ci.operand_bundles
        bb = ci.parent
        assert bb is not None
        cur = prev.next_instruction if prev is not None else bb.first_instruction
        while cur is not None and cur is not ci:
            nxt = cur.next_instruction
            if isinstance(cur, CallInst) and not cur.has_operand_bundles:
                name = cur.name
                cur.name = ""
                new = cur.with_operand_bundles(bundles)
                new.name = ""
                b.position_before(cur)
                b.insert(new)
                b.position_before(ci)
                cur.replace_all_uses_with(new)
                new.name = name
                if v is cur:
                    v = new
                if self.eraser is not None:
                    self.eraser(cur)
                else:
                    cur.erase_from_parent()
            cur = nxt
        return v

    # --- floating point -------------------------------------------------------------------
    def optimize_floating_point_lib_call(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeFloatingPointLibCall`` (the functions done here; see the module docstring)."""
        if ci.has_fn_attr("strictfp"):
            return None
        tli = self.tli
        callee = ci.called_function
        assert tli is not None and callee is not None
        func = tli.get_lib_func(callee)
        if func is None:
            return None
        base = func[:-1] if func.endswith(("f", "l")) and func[:-1] in _FP_FUNCS else func
        if base in ("cos", "sin", "tan", "erf"):
            v = self._optimize_symmetric(ci, b, base == "cos")
            if v is not None:
                return v
        if base in _UNARY_INTRINSIC and (base != func or base in ("fabs",) or func in _UNARY_INTRINSIC):
            if func in ("ceil", "floor", "round", "roundeven", "nearbyint", "rint", "trunc") or base == "fabs":
                new = b.create_unary_intrinsic(_UNARY_INTRINSIC[base], ci.get_arg(0), fmf_source=ci)
                from llvmpy_mid.transform.instcombine.combiner import take_name

                take_name(new, ci)
                return copy_flags(ci, new)
            return None
        if base in ("fmin", "fmax"):
            return self._optimize_fmin_fmax(ci, b, func)
        if base == "sqrt":
            return self._optimize_sqrt(ci, b)
        if base == "exp2":
            return self._optimize_exp2(ci, b)
        if base == "pow":
            return self._optimize_pow(ci, b)
        module = callee.parent
        unsafe = int(getattr(ci, "fast_math_flags", 0)) == 127
        if func in ("acos", "acosh", "asin", "atan", "cbrt", "exp", "exp10", "expm1", "cos", "sin", "tanh"):
            if unsafe and module is not None and bl.is_lib_func_emittable(module, tli, callee.name + "f"):
                return self._optimize_double_fp(ci, b, False, True)
            return None
        if func == "copysign":
            if module is not None and bl.is_lib_func_emittable(module, tli, callee.name + "f"):
                return self._optimize_double_fp(ci, b, True, False)
        return None

    def _optimize_symmetric(self, ci: CallInst, b: IRBuilder, is_even: bool) -> Value | None:
        """``optimizeSymmetricCall``: f(-x) -> f(x) or -f(x); even f(fabs x), f(copysign(x, y)) -> f(x)."""
        src = ci.get_arg(0)
        callee = ci.called_function
        assert callee is not None
        x: Value | None = None
        opc = getattr(src, "opcode", None)
        if opc == "fneg" and src.has_one_use:
            x = src.operands[0]  # type: ignore[attr-defined]
            saved = b.fast_math_flags
            b.fast_math_flags = ci.fast_math_flags
            call = b.call(callee, [x])
            copy_flags(ci, call)
            if is_even:
                b.fast_math_flags = saved
                return call
            r = b.create_fneg(call)
            b.fast_math_flags = saved
            return r
        if is_even and isinstance(src, CallInst) and src.intrinsic_base in ("llvm.fabs", "llvm.copysign"):
            saved = b.fast_math_flags
            b.fast_math_flags = ci.fast_math_flags
            call = b.call(callee, [src.get_arg(0)])
            b.fast_math_flags = saved
            return copy_flags(ci, call)
        return None

    def _optimize_fmin_fmax(self, ci: CallInst, b: IRBuilder, func: str) -> Value | None:
        callee = ci.called_function
        assert callee is not None
        module = callee.parent
        name = callee.name
        if name in ("fmin", "fmax") and module is not None and bl.is_lib_func_emittable(module, self.tli, name + "f"):
            r = self._optimize_double_fp(ci, b, True, False)
            if r is not None:
                return r
        saved = b.fast_math_flags
        b.fast_math_flags = FastMathFlags(int(ci.fast_math_flags) | 8)
        iid = "minnum" if name.startswith("fmin") else "maxnum"
        v = b.create_binary_intrinsic(iid, ci.get_arg(0), ci.get_arg(1))
        b.fast_math_flags = saved
        return copy_flags(ci, v)

    def _optimize_double_fp(self, ci: CallInst, b: IRBuilder, is_binary: bool, is_precise: bool) -> Value | None:
        """``optimizeDoubleFP``: g((double) float) -> (double) gf(float)."""
        callee = ci.called_function
        if ci.type.type_id is not TypeID.DOUBLE or callee is None:
            return None
        if is_precise:
            for u in ci.users:
                if getattr(u, "opcode", None) != "fptrunc" or u.type.type_id is not TypeID.FLOAT:
                    return None
        v0 = _value_has_float_precision(ci.get_arg(0))
        v1 = _value_has_float_precision(ci.get_arg(1)) if is_binary else None
        if v0 is None or (is_binary and v1 is None):
            return None
        name = callee.name
        is_intr = bool(callee.intrinsic_id)
        if not is_intr:
            fn = ci.function
            caller = fn.name if fn is not None else ""
            if caller and caller.endswith("f") and len(caller) == len(name) + 1 and caller.startswith(name):
                return None
        saved = b.fast_math_flags
        b.fast_math_flags = ci.fast_math_flags
        tli = self.tli
        assert tli is not None
        r: Value
        if is_intr:
            base = ci.intrinsic_base[5:]
            args: list[Value] = [v0]
            if v1 is not None:
                args.append(v1)
            r = b.create_intrinsic(base, [b.context.float], args)
        elif is_binary:
            assert v1 is not None
            r = bl.emit_binary_float_fn_call(v0, v1, tli, name, b, callee.attributes)
        else:
            r = bl.emit_unary_float_fn_call(v0, tli, name, b, callee.attributes)
        out = b.create_cast("fpext", r, b.context.double)
        b.fast_math_flags = saved
        return out

    def _optimize_sqrt(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeSqrt``: shrinking, then sqrt(x * x) -> fabs(x) under fast math."""
        callee = ci.called_function
        assert callee is not None
        module = callee.parent
        ret: Value | None = None
        if module is not None and bl.is_lib_func_emittable(module, self.tli, "sqrtf") and (
            callee.name == "sqrt" or ci.intrinsic_base == "llvm.sqrt"
        ):
            ret = self._optimize_double_fp(ci, b, False, True)
        merged = self._merge_sqrt_to_exp(ci, b)
        if merged is not None:
            return merged
        if int(ci.fast_math_flags) != 127:
            return ret
        i = ci.get_arg(0)
        if getattr(i, "opcode", None) != "fmul" or int(getattr(i, "fast_math_flags", 0)) != 127:
            return ret
        op0, op1 = i.operands  # type: ignore[attr-defined]
        repeat: Value | None = None
        other: Value | None = None
        if op0 is op1:
            repeat = op0
        elif getattr(op0, "opcode", None) == "fmul":
            m0, m1 = op0.operands
            if m0 is m1 and int(getattr(op0, "fast_math_flags", 0)) == 127:
                repeat = m0
                other = op1
        if repeat is None:
            return ret
        saved = b.fast_math_flags
        b.fast_math_flags = FastMathFlags(int(i.fast_math_flags))  # type: ignore[attr-defined]
        fabs = b.create_unary_intrinsic("fabs", repeat, "fabs")
        out: Value = fabs
        if other is not None:
            sq = b.create_unary_intrinsic("sqrt", other, "sqrt")
            out = _fp_binop(b, "fmul", fabs, sq)
            if isinstance(out, Instruction):
                out.fast_math_flags = b.fast_math_flags  # type: ignore[attr-defined]
        b.fast_math_flags = saved
        return copy_flags(ci, out)

    def _optimize_pow(self, pow_: CallInst, b: IRBuilder) -> Value | None:
        """``optimizePow`` (without ``replacePowWithExp``: a pow whose base is a constant or an
        exp/exp2/exp10 call is left alone, since LLVM would rewrite it that way first)."""
        from llvmpy_mid.ir.constants import ConstantFP

        base = pow_.get_arg(0)
        expo = pow_.get_arg(1)
        ty = pow_.type
        fmf = int(pow_.fast_math_flags)
        allow_approx = bool(fmf & 64)
        bc = _fp_value(base)
        if bc == 1.0:
            return base
        saved = b.fast_math_flags
        b.fast_math_flags = FastMathFlags(fmf)
        try:
            e = self._replace_pow_with_exp(pow_, b)
            if e is not None:
                return e
            ec = _fp_value(expo)
            one: Value = ConstantFP.get(ty, 1.0) if not ty.is_vector else _fp_splat(ty, 1.0)
            if ec == -1.0:
                return _fp_binop(b, "fdiv", one, base, "reciprocal")
            if ec is not None and ec == 0.0:
                return one
            if ec == 1.0:
                return base
            if ec == 2.0:
                return _fp_binop(b, "fmul", base, base, "square")
            sq = self._replace_pow_with_sqrt(pow_, b, ec)
            if sq is not None:
                return sq
            if allow_approx and ec is not None and ec not in (0.5, -0.5) and ec == ec:
                import math

                sqrt: Value | None = None
                ei = ec
                ea = abs(ec)
                if not math.isinf(ea) and ea != int(ea):
                    if (ea * 2) != int(ea * 2):
                        return None
                    ei = float(math.floor(ec))
                    sqrt = self._get_sqrt_call(base, pow_.does_not_access_memory, b)
                    if sqrt is None:
                        return None
                tli = self.tli
                assert tli is not None
                ibits = tli.int_size
                if not math.isinf(ei) and ei == int(ei) and -(1 << (ibits - 1)) <= int(ei) < (1 << (ibits - 1)):
                    it = b.context.int_type(ibits)
                    powi = b.create_intrinsic("powi", [base.type, it], [base, ConstantInt.get(it, int(ei) & it.mask)])
                    copy_flags(pow_, powi)
                    if sqrt is not None:
                        return _fp_binop(b, "fmul", powi, sqrt)
                    return powi
            if allow_approx and getattr(expo, "opcode", None) in ("sitofp", "uitofp"):
                tli = self.tli
                assert tli is not None
                ei2 = _get_int_to_fp_val(expo, b, tli.int_size)
                if ei2 is not None:
                    return copy_flags(pow_, b.create_intrinsic("powi", [base.type, ei2.type], [base, ei2]))
            callee = pow_.called_function
            tli = self.tli
            assert callee is not None and tli is not None
            module = callee.parent
            if fmf == 127 and callee.name == tli.get_name("pow") and module is not None and bl.is_lib_func_emittable(module, tli, callee.name + "f"):
                shrunk = self._optimize_double_fp(pow_, b, True, True)
                if shrunk is not None:
                    return shrunk
            return None
        finally:
            b.fast_math_flags = saved

    def _replace_pow_with_exp(self, pow_: CallInst, b: IRBuilder) -> Value | None:
        """``replacePowWithExp``: pow(exp(x), y) -> exp(x * y) (fast); pow(2.0, itofp x) ->
        ldexp(1.0, x); pow(2**n, x) -> exp2(n * x); pow(10.0, x) -> exp10(x);
        pow(C, x) -> exp2(log2(C) * x) (afn nnan)."""
        import math

        from llvmpy_mid.ir.constants import ConstantFP

        tli = self.tli
        fn = b.function
        module = fn.parent if fn is not None else None
        assert tli is not None and module is not None
        base = pow_.get_arg(0)
        expo = pow_.get_arg(1)
        ty = pow_.type
        if isinstance(base, CallInst) and base.has_one_use and int(base.fast_math_flags) == 127 and int(pow_.fast_math_flags) == 127:
            bfn = base.called_function
            lf = tli.get_lib_func_by_name(bfn.name) if bfn is not None else None
            if lf is not None and bl.is_lib_func_emittable(module, tli, lf):
                if lf in ("expf", "exp", "expl"):
                    exp_name, iid = tli.get_name("exp"), "exp"
                elif lf in ("exp2f", "exp2", "exp2l"):
                    exp_name, iid = tli.get_name("exp2"), "exp2"
                else:
                    return None
                fmul = _fp_binop(b, "fmul", base.get_arg(0), expo, "mul")
                exp_fn: Value
                if base.does_not_access_memory:
                    exp_fn = b.create_unary_intrinsic(iid, fmul, exp_name)
                else:
                    exp_fn = bl.emit_unary_float_fn_call(fmul, tli, iid, b, base.attributes)
                base.replace_all_uses_with(exp_fn)
                if self.eraser is not None:
                    self.eraser(base)
                else:
                    base.erase_from_parent()
                return exp_fn
        bf = _fp_value(base)
        if bf is None:
            return None
        use_intrinsic = pow_.does_not_access_memory
        if (use_intrinsic or not ty.is_vector) and bf == 2.0 and getattr(expo, "opcode", None) in ("sitofp", "uitofp") and (
            use_intrinsic or _has_float_fn(module, tli, ty, "ldexp")
        ):
            ei = _get_int_to_fp_val(expo, b, tli.int_size)
            if ei is not None:
                one: Value = ConstantFP.get(ty, 1.0) if not ty.is_vector else _fp_splat(ty, 1.0)
                if use_intrinsic:
                    return copy_flags(pow_, b.create_intrinsic("ldexp", [ty, ei.type], [one, ei], "exp2", fmf_source=pow_))
                return copy_flags(pow_, bl.emit_binary_float_fn_call(one, ei, tli, "ldexp", b, _empty_attrs()))
        if _has_float_fn(module, tli, ty, "exp2") and bf != 0.0 and not math.isinf(bf) and not math.isnan(bf):
            rec = 1.0 / bf
            is_int = bf == int(bf)
            is_rec = not math.isinf(rec) and rec == int(rec)
            nf = rec if is_rec else bf
            if (is_int or is_rec) and 1 < nf < 2.0**63:
                ni = int(nf)
                if ni & (ni - 1) == 0:
                    n = float(ni.bit_length() - 1) * (-1.0 if is_rec else 1.0)
                    nc: Value = ConstantFP.get(ty, n) if not ty.is_vector else _fp_splat(ty, n)
                    fmul = _fp_binop(b, "fmul", expo, nc, "mul")
                    if use_intrinsic:
                        return copy_flags(pow_, b.create_unary_intrinsic("exp2", fmul, "exp2"))
                    return copy_flags(pow_, bl.emit_unary_float_fn_call(fmul, tli, "exp2", b, _empty_attrs()))
        if bf == 10.0 and _has_float_fn(module, tli, ty, "exp10"):
            if use_intrinsic:
                return copy_flags(pow_, b.create_intrinsic("exp10", [ty], [expo], "exp10", fmf_source=pow_))
            return copy_flags(pow_, bl.emit_unary_float_fn_call(expo, tli, "exp10", b, _empty_attrs()))
        fmf = int(pow_.fast_math_flags)
        if fmf & 64 and fmf & 2 and bf != 0.0 and not math.isinf(bf) and bf > 0:
            st = ty.element_type if ty.is_vector else ty  # type: ignore[attr-defined]
            log: Value | None = None
            if st.type_id is TypeID.FLOAT:
                import struct

                lv = struct.unpack("<f", struct.pack("<f", math.log2(bf)))[0]
                log = ConstantFP.get(ty, lv) if not ty.is_vector else _fp_splat(ty, lv)
            elif st.type_id is TypeID.DOUBLE:
                log = ConstantFP.get(ty, math.log2(bf)) if not ty.is_vector else _fp_splat(ty, math.log2(bf))
            if log is not None:
                fmul = _fp_binop(b, "fmul", log, expo, "mul")
                if use_intrinsic:
                    return copy_flags(pow_, b.create_unary_intrinsic("exp2", fmul, "exp2"))
                if _has_float_fn(module, tli, ty, "exp2"):
                    return copy_flags(pow_, bl.emit_unary_float_fn_call(fmul, tli, "exp2", b, _empty_attrs()))
        return None

    def _get_sqrt_call(self, v: Value, no_errno: bool, b: IRBuilder) -> Value | None:
        """``getSqrtCall``."""
        if no_errno:
            return b.create_unary_intrinsic("sqrt", v, "sqrt")
        tli = self.tli
        fn = b.function
        module = fn.parent if fn is not None else None
        if tli is None or module is None or not _has_float_fn(module, tli, v.type, "sqrt"):
            return None
        return bl.emit_unary_float_fn_call(v, tli, "sqrt", b, _empty_attrs())

    def _replace_pow_with_sqrt(self, pow_: CallInst, b: IRBuilder, ec: float | None) -> Value | None:
        """``replacePowWithSqrt``: pow(x, +-0.5) -> sqrt(x) with the fabs, infinity and
        reciprocal fix-ups the flags require."""
        from llvmpy_mid.ir.constants import ConstantFP

        if ec not in (0.5, -0.5):
            return None
        assert ec is not None
        fmf = int(pow_.fast_math_flags)
        if ec < 0 and not fmf & (64 | 1):
            return None
        base = pow_.get_arg(0)
        ty = pow_.type
        if not pow_.does_not_access_memory and not fmf & 4 and not _is_known_never_infinity(base):
            return None
        sqrt = self._get_sqrt_call(base, pow_.does_not_access_memory, b)
        if sqrt is None:
            return None
        if not fmf & 8:
            sqrt = b.create_unary_intrinsic("fabs", sqrt, "abs")
        copy_flags(pow_, sqrt)
        if not fmf & 4:
            pos = _fp_inf(ty, False)
            neg = _fp_inf(ty, True)
            cmp = b.create_fcmp("oeq", base, neg, "isinf")
            sqrt = b.create_select(cmp, pos, sqrt)
        if ec < 0:
            one: Value = ConstantFP.get(ty, 1.0) if not ty.is_vector else _fp_splat(ty, 1.0)
            sqrt = _fp_binop(b, "fdiv", one, sqrt, "reciprocal")
        return sqrt

    def _merge_sqrt_to_exp(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``mergeSqrtToExp``: sqrt(exp(X)) -> exp(X * 0.5) when both allow reassociation."""
        if not int(ci.fast_math_flags) & 1:
            return None
        arg = ci.get_arg(0)
        if not isinstance(arg, CallInst) or not int(arg.fast_math_flags) & 1 or not arg.has_one_use:
            return None
        tli = self.tli
        sqrt_fn = ci.called_function
        assert tli is not None and sqrt_fn is not None
        arg_id = arg.intrinsic_base
        arg_fn = arg.called_function
        arg_lb = tli.get_lib_func(arg_fn) if arg_fn is not None and not arg.is_no_builtin else None
        sq = tli.get_lib_func_by_name(sqrt_fn.name)
        suffix: str | None = None
        if sq in ("sqrtf", "sqrt", "sqrtl"):
            suffix = sq[4:]
        elif sqrt_fn.intrinsic_id and ci.intrinsic_base == "llvm.sqrt":
            st = ci.type.element_type if ci.type.is_vector else ci.type  # type: ignore[attr-defined]
            if st.type_id is TypeID.FLOAT:
                suffix = "f"
            elif st.type_id is TypeID.DOUBLE:
                suffix = ""
        if suffix is None:
            return None
        if arg_lb not in ("exp" + suffix, "exp2" + suffix, "exp10" + suffix) and arg_id not in ("llvm.exp", "llvm.exp2"):
            return None
        from llvmpy_mid.ir.constants import ConstantFP

        op = arg.operands[0]
        half: Value = ConstantFP.get(op.type, 0.5) if not op.type.is_vector else _fp_splat(op.type, 0.5)
        b.position_before(arg)
        fmul = _fp_binop(b, "fmul", op, half, "merged.sqrt")
        if isinstance(fmul, Instruction):
            fmul.fast_math_flags = ci.fast_math_flags  # type: ignore[attr-defined]
        b.position_before(ci)
        arg.set_operand(0, fmul)
        return arg

    def _optimize_exp2(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeExp2``: exp2(sitofp x) -> ldexp(1.0, sext x) (uitofp: zext, narrower only)."""
        callee = ci.called_function
        tli = self.tli
        assert callee is not None and tli is not None
        module = callee.parent
        ret: Value | None = None
        if int(ci.fast_math_flags) == 127 and callee.name == tli.get_name("exp2") and module is not None and bl.is_lib_func_emittable(module, tli, callee.name + "f"):
            ret = self._optimize_double_fp(ci, b, False, True)
        use_intrinsic = bool(callee.intrinsic_id)
        ty = ci.type
        if not use_intrinsic and ty.is_vector:
            return ret
        op = ci.get_arg(0)
        opc = getattr(op, "opcode", None)
        if opc not in ("sitofp", "uitofp") or module is None:
            return ret
        if not use_intrinsic and not _has_float_fn(module, tli, ty, "ldexp"):
            return ret
        exp = _get_int_to_fp_val(op, b, tli.int_size)
        if exp is None:
            return ret
        from llvmpy_mid.ir.constants import ConstantFP

        one: Value = ConstantFP.get(ty, 1.0) if not ty.is_vector else _fp_splat(ty, 1.0)
        if use_intrinsic:
            return copy_flags(ci, b.create_intrinsic("ldexp", [ty, exp.type], [one, exp], fmf_source=ci))
        saved = b.fast_math_flags
        b.fast_math_flags = ci.fast_math_flags
        name = "ldexp"
        r = bl.emit_binary_float_fn_call(one, exp, tli, name, b, _empty_attrs())
        b.fast_math_flags = saved
        return copy_flags(ci, r)

    # --- fortified functions (FortifiedLibCallSimplifier) -------------------------------------
    def _optimize_fortified(self, ci: CallInst, b: IRBuilder, cc_c: bool) -> Value | None:
        """``FortifiedLibCallSimplifier::optimizeCall`` (nobuiltin and availability are ignored,
        as LLVM does)."""
        tli = self.tli
        callee = ci.called_function
        if tli is None or callee is None:
            return None
        func = tli.get_lib_func(callee)
        if func is None or not func.endswith("_chk"):
            return None
        if not cc_c:
            return None
        if not ci.has_operand_bundles:
            return self._fortified(ci, b, func)
        prev = ci.prev_instruction
        v = self._fortified(ci, b, func)
        return self._apply_default_bundles(ci, prev, b, v)

    def _is_fortified_call_foldable(self, ci: CallInst, obj_size_op: int, size_op: int | None, str_op: int | None = None, flag_op: int | None = None) -> bool:
        """``isFortifiedCallFoldable``."""
        if flag_op is not None:
            flag = ci.get_arg(flag_op)
            if not isinstance(flag, ConstantInt) or flag.value != 0:
                return False
        if size_op is not None and ci.get_arg(obj_size_op) is ci.get_arg(size_op):
            return True
        osz = ci.get_arg(obj_size_op)
        if isinstance(osz, ConstantInt):
            if osz.value == osz.type.mask:
                return True
            if str_op is not None:
                ln = get_string_length(ci.get_arg(str_op))
                if ln:
                    annotate_dereferenceable_bytes(ci, [str_op], ln)
                else:
                    return False
                return osz.value >= ln
            if size_op is not None:
                sz = ci.get_arg(size_op)
                if isinstance(sz, ConstantInt):
                    return osz.value >= sz.value
        return False

    def _fortified(self, ci: CallInst, b: IRBuilder, func: str) -> Value | None:
        tli = self.tli
        if func in ("memcpy_chk", "memmove_chk"):
            if self._is_fortified_call_foldable(ci, 3, 2):
                make = bl.create_mem_cpy if func == "memcpy_chk" else bl.create_mem_move
                new = make(b, ci.get_arg(0), 1, ci.get_arg(1), 1, ci.get_arg(2))
                merge_attributes_and_flags(new, ci)
                return ci.get_arg(0)
            return None
        if func == "memset_chk":
            if self._is_fortified_call_foldable(ci, 3, 2):
                val = b.create_zext_or_trunc(ci.get_arg(1), b.context.i8)
                new = bl.create_mem_set(b, ci.get_arg(0), val, ci.get_arg(2), 1)
                merge_attributes_and_flags(new, ci)
                return ci.get_arg(0)
            return None
        if func == "mempcpy_chk":
            if self._is_fortified_call_foldable(ci, 3, 2):
                call = bl.emit_mem_p_cpy(ci.get_arg(0), ci.get_arg(1), ci.get_arg(2), b, tli)
                if call is not None:
                    merge_attributes_and_flags(call, ci)
                    return call
            return None
        if func in ("strcpy_chk", "stpcpy_chk"):
            dst, src, obj = ci.get_arg(0), ci.get_arg(1), ci.get_arg(2)
            if func == "stpcpy_chk" and dst is src:
                sl = bl.emit_str_len(src, b, tli)
                return b.create_gep(b.context.i8, dst, [sl], inbounds=True) if sl is not None else None
            if self._is_fortified_call_foldable(ci, 2, None, 1):
                if func == "strcpy_chk":
                    return copy_flags(ci, bl.emit_str_cpy(dst, src, b, tli))
                return copy_flags(ci, bl.emit_stp_cpy(dst, src, b, tli))
            ln = get_string_length(src)
            if ln:
                annotate_dereferenceable_bytes(ci, [1], ln)
            else:
                return None
            st = bl.size_t_type(b)
            ret = bl.emit_mem_cpy_chk(dst, src, ConstantInt.get(st, ln), obj, b, tli)
            if ret is not None and func == "stpcpy_chk":
                return b.create_gep(b.context.i8, dst, [ConstantInt.get(st, ln - 1)], inbounds=True)
            return copy_flags(ci, ret)
        if func == "strlen_chk":
            if self._is_fortified_call_foldable(ci, 1, None, 0):
                return copy_flags(ci, bl.emit_str_len(ci.get_arg(0), b, tli))
            return None
        if func in ("strncpy_chk", "stpncpy_chk"):
            if self._is_fortified_call_foldable(ci, 3, 2):
                emit = bl.emit_str_n_cpy if func == "strncpy_chk" else bl.emit_stp_n_cpy
                return copy_flags(ci, emit(ci.get_arg(0), ci.get_arg(1), ci.get_arg(2), b, tli))
            return None
        a = ci.get_arg
        if func == "memccpy_chk":
            if self._is_fortified_call_foldable(ci, 4, 3):
                return copy_flags(ci, bl.emit_mem_c_cpy(a(0), a(1), a(2), a(3), b, tli))
            return None
        if func == "snprintf_chk":
            if self._is_fortified_call_foldable(ci, 3, 1, None, 2):
                return copy_flags(ci, bl.emit_sn_printf(a(0), a(1), a(4), list(ci.args[5:]), b, tli))
            return None
        if func == "sprintf_chk":
            if self._is_fortified_call_foldable(ci, 2, None, None, 1):
                return copy_flags(ci, bl.emit_s_printf(a(0), a(3), list(ci.args[4:]), b, tli))
            return None
        if func == "strcat_chk":
            if self._is_fortified_call_foldable(ci, 2, None):
                return copy_flags(ci, bl.emit_str_cat(a(0), a(1), b, tli))
            return None
        if func in ("strlcat_chk", "strncat_chk", "strlcpy_chk"):
            if self._is_fortified_call_foldable(ci, 3, None):
                emit3 = {"strlcat_chk": bl.emit_str_l_cat, "strncat_chk": bl.emit_str_n_cat, "strlcpy_chk": bl.emit_str_l_cpy}[func]
                return copy_flags(ci, emit3(a(0), a(1), a(2), b, tli))
            return None
        if func == "vsnprintf_chk":
            if self._is_fortified_call_foldable(ci, 3, 1, None, 2):
                return copy_flags(ci, bl.emit_vsn_printf(a(0), a(1), a(4), a(5), b, tli))
            return None
        if func == "vsprintf_chk":
            if self._is_fortified_call_foldable(ci, 2, None, None, 1):
                return copy_flags(ci, bl.emit_vs_printf(a(0), a(3), a(4), b, tli))
            return None
        return None

    # --- strings ------------------------------------------------------------------------
    def optimize_string_length(self, ci: CallInst, b: IRBuilder, char_size: int, bound: Value | None = None) -> Value | None:
        """``optimizeStringLength``."""
        src = ci.get_arg(0)
        ctx = b.context
        char_ty = ctx.int_type(char_size)
        if is_only_used_in_zero_equality_comparison(ci) and (bound is None or is_known_non_zero(bound, self.dl)):
            ld = b.load(char_ty, src, "char0", alignment=self.dl.abi_alignment(char_ty))
            return b.create_zext(ld, ci.type)
        if bound is not None and isinstance(bound, ConstantInt):
            if bound.value == 0:
                return ConstantInt.get(ci.type, 0)
            if bound.value == 1:
                cv = b.load(char_ty, src, "strnlen.char0", alignment=self.dl.abi_alignment(char_ty))
                cmp = b.create_icmp("ne", cv, ConstantInt.get(char_ty, 0), "strnlen.char0cmp")
                return b.create_zext(cmp, ci.type)
        ln = get_string_length(src, char_size)
        if ln:
            lc = ConstantInt.get(ci.type, ln - 1)
            if bound is not None:
                return b.create_binary_intrinsic("umin", lc, bound)
            return lc
        if bound is not None:
            return None
        if getattr(src, "opcode", None) == "getelementptr":
            if not is_gep_based_on_pointer_to_string(src, char_size):
                return None
            base = src.operands[0]  # type: ignore[attr-defined]
            sl = get_constant_data_array_info(base, char_size)
            if sl is not None:
                if sl.raw is None:
                    null_idx = 0
                else:
                    null_idx = -1
                    for k in range(sl.length):
                        if sl.element(k) == 0:
                            null_idx = k
                            break
                    if null_idx < 0:
                        return None
                offset = src.operands[2]  # type: ignore[attr-defined]
                from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits
                from llvmpy_mid.analysis.simplify_query import SimplifyQuery
                from llvmpy_mid.ir.global_value import GlobalVariable

                kb = compute_known_bits(offset, SimplifyQuery(self.dl, None, None, None, ci), 0)
                arr_size = src.source_element_type.count  # type: ignore[attr-defined]
                if (kb.is_non_negative() and kb.get_max_value() <= null_idx) or (
                    isinstance(base, GlobalVariable) and null_idx == arr_size - 1
                ):
                    off = b.create_sext_or_trunc(offset, ci.type)
                    return b.create_sub(ConstantInt.get(ci.type, null_idx), off)
        if isinstance(src, SelectInst):
            lt = get_string_length(src.true_value, char_size)
            lf = get_string_length(src.false_value, char_size)
            if lt and lf:
                if self.ore is not None:
                    self.ore.emit(
                        lambda: optimization_remark("instcombine", "simplify-libcalls", ci).add(
                            "folded strlen(select) to select of constants"
                        )
                    )
                return b.create_select(
                    src.condition, ConstantInt.get(ci.type, lt - 1), ConstantInt.get(ci.type, lf - 1)
                )
        return None

    def optimize_str_len(self, ci: CallInst, b: IRBuilder) -> Value | None:
        v = self.optimize_string_length(ci, b, 8)
        if v is not None:
            return v
        annotate_non_null_no_undef_based_on_access(ci, [0])
        return None

    def optimize_str_n_len(self, ci: CallInst, b: IRBuilder) -> Value | None:
        bound = ci.get_arg(1)
        v = self.optimize_string_length(ci, b, 8, bound)
        if v is not None:
            return v
        if is_known_non_zero(bound, self.dl):
            annotate_non_null_no_undef_based_on_access(ci, [0])
        return None

    def optimize_wcslen(self, ci: CallInst, b: IRBuilder) -> Value | None:
        ws = _wchar_size(ci.module) * 8
        if ws == 0:
            return None
        return self.optimize_string_length(ci, b, ws)

    def optimize_str_cat(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrCat``: strcat(x, "") -> x; strcat(x, s) -> memcpy(x + strlen(x), s, n+1)."""
        dst = ci.get_arg(0)
        src = ci.get_arg(1)
        annotate_non_null_no_undef_based_on_access(ci, [0, 1])
        ln = get_string_length(src)
        if ln:
            annotate_dereferenceable_bytes(ci, [1], ln)
        else:
            return None
        ln -= 1
        if ln == 0:
            return dst
        return copy_flags(ci, self._emit_str_len_mem_cpy(src, dst, ln, b))

    def _emit_str_len_mem_cpy(self, src: Value, dst: Value, ln: int, b: IRBuilder) -> Value | None:
        """``emitStrLenMemCpy``."""
        dst_len = bl.emit_str_len(dst, b, self.tli)
        if dst_len is None:
            return None
        cpy_dst = b.create_gep(b.context.i8, dst, [dst_len], "endptr", inbounds=True)
        bl.create_mem_cpy(b, cpy_dst, 1, src, 1, ConstantInt.get(self.dl_int_ptr_type(b), ln + 1))
        return dst

    def optimize_str_n_cat(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrNCat``."""
        dst = ci.get_arg(0)
        src = ci.get_arg(1)
        size = ci.get_arg(2)
        annotate_non_null_no_undef_based_on_access(ci, [0])
        if is_known_non_zero(size, self.dl):
            annotate_non_null_no_undef_based_on_access(ci, [1])
        if not isinstance(size, ConstantInt):
            return None
        n = size.value
        if n == 0:
            return dst
        src_len = get_string_length(src)
        if src_len:
            annotate_dereferenceable_bytes(ci, [1], src_len)
            src_len -= 1
        else:
            return None
        if src_len == 0:
            return dst
        if n < src_len:
            return None
        return copy_flags(ci, self._emit_str_len_mem_cpy(src, dst, src_len, b))

    def _mem_chr_to_char_compare(self, ci: CallInst, nbytes: Value | None, b: IRBuilder) -> Value:
        src = ci.get_arg(0)
        ctx = b.context
        char0 = b.load(ctx.i8, src, alignment=1)
        cv = b.create_trunc(ci.get_arg(1), ctx.i8)
        cmp = b.create_icmp("eq", char0, cv, "char0cmp")
        if nbytes is not None:
            ne = b.create_icmp("ne", nbytes, ConstantInt.get(nbytes.type, 0))
            cmp = b.create_logical_and(ne, cmp)
        return b.create_select(cmp, src, Constant.get_null_value(ci.type))

    def optimize_str_chr(self, ci: CallInst, b: IRBuilder) -> Value | None:
        src = ci.get_arg(0)
        cv = ci.get_arg(1)
        annotate_non_null_no_undef_based_on_access(ci, [0])
        if _is_only_used_in_equality_comparison(ci, src):
            return self._mem_chr_to_char_compare(ci, None, b)
        tli = self.tli
        assert tli is not None
        if not isinstance(cv, ConstantInt):
            ln = get_string_length(src)
            if ln:
                annotate_dereferenceable_bytes(ci, [0], ln)
            else:
                return None
            pt = ci.function_type.params[1]
            if not (isinstance(pt, IntegerType) and pt.width == tli.int_size):
                return None
            return copy_flags(ci, bl.emit_mem_chr(src, cv, ConstantInt.get(bl.size_t_type(b), ln), b, tli))
        if cv.value == 0:
            null = Constant.get_null_value(ci.type)
            if _is_only_used_in_equality_comparison(ci, null):
                return b.create_cast("inttoptr", ConstantInt.get(b.context.i1, 1), ci.type)
        s = get_constant_string_info(src)
        if s is None:
            if cv.value == 0:
                sl = bl.emit_str_len(src, b, tli)
                if sl is not None:
                    return b.create_gep(b.context.i8, src, [sl], "strchr", inbounds=True)
            return None
        ch = cv.value & 0xFF
        pos = len(s) if ch == 0 else s.find(bytes([ch]))
        if pos < 0:
            return Constant.get_null_value(ci.type)
        return b.create_gep(b.context.i8, src, [ConstantInt.get(b.context.i64, pos)], "strchr", inbounds=True)

    def optimize_str_r_chr(self, ci: CallInst, b: IRBuilder) -> Value | None:
        src = ci.get_arg(0)
        cv = ci.get_arg(1)
        annotate_non_null_no_undef_based_on_access(ci, [0])
        s = get_constant_string_info(src)
        if s is None:
            if isinstance(cv, ConstantInt) and cv.value == 0:
                return copy_flags(ci, bl.emit_str_chr(src, 0, b, self.tli))
            return None
        size = ConstantInt.get(bl.size_t_type(b), len(s) + 1)
        return copy_flags(ci, bl.emit_mem_rchr(src, cv, size, b, self.tli))

    def _load_i8_zext(self, p: Value, ci: CallInst, b: IRBuilder) -> Value:
        return b.create_zext(b.load(b.context.i8, p, "strcmpload", alignment=1), ci.type)

    def optimize_str_cmp(self, ci: CallInst, b: IRBuilder) -> Value | None:
        p1 = ci.get_arg(0)
        p2 = ci.get_arg(1)
        if p1 is p2:
            return ConstantInt.get(ci.type, 0)
        s1 = get_constant_string_info(p1)
        s2 = get_constant_string_info(p2)
        if s1 is not None and s2 is not None:
            return ConstantInt.get(ci.type, _compare(s1, s2) & _mask(ci))
        if s1 is not None and not s1:
            return b.create_neg(self._load_i8_zext(p2, ci, b))
        if s2 is not None and not s2:
            return self._load_i8_zext(p1, ci, b)
        l1 = get_string_length(p1)
        if l1:
            annotate_dereferenceable_bytes(ci, [0], l1)
        l2 = get_string_length(p2)
        if l2:
            annotate_dereferenceable_bytes(ci, [1], l2)
        ipt = self.dl_int_ptr_type(b)
        if l1 and l2:
            return copy_flags(ci, bl.emit_mem_cmp(p1, p2, ConstantInt.get(ipt, min(l1, l2)), b, self.tli))
        if s1 is None and s2 is not None:
            if _can_transform_to_mem_cmp(ci, p1, l2, self.dl):
                return copy_flags(ci, bl.emit_mem_cmp(p1, p2, ConstantInt.get(ipt, l2), b, self.tli))
        elif s1 is not None and s2 is None:
            if _can_transform_to_mem_cmp(ci, p2, l1, self.dl):
                return copy_flags(ci, bl.emit_mem_cmp(p1, p2, ConstantInt.get(ipt, l1), b, self.tli))
        annotate_non_null_no_undef_based_on_access(ci, [0, 1])
        return None

    def dl_int_ptr_type(self, b: IRBuilder) -> IntegerType:
        return b.context.int_type(self.dl.pointer_size_in_bits(0))

    def optimize_str_n_cmp(self, ci: CallInst, b: IRBuilder) -> Value | None:
        p1 = ci.get_arg(0)
        p2 = ci.get_arg(1)
        size = ci.get_arg(2)
        if p1 is p2:
            return ConstantInt.get(ci.type, 0)
        if is_known_non_zero(size, self.dl):
            annotate_non_null_no_undef_based_on_access(ci, [0, 1])
        if not isinstance(size, ConstantInt):
            return _optimize_mem_cmp_var_size(ci, p1, p2, size, True, b)
        length = size.value
        if length == 0:
            return ConstantInt.get(ci.type, 0)
        if length == 1:
            return copy_flags(ci, bl.emit_mem_cmp(p1, p2, size, b, self.tli))
        s1 = get_constant_string_info(p1)
        s2 = get_constant_string_info(p2)
        if s1 is not None and s2 is not None:
            return ConstantInt.get(ci.type, _compare(s1[:length], s2[:length]) & _mask(ci))
        if s1 is not None and not s1:
            return b.create_neg(self._load_i8_zext(p2, ci, b))
        if s2 is not None and not s2:
            return self._load_i8_zext(p1, ci, b)
        l1 = get_string_length(p1)
        if l1:
            annotate_dereferenceable_bytes(ci, [0], l1)
        l2 = get_string_length(p2)
        if l2:
            annotate_dereferenceable_bytes(ci, [1], l2)
        ipt = self.dl_int_ptr_type(b)
        if s1 is None and s2 is not None:
            l2 = min(l2, length)
            if _can_transform_to_mem_cmp(ci, p1, l2, self.dl):
                return copy_flags(ci, bl.emit_mem_cmp(p1, p2, ConstantInt.get(ipt, l2), b, self.tli))
        elif s1 is not None and s2 is None:
            l1 = min(l1, length)
            if _can_transform_to_mem_cmp(ci, p2, l1, self.dl):
                return copy_flags(ci, bl.emit_mem_cmp(p1, p2, ConstantInt.get(ipt, l1), b, self.tli))
        return None

    def optimize_str_cpy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        dst = ci.get_arg(0)
        src = ci.get_arg(1)
        if dst is src:
            return src
        annotate_non_null_no_undef_based_on_access(ci, [0, 1])
        ln = get_string_length(src)
        if ln:
            annotate_dereferenceable_bytes(ci, [1], ln)
        else:
            return None
        new = bl.create_mem_cpy(b, dst, 1, src, 1, ConstantInt.get(self.dl_int_ptr_type(b), ln))
        merge_attributes_and_flags(new, ci)
        return dst

    def optimize_stp_cpy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        dst = ci.get_arg(0)
        src = ci.get_arg(1)
        if ci._use_head is None:
            return copy_flags(ci, bl.emit_str_cpy(dst, src, b, self.tli))
        if dst is src:
            sl = bl.emit_str_len(src, b, self.tli)
            return b.create_gep(b.context.i8, dst, [sl], inbounds=True) if sl is not None else None
        ln = get_string_length(src)
        if ln:
            annotate_dereferenceable_bytes(ci, [1], ln)
        else:
            return None
        ipt = self.dl_int_ptr_type(b)
        lenv = ConstantInt.get(ipt, ln)
        dst_end = b.create_gep(b.context.i8, dst, [ConstantInt.get(ipt, ln - 1)], inbounds=True)
        new = bl.create_mem_cpy(b, dst, 1, src, 1, lenv)
        merge_attributes_and_flags(new, ci)
        return dst_end

    def optimize_string_n_cpy(self, ci: CallInst, b: IRBuilder, ret_end: bool) -> Value | None:
        """``optimizeStringNCpy``: strncpy (and stpncpy when ``ret_end``)."""
        dst = ci.get_arg(0)
        src = ci.get_arg(1)
        size = ci.get_arg(2)
        ctx = b.context
        if is_known_non_zero(size, self.dl):
            annotate_non_null_no_undef_based_on_access(ci, [0])
            annotate_non_null_no_undef_based_on_access(ci, [1])
        n = size.value if isinstance(size, ConstantInt) else (1 << 64) - 1
        if n == 0:
            return dst
        if n == 1:
            cv = b.load(ctx.i8, src, "stxncpy.char0", alignment=1)
            b.store(cv, dst, alignment=1)
            if not ret_end:
                return dst
            cmp = b.create_icmp("eq", cv, ConstantInt.get(ctx.i8, 0), "stpncpy.char0cmp")
            end = b.create_gep(ctx.i8, dst, [ConstantInt.get(ctx.i32, 1)], "stpncpy.end", inbounds=True)
            return b.create_select(cmp, dst, end, "stpncpy.sel")
        src_len = get_string_length(src)
        if src_len:
            annotate_dereferenceable_bytes(ci, [1], src_len)
        else:
            return None
        src_len -= 1
        if src_len == 0:
            align = ci.attributes.param_alignment(0) or 1
            new = bl.create_mem_set(b, dst, ConstantInt.get(ctx.i8, 0), size, align)
            attrs = new.attributes
            for a in ci.attributes.param_attrs(0):
                attrs = attrs.without_param_attr(0, a.kind_name).with_param_attr(0, a) if not a.is_string_attr else attrs.with_param_attr(0, a)
            new.attributes = attrs
            copy_flags(ci, new)
            return dst
        if n > src_len + 1:
            if n > 128:
                return None
            sstr = get_constant_string_info(src)
            if sstr is None:
                return None
            sstr = (sstr + b"\0" * n)[:n]
            src = bl.create_global_string(b, sstr, "str")
        ipt = self.dl_int_ptr_type(b)
        new = bl.create_mem_cpy(b, dst, 1, src, 1, ConstantInt.get(ipt, n))
        merge_attributes_and_flags(new, ci)
        if not ret_end:
            return dst
        return b.create_gep(ctx.i8, dst, [ConstantInt.get(ctx.i64, min(src_len, n))], "endptr", inbounds=True)

    def optimize_str_n_cpy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        return self.optimize_string_n_cpy(ci, b, False)

    def optimize_stp_n_cpy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        return self.optimize_string_n_cpy(ci, b, True)

    # --- strndup, strlcpy, strspn/strcspn/strpbrk, strstr, memccpy, strto*/ato* ----------
    def optimize_str_n_dup(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrNDup``."""
        src = ci.get_arg(0)
        size = ci.get_arg(1)
        src_len = get_string_length(src)
        if src_len and isinstance(size, ConstantInt):
            annotate_dereferenceable_bytes(ci, [0], src_len)
            if src_len <= size.value + 1:
                return copy_flags(ci, bl.emit_str_dup(src, b, self.tli))
        return None

    def optimize_str_l_cpy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrLCpy``."""
        size = ci.get_arg(2)
        if is_known_non_zero(size, self.dl):
            annotate_non_null_no_undef_based_on_access(ci, [0])
        annotate_non_null_no_undef_based_on_access(ci, [1])
        if not isinstance(size, ConstantInt):
            return None
        nbytes = size.value
        dst = ci.get_arg(0)
        src = ci.get_arg(1)
        i8 = b.context.i8
        if nbytes <= 1:
            if nbytes == 1:
                b.store(ConstantInt.get(i8, 0), dst, alignment=1)
            return copy_flags(ci, bl.emit_str_len(src, b, self.tli))
        sstr = get_constant_string_info(src, trim_at_nul=False)
        if sstr is None:
            return None
        src_len = sstr.find(b"\0")
        if src_len < 0:
            src_len = (1 << 64) - 1
        nul_term = src_len < nbytes
        if nul_term:
            nbytes = src_len + 1
        else:
            src_len = min(src_len, len(sstr))
            nbytes = min(nbytes - 1, src_len)
        if src_len == 0:
            b.store(ConstantInt.get(i8, 0), dst, alignment=1)
            return ConstantInt.get(ci.type, 0)
        new = bl.create_mem_cpy(b, dst, 1, src, 1, ConstantInt.get(self.dl_int_ptr_type(b), nbytes))
        merge_attributes_and_flags(new, ci)
        if not nul_term:
            end = b.create_gep(i8, dst, [ConstantInt.get(ci.type, nbytes)], inbounds=True)
            b.store(ConstantInt.get(i8, 0), end, alignment=1)
        return ConstantInt.get(ci.type, src_len)

    def optimize_str_p_brk(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrPBrk``."""
        s1 = get_constant_string_info(ci.get_arg(0))
        s2 = get_constant_string_info(ci.get_arg(1))
        if (s1 is not None and not s1) or (s2 is not None and not s2):
            return Constant.get_null_value(ci.type)
        if s1 is not None and s2 is not None:
            i = _find_first_of(s1, s2)
            if i < 0:
                return Constant.get_null_value(ci.type)
            return b.create_gep(b.context.i8, ci.get_arg(0), [ConstantInt.get(b.context.i64, i)], "strpbrk", inbounds=True)
        if s2 is not None and len(s2) == 1:
            return copy_flags(ci, bl.emit_str_chr(ci.get_arg(0), s2[0], b, self.tli))
        return None

    def optimize_str_to(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrTo``: a null end pointer makes the string argument nocapture."""
        if isinstance(ci.get_arg(1), ConstantPointerNull):
            _add_nocapture(ci, 0)
        return None

    def optimize_str_spn(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrSpn``."""
        s1 = get_constant_string_info(ci.get_arg(0))
        s2 = get_constant_string_info(ci.get_arg(1))
        if (s1 is not None and not s1) or (s2 is not None and not s2):
            return Constant.get_null_value(ci.type)
        if s1 is not None and s2 is not None:
            pos = len(s1)
            for k, c in enumerate(s1):
                if c not in s2:
                    pos = k
                    break
            return ConstantInt.get(ci.type, pos)
        return None

    def optimize_str_c_spn(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrCSpn``."""
        s1 = get_constant_string_info(ci.get_arg(0))
        s2 = get_constant_string_info(ci.get_arg(1))
        if s1 is not None and not s1:
            return Constant.get_null_value(ci.type)
        if s1 is not None and s2 is not None:
            pos = _find_first_of(s1, s2)
            return ConstantInt.get(ci.type, len(s1) if pos < 0 else pos)
        if s2 is not None and not s2:
            return copy_flags(ci, bl.emit_str_len(ci.get_arg(0), b, self.tli))
        return None

    def optimize_str_str(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeStrStr``."""
        a0 = ci.get_arg(0)
        a1 = ci.get_arg(1)
        if a0 is a1:
            return a0
        if _is_only_used_in_equality_comparison(ci, a0):
            sl = bl.emit_str_len(a1, b, self.tli)
            if sl is None:
                return None
            sn = bl.emit_str_n_cmp(a0, a1, sl, b, self.tli)
            if sn is None:
                return None
            for old in list(ci.users):
                assert isinstance(old, ICmpInst)
                cmp = b.create_icmp(old.predicate, sn, Constant.get_null_value(sn.type), "cmp")
                if self.replacer is not None:
                    self.replacer(old, cmp)
                else:
                    old.replace_all_uses_with(cmp)
            return ci
        search = get_constant_string_info(a0)
        to_find = get_constant_string_info(a1)
        if to_find is not None and not to_find:
            return a0
        if search is not None and to_find is not None:
            off = search.find(to_find)
            if off < 0:
                return Constant.get_null_value(ci.type)
            return b.create_gep(b.context.i8, a0, [ConstantInt.get(b.context.i64, off)], "strstr", inbounds=True)
        if to_find is not None and len(to_find) == 1:
            return bl.emit_str_chr(a0, to_find[0], b, self.tli)
        annotate_non_null_no_undef_based_on_access(ci, [0, 1])
        return None

    def optimize_mem_c_cpy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeMemCCpy``."""
        dst = ci.get_arg(0)
        src = ci.get_arg(1)
        stop = ci.get_arg(2)
        n = ci.get_arg(3)
        if ci._use_head is None and dst is src:
            return dst
        if not isinstance(n, ConstantInt):
            return None
        if n.value == 0:
            return Constant.get_null_value(ci.type)
        sstr = get_constant_string_info(src, trim_at_nul=False)
        if sstr is None or not isinstance(stop, ConstantInt):
            return None
        pos = sstr.find(bytes([stop.value & 0xFF]))
        if pos < 0:
            if n.value <= len(sstr):
                copy_flags(ci, bl.create_mem_cpy(b, dst, 1, src, 1, n))
                return Constant.get_null_value(ci.type)
            return None
        new_n = ConstantInt.get(n.type, min(pos + 1, n.value))
        copy_flags(ci, bl.create_mem_cpy(b, dst, 1, src, 1, new_n))
        if pos + 1 <= n.value:
            return b.create_gep(b.context.i8, dst, [new_n], inbounds=True)
        return Constant.get_null_value(ci.type)

    def optimize_atoi(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeAtoi``."""
        _add_nocapture(ci, 0)
        s = get_constant_string_info(ci.get_arg(0))
        if s is None:
            return None
        return _convert_str_to_int(ci, s, None, 10, True, b, self.dl)

    def _optimize_str_to_int(self, ci: CallInst, b: IRBuilder, as_signed: bool) -> Value | None:
        """``optimizeStrToInt``."""
        end_ptr: Value | None = ci.get_arg(1)
        if isinstance(end_ptr, ConstantPointerNull):
            _add_nocapture(ci, 0)
            end_ptr = None
        elif not is_known_non_zero(ci.get_arg(1), self.dl):
            return None
        s = get_constant_string_info(ci.get_arg(0))
        if s is None:
            return None
        base = ci.get_arg(2)
        if isinstance(base, ConstantInt):
            return _convert_str_to_int(ci, s, end_ptr, base.sext_value, as_signed, b, self.dl)
        return None

    def optimize_str_to_int_signed(self, ci: CallInst, b: IRBuilder) -> Value | None:
        return self._optimize_str_to_int(ci, b, True)

    def optimize_str_to_int_unsigned(self, ci: CallInst, b: IRBuilder) -> Value | None:
        return self._optimize_str_to_int(ci, b, False)

    def optimize_realloc(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeRealloc``: realloc(null, n) -> malloc(n)."""
        if isinstance(ci.get_arg(0), ConstantPointerNull):
            return copy_flags(ci, bl.emit_malloc(ci.get_arg(1), b, self.tli))
        return None

    def optimize_b_copy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeBCopy``: bcopy(src, dst, n) -> llvm.memmove(dst, src, n)."""
        return copy_flags(ci, bl.create_mem_move(b, ci.get_arg(1), 1, ci.get_arg(0), 1, ci.get_arg(2)))

    def optimize_new(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeNew``: with ``-optimize-hot-cold-new``, a ``memprof`` hint on a call of
        ``operator new`` picks the hot/cold variant (an existing hint is rewritten only with
        ``-optimize-existing-hot-cold-new``)."""
        from llvmpy_mid.transform.instcombine.combiner import option

        if not option("optimize-hot-cold-new"):
            return None
        callee = ci.called_function
        tli = self.tli
        if callee is None or tli is None:
            return None
        func = tli.get_lib_func(callee)
        if func is None:
            return None
        memprof = ci.attributes.fn_attrs.string_value("memprof")
        not_cold = int(option("notcold-new-hint-value"))
        if memprof == "cold":
            hot_cold = int(option("cold-new-hint-value"))
        elif memprof == "notcold":
            hot_cold = not_cold
        elif memprof == "hot":
            hot_cold = int(option("hot-new-hint-value"))
        else:
            return None
        hot_cold &= 0xFF
        if func.endswith("12__hot_cold_t"):
            if not option("optimize-existing-hot-cold-new"):
                return None
            target = func
            args = ci.args[:-1]
        else:
            if hot_cold == not_cold:
                return None
            target = func + "12__hot_cold_t"
            args = ci.args
        return bl.emit_hot_cold_new(args, b, tli, target, hot_cold)

    # --- memory ----------------------------------------------------------------------------
    def optimize_mem_chr(self, ci: CallInst, b: IRBuilder) -> Value | None:
        src = ci.get_arg(0)
        size = ci.get_arg(2)
        ctx = b.context
        if is_known_non_zero(size, self.dl):
            annotate_non_null_no_undef_based_on_access(ci, [0])
            if _is_only_used_in_equality_comparison(ci, src):
                return self._mem_chr_to_char_compare(ci, size, b)
        cv = ci.get_arg(1)
        null = Constant.get_null_value(ci.type)
        if isinstance(size, ConstantInt):
            if size.value == 0:
                return null
            if size.value == 1:
                val = b.load(ctx.i8, src, "memchr.char0", alignment=1)
                c8 = b.create_trunc(cv, ctx.i8)
                cmp = b.create_icmp("eq", val, c8, "memchr.char0cmp")
                return b.create_select(cmp, src, null, "memchr.sel")
        s = get_constant_string_info(src, False)
        if s is None:
            return None
        if isinstance(cv, ConstantInt):
            pos = s.find(bytes([cv.value & 0xFF]))
            if pos < 0:
                return null
            cmp = b.create_icmp("ule", size, ConstantInt.get(size.type, pos), "memchr.cmp")
            plus = b.create_gep(ctx.i8, src, [ConstantInt.get(ctx.i64, pos)], "memchr.ptr", inbounds=True)
            return b.create_select(cmp, null, plus)
        if not s:
            return null
        if isinstance(size, ConstantInt):
            s = s[: size.value]
        pos = _find_first_not_of(s, s[0], 0)
        if pos < 0 or _find_first_not_of(s, s[pos], pos) < 0:
            sty = size.type
            c8 = b.create_trunc(cv, ctx.i8)
            sel1: Value = null
            if pos >= 0:
                posv = ConstantInt.get(sty, pos)
                ceq = b.create_icmp("eq", c8, ConstantInt.get(ctx.i8, s[pos]))
                ngt = b.create_icmp("ugt", size, posv)
                a = b.create_and(ceq, ngt)
                plus = b.create_gep(ctx.i8, src, [posv], inbounds=True)
                sel1 = b.create_select(a, plus, null, "memchr.sel1")
            ceq0 = b.create_icmp("eq", ConstantInt.get(ctx.i8, s[0]), c8)
            nnez = b.create_icmp("ne", size, ConstantInt.get(sty, 0))
            a2 = b.create_and(nnez, ceq0)
            return b.create_select(a2, src, sel1, "memchr.sel2")
        if not isinstance(size, ConstantInt):
            if _is_only_used_in_equality_comparison(ci, src):
                return self._mem_chr_to_char_compare(ci, size, b)
            return None
        fn = ci.function
        if fn is not None and (fn.has_fn_attribute("optsize") or fn.has_fn_attribute("minsize")):
            return None
        if not s or not is_only_used_in_zero_equality_comparison(ci):
            return None
        mx = max(s)
        if not self._fits_in_legal_integer(mx + 1):
            srt = sorted(s)
            ranges = 1
            for k in range(1, len(srt)):
                if srt[k] > srt[k - 1] + 1:
                    ranges += 1
            if ranges > 2:
                return None
            cmps = [b.create_icmp("eq", cv, ConstantInt.get(cv.type, c)) for c in srt]
            acc = cmps[0]
            for c2 in cmps[1:]:
                acc = b.create_or(acc, c2)
            return b.create_cast("inttoptr", acc, ci.type)
        width = 1 << max(7, mx).bit_length()
        bits = 0
        for c in s:
            bits |= 1 << c
        wt = ctx.int_type(width)
        bitfield = ConstantInt.get(wt, bits)
        cw = b.create_zext_or_trunc(cv, wt)
        cw = b.create_and(cw, ConstantInt.get(wt, 0xFF))
        bounds = b.create_icmp("ult", cw, ConstantInt.get(wt, width), "memchr.bounds")
        shl = b.create_shl(ConstantInt.get(wt, 1), cw)
        bitsv = b.create_is_not_null(b.create_and(shl, bitfield), "memchr.bits")
        return b.create_cast("inttoptr", b.create_logical_and(bounds, bitsv, "memchr"), ci.type)

    def _fits_in_legal_integer(self, width: int) -> bool:
        return self.dl.fits_in_legal_integer(width)

    def optimize_mem_r_chr(self, ci: CallInst, b: IRBuilder) -> Value | None:
        src = ci.get_arg(0)
        size = ci.get_arg(2)
        annotate_non_null_and_dereferenceable(ci, [0], size, self.dl)
        cv = ci.get_arg(1)
        ctx = b.context
        null = Constant.get_null_value(ci.type)
        lenc = size if isinstance(size, ConstantInt) else None
        if lenc is not None:
            if lenc.value == 0:
                return null
            if lenc.value == 1:
                val = b.load(ctx.i8, src, "memrchr.char0", alignment=1)
                c8 = b.create_trunc(cv, ctx.i8)
                cmp = b.create_icmp("eq", val, c8, "memrchr.char0cmp")
                return b.create_select(cmp, src, null, "memrchr.sel")
        s = get_constant_string_info(src, False)
        if s is None:
            return None
        if not s:
            return null
        end_off = len(s)
        if lenc is not None:
            end_off = lenc.value
            if len(s) < end_off:
                return None
        if isinstance(cv, ConstantInt):
            ch = cv.value
            pos = s.rfind(bytes([ch & 0xFF]), 0, end_off)
            if pos < 0:
                return null
            if lenc is not None:
                return b.create_gep(ctx.i8, src, [ConstantInt.get(ctx.i64, pos)], inbounds=True)
            if s.find(s[pos : pos + 1]) == pos:
                cmp = b.create_icmp("ule", size, ConstantInt.get(size.type, pos), "memrchr.cmp")
                plus = b.create_gep(ctx.i8, src, [ConstantInt.get(ctx.i64, pos)], "memrchr.ptr_plus", inbounds=True)
                return b.create_select(cmp, null, plus, "memrchr.sel")
        s = s[:end_off]
        if _find_first_not_of(s, s[0], 0) >= 0:
            return None
        sty = size.type
        nnez = b.create_icmp("ne", size, ConstantInt.get(sty, 0))
        c8 = b.create_trunc(cv, ctx.i8)
        ceq = b.create_icmp("eq", ConstantInt.get(ctx.i8, s[0]), c8)
        a = b.create_logical_and(nnez, ceq)
        m1 = b.create_sub(size, ConstantInt.get(sty, 1))
        plus = b.create_gep(ctx.i8, src, [m1], "memrchr.ptr_plus", inbounds=True)
        return b.create_select(a, plus, null, "memrchr.sel")

    def _optimize_mem_cmp_bcmp_common(self, ci: CallInst, b: IRBuilder) -> Value | None:
        lhs = ci.get_arg(0)
        rhs = ci.get_arg(1)
        size = ci.get_arg(2)
        annotate_non_null_and_dereferenceable(ci, [0, 1], size, self.dl)
        r = _optimize_mem_cmp_var_size(ci, lhs, rhs, size, False, b)
        if r is not None:
            return r
        if not isinstance(size, ConstantInt):
            return None
        return self._optimize_mem_cmp_constant_size(ci, lhs, rhs, size.value, b)

    def _optimize_mem_cmp_constant_size(self, ci: CallInst, lhs: Value, rhs: Value, n: int, b: IRBuilder) -> Value | None:
        ctx = b.context
        if n == 0:
            return Constant.get_null_value(ci.type)
        if n == 1:
            lv = b.create_zext(b.load(ctx.i8, lhs, "lhsc", alignment=1), ci.type, "lhsv")
            rv = b.create_zext(b.load(ctx.i8, rhs, "rhsc", alignment=1), ci.type, "rhsv")
            return b.create_sub(lv, rv, "chardiff")
        if self.dl.is_legal_integer(n * 8) and is_only_used_in_zero_equality_comparison(ci):
            from llvmpy_mid.analysis.constant_folding_memory import constant_fold_load_from_const_ptr

            ity = ctx.int_type(n * 8)
            pref = self.dl.pref_alignment(ity)
            lcv: Value | None = constant_fold_load_from_const_ptr(lhs, ity, self.dl) if isinstance(lhs, Constant) else None
            rcv: Value | None = constant_fold_load_from_const_ptr(rhs, ity, self.dl) if isinstance(rhs, Constant) else None
            if (lcv is not None or _known_align(lhs, ci, self.dl) >= pref) and (rcv is not None or _known_align(rhs, ci, self.dl) >= pref):
                if lcv is None:
                    lcv = b.load(ity, lhs, "lhsv", alignment=self.dl.abi_alignment(ity))
                if rcv is None:
                    rcv = b.load(ity, rhs, "rhsv", alignment=self.dl.abi_alignment(ity))
                return b.create_zext(b.create_icmp("ne", lcv, rcv), ci.type, "memcmp")
        return None

    def optimize_mem_cmp(self, ci: CallInst, b: IRBuilder) -> Value | None:
        v = self._optimize_mem_cmp_bcmp_common(ci, b)
        if v is not None:
            return v
        fn = ci.function
        module = fn.parent if fn is not None else None
        if module is not None and bl.is_lib_func_emittable(module, self.tli, "bcmp") and is_only_used_in_zero_equality_comparison(ci):
            return copy_flags(ci, bl.emit_bcmp(ci.get_arg(0), ci.get_arg(1), ci.get_arg(2), b, self.tli))
        return None

    def optimize_b_cmp(self, ci: CallInst, b: IRBuilder) -> Value | None:
        return self._optimize_mem_cmp_bcmp_common(ci, b)

    def optimize_mem_cpy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        size = ci.get_arg(2)
        annotate_non_null_and_dereferenceable(ci, [0, 1], size, self.dl)
        if ci.is_intrinsic_call:
            return None
        new = bl.create_mem_cpy(b, ci.get_arg(0), 1, ci.get_arg(1), 1, size)
        merge_attributes_and_flags(new, ci)
        return ci.get_arg(0)

    def optimize_mem_p_cpy(self, ci: CallInst, b: IRBuilder) -> Value | None:
        dst = ci.get_arg(0)
        n = ci.get_arg(2)
        new = bl.create_mem_cpy(b, dst, 1, ci.get_arg(1), 1, n)
        merge_attributes_and_flags(new, ci)
        return b.create_gep(b.context.i8, dst, [n], inbounds=True)

    def optimize_mem_move(self, ci: CallInst, b: IRBuilder) -> Value | None:
        size = ci.get_arg(2)
        annotate_non_null_and_dereferenceable(ci, [0, 1], size, self.dl)
        if ci.is_intrinsic_call:
            return None
        new = bl.create_mem_move(b, ci.get_arg(0), 1, ci.get_arg(1), 1, size)
        merge_attributes_and_flags(new, ci)
        return ci.get_arg(0)

    def optimize_mem_set(self, ci: CallInst, b: IRBuilder) -> Value | None:
        size = ci.get_arg(2)
        annotate_non_null_and_dereferenceable(ci, [0], size, self.dl)
        if ci.is_intrinsic_call:
            return None
        val = b.create_zext_or_trunc(ci.get_arg(1), b.context.i8)
        new = bl.create_mem_set(b, ci.get_arg(0), val, size, 1)
        merge_attributes_and_flags(new, ci)
        return ci.get_arg(0)

    # --- printf family -------------------------------------------------------------------
    def optimize_print_f_string(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizePrintFString``."""
        fmt = get_constant_string_info(ci.get_arg(0))
        if fmt is None:
            return None
        if not fmt:
            return ci if ci._use_head is None else ConstantInt.get(ci.type, 0)
        if ci._use_head is not None:
            return None
        it = ci.type
        tli = self.tli
        if len(fmt) == 1 or fmt == b"%%":
            return copy_flags(ci, bl.emit_put_char(ConstantInt.get(it, fmt[0]), b, tli))
        if fmt == b"%s" and ci.num_args > 1:
            s = get_constant_string_info(ci.operands[1])
            if s is None:
                return None
            if not s:
                return ci
            if len(s) == 1:
                return copy_flags(ci, bl.emit_put_char(ConstantInt.get(it, s[0]), b, tli))
            if s.endswith(b"\n"):
                gv = bl.create_global_string(b, s[:-1], "str")
                return copy_flags(ci, bl.emit_put_s(gv, b, tli))
            return None
        if fmt.endswith(b"\n") and b"%" not in fmt:
            gv = bl.create_global_string(b, fmt[:-1], "str")
            return copy_flags(ci, bl.emit_put_s(gv, b, tli))
        if fmt == b"%c" and ci.num_args > 1 and ci.get_arg(1).type.is_integer:
            ch = b.create_zext_or_trunc(ci.get_arg(1), it)
            return copy_flags(ci, bl.emit_put_char(ch, b, tli))
        if fmt == b"%s\n" and ci.num_args > 1 and ci.get_arg(1).type.is_pointer:
            return copy_flags(ci, bl.emit_put_s(ci.get_arg(1), b, tli))
        return None

    def _clone_as(self, ci: CallInst, b: IRBuilder, func: str) -> Value | None:
        """The call, cloned to call ``func`` (``iprintf``, ``__small_printf`` ...) of the same type."""
        fn = ci.function
        module = fn.parent if fn is not None else None
        callee = ci.called_function
        if module is None or callee is None or self.tli is None:
            return None
        decl = module.get_function(self.tli.get_name(func))
        if decl is None:
            decl = module.get_or_insert_function(self.tli.get_name(func), callee.function_type)
            decl.attributes = callee.attributes
        new = ci.clone()
        assert isinstance(new, CallInst)
        new.set_called_function(decl)
        return b.insert(new)

    def optimize_print_f(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizePrintF``."""
        v = self.optimize_print_f_string(ci, b)
        if v is not None:
            return v
        annotate_non_null_no_undef_based_on_access(ci, [0])
        fn = ci.function
        module = fn.parent if fn is not None else None
        if module is None:
            return None
        if bl.is_lib_func_emittable(module, self.tli, "iprintf") and not _call_has_fp_argument(ci):
            return self._clone_as(ci, b, "iprintf")
        if bl.is_lib_func_emittable(module, self.tli, "small_printf") and not _call_has_fp_argument(ci, True):
            return self._clone_as(ci, b, "small_printf")
        return None

    def optimize_s_print_f_string(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeSPrintFString``."""
        fmt = get_constant_string_info(ci.get_arg(1))
        if fmt is None:
            return None
        dest = ci.get_arg(0)
        ipt = self.dl_int_ptr_type(b)
        if ci.num_args == 2:
            if b"%" in fmt:
                return None
            bl.create_mem_cpy(b, dest, 1, ci.get_arg(1), 1, ConstantInt.get(ipt, len(fmt) + 1))
            return ConstantInt.get(ci.type, len(fmt))
        if len(fmt) != 2 or fmt[0] != ord("%") or ci.num_args < 3:
            return None
        ctx = b.context
        if fmt[1] == ord("c"):
            arg = ci.get_arg(2)
            if not arg.type.is_integer:
                return None
            v = b.create_trunc(arg, ctx.i8, "char")
            b.store(v, dest, alignment=1)
            ptr = b.create_gep(ctx.i8, dest, [ConstantInt.get(ctx.i32, 1)], "nul", inbounds=True)
            b.store(ConstantInt.get(ctx.i8, 0), ptr, alignment=1)
            return ConstantInt.get(ci.type, 1)
        if fmt[1] == ord("s"):
            src = ci.get_arg(2)
            if not src.type.is_pointer:
                return None
            if ci._use_head is None:
                return copy_flags(ci, bl.emit_str_cpy(dest, src, b, self.tli))
            ln = get_string_length(src)
            if ln:
                bl.create_mem_cpy(b, dest, 1, src, 1, ConstantInt.get(ipt, ln))
                return ConstantInt.get(ci.type, ln - 1)
            v2 = bl.emit_stp_cpy(dest, src, b, self.tli)
            if v2 is not None:
                i64 = ctx.i64
                l = b.create_cast("ptrtoint", v2, i64)
                r = b.create_cast("ptrtoint", dest, i64)
                diff = b.create_bin_op("sdiv", b.create_sub(l, r), ConstantInt.get(i64, 1), exact=True)
                return b.create_zext_or_trunc(diff, ci.type)
            fn = ci.function
            if fn is not None and (fn.has_fn_attribute("optsize") or fn.has_fn_attribute("minsize")):
                return None
            slen = bl.emit_str_len(src, b, self.tli)
            if slen is None:
                return None
            inc = b.create_add(slen, ConstantInt.get(slen.type, 1), "leninc")
            bl.create_mem_cpy(b, dest, 1, src, 1, inc)
            return b.create_zext_or_trunc(slen, ci.type)
        return None

    def optimize_s_print_f(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeSPrintF``."""
        v = self.optimize_s_print_f_string(ci, b)
        if v is not None:
            return v
        annotate_non_null_no_undef_based_on_access(ci, [0, 1])
        fn = ci.function
        module = fn.parent if fn is not None else None
        if module is None:
            return None
        if bl.is_lib_func_emittable(module, self.tli, "siprintf") and not _call_has_fp_argument(ci):
            return self._clone_as(ci, b, "siprintf")
        if bl.is_lib_func_emittable(module, self.tli, "small_sprintf") and not _call_has_fp_argument(ci, True):
            return self._clone_as(ci, b, "small_sprintf")
        return None

    def _emit_sn_printf_mem_cpy(self, ci: CallInst, str_arg: Value | None, data: bytes, n: int, b: IRBuilder) -> Value | None:
        """``emitSnPrintfMemCpy``."""
        tli = self.tli
        assert tli is not None
        int_bits = tli.int_size
        if len(data) > (1 << (int_bits - 1)) - 1:
            return None
        str_len = ConstantInt.get(ci.type, len(data))
        if n == 0:
            return str_len
        ncopy = len(data) + 1 if n > len(data) else n - 1
        dst = ci.get_arg(0)
        ctx = b.context
        if ncopy and str_arg is not None:
            copy_flags(ci, bl.create_mem_cpy(b, dst, 1, str_arg, 1, ConstantInt.get(self.dl_int_ptr_type(b), ncopy)))
        if n > len(data):
            return str_len
        nul_off = ConstantInt.get(ctx.int_type(int_bits), ncopy)
        end = b.create_gep(ctx.i8, dst, [nul_off], "endptr", inbounds=True)
        b.store(ConstantInt.get(ctx.i8, 0), end, alignment=1)
        return str_len

    def optimize_sn_print_f_string(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeSnPrintFString``."""
        size = ci.get_arg(1)
        if not isinstance(size, ConstantInt):
            return None
        tli = self.tli
        assert tli is not None
        n = size.value
        if n > (1 << (tli.int_size - 1)) - 1:
            return None
        dst = ci.get_arg(0)
        fmt_arg = ci.get_arg(2)
        fmt = get_constant_string_info(fmt_arg)
        if fmt is None:
            return None
        if ci.num_args == 3:
            if b"%" in fmt:
                return None
            return self._emit_sn_printf_mem_cpy(ci, fmt_arg, fmt, n, b)
        if len(fmt) != 2 or fmt[0] != ord("%") or ci.num_args != 4:
            return None
        ctx = b.context
        if fmt[1] == ord("c"):
            if n <= 1:
                return self._emit_sn_printf_mem_cpy(ci, None, b"*", n, b)
            arg = ci.get_arg(3)
            if not arg.type.is_integer:
                return None
            v = b.create_trunc(arg, ctx.i8, "char")
            b.store(v, dst, alignment=1)
            ptr = b.create_gep(ctx.i8, dst, [ConstantInt.get(ctx.i32, 1)], "nul", inbounds=True)
            b.store(ConstantInt.get(ctx.i8, 0), ptr, alignment=1)
            return ConstantInt.get(ci.type, 1)
        if fmt[1] != ord("s"):
            return None
        str_arg = ci.get_arg(3)
        sdata = get_constant_string_info(str_arg)
        if sdata is None:
            return None
        return self._emit_sn_printf_mem_cpy(ci, str_arg, sdata, n, b)

    def optimize_sn_print_f(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeSnPrintF``."""
        v = self.optimize_sn_print_f_string(ci, b)
        if v is not None:
            return v
        if is_known_non_zero(ci.get_arg(1), self.dl):
            annotate_non_null_no_undef_based_on_access(ci, [0])
        return None

    def optimize_error_reporting(self, ci: CallInst, b: IRBuilder, stream_arg: int = -1) -> Value | None:
        """``optimizeErrorReporting``: calls reporting errors (to ``stderr``) are ``cold``."""
        if not ci.has_fn_attr("cold") and _is_reporting_error(ci, stream_arg):
            ci.add_fn_attr(Attribute.enum("cold"))
        return None

    def optimize_f_print_f_string(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeFPrintFString``."""
        self.optimize_error_reporting(ci, b, 0)
        fmt = get_constant_string_info(ci.get_arg(1))
        if fmt is None or ci._use_head is not None:
            return None
        tli = self.tli
        if ci.num_args == 2:
            if b"%" in fmt:
                return None
            st = bl.size_t_type(b)
            return copy_flags(ci, bl.emit_fwrite(ci.get_arg(1), ConstantInt.get(st, len(fmt)), ci.get_arg(0), b, tli))
        if len(fmt) != 2 or fmt[0] != ord("%") or ci.num_args < 3:
            return None
        if fmt[1] == ord("c"):
            arg = ci.get_arg(2)
            if not arg.type.is_integer or tli is None:
                return None
            v = b.create_sext_or_trunc(arg, b.context.int_type(tli.int_size), "chari")
            return copy_flags(ci, bl.emit_fput_c(v, ci.get_arg(0), b, tli))
        if fmt[1] == ord("s"):
            if not ci.get_arg(2).type.is_pointer:
                return None
            return copy_flags(ci, bl.emit_fput_s(ci.get_arg(2), ci.get_arg(0), b, tli))
        return None

    def optimize_f_print_f(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """``optimizeFPrintF``."""
        v = self.optimize_f_print_f_string(ci, b)
        if v is not None:
            return v
        fn = ci.function
        module = fn.parent if fn is not None else None
        if module is None:
            return None
        if bl.is_lib_func_emittable(module, self.tli, "fiprintf") and not _call_has_fp_argument(ci):
            return self._clone_as(ci, b, "fiprintf")
        if bl.is_lib_func_emittable(module, self.tli, "small_fprintf") and not _call_has_fp_argument(ci, True):
            return self._clone_as(ci, b, "small_fprintf")
        return None

    def optimize_perror(self, ci: CallInst, b: IRBuilder) -> Value | None:
        return self.optimize_error_reporting(ci, b)

    def optimize_vfprintf(self, ci: CallInst, b: IRBuilder) -> Value | None:
        return self.optimize_error_reporting(ci, b, 0)

    # --- integer functions -------------------------------------------------------------------
    def optimize_ffs(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """ffs(x) -> x != 0 ? (i32)llvm.cttz(x) + 1 : 0."""
        op = ci.get_arg(0)
        cttz = b.create_intrinsic("cttz", [op.type], [op, ConstantInt.get(b.context.i1, 1)], "cttz")
        v = b.create_add(cttz, ConstantInt.get(op.type, 1))
        v = b.create_zext_or_trunc(v, ci.type)
        cond = b.create_icmp("ne", op, Constant.get_null_value(op.type))
        return b.create_select(cond, v, ConstantInt.get(ci.type, 0))

    def optimize_fls(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """fls(x) -> (i32)(sizeInBits(x) - llvm.ctlz(x, false))."""
        op = ci.get_arg(0)
        w = op.type.width  # type: ignore[attr-defined]
        ctlz = b.create_intrinsic("ctlz", [op.type], [op, ConstantInt.get(b.context.i1, 0)], "ctlz")
        v = b.create_sub(ConstantInt.get(op.type, w), ctlz)
        return b.create_zext_or_trunc(v, ci.type)

    def optimize_abs(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """abs(x) -> x <s 0 ? -x : x (the negation nsw)."""
        x = ci.get_arg(0)
        is_neg = b.create_is_neg(x)
        neg = b.create_neg(x, "neg", nsw=True)
        return b.create_select(is_neg, neg, x)

    def optimize_is_digit(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """isdigit(c) -> (c - '0') <u 10."""
        op = ci.get_arg(0)
        v = b.create_sub(op, ConstantInt.get(op.type, ord("0")), "isdigittmp")
        v = b.create_icmp("ult", v, ConstantInt.get(op.type, 10), "isdigit")
        return b.create_zext(v, ci.type)

    def optimize_is_ascii(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """isascii(c) -> c <u 128."""
        op = ci.get_arg(0)
        v = b.create_icmp("ult", op, ConstantInt.get(op.type, 128), "isascii")
        return b.create_zext(v, ci.type)

    def optimize_to_ascii(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """toascii(c) -> c & 0x7f."""
        return b.create_and(ci.get_arg(0), ConstantInt.get(ci.type, 0x7F))

    # --- output functions --------------------------------------------------------------------
    def optimize_puts(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """puts("") -> putchar('\\n') when the result is unused."""
        annotate_non_null_no_undef_based_on_access(ci, [0])
        if ci._use_head is not None:
            return None
        s = get_constant_string_info(ci.get_arg(0))
        if s is not None and not s:
            return copy_flags(ci, bl.emit_put_char(ConstantInt.get(ci.type, ord("\n")), b, self.tli))
        return None

    def optimize_f_puts(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """fputs(s, F) -> fwrite(s, strlen(s), 1, F) when the result is unused."""
        self.optimize_error_reporting(ci, b, 1)
        fn = ci.function
        if fn is not None and (fn.has_fn_attribute("optsize") or fn.has_fn_attribute("minsize")):
            return None
        if ci._use_head is not None:
            return None
        ln = get_string_length(ci.get_arg(0))
        if not ln:
            return None
        st = bl.size_t_type(b)
        return copy_flags(ci, bl.emit_fwrite(ci.get_arg(0), ConstantInt.get(st, ln - 1), ci.get_arg(1), b, self.tli))

    def optimize_f_write(self, ci: CallInst, b: IRBuilder) -> Value | None:
        """fwrite(s, 1, 1, F) -> fputc(s[0], F) when the result is unused; zero bytes -> 0."""
        self.optimize_error_reporting(ci, b, 3)
        size = ci.get_arg(1)
        count = ci.get_arg(2)
        if isinstance(size, ConstantInt) and isinstance(count, ConstantInt):
            nbytes = (size.value * count.value) & ((1 << 64) - 1)
            if nbytes == 0:
                return ConstantInt.get(ci.type, 0)
            if nbytes == 1 and ci._use_head is None:
                tli = self.tli
                assert tli is not None
                ch = b.load(b.context.i8, ci.get_arg(0), "char", alignment=1)
                cast = b.create_sext_or_trunc(ch, bl.int_type(b, tli), "chari")
                new = bl.emit_fput_c(cast, ci.get_arg(3), b, tli)
                return ConstantInt.get(ci.type, 1) if new is not None else None
        return None


def _mask(ci: CallInst) -> int:
    ty = ci.type
    return ty.mask if isinstance(ty, IntegerType) else (1 << 64) - 1


_FP_FUNCS = frozenset(
    ("cos", "sin", "tan", "erf", "fabs", "ceil", "floor", "round", "roundeven", "nearbyint", "rint", "trunc",
     "fmin", "fmax", "sqrt", "exp2", "copysign", "pow")
)
_UNARY_INTRINSIC = {
    "fabs": "fabs", "ceil": "ceil", "floor": "floor", "round": "round", "roundeven": "roundeven",
    "nearbyint": "nearbyint", "rint": "rint", "trunc": "trunc",
}


def _value_has_float_precision(v: Value) -> Value | None:
    """``valueHasFloatPrecision``: the float behind an fpext, or a double constant exact as float."""
    import struct

    from llvmpy_mid.ir.constants import ConstantFP

    if getattr(v, "opcode", None) == "fpext":
        op: Value = v.operands[0]  # type: ignore[attr-defined]
        if op.type.type_id is TypeID.FLOAT:
            return op
    if isinstance(v, ConstantFP) and v.type.type_id is TypeID.DOUBLE:
        bits = v.bits
        if (bits >> 52) & 0x7FF == 0x7FF and bits & ((1 << 52) - 1):
            if bits & ((1 << 29) - 1):
                return None
            sign = bits >> 63
            payload = (bits & ((1 << 52) - 1)) >> 29
            return ConstantFP.from_bits(v.context.float, (sign << 31) | (0xFF << 23) | payload)
        f = struct.unpack("<d", struct.pack("<Q", bits))[0]
        try:
            g = struct.unpack("<f", struct.pack("<f", f))[0]
        except OverflowError:
            return None
        if g == f:
            return ConstantFP.from_bits(v.context.float, struct.unpack("<I", struct.pack("<f", f))[0])
    return None


def _has_float_fn(module: object, tli: TargetLibraryInfo, ty: object, base: str) -> bool:
    """``hasFloatFn``."""
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import Type

    assert isinstance(module, Module) and isinstance(ty, Type)
    if ty.type_id is TypeID.HALF:
        return False
    if ty.type_id is TypeID.FLOAT:
        return bl.is_lib_func_emittable(module, tli, base + "f")
    if ty.type_id is TypeID.DOUBLE:
        return bl.is_lib_func_emittable(module, tli, base)
    return bl.is_lib_func_emittable(module, tli, base + "l")


def _get_int_to_fp_val(i2f: Value, b: IRBuilder, dst_width: int) -> Value | None:
    """``getIntToFPVal``: the integer behind sitofp/uitofp, extended to ``dst_width``."""
    op: Value = i2f.operands[0]  # type: ignore[attr-defined]
    ty = op.type
    st = ty.element_type if ty.is_vector else ty  # type: ignore[attr-defined]
    w = st.width  # type: ignore[union-attr]
    opc = getattr(i2f, "opcode", None)
    if w < dst_width or (w == dst_width and opc == "sitofp"):
        it: Type = b.context.int_type(dst_width)
        if ty.is_vector:
            it = b.context.vector_type(it, ty.count, ty.scalable)  # type: ignore[attr-defined]
        if opc == "sitofp":
            return b.create_sext(op, it)
        return b.create_zext(op, it)
    return None


def _fp_splat(ty: object, value: float) -> Value:
    from llvmpy_mid.ir.constants import ConstantFP, ConstantVector
    from llvmpy_mid.ir.types import VectorType

    assert isinstance(ty, VectorType)
    return ConstantVector.get_splat(ty, ConstantFP.get(ty.element_type, value))


def _fp_binop(b: IRBuilder, opcode: str, lhs: Value, rhs: Value, name: str = "") -> Value:
    """``CreateFMul``/``CreateFDiv``: folded when constant, else with the builder's fast-math flags."""
    folder = b.folder
    if folder is not None:
        v = folder.fold_bin_op(opcode, lhs, rhs)
        if v is not None:
            return v
    if opcode == "fmul":
        return b.fmul(lhs, rhs, name)
    return b.fdiv(lhs, rhs, name)


def _fp_value(v: Value) -> float | None:
    """The value of a scalar FP constant or splat (``m_APFloat``), as a Python float."""
    import struct

    from llvmpy_mid.ir.constants import Constant, ConstantFP, get_splat_value

    c: object = v
    if isinstance(v, Constant) and v.type.is_vector:
        c = get_splat_value(v)
    if not isinstance(c, ConstantFP):
        return None
    tid = c.type.type_id
    if tid is TypeID.DOUBLE:
        return float(struct.unpack("<d", struct.pack("<Q", c.bits))[0])
    if tid is TypeID.FLOAT:
        return float(struct.unpack("<f", struct.pack("<I", c.bits))[0])
    if tid is TypeID.HALF:
        return float(struct.unpack("<e", struct.pack("<H", c.bits))[0])
    for x in (1.0, 2.0, 10.0, -1.0, 0.0, -0.0, 0.5, -0.5):
        # Other formats: the few values the folds test for exactly.
        if ConstantFP.get(c.type, x).bits == c.bits:
            return x
    return None


def _fp_inf(ty: Type, negative: bool) -> Value:
    """``ConstantFP::getInfinity``."""
    from llvmpy_mid.ir.constants import ConstantFP

    v = float("-inf") if negative else float("inf")
    if ty.is_vector:
        return _fp_splat(ty, v)
    return ConstantFP.get(ty, v)


def _is_exp_like(v: Value) -> bool:
    """A call of exp/exp2/exp10 (libcall or intrinsic): replacePowWithExp's territory."""
    if not isinstance(v, CallInst):
        return False
    fn = v.called_function
    if fn is None:
        return False
    name = fn.name
    if name.startswith("llvm."):
        return v.intrinsic_base in ("llvm.exp", "llvm.exp2", "llvm.exp10")
    return name in ("exp", "expf", "expl", "exp2", "exp2f", "exp2l", "exp10", "exp10f", "exp10l")


def _is_known_never_infinity(v: Value) -> bool:
    """``isKnownNeverInfinity`` for constants and integer-to-FP conversions."""
    import math

    c = _fp_value(v)
    if c is not None:
        return not math.isinf(c)
    if getattr(v, "opcode", None) in ("sitofp", "uitofp"):
        src = v.operands[0].type  # type: ignore[attr-defined]
        st = src.element_type if src.is_vector else src
        return bool(getattr(st, "width", 999) < 128)
    return False


def _empty_attrs() -> object:
    from llvmpy_mid.ir.attribute_list import AttributeList

    return AttributeList.EMPTY


def _is_reporting_error(ci: CallInst, stream_arg: int) -> bool:
    """``isReportingError``: a declared callee whose stream argument is a load of ``@stderr``."""
    from llvmpy_mid.ir.global_value import GlobalVariable
    from llvmpy_mid.ir.instructions.memory import LoadInst

    callee = ci.called_function
    if callee is None or not callee.is_declaration:
        return False
    if stream_arg < 0:
        return True
    if stream_arg >= ci.num_args:
        return False
    li = ci.get_arg(stream_arg)
    if not isinstance(li, LoadInst):
        return False
    gv = li.operands[0]
    return isinstance(gv, GlobalVariable) and gv.is_declaration and gv.name == "stderr"


def _call_has_fp_argument(ci: CallInst, fp128_only: bool = False) -> bool:
    for op in ci.operands:
        t = op.type
        if fp128_only:
            if str(t) == "fp128":
                return True
        elif t.is_floating_point:
            return True
    return False


def _find_first_of(s: bytes, chars: bytes) -> int:
    for k, c in enumerate(s):
        if c in chars:
            return k
    return -1


def _add_nocapture(ci: CallInst, n: int) -> None:
    if not ci.attributes.param_attrs(n).has("nocapture"):
        ci.attributes = ci.attributes.with_param_attr(n, Attribute.enum("nocapture"))


_SPACES = frozenset(b" \t\n\v\f\r")


def _convert_str_to_int(ci: CallInst, s: bytes, end_ptr: Value | None, base: int, as_signed: bool, b: IRBuilder, dl: DataLayout) -> Value | None:
    """``convertStrToInt``: the whole string ``s`` as an integer by the rules of strto[u]l[l], or None
    for anything the library might fail on."""
    if (base < 2 or base > 36) and base != 0:
        return None
    offset = 0
    while offset != len(s):
        if s[offset] not in _SPACES:
            s = s[offset:]
            break
        offset += 1
    if not s:
        return None
    negate = s[0] == 0x2D
    if s[0] in (0x2D, 0x2B):
        s = s[1:]
        if not s:
            return None
        offset += 1
    rty = ci.type
    assert isinstance(rty, IntegerType)
    nbits = rty.width
    mx = 1 if as_signed and negate else 0
    mx += (1 << (nbits - 1)) - 1 if as_signed else (1 << nbits) - 1
    if len(s) > 1:
        if s[0] == 0x30:
            if s[1] in (0x58, 0x78):
                if len(s) == 2 or (base and base != 16):
                    return None
                s = s[2:]
                offset += 2
                base = 16
            elif base == 0:
                base = 8
        elif base == 0:
            base = 10
    elif base == 0:
        base = 10
    result = 0
    for c in s:
        if 0x30 <= c <= 0x39:
            dig = c - 0x30
        elif 0x41 <= c <= 0x5A:
            dig = c - 0x41 + 10
        elif 0x61 <= c <= 0x7A:
            dig = c - 0x61 + 10
        else:
            return None
        if dig >= base:
            return None
        result = result * base + dig
        if result > mx or result >= 1 << 64:
            return None
    if end_ptr is not None:
        off = ConstantInt.get(b.context.i64, offset + len(s))
        end = b.create_gep(b.context.i8, ci.get_arg(0), [off], "endptr", inbounds=True)
        b.store(end, end_ptr, alignment=dl.abi_alignment(end.type))
    if negate:
        result = -result
    return ConstantInt.get(rty, result & rty.mask)


def _find_first_not_of(s: bytes, ch: int, start: int) -> int:
    for k in range(start, len(s)):
        if s[k] != ch:
            return k
    return -1


def _known_align(v: Value, ci: CallInst, dl: DataLayout) -> int:
    from llvmpy_mid.analysis.known_bits_analysis import compute_known_bits

    kb = compute_known_bits(v, dl, 0)
    tz = min(kb.count_min_trailing_zeros(), 32)
    return 1 << min(kb.bit_width - 1, tz)


def _optimize_mem_cmp_var_size(ci: CallInst, lhs: Value, rhs: Value, size: Value, strncmp: bool, b: IRBuilder) -> Value | None:
    """``optimizeMemCmpVarSize``: two constant arrays and any size."""
    if lhs is rhs:
        return Constant.get_null_value(ci.type)
    ls = get_constant_string_info(lhs, False)
    if ls is None:
        return None
    rs = get_constant_string_info(rhs, False)
    if rs is None:
        return None
    zero = ConstantInt.get(ci.type, 0)
    pos = 0
    mn = min(len(ls), len(rs))
    while True:
        if pos == mn or (strncmp and ls[pos] == 0 and rs[pos] == 0):
            return zero
        if ls[pos] != rs[pos]:
            break
        pos += 1
    ires = -1 if ls[pos] < rs[pos] else 1
    cmp = b.create_icmp(Predicate.ICMP_ULE, size, ConstantInt.get(size.type, pos))
    return b.create_select(cmp, zero, ConstantInt.get(ci.type, ires & _mask(ci)))


_Handler = Callable[[LibCallSimplifier, CallInst, "IRBuilder"], "Value | None"]

_STRING_MEMORY: dict[str, _Handler] = {
    "strcat": LibCallSimplifier.optimize_str_cat,
    "strncat": LibCallSimplifier.optimize_str_n_cat,
    "strchr": LibCallSimplifier.optimize_str_chr,
    "strrchr": LibCallSimplifier.optimize_str_r_chr,
    "strcmp": LibCallSimplifier.optimize_str_cmp,
    "strncmp": LibCallSimplifier.optimize_str_n_cmp,
    "strcpy": LibCallSimplifier.optimize_str_cpy,
    "stpcpy": LibCallSimplifier.optimize_stp_cpy,
    "strncpy": LibCallSimplifier.optimize_str_n_cpy,
    "stpncpy": LibCallSimplifier.optimize_stp_n_cpy,
    "strlen": LibCallSimplifier.optimize_str_len,
    "strnlen": LibCallSimplifier.optimize_str_n_len,
    "memchr": LibCallSimplifier.optimize_mem_chr,
    "memrchr": LibCallSimplifier.optimize_mem_r_chr,
    "bcmp": LibCallSimplifier.optimize_b_cmp,
    "memcmp": LibCallSimplifier.optimize_mem_cmp,
    "memcpy": LibCallSimplifier.optimize_mem_cpy,
    "memccpy": LibCallSimplifier.optimize_mem_c_cpy,
    "mempcpy": LibCallSimplifier.optimize_mem_p_cpy,
    "memmove": LibCallSimplifier.optimize_mem_move,
    "memset": LibCallSimplifier.optimize_mem_set,
    "wcslen": LibCallSimplifier.optimize_wcslen,
    "strlcpy": LibCallSimplifier.optimize_str_l_cpy,
    "strpbrk": LibCallSimplifier.optimize_str_p_brk,
    "strndup": LibCallSimplifier.optimize_str_n_dup,
    "strtol": LibCallSimplifier.optimize_str_to,
    "strtod": LibCallSimplifier.optimize_str_to,
    "strtof": LibCallSimplifier.optimize_str_to,
    "strtoul": LibCallSimplifier.optimize_str_to,
    "strtoll": LibCallSimplifier.optimize_str_to,
    "strtold": LibCallSimplifier.optimize_str_to,
    "strtoull": LibCallSimplifier.optimize_str_to,
    "strspn": LibCallSimplifier.optimize_str_spn,
    "strcspn": LibCallSimplifier.optimize_str_c_spn,
    "strstr": LibCallSimplifier.optimize_str_str,
    "realloc": LibCallSimplifier.optimize_realloc,
    "bcopy": LibCallSimplifier.optimize_b_copy,
    "Znwm": LibCallSimplifier.optimize_new,
    "Znwm12__hot_cold_t": LibCallSimplifier.optimize_new,
    "ZnwmRKSt9nothrow_t": LibCallSimplifier.optimize_new,
    "ZnwmRKSt9nothrow_t12__hot_cold_t": LibCallSimplifier.optimize_new,
    "ZnwmSt11align_val_t": LibCallSimplifier.optimize_new,
    "ZnwmSt11align_val_t12__hot_cold_t": LibCallSimplifier.optimize_new,
    "ZnwmSt11align_val_tRKSt9nothrow_t": LibCallSimplifier.optimize_new,
    "ZnwmSt11align_val_tRKSt9nothrow_t12__hot_cold_t": LibCallSimplifier.optimize_new,
    "Znam": LibCallSimplifier.optimize_new,
    "Znam12__hot_cold_t": LibCallSimplifier.optimize_new,
    "ZnamRKSt9nothrow_t": LibCallSimplifier.optimize_new,
    "ZnamRKSt9nothrow_t12__hot_cold_t": LibCallSimplifier.optimize_new,
    "ZnamSt11align_val_t": LibCallSimplifier.optimize_new,
    "ZnamSt11align_val_t12__hot_cold_t": LibCallSimplifier.optimize_new,
    "ZnamSt11align_val_tRKSt9nothrow_t": LibCallSimplifier.optimize_new,
    "ZnamSt11align_val_tRKSt9nothrow_t12__hot_cold_t": LibCallSimplifier.optimize_new,
}

_OTHER: dict[str, _Handler] = {
    "ffs": LibCallSimplifier.optimize_ffs,
    "ffsl": LibCallSimplifier.optimize_ffs,
    "ffsll": LibCallSimplifier.optimize_ffs,
    "fls": LibCallSimplifier.optimize_fls,
    "flsl": LibCallSimplifier.optimize_fls,
    "flsll": LibCallSimplifier.optimize_fls,
    "abs": LibCallSimplifier.optimize_abs,
    "labs": LibCallSimplifier.optimize_abs,
    "llabs": LibCallSimplifier.optimize_abs,
    "isdigit": LibCallSimplifier.optimize_is_digit,
    "isascii": LibCallSimplifier.optimize_is_ascii,
    "toascii": LibCallSimplifier.optimize_to_ascii,
    "atoi": LibCallSimplifier.optimize_atoi,
    "atol": LibCallSimplifier.optimize_atoi,
    "atoll": LibCallSimplifier.optimize_atoi,
    "strtol": LibCallSimplifier.optimize_str_to_int_signed,
    "strtoll": LibCallSimplifier.optimize_str_to_int_signed,
    "strtoul": LibCallSimplifier.optimize_str_to_int_unsigned,
    "strtoull": LibCallSimplifier.optimize_str_to_int_unsigned,
    "fwrite": LibCallSimplifier.optimize_f_write,
    "fputs": LibCallSimplifier.optimize_f_puts,
    "puts": LibCallSimplifier.optimize_puts,
    "printf": LibCallSimplifier.optimize_print_f,
    "sprintf": LibCallSimplifier.optimize_s_print_f,
    "snprintf": LibCallSimplifier.optimize_sn_print_f,
    "fprintf": LibCallSimplifier.optimize_f_print_f,
    "perror": LibCallSimplifier.optimize_perror,
    "vfprintf": LibCallSimplifier.optimize_vfprintf,
    "fiprintf": LibCallSimplifier.optimize_vfprintf,
}


__all__ = [
    "LibCallSimplifier",
    "annotate_dereferenceable_bytes",
    "annotate_non_null_and_dereferenceable",
    "annotate_non_null_no_undef_based_on_access",
    "is_only_used_in_zero_equality_comparison",
]
