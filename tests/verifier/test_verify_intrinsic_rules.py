"""The verifier's rules on intrinsic calls (``intrinsic_rules``, ``intrinsic_checks``) and the
intrinsic signature descriptions (``intrinsic_signatures``), checked against opt-19.

* The description language: parsing, matching (deferred checks, varargs), mangling.
* One hand-written module per rule: the whole diagnostics text is compared with the text
  opt-19 printed for it (recorded below), and with a live opt-19 run when it is installed.
* Constructs the reader refuses or rewrites (a misnamed declaration, struct returns, the
  ``llvm.dbg.*`` calls the reader turns into records, metadata from another function) are
  built through the API and checked against LLVM 19's wording.
* Every description against opt-19, live: a correct declaration of each described intrinsic
  and many wrong ones (each type position replaced, a parameter dropped or added, ``...``
  toggled), all called, verified by opt-19 and by us; the texts must be equal. Declarations
  that LLVM's reader or ours rewrites (auto-upgrade) are listed, not compared.
* clang-19 output at -O0..-O3 with -g, strict FP, UBSan traps and C++ coroutines verifies
  cleanly, as with opt-19.
* Breaking the arguments of every described call through the API never raises.

``python tests/verifier/test_verify_intrinsic_rules.py [llvm.base...]`` prints the probe
modules whose diagnostics differ (``INTRINSIC_PROBE_SAMPLES=8`` widens the search).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.ir.constants import ConstantInt, PoisonValue
from llvmpy_mid.ir.context import Context
from llvmpy_mid.ir.debug_info import DIExpression, DINode
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.instructions.calls import CallBase, CallInst
from llvmpy_mid.ir.metadata import Metadata, MDString, MDTuple, MetadataAsValue, ValueAsMetadata
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.types import FunctionType, Type, TypeID, VectorType
from llvmpy_mid.ir.verifier import diagnostics_text, module_diagnostics
from llvmpy_mid.ir.verifier import intrinsic_signatures as sigs
from llvmpy_mid.ir.verifier.checker import Checker
from llvmpy_mid.ir.verifier.driver import check_module
from llvmpy_mid.ir.verifier.intrinsic_rules import (
    INSTRUCTION_RULES,
    verify_deoptimize_calling_convs,
    verify_frame_recover_indices,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vhelpers  # noqa: E402
from vhelpers import CONFORMANCE, HAVE_OPT, opt_filtered, parse  # noqa: E402

HAVE_CLANG = shutil.which("clang-19") is not None
needs_opt = pytest.mark.skipif(not HAVE_OPT, reason="opt-19 is not installed")


def normalise(text: str) -> str:
    """Drop what the assembly printer (not the verifier) does not reproduce yet: the
    ``; (base, derived)`` comment opt prints after a gc.relocate call, and the node body
    after a metadata operand (``metadata !0 = !{}`` where LLVM prints ``metadata !0``)."""
    text = re.sub(r" ; \([^()\n]*\)$", "", text, flags=re.M)
    return re.sub(r"^(metadata ![0-9]+) = .*$", r"\1", text, flags=re.M)


def ours(text: str) -> str:
    return normalise(vhelpers.ours(text))


def opt_text(text: str) -> str:
    """opt-19's verifier diagnostics for ``text`` (without its last "broken" line)."""
    return normalise(opt_filtered(text))


# --- the description language ----------------------------------------------------------------------


def test_every_description_parses_and_names_a_known_intrinsic() -> None:
    assert len(sigs.DESCRIPTIONS) > 300
    for base in sigs.DESCRIPTIONS:
        sig = sigs.signature_of(base)
        assert sig is not None and sig.text == sigs.DESCRIPTIONS[base]
        assert sigs.intrinsic_signature(base) == (base, sig)


@pytest.mark.parametrize(
    "name,base",
    [
        ("llvm.memcpy.p0.p0.i64", "llvm.memcpy"),
        ("llvm.memcpy.inline.p0.p0.i64", "llvm.memcpy.inline"),
        ("llvm.ceil.f32", "llvm.ceil"),
        ("llvm.powi.f32.i32", "llvm.powi"),
        ("llvm.trap", "llvm.trap"),
        ("llvm.experimental.patchpoint.i64", "llvm.experimental.patchpoint"),
        ("llvm.experimental.patchpoint.void", "llvm.experimental.patchpoint.void"),
        ("llvm.sadd.with.overflow.v4i32", "llvm.sadd.with.overflow"),
    ],
)
def test_lookup_follows_llvm(name: str, base: str) -> None:
    found = sigs.intrinsic_signature(name)
    assert found is not None and found[0] == base


def test_lookup_of_non_intrinsics_and_undescribed_ones() -> None:
    assert sigs.intrinsic_base("llvm.trap.i32") is None  # not overloaded: no suffix allowed
    assert sigs.intrinsic_base("memcpy") is None
    assert sigs.intrinsic_base("llvm.nosuchthing") is None
    # A target intrinsic is known but has no description: its signature is not checked.
    assert sigs.intrinsic_base("llvm.x86.sse2.pause") == ("llvm.x86.sse2.pause", None)
    assert sigs.intrinsic_signature("llvm.x86.sse2.pause") is None


def _fn_type(ctx: Context, text: str) -> FunctionType:
    fn = parse("declare %s" % text, ctx).functions[0]
    return fn.function_type


@pytest.mark.parametrize(
    "base,decl,result,name",
    [
        ("llvm.memcpy", "void @x(ptr, ptr addrspace(1), i32, i1)", sigs.MATCH, "llvm.memcpy.p0.p1.i32"),
        ("llvm.memcpy", "void @x(ptr, ptr, i32, i32)", sigs.NO_MATCH_ARG, None),
        ("llvm.sadd.with.overflow", "{ <2 x i8>, <2 x i1> } @x(<2 x i8>, <2 x i8>)", sigs.MATCH,
         "llvm.sadd.with.overflow.v2i8"),
        ("llvm.sadd.with.overflow", "{ i8, <2 x i1> } @x(i8, i8)", sigs.NO_MATCH_RET, None),
        ("llvm.vector.reduce.fadd", "float @x(float, <vscale x 4 x float>)", sigs.MATCH,
         "llvm.vector.reduce.fadd.nxv4f32"),
        ("llvm.vector.reduce.add", "i64 @x(<4 x i32>)", sigs.NO_MATCH_RET, None),
        ("llvm.is.fpclass", "<2 x i1> @x(<2 x double>, i32)", sigs.MATCH, "llvm.is.fpclass.v2f64"),
        ("llvm.is.fpclass", "i1 @x(<2 x double>, i32)", sigs.NO_MATCH_RET, None),
        ("llvm.masked.gather", "<2 x i8> @x(<2 x ptr addrspace(3)>, i32, <2 x i1>, <2 x i8>)", sigs.MATCH,
         "llvm.masked.gather.v2i8.v2p3"),
        ("llvm.vector.deinterleave2", "{ <2 x i8>, <2 x i8> } @x(<4 x i8>)", sigs.MATCH,
         "llvm.vector.deinterleave2.v4i8"),
        ("llvm.frexp", "{ <2 x float>, <2 x i32> } @x(<2 x float>)", sigs.MATCH, "llvm.frexp.v2f32.v2i32"),
        ("llvm.ptrmask", "<2 x ptr> @x(<2 x ptr>, <2 x i64>)", sigs.MATCH, "llvm.ptrmask.v2p0.v2i64"),
        ("llvm.experimental.patchpoint", "{ i64, ptr } @x(i64, i32, ptr, i32, ...)", sigs.MATCH,
         "llvm.experimental.patchpoint.sl_i64p0s"),
        ("llvm.ssa.copy", "[2 x i8] @x([2 x i8])", sigs.MATCH, "llvm.ssa.copy.a2i8"),
    ],
)
def test_match_and_mangle(base: str, decl: str, result: int, name: str | None) -> None:
    ctx = Context()
    sig = sigs.signature_of(base)
    assert sig is not None
    fty = _fn_type(ctx, decl)
    got, overloads = sigs.match_signature(sig, fty)
    assert got == result
    if name is not None:
        assert not sigs.vararg_mismatch(sig, fty)
        assert sigs.intrinsic_name(base, overloads) == name


def test_mangling_of_other_types() -> None:
    ctx = Context()
    m = parse("%named = type { i32 }\n%0 = type { i8 }\ndeclare void @x(%named, %0, half, bfloat, fp128)", ctx)
    params = m.functions[0].function_type.params
    assert [sigs.mangle_type(t) for t in params] == ["s_nameds", None, "f16", "bf16", "f128"]
    fty = ctx.function_type(ctx.i32, [ctx.ptr, ctx.float], True)
    assert sigs.mangle_type(fty) == "f_i32p0f32varargf"
    assert sigs.mangle_type(ctx.token) is None  # opt-19 crashes mangling a token


def test_vararg_agreement() -> None:
    ctx = Context()
    stackmap = sigs.signature_of("llvm.experimental.stackmap")
    donothing = sigs.signature_of("llvm.donothing")
    assert stackmap is not None and donothing is not None
    assert not sigs.vararg_mismatch(stackmap, _fn_type(ctx, "void @x(i64, i32, ...)"))
    assert sigs.vararg_mismatch(stackmap, _fn_type(ctx, "void @x(i64, i32)"))
    assert sigs.vararg_mismatch(stackmap, _fn_type(ctx, "void @x(i64, ...)"))
    assert sigs.vararg_mismatch(donothing, _fn_type(ctx, "void @x(...)"))


def test_remangled_name() -> None:
    # The reader remangles on its own (opt-19 -S -disable-verify prints the same three declarations).
    m = parse("declare i16 @llvm.umax.i32(i16, i16)\ndeclare i16 @llvm.umax.i16(i32, i32)\ndeclare i8 @llvm.umax.i8(i8, i8)")
    assert [fn.name for fn in m.functions] == ["llvm.umax.i16.renamed", "llvm.umax.i8", "llvm.umax.i16"]
    assert [sigs.remangled_name(fn) for fn in m.functions] == [None, None, None]
    m.functions[2].set_name("llvm.umax.i32")
    assert sigs.remangled_name(m.functions[2]) == "llvm.umax.i16"


def test_rules_are_registered_for_every_call_kind() -> None:
    assert set(INSTRUCTION_RULES) == {"call", "invoke", "callbr"}


# --- one module per rule, with the text opt-19 printed -----------------------------------------------

