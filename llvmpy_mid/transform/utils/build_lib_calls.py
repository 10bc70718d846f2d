"""Emitting calls of C library functions (LLVM 19.1.7 ``lib/Transforms/Utils/BuildLibCalls.cpp``:
``isLibFuncEmittable``, ``getOrInsertLibFunc``, ``emitStrLen``, ``emitStrChr``, ``emitMemChr``,
``emitMemRChr``, ``emitMemCmp``, ``emitBCmp``, ``emitStrCpy``, ``emitStpCpy``, ``emitStrDup``,
``emitPutChar``, ``emitPutS``, ``emitFPutC``, ``emitFPutS``, ``emitFWrite``, ``emitMemCpyChk``;
and the ``IRBuilder::CreateMemCpy/CreateMemMove/CreateMemSet`` the simplifier uses).

Each emitter declares the function in the module when missing (with the prototype LLVM gives
it) and inserts a call named after the function, or returns None when the target library
does not have the function or the module already has a different global of that name.

:func:`infer_non_mandatory_lib_func_attrs` puts on an emitted function's declaration the
attributes LLVM infers for it (``inferNonMandatoryLibFuncAttrs``, in
:mod:`llvmpy_mid.transform.utils.infer_lib_func_attrs`).

Not done (yet): the ``signext``/``zeroext`` argument extensions some targets need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from llvmpy_mid.analysis.target_library_info import is_valid_proto_for_lib_func
from llvmpy_mid.ir.attributes import Attribute
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.types import TypeID

if TYPE_CHECKING:
    from llvmpy_mid.analysis.target_library_info import TargetLibraryInfo
    from llvmpy_mid.ir.builder import IRBuilder
    from llvmpy_mid.ir.instructions.calls import CallInst
    from llvmpy_mid.ir.module import Module
    from llvmpy_mid.ir.types import Type
    from llvmpy_mid.ir.value import Value


def _module(b: IRBuilder) -> Module:
    fn = b.function
    m = fn.parent if fn is not None else None
    assert m is not None
    return m


def size_t_type(b: IRBuilder) -> Type:
    """``getSizeTTy``: the integer as wide as a pointer of address space 0."""
    return b.context.int_type(_module(b).data_layout.pointer_size_in_bits(0))


def int_type(b: IRBuilder, tli: TargetLibraryInfo) -> Type:
    """``getIntTy``: C's ``int``."""
    return b.context.int_type(tli.int_size)


_ARM_CCS = frozenset((66, 67, 68))
"""ARM_APCS, ARM_AAPCS, ARM_AAPCS_VFP."""


def is_calling_conv_c_compatible(cc: int, fty: object, module: object) -> bool:
    """``TargetLibraryInfoImpl::isCallingConvCCompatible``: C, or an ARM convention (not on iOS)
    over integer and pointer parameters and an integer, pointer or void result."""
    if cc == 0:
        return True
    if cc not in _ARM_CCS:
        return False
    from llvmpy_mid.analysis.target_library_info import Triple
    from llvmpy_mid.ir.types import FunctionType

    triple = getattr(module, "target_triple", "") or ""
    if Triple(triple).is_ios():
        return False
    assert isinstance(fty, FunctionType)
    rt = fty.return_type
    if not (rt.is_pointer or rt.is_integer or rt.is_void):
        return False
    return all(p.is_pointer or p.is_integer for p in fty.params)


def is_lib_func_emittable(module: Module, tli: TargetLibraryInfo | None, func: str) -> bool:
    """``isLibFuncEmittable``: available, and any global of its name is a function of a valid prototype."""
    if tli is None or not tli.has(func):
        return False
    name = tli.get_name(func)
    gv = module.get_named_value(name) if hasattr(module, "get_named_value") else module.get_function(name)
    if gv is None:
        return True
    if isinstance(gv, Function):
        size_t = module.data_layout.pointer_size_in_bits(0)
        return is_valid_proto_for_lib_func(gv.function_type, func, tli.int_size, size_t)
    return False


