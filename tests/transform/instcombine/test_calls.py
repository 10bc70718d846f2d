"""InstCombine's folds of calls and intrinsics (InstCombineCalls.cpp): each rule's input gives
what opt-19 gives, and the integer folds refine their input on every small argument."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402
from refinement import check_refines  # noqa: E402

MAX_INPUTS = 1 << 12

# Integer intrinsic folds: compared with opt-19 and checked for refinement.
INT_RULES: dict[str, str] = {
    # umin(x, 1) -> zext(x != 0)
    'umin_one': 'define i8 @f(i8 %x) {\n  %r = call i8 @llvm.umin.i8(i8 %x, i8 1)\n  ret i8 %r\n}\ndeclare i8 @llvm.umin.i8(i8, i8)',
    # min/max with a constant first operand: the constant moves to the right
    'smax_const_first': 'define i8 @f(i8 %x) {\n  %r = call i8 @llvm.smax.i8(i8 3, i8 %x)\n  ret i8 %r\n}\ndeclare i8 @llvm.smax.i8(i8, i8)',
    # umax(zext x, zext y) -> zext umax(x, y)
    'umax_zext': 'define i8 @f(i4 %x, i4 %y) {\n  %a = zext i4 %x to i8\n  %b = zext i4 %y to i8\n  %r = call i8 @llvm.umax.i8(i8 %a, i8 %b)\n  ret i8 %r\n}\ndeclare i8 @llvm.umax.i8(i8, i8)',
    # smin(sext x, C) -> sext smin(x, C')
    'smin_sext_const': 'define i8 @f(i4 %x) {\n  %a = sext i4 %x to i8\n  %r = call i8 @llvm.smin.i8(i8 %a, i8 -3)\n  ret i8 %r\n}\ndeclare i8 @llvm.smin.i8(i8, i8)',
    # umin i1 -> and
    'umin_i1': 'define i1 @f(i1 %x, i1 %y) {\n  %r = call i1 @llvm.umin.i1(i1 %x, i1 %y)\n  ret i1 %r\n}\ndeclare i1 @llvm.umin.i1(i1, i1)',
    # smax(x, -x) -> abs(x)
    'smax_neg_abs': 'define i8 @f(i8 %x) {\n  %n = sub i8 0, %x\n  %r = call i8 @llvm.smax.i8(i8 %x, i8 %n)\n  ret i8 %r\n}\ndeclare i8 @llvm.smax.i8(i8, i8)',
    # umax of a value known below the constant -> the constant
    'umax_range': 'define i8 @f(i8 %x) {\n  %a = and i8 %x, 7\n  %r = call i8 @llvm.umax.i8(i8 %a, i8 8)\n  ret i8 %r\n}\ndeclare i8 @llvm.umax.i8(i8, i8)',
    # abs(-x) -> abs(x)
    'abs_neg': 'define i8 @f(i8 %x) {\n  %n = sub i8 0, %x\n  %r = call i8 @llvm.abs.i8(i8 %n, i1 false)\n  ret i8 %r\n}\ndeclare i8 @llvm.abs.i8(i8, i1)',
    # abs of a known non-negative -> x
    'abs_nonneg': 'define i8 @f(i8 %x) {\n  %a = lshr i8 %x, 1\n  %r = call i8 @llvm.abs.i8(i8 %a, i1 false)\n  ret i8 %r\n}\ndeclare i8 @llvm.abs.i8(i8, i1)',
    # abs(srem x, 2) -> x & 1
    'abs_srem2': 'define i8 @f(i8 %x) {\n  %a = srem i8 %x, 2\n  %r = call i8 @llvm.abs.i8(i8 %a, i1 false)\n  ret i8 %r\n}\ndeclare i8 @llvm.abs.i8(i8, i1)',
    # ctpop(zext x) -> zext ctpop(x)
    'ctpop_zext': 'define i8 @f(i4 %x) {\n  %a = zext i4 %x to i8\n  %r = call i8 @llvm.ctpop.i8(i8 %a)\n  ret i8 %r\n}\ndeclare i8 @llvm.ctpop.i8(i8)',
    # ctpop(x & 16) -> (x & 16) >> 4
    'ctpop_one_bit': 'define i8 @f(i8 %x) {\n  %a = and i8 %x, 16\n  %r = call i8 @llvm.ctpop.i8(i8 %a)\n  ret i8 %r\n}\ndeclare i8 @llvm.ctpop.i8(i8)',
    # ctpop gets a range return attribute
    'ctpop_range': 'define i8 @f(i8 %x) {\n  %a = or i8 %x, 1\n  %r = call i8 @llvm.ctpop.i8(i8 %a)\n  ret i8 %r\n}\ndeclare i8 @llvm.ctpop.i8(i8)',
    # cttz(-x) -> cttz(x)
    'cttz_neg': 'define i8 @f(i8 %x) {\n  %n = sub i8 0, %x\n  %r = call i8 @llvm.cttz.i8(i8 %n, i1 false)\n  ret i8 %r\n}\ndeclare i8 @llvm.cttz.i8(i8, i1)',
    # ctlz of a non-zero: zero is poison
    'ctlz_nonzero': 'define i8 @f(i8 %x) {\n  %a = or i8 %x, 4\n  %r = call i8 @llvm.ctlz.i8(i8 %a, i1 false)\n  ret i8 %r\n}\ndeclare i8 @llvm.ctlz.i8(i8, i1)',
    # cttz i1 -> not
    'cttz_i1': 'define i1 @f(i1 %x) {\n  %r = call i1 @llvm.cttz.i1(i1 %x, i1 false)\n  ret i1 %r\n}\ndeclare i1 @llvm.cttz.i1(i1, i1)',
    # fshl(x, y, 11) -> fshl(x, y, 3)
    'fshl_modulo': 'define i8 @f(i8 %x, i8 %y) {\n  %r = call i8 @llvm.fshl.i8(i8 %x, i8 %y, i8 11)\n  ret i8 %r\n}\ndeclare i8 @llvm.fshl.i8(i8, i8, i8)',
    # fshr(x, y, 3) -> fshl(x, y, 5)
    'fshr_to_fshl': 'define i8 @f(i8 %x, i8 %y) {\n  %r = call i8 @llvm.fshr.i8(i8 %x, i8 %y, i8 3)\n  ret i8 %r\n}\ndeclare i8 @llvm.fshr.i8(i8, i8, i8)',
    # fshl(x, 0, C) -> shl x, C
    'fshl_zero': 'define i8 @f(i8 %x) {\n  %r = call i8 @llvm.fshl.i8(i8 %x, i8 0, i8 3)\n  ret i8 %r\n}\ndeclare i8 @llvm.fshl.i8(i8, i8, i8)',
    # bswap of one active byte -> shift
    'bswap_one_byte': 'define i16 @f(i16 %x) {\n  %a = and i16 %x, 255\n  %r = call i16 @llvm.bswap.i16(i16 %a)\n  ret i16 %r\n}\ndeclare i16 @llvm.bswap.i16(i16)',
    # bitreverse(zext i1 x) -> select x, 128, 0
    'bitreverse_zext_bool': 'define i8 @f(i1 %x) {\n  %a = zext i1 %x to i8\n  %r = call i8 @llvm.bitreverse.i8(i8 %a)\n  ret i8 %r\n}\ndeclare i8 @llvm.bitreverse.i8(i8)',
    # uadd.sat that cannot overflow -> add nuw
    'uadd_sat_no_overflow': 'define i8 @f(i8 %x) {\n  %a = lshr i8 %x, 1\n  %r = call i8 @llvm.uadd.sat.i8(i8 %a, i8 10)\n  ret i8 %r\n}\ndeclare i8 @llvm.uadd.sat.i8(i8, i8)',
    # ssub.sat(x, C) -> sadd.sat(x, -C)
    'ssub_sat_const': 'define i8 @f(i8 %x) {\n  %r = call i8 @llvm.ssub.sat.i8(i8 %x, i8 5)\n  ret i8 %r\n}\ndeclare i8 @llvm.ssub.sat.i8(i8, i8)',
    # uadd.sat(uadd.sat(x, 3), 5) -> uadd.sat(x, 8)
    'uadd_sat_nested': 'define i8 @f(i8 %x) {\n  %a = call i8 @llvm.uadd.sat.i8(i8 %x, i8 3)\n  %r = call i8 @llvm.uadd.sat.i8(i8 %a, i8 5)\n  ret i8 %r\n}\ndeclare i8 @llvm.uadd.sat.i8(i8, i8)',
    # smax(smin(x, 42), 41) -> x > 41 ? 42 : 41
    'clamp_of_two': 'define i8 @f(i8 %x) {\n  %a = call i8 @llvm.smin.i8(i8 %x, i8 42)\n  %r = call i8 @llvm.smax.i8(i8 %a, i8 41)\n  ret i8 %r\n}\ndeclare i8 @llvm.smin.i8(i8, i8)\ndeclare i8 @llvm.smax.i8(i8, i8)',
    # umax(x +nuw 3, 10) -> umax(x, 7) +nuw 3
    'add_after_minmax': 'define i8 @f(i8 %x) {\n  %a = add nuw i8 %x, 3\n  %r = call i8 @llvm.umax.i8(i8 %a, i8 10)\n  ret i8 %r\n}\ndeclare i8 @llvm.umax.i8(i8, i8)',
    # smax(~x, ~y) -> ~smin(x, y)
    'not_after_minmax': 'define i8 @f(i8 %x, i8 %y) {\n  %a = xor i8 %x, -1\n  %b = xor i8 %y, -1\n  %r = call i8 @llvm.smax.i8(i8 %a, i8 %b)\n  ret i8 %r\n}\ndeclare i8 @llvm.smax.i8(i8, i8)',
    # umin(umin(a, b), umin(c, a)) -> umin(umin(c, a), b)
    'minmax_tree': 'define i8 @f(i8 %a, i8 %b, i8 %c) {\n  %m1 = call i8 @llvm.umin.i8(i8 %a, i8 %b)\n  %m2 = call i8 @llvm.umin.i8(i8 %c, i8 %a)\n  %r = call i8 @llvm.umin.i8(i8 %m1, i8 %m2)\n  ret i8 %r\n}\ndeclare i8 @llvm.umin.i8(i8, i8)',
    # umax(umax(x, 3), 5) -> umax(x, 5)
    'minmax_const_reassoc': 'define i8 @f(i8 %x) {\n  %a = call i8 @llvm.umax.i8(i8 %x, i8 3)\n  %r = call i8 @llvm.umax.i8(i8 %a, i8 5)\n  ret i8 %r\n}\ndeclare i8 @llvm.umax.i8(i8, i8)',
    # smin(smax(sext a + sext b, -8), 7) on i8 of i4 values -> sext sadd.sat
    'sadd_sat_idiom': 'define i8 @f(i4 %a, i4 %b) {\n  %x = sext i4 %a to i8\n  %y = sext i4 %b to i8\n  %s = add i8 %x, %y\n  %m = call i8 @llvm.smax.i8(i8 %s, i8 -8)\n  %r = call i8 @llvm.smin.i8(i8 %m, i8 7)\n  ret i8 %r\n}\ndeclare i8 @llvm.smin.i8(i8, i8)\ndeclare i8 @llvm.smax.i8(i8, i8)',
}

# Other calls: compared with opt-19 only.
OTHER_RULES: dict[str, str] = {
    # memset of 4 bytes -> store
    'memset_4': 'define void @f(ptr %p) {\n  call void @llvm.memset.p0.i64(ptr %p, i8 1, i64 4, i1 false)\n  ret void\n}\ndeclare void @llvm.memset.p0.i64(ptr, i8, i64, i1)',
    # memcpy of 8 bytes -> load + store
    'memcpy_8': 'define void @f(ptr %p, ptr %q) {\n  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %q, i64 8, i1 false)\n  ret void\n}\ndeclare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)',
    # memmove of zero bytes -> nothing
    'memmove_0': 'define void @f(ptr %p, ptr %q) {\n  call void @llvm.memmove.p0.p0.i64(ptr %p, ptr %q, i64 0, i1 false)\n  ret void\n}\ndeclare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)',
    # memcpy with a variable size: arguments annotated, alignment from an alloca
    'memcpy_annotate': 'define void @f(ptr %q, i64 %n) {\n  %a = alloca [16 x i8], align 8\n  call void @llvm.memcpy.p0.p0.i64(ptr %a, ptr %q, i64 %n, i1 false)\n  call void @g(ptr %a)\n  ret void\n}\ndeclare void @g(ptr)\ndeclare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)',
    # nonnull on a call argument known non-null
    'nonnull_arg': 'define void @f() {\n  %a = alloca i32\n  call void @g(ptr %a)\n  ret void\n}\ndeclare void @g(ptr)',
    # a call in a nounwind function becomes nounwind
    'nounwind': 'define void @f() nounwind {\n  call void @g()\n  ret void\n}\ndeclare void @g()',
    # lifetime.start directly followed by lifetime.end: both go
    'lifetime_empty': 'define void @f() {\n  %a = alloca i32\n  call void @llvm.lifetime.start.p0(i64 4, ptr %a)\n  call void @llvm.lifetime.end.p0(i64 4, ptr %a)\n  call void @g(ptr %a)\n  ret void\n}\ndeclare void @g(ptr)\ndeclare void @llvm.lifetime.start.p0(i64, ptr)\ndeclare void @llvm.lifetime.end.p0(i64, ptr)',
    # assume(a && b) -> assume(a); assume(b)
    'assume_and': 'define void @f(i1 %a, i1 %b) {\n  %c = and i1 %a, %b\n  call void @llvm.assume(i1 %c)\n  ret void\n}\ndeclare void @llvm.assume(i1)',
    # fabs(-x) -> fabs(x)
    'fabs_fneg': 'define double @f(double %x) {\n  %n = fneg double %x\n  %r = call double @llvm.fabs.f64(double %n)\n  ret double %r\n}\ndeclare double @llvm.fabs.f64(double)',
    # copysign(x, fabs y) folds through the nested call
    'copysign_copysign': 'define double @f(double %x, double %y, double %z) {\n  %s = call double @llvm.copysign.f64(double %y, double %z)\n  %r = call double @llvm.copysign.f64(double %x, double %s)\n  ret double %r\n}\ndeclare double @llvm.copysign.f64(double, double)',
    # powi(x, 2) -> x * x
    'powi_2': 'define double @f(double %x) {\n  %r = call double @llvm.powi.f64.i32(double %x, i32 2)\n  ret double %r\n}\ndeclare double @llvm.powi.f64.i32(double, i32)',
    # maxnum(-x, -y) -> -minnum(x, y)
    'maxnum_fneg': 'define float @f(float %x, float %y) {\n  %a = fneg float %x\n  %b = fneg float %y\n  %r = call float @llvm.maxnum.f32(float %a, float %b)\n  ret float %r\n}\ndeclare float @llvm.maxnum.f32(float, float)',
    # floor(fpext x) -> fpext floor(x)
    'floor_fpext': 'define double @f(float %x) {\n  %e = fpext float %x to double\n  %r = call double @llvm.floor.f64(double %e)\n  ret double %r\n}\ndeclare double @llvm.floor.f64(double)',
    # a call through a null pointer is unreachable
    'call_null': 'define void @f() {\n  call void null()\n  ret void\n}',
    # fma(x, 1.0, z) -> fadd x, z
    'fma_one': 'define float @f(float %x, float %z) {\n  %r = call float @llvm.fma.f32(float %x, float 1.0, float %z)\n  ret float %r\n}\ndeclare float @llvm.fma.f32(float, float, float)',
    # maxnum(maxnum(x, 0.0), 1.0) -> maxnum(x, 1.0)
    'maxnum_nested_consts': 'define float @f(float %x) {\n  %a = call float @llvm.maxnum.f32(float %x, float 0.0)\n  %r = call float @llvm.maxnum.f32(float %a, float 1.0)\n  ret float %r\n}\ndeclare float @llvm.maxnum.f32(float, float)',
    # copysign(x, fabs y) -> fabs x
    'copysign_known_positive': 'define float @f(float %x, float %y) {\n  %a = call float @llvm.fabs.f32(float %y)\n  %r = call float @llvm.copysign.f32(float %x, float %a)\n  ret float %r\n}\ndeclare float @llvm.fabs.f32(float)\ndeclare float @llvm.copysign.f32(float, float)',
    # smax of shuffled operands -> shuffle of smax
    'shuffled_operands': 'define <2 x i8> @f(<2 x i8> %x, <2 x i8> %y) {\n  %a = shufflevector <2 x i8> %x, <2 x i8> poison, <2 x i32> <i32 1, i32 0>\n  %b = shufflevector <2 x i8> %y, <2 x i8> poison, <2 x i32> <i32 1, i32 0>\n  %r = call <2 x i8> @llvm.smax.v2i8(<2 x i8> %a, <2 x i8> %b)\n  ret <2 x i8> %r\n}\ndeclare <2 x i8> @llvm.smax.v2i8(<2 x i8>, <2 x i8>)',
    # is.fpclass(x, nan) -> fcmp uno x, 0.0; is.fpclass(fneg x, posinf) -> is.fpclass(x, neginf) -> fcmp oeq
    'is_fpclass_nan': 'define i1 @f(float %x) {\n  %r = call i1 @llvm.is.fpclass.f32(float %x, i32 3)\n  ret i1 %r\n}\ndeclare i1 @llvm.is.fpclass.f32(float, i32)',
    'is_fpclass_fneg_inf': 'define i1 @f(float %x) {\n  %n = fneg float %x\n  %r = call i1 @llvm.is.fpclass.f32(float %n, i32 512)\n  ret i1 %r\n}\ndeclare i1 @llvm.is.fpclass.f32(float, i32)',
    # reduce.and(<4 x i1>) -> bitcast to i4 == -1
    'reduce_and_i1': 'define i1 @f(<4 x i1> %x) {\n  %r = call i1 @llvm.vector.reduce.and.v4i1(<4 x i1> %x)\n  ret i1 %r\n}\ndeclare i1 @llvm.vector.reduce.and.v4i1(<4 x i1>)',
    # reduce.or(sext <4 x i1>) -> sext(bitcast to i4 != 0)
    'reduce_or_sext_i1': 'define i32 @f(<4 x i1> %x) {\n  %e = sext <4 x i1> %x to <4 x i32>\n  %r = call i32 @llvm.vector.reduce.or.v4i32(<4 x i32> %e)\n  ret i32 %r\n}\ndeclare i32 @llvm.vector.reduce.or.v4i32(<4 x i32>)',
    # reduce.add(sext <8 x i1>) -> -zext(ctpop(bitcast to i8))
    'reduce_add_sext_i1': 'define i32 @f(<8 x i1> %x) {\n  %e = sext <8 x i1> %x to <8 x i32>\n  %r = call i32 @llvm.vector.reduce.add.v8i32(<8 x i32> %e)\n  ret i32 %r\n}\ndeclare i32 @llvm.vector.reduce.add.v8i32(<8 x i32>)',
    # reduce.add(<16 x i1>) -> trunc(ctpop(bitcast to i16))
    'reduce_add_i1': 'define i1 @f(<16 x i1> %x) {\n  %r = call i1 @llvm.vector.reduce.add.v16i1(<16 x i1> %x)\n  ret i1 %r\n}\ndeclare i1 @llvm.vector.reduce.add.v16i1(<16 x i1>)',
    # reduce.xor(zext <4 x i1>) -> zext(reduce.add(<4 x i1>)) -> zext(trunc(ctpop))
    'reduce_xor_zext_i1': 'define i16 @f(<4 x i1> %x) {\n  %e = zext <4 x i1> %x to <4 x i16>\n  %r = call i16 @llvm.vector.reduce.xor.v4i16(<4 x i16> %e)\n  ret i16 %r\n}\ndeclare i16 @llvm.vector.reduce.xor.v4i16(<4 x i16>)',
    # reduce.mul(sext <4 x i1>) -> zext(reduce.and(<4 x i1>))
    'reduce_mul_sext_i1': 'define i8 @f(<4 x i1> %x) {\n  %e = sext <4 x i1> %x to <4 x i8>\n  %r = call i8 @llvm.vector.reduce.mul.v4i8(<4 x i8> %e)\n  ret i8 %r\n}\ndeclare i8 @llvm.vector.reduce.mul.v4i8(<4 x i8>)',
    # reduce.umax(sext <4 x i1>) -> sext(reduce.or(<4 x i1>))
    'reduce_umax_sext_i1': 'define i8 @f(<4 x i1> %x) {\n  %e = sext <4 x i1> %x to <4 x i8>\n  %r = call i8 @llvm.vector.reduce.umax.v4i8(<4 x i8> %e)\n  ret i8 %r\n}\ndeclare i8 @llvm.vector.reduce.umax.v4i8(<4 x i8>)',
    # reduce.smin(zext <4 x i1>) -> zext(reduce.and); reduce.smin(sext) -> sext(reduce.or)
    'reduce_smin_ext_i1': 'define i8 @f(<4 x i1> %x, <4 x i1> %y) {\n  %e = zext <4 x i1> %x to <4 x i8>\n  %a = call i8 @llvm.vector.reduce.smin.v4i8(<4 x i8> %e)\n  %s = sext <4 x i1> %y to <4 x i8>\n  %b = call i8 @llvm.vector.reduce.smin.v4i8(<4 x i8> %s)\n  %r = add i8 %a, %b\n  ret i8 %r\n}\ndeclare i8 @llvm.vector.reduce.smin.v4i8(<4 x i8>)',
    # reduce.smax of a scalable <vscale x 4 x i1>: reduce.and (no bitcast for scalable vectors)
    'reduce_smax_scalable_i1': 'define i1 @f(<vscale x 4 x i1> %x) {\n  %r = call i1 @llvm.vector.reduce.smax.nxv4i1(<vscale x 4 x i1> %x)\n  ret i1 %r\n}\ndeclare i1 @llvm.vector.reduce.smax.nxv4i1(<vscale x 4 x i1>)',
    # a reduction of a lane permutation reduces the source; a repeated lane or a vector.reverse
    'reduce_shuffle_permute': 'define i32 @f(<4 x i32> %x, <4 x i32> %y, <4 x i32> %z) {\n  %p = shufflevector <4 x i32> %x, <4 x i32> poison, <4 x i32> <i32 3, i32 1, i32 0, i32 2>\n  %a = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %p)\n  %q = shufflevector <4 x i32> %y, <4 x i32> undef, <4 x i32> <i32 3, i32 3, i32 0, i32 2>\n  %b = call i32 @llvm.vector.reduce.smax.v4i32(<4 x i32> %q)\n  %v = call <4 x i32> @llvm.vector.reverse.v4i32(<4 x i32> %z)\n  %c = call i32 @llvm.vector.reduce.umin.v4i32(<4 x i32> %v)\n  %s = add i32 %a, %b\n  %r = add i32 %s, %c\n  ret i32 %r\n}\ndeclare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)\ndeclare i32 @llvm.vector.reduce.smax.v4i32(<4 x i32>)\ndeclare i32 @llvm.vector.reduce.umin.v4i32(<4 x i32>)\ndeclare <4 x i32> @llvm.vector.reverse.v4i32(<4 x i32>)',
    # fadd reduction of a permutation: only with reassoc; fmax always; a length-changing shuffle stays
    'reduce_fp_shuffle': 'define float @f(<4 x float> %x) {\n  %p = shufflevector <4 x float> %x, <4 x float> poison, <4 x i32> <i32 1, i32 0, i32 3, i32 2>\n  %a = call reassoc float @llvm.vector.reduce.fadd.v4f32(float 0.0, <4 x float> %p)\n  %b = call float @llvm.vector.reduce.fadd.v4f32(float 0.0, <4 x float> %p)\n  %c = call float @llvm.vector.reduce.fmax.v4f32(<4 x float> %p)\n  %w = shufflevector <4 x float> %x, <4 x float> poison, <2 x i32> <i32 1, i32 0>\n  %d = call float @llvm.vector.reduce.fmin.v2f32(<2 x float> %w)\n  %s1 = fadd float %a, %b\n  %s2 = fadd float %s1, %c\n  %s3 = fadd float %s2, %d\n  ret float %s3\n}\ndeclare float @llvm.vector.reduce.fadd.v4f32(float, <4 x float>)\ndeclare float @llvm.vector.reduce.fmax.v4f32(<4 x float>)\ndeclare float @llvm.vector.reduce.fmin.v2f32(<2 x float>)',
    # reduce.add of a zext of <4 x i8> (not i1): left alone
    'reduce_add_zext_i8': 'define i32 @f(<4 x i8> %x) {\n  %e = zext <4 x i8> %x to <4 x i32>\n  %r = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %e)\n  ret i32 %r\n}\ndeclare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)',
    # returned argument replaces the call's uses
    'returned_arg': 'define ptr @f(ptr %p) {\n  %r = call ptr @g(ptr %p)\n  ret ptr %r\n}\ndeclare ptr @g(ptr returned)',
}


@pytest.mark.parametrize("name", sorted(INT_RULES) + sorted(OTHER_RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(INT_RULES.get(name) or OTHER_RULES[name], "instcombine")


@pytest.mark.parametrize("name", sorted(INT_RULES))
def test_rule_refines(name: str) -> None:
    before, after = check_refines(INT_RULES[name], max_inputs=MAX_INPUTS)
    assert str(before) != str(after), "the fold did not fire"


# Calls whose function type is not the callee's own (transformConstExprCastCall): name ->
# (IR, whether opt-19 rewrites the call).
CAST_CALLEE_RULES: dict[str, tuple[str, bool]] = {
    # ptr argument to an i32 parameter (32-bit pointers): ptrtoint, tail kept
    'arg_ptrtoint': ('target datalayout = "e-p:32:32"\ndeclare i32 @g(i32)\ndefine i32 @f(ptr %a) {\n  %r = tail call i32 @g(ptr %a)\n  ret i32 %r\n}', True),
    # i32 result from a ptr-returning callee: the call returns ptr, then ptrtoint
    'ret_ptrtoint': ('target datalayout = "e-p:32:32"\ndeclare ptr @g(ptr)\ndefine i32 @f() {\n  %r = call i32 @g(ptr null)\n  ret i32 %r\n}', True),
    # a width mismatch is left alone
    'arg_width_mismatch': ('declare i32 @g(i16)\ndefine i32 @f(ptr %a) {\n  %r = call i32 @g(ptr %a)\n  ret i32 %r\n}', False),
    # varargs definition: extra arguments promoted (zext to i32), attributes kept
    'vararg_promote': ('define void @g(i32 %x, ...) {\n  ret void\n}\ndefine void @f(i8 %a, i16 %b, float %c) {\n  call void @g(i32 1, i8 %a, i16 signext %b, float %c)\n  ret void\n}', True),
    # missing parameters become zero; !prof is kept; an unused void result gives poison
    'missing_args': ('define i64 @g(i64 %a, ptr %b) {\n  ret i64 %a\n}\ndefine void @v() {\n  ret void\n}\ndefine i64 @f(i64 %a) {\n  %r = call i64 @g(i64 %a), !prof !0\n  %u = call i64 @v()\n  %s = add i64 %r, %u\n  ret i64 %s\n}\n!0 = !{!"branch_weights", i32 5}', True),
    # sret among the extra varargs arguments, and zeroext on a pointer parameter: left alone
    'attrs_block': ('define void @g(i32 %x, ...) {\n  ret void\n}\ndefine signext i32 @b(ptr inreg %x) {\n  ret i32 0\n}\ndefine void @f(ptr %y) {\n  call void @g(i32 0, ptr sret(i32) %y)\n  call i32 @b(i32 zeroext 0)\n  ret void\n}', False),
    # return attributes not valid for the new type are dropped; fast-math flags are not kept
    'ret_attrs_dropped': ('declare i64 @g(i32)\ndefine float @h(float %x) {\n  ret float %x\n}\ndefine float @f(ptr %p, i32 %x) {\n  %r = call nonnull ptr @g(i32 1)\n  %q = call fast float @h(i32 %x)\n  ret float %q\n}', True),
    # invoke: the cast of the result goes in the normal destination; deopt bundle kept
    'invoke_result': ('declare i32 @pers(...)\ndeclare ptr @g(i32)\ndeclare void @d(i32)\ndefine i64 @f(i32 %x) personality ptr @pers {\nentry:\n  call void @d() [ "deopt"() ]\n  %r = invoke i64 @g(i32 %x) to label %ok unwind label %bad\nok:\n  %s = add i64 %r, 1\n  ret i64 %s\nbad:\n  %lp = landingpad { ptr, i32 } cleanup\n  ret i64 0\n}', True),
    # thunk, naked, musttail, byval mismatch: left alone
    'blocked_callees': ('define void @t(i64 %x) "thunk" {\n  ret void\n}\ndefine void @n(i64 %x) naked {\n  unreachable\n}\ndeclare void @bv(ptr byval(i32))\ndefine i32 @g(i64 %x) {\n  ret i32 0\n}\ndefine i32 @f(ptr %p) {\n  call void @t(ptr %p)\n  call void @n(ptr %p)\n  call void @bv(ptr %p, i32 1)\n  %r = musttail call i32 @g(ptr %p)\n  ret i32 %r\n}', False),
    # the same calls of plain functions are rewritten (ptrtoint to i64)
    'unblocked_callees': ('define void @t(i64 %x) {\n  ret void\n}\ndefine i32 @g(i64 %x) {\n  ret i32 0\n}\ndefine i32 @f(ptr %p) {\n  call void @t(ptr %p)\n  %r = tail call i32 @g(ptr %p)\n  ret i32 %r\n}', True),
    # a call through llvm.adjust.trampoline of an init.trampoline: a direct call with the nest argument
    'trampoline_nest': ('declare void @llvm.init.trampoline(ptr, ptr, ptr)\ndeclare ptr @llvm.adjust.trampoline(ptr)\ndeclare i32 @g(i32, ptr nest)\ndefine i32 @f(i32 %n, ptr %c) {\n  %m = alloca [10 x i8], align 16\n  call void @llvm.init.trampoline(ptr %m, ptr @g, ptr %c)\n  %t = call ptr @llvm.adjust.trampoline(ptr %m)\n  %r = tail call i32 %t(i32 zeroext %n)\n  ret i32 %r\n}', False),
    # debug records before the call stay before the casts inserted in front of it
    'debug_records': ("declare ptr @g(i32, i64)\ndefine i64 @f(i32 %x, ptr %p) !dbg !5 {\n  %a = add i32 %x, 1, !dbg !9\n    #dbg_value(i32 %a, !8, !DIExpression(), !9)\n  %r = call i64 @g(i32 %a, ptr %p), !dbg !9\n    #dbg_value(i64 %r, !8, !DIExpression(), !9)\n  call void @h(i64 %r), !dbg !9\n  ret i64 %r, !dbg !9\n}\ndeclare void @h(i32)\n!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!2, !3}\n!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)\n!1 = !DIFile(filename: \"t.c\", directory: \"/\")\n!2 = !{i32 2, !\"Debug Info Version\", i32 3}\n!3 = !{i32 7, !\"Dwarf Version\", i32 4}\n!5 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 1, type: !6, unit: !0)\n!6 = !DISubroutineType(types: !7)\n!7 = !{null}\n!8 = !DILocalVariable(name: \"v\", scope: !5, file: !1, line: 1, type: !10)\n!9 = !DILocation(line: 1, scope: !5)\n!10 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n", True),
}


def _mismatched_calls(text: str) -> int:
    """How many calls and invokes call a function with a type not its own."""
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instructions.calls import CallBase

    n = 0
    for fn in parse_assembly(text).functions:
        for bb in fn.blocks:
            for i in bb.instructions:
                if isinstance(i, CallBase) and isinstance(i.callee, Function):
                    n += i.callee.function_type is not i.function_type
    return n


@pytest.mark.parametrize("name", sorted(CAST_CALLEE_RULES))
def test_cast_callee_as_opt19(name: str) -> None:
    text, rewrites = CAST_CALLEE_RULES[name]
    got = assert_same_as_opt(text, "instcombine")
    assert (_mismatched_calls(got) < _mismatched_calls(text)) is rewrites


def test_trampoline_call_becomes_direct() -> None:
    from llvmpy_mid.asm import parse_assembly
    from llvmpy_mid.ir.function import Function
    from llvmpy_mid.ir.instructions.calls import CallInst

    text, _ = CAST_CALLEE_RULES["trampoline_nest"]
    got = parse_assembly(assert_same_as_opt(text, "instcombine"))
    fn = got.get_function("f")
    assert fn is not None
    calls = [i for bb in fn.blocks for i in bb.instructions if isinstance(i, CallInst)]
    assert any(isinstance(c.callee, Function) and c.callee.name == "g" for c in calls)