CASES: list[tuple[str, str, str]] = [
    (
        'return_type',
        """\
declare void @llvm.ctpop.i32(i32)
define void @f(i32 %x) {
  call void @llvm.ctpop.i32(i32 %x)
  ret void
}
""",
        """\
Intrinsic has incorrect return type!
ptr @llvm.ctpop.i32
""",
    ),
    (
        'argument_type',
        """\
declare i32 @llvm.ctpop.i32(i64)
define void @f(i64 %x) {
  %r = call i32 @llvm.ctpop.i32(i64 %x)
  ret void
}
""",
        """\
Intrinsic has incorrect argument type!
ptr @llvm.ctpop.i32
""",
    ),
    (
        'argument_beyond_description',
        """\
declare i32 @llvm.ctpop.i32(i32, i32)
define void @f(i32 %x) {
  %r = call i32 @llvm.ctpop.i32(i32 %x, i32 %x)
  ret void
}
""",
        """\
Intrinsic has incorrect argument type!
ptr @llvm.ctpop.i32
""",
    ),
    (
        'deferred_return_check',
        """\
declare i64 @llvm.vector.reduce.add.v4i32(<4 x i32>)
define void @f(<4 x i32> %v) {
  %r = call i64 @llvm.vector.reduce.add.v4i32(<4 x i32> %v)
  ret void
}
""",
        """\
Intrinsic has incorrect return type!
ptr @llvm.vector.reduce.add.v4i32
""",
    ),
    (
        'same_width_mask',
        """\
declare { <4 x i32>, <2 x i1> } @llvm.uadd.with.overflow.v4i32(<4 x i32>, <4 x i32>)
define void @f(<4 x i32> %x) {
  %r = call { <4 x i32>, <2 x i1> } @llvm.uadd.with.overflow.v4i32(<4 x i32> %x, <4 x i32> %x)
  ret void
}
""",
        """\
Intrinsic has incorrect return type!
ptr @llvm.uadd.with.overflow.v4i32
""",
    ),
    (
        'vector_of_pointers',
        """\
declare <4 x i32> @llvm.masked.gather.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
define void @f(ptr %p, <4 x i1> %m, <4 x i32> %v) {
  %r = call <4 x i32> @llvm.masked.gather.v4i32.p0(ptr %p, i32 4, <4 x i1> %m, <4 x i32> %v)
  ret void
}
""",
        """\
Intrinsic has incorrect argument type!
ptr @llvm.masked.gather.v4i32.p0
""",
    ),
    (
        'half_vector',
        """\
declare <8 x i32> @llvm.vector.interleave2.v8i32(<8 x i32>, <8 x i32>)
define void @f(<8 x i32> %a) {
  %r = call <8 x i32> @llvm.vector.interleave2.v8i32(<8 x i32> %a, <8 x i32> %a)
  ret void
}
""",
        """\
Intrinsic has incorrect argument type!
ptr @llvm.vector.interleave2.v8i32
""",
    ),
    (
        'not_vararg',
        """\
declare void @llvm.donothing(...)
define void @f() {
  call void (...) @llvm.donothing(i64 0)
  ret void
}
""",
        """\
Intrinsic was not defined with variable arguments!
ptr @llvm.donothing
""",
    ),
    (
        'callsite_not_vararg',
        """\
declare void @llvm.experimental.stackmap(i64, i32)
define void @f() {
  call void @llvm.experimental.stackmap(i64 0, i32 12)
  ret void
}
""",
        """\
Callsite was not defined with variable arguments!
ptr @llvm.experimental.stackmap
""",
    ),
    (
        'too_few_parameters',
        """\
declare void @llvm.memset.p0.i64(ptr, i8, i64)
define void @f(ptr %p) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 4)
  ret void
}
""",
        """\
Attribute after last parameter!
ptr @llvm.memset.p0.i64
Callsite was not defined with variable arguments!
ptr @llvm.memset.p0.i64
""",
    ),
    (
        'too_few_parameters_vararg',
        """\
declare void @llvm.memset.p0.i64(ptr, i8, ...)
define void @f(ptr %p) {
  call void (ptr, i8, ...) @llvm.memset.p0.i64(ptr %p, i8 0, i64 4, i1 false)
  ret void
}
""",
        """\
Attribute after last parameter!
ptr @llvm.memset.p0.i64
Intrinsic was not defined with variable arguments!
ptr @llvm.memset.p0.i64
""",
    ),
    (
        'defined_intrinsic',
        """\
define void @llvm.donothing() {
  ret void
}
define void @f() {
  call void @llvm.donothing()
  ret void
}
""",
        """\
llvm intrinsics cannot be defined!
ptr @llvm.donothing
Intrinsic functions should never be defined!
ptr @llvm.donothing
""",
    ),
    (
        'immarg',
        """\
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @f(ptr %p, i1 %v) {
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %p, i64 4, i1 %v)
  ret void
}
""",
        """\
immarg operand has non-immediate parameter
i1 %v
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %p, i64 4, i1 %v)
""",
    ),
    (
        'immarg_lifetime_size',
        """\
declare void @llvm.lifetime.start.p0(i64, ptr)
define void @f(i64 %n) {
  %a = alloca i32
  call void @llvm.lifetime.start.p0(i64 %n, ptr %a)
  ret void
}
""",
        """\
immarg operand has non-immediate parameter
i64 %n
  call void @llvm.lifetime.start.p0(i64 %n, ptr %a)
""",
    ),
    (
        'va_start_non_vararg',
        """\
declare void @llvm.va_start.p0(ptr)
define void @f(ptr %ap) {
  call void @llvm.va_start.p0(ptr %ap)
  ret void
}
""",
        """\
va_start called in a non-varargs function
""",
    ),
    (
        'va_start_vararg_ok',
        """\
declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
define void @f(...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  ret void
}
""",
        """\
""",
    ),
    (
        'integer_semantics',
        """\
declare void @llvm.va_start.p0(ptr)
declare i32 @llvm.vector.reduce.add.v4f32(<4 x float>)
declare float @llvm.vector.reduce.fmax.v4i32(<4 x i32>)
declare i32 @llvm.lrint.i32.v4f32(<4 x float>)
declare <4 x i32> @llvm.lround.v4i32.f32(float)
declare <2 x i32> @llvm.llrint.v2i32.v4f32(<4 x float>)
declare i24 @llvm.bswap.i24(i24)
declare ptr @llvm.invariant.start.p0(i64, ptr)
declare i32 @llvm.smul.fix.i32(i32, i32, i32)
declare i32 @llvm.umul.fix.i32(i32, i32, i32)
declare i1 @llvm.ucmp.i1.i32(i32, i32)
declare <4 x i1> @llvm.is.fpclass.v4f32(<4 x float>, i32)
declare ptr @llvm.ptrmask.p0.i32(ptr, i32)
declare ptr @llvm.threadlocal.address.p0(ptr)
declare void @llvm.prefetch.p0(ptr, i32, i32, i32)
@g = global i32 0
define void @f(ptr %p, i64 %n) {
  call void @llvm.va_start.p0(ptr %p)
  %a = call i32 @llvm.vector.reduce.add.v4f32(<4 x float> zeroinitializer)
  %b = call float @llvm.vector.reduce.fmax.v4i32(<4 x i32> zeroinitializer)
  %c = call i32 @llvm.lrint.i32.v4f32(<4 x float> zeroinitializer)
  %d = call <4 x i32> @llvm.lround.v4i32.f32(float 0.0)
  %e = call <2 x i32> @llvm.llrint.v2i32.v4f32(<4 x float> zeroinitializer)
  %f = call i24 @llvm.bswap.i24(i24 0)
  %g2 = call ptr @llvm.invariant.start.p0(i64 -2, ptr %p)
  %h = call i32 @llvm.smul.fix.i32(i32 0, i32 0, i32 32)
  %i = call i32 @llvm.umul.fix.i32(i32 0, i32 0, i32 33)
  %j = call i1 @llvm.ucmp.i1.i32(i32 0, i32 0)
  %k = call <4 x i1> @llvm.is.fpclass.v4f32(<4 x float> zeroinitializer, i32 4096)
  %l = call ptr @llvm.ptrmask.p0.i32(ptr %p, i32 0)
  %m = call ptr @llvm.threadlocal.address.p0(ptr %p)
  %m2 = call ptr @llvm.threadlocal.address.p0(ptr @g)
  call void @llvm.prefetch.p0(ptr %p, i32 2, i32 4, i32 2)
  call void @llvm.prefetch.p0(ptr %p, i32 1, i32 4, i32 2)
  call void @llvm.prefetch.p0(ptr %p, i32 1, i32 3, i32 2)
  ret void
}
""",
        """\
va_start called in a non-varargs function
Intrinsic has incorrect return type!
ptr @llvm.vector.reduce.add.v4f32
Intrinsic has incorrect return type!
ptr @llvm.vector.reduce.fmax.v4i32
llvm.lrint, llvm.llrint: argument and result disagree on vector use
  %c = call i32 @llvm.lrint.i32.v4f32(<4 x float> zeroinitializer)
Intrinsic does not support vectors
  %d = call <4 x i32> @llvm.lround.v4i32.f32(float 0.000000e+00)
llvm.lrint, llvm.llrint: argument must be same length as result
  %e = call <2 x i32> @llvm.llrint.v2i32.v4f32(<4 x float> zeroinitializer)
bswap must be an even number of bytes
  %f = call i24 @llvm.bswap.i24(i24 0)
invariant_start parameter must be -1, 0 or a positive number
  %g2 = call ptr @llvm.invariant.start.p0(i64 -2, ptr %p)
the scale of s[mul|div]_fix[_sat] must be less than the width of the operands
the scale of u[mul|div]_fix[_sat] must be less than or equal to the width of the operands
result type must be at least 2 bits wide
  %j = call i1 @llvm.ucmp.i1.i32(i32 0, i32 0)
unsupported bits for llvm.is.fpclass test mask
llvm.ptrmask intrinsic second argument bitwidth must match pointer index type size of first argument
  %l = call ptr @llvm.ptrmask.p0.i32(ptr %p, i32 0)
llvm.threadlocal.address first argument must be a GlobalValue
llvm.threadlocal.address operand isThreadLocal() must be true
rw argument to llvm.prefetch must be 0-1
  call void @llvm.prefetch.p0(ptr %p, i32 2, i32 4, i32 2)
locality argument to llvm.prefetch must be 0-3
  call void @llvm.prefetch.p0(ptr %p, i32 1, i32 4, i32 2)
cache type argument to llvm.prefetch must be 0-1
  call void @llvm.prefetch.p0(ptr %p, i32 1, i32 3, i32 2)
""",
    ),
    (
        'reduce_element_kind',
        """\
declare float @llvm.vector.reduce.add.v4f32(<4 x float>)
declare i32 @llvm.vector.reduce.fmax.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.fadd.v4i32(i32, <4 x i32>)
define void @f(<4 x float> %v, <4 x i32> %w) {
  %a = call float @llvm.vector.reduce.add.v4f32(<4 x float> %v)
  %b = call i32 @llvm.vector.reduce.fmax.v4i32(<4 x i32> %w)
  %c = call i32 @llvm.vector.reduce.fadd.v4i32(i32 0, <4 x i32> %w)
  ret void
}
""",
        """\
Intrinsic has incorrect argument type!
Intrinsic has incorrect argument type!
Intrinsic has incorrect argument type!
""",
    ),
    (
        'assume_bundles',
        """\
declare void @llvm.assume(i1)
define void @f(ptr %p, i32 %x, i64 %n) {
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16) ]
  call void @llvm.assume(i1 true) [ "align"(ptr %p) ]
  call void @llvm.assume(i1 true) [ "align"(i32 %x, i64 16) ]
  call void @llvm.assume(i1 true) [ "align"(ptr %p, ptr %p) ]
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16, ptr %p) ]
  call void @llvm.assume(i1 true) [ "nonnull"(ptr %p) ]
  call void @llvm.assume(i1 true) [ "nonnull"(ptr %p, ptr %p, ptr %p) ]
  call void @llvm.assume(i1 true) [ "nosuchattr"(ptr %p) ]
  call void @llvm.assume(i1 true) [ "dereferenceable"(ptr %p) ]
  call void @llvm.assume(i1 true) [ "dereferenceable"(ptr %p, i64 %n) ]
  call void @llvm.assume(i1 true) [ "nonnull"() ]
  call void @llvm.assume(i1 true) [ "cold"(ptr %p) ]
  call void @llvm.assume(i1 true) [ "separate_storage"(ptr %p) ]
  call void @llvm.assume(i1 true) [ "separate_storage"(ptr %p, i32 %x) ]
  call void @llvm.assume(i1 true) [ "ignore"(ptr %p), "nosuchattr"() ]
  call void @llvm.assume(i1 true) [ "separate_storage"(ptr %p, ptr %p), "nosuchattr"() ]
  ret void
}
""",
        """\
alignment assumptions should have 2 or 3 arguments
  call void @llvm.assume(i1 true) [ "align"(ptr %p) ]
first argument should be a pointer
  call void @llvm.assume(i1 true) [ "align"(i32 %x, i64 16) ]
second argument should be an integer
  call void @llvm.assume(i1 true) [ "align"(ptr %p, ptr %p) ]
third argument should be an integer if present
  call void @llvm.assume(i1 true) [ "align"(ptr %p, i64 16, ptr %p) ]
too many arguments
  call void @llvm.assume(i1 true) [ "nonnull"(ptr %p, ptr %p, ptr %p) ]
tags must be valid attribute names
  call void @llvm.assume(i1 true) [ "nosuchattr"(ptr %p) ]
this attribute should have 2 arguments
  call void @llvm.assume(i1 true) [ "dereferenceable"(ptr %p) ]
the second argument should be a constant integral value
  call void @llvm.assume(i1 true) [ "dereferenceable"(ptr %p, i64 %n) ]
this attribute should have one argument
  call void @llvm.assume(i1 true) [ "nonnull"() ]
this attribute has no argument
  call void @llvm.assume(i1 true) [ "cold"(ptr %p) ]
separate_storage assumptions should have 2 arguments
  call void @llvm.assume(i1 true) [ "separate_storage"(ptr %p) ]
arguments to separate_storage assumptions should be pointers
  call void @llvm.assume(i1 true) [ "separate_storage"(ptr %p, i32 %x) ]
""",
    ),
    (
        'masked',
        """\
declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.store.v4i32.p0(<4 x i32>, ptr, i32, <4 x i1>)
declare <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr>, i32, <4 x i1>, <4 x i32>)
declare void @llvm.masked.scatter.v4i32.v4p0(<4 x i32>, <4 x ptr>, i32, <4 x i1>)
define void @f(ptr %p, <4 x ptr> %ps, <4 x i1> %m, <4 x i32> %v) {
  %a = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 3, <4 x i1> %m, <4 x i32> %v)
  %b = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 0, <4 x i1> %m, <4 x i32> %v)
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %v, ptr %p, i32 6, <4 x i1> %m)
  %c = call <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr> %ps, i32 0, <4 x i1> %m, <4 x i32> %v)
  %d = call <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr> %ps, i32 5, <4 x i1> %m, <4 x i32> %v)
  call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %ps, i32 12, <4 x i1> %m)
  ret void
}
""",
        """\
masked_load: alignment must be a power of 2
  %a = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 3, <4 x i1> %m, <4 x i32> %v)
masked_load: alignment must be a power of 2
  %b = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 0, <4 x i1> %m, <4 x i32> %v)
masked_store: alignment must be a power of 2
  call void @llvm.masked.store.v4i32.p0(<4 x i32> %v, ptr %p, i32 6, <4 x i1> %m)
masked_gather: alignment must be 0 or a power of 2
  %d = call <4 x i32> @llvm.masked.gather.v4i32.v4p0(<4 x ptr> %ps, i32 5, <4 x i1> %m, <4 x i32> %v)
masked_scatter: alignment must be 0 or a power of 2
  call void @llvm.masked.scatter.v4i32.v4p0(<4 x i32> %v, <4 x ptr> %ps, i32 12, <4 x i1> %m)
""",
    ),
    (
        'element_atomic',
        """\
declare void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr, ptr, i64, i32)
declare void @llvm.memset.element.unordered.atomic.p0.i64(ptr, i8, i64, i32)
define void @f(ptr %p, ptr %q) {
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr align 4 %p, ptr align 4 %q, i64 8, i32 3)
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr align 2 %p, ptr align 4 %q, i64 8, i32 4)
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr align 4 %p, ptr %q, i64 8, i32 4)
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr align 4 %p, ptr align 8 %q, i64 8, i32 4)
  call void @llvm.memset.element.unordered.atomic.p0.i64(ptr %p, i8 0, i64 8, i32 4)
  ret void
}
""",
        """\
element size of the element-wise atomic memory intrinsic must be a power of 2
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr align 4 %p, ptr align 4 %q, i64 8, i32 3)
incorrect alignment of the destination argument
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr align 2 %p, ptr align 4 %q, i64 8, i32 4)
incorrect alignment of the source argument
  call void @llvm.memcpy.element.unordered.atomic.p0.p0.i64(ptr align 4 %p, ptr %q, i64 8, i32 4)
incorrect alignment of the destination argument
  call void @llvm.memset.element.unordered.atomic.p0.i64(ptr %p, i8 0, i64 8, i32 4)
""",
    ),
    (
        'gc_roots',
        """\
declare void @llvm.gcroot(ptr, ptr)
declare ptr @llvm.gcread(ptr, ptr)
define void @f(ptr %p) gc "shadow-stack" {
  %a = alloca i32
  %b = alloca ptr
  call void @llvm.gcroot(ptr %p, ptr null)
  call void @llvm.gcroot(ptr %a, ptr %p)
  call void @llvm.gcroot(ptr %a, ptr null)
  call void @llvm.gcroot(ptr %b, ptr null)
  ret void
}
define void @g(ptr %p) {
  %r = call ptr @llvm.gcread(ptr %p, ptr %p)
  ret void
}
""",
        """\
llvm.gcroot parameter #1 must be an alloca.
  call void @llvm.gcroot(ptr %p, ptr null)
llvm.gcroot parameter #2 must be a constant.
  call void @llvm.gcroot(ptr %a, ptr %p)
llvm.gcroot parameter #1 must either be a pointer alloca, or argument #2 must be a non-null constant.
  call void @llvm.gcroot(ptr %a, ptr null)
Enclosing function does not use GC.
  %r = call ptr @llvm.gcread(ptr %p, ptr %p)
""",
    ),
    (
        'trampoline_stackprotector',
        """\
declare void @llvm.init.trampoline(ptr, ptr, ptr)
declare void @llvm.stackprotector(ptr, ptr)
define void @f(ptr %p) {
  %a = alloca ptr
  call void @llvm.init.trampoline(ptr %p, ptr %p, ptr %p)
  call void @llvm.init.trampoline(ptr %p, ptr @f, ptr %p)
  call void @llvm.stackprotector(ptr %p, ptr %p)
  call void @llvm.stackprotector(ptr %p, ptr %a)
  ret void
}
""",
        """\
llvm.init_trampoline parameter #2 must resolve to a function.
  call void @llvm.init.trampoline(ptr %p, ptr %p, ptr %p)
llvm.stackprotector parameter #2 must resolve to an alloca.
  call void @llvm.stackprotector(ptr %p, ptr %p)
""",
    ),
    (
        'localescape',
        """\
declare void @llvm.localescape(...)
declare ptr @llvm.localrecover(ptr, ptr, i32)
declare void @decl()
define void @f(i32 %n) {
  %a = alloca i32
  %d = alloca i32, i32 %n
  call void (...) @llvm.localescape(ptr %a, ptr null)
  call void (...) @llvm.localescape(ptr %a)
  br label %next
next:
  call void (...) @llvm.localescape(ptr %a)
  ret void
}
define void @g() {
  %d = alloca i32
  br label %b
b:
  %e = alloca i32
  call void (...) @llvm.localescape(ptr %e)
  ret void
}
define void @h(ptr %fp) {
  %r = call ptr @llvm.localrecover(ptr @f, ptr %fp, i32 0)
  %s = call ptr @llvm.localrecover(ptr @decl, ptr %fp, i32 0)
  ret void
}
""",
        """\
multiple calls to llvm.localescape in one function
  call void (...) @llvm.localescape(ptr %a)
llvm.localescape used outside of entry block
  call void (...) @llvm.localescape(ptr %a)
llvm.localescape used outside of entry block
  call void (...) @llvm.localescape(ptr %e)
llvm.localrecover first argument must be function defined in this module
  %s = call ptr @llvm.localrecover(ptr @decl, ptr %fp, i32 0)
""",
    ),
    (
        'coro_id',
        """\
%info = type { ptr }
@g = global %info zeroinitializer
@c = constant [2 x i8] c"ab"
@s = constant %info { ptr null }
declare token @llvm.coro.id(i32, ptr, ptr, ptr)
define void @f() {
  %a = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr @g)
  %b = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr @c)
  %c = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr @s)
  %d = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)
  ret void
}
""",
        """\
info argument of llvm.coro.id must refer to an initialized constant
info argument of llvm.coro.id must refer to either a struct or an array
info argument of llvm.coro.id must refer to either a struct or an array
""",
    ),
    (
        'eh_exceptionpointer',
        """\
declare ptr @llvm.eh.exceptionpointer.p0(token)
define void @f() {
  %p = call ptr @llvm.eh.exceptionpointer.p0(token none)
  ret void
}
""",
        """\
eh.exceptionpointer argument must be a catchpad
  %p = call ptr @llvm.eh.exceptionpointer.p0(token none)
""",
    ),
    (
        'lane_mask_vector_length',
        """\
declare <4 x i32> @llvm.get.active.lane.mask.v4i32.i64(i64, i64)
declare i32 @llvm.experimental.get.vector.length.i64(i64, i32, i1)
define void @f(i64 %n) {
  %a = call <4 x i32> @llvm.get.active.lane.mask.v4i32.i64(i64 0, i64 %n)
  %b = call i32 @llvm.experimental.get.vector.length.i64(i64 %n, i32 0, i1 false)
  %c = call i32 @llvm.experimental.get.vector.length.i64(i64 %n, i32 -4, i1 false)
  ret void
}
""",
        """\
get_active_lane_mask: element type is not i1
  %a = call <4 x i32> @llvm.get.active.lane.mask.v4i32.i64(i64 0, i64 %n)
get_vector_length: VF must be positive
  %b = call i32 @llvm.experimental.get.vector.length.i64(i64 %n, i32 0, i1 false)
get_vector_length: VF must be positive
  %c = call i32 @llvm.experimental.get.vector.length.i64(i64 %n, i32 -4, i1 false)
""",
    ),
    (
        'guard_deoptimize',
        """\
declare void @llvm.experimental.guard(i1, ...)
declare i32 @llvm.experimental.deoptimize.i32(...)
define i32 @f(i1 %c) {
  call void (i1, ...) @llvm.experimental.guard(i1 %c)
  %r = call i32 (...) @llvm.experimental.deoptimize.i32() [ "deopt"() ]
  ret i32 %r
}
define i32 @g(i1 %c) {
  %r = call i32 (...) @llvm.experimental.deoptimize.i32() [ "deopt"() ]
  ret i32 0
}
define i64 @h(i1 %c) {
  %r = call i32 (...) @llvm.experimental.deoptimize.i32() [ "deopt"() ]
  ret i64 0
}
""",
        """\
experimental_guard must have exactly one "deopt" operand bundle
calls to experimental_deoptimize must be followed by a return of the value computed by experimental_deoptimize
experimental_deoptimize return type must match caller return type
""",
    ),
    (
        'matrix',
        """\
declare <4 x float> @llvm.matrix.transpose.v4f32(<4 x float>, i32, i32)
declare <6 x float> @llvm.matrix.multiply.v6f32.v4f32.v6f32(<4 x float>, <6 x float>, i32, i32, i32)
declare <4 x float> @llvm.matrix.column.major.load.v4f32.i64(ptr, i64, i1, i32, i32)
declare <4 x ptr> @llvm.matrix.transpose.v4p0(<4 x ptr>, i32, i32)
define void @f(<4 x float> %a, <6 x float> %b, ptr %p, <4 x ptr> %q) {
  %t = call <4 x float> @llvm.matrix.transpose.v4f32(<4 x float> %a, i32 2, i32 3)
  %m = call <6 x float> @llvm.matrix.multiply.v6f32.v4f32.v6f32(<4 x float> %a, <6 x float> %b, i32 2, i32 2, i32 3)
  %n = call <6 x float> @llvm.matrix.multiply.v6f32.v4f32.v6f32(<4 x float> %a, <6 x float> %b, i32 3, i32 2, i32 3)
  %l = call <4 x float> @llvm.matrix.column.major.load.v4f32.i64(ptr %p, i64 1, i1 false, i32 2, i32 2)
  %u = call <4 x ptr> @llvm.matrix.transpose.v4p0(<4 x ptr> %q, i32 2, i32 2)
  ret void
}
""",
        """\
Result of a matrix operation does not fit in the returned vector!
First argument of a matrix operation does not match specified shape!
Stride must be greater or equal than the number of rows!
ptr @llvm.matrix.column.major.load.v4f32.i64
Result type must be an integer or floating-point type!
ptr @llvm.matrix.transpose.v4p0
""",
    ),
    (
        'vector_shapes',
        """\
declare <4 x i32> @llvm.vector.splice.v4i32(<4 x i32>, <4 x i32>, i32)
declare <4 x i1> @llvm.experimental.stepvector.v4i1()
declare <8 x i32> @llvm.vector.insert.v8i32.v4i32(<8 x i32>, <4 x i32>, i64)
declare <4 x i32> @llvm.vector.extract.v4i32.v8i32(<8 x i32>, i64)
declare <4 x i64> @llvm.vector.extract.v4i64.v8i32(<8 x i32>, i64)
define void @f(<4 x i32> %a, <8 x i32> %b) {
  %s = call <4 x i32> @llvm.vector.splice.v4i32(<4 x i32> %a, <4 x i32> %a, i32 4)
  %t = call <4 x i32> @llvm.vector.splice.v4i32(<4 x i32> %a, <4 x i32> %a, i32 -4)
  %u = call <4 x i1> @llvm.experimental.stepvector.v4i1()
  %i = call <8 x i32> @llvm.vector.insert.v8i32.v4i32(<8 x i32> %b, <4 x i32> %a, i64 2)
  %j = call <8 x i32> @llvm.vector.insert.v8i32.v4i32(<8 x i32> %b, <4 x i32> %a, i64 8)
  %e = call <4 x i32> @llvm.vector.extract.v4i32.v8i32(<8 x i32> %b, i64 1)
  %k = call <4 x i32> @llvm.vector.extract.v4i32.v8i32(<8 x i32> %b, i64 8)
  %l = call <4 x i64> @llvm.vector.extract.v4i64.v8i32(<8 x i32> %b, i64 0)
  ret void
}
""",
        """\
The splice index exceeds the range [-VL, VL-1] where VL is the known minimum number of elements in the vector. For scalable vectors the minimum number of elements is determined from vscale_range.
  %s = call <4 x i32> @llvm.vector.splice.v4i32(<4 x i32> %a, <4 x i32> %a, i32 4)
experimental_stepvector only supported for vectors of integers with a bitwidth of at least 8.
  %u = call <4 x i1> @llvm.experimental.stepvector.v4i1()
vector_insert index must be a constant multiple of the subvector's known minimum vector length.
subvector operand of vector_insert would overrun the vector being inserted into.
vector_extract index must be a constant multiple of the result type's known minimum vector length.
vector_extract would overrun.
vector_extract result must have the same element type as the input vector.
  %l = call <4 x i64> @llvm.vector.extract.v4i64.v8i32(<8 x i32> %b, i64 0)
""",
    ),
    (
        'noalias_scope_decl',
        """\
declare void @llvm.experimental.noalias.scope.decl(metadata)
define void @f() {
  call void @llvm.experimental.noalias.scope.decl(metadata !0)
  call void @llvm.experimental.noalias.scope.decl(metadata !3)
  ret void
}
!0 = !{!1}
!1 = distinct !{!1, !2, !"scope"}
!2 = distinct !{!2, !"domain"}
!3 = !{!1, !1}
""",
        """\
!id.scope.list must point to a list with a single scope
  call void @llvm.experimental.noalias.scope.decl(metadata !3)
""",
    ),
    (
        'preserve_access_index',
        """\
declare ptr @llvm.preserve.array.access.index.p0.p0(ptr, i32, i32)
define void @f(ptr %p) {
  %a = call ptr @llvm.preserve.array.access.index.p0.p0(ptr elementtype([4 x i32]) %p, i32 0, i32 1)
  %b = call ptr @llvm.preserve.array.access.index.p0.p0(ptr %p, i32 0, i32 1)
  ret void
}
""",
        """\
Intrinsic requires elementtype attribute on first argument.
  %b = call ptr @llvm.preserve.array.access.index.p0.p0(ptr %p, i32 0, i32 1)
""",
    ),
    (
        'patchpoint_anyregcc',
        """\
declare { i64, i64 } @llvm.experimental.patchpoint.sl_i64i64s(i64, i32, ptr, i32, ...)
declare i64 @llvm.experimental.patchpoint.i64(i64, i32, ptr, i32, ...)
define void @f() {
  %a = call anyregcc { i64, i64 } (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.sl_i64i64s(i64 0, i32 0, ptr null, i32 0)
  %b = call anyregcc i64 (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.i64(i64 0, i32 0, ptr null, i32 0)
  ret void
}
""",
        """\
patchpoint: invalid return type used with anyregcc
  %a = call anyregcc { i64, i64 } (i64, i32, ptr, i32, ...) @llvm.experimental.patchpoint.sl_i64i64s(i64 0, i32 0, ptr null, i32 0)
""",
    ),
    (
        'preallocated',
        """\
declare token @llvm.call.preallocated.setup(i32)
declare ptr @llvm.call.preallocated.arg(token, i32)
declare void @llvm.call.preallocated.teardown(token)
declare void @callee(ptr preallocated(i32))
define void @f(i32 %n) {
  %t = call token @llvm.call.preallocated.setup(i32 1)
  %a = call ptr @llvm.call.preallocated.arg(token %t, i32 0) preallocated(i32)
  %b = call ptr @llvm.call.preallocated.arg(token %t, i32 3) preallocated(i32)
  call void @callee(ptr preallocated(i32) %a) [ "preallocated"(token %t) ]
  ret void
}
define void @g() {
  %t = call token @llvm.call.preallocated.setup(i32 2)
  %a = call ptr @llvm.call.preallocated.arg(token %t, i32 0) preallocated(i32)
  call void @callee(ptr preallocated(i32) %a) [ "preallocated"(token %t) ]
  ret void
}
define void @h() {
  %a = call ptr @llvm.call.preallocated.arg(token none, i32 0) preallocated(i32)
  %b = call ptr @llvm.call.preallocated.arg(token none, i32 0)
  call void @llvm.call.preallocated.teardown(token none)
  ret void
}
""",
        """\
llvm.call.preallocated.alloc arg index must be between 0 and corresponding llvm.call.preallocated.setup's argument count
llvm.call.preallocated.setup arg size must be equal to number of preallocated arguments at call site
  %t = call token @llvm.call.preallocated.setup(i32 2)
  call void @callee(ptr preallocated(i32) %a) [ "preallocated"(token %t) ]
llvm.call.preallocated.arg token argument must be a llvm.call.preallocated.setup
llvm.call.preallocated.arg token argument must be a llvm.call.preallocated.setup
llvm.call.preallocated.teardown token argument must be a llvm.call.preallocated.setup
""",
    ),
    (
        'constrained',
        """\
declare float @llvm.experimental.constrained.fadd.f32(float, float, metadata, metadata)
declare float @llvm.experimental.constrained.ceil.f32(float, metadata)
declare i1 @llvm.experimental.constrained.fcmp.f32(float, float, metadata, metadata)
declare <4 x i32> @llvm.experimental.constrained.fptosi.v4i32.f32(float, metadata)
declare double @llvm.experimental.constrained.fptrunc.f64.f32(float, metadata, metadata)
declare float @llvm.experimental.constrained.fpext.f32.f64(double, metadata)
declare <2 x i64> @llvm.experimental.constrained.lrint.v2i64.v2f32(<2 x float>, metadata, metadata)
define void @f(float %x, double %d, <2 x float> %v) strictfp {
  %a = call float @llvm.experimental.constrained.fadd.f32(float %x, float %x, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %b = call float @llvm.experimental.constrained.fadd.f32(float %x, float %x, metadata !"round.dynamic", metadata !"fpexcept.bogus") strictfp
  %c = call float @llvm.experimental.constrained.fadd.f32(float %x, float %x, metadata !"round.bogus", metadata !"fpexcept.strict") strictfp
  %e = call float @llvm.experimental.constrained.ceil.f32(float %x, metadata !"fpexcept.ignore") strictfp
  %g = call float @llvm.experimental.constrained.ceil.f32(float %x, metadata !"round.dynamic") strictfp
  %h = call i1 @llvm.experimental.constrained.fcmp.f32(float %x, float %x, metadata !"oeq", metadata !"fpexcept.strict") strictfp
  %i = call i1 @llvm.experimental.constrained.fcmp.f32(float %x, float %x, metadata !"eq", metadata !"fpexcept.strict") strictfp
  %j = call <4 x i32> @llvm.experimental.constrained.fptosi.v4i32.f32(float %x, metadata !"fpexcept.strict") strictfp
  %k = call double @llvm.experimental.constrained.fptrunc.f64.f32(float %x, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  %l = call float @llvm.experimental.constrained.fpext.f32.f64(double %d, metadata !"fpexcept.strict") strictfp
  %m = call <2 x i64> @llvm.experimental.constrained.lrint.v2i64.v2f32(<2 x float> %v, metadata !"round.dynamic", metadata !"fpexcept.strict") strictfp
  ret void
}
""",
        """\
invalid exception behavior argument
  %b = call float @llvm.experimental.constrained.fadd.f32(float %x, float %x, metadata !"round.dynamic", metadata !"fpexcept.bogus") #1
invalid rounding mode argument
  %c = call float @llvm.experimental.constrained.fadd.f32(float %x, float %x, metadata !"round.bogus", metadata !"fpexcept.strict") #1
invalid exception behavior argument
  %g = call float @llvm.experimental.constrained.ceil.f32(float %x, metadata !"round.dynamic") #1
invalid predicate for constrained FP comparison intrinsic
  %i = call i1 @llvm.experimental.constrained.fcmp.f32(float %x, float %x, metadata !"eq", metadata !"fpexcept.strict") #1
Intrinsic first argument and result disagree on vector use
  %j = call <4 x i32> @llvm.experimental.constrained.fptosi.v4i32.f32(float %x, metadata !"fpexcept.strict") #1
Intrinsic first argument's type must be larger than result type
  %k = call double @llvm.experimental.constrained.fptrunc.f64.f32(float %x, metadata !"round.dynamic", metadata !"fpexcept.strict") #1
Intrinsic first argument's type must be smaller than result type
  %l = call float @llvm.experimental.constrained.fpext.f32.f64(double %d, metadata !"fpexcept.strict") #1
Intrinsic does not support vectors
  %m = call <2 x i64> @llvm.experimental.constrained.lrint.v2i64.v2f32(<2 x float> %v, metadata !"round.dynamic", metadata !"fpexcept.strict") #1
""",
    ),
    (
        'fptrunc_round',
        """\
declare half @llvm.fptrunc.round.f16.f32(float, metadata)
define void @f(float %x) {
  %a = call half @llvm.fptrunc.round.f16.f32(float %x, metadata !"round.downward")
  %b = call half @llvm.fptrunc.round.f16.f32(float %x, metadata !"round.dynamic")
  %c = call half @llvm.fptrunc.round.f16.f32(float %x, metadata !"sideways")
  %d = call half @llvm.fptrunc.round.f16.f32(float %x, metadata !{})
  ret void
}
""",
        """\
unsupported rounding mode argument
  %b = call half @llvm.fptrunc.round.f16.f32(float %x, metadata !"round.dynamic")
unsupported rounding mode argument
  %c = call half @llvm.fptrunc.round.f16.f32(float %x, metadata !"sideways")
invalid value for llvm.fptrunc.round metadata operand (the operand should be a string)
!0 = !{}
""",
    ),
    (
        'statepoint',
        """\
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare i32 @llvm.experimental.gc.result.i32(token)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare i32 @callee(i32)
declare void @vcallee()
define void @nogc() {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0)
  ret void
}
define void @f(ptr addrspace(1) %obj) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(i32 (i32)) @callee, i32 1, i32 0, i32 5, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %obj) ]
  %r = call i32 @llvm.experimental.gc.result.i32(token %t)
  %o = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)
  %p = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 1)
  ret void
}
define void @g() gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 -1, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0)
  %u = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr @vcallee, i32 0, i32 0, i32 0, i32 0)
  %v = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 1, i32 0, i32 0, i32 0)
  %w = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 8, i32 0, i32 0)
  %x = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 1, i32 0)
  %y = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0, i32 9)
  %r = call i32 @llvm.experimental.gc.result.i32(token %y)
  ret void
}
""",
        """\
Enclosing function does not use GC.
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0)
gc.relocate: statepoint derived index out of bounds
  %p = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 1)
gc.statepoint number of patchable bytes must be positive
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 -1, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0)
gc.statepoint callee argument must have elementtype attribute
  %u = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr @vcallee, i32 0, i32 0, i32 0, i32 0)
gc.statepoint mismatch in number of call args
  %v = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 1, i32 0, i32 0, i32 0)
unknown flag used in gc.statepoint flags argument
  %w = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 8, i32 0, i32 0)
gc.statepoint w/inline transition bundle is deprecated
  %x = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 1, i32 0)
gc.statepoint too many arguments
  %y = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0, i32 9)
gc.result result type does not match wrapped callee
  %r = call i32 @llvm.experimental.gc.result.i32(token %y)
""",
    ),
    (
        'gc_relocate',
        """\
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr @llvm.experimental.gc.relocate.p0(token, i32, i32)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token, i32, i32)
declare void @vcallee()
define void @f(ptr %obj, ptr addrspace(1) %o1) gc "statepoint-example" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr %obj, ptr addrspace(1) %o1, i32 5) ]
  %a = call ptr @llvm.experimental.gc.relocate.p0(token %t, i32 0, i32 0)
  %b = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 1)
  %c = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 1, i32 2)
  %d = call <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token %t, i32 1, i32 1)
  ret void
}
define void @h(ptr %o) gc "shadow-stack" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr %o) ]
  %b = call ptr @llvm.experimental.gc.relocate.p0(token %t, i32 0, i32 0)
  ret void
}
""",
        """\
gc.relocate: must return gc pointer
  %a = call ptr @llvm.experimental.gc.relocate.p0(token %t, i32 0, i32 0)
gc.relocate: relocated value must be a gc pointer
  %b = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 1)
gc.relocate: relocated value must be a pointer
  %c = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 1, i32 2)
gc.relocate: vector relocates to vector and pointer to pointer
  %d = call <2 x ptr addrspace(1)> @llvm.experimental.gc.relocate.v2p1(token %t, i32 1, i32 1)
""",
    ),
    (
        'shapes_and_landing_pads',
        """\
declare <2 x i8> @llvm.ucmp.v2i8.i32(i32, i32)
declare <2 x i8> @llvm.scmp.v2i8.v4i32(<4 x i32>, <4 x i32>)
declare <2 x ptr> @llvm.ptrmask.v2p0.i64(<2 x ptr>, i64)
declare <2 x ptr> @llvm.ptrmask.v2p0.v4i64(<2 x ptr>, <4 x i64>)
declare i32 @llvm.ptrmask.i32.i32(i32, i32)
declare void @llvm.experimental.noalias.scope.decl(metadata)
declare void @llvm.matrix.column.major.store.v4f32.i64(<4 x float>, ptr, i64, i1, i32, i32)
declare <vscale x 2 x i32> @llvm.vector.splice.nxv2i32(<vscale x 2 x i32>, <vscale x 2 x i32>, i32)
declare i32 @llvm.callbr.landingpad.i32(i32)
define void @f(i32 %x, <4 x i32> %v, <2 x ptr> %p, ptr %q, <4 x float> %m, <vscale x 2 x i32> %s) vscale_range(2,4) {
entry:
  %a = call <2 x i8> @llvm.ucmp.v2i8.i32(i32 %x, i32 %x)
  %b = call <2 x i8> @llvm.scmp.v2i8.v4i32(<4 x i32> %v, <4 x i32> %v)
  %c = call <2 x ptr> @llvm.ptrmask.v2p0.i64(<2 x ptr> %p, i64 1)
  %d = call <2 x ptr> @llvm.ptrmask.v2p0.v4i64(<2 x ptr> %p, <4 x i64> zeroinitializer)
  %e = call i32 @llvm.ptrmask.i32.i32(i32 %x, i32 %x)
  call void @llvm.matrix.column.major.store.v4f32.i64(<4 x float> %m, ptr %q, i64 1, i1 false, i32 2, i32 2)
  %g = call <vscale x 2 x i32> @llvm.vector.splice.nxv2i32(<vscale x 2 x i32> %s, <vscale x 2 x i32> %s, i32 3)
  %h = call <vscale x 2 x i32> @llvm.vector.splice.nxv2i32(<vscale x 2 x i32> %s, <vscale x 2 x i32> %s, i32 4)
  br label %next
next:
  %i = call i32 @llvm.callbr.landingpad.i32(i32 %x)
  %r = callbr i32 asm "", "=r,!i"() to label %direct [label %indirect]
direct:
  br label %x2
x2:
  %j = call i32 @llvm.callbr.landingpad.i32(i32 %r)
  ret void
indirect:
  ret void
}
define void @n() {
  call void @llvm.experimental.noalias.scope.decl(metadata !"str")
  ret void
}
""",
        """\
ucmp/scmp argument and result types must both be either vector or scalar types
  %a = call <2 x i8> @llvm.ucmp.v2i8.i32(i32 %x, i32 %x)
return type and arguments must have the same number of elements
  %b = call <2 x i8> @llvm.scmp.v2i8.v4i32(<4 x i32> %v, <4 x i32> %v)
llvm.ptrmask intrinsic arguments must be both scalars or both vectors
  %c = call <2 x ptr> @llvm.ptrmask.v2p0.i64(<2 x ptr> %p, i64 1)
llvm.ptrmask intrinsic arguments must have the same number of elements
  %d = call <2 x ptr> @llvm.ptrmask.v2p0.v4i64(<2 x ptr> %p, <4 x i64> zeroinitializer)
llvm.ptrmask intrinsic first argument must be pointer or vector of pointers
  %e = call i32 @llvm.ptrmask.i32.i32(i32 %x, i32 %x)
Stride must be greater or equal than the number of rows!
ptr @llvm.matrix.column.major.store.v4f32.i64
The splice index exceeds the range [-VL, VL-1] where VL is the known minimum number of elements in the vector. For scalable vectors the minimum number of elements is determined from vscale_range.
  %h = call <vscale x 2 x i32> @llvm.vector.splice.nxv2i32(<vscale x 2 x i32> %s, <vscale x 2 x i32> %s, i32 4)
intrinstic requires callbr operand
  %i = call i32 @llvm.callbr.landingpad.i32(i32 %x)
Intrinsic must have corresponding callbr in predecessor
  %j = call i32 @llvm.callbr.landingpad.i32(i32 %r)
!id.scope.list must point to an MDNode
  call void @llvm.experimental.noalias.scope.decl(metadata !"str")
""",
    ),
]