def get_or_insert_lib_func(module: Module, tli: TargetLibraryInfo, func: str, ret: Type, params: Sequence[Type], vararg: bool = False) -> Function:
    """``getOrInsertLibFunc``: the declaration of ``func`` (existing or new)."""
    name = tli.get_name(func)
    fty = module.context.function_type(ret, list(params), vararg)
    existing = module.get_function(name)
    fn = existing if existing is not None else module.get_or_insert_function(name, fty)
    if fn.function_type == fty:
        mark_register_parameter_attributes(fn, module)
    return fn


def mark_register_parameter_attributes(fn: Function, module: Module) -> None:
    """``markRegisterParameterAttributes``: ``inreg`` on the leading integer and pointer
    parameters, as many as the ``NumRegisterParameters`` module flag allows (i386's regparm)."""
    from llvmpy_mid.ir.module_flags import get_module_flag_int

    fty = fn.function_type
    if not fty.params or fty.is_vararg:
        return
    if fn.calling_conv not in (0, 64):  # C, X86_StdCall
        return
    n = get_module_flag_int(module, "NumRegisterParameters") or 0
    if not n:
        return
    dl = module.data_layout
    attrs = fn.attributes
    for i, t in enumerate(fty.params):
        if not (t.is_integer or t.is_pointer):
            continue
        size = dl.type_alloc_size(t)
        if size > 8:
            continue
        regs = 2 if size > 4 else 1
        if n < regs:
            break
        n -= regs
        if not attrs.param_attrs(i).has("inreg"):
            attrs = attrs.with_param_attr(i, Attribute.enum("inreg"))
    fn.attributes = attrs


def infer_non_mandatory_lib_func_attrs(fn: Function, tli: TargetLibraryInfo) -> bool:
    """``inferNonMandatoryLibFuncAttrs`` (:mod:`llvmpy_mid.transform.utils.infer_lib_func_attrs`)."""
    from llvmpy_mid.transform.utils.infer_lib_func_attrs import infer_non_mandatory_lib_func_attrs as infer

    return infer(fn, tli)


def emit_lib_call(
    func: str,
    ret: Type,
    params: Sequence[Type],
    args: Sequence[Value],
    b: IRBuilder,
    tli: TargetLibraryInfo | None,
    vararg: bool = False,
    named: bool = True,
) -> CallInst | None:
    """``emitLibCall``: a call named after the function."""
    module = _module(b)
    if tli is None or not is_lib_func_emittable(module, tli, func):
        return None
    fn = get_or_insert_lib_func(module, tli, func, ret, params, vararg)
    infer_non_mandatory_lib_func_attrs(fn, tli)
    name = tli.get_name(func) if named else ""
    ci = b.call(fn, list(args), name if not ret.is_void else "", function_type=fn.function_type)
    ci.calling_conv = fn.calling_conv
    return ci


