"""Tests of the metadata-attachment rules of the verifier (``metadata_rules``
and ``tbaa_rules``): ``!fpmath``, ``!range``, ``!nonnull``,
``!dereferenceable[_or_null]``, ``!invariant.group``, ``!align``, ``!tbaa``,
``!prof`` (on instructions and functions), ``!kcfi_type``,
``!noalias``/``!alias.scope``, ``!llvm.access.group``, ``!annotation``,
``!callsite``/``!memprof``.

Each case is a small module; ``EXPECTED`` holds what ``opt-19 -passes=verify``
prints for it (captured with opt-19, without the final "input module is
broken!" line; empty for a valid module). The whole text must match, and when
opt-19 is on PATH it is also compared live.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.errors import VerifierError
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.metadata import MDString, MDTuple, ValueAsMetadata
from llvmpy_mid.ir.verifier import diagnostics_text, module_diagnostics

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import OPT, findings, opt_filtered  # noqa: E402
from oracles import LLVM_TEST_ROOT  # noqa: E402

VERIFIER_TESTS = LLVM_TEST_ROOT / "Verifier"


# A TBAA root !3, the char node !2 under it and the int node !1 under that.
TBAA_INT = '!1 = !{!"int", !2, i64 0}\n!2 = !{!"omnipotent char", !3, i64 0}\n!3 = !{!"Simple C/C++ TBAA"}\n'

# The same in the new (size-aware) TBAA format.
TBAA_NEW_INT = '!1 = !{!2, i64 4, !"int"}\n!2 = !{!3, i64 1, !"char"}\n!3 = !{!"root"}\n'
# @f(i1 %c) whose branch on %c carries !prof !0.
BRANCH_PROF_0 = "define void @f(i1 %c) {\n  br i1 %c, label %a, label %b, !prof !0\na:\n  ret void\nb:\n  ret void\n}\n"


def in_f(body: str, after: str = "", before: str = "") -> str:
    """A module whose @f(ptr %p, i32 %i, float %x) runs ``body`` then returns, between ``before``
    and ``after``."""
    return before + "define void @f(ptr %p, i32 %i, float %x) {\n" + body + "  ret void\n}\n" + after


CASES: dict[str, str] = {
    'fpmath_int_result': in_f(
        '  %a = add i32 %i, 1, !fpmath !0\n',
        '!0 = !{float 2.5}\n',
    ),
    'fpmath_two_operands': in_f(
        '  %a = fadd float %x, 1.0, !fpmath !0\n',
        '!0 = !{float 2.5, float 1.0}\n',
    ),
    'fpmath_double': in_f(
        '  %a = fadd float %x, 1.0, !fpmath !0\n',
        '!0 = !{double 2.5}\n',
    ),
    'fpmath_negative': in_f(
        '  %a = fadd float %x, 1.0, !fpmath !0\n',
        '!0 = !{float -2.5}\n',
    ),
    'fpmath_zero': in_f(
        '  %a = fadd float %x, 1.0, !fpmath !0\n',
        '!0 = !{float 0.0}\n',
    ),
    'fpmath_inf': in_f(
        '  %a = fadd float %x, 1.0, !fpmath !0\n',
        '!0 = !{float 0x7FF0000000000000}\n',
    ),
    'fpmath_string': in_f(
        '  %a = fadd float %x, 1.0, !fpmath !0\n',
        '!0 = !{!"2.5"}\n',
    ),
    'fpmath_ok': in_f(
        '  %a = fadd float %x, 1.0, !fpmath !0\n'
        '  %b = fdiv <2 x float> zeroinitializer, zeroinitializer, !fpmath !0\n',
        '!0 = !{float 2.5}\n',
    ),
    'range_many': in_f(
        '  %a = load i8, ptr %p, !range !{i8 0, i8 2, i8 1, i8 3}\n'
        '  %b = load i8, ptr %p, !range !{i8 1, i8 3, i8 5, i8 2}\n'
        '  %c = load i8, ptr %p, !range !{i8 1, i8 2, i8 -1, i8 0}\n'
        '  %d = call i8 @func(), !range !{}\n'
        '  %e = load <2 x i8>, ptr %p, !range !{i16 0, i16 10}\n'
        '  %g = load i32, ptr %p, !range !{i32 123, i32 123}\n'
        '  %h = load i32, ptr %p, !range !{i32 0, i64 123}\n'
        '  %j = load i32, ptr %p, !range !{i32 0}\n'
        '  %k = load i32, ptr %p, !range !{float 0.0, i32 0}\n'
        '  %l = load i32, ptr %p, !range !{i32 0, float 0.0}\n'
        '  %m = load i32, ptr %p, !range !{i32 0, i32 0}\n'
        '  %n = load i32, ptr %p, !range !{i32 -1, i32 -1}\n'
        '  %o = load i8, ptr %p, !range !{i8 1, i8 3, i8 4, i8 5, i8 6, i8 1}\n'
        '  %q = load i8, ptr %p, !range !{i8 0, i8 2, i8 2, i8 3}\n'
        '  %r = load i8, ptr %p, !range !{i8 10, i8 1, i8 12, i8 13}\n'
        '  store i8 0, ptr %p, !range !{i8 0, i8 1}\n',
        '',
        before='declare i8 @func()\n',
    ),
    'range_ok': in_f(
        '  %a = load i8, ptr %p, !range !{i8 0, i8 2, i8 4, i8 6}\n'
        '  %b = load <2 x i8>, ptr %p, !range !{i8 -1, i8 4}\n'
        '  %c = call i8 @func(), !range !{i8 1, i8 0}\n'
        '  %d = load i8, ptr %p, !range !{i8 -2, i8 1, i8 3, i8 5, i8 7, i8 9}\n',
        '',
        before='declare i8 @func()\n',
    ),
    'nonnull_int': in_f(
        '  %a = load i32, ptr %p, !nonnull !0\n',
        '!0 = !{}\n',
    ),
    'nonnull_call': in_f(
        '  %a = call ptr @g(), !nonnull !0\n',
        '!0 = !{}\n',
        before='declare ptr @g()\n',
    ),
    'nonnull_operand': in_f(
        '  %a = load ptr, ptr %p, !nonnull !0\n',
        '!0 = !{i32 1}\n',
    ),
    'nonnull_ok': in_f(
        '  %a = load ptr, ptr %p, !nonnull !0\n',
        '!0 = !{}\n',
    ),
    'deref_int': in_f(
        '  %a = load i32, ptr %p, !dereferenceable !0\n',
        '!0 = !{i64 8}\n',
    ),
    'deref_call': in_f(
        '  %a = call ptr @g(), !dereferenceable_or_null !0\n',
        '!0 = !{i64 8}\n',
        before='declare ptr @g()\n',
    ),
    'deref_two': in_f(
        '  %a = load ptr, ptr %p, !dereferenceable !0\n',
        '!0 = !{i64 8, i64 8}\n',
    ),
    'deref_i32': in_f(
        '  %a = load ptr, ptr %p, !dereferenceable_or_null !0\n',
        '!0 = !{i32 8}\n',
    ),
    'deref_ok': in_f(
        '  %a = load ptr, ptr %p, !dereferenceable !0\n'
        '  %b = inttoptr i32 %i to ptr, !dereferenceable_or_null !0\n',
        '!0 = !{i64 8}\n',
    ),
    'invariant_group_add': in_f(
        '  %a = add i32 %i, 1, !invariant.group !0\n',
        '!0 = !{}\n',
    ),
    'invariant_group_ok': in_f(
        '  %a = load i32, ptr %p, !invariant.group !0\n'
        '  store i32 0, ptr %p, !invariant.group !0\n',
        '!0 = !{}\n',
    ),
    'align_ok': in_f(
        '  %a = load ptr, ptr %p, !align !0\n',
        '!0 = !{i64 4294967296}\n',
    ),
    'align_zero': in_f(
        '  %a = load ptr, ptr %p, !align !0\n',
        '!0 = !{i64 0}\n',
    ),
    'tbaa_ok': (
        'declare i32 @g()\n'
        'define void @f(ptr %p, i32 %i, float %x) {\n'
        '  %a = load i32, ptr %p, !tbaa !0\n'
        '  store i32 0, ptr %p, !tbaa !0\n'
        '  %c = call i32 @g(), !tbaa !0\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!1, !1, i64 0}\n'
        + TBAA_INT
    ),
    'tbaa_not_allowed': in_f(
        '  %a = add i32 %i, 1, !tbaa !0\n',
        '!0 = !{!1, !1, i64 0}\n'
        + TBAA_INT,
    ),
    'tbaa_empty': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{}\n',
    ),
    'tbaa_access_not_scalar': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!1, !4, i64 0}\n'
        '!4 = !{!"x"}\n'
        + TBAA_INT,
    ),
    'tbaa_offset_nonzero': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!1, !1, i64 4}\n'
        + TBAA_INT,
    ),
    'tbaa_offset_not_int': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!1, !1, !"x"}\n'
        + TBAA_INT,
    ),
    'tbaa_five': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!1, !1, i64 0, i64 0, i64 0}\n'
        + TBAA_INT,
    ),
    'tbaa_immutable': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n'
        '  %b = load i32, ptr %p, !tbaa !4\n',
        '!0 = !{!1, !1, i64 0, i64 2}\n'
        '!4 = !{!1, !1, i64 0, !"x"}\n'
        + TBAA_INT,
    ),
    'tbaa_null': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!1, null, i64 0}\n'
        + TBAA_INT,
    ),
    'tbaa_struct_ok': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n'
        '  %b = load float, ptr %p, !tbaa !6\n',
        '!0 = !{!4, !1, i64 0}\n'
        '!6 = !{!4, !5, i64 4}\n'
        + TBAA_INT
        + '!4 = !{!"S", !1, i64 0, !5, i64 4}\n'
        '!5 = !{!"float", !2, i64 0}\n',
    ),
    'tbaa_struct_wrong_offset': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!4, !1, i64 2}\n'
        + TBAA_INT
        + '!4 = !{!"S", !1, i64 0, !5, i64 4}\n'
        '!5 = !{!"float", !2, i64 0}\n',
    ),
    'tbaa_struct_no_access': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!4, !5, i64 0}\n'
        + TBAA_INT
        + '!4 = !{!"S", !1, i64 0, !5, i64 4}\n'
        '!5 = !{!"float", !2, i64 0}\n',
    ),
    'tbaa_struct_bad_order': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n'
        '  %b = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!4, !1, i64 0}\n'
        + TBAA_INT
        + '!4 = !{!"S", !1, i64 4, !5, i64 0}\n'
        '!5 = !{!"float", !2, i64 0}\n',
    ),
    'tbaa_struct_width': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!4, !1, i64 0}\n'
        + TBAA_INT
        + '!4 = !{!"S", !1, i32 0, !5, i32 4}\n'
        '!5 = !{!"float", !2, i64 0}\n',
    ),
    'tbaa_struct_even': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!4, !1, i64 0}\n'
        + TBAA_INT
        + '!4 = !{!"S", !1, i64 0, !5}\n'
        '!5 = !{!"float", !2, i64 0}\n',
    ),
    'tbaa_struct_field_string': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!4, !1, i64 0}\n'
        + TBAA_INT
        + '!4 = !{!"S", !"x", i64 0}\n',
    ),
    'tbaa_cycle': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!4, !1, i64 0}\n'
        + TBAA_INT
        + '!4 = !{!"S", !4, i64 0}\n',
    ),
    'tbaa_new_format_ok': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!1, !1, i64 0, i64 4}\n'
        + TBAA_NEW_INT,
    ),
    'tbaa_new_format_three': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!1, !1, i64 0}\n'
        + TBAA_NEW_INT,
    ),
    'tbaa_new_format_size': in_f(
        '  %a = load i32, ptr %p, !tbaa !0\n',
        '!0 = !{!1, !1, i64 0, !"x"}\n'
        + TBAA_NEW_INT,
    ),
    'prof_br_one': (
        BRANCH_PROF_0
        + '!0 = !{!"branch_weights", i32 1}\n'
    ),
    'prof_br_ok': (
        BRANCH_PROF_0
        + '!0 = !{!"branch_weights", i32 1, i32 2}\n'
        '!1 = !{!"branch_weights", !"expected", i32 1, i32 2}\n'
    ),
    'prof_br_expected': (
        BRANCH_PROF_0
        + '!0 = !{!"branch_weights", !"expected", i32 1, i32 2}\n'
    ),
    'prof_br_not_int': (
        BRANCH_PROF_0
        + '!0 = !{!"branch_weights", i32 1, !"x"}\n'
    ),
    'prof_br_null': (
        BRANCH_PROF_0
        + '!0 = !{!"branch_weights", i32 1, null}\n'
    ),
    'prof_switch': (
        'define void @f(i32 %c) {\n'
        '  switch i32 %c, label %a [ i32 0, label %b ], !prof !0\n'
        'a:\n'
        '  ret void\n'
        'b:\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"branch_weights", i32 1, i32 2, i32 3}\n'
    ),
    'prof_store': in_f(
        '  store i32 0, ptr %p, !prof !0\n',
        '!0 = !{!"branch_weights", i32 1}\n',
    ),
    'prof_select': in_f(
        '  %s = select i1 true, i32 1, i32 2, !prof !0\n',
        '!0 = !{!"branch_weights", i32 1}\n',
    ),
    'prof_short': in_f(
        '  %c = call i32 @g(), !prof !0\n',
        '!0 = !{!"branch_weights"}\n',
        before='declare i32 @g()\n',
    ),
    'prof_no_name': in_f(
        '  %c = call i32 @g(), !prof !0\n',
        '!0 = !{i32 1, i32 2}\n',
        before='declare i32 @g()\n',
    ),
    'prof_null_name': in_f(
        '  %c = call i32 @g(), !prof !0\n',
        '!0 = !{null, i32 2}\n',
        before='declare i32 @g()\n',
    ),
    'prof_vp_ok': in_f(
        '  %c = call i32 @g(), !prof !0\n',
        '!0 = !{!"VP", i32 0, i64 1, i64 2, i64 1}\n',
        before='declare i32 @g()\n',
    ),
    'prof_invoke': (
        'declare i32 @g()\n'
        'declare i32 @__gxx_personality_v0(...)\n'
        'define void @f() personality ptr @__gxx_personality_v0 {\n'
        '  %c = invoke i32 @g() to label %a unwind label %b, !prof !0\n'
        'a:\n'
        '  ret void\n'
        'b:\n'
        '  %l = landingpad { ptr, i32 } cleanup\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"branch_weights", i32 1, i32 2, i32 3}\n'
    ),
    'prof_indirectbr': (
        'define void @f(ptr %p) {\n'
        '  indirectbr ptr %p, [label %a, label %b], !prof !0\n'
        'a:\n'
        '  ret void\n'
        'b:\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"branch_weights", i32 1}\n'
    ),
    'fn_prof_ok': (
        'define void @f() !prof !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"function_entry_count", i64 5}\n'
    ),
    'fn_prof_synthetic': (
        'define void @f() !prof !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"synthetic_function_entry_count", i64 5}\n'
    ),
    'fn_prof_name': (
        'define void @f() !prof !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"function_entry", i64 5}\n'
    ),
    'fn_prof_short': (
        'define void @f() !prof !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"function_entry_count"}\n'
    ),
    'fn_prof_not_const': (
        'define void @f() !prof !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"function_entry_count", !"x"}\n'
    ),
    'fn_prof_decl': (
        'declare !prof !0 void @f()\n'
        '!0 = !{!"function_entry_count", i64 5}\n'
    ),
    'fn_prof_twice': (
        'define void @f() !prof !0 !prof !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"function_entry_count", i64 5}\n'
    ),
    'kcfi_ok': (
        'define void @f() !kcfi_type !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{i32 12345}\n'
    ),
    'kcfi_i64': (
        'define void @f() !kcfi_type !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{i64 12345}\n'
    ),
    'kcfi_two': (
        'define void @f() !kcfi_type !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{i32 1, i32 2}\n'
    ),
    'kcfi_string': (
        'define void @f() !kcfi_type !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{!"x"}\n'
    ),
    'kcfi_float': (
        'define void @f() !kcfi_type !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{float 1.0}\n'
    ),
    'kcfi_twice': (
        'define void @f() !kcfi_type !0 !kcfi_type !0 {\n'
        '  ret void\n'
        '}\n'
        '!0 = !{i32 12345}\n'
    ),
    'alias_scope_ok': in_f(
        '  store i32 0, ptr %p, !alias.scope !0, !noalias !0\n',
        '!0 = !{!1}\n'
        '!1 = distinct !{!1, !2, !"scope"}\n'
        '!2 = distinct !{!2, !"domain"}\n',
    ),
    'alias_scope_not_node': in_f(
        '  store i32 0, ptr %p, !alias.scope !0\n',
        '!0 = !{!"x"}\n',
    ),
    'alias_scope_one_operand': in_f(
        '  store i32 0, ptr %p, !noalias !0\n'
        '  store i32 1, ptr %p, !noalias !0\n',
        '!0 = !{!1}\n'
        '!1 = distinct !{!1}\n',
    ),
    'alias_scope_first': in_f(
        '  store i32 0, ptr %p, !noalias !0\n',
        '!0 = !{!1}\n'
        '!1 = !{i32 1, !2}\n'
        '!2 = distinct !{!2}\n',
    ),
    'alias_scope_third': in_f(
        '  store i32 0, ptr %p, !noalias !0\n',
        '!0 = !{!1}\n'
        '!1 = distinct !{!1, !2, i32 0}\n'
        '!2 = distinct !{!2}\n',
    ),
    'alias_scope_domain_str': in_f(
        '  store i32 0, ptr %p, !noalias !0\n',
        '!0 = !{!1}\n'
        '!1 = distinct !{!1, !"d"}\n',
    ),
    'alias_scope_domain_ops': in_f(
        '  store i32 0, ptr %p, !noalias !0\n',
        '!0 = !{!1, !3}\n'
        '!1 = distinct !{!1, !2}\n'
        '!2 = !{}\n'
        '!3 = distinct !{!3, !4}\n'
        '!4 = distinct !{!4, i32 1}\n',
    ),
    'alias_scope_domain_first': in_f(
        '  store i32 0, ptr %p, !noalias !0\n',
        '!0 = !{!1}\n'
        '!1 = distinct !{!1, !2}\n'
        '!2 = !{i32 0}\n',
    ),
    'access_group_ok': in_f(
        '  store i32 0, ptr %p, !llvm.access.group !0\n'
        '  store i32 1, ptr %p, !llvm.access.group !1\n',
        '!0 = distinct !{}\n'
        '!1 = !{!0, !2}\n'
        '!2 = distinct !{}\n',
    ),
    'access_group_bad': in_f(
        '  store i32 0, ptr %p, !llvm.access.group !0\n',
        '!0 = !{!1}\n'
        '!1 = !{}\n',
    ),
    'access_group_string': in_f(
        '  store i32 0, ptr %p, !llvm.access.group !0\n',
        '!0 = !{!"x"}\n',
    ),
    'annotation_ok': in_f(
        '  %a = add i32 %i, 1, !annotation !0\n',
        '!0 = !{!"a", !1}\n'
        '!1 = !{!"b", !"c"}\n',
    ),
    'annotation_int': in_f(
        '  %a = add i32 %i, 1, !annotation !0\n',
        '!0 = !{i32 1}\n',
    ),
    'annotation_empty': in_f(
        '  %a = add i32 %i, 1, !annotation !0\n',
        '!0 = !{}\n',
    ),
    'annotation_tuple_int': in_f(
        '  %a = add i32 %i, 1, !annotation !0\n',
        '!0 = !{!1}\n'
        '!1 = !{!"b", i32 1}\n',
    ),
    'callsite_ok': in_f(
        '  %c = call i32 @g(), !callsite !0\n',
        '!0 = !{i64 123, i64 456}\n',
        before='declare i32 @g()\n',
    ),
    'callsite_not_call': in_f(
        '  %a = add i32 %i, 1, !callsite !0\n',
        '!0 = !{i64 123}\n',
    ),
    'callsite_string': in_f(
        '  %c = call i32 @g(), !callsite !0\n',
        '!0 = !{!"x"}\n',
        before='declare i32 @g()\n',
    ),
    'memprof_ok': in_f(
        '  %c = call i32 @g(), !memprof !0\n',
        '!0 = !{!1}\n'
        '!1 = !{!2, !"cold"}\n'
        '!2 = !{i64 1, i64 2}\n',
        before='declare i32 @g()\n',
    ),
    'memprof_short_mib': in_f(
        '  %c = call i32 @g(), !memprof !0\n',
        '!0 = !{!1}\n'
        '!1 = !{!2}\n'
        '!2 = !{i64 1}\n',
        before='declare i32 @g()\n',
    ),
    'memprof_first_not_node': in_f(
        '  %c = call i32 @g(), !memprof !0\n',
        '!0 = !{!1}\n'
        '!1 = !{!"x", !"cold"}\n',
        before='declare i32 @g()\n',
    ),
    'memprof_tags': in_f(
        '  %c = call i32 @g(), !memprof !0\n',
        '!0 = !{!1}\n'
        '!1 = !{!2, i32 1, !"cold"}\n'
        '!2 = !{i64 1}\n',
        before='declare i32 @g()\n',
    ),
    'memprof_last': in_f(
        '  %c = call i32 @g(), !memprof !0\n',
        '!0 = !{!1}\n'
        '!1 = !{!2, !"cold", float 1.0}\n'
        '!2 = !{i64 1}\n',
        before='declare i32 @g()\n',
    ),
    'memprof_not_call': in_f(
        '  %a = add i32 %i, 1, !memprof !0\n',
        '!0 = !{!1}\n'
        '!1 = !{!2, !"cold"}\n'
        '!2 = !{i64 1}\n',
    ),
    'temporary_free_several': in_f(
        '  %a = load i8, ptr %p, !range !0, !nonnull !1, !tbaa !2\n',
        '!0 = !{i8 0, i8 0}\n'
        '!1 = !{}\n'
        '!2 = !{}\n',
    ),
}

# What opt-19 prints for each case.
EXPECTED: dict[str, str] = {
    'fpmath_int_result': (
        'fpmath requires a floating point result!\n'
        '  %a = add i32 %i, 1, !fpmath !0\n'
    ),
    'fpmath_two_operands': (
        'fpmath takes one operand!\n'
        '  %a = fadd float %x, 1.000000e+00, !fpmath !0\n'
    ),
    'fpmath_double': (
        'fpmath accuracy must have float type\n'
        '  %a = fadd float %x, 1.000000e+00, !fpmath !0\n'
    ),
    'fpmath_negative': (
        'fpmath accuracy not a positive number!\n'
        '  %a = fadd float %x, 1.000000e+00, !fpmath !0\n'
    ),
    'fpmath_zero': (
        'fpmath accuracy not a positive number!\n'
        '  %a = fadd float %x, 1.000000e+00, !fpmath !0\n'
    ),
    'fpmath_inf': (
        'fpmath accuracy not a positive number!\n'
        '  %a = fadd float %x, 1.000000e+00, !fpmath !0\n'
    ),
    'fpmath_string': (
        'invalid fpmath accuracy!\n'
        '  %a = fadd float %x, 1.000000e+00, !fpmath !0\n'
    ),
    'fpmath_ok': "",
    'range_many': (
        'Intervals are overlapping\n'
        '!0 = !{i8 0, i8 2, i8 1, i8 3}\n'
        'Intervals are overlapping\n'
        '!1 = !{i8 1, i8 3, i8 5, i8 2}\n'
        'Intervals are not in order\n'
        '!2 = !{i8 1, i8 2, i8 -1, i8 0}\n'
        'It should have at least one range!\n'
        '!3 = !{}\n'
        'Range types must match instruction type!\n'
        '  %e = load <2 x i8>, ptr %p, align 2, !range !4\n'
        'The upper and lower limits cannot be the same value\n'
        '  %g = load i32, ptr %p, align 4, !range !5\n'
        'Range types must match instruction type!\n'
        '  %h = load i32, ptr %p, align 4, !range !6\n'
        'Unfinished range!\n'
        '!7 = !{i32 0}\n'
        'The lower limit must be an integer!\n'
        'The upper limit must be an integer!\n'
        'Range must not be empty!\n'
        '!10 = !{i32 0, i32 0}\n'
        'Range must not be empty!\n'
        '!11 = !{i32 -1, i32 -1}\n'
        'Intervals are contiguous\n'
        '!12 = !{i8 1, i8 3, i8 4, i8 5, i8 6, i8 1}\n'
        'Intervals are contiguous\n'
        '!13 = !{i8 0, i8 2, i8 2, i8 3}\n'
        'Intervals are overlapping\n'
        '!14 = !{i8 10, i8 1, i8 12, i8 13}\n'
        'Ranges are only for loads, calls and invokes!\n'
        '  store i8 0, ptr %p, align 1, !range !15\n'
    ),
    'range_ok': "",
    'nonnull_int': (
        'nonnull applies only to pointer types\n'
        '  %a = load i32, ptr %p, align 4, !nonnull !0\n'
    ),
    'nonnull_call': (
        'nonnull applies only to load instructions, use attributes for calls or invokes\n'
        '  %a = call ptr @g(), !nonnull !0\n'
    ),
    'nonnull_operand': (
        'nonnull metadata must be empty\n'
        '  %a = load ptr, ptr %p, align 8, !nonnull !0\n'
    ),
    'nonnull_ok': "",
    'deref_int': (
        'dereferenceable, dereferenceable_or_null apply only to pointer types\n'
        '  %a = load i32, ptr %p, align 4, !dereferenceable !0\n'
    ),
    'deref_call': (
        'dereferenceable, dereferenceable_or_null apply only to load and inttoptr instructions, use attributes for calls or invokes\n'
        '  %a = call ptr @g(), !dereferenceable_or_null !0\n'
    ),
    'deref_two': (
        'dereferenceable, dereferenceable_or_null take one operand!\n'
        '  %a = load ptr, ptr %p, align 8, !dereferenceable !0\n'
    ),
    'deref_i32': (
        'dereferenceable, dereferenceable_or_null metadata value must be an i64!\n'
        '  %a = load ptr, ptr %p, align 8, !dereferenceable_or_null !0\n'
    ),
    'deref_ok': "",
    'invariant_group_add': (
        'invariant.group metadata is only for loads and stores\n'
        '  %a = add i32 %i, 1, !invariant.group !0\n'
    ),
    'invariant_group_ok': "",
    'align_ok': "",
    'align_zero': (
        'align metadata value must be a power of 2!\n'
        '  %a = load ptr, ptr %p, align 8, !align !0\n'
    ),
    'tbaa_ok': "",
    'tbaa_not_allowed': (
        'This instruction shall not have a TBAA access tag!\n'
        '  %a = add i32 %i, 1, !tbaa !0\n'
    ),
    'tbaa_empty': (
        'TBAA metadata cannot have 0 operands\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{}\n'
    ),
    'tbaa_access_not_scalar': (
        'Access type node must be a valid scalar type\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !4, i64 0}\n'
        '!4 = !{!"x"}\n'
    ),
    'tbaa_offset_nonzero': (
        'Offset not zero at the point of scalar access\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !1, i64 4}\n'
        '4\n'
    ),
    'tbaa_offset_not_int': (
        'Offset must be constant integer\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !1, !"x"}\n'
    ),
    'tbaa_five': (
        'Struct tag metadata must have either 3 or 4 operands\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !1, i64 0, i64 0, i64 0}\n'
    ),
    'tbaa_immutable': (
        'Immutability part of the struct tag metadata must be either 0 or 1\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !1, i64 0, i64 2}\n'
        'Immutability tag on struct tag metadata must be a constant\n'
        '  %b = load i32, ptr %p, align 4, !tbaa !4\n'
        '!4 = !{!1, !1, i64 0, !"x"}\n'
    ),
    'tbaa_null': (
        'Malformed struct tag metadata: base and access-type should be non-null and point to Metadata nodes\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, null, i64 0}\n'
        '!1 = !{!"int", !2, i64 0}\n'
    ),
    'tbaa_struct_ok': "",
    'tbaa_struct_wrong_offset': (
        'Offset not zero at the point of scalar access\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !2, i64 2}\n'
        '2\n'
    ),
    'tbaa_struct_no_access': (
        'Did not see access type in access path!\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !5, i64 0}\n'
    ),
    'tbaa_struct_bad_order': (
        'Offsets must be increasing!\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!1 = !{!"S", !2, i64 4, !5, i64 0}\n'
    ),
    'tbaa_struct_width': (
        'Access bit-width not the same as description bit-width\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !2, i64 0}\n'
        '32\n'
        '64\n'
    ),
    'tbaa_struct_even': (
        'Struct tag nodes must have an odd number of operands!\n'
        '!1 = !{!"S", !2, i64 0, !5}\n'
    ),
    'tbaa_struct_field_string': (
        'Incorrect field entry in struct type node!\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!1 = !{!"S", !"x", i64 0}\n'
    ),
    'tbaa_cycle': (
        'Cycle detected in struct path\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !2, i64 0}\n'
    ),
    'tbaa_new_format_ok': "",
    'tbaa_new_format_three': (
        'Access tag metadata must have either 4 or 5 operands\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !1, i64 0}\n'
    ),
    'tbaa_new_format_size': (
        'Access size field must be a constant\n'
        '  %a = load i32, ptr %p, align 4, !tbaa !0\n'
        '!0 = !{!1, !1, i64 0, !"x"}\n'
    ),
    'prof_br_one': (
        'Wrong number of operands\n'
        '!0 = !{!"branch_weights", i32 1}\n'
    ),
    'prof_br_ok': "",
    'prof_br_expected': "",
    'prof_br_not_int': '!prof brunch_weights operand is not a const int\n',
    'prof_br_null': (
        'second operand should not be null\n'
        '!0 = !{!"branch_weights", i32 1, null}\n'
    ),
    'prof_switch': (
        'Wrong number of operands\n'
        '!0 = !{!"branch_weights", i32 1, i32 2, i32 3}\n'
    ),
    'prof_store': (
        '!prof branch_weights are not allowed for this instruction\n'
        '!0 = !{!"branch_weights", i32 1}\n'
        'Wrong number of operands\n'
        '!0 = !{!"branch_weights", i32 1}\n'
    ),
    'prof_select': (
        'Wrong number of operands\n'
        '!0 = !{!"branch_weights", i32 1}\n'
    ),
    'prof_short': (
        '!prof annotations should have no less than 2 operands\n'
        '!0 = !{!"branch_weights"}\n'
    ),
    'prof_no_name': (
        'expected string with name of the !prof annotation\n'
        '!0 = !{i32 1, i32 2}\n'
    ),
    'prof_null_name': (
        'first operand should not be null\n'
        '!0 = !{null, i32 2}\n'
    ),
    'prof_vp_ok': "",
    'prof_invoke': (
        'Wrong number of InvokeInst branch_weights operands\n'
        '!0 = !{!"branch_weights", i32 1, i32 2, i32 3}\n'
        'Wrong number of InvokeInst branch_weights operands\n'
        '!0 = !{!"branch_weights", i32 1, i32 2, i32 3}\n'
    ),
    'prof_indirectbr': (
        'Wrong number of operands\n'
        '!0 = !{!"branch_weights", i32 1}\n'
    ),
    'fn_prof_ok': "",
    'fn_prof_synthetic': "",
    'fn_prof_name': (
        "first operand should be 'function_entry_count' or 'synthetic_function_entry_count'\n"
        '!0 = !{!"function_entry", i64 5}\n'
    ),
    'fn_prof_short': (
        '!prof annotations should have no less than 2 operands\n'
        '!0 = !{!"function_entry_count"}\n'
    ),
    'fn_prof_not_const': (
        'expected integer argument to function_entry_count\n'
        '!0 = !{!"function_entry_count", !"x"}\n'
    ),
    'fn_prof_decl': (
        'function declaration may not have a !prof attachment\n'
        'ptr @f\n'
    ),
    'fn_prof_twice': (
        'function must have a single !prof attachment\n'
        'ptr @f\n'
        '!0 = !{!"function_entry_count", i64 5}\n'
    ),
    'kcfi_ok': "",
    'kcfi_i64': (
        'expected a 32-bit integer constant operand for !kcfi_type\n'
        '!0 = !{i64 12345}\n'
    ),
    'kcfi_two': (
        '!kcfi_type must have exactly one operand\n'
        '!0 = !{i32 1, i32 2}\n'
    ),
    'kcfi_string': (
        'expected a constant operand for !kcfi_type\n'
        '!0 = !{!"x"}\n'
    ),
    'kcfi_float': (
        'expected a constant integer operand for !kcfi_type\n'
        '!0 = !{float 1.000000e+00}\n'
    ),
    'kcfi_twice': (
        'function must have a single !kcfi_type attachment\n'
        'ptr @f\n'
        '!0 = !{i32 12345}\n'
    ),
    'alias_scope_ok': "",
    'alias_scope_not_node': (
        'scope list must consist of MDNodes\n'
        '!0 = !{!"x"}\n'
    ),
    'alias_scope_one_operand': (
        'scope must have two or three operands\n'
        '!1 = distinct !{!1}\n'
        'scope must have two or three operands\n'
        '!1 = distinct !{!1}\n'
    ),
    'alias_scope_first': (
        'first scope operand must be self-referential or string\n'
        '!1 = !{i32 1, !2}\n'
    ),
    'alias_scope_third': (
        'third scope operand must be string (if used)\n'
        '!1 = distinct !{!1, !2, i32 0}\n'
    ),
    'alias_scope_domain_str': (
        'second scope operand must be MDNode\n'
        '!1 = distinct !{!1, !"d"}\n'
    ),
    'alias_scope_domain_ops': (
        'domain must have one or two operands\n'
        '!2 = !{}\n'
        'second domain operand must be string (if used)\n'
        '!4 = distinct !{!4, i32 1}\n'
    ),
    'alias_scope_domain_first': (
        'first domain operand must be self-referential or string\n'
        '!2 = !{i32 0}\n'
    ),
    'access_group_ok': "",
    'access_group_bad': (
        'Access scope list contains invalid access scope\n'
        '!0 = !{!1}\n'
    ),
    'access_group_string': (
        'Access scope list must consist of MDNodes\n'
        '!0 = !{!"x"}\n'
    ),
    'annotation_ok': "",
    'annotation_int': 'operands must be a string or a tuple of strings\n',
    'annotation_empty': 'annotation must have at least one operand\n',
    'annotation_tuple_int': 'operands must be a string or a tuple of strings\n',
    'callsite_ok': "",
    'callsite_not_call': (
        '!callsite metadata should only exist on calls\n'
        '  %a = add i32 %i, 1, !callsite !0\n'
    ),
    'callsite_string': (
        'call stack metadata operand should be constant integer\n'
        '!"x"\n'
    ),
    'memprof_ok': "",
    'memprof_short_mib': (
        'Each !memprof MemInfoBlock should have at least 2 operands\n'
        '!1 = !{!2}\n'
    ),
    'memprof_first_not_node': (
        '!memprof MemInfoBlock first operand should be an MDNode\n'
        '!1 = !{!"x", !"cold"}\n'
    ),
    'memprof_tags': (
        'Not all !memprof MemInfoBlock operands 1 to N-1 are MDString\n'
        '!1 = !{!2, i32 1, !"cold"}\n'
    ),
    'memprof_last': (
        'Last !memprof MemInfoBlock operand not MDString or int\n'
        '!1 = !{!2, !"cold", float 1.000000e+00}\n'
    ),
    'memprof_not_call': (
        '!memprof metadata should only exist on calls\n'
        '  %a = add i32 %i, 1, !memprof !0\n'
    ),
    'temporary_free_several': (
        'Range must not be empty!\n'
        '!1 = !{i8 0, i8 0}\n'
        'nonnull applies only to pointer types\n'
        '  %a = load i8, ptr %p, align 1, !tbaa !0, !range !1, !nonnull !0\n'
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_opt(name: str) -> None:
    found = findings(CASES[name])
    assert diagnostics_text(found) == EXPECTED[name]
    assert not any(d.debug_info for d in found)
    if OPT is not None:
        assert diagnostics_text(found) == opt_filtered(CASES[name])


def test_valid_cases() -> None:
    valid = [n for n, t in EXPECTED.items() if not t]
    assert len(valid) > 15
    for name in valid:
        module = llvmpy_mid.parse_assembly(CASES[name], verify=True)
        assert module_diagnostics(module) == []


def test_parsing_rejects_a_broken_attachment() -> None:
    with pytest.raises(VerifierError) as info:
        llvmpy_mid.parse_assembly(CASES["nonnull_int"], verify=True)
    (d,) = info.value.diagnostics
    assert d.message == "nonnull applies only to pointer types"
    assert d.function == "@f"


def test_align_md_conformance() -> None:
    """Verifier/align-md.ll: every finding, byte for byte as opt-19 prints them."""
    path = VERIFIER_TESTS / "align-md.ll"
    if not path.is_file():
        pytest.skip("no conformance corpus")
    found = module_diagnostics(llvmpy_mid.parse_file(path, verify=False))
    assert [d.message for d in found] == [
        "align applies only to load instructions, use attributes for calls or invokes",
        "align applies only to pointer types",
        "align takes one operand!",
        "align metadata value must be an i64!",
        "align metadata value must be an i64!",
        "align metadata value must be a power of 2!",
        "alignment is larger that implementation defined limit",
    ]
    assert found[2].detail == "  %y = load ptr, ptr %x, align 8, !align !1\n"
    if OPT is not None:
        assert diagnostics_text(found) == opt_filtered(path)


def test_invoke_attachments_are_checked_twice() -> None:
    """LLVM visits an invoke's instruction checks as a call and as a terminator."""
    found = findings(CASES["prof_invoke"])
    assert [d.message for d in found] == ["Wrong number of InvokeInst branch_weights operands"] * 2