@pytest.mark.parametrize("name,text,expected", CASES, ids=[c[0] for c in CASES])
def test_rule(name: str, text: str, expected: str) -> None:
    assert ours(text) == expected
    if HAVE_OPT:
        assert opt_text(text) == expected


@pytest.mark.parametrize(
    "name", ["varargs-intrinsic.ll", "intrinsic-bad-arg-type.ll", "callbr.ll"]
)
def test_conformance_files(name: str) -> None:
    path = CONFORMANCE / name
    if not path.is_file():
        pytest.skip("conformance file missing")
    text = path.read_text()
    got = ours(text)
    assert got
    if HAVE_OPT:
        assert got == opt_text(text)


INVOKE_CASE = """\
declare void @llvm.donothing(i32)
declare i32 @__gxx_personality_v0(...)
define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @llvm.donothing(i32 0)
          to label %ok unwind label %lp
ok:
  ret void
lp:
  %l = landingpad { ptr, i32 } cleanup
  ret void
}
"""


def test_invoked_intrinsic_signature() -> None:
    expected = "Intrinsic has incorrect argument type!\nptr @llvm.donothing\n"
    assert ours(INVOKE_CASE) == expected
    if HAVE_OPT:
        assert opt_text(INVOKE_CASE) == expected


MODULE_LEVEL = """\
declare void @llvm.localescape(...)
declare ptr @llvm.localrecover(ptr, ptr, i32)
declare fastcc i32 @llvm.experimental.deoptimize.i32(...)
declare void @llvm.experimental.deoptimize.isVoid(...)
define void @f() {
  %a = alloca i32
  call void (...) @llvm.localescape(ptr %a)
  ret void
}
define void @h(ptr %fp) {
  %r = call ptr @llvm.localrecover(ptr @f, ptr %fp, i32 1)
  ret void
}
"""