def emit_str_len(ptr: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    return emit_lib_call("strlen", size_t_type(b), [b.context.pointer_type(0)], [ptr], b, tli)


def emit_str_dup(ptr: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    return emit_lib_call("strdup", p, [p], [ptr], b, tli)


def emit_str_n_cmp(p1: Value, p2: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("strncmp", int_type(b, tli), [p, p, size_t_type(b)], [p1, p2, length], b, tli)


def emit_mem_c_cpy(p1: Value, p2: Value, val: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("memccpy", p, [p, p, int_type(b, tli), size_t_type(b)], [p1, p2, val, length], b, tli)


def emit_sn_printf(dst: Value, size: Value, fmt: Value, args: Sequence[Value], b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("snprintf", int_type(b, tli), [p, size_t_type(b), p], [dst, size, fmt, *args], b, tli, vararg=True)


def emit_s_printf(dst: Value, fmt: Value, args: Sequence[Value], b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("sprintf", int_type(b, tli), [p, p], [dst, fmt, *args], b, tli, vararg=True)


def emit_str_cat(dst: Value, src: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    return emit_lib_call("strcat", p, [p, p], [dst, src], b, tli)


def emit_str_l_cpy(dst: Value, src: Value, size: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    st = size_t_type(b)
    return emit_lib_call("strlcpy", st, [p, p, st], [dst, src, size], b, tli)


def emit_str_l_cat(dst: Value, src: Value, size: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    st = size_t_type(b)
    return emit_lib_call("strlcat", st, [p, p, st], [dst, src, size], b, tli)


def emit_str_n_cat(dst: Value, src: Value, size: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    return emit_lib_call("strncat", p, [p, p, size_t_type(b)], [dst, src, size], b, tli)


def emit_vsn_printf(dst: Value, size: Value, fmt: Value, va_list: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("vsnprintf", int_type(b, tli), [p, size_t_type(b), p, va_list.type], [dst, size, fmt, va_list], b, tli)


def emit_vs_printf(dst: Value, fmt: Value, va_list: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("vsprintf", int_type(b, tli), [p, p, va_list.type], [dst, fmt, va_list], b, tli)


def emit_hot_cold_new(args: Sequence[Value], b: IRBuilder, tli: TargetLibraryInfo | None, func: str, hot_cold: int) -> CallInst | None:
    """``emitHotColdNew``/``...NoThrow``/``...Aligned``/``...AlignedNoThrow``: ``func`` (a hot/cold
    ``operator new``) of ``args`` and the 8-bit hint."""
    module = _module(b)
    if tli is None or not is_lib_func_emittable(module, tli, func):
        return None
    name = tli.get_name(func)
    i8 = b.context.i8
    fn = module.get_function(name)
    if fn is None:
        fn = module.get_or_insert_function(name, module.context.function_type(b.context.pointer_type(0), [a.type for a in args] + [i8]))
    infer_non_mandatory_lib_func_attrs(fn, tli)
    ci = b.call(fn, [*args, ConstantInt.get(i8, hot_cold & 0xFF)], name, function_type=fn.function_type)
    ci.calling_conv = fn.calling_conv
    return ci


def emit_malloc(num: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    return emit_lib_call("malloc", p, [size_t_type(b)], [num], b, tli)


def emit_str_chr(ptr: Value, c: int, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    it = int_type(b, tli)
    return emit_lib_call("strchr", p, [p, it], [ptr, ConstantInt.get(it, c & it.mask)], b, tli)  # type: ignore[attr-defined]


def emit_str_cpy(dst: Value, src: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = dst.type
    return emit_lib_call("strcpy", p, [p, p], [dst, src], b, tli)


def emit_stp_cpy(dst: Value, src: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    return emit_lib_call("stpcpy", p, [p, p], [dst, src], b, tli)


def emit_str_n_cpy(dst: Value, src: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    return emit_lib_call("strncpy", p, [p, p, size_t_type(b)], [dst, src, length], b, tli)


def emit_stp_n_cpy(dst: Value, src: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    return emit_lib_call("stpncpy", p, [p, p, size_t_type(b)], [dst, src, length], b, tli)


def emit_mem_p_cpy(dst: Value, src: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    p = b.context.pointer_type(0)
    return emit_lib_call("mempcpy", p, [p, p, size_t_type(b)], [dst, src, length], b, tli)


def emit_mem_cpy_chk(dst: Value, src: Value, length: Value, obj_size: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    """``emitMemCpyChk``: ``__memcpy_chk`` declared ``nounwind``, an unnamed call."""
    module = _module(b)
    if tli is None or not is_lib_func_emittable(module, tli, "memcpy_chk"):
        return None
    p = b.context.pointer_type(0)
    st = size_t_type(b)
    name = tli.get_name("memcpy_chk")
    fn = module.get_function(name)
    if fn is None:
        fn = module.get_or_insert_function(name, module.context.function_type(p, [p, p, st, st]))
        fn.attributes = fn.attributes.with_fn_attr(Attribute.enum("nounwind"))
    ci = b.call(fn, [dst, src, length, obj_size], function_type=fn.function_type)
    ci.calling_conv = fn.calling_conv
    return ci


def _float_fn_name(base: str, ty: Type) -> str:
    """``appendTypeSuffix``: ``sinf`` for float, ``sinl`` for the long doubles."""
    if ty.type_id is TypeID.DOUBLE:
        return base
    return base + ("f" if (ty.type_id is TypeID.FLOAT) else "l")


def emit_unary_float_fn_call(op: Value, tli: TargetLibraryInfo, name: str, b: IRBuilder, attrs: object, *, suffix: bool = True) -> CallInst:
    """``emitUnaryFloatFnCall``: ``name`` (suffixed for the type) of ``op``, with the given
    call attributes minus ``speculatable``."""
    from llvmpy_mid.ir.attribute_list import AttributeList

    module = _module(b)
    full = _float_fn_name(name, op.type) if suffix else name
    fn = module.get_function(full)
    if fn is None:
        fn = module.get_or_insert_function(full, module.context.function_type(op.type, [op.type]))
    if fn.function_type == module.context.function_type(op.type, [op.type]):
        mark_register_parameter_attributes(fn, module)
    ci = b.call(fn, [op], full, function_type=fn.function_type)
    assert isinstance(attrs, AttributeList)
    ci.attributes = attrs.without_fn_attr("speculatable")
    ci.calling_conv = fn.calling_conv
    return ci


def emit_binary_float_fn_call(
    op1: Value, op2: Value, tli: TargetLibraryInfo, name: str, b: IRBuilder, attrs: object, *, suffix: bool = True
) -> CallInst:
    """``emitBinaryFloatFnCall``."""
    from llvmpy_mid.ir.attribute_list import AttributeList

    module = _module(b)
    full = _float_fn_name(name, op1.type) if suffix else name
    fn = module.get_function(full)
    if fn is None:
        fn = module.get_or_insert_function(full, module.context.function_type(op1.type, [op1.type, op2.type]))
    if fn.function_type == module.context.function_type(op1.type, [op1.type, op2.type]):
        mark_register_parameter_attributes(fn, module)
    infer_non_mandatory_lib_func_attrs(fn, tli)
    ci = b.call(fn, [op1, op2], full, function_type=fn.function_type)
    assert isinstance(attrs, AttributeList)
    ci.attributes = attrs.without_fn_attr("speculatable")
    ci.calling_conv = fn.calling_conv
    return ci


def emit_mem_chr(ptr: Value, val: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("memchr", p, [p, int_type(b, tli), size_t_type(b)], [ptr, val, length], b, tli)


def emit_mem_rchr(ptr: Value, val: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("memrchr", p, [p, int_type(b, tli), size_t_type(b)], [ptr, val, length], b, tli)


def emit_mem_cmp(p1: Value, p2: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("memcmp", int_type(b, tli), [p, p, size_t_type(b)], [p1, p2, length], b, tli)


def emit_bcmp(p1: Value, p2: Value, length: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    p = b.context.pointer_type(0)
    return emit_lib_call("bcmp", int_type(b, tli), [p, p, size_t_type(b)], [p1, p2, length], b, tli)


def emit_put_char(ch: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    it = int_type(b, tli)
    return emit_lib_call("putchar", it, [it], [ch], b, tli)


def emit_put_s(s: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    return emit_lib_call("puts", int_type(b, tli), [b.context.pointer_type(0)], [s], b, tli)


def emit_fput_c(ch: Value, file: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    it = int_type(b, tli)
    return emit_lib_call("fputc", it, [it, file.type], [ch, file], b, tli)


def emit_fput_s(s: Value, file: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    if tli is None:
        return None
    return emit_lib_call("fputs", int_type(b, tli), [b.context.pointer_type(0), file.type], [s, file], b, tli)


def emit_fwrite(ptr: Value, size: Value, file: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    st = size_t_type(b)
    return emit_lib_call(
        "fwrite", st, [b.context.pointer_type(0), st, st, file.type], [ptr, size, ConstantInt.get(st, 1), file], b, tli, named=False
    )


def _mem_intrinsic(b: IRBuilder, base: str, overloads: list[Type], args: list[Value], aligns: Sequence[tuple[int, int]]) -> CallInst:
    ci = b.create_intrinsic(base, overloads, args, return_type=b.context.void)
    attrs = ci.attributes
    for n, a in aligns:
        attrs = attrs.with_param_attr(n, Attribute.alignment(a))
    ci.attributes = attrs
    return ci


def create_global_string(b: IRBuilder, data: bytes, name: str = "") -> Value:
    """``IRBuilder::CreateGlobalString``: a ``private unnamed_addr constant`` nul-terminated
    string, align 1, in the builder's module."""
    from llvmpy_mid.ir.constants import ConstantDataArray
    from llvmpy_mid.ir.global_value import Linkage, UnnamedAddr

    module = _module(b)
    init = ConstantDataArray.get_string(b.context.i8, data, True)
    gv = module.add_global(init.type, name, Linkage.PRIVATE, init, True)
    gv.unnamed_addr = UnnamedAddr.GLOBAL
    gv.alignment = 1
    return gv


def create_mem_cpy(b: IRBuilder, dst: Value, dst_align: int, src: Value, src_align: int, size: Value, volatile: bool = False) -> CallInst:
    """``IRBuilder::CreateMemCpy``: ``llvm.memcpy`` with ``align`` on both pointers."""
    i1 = b.context.i1
    return _mem_intrinsic(
        b, "memcpy", [dst.type, src.type, size.type], [dst, src, size, ConstantInt.get(i1, int(volatile))], ((0, dst_align), (1, src_align))
    )


def create_mem_move(b: IRBuilder, dst: Value, dst_align: int, src: Value, src_align: int, size: Value, volatile: bool = False) -> CallInst:
    """``IRBuilder::CreateMemMove``."""
    i1 = b.context.i1
    return _mem_intrinsic(
        b, "memmove", [dst.type, src.type, size.type], [dst, src, size, ConstantInt.get(i1, int(volatile))], ((0, dst_align), (1, src_align))
    )


def create_mem_set(b: IRBuilder, dst: Value, val: Value, size: Value, align: int, volatile: bool = False) -> CallInst:
    """``IRBuilder::CreateMemSet``."""
    i1 = b.context.i1
    return _mem_intrinsic(b, "memset", [dst.type, size.type], [dst, val, size, ConstantInt.get(i1, int(volatile))], ((0, align),))


__all__ = [
    "create_mem_cpy",
    "create_mem_move",
    "create_mem_set",
    "create_global_string",
    "emit_bcmp",
    "emit_binary_float_fn_call",
    "emit_unary_float_fn_call",
    "emit_fput_c",
    "emit_fput_s",
    "emit_fwrite",
    "emit_lib_call",
    "emit_mem_chr",
    "emit_mem_cpy_chk",
    "emit_mem_p_cpy",
    "emit_stp_n_cpy",
    "emit_str_n_cpy",
    "emit_mem_cmp",
    "emit_mem_rchr",
    "emit_put_char",
    "emit_put_s",
    "emit_stp_cpy",
    "emit_str_chr",
    "emit_str_cpy",
    "emit_str_dup",
    "emit_str_len",
    "emit_str_n_cmp",
    "emit_malloc",
    "emit_hot_cold_new",
    "emit_mem_c_cpy",
    "emit_sn_printf",
    "emit_s_printf",
    "emit_str_cat",
    "emit_str_l_cpy",
    "emit_str_l_cat",
    "emit_str_n_cat",
    "emit_vsn_printf",
    "emit_vs_printf",
    "get_or_insert_lib_func",
    "infer_non_mandatory_lib_func_attrs",
    "int_type",
    "is_calling_conv_c_compatible",
    "is_lib_func_emittable",
    "size_t_type",
]


def emit_calloc(num: Value, size: Value, b: IRBuilder, tli: TargetLibraryInfo | None) -> CallInst | None:
    """``emitCalloc``: ``calloc(num, size)`` (DSE folds malloc + memset 0 into it)."""
    p = b.context.pointer_type(0)
    st = size_t_type(b)
    return emit_lib_call("calloc", p, [st, st], [num, size], b, tli)