def test_tbaa_base_node_reported_once() -> None:
    """A broken struct type node is reported once, however many tags use it."""
    found = findings(CASES["tbaa_struct_bad_order"])
    assert [d.message for d in found] == ["Offsets must be increasing!"]


def test_old_style_tbaa_built_through_the_api() -> None:
    """A scalar tag (the pre-struct-path form) set through the API is rejected."""
    text = "define i32 @f(ptr %p) {\n  %v = load i32, ptr %p\n  ret i32 %v\n}\n"
    module = llvmpy_mid.parse_assembly(text, verify=False)
    ctx = module.context
    load = next(iter(module.get_function("f").instructions()))
    root = MDTuple.get(ctx, [MDString.get(ctx, "root")])
    load.set_metadata("tbaa", MDTuple.get(ctx, [MDString.get(ctx, "int"), root]))
    (d,) = module_diagnostics(module)
    assert d.message == "Old-style TBAA is no longer allowed, use struct-path TBAA instead"
    assert d.detail == "  %v = load i32, ptr %p, align 4, !tbaa !0\n"


def test_range_built_through_the_api() -> None:
    text = "define i8 @f(ptr %p) {\n  %v = load i8, ptr %p\n  ret i8 %v\n}\n"
    module = llvmpy_mid.parse_assembly(text, verify=False)
    ctx = module.context
    load = next(iter(module.get_function("f").instructions()))
    i8 = ctx.int_type(8)
    ops = [ValueAsMetadata.get(ConstantInt.get(i8, v)) for v in (5, 5)]
    load.set_metadata("range", MDTuple.get(ctx, ops))
    assert [d.message for d in module_diagnostics(module)] == ["The upper and lower limits cannot be the same value"]