def test_module_level_follow_ups() -> None:
    """The two module-level checks, run as LLVM's verify(Module) would after the functions."""
    m = parse(MODULE_LEVEL)
    c = Checker(m)
    check_module(c, m)
    before = len(c.diagnostics)
    verify_frame_recover_indices(c)
    verify_deoptimize_calling_convs(c, m)
    got = diagnostics_text(c.diagnostics[before:])
    expected = (
        "all indices passed to llvm.localrecover must be less than the number of arguments passed to "
        "llvm.localescape in the parent function\nptr @f\n"
        "All llvm.experimental.deoptimize declarations must have the same calling convention\n"
        "ptr @llvm.experimental.deoptimize.i32\nptr @llvm.experimental.deoptimize.isVoid\n"
    )
    assert got == expected
    if HAVE_OPT:
        assert opt_text(MODULE_LEVEL).endswith(expected)


def test_gc_relocate_in_a_function_with_an_unknown_gc() -> None:
    # opt-19 aborts here ("LLVM ERROR: unsupported GC"); we report it instead.
    text = """\
declare token @llvm.experimental.gc.statepoint.p0(i64, i32, ptr, i32, i32, ...)
declare ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token, i32, i32)
declare void @vcallee()
define void @g(ptr addrspace(1) %o1) gc "nosuchgc" {
  %t = call token (i64, i32, ptr, i32, i32, ...) @llvm.experimental.gc.statepoint.p0(i64 0, i32 0, ptr elementtype(void ()) @vcallee, i32 0, i32 0, i32 0, i32 0) [ "gc-live"(ptr addrspace(1) %o1) ]
  %b = call ptr addrspace(1) @llvm.experimental.gc.relocate.p1(token %t, i32 0, i32 0)
  ret void
}
"""
    assert ours(text) == "gc.relocate: calling function must have GCStrategy\nptr @g\n"


# --- built through the API ---------------------------------------------------------------------------


def _call_module(decl: str, call: str, extra: str = "") -> tuple[Module, CallBase]:
    m = parse("%s\ndefine void @f(i32 %%x, ptr %%p) {\n  %s\n  ret void\n}\n%s" % (decl, call, extra))
    fn = m.get_function("f")
    assert fn is not None
    inst = fn.entry_block.first_instruction
    assert isinstance(inst, CallBase)
    return m, inst


def _only(m: Module) -> str:
    return vhelpers.only(m).text


def test_name_not_mangled_correctly() -> None:
    m, call = _call_module("declare i32 @llvm.ctpop.i32(i32)", "%r = call i32 @llvm.ctpop.i32(i32 %x)")
    fn = call.called_function
    assert fn is not None
    fn.set_name("llvm.ctpop.i64")
    assert _only(m) == (
        "Intrinsic name not mangled correctly for type arguments! Should be: llvm.ctpop.i32\nptr @llvm.ctpop.i64\n"
    )


@pytest.mark.parametrize("ret", ["<{ i32, i1 }>", "%pair"])
def test_struct_return_must_be_literal_and_unpacked(ret: str) -> None:
    # The reader rewrites such declarations (LLVM's auto-upgrade); build one directly.
    m = parse("%pair = type { i32, i1 }\ndefine void @f(i32 %x) {\n  ret void\n}\n")
    ctx = m.context
    struct = ctx.get_named_struct("pair") if ret == "%pair" else ctx.struct_type([ctx.i32, ctx.i1], packed=True)
    assert struct is not None
    fty = ctx.function_type(struct, [ctx.i32, ctx.i32])
    decl = Function(fty, "llvm.sadd.with.overflow.i32", module=m)
    f = m.get_function("f")
    assert f is not None
    x = f.args[0]
    first = f.entry_block.first_instruction
    assert first is not None
    CallInst.create(decl, [x, x]).insert_before(first)
    assert _only(m) == "Intrinsic has incorrect return type!\nptr @llvm.sadd.with.overflow.i32\n"


def test_function_local_metadata_from_another_function() -> None:
    m, call = _call_module(
        "declare void @llvm.foo(metadata)\ndeclare void @llvm.experimental.noalias.scope.decl(metadata)",
        "call void @llvm.experimental.noalias.scope.decl(metadata !0)",
        "define void @g(i32 %y) {\n  ret void\n}\n!0 = !{!1}\n!1 = distinct !{!1, !2}\n!2 = distinct !{!2}\n",
    )
    g = m.get_function("g")
    assert g is not None
    call.set_arg(0, MetadataAsValue.get(m.context, ValueAsMetadata.get(g.args[0])))
    assert _only(m) == "function-local metadata used in wrong function\ni32 %y\n"


DBG_TEXT = """\
define void @f(i32 %x) !dbg !5 {
  ret void, !dbg !9
}
define void @g() !dbg !10 {
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !6, unit: !0)
!6 = !DISubroutineType(types: !{null})
!9 = !DILocation(line: 1, scope: !5)
!10 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 2, type: !6, unit: !0)
"""


class Dbg:
    """A module with debug info, and ``llvm.dbg.*`` calls built in ``@f`` (the reader
    would turn them into records)."""

    def __init__(self) -> None:
        self.m = parse(DBG_TEXT)
        f, g = self.m.get_function("f"), self.m.get_function("g")
        assert f is not None and g is not None
        self.f = f
        self.ctx = self.m.context
        term = f.entry_block.terminator
        assert term is not None
        self.loc = term.debug_loc
        self.sp_f = f.get_metadata("dbg")
        self.sp_g = g.get_metadata("dbg")
        self.expr = DIExpression.get(self.ctx, [])
        self.x = ValueAsMetadata.get(f.args[0])

    def variable(self, scope: Metadata | None) -> DINode:
        ctx = self.ctx
        basic = DINode.get(ctx, "DIBasicType", {"name": MDString.get(ctx, "int"), "size": 32})
        return DINode.get(ctx, "DILocalVariable", {"name": MDString.get(ctx, "v"), "scope": scope, "type": basic})

    def call(self, kind: str, args: list[Metadata], with_loc: bool = True) -> CallBase:
        ctx = self.ctx
        decl = self.m.get_function("llvm.dbg." + kind)
        if decl is None:
            decl = Function(ctx.function_type(ctx.void, [ctx.metadata] * len(args)), "llvm.dbg." + kind, module=self.m)
        call = CallInst.create(decl, [MetadataAsValue.get(ctx, a) for a in args])
        term = self.f.entry_block.terminator
        assert term is not None
        call.insert_before(term)
        if with_loc:
            call.debug_loc = self.loc
        return call


def test_dbg_value_through_the_api() -> None:
    d = Dbg()
    d.call("value", [d.x, d.variable(d.sp_f), d.expr])
    assert module_diagnostics(d.m) == []


@pytest.mark.parametrize(
    "which,message",
    [
        ("address", "invalid llvm.dbg.value intrinsic address/value"),
        ("variable", "invalid llvm.dbg.value intrinsic variable"),
        ("expression", "invalid llvm.dbg.value intrinsic expression"),
        ("location", "llvm.dbg.value intrinsic requires a !dbg attachment"),
        ("scope", "mismatched subprogram between llvm.dbg.value variable and !dbg attachment"),
    ],
)
def test_dbg_value_rules(which: str, message: str) -> None:
    d = Dbg()
    args: list[Metadata] = [d.x, d.variable(d.sp_f), d.expr]
    if which == "address":
        args[0] = MDTuple.get(d.ctx, [MDString.get(d.ctx, "no")])
    elif which == "variable":
        args[1] = d.expr
    elif which == "expression":
        args[2] = args[1]
    elif which == "scope":
        args[1] = d.variable(d.sp_g)
    d.call("value", args, which != "location")
    found = module_diagnostics(d.m)
    assert [x.message for x in found] == [message]
    assert found[0].debug_info
    assert found[0].detail.startswith("  call void @llvm.dbg.value(metadata ")
    if which == "location":
        assert found[0].detail.endswith("\nlabel %0\nptr @f\n")
    if which == "scope":
        # the call, block, function, variable, its subprogram, location, its subprogram
        assert found[0].detail.count("\n") == 7


def test_dbg_assign_rules() -> None:
    d = Dbg()
    var = d.variable(d.sp_f)
    d.call("assign", [d.x, var, d.expr, d.expr, d.x, d.expr])
    found = module_diagnostics(d.m)
    assert [x.message for x in found] == ["invalid llvm.dbg.assign intrinsic DIAssignID"]


def test_dbg_label_needs_a_location_and_is_not_only_debug_info() -> None:
    d = Dbg()
    label = DINode.get(d.ctx, "DILabel", {"scope": d.sp_f, "name": MDString.get(d.ctx, "l")})
    d.call("label", [label], with_loc=False)
    found = module_diagnostics(d.m)
    assert [x.message for x in found] == ["llvm.dbg.label intrinsic requires a !dbg attachment"]
    assert not found[0].debug_info


def test_dbg_declare_first_operand_must_be_metadata() -> None:
    d = Dbg()
    call = d.call("declare", [d.x, d.variable(d.sp_f), d.expr])
    call.get_operand_use(0).set(PoisonValue.get(d.ctx.metadata))
    found = module_diagnostics(d.m)
    assert found and found[0].message == "invalid llvm.dbg.declare intrinsic call 1"


# --- clang-19 output verifies cleanly ---------------------------------------------------------------

C_SOURCE = r"""
#include <stdarg.h>
#include <string.h>
#include <math.h>
typedef int v4si __attribute__((ext_vector_type(4)));
typedef float v4sf __attribute__((ext_vector_type(4)));
_Thread_local int tls;
struct S { int a[16]; char c; };
int sum(int n, ...) { va_list ap, aq; va_start(ap, n); va_copy(aq, ap); int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(aq); va_end(ap); return s; }
int vla(int n) { int a[n]; for (int i = 0; i < n; i++) a[i] = i; return a[n / 2]; }
void mem(struct S *d, struct S *s, char *p, unsigned long n) { memcpy(d, s, sizeof *d); memmove(p, p + 1, n);
  memset(p, 0, n); __builtin_memcpy_inline(d, s, 8); __builtin_memset_inline(p, 1, 4); }
double fp(double x, double y, float f) {
  return fabs(x) + sqrt(y) + sin(x) + cos(y) + pow(x, y) + exp(x) + log(y) + fma(x, y, x) + floor(x) + ceil(y)
    + trunc(x) + rint(y) + nearbyint(x) + round(y) + __builtin_roundeven(x) + copysign(x, y) + fmin(x, y)
    + fmax(x, y) + lround(x) + llround(y) + lrint(x) + llrint(y) + sqrtf(f) + exp2(x) + log2(y) + log10(x)
    + ldexp(x, 3) + frexp(x, (int*)0) + __builtin_isnan(x) + __builtin_isinf(y) + __builtin_isfinite(x) + tan(x)
    + __builtin_canonicalize(x) + __builtin_powi(x, 3);
}
unsigned bits(unsigned x, unsigned long long y, int z) { return __builtin_clz(x) + __builtin_ctz(x)
  + __builtin_popcount(x) + __builtin_bswap32(x) + __builtin_bswap64(y) + __builtin_bitreverse32(x)
  + __builtin_rotateleft32(x, z) + __builtin_rotateright64(y, z) + __builtin_abs(z)
  + __builtin_elementwise_add_sat(x, 3u) + __builtin_elementwise_sub_sat(z, 3) + (z > 4 ? z : 4)
  + __builtin_clzll(y); }
int ovf(int a, int b, unsigned c, unsigned d) { int r; unsigned u; long long w;
  return __builtin_sadd_overflow(a, b, &r) + __builtin_uadd_overflow(c, d, &u) + __builtin_ssub_overflow(a, b, &r)
    + __builtin_usub_overflow(c, d, &u) + __builtin_smul_overflow(a, b, &r) + __builtin_umul_overflow(c, d, &u)
    + __builtin_mul_overflow(a, c, &w) + r + (int)u; }
int vec(v4si a, v4sf b) { return __builtin_reduce_add(a) + __builtin_reduce_mul(a) + __builtin_reduce_and(a)
  + __builtin_reduce_or(a) + __builtin_reduce_xor(a) + __builtin_reduce_max(a) + __builtin_reduce_min(a)
  + (int)__builtin_reduce_max(b) + (int)__builtin_reduce_min(b) + __builtin_elementwise_abs(a)[0]
  + (int)__builtin_elementwise_ceil(b)[1]; }
long misc(char *p, int x, struct S *s) {
  __builtin_prefetch(p); __builtin_prefetch(p, 1, 2);
  __builtin_assume(x > 0);
  if (__builtin_expect(x, 1)) x++;
  if (__builtin_expect_with_probability(x, 1, 0.25)) x++;
  x += __builtin_object_size(p, 0) + __builtin_dynamic_object_size(p, 1) + __builtin_constant_p(x);
  x += (long)__builtin_return_address(0) + (long)__builtin_frame_address(0);
  x += tls + __builtin_flt_rounds() + (int)__builtin_readcyclecounter();
  p = __builtin_assume_aligned(p, 16);
  x += *(int *)__builtin_align_down(p, 8) + __builtin_is_aligned(p, 4);
  x += (long)__builtin_thread_pointer();
  if (x == 77) __builtin_trap();
  if (x == 78) __builtin_debugtrap();
  if (x == 79) __builtin_unreachable();
  return x + __builtin_annotation(x, "ann");
}
int annotated(void) { __attribute__((annotate("local"))) int v = 3; return v; }
int loop(int *a, int *restrict b, int n) { int s = 0; for (int i = 0; i < n; i++) { a[i] = b[i] * 3; s += b[i]; }
  return s; }
static inline int add(int *restrict a, int *restrict b) { *a = 1; *b = 2; return *a; }
int callsadd(int *x, int *y) { return add(x, y); }
float strictfp(float a, float b) { return a * b + a / b; }
"""

CXX_SOURCE = r"""
#include <coroutine>
#include <stdexcept>
struct task { struct promise_type { task get_return_object() { return {}; }
  std::suspend_never initial_suspend() { return {}; } std::suspend_never final_suspend() noexcept { return {}; }
  void return_void() {} void unhandled_exception() {} }; };
task co() { co_await std::suspend_always{}; }
struct B { virtual int f() { return 1; } virtual ~B() {} };
struct D : B { int f() override { return 2; } };
int eh(int x) { try { if (x) throw std::runtime_error("x"); return 0; }
  catch (const std::runtime_error &e) { return 1; } catch (int) { return 2; } }
thread_local int tl = 3;
int usetl() { return tl++; }
const int ci = eh(3);
int virt(B *b) { return b->f(); }
"""

CLANG_RUNS = [
    ("c", "-O0 -g"),
    ("c", "-O1 -g -fno-math-errno"),
    ("c", "-O2 -g -fno-math-errno"),
    ("c", "-O3 -g -fno-math-errno"),
    ("c", "-O2 -g -fno-math-errno -Xclang -disable-llvm-passes"),
    ("c", "-O2 -ffp-model=strict"),
    ("c", "-O1 -fsanitize=undefined -fsanitize-trap=undefined"),
    ("c++", "-O0 -g -std=c++20"),
    ("c++", "-O2 -g -std=c++20 -fstrict-vtable-pointers"),
    ("c++", "-O2 -g -std=c++20 -Xclang -disable-llvm-passes"),
]


@pytest.mark.skipif(not HAVE_CLANG, reason="clang-19 is not installed")
@pytest.mark.parametrize("lang,flags", CLANG_RUNS)
def test_clang_output_verifies(lang: str, flags: str, tmp_path: Path) -> None:
    src = tmp_path / ("b.c" if lang == "c" else "b.cpp")
    src.write_text(C_SOURCE if lang == "c" else CXX_SOURCE)
    out = tmp_path / "b.ll"
    proc = subprocess.run(
        ["clang-19", "-S", "-emit-llvm", *flags.split(), "-o", str(out), str(src)], capture_output=True, text=True
    )
    if proc.returncode != 0:
        pytest.skip("clang-19 failed: " + proc.stderr[:200])
    text = out.read_text()
    called = set(re.findall(r"call [^@]*@(llvm\.[\w.]+)\(", text))
    assert called, "no intrinsic calls"
    assert any(sigs.intrinsic_signature(n) for n in called)
    assert ours(text) == ""
    if HAVE_OPT:
        assert opt_text(text) == ""


# --- every description against opt-19 -------------------------------------------------------------------

DEFAULT_SLOT = {0: "i32", 1: "i32", 2: "float", 3: "<4 x i32>", 4: "ptr"}  # by slot kind
SLOT_TYPES: dict[str, tuple[str, ...]] = {
    "llvm.vector.reduce.fadd": ("<4 x float>",),
    "llvm.vector.reduce.fmul": ("<4 x float>",),
    "llvm.vector.reduce.fmax": ("<4 x float>",),
    "llvm.vector.reduce.fmin": ("<4 x float>",),
    "llvm.vector.reduce.fmaximum": ("<4 x float>",),
    "llvm.vector.reduce.fminimum": ("<4 x float>",),
    "llvm.get.active.lane.mask": ("<4 x i1>", "i32"),
    "llvm.ptrmask": ("ptr", "i64"),
    "llvm.experimental.patchpoint": ("i64",),
    "llvm.vector.insert": ("<8 x i32>", "<4 x i32>"),
    "llvm.vector.extract": ("<4 x i32>", "<8 x i32>"),
    "llvm.experimental.constrained.fptrunc": ("float", "double"),
    "llvm.experimental.constrained.fpext": ("double", "float"),
    "llvm.fptrunc.round": ("float", "double"),
    "llvm.matrix.multiply": ("<4 x float>", "<4 x float>", "<4 x float>"),
    "llvm.matrix.transpose": ("<4 x float>",),
    "llvm.matrix.column.major.load": ("<4 x float>", "i64"),
    "llvm.matrix.column.major.store": ("<4 x float>", "i64"),
}
# Per intrinsic: parameter index -> the value text after the type (may start with attributes).
ARG_TEXT: dict[str, dict[int, str]] = {
    "llvm.fptrunc.round": {1: '!"round.downward"'},
    "llvm.type.test": {1: '!"typeid"'},
    "llvm.public.type.test": {1: '!"typeid"'},
    "llvm.type.checked.load": {2: '!"typeid"'},
    "llvm.type.checked.load.relative": {2: '!"typeid"'},
    "llvm.allow.runtime.check": {0: '!"check"'},
    "llvm.read_register": {0: '!{!"sp"}'},
    "llvm.read_volatile_register": {0: '!{!"sp"}'},
    "llvm.write_register": {0: '!{!"sp"}'},
    "llvm.matrix.multiply": {2: "2", 3: "2", 4: "2"},
    "llvm.matrix.transpose": {1: "2", 2: "2"},
    "llvm.matrix.column.major.load": {1: "2", 3: "2", 4: "2"},
    "llvm.matrix.column.major.store": {2: "2", 4: "2", 5: "2"},
    "llvm.vector.insert": {2: "0"},
    "llvm.vector.extract": {1: "0"},
    "llvm.experimental.gc.statepoint": {2: "elementtype(void ()) @t0"},
    "llvm.memcpy.element.unordered.atomic": {0: "align 4 null", 1: "align 4 null", 3: "4"},
    "llvm.memmove.element.unordered.atomic": {0: "align 4 null", 1: "align 4 null", 3: "4"},
    "llvm.memset.element.unordered.atomic": {0: "align 4 null", 3: "4"},
}
# Extra arguments passed in a vararg call (after the fixed ones).
EXTRA_ARGS: dict[str, str] = {"llvm.experimental.gc.statepoint": "i32 0, i32 0"}
SAMPLES = int(os.environ.get("INTRINSIC_PROBE_SAMPLES", "2"))
POOL = (
    "i8",
    "i32",
    "i64",
    "float",
    "double",
    "ptr",
    "ptr addrspace(1)",
    "<4 x i32>",
    "<4 x float>",
    "<2 x i64>",
    "<vscale x 4 x i32>",
    "<4 x ptr>",
    "<4 x i1>",
    "{ i32, i1 }",
    "token",
    "metadata",
)
# Not probed: llvm.dbg.* (the reader turns the calls into debug records), llvm.localrecover
# (LLVM's module-level index check runs in module_rules), the convergence intrinsics (the
# convergence-token rules are not implemented).
EXCLUDED = ("llvm.dbg.", "llvm.localrecover", "llvm.experimental.convergence.")


def _constrained_args(base: str, nparams: int) -> dict[int, str]:
    sig = sigs.signature_of(base)
    assert sig is not None
    md = [i for i, p in enumerate(sig.params) if p.op == sigs._META]
    out: dict[int, str] = {}
    if base.endswith(("fcmp", "fcmps")):
        out[md[0]] = '!"oeq"'
        out[md[1]] = '!"fpexcept.strict"'
        return out
    out[md[-1]] = '!"fpexcept.strict"'
    if len(md) == 2:
        out[md[0]] = '!"round.dynamic"'
    return out


class Probe:
    """Declarations of described intrinsics: the correct one and wrong variants."""

    def __init__(self) -> None:
        self.ctx = Context()
        self._types: dict[str, Type] = {}

    def type(self, text: str) -> Type:
        ty = self._types.get(text)
        if ty is None:
            m = llvmpy_mid.parse_assembly("declare void @x(%s)" % text, self.ctx, verify=False)
            fn = m.get_function("x")
            assert fn is not None
            ty = self._types[text] = fn.function_type.params[0]
        return ty

    def build(self, pat: sigs.Pattern, slots: list[Type]) -> Type:
        """The type ``pat`` stands for, given the overloaded types ``slots``."""
        ctx = self.ctx
        op = pat.op
        fixed = {sigs._VOID: ctx.void, sigs._META: ctx.metadata, sigs._TOKEN: ctx.token}
        if op in fixed:
            return fixed[op]
        if op == sigs._INT:
            return ctx.int_type(pat.n)
        if op == sigs._FP:
            return self.type({v: k for k, v in sigs._FP_NAMES.items()}[TypeID(pat.n)])
        if op == sigs._PTR:
            return ctx.pointer_type(pat.n)
        if op == sigs._VEC:
            return ctx.vector_type(self.build(pat.sub[0], slots), pat.n, pat.scalable)
        if op == sigs._STRUCT:
            return ctx.struct_type([self.build(p, slots) for p in pat.sub])
        if op in (sigs._SLOT, sigs._VECPTR):
            return slots[pat.slot]
        ref = slots[pat.n]
        if op == sigs._MATCH:
            return ref
        if op == sigs._ELT:
            assert isinstance(ref, VectorType)
            return ref.element_type
        if op == sigs._WIDTH:
            elem = self.build(pat.sub[0], slots)
            return ctx.vector_type(elem, ref.count, ref.scalable) if isinstance(ref, VectorType) else elem
        assert op == sigs._HALF and isinstance(ref, VectorType)
        return ctx.vector_type(ref.element_type, ref.count // 2, ref.scalable)

    def canonical(self, base: str) -> FunctionType:
        sig = sigs.signature_of(base)
        assert sig is not None
        positions = [sig.ret, *sig.params]
        found: dict[int, sigs.Pattern] = {}
        stack = list(positions)
        while stack:
            p = stack.pop()
            if p.slot >= 0:
                found[p.slot] = p
            stack.extend(p.sub)
        chosen = SLOT_TYPES.get(base, ())
        slots: list[Type] = []
        for i in range(len(found)):
            p = found[i]
            if p.op == sigs._VECPTR:
                ref = slots[p.n]
                assert isinstance(ref, VectorType)
                slots.append(self.ctx.vector_type(self.ctx.ptr, ref.count, ref.scalable))
            else:
                slots.append(self.type(chosen[i] if i < len(chosen) else DEFAULT_SLOT[p.n]))
        ret = self.build(sig.ret, slots)
        return self.ctx.function_type(ret, [self.build(p, slots) for p in sig.params], sig.varargs)

    def variants(self, base: str) -> list[FunctionType]:
        good = self.canonical(base)
        out = [good]
        rng = random.Random(base)
        positions = [good.return_type, *good.params]
        for i in range(len(positions)):
            pool = [t for t in POOL if (i > 0 or t != "metadata")]
            for text in rng.sample(pool, SAMPLES):
                ty = self.type(text)
                if ty is positions[i]:
                    continue
                ret = ty if i == 0 else good.return_type
                params = list(good.params)
                if i > 0:
                    params[i - 1] = ty
                out.append(self.ctx.function_type(ret, params, good.is_vararg))
        if good.params:
            out.append(self.ctx.function_type(good.return_type, list(good.params[:-1]), good.is_vararg))
        out.append(self.ctx.function_type(good.return_type, [*good.params, self.ctx.i32], good.is_vararg))
        out.append(self.ctx.function_type(good.return_type, list(good.params), not good.is_vararg))
        return out

    def name(self, base: str, fty: FunctionType) -> str:
        sig = sigs.signature_of(base)
        assert sig is not None
        for candidate in (fty, self.canonical(base)):
            result, overloads = sigs.match_signature(sig, candidate)
            if result == sigs.MATCH and not sigs.vararg_mismatch(sig, candidate):
                name = sigs.intrinsic_name(base, overloads)
                if name is None:  # LLVM 19 cannot mangle it (a token): opt-19 crashes
                    return ""
                return name
        raise AssertionError(base)


def value_text(ty: Type) -> str:
    tid = ty.type_id
    if tid is TypeID.INTEGER:
        return "1"
    if ty.is_floating_point:
        return "1.0"
    if tid is TypeID.POINTER:
        return "null"
    if tid is TypeID.TOKEN:
        return "none"
    if tid is TypeID.METADATA:
        return "!{}"
    return "zeroinitializer"


def probe_bases() -> list[str]:
    return sorted(b for b in sigs.DESCRIPTIONS if not b.startswith(EXCLUDED))


def decl_line(base: str, fty: FunctionType, name: str) -> str:
    params = ", ".join(str(p) for p in fty.params)
    if fty.is_vararg:
        params = params + ", ..." if params else "..."
    return "declare %s @%s(%s)" % (fty.return_type, name, params)


READER_DIFFS: dict[int, list[str]] = {}


def _declarations(text: str, printed: str) -> dict[str, str]:
    out = {}
    for line in printed.splitlines():
        if line.startswith("declare "):
            name = line.split("@", 1)[1].split("(", 1)[0]
            out[name] = re.sub(r" #\d+$", "", line)
    return out


def reader_agrees(decls: list[tuple[str, str]]) -> set[str]:
    """The intrinsics whose declaration both readers leave alike."""
    text = "\n".join(d for _, d in decls) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "decls.ll"
        path.write_text(text)
        proc = subprocess.run(["opt-19", "-S", "-disable-verify", str(path)], capture_output=True, text=True, timeout=120)
    theirs = _declarations(text, proc.stdout)
    ours = _declarations(text, str(llvmpy_mid.parse_assembly(text, verify=False)))
    ok = set()
    for base, d in decls:
        name = d.split("@", 1)[1].split("(", 1)[0]
        if name in theirs and theirs.get(name) == ours.get(name):
            ok.add(base)
    return ok


def module_text(
    probe: Probe, index: int, only: list[str] | None = None, ask_opt: bool = True
) -> tuple[str, list[str]]:
    """Module ``index`` (variant ``index`` of each intrinsic) and the intrinsics in it
    (``ask_opt``: leave out the declarations a reader rewrites, asking opt-19)."""
    chosen: list[tuple[str, FunctionType, str]] = []
    for base in only or probe_bases():
        found = probe.variants(base)
        if index >= len(found):
            continue
        fty = found[index]
        name = probe.name(base, fty)
        if name:
            chosen.append((base, fty, name))
    if ask_opt:
        agree = reader_agrees([(b, decl_line(b, f, n)) for b, f, n in chosen])
    else:
        agree = {b for b, _, _ in chosen}
    READER_DIFFS[index] = [decl_line(b, f, n) for b, f, n in chosen if b not in agree]
    decls: list[str] = []
    bodies: list[str] = []
    used: list[str] = []
    for base, fty, name in chosen:
        if base not in agree:
            continue
        params = ", ".join(str(p) for p in fty.params)
        if fty.is_vararg:
            params = params + ", ..." if params else "..."
        decls.append(decl_line(base, fty, name))
        texts = ARG_TEXT.get(base, {})
        if base.startswith("llvm.experimental.constrained."):
            texts = {**_constrained_args(base, len(fty.params)), **texts}
        args = []
        for i, p in enumerate(fty.params):
            text = texts.get(i, value_text(p))
            if (
                (p.type_id is TypeID.METADATA) != text.startswith("!")
                or (("align" in text or "@" in text) and str(p) != "ptr")
                or (text.isdigit() and p.type_id is not TypeID.INTEGER)
            ):
                text = value_text(p)
            args.append("%s %s" % (p, text))
        if fty.is_vararg and base in EXTRA_ARGS:
            args.append(EXTRA_ARGS[base])
        head = "%r = call" if not fty.return_type.is_void else "call"
        call = "  %s %s (%s) @%s(%s)" % (head, fty.return_type, params, name, ", ".join(args))
        bodies.append('define void @t%d() gc "statepoint-example" {\n%s\n  ret void\n}\n' % (len(used), call))
        used.append(base)
    return "\n".join(decls) + "\n\n" + "\n".join(bodies), used




def probe_opt_text(text: str) -> str:
    return opt_text(text)


def probe_compare(probe: Probe, index: int, only: list[str] | None = None) -> tuple[str, str, str]:
    """(module text, opt-19's diagnostics, ours) for probe module ``index``."""
    text, _ = module_text(probe, index, only)
    return text, opt_text(text), ours(text)


@pytest.fixture(scope="module")
def probe() -> Probe:
    return Probe()


@needs_opt
def test_every_description_against_opt(probe: Probe) -> None:
    count = max(len(probe.variants(b)) for b in probe_bases())
    compared = 0
    for k in range(count):
        text, theirs, got = probe_compare(probe, k)
        assert got == theirs, "probe module %d differs (run this file as a script)" % k
        compared += text.count("define void @t")
    assert compared > 2000
    # Declarations the two readers treat differently (auto-upgrade) are few and listed.
    skipped = [line for lines in READER_DIFFS.values() for line in lines]
    assert len(skipped) < compared // 20, skipped


def test_correct_declarations_are_accepted(probe: Probe) -> None:
    """Variant 0 (the declaration made from the description) has no signature finding."""
    text, used = module_text_offline(probe)
    assert len(used) > 300
    messages = {d.message for d in module_diagnostics(parse(text))}
    signature = {m for m in messages if m.startswith(("Intrinsic has", "Intrinsic was", "Callsite was", "Intrinsic name"))}
    assert not signature, signature


def module_text_offline(probe: Probe) -> tuple[str, list[str]]:
    """Probe module 0 built without asking opt-19 which declarations it rewrites."""
    return module_text(probe, 0, ask_opt=False)


# --- robustness: broken calls never raise -------------------------------------------------------------


def test_broken_arguments_never_raise(probe: Probe) -> None:
    text, used = module_text_offline(probe)
    m = parse(text)
    ctx = m.context
    rng = random.Random(4)
    replacements = [
        ConstantInt.get(ctx.i32, 7),
        ConstantInt.get(ctx.i64, -1),
        ConstantInt.get(ctx.i1, 1),
        PoisonValue.get(ctx.ptr),
        PoisonValue.get(ctx.float),
        PoisonValue.get(ctx.vector_type(ctx.i32, 4)),
        MetadataAsValue.get(ctx, MDString.get(ctx, "x")),
        MetadataAsValue.get(ctx, MDTuple.get(ctx, [])),
    ]
    calls = [
        inst for fn in m.functions for bb in fn.blocks for inst in bb.instructions if isinstance(inst, CallBase)
    ]
    assert len(calls) == len(used)
    for round_ in range(3):
        for call in calls:
            for i in range(call.num_args):
                if rng.random() < 0.5:
                    call.get_operand_use(i).set(rng.choice(replacements))
        module_diagnostics(m)  # must not raise
        assert round_ >= 0


def main(argv: list[str]) -> int:
    probe = Probe()
    only = argv or None
    count = max(len(probe.variants(b)) for b in (only or probe_bases()))
    bad = 0
    for k in range(count):
        text, theirs, got = probe_compare(probe, k, only)
        if theirs != got:
            bad += 1
            print("=== module %d differs\n--- module\n%s--- opt-19\n%s--- ours\n%s" % (k, text, theirs, got))
    print("%d of %d modules differ" % (bad, count))
    for k, lines in READER_DIFFS.items():
        for line in lines:
            print("reader differs (not compared), module %d: %s" % (k, line))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
