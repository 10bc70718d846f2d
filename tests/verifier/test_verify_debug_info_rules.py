"""Tests of the debug-info rules of the verifier (``debug_info_rules`` and the
debug-info parts of ``metadata_rules``): DI node checks, ``#dbg_*`` records,
the function's ``!dbg`` subprogram and locations, ``llvm.dbg.cu``.

Each textual case is ``BASE`` (a small ``clang -g`` module, valid) with a few
substitutions; ``EXPECTED`` holds what ``opt-19 -passes=verify`` prints for it
(captured with opt-19, without its trailing warning line): every finding must
be a debug-info finding, and the whole text must match. When opt-19 is on
PATH the text is also compared live. Cases the parser rejects are built
through the API and checked for LLVM's wording. The csmith ``-g`` corpus and
the conformance files with debug info must produce no finding at all.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.ir.debug_info import DILocation, DINode
from llvmpy_mid.ir.debug_records import DbgVariableRecord
from llvmpy_mid.ir.metadata import LocalAsMetadata, MDTuple, ValueAsMetadata
from llvmpy_mid.ir.verifier import debug_info_rules, diagnostics_text, module_diagnostics, verify_module
from llvmpy_mid.errors import VerifierError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vhelpers import OPT, findings, opt_filtered, parse  # noqa: E402
from oracles import LLVM_TEST_ROOT  # noqa: E402

CONFORMANCE = LLVM_TEST_ROOT
CSMITH = Path(os.environ.get("LLVMPY_MID_CSMITH_DIR", "/tmp/cs"))

BASE = """\

@g = local_unnamed_addr global i32 3, align 4, !dbg !0

define i32 @h(i32 noundef %0) !dbg !14 {
    #dbg_value(i32 %0, !18, !DIExpression(), !19)
  %2 = add nsw i32 %0, 1, !dbg !20
  ret i32 %2, !dbg !21
}

define i32 @f(i32 noundef %0, ptr nocapture noundef writeonly %1) !dbg !22 {
    #dbg_value(i32 %0, !32, !DIExpression(), !35)
    #dbg_value(ptr %1, !33, !DIExpression(), !35)
  %3 = load i32, ptr @g, align 4, !dbg !36, !tbaa !37
  %4 = add nsw i32 %3, %0, !dbg !41
    #dbg_value(i32 %4, !34, !DIExpression(), !35)
  %5 = icmp sgt i32 %4, 3, !dbg !42
  br i1 %5, label %6, label %8, !dbg !44

6:                                                ; preds = %2
  %7 = tail call i32 @h(i32 noundef %4), !dbg !45
  store i32 %7, ptr %1, align 4, !dbg !46, !tbaa !47
  br label %8, !dbg !50

8:                                                ; preds = %6, %2
  %9 = shl nsw i32 %4, 1, !dbg !51
  ret i32 %9, !dbg !52
}

!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!7}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 2, type: !5, isLocal: false, isDefinition: true)
!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)
!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")
!4 = !{!0}
!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!7 = !{i32 2, !"Debug Info Version", i32 3}
!14 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !15, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17)
!15 = !DISubroutineType(types: !16)
!16 = !{!5, !5}
!17 = !{!18}
!18 = !DILocalVariable(name: "z", arg: 1, scope: !14, file: !3, line: 3, type: !5)
!19 = !DILocation(line: 0, scope: !14)
!20 = !DILocation(line: 3, column: 25, scope: !14)
!21 = !DILocation(line: 3, column: 16, scope: !14)
!22 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !23, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !31)
!23 = !DISubroutineType(types: !24)
!24 = !{!5, !5, !25}
!25 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !26, size: 64)
!26 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !3, line: 1, size: 64, elements: !27)
!27 = !{!28, !29}
!28 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !26, file: !3, line: 1, baseType: !5, size: 32)
!29 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !26, file: !3, line: 1, baseType: !30, size: 32, offset: 32)
!30 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!31 = !{!32, !33, !34}
!32 = !DILocalVariable(name: "x", arg: 1, scope: !22, file: !3, line: 4, type: !5)
!33 = !DILocalVariable(name: "s", arg: 2, scope: !22, file: !3, line: 4, type: !25)
!34 = !DILocalVariable(name: "y", scope: !22, file: !3, line: 5, type: !5)
!35 = !DILocation(line: 0, scope: !22)
!36 = !DILocation(line: 5, column: 15, scope: !22)
!37 = !{!38, !38, i64 0}
!38 = !{!"int", !39, i64 0}
!39 = !{!"omnipotent char", !40, i64 0}
!40 = !{!"Simple C/C++ TBAA"}
!41 = !DILocation(line: 5, column: 13, scope: !22)
!42 = !DILocation(line: 6, column: 9, scope: !43)
!43 = distinct !DILexicalBlock(scope: !22, file: !3, line: 6, column: 7)
!44 = !DILocation(line: 6, column: 7, scope: !22)
!45 = !DILocation(line: 6, column: 21, scope: !43)
!46 = !DILocation(line: 6, column: 19, scope: !43)
!47 = !{!48, !38, i64 0}
!48 = !{!"S", !38, i64 0, !49, i64 4}
!49 = !{!"float", !39, i64 0}
!50 = !DILocation(line: 6, column: 14, scope: !43)
!51 = !DILocation(line: 7, column: 12, scope: !22)
!52 = !DILocation(line: 7, column: 3, scope: !22)
"""

# name -> (substitutions applied once each, text appended)
CASES: dict[str, tuple[list[tuple[str, str]], str]] = {
    'rec_var_kind': ([('#dbg_value(i32 %0, !32,', '#dbg_value(i32 %0, !5,')], ''),
    'rec_expr_kind': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !5, !35)')], ''),
    'rec_loc_kind': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(), !22)')], ''),
    'rec_mismatch_sp': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(), !19)')], ''),
    'rec_label_bad': ([('  %3 = load i32', '    #dbg_label(!5, !35)\n  %3 = load i32')], ''),
    'rec_label_ok': ([('  %3 = load i32', '    #dbg_label(!100, !35)\n  %3 = load i32')], '!100 = !DILabel(scope: !22, name: "L", file: !3, line: 9)\n'),
    'rec_label_mismatch': ([('  %3 = load i32', '    #dbg_label(!100, !35)\n  %3 = load i32')], '!100 = !DILabel(scope: !14, name: "L", file: !3, line: 9)\n'),
    'rec_label_scope': ([('  %3 = load i32', '    #dbg_label(!100, !35)\n  %3 = load i32')], '!100 = !DILabel(scope: !3, name: "L", file: !3, line: 9)\n'),
    'rec_conflict_arg': ([('#dbg_value(ptr %1, !33, !DIExpression(), !35)', '#dbg_value(ptr %1, !33, !DIExpression(), !35)\n    #dbg_value(i32 %0, !100, !DIExpression(), !35)')], '!100 = !DILocalVariable(name: "q", arg: 1, scope: !22, file: !3, line: 4, type: !5)\n'),
    'rec_fragment_large': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_LLVM_fragment, 16, 32), !35)')], ''),
    'rec_fragment_entire': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !35)')], ''),
    'rec_fragment_ok': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_LLVM_fragment, 0, 16), !35)')], ''),
    'rec_expr_invalid': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_LLVM_fragment, 0, 16, DW_OP_deref), !35)')], ''),
    'rec_entry_value': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_LLVM_entry_value, 1), !35)')], ''),
    'rec_entry_value_undef': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 undef, !32, !DIExpression(DW_OP_LLVM_entry_value, 1), !35)')], ''),
    'rec_argslist': ([('#dbg_value(i32 %4, !34, !DIExpression(), !35)', '#dbg_value(!DIArgList(i32 %4, i32 %3), !34, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !35)')], ''),
    'rec_var_scope_file': ([('!34 = !DILocalVariable(name: "y", scope: !22,', '!34 = !DILocalVariable(name: "y", scope: !3,')], ''),
    'rec_var_type_sub': ([('!34 = !DILocalVariable(name: "y", scope: !22, file: !3, line: 5, type: !5)', '!34 = !DILocalVariable(name: "y", scope: !22, file: !3, line: 5, type: !23)')], ''),
    'rec_var_type_file': ([('!34 = !DILocalVariable(name: "y", scope: !22, file: !3, line: 5, type: !5)', '!34 = !DILocalVariable(name: "y", scope: !22, file: !3, line: 5, type: !3)')], ''),
    'rec_assign': ([('  store i32 %7, ptr %1, align 4, !dbg !46, !tbaa !47', '    #dbg_assign(i32 %7, !34, !DIExpression(), !100, ptr %1, !DIExpression(), !46)\n  store i32 %7, ptr %1, align 4, !dbg !46, !tbaa !47, !DIAssignID !100')], '!100 = distinct !DIAssignID()\n'),
    'rec_assign_bad_id': ([('  store i32 %7, ptr %1, align 4, !dbg !46, !tbaa !47', '    #dbg_assign(i32 %7, !34, !DIExpression(), !5, ptr %1, !DIExpression(), !46)\n  store i32 %7, ptr %1, align 4, !dbg !46, !tbaa !47')], ''),
    'assign_id_on_add': ([('%4 = add nsw i32 %3, %0, !dbg !41', '%4 = add nsw i32 %3, %0, !dbg !41, !DIAssignID !100')], '!100 = distinct !DIAssignID()\n'),
    'assign_other_fn': ([('%2 = add nsw i32 %0, 1, !dbg !20', '%2 = add nsw i32 %0, 1, !dbg !20\n    #dbg_assign(i32 %0, !18, !DIExpression(), !100, ptr undef, !DIExpression(), !20)'), ('store i32 %7, ptr %1, align 4, !dbg !46, !tbaa !47', 'store i32 %7, ptr %1, align 4, !dbg !46, !tbaa !47, !DIAssignID !100')], '!100 = distinct !DIAssignID()\n'),
    'fn_loc_wrong_sp': ([('%2 = add nsw i32 %0, 1, !dbg !20', '%2 = add nsw i32 %0, 1, !dbg !36')], ''),
    'fn_loc_scope_file': ([('ret i32 %9, !dbg !52', 'ret i32 %9, !dbg !100')], '!100 = !DILocation(line: 7, column: 3, scope: !3)\n'),
    'fn_dbg_not_sp': ([('@h(i32 noundef %0) !dbg !14', '@h(i32 noundef %0) local_unnamed_addr #0 !dbg !3')], ''),
    'fn_dbg_decl_sp': ([('@h(i32 noundef %0) !dbg !14', '@h(i32 noundef %0) local_unnamed_addr #0 !dbg !100')], '!100 = !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !15, spFlags: 0)\n'),
    'fn_sp_twice': ([('@h(i32 noundef %0) !dbg !14', '@h(i32 noundef %0) local_unnamed_addr #0 !dbg !22')], ''),
    'decl_distinct_sp': ([('!llvm.dbg.cu', 'declare !dbg !100 void @dd()\n!llvm.dbg.cu')], '!100 = distinct !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !15, spFlags: 0)\n'),
    'decl_unique_sp': ([('!llvm.dbg.cu', 'declare !dbg !100 void @dd()\n!llvm.dbg.cu')], '!100 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !15, spFlags: 0)\n'),
    'call_no_dbg': ([('%7 = tail call i32 @h(i32 noundef %4), !dbg !45', '%7 = tail call i32 @h(i32 noundef %4)')], ''),
    'inst_dbg_not_loc': ([('ret i32 %9, !dbg !52', 'ret i32 %9, !dbg !22')], ''),
    'loc_inlined_bad': ([('ret i32 %9, !dbg !52', 'ret i32 %9, !dbg !100')], '!100 = !DILocation(line: 7, column: 3, scope: !22, inlinedAt: !22)\n'),
    'loc_inlined_ok': ([('ret i32 %2, !dbg !21', 'ret i32 %2, !dbg !100')], '!100 = !DILocation(line: 7, column: 3, scope: !22, inlinedAt: !21)\n'),
    'loc_inlined_good': ([('ret i32 %9, !dbg !52', 'ret i32 %9, !dbg !100')], '!100 = !DILocation(line: 7, column: 3, scope: !14, inlinedAt: !52)\n'),
    'loc_decl_scope': ([('ret i32 %9, !dbg !52', 'ret i32 %9, !dbg !101')], '!100 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !15, spFlags: 0)\n!101 = !DILocation(line: 1, scope: !100)\n'),
    'loop_md_locs': ([('br label %8, !dbg !50', 'br label %8, !dbg !50, !llvm.loop !100')], '!100 = distinct !{!100, !21, !52}\n'),
    'cu_not_listed': ([('!llvm.dbg.cu = !{!2}', '!llvm.dbg.cu = !{}')], ''),
    'cu_list_bad': ([('!llvm.dbg.cu = !{!2}', '!llvm.dbg.cu = !{!2, !3}')], ''),
    'dbg_foo': ([('!llvm.dbg.cu = !{!2}', '!llvm.dbg.cu = !{!2}\n!llvm.dbg.foo = !{!2}')], ''),
    'file_checksum_len': ([('checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12"', 'checksum: "58b6fd6b792cbdbfd10a4fb6f234fe1"')], ''),
    'file_checksum_hex': ([('checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12"', 'checksum: "58b6fd6b792cbdbfd10a4fb6f234fezz"')], ''),
    'file_checksum_sha1': ([('checksumkind: CSK_MD5', 'checksumkind: CSK_SHA1')], ''),
    'cu_bad_file': ([('!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3,', '!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !5,')], ''),
    'cu_empty_filename': ([('!3 = !DIFile(filename: "t2.c"', '!3 = !DIFile(filename: ""')], ''),
    'cu_globals_bad': ([('!4 = !{!0}', '!4 = !{!1}')], ''),
    'cu_enums_bad': ([('globals: !4,', 'globals: !4, enums: !100,')], '!100 = !{!5}\n'),
    'cu_retained_bad': ([('globals: !4,', 'globals: !4, retainedTypes: !100,')], '!100 = !{!22}\n'),
    'cu_imports_bad': ([('globals: !4,', 'globals: !4, imports: !100,')], '!100 = !{!5}\n'),
    'gv_dbg_not_gve': ([('global i32 3, align 4, !dbg !0', 'global i32 3, align 4, !dbg !1')], ''),
    'gve_bad_expr': ([('!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())', '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression(DW_OP_LLVM_fragment, 0, 8, DW_OP_deref))')], ''),
    'gve_fragment_big': ([('!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())', '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression(DW_OP_LLVM_fragment, 0, 64))')], ''),
    'gv_missing_type': ([('isLocal: false, isDefinition: true)', 'isLocal: false, isDefinition: true, type: null)'), ('line: 2, type: !5, isLocal', 'line: 2, isLocal')], ''),
    'gv_scope_bad': ([('!1 = distinct !DIGlobalVariable(name: "g", scope: !2,', '!1 = distinct !DIGlobalVariable(name: "g", scope: !0,')], ''),
    'sp_line_no_file': ([('!14 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3,', '!14 = distinct !DISubprogram(name: "h", scope: !3, line: 3,')], ''),
    'sp_bad_type': ([('line: 3, type: !15, scopeLine: 3', 'line: 3, type: !5, scopeLine: 3')], ''),
    'sp_retained_bad': ([('!17 = !{!18}', '!17 = !{!5}')], ''),
    'sp_retained_not_tuple': ([('retainedNodes: !17)', 'retainedNodes: !5)')], ''),
    'sp_scope_bad': ([('!14 = distinct !DISubprogram(name: "h", scope: !3,', '!14 = distinct !DISubprogram(name: "h", scope: !0,')], ''),
    'sp_decl_with_unit': ([('!llvm.dbg.cu', 'declare !dbg !100 void @dd()\n!llvm.dbg.cu')], '!100 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !15, spFlags: 0, unit: !2)\n'),
    'sp_allcalls_decl': ([('!llvm.dbg.cu', 'declare !dbg !100 void @dd()\n!llvm.dbg.cu')], '!100 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !15, flags: DIFlagAllCallsDescribed, spFlags: 0)\n'),
    'sp_bad_decl_field': ([('scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17)', 'scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17, declaration: !22)')], ''),
    'sp_thrown_bad': ([('unit: !2, retainedNodes: !17)', 'unit: !2, retainedNodes: !17, thrownTypes: !100)')], '!100 = !{!3}\n'),
    'sp_ref_flags': ([('flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17', 'flags: DIFlagPrototyped | DIFlagAllCallsDescribed | DIFlagLValueReference | DIFlagRValueReference, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !17')], ''),
    'lb_col_no_line': ([('!43 = distinct !DILexicalBlock(scope: !22, file: !3, line: 6, column: 7)', '!43 = distinct !DILexicalBlock(scope: !22, file: !3, column: 7)')], ''),
    'lb_scope_bad': ([('!43 = distinct !DILexicalBlock(scope: !22, file: !3, line: 6, column: 7)', '!43 = distinct !DILexicalBlock(scope: !3, file: !3, line: 6, column: 7)')], ''),
    'lbf_ok': ([('!43 = distinct !DILexicalBlock(scope: !22, file: !3, line: 6, column: 7)', '!43 = !DILexicalBlockFile(scope: !22, file: !3, discriminator: 2)')], ''),
    'dt_bad_tag': ([('!25 = !DIDerivedType(tag: DW_TAG_pointer_type,', '!25 = !DIDerivedType(tag: DW_TAG_structure_type,')], ''),
    'dt_bad_base': ([('!25 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !26, size: 64)', '!25 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !3, size: 64)')], ''),
    'dt_bad_scope': ([('!28 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !26,', '!28 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !0,')], ''),
    'dt_file_bad': ([('!28 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !26, file: !3,', '!28 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !26, file: !26,')], ''),
    'dt_addrspace': ([('!28 = !DIDerivedType(tag: DW_TAG_member,', '!28 = !DIDerivedType(tag: DW_TAG_member, dwarfAddressSpace: 1,')], ''),
    'dt_addrspace0': ([('!28 = !DIDerivedType(tag: DW_TAG_member,', '!28 = !DIDerivedType(tag: DW_TAG_member, dwarfAddressSpace: 0,')], ''),
    'dt_template_alias': ([('!25 = !DIDerivedType(tag: DW_TAG_pointer_type,', '!25 = !DIDerivedType(tag: DW_TAG_template_alias,')], ''),
    'dt_set_type': ([('!25 = !DIDerivedType(tag: DW_TAG_pointer_type,', '!25 = !DIDerivedType(tag: DW_TAG_set_type,')], ''),
    'dt_set_type_ok': ([('!25 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !26,', '!25 = !DIDerivedType(tag: DW_TAG_set_type, baseType: !5,')], ''),
    'dt_immutable': ([('!25 = !DIDerivedType(tag: DW_TAG_pointer_type,', '!25 = !DIDerivedType(tag: DW_TAG_immutable_type,')], ''),
    'dt_ptrmember_bad': ([('!25 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !26, size: 64)', '!25 = !DIDerivedType(tag: DW_TAG_ptr_to_member_type, baseType: !26, size: 64, extraData: !3)')], ''),
    'dt_static_var': ([('!28 = !DIDerivedType(tag: DW_TAG_member,', '!28 = !DIDerivedType(tag: DW_TAG_variable, flags: DIFlagStaticMember,')], ''),
    'dt_var_nostatic': ([('!28 = !DIDerivedType(tag: DW_TAG_member,', '!28 = !DIDerivedType(tag: DW_TAG_variable,')], ''),
    'ct_bad_tag': ([('!26 = distinct !DICompositeType(tag: DW_TAG_structure_type,', '!26 = distinct !DICompositeType(tag: DW_TAG_member,')], ''),
    'ct_elements_bad': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !5)')], ''),
    'ct_vector_bad': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, flags: DIFlagVector)')], ''),
    'ct_array_nobase': ([('!26 = distinct !DICompositeType(tag: DW_TAG_structure_type,', '!26 = distinct !DICompositeType(tag: DW_TAG_array_type,')], ''),
    'ct_byref': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, flags: DIFlagReservedBit4)')], ''),
    'ct_template_bad': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, templateParams: !100)')], '!100 = !{!5}\n'),
    'ct_template_ok': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, templateParams: !100)')], '!100 = !{!101}\n!101 = !DITemplateTypeParameter(name: "T", type: !5)\n'),
    'ct_datalocation': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, dataLocation: !DIExpression())')], ''),
    'ct_rank': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, rank: 2)')], ''),
    'ct_discriminator': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, discriminator: !28)')], ''),
    'ct_vtable_bad': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, vtableHolder: !3)')], ''),
    'st_types_bad': ([('!16 = !{!5, !5}', '!16 = !{!5, !3}')], ''),
    'st_types_not_tuple': ([('!15 = !DISubroutineType(types: !16)', '!15 = !DISubroutineType(types: !5)')], ''),
    'bt_bad_tag': ([('!30 = !DIBasicType(name: "float"', '!30 = !DIBasicType(tag: DW_TAG_member, name: "float"')], ''),
    'bt_unspec': ([('!30 = !DIBasicType(name: "float"', '!30 = !DIBasicType(tag: DW_TAG_unspecified_type, name: "float"')], ''),
    'subrange_both': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !100)')], '!100 = !{!101}\n!101 = !DISubrange(count: 5, upperBound: 4)\n'),
    'subrange_bad_count': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !100)')], '!100 = !{!101}\n!101 = !DISubrange(count: !5)\n'),
    'subrange_lower_var': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !100)')], '!100 = !{!101}\n!101 = !DISubrange(count: 5, lowerBound: !34)\n'),
    'gsubrange_nolower': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !100)')], '!100 = !{!101}\n!101 = !DIGenericSubrange(count: !DIExpression(), stride: !DIExpression())\n'),
    'gsubrange_ok': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !100)')], '!100 = !{!101}\n!101 = !DIGenericSubrange(count: !DIExpression(), lowerBound: !DIExpression(), stride: !DIExpression())\n'),
    'import_bad_tag': ([('globals: !4,', 'globals: !4, imports: !100,')], '!100 = !{!101}\n!101 = !DIImportedEntity(tag: DW_TAG_member, scope: !2, entity: !5)\n'),
    'import_bad_entity': ([('globals: !4,', 'globals: !4, imports: !100,')], '!100 = !{!101}\n!101 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !2, entity: !0)\n'),
    'import_bad_scope': ([('globals: !4,', 'globals: !4, imports: !100,')], '!100 = !{!101}\n!101 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !0, entity: !5)\n'),
    'macro_bad': ([('globals: !4,', 'globals: !4, macros: !100,')], '!100 = !{!101}\n!101 = !DIMacro(type: DW_MACINFO_define, name: "")\n'),
    'macro_ok': ([('globals: !4,', 'globals: !4, macros: !100,')], '!100 = !{!102}\n!101 = !DIMacro(type: DW_MACINFO_define, name: "X", value: "1")\n!102 = !DIMacroFile(file: !3, nodes: !103)\n!103 = !{!101}\n'),
    'macrofile_bad': ([('globals: !4,', 'globals: !4, macros: !100,')], '!100 = !{!102}\n!102 = !DIMacroFile(file: !5, nodes: !103)\n!103 = !{!5}\n'),
    'module_anon': ([('globals: !4,', 'globals: !4, imports: !100,')], '!100 = !{!101}\n!101 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !2, entity: !102)\n!102 = !DIModule(scope: null, name: "")\n'),
    'namespace_scope_bad': ([('globals: !4,', 'globals: !4, imports: !100,')], '!100 = !{!101}\n!101 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !2, entity: !102)\n!102 = !DINamespace(scope: !0, name: "n")\n'),
    'tvp_bad_tag': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, templateParams: !100)')], '!100 = !{!101}\n!101 = !DITemplateValueParameter(tag: DW_TAG_member, name: "T", type: !5, value: i32 1)\n'),
    'tvp_bad_type': ([('line: 1, size: 64, elements: !27)', 'line: 1, size: 64, elements: !27, templateParams: !100)')], '!100 = !{!101}\n!101 = !DITemplateValueParameter(name: "T", type: !3, value: i32 1)\n'),
    'common_block_bad': ([('globals: !4,', 'globals: !4, imports: !100,')], '!100 = !{!101}\n!101 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !2, entity: !102)\n!102 = !DICommonBlock(scope: !0, declaration: !5, name: "c")\n'),
    'objc_prop_bad': ([('globals: !4,', 'globals: !4, retainedTypes: !100,')], '!100 = !{!101}\n!101 = !DIDerivedType(tag: DW_TAG_member, name: "m", baseType: !5, extraData: !102)\n!102 = !DIObjCProperty(name: "p", type: !3)\n'),
    'sp_bad_containing': ([('unit: !2, retainedNodes: !17)', 'unit: !2, retainedNodes: !17, containingType: !3)')], ''),
    'fn_two_dbg': ([('@h(i32 noundef %0) !dbg !14', '@h(i32 noundef %0) !dbg !14 !dbg !22')], ''),
    'phi_record': ([('%9 = shl nsw i32 %4, 1, !dbg !51', '%p = phi i32 [ 0, %6 ], [ 1, %2 ]\n    #dbg_value(i32 %4, !34, !DIExpression(), !35)\n  %9 = shl nsw i32 %4, 1, !dbg !51'), ('8:                                                ; preds = %6, %2\n', '8:\n    #dbg_value(i32 %4, !34, !DIExpression(), !35)\n')], ''),
    'sp_def_no_unit': ([('spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17)', 'spFlags: DISPFlagDefinition, retainedNodes: !17)')], ''),
    'rec_record_loc_inlined': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(), !100)')], '!100 = !DILocation(line: 1, scope: !22, inlinedAt: !52)\n'),
    'rec_arg_conflict_inlined': ([('#dbg_value(ptr %1, !33, !DIExpression(), !35)', '#dbg_value(ptr %1, !33, !DIExpression(), !35)\n    #dbg_value(i32 %0, !100, !DIExpression(), !101)')], '!100 = !DILocalVariable(name: "q", arg: 1, scope: !22, file: !3, line: 4, type: !5)\n!101 = !DILocation(line: 1, scope: !22, inlinedAt: !52)\n'),
    'fn_loc_two_errors': ([('%2 = add nsw i32 %0, 1, !dbg !20', '%2 = add nsw i32 %0, 1, !dbg !36'), ('ret i32 %9, !dbg !52', 'ret i32 %9, !dbg !21')], ''),
    'two_fns_broken': ([('%2 = add nsw i32 %0, 1, !dbg !20', '%2 = add nsw i32 %0, 1, !dbg !36'), ('%9 = shl nsw i32 %4, 1, !dbg !51', '%9 = shl nsw i32 %4, 1, !dbg !20'), ('ret i32 %9, !dbg !52', 'ret i32 %9, !dbg !21')], ''),
    'lb_decl_sp_scope': ([('!43 = distinct !DILexicalBlock(scope: !22,', '!43 = distinct !DILexicalBlock(scope: !100,')], '!100 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !15, spFlags: 0)\n'),
    'sp_decl_decl': ([('!llvm.dbg.cu', 'declare !dbg !100 void @dd()\n!llvm.dbg.cu')], '!100 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !15, spFlags: 0, declaration: !101)\n!101 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !15, spFlags: 0)\n'),
    'odr_nested': ([('!14 = distinct !DISubprogram(name: "h", scope: !3,', '!14 = distinct !DISubprogram(name: "h", scope: !26,'), ('!26 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S",', '!26 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", identifier: "_ZTS1S",')], ''),
    'dbg_on_global_twice': ([('global i32 3, align 4, !dbg !0', 'global i32 3, align 4, !dbg !0, !dbg !0')], ''),
    'expr_swap_alone': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_swap), !35)')], ''),
    'expr_stack_mid': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_stack_value, DW_OP_deref), !35)')], ''),
    'expr_convert_ok': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_LLVM_convert, 32, DW_ATE_signed, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value), !35)')], ''),
    'expr_reg': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_breg7, 8, DW_OP_deref_size, 4, DW_OP_lit3), !35)')], ''),
    'expr_trunc': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_plus_uconst), !35)')], ''),
    'expr_entry_arg0': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(!DIArgList(i32 %0), !32, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_entry_value, 1), !35)')], ''),
    'expr_extract_bits': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(DW_OP_LLVM_extract_bits_zext, 0, 8, DW_OP_stack_value), !35)')], ''),
    'frag_artificial': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !100, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !35)')], '!100 = !DILocalVariable(name: "q", scope: !22, file: !3, line: 4, type: !5, flags: DIFlagArtificial)\n'),
    'frag_typedef_size': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !100, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !35)')], '!100 = !DILocalVariable(name: "q", scope: !22, file: !3, line: 4, type: !101)\n!101 = !DIDerivedType(tag: DW_TAG_typedef, name: "T", baseType: !5)\n'),
    'declare_record': ([('#dbg_value(ptr %1, !33, !DIExpression(), !35)', '#dbg_declare(ptr %1, !33, !DIExpression(), !19)')], ''),
    'label_loc_badscope': ([('  %3 = load i32', '    #dbg_label(!100, !101)\n  %3 = load i32')], '!100 = !DILabel(scope: !22, name: "L", file: !3, line: 9)\n!101 = !DILocation(line: 1, scope: !3)\n'),
    'rec_loc_scope_file': ([('#dbg_value(i32 %0, !32, !DIExpression(), !35)', '#dbg_value(i32 %0, !32, !DIExpression(), !100)')], '!100 = !DILocation(line: 1, scope: !3)\n'),
    'loop_bad_loc': ([('br label %8, !dbg !50', 'br label %8, !dbg !50, !llvm.loop !100')], '!100 = distinct !{!100, !19, !52}\n'),
    'loop_scope_file': ([('br label %8, !dbg !50', 'br label %8, !dbg !50, !llvm.loop !100')], '!100 = distinct !{!100, !101}\n!101 = !DILocation(line: 1, scope: !3)\n'),
    'sp_unit_bad': ([('spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !17)', 'spFlags: DISPFlagDefinition, unit: !3, retainedNodes: !17)')], ''),
    'valid_base': ([], ''),
}

# What opt-19 prints for each case (an empty text: the case is valid).
EXPECTED: dict[str, str] = {
    'rec_var_kind': (
        'invalid #dbg record variable\n'
        '#dbg_value(i32 %0, !5, !DIExpression(), !28)\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'rec_expr_kind': (
        'invalid #dbg record expression\n'
        '#dbg_value(i32 %0, !25, !5, !28)\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'rec_loc_kind': (
        'invalid #dbg record DILocation\n'
        '#dbg_value(i32 %0, !25, !DIExpression(), !15)\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
    ),
    'rec_mismatch_sp': (
        'mismatched subprogram between #dbg record variable and DILocation\n'
        '#dbg_value(i32 %0, !25, !DIExpression(), !12)\n'
        'label %2\n'
        'ptr @f\n'
        '!25 = !DILocalVariable(name: "x", arg: 1, scope: !15, file: !3, line: 4, type: !5)\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        '!12 = !DILocation(line: 0, scope: !7)\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
    ),
    'rec_label_bad': (
        'invalid #dbg_label intrinsic variable\n'
        '#dbg_label(!5, !28)\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'rec_label_ok': "",
    'rec_label_mismatch': (
        'mismatched subprogram between #dbg_label label and !dbg attachment\n'
        '#dbg_label(!29, !28)\n'
        'label %2\n'
        'ptr @f\n'
        '!29 = !DILabel(scope: !7, name: "L", file: !3, line: 9)\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        '!28 = !DILocation(line: 0, scope: !15)\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
    ),
    'rec_label_scope': "",
    'rec_conflict_arg': (
        'conflicting debug info for argument\n'
        '#dbg_value(i32 %0, !29, !DIExpression(), !28)\n'
        '!25 = !DILocalVariable(name: "x", arg: 1, scope: !15, file: !3, line: 4, type: !5)\n'
        '!29 = !DILocalVariable(name: "q", arg: 1, scope: !15, file: !3, line: 4, type: !5)\n'
    ),
    'rec_fragment_large': (
        'fragment is larger than or outside of variable\n'
        '#dbg_value(i32 %0, !25, !DIExpression(DW_OP_LLVM_fragment, 16, 32), !28)\n'
        '!25 = !DILocalVariable(name: "x", arg: 1, scope: !15, file: !3, line: 4, type: !5)\n'
    ),
    'rec_fragment_entire': (
        'fragment covers entire variable\n'
        '#dbg_value(i32 %0, !25, !DIExpression(DW_OP_LLVM_fragment, 0, 32), !28)\n'
        '!25 = !DILocalVariable(name: "x", arg: 1, scope: !15, file: !3, line: 4, type: !5)\n'
    ),
    'rec_fragment_ok': "",
    'rec_expr_invalid': (
        'invalid expression\n'
        '!DIExpression(4096, 0, 16, 6)\n'
    ),
    'rec_entry_value': (
        'Entry values are only allowed in MIR unless they target a swiftasync Argument\n'
        '#dbg_value(i32 %0, !25, !DIExpression(DW_OP_LLVM_entry_value, 1), !28)\n'
    ),
    'rec_entry_value_undef': "",
    'rec_argslist': "",
    'rec_var_scope_file': (
        'local variable requires a valid scope\n'
        '!27 = !DILocalVariable(name: "y", scope: !3, file: !3, line: 5, type: !5)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'rec_var_type_sub': (
        'invalid type\n'
        '!27 = !DILocalVariable(name: "y", scope: !15, file: !3, line: 5, type: !16)\n'
        '!16 = !DISubroutineType(types: !17)\n'
    ),
    'rec_var_type_file': (
        'invalid type ref\n'
        '!27 = !DILocalVariable(name: "y", scope: !15, file: !3, line: 5, type: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
        'invalid type ref\n'
        '!27 = !DILocalVariable(name: "y", scope: !15, file: !3, line: 5, type: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'rec_assign': "",
    'rec_assign_bad_id': (
        'invalid #dbg_assign DIAssignID\n'
        '#dbg_assign(i32 %7, !27, !DIExpression(), !5, ptr %1, !DIExpression(), !39)\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'assign_id_on_add': (
        '!DIAssignID attached to unexpected instruction kind\n'
        '  %4 = add nsw i32 %3, %0, !dbg !34, !DIAssignID !35\n'
        '!35 = distinct !DIAssignID()\n'
    ),
    'assign_other_fn': (
        'inst not in same function as #dbg_assign\n'
        '  store i32 %7, ptr %1, align 4, !dbg !40, !tbaa !41, !DIAssignID !14\n'
        '#dbg_assign(i32 %0, !11, !DIExpression(), !14, ptr undef, !DIExpression(), !13)\n'
        'DVRAssign not in same function as inst\n'
        '#dbg_assign(i32 %0, !11, !DIExpression(), !14, ptr undef, !DIExpression(), !13)\n'
        '  store i32 %7, ptr %1, align 4, !dbg !40, !tbaa !41, !DIAssignID !14\n'
    ),
    'fn_loc_wrong_sp': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        'ptr @h\n'
        '  %2 = add nsw i32 %0, 1, !dbg !13\n'
        '!13 = !DILocation(line: 5, column: 15, scope: !14)\n'
        '!14 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !23)\n'
        '!14 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !23)\n'
    ),
    'fn_loc_scope_file': (
        "DILocation's scope must be a DILocalScope\n"
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'ptr @f\n'
        '  ret i32 %9, !dbg !45\n'
        '!45 = !DILocation(line: 7, column: 3, scope: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
        'location requires a valid scope\n'
        '!45 = !DILocation(line: 7, column: 3, scope: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'fn_dbg_not_sp': (
        'function !dbg attachment must be a subprogram\n'
        'ptr @h\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'fn_dbg_decl_sp': (
        'function definition may only have a distinct !dbg attachment\n'
        'ptr @h\n'
    ),
    'fn_sp_twice': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!7 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !8, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !16)\n'
        'ptr @h\n'
        '  %2 = add nsw i32 %0, 1, !dbg !26\n'
        '!26 = !DILocation(line: 3, column: 25, scope: !21)\n'
        '!21 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !22, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        '!21 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !22, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'DISubprogram attached to more than one function\n'
        '!7 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !8, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !16)\n'
        'ptr @f\n'
    ),
    'decl_distinct_sp': (
        'function declaration may only have a unique !dbg attachment\n'
        'ptr @dd\n'
    ),
    'decl_unique_sp': "",
    'call_no_dbg': (
        'inlinable function call in a function with debug info must have a !dbg location\n'
        '  %7 = tail call i32 @h(i32 noundef %4)\n'
    ),
    'inst_dbg_not_loc': (
        'invalid !dbg metadata attachment\n'
        '  ret i32 %9, !dbg !15\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
    ),
    'loc_inlined_bad': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'ptr @f\n'
        '  ret i32 %9, !dbg !45\n'
        '!45 = !DILocation(line: 7, column: 3, scope: !15, inlinedAt: !15)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
        'inlined-at should be a location\n'
        '!45 = !DILocation(line: 7, column: 3, scope: !15, inlinedAt: !15)\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
    ),
    'loc_inlined_ok': "",
    'loc_inlined_good': "",
    'loc_decl_scope': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'ptr @f\n'
        '  ret i32 %9, !dbg !45\n'
        '!45 = !DILocation(line: 1, scope: !46)\n'
        '!46 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !8, spFlags: 0)\n'
        '!46 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !8, spFlags: 0)\n'
        'scope points into the type hierarchy\n'
        '!45 = !DILocation(line: 1, scope: !46)\n'
    ),
    'loop_md_locs': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'ptr @f\n'
        '  br label %8, !dbg !43, !llvm.loop !44\n'
        '!14 = !DILocation(line: 3, column: 16, scope: !7)\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
    ),
    'cu_not_listed': "",
    'cu_list_bad': (
        'invalid compile unit\n'
        '!llvm.dbg.cu = !{!2, !3}\n'
        '\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'dbg_foo': (
        'unrecognized named metadata node in the llvm.dbg namespace\n'
        '!llvm.dbg.foo = !{!2}\n'
        '\n'
    ),
    'file_checksum_len': (
        'invalid checksum length\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe1")\n'
    ),
    'file_checksum_hex': (
        'invalid checksum\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fezz")\n'
    ),
    'file_checksum_sha1': (
        'invalid checksum length\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_SHA1, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'cu_bad_file': (
        'invalid file\n'
        '!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)\n'
        '!3 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'cu_empty_filename': (
        'invalid filename\n'
        '!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)\n'
        '!3 = !DIFile(filename: "", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'cu_globals_bad': (
        'invalid global variable ref\n'
        '!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, splitDebugInlining: false, nameTableKind: None)\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 2, type: !5, isLocal: false, isDefinition: true)\n'
    ),
    'cu_enums_bad': (
        'invalid enum type\n'
        '!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !4, globals: !6, splitDebugInlining: false, nameTableKind: None)\n'
        '!4 = !{!5}\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'cu_retained_bad': (
        'invalid retained type\n'
        '!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !4, globals: !19, splitDebugInlining: false, nameTableKind: None)\n'
        '!5 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !6, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !15)\n'
    ),
    'cu_imports_bad': (
        'invalid imported entity ref\n'
        '!2 = distinct !DICompileUnit(language: DW_LANG_C11, file: !3, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !4, imports: !5, splitDebugInlining: false, nameTableKind: None)\n'
        '!6 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'gv_dbg_not_gve': '!dbg attachment of global variable must be a DIGlobalVariableExpression\n',
    'gve_bad_expr': (
        'invalid expression\n'
        '!DIExpression(4096, 0, 8, 6)\n'
        'invalid expression\n'
        '!DIExpression(4096, 0, 8, 6)\n'
        'invalid expression\n'
        '!DIExpression(4096, 0, 8, 6)\n'
    ),
    'gve_fragment_big': (
        'fragment is larger than or outside of variable\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression(DW_OP_LLVM_fragment, 0, 64))\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 2, type: !5, isLocal: false, isDefinition: true)\n'
        'fragment is larger than or outside of variable\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression(DW_OP_LLVM_fragment, 0, 64))\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 2, type: !5, isLocal: false, isDefinition: true)\n'
    ),
    'gv_missing_type': (
        'missing global variable type\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 2, isLocal: false, isDefinition: true)\n'
        'missing global variable type\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 2, isLocal: false, isDefinition: true)\n'
        'missing global variable type\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !2, file: !3, line: 2, isLocal: false, isDefinition: true)\n'
    ),
    'gv_scope_bad': (
        'invalid scope\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !0, file: !2, line: 2, type: !3, isLocal: false, isDefinition: true)\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
        'invalid scope\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !0, file: !2, line: 2, type: !3, isLocal: false, isDefinition: true)\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
        'invalid scope\n'
        '!1 = distinct !DIGlobalVariable(name: "g", scope: !0, file: !2, line: 2, type: !3, isLocal: false, isDefinition: true)\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
    ),
    'sp_line_no_file': (
        'line specified with no file\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        '3\n'
    ),
    'sp_bad_type': (
        'invalid subroutine type\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !5, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !8)\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'sp_retained_bad': (
        'invalid retained nodes, expected DILocalVariable, DILabel or DIImportedEntity\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        '!10 = !{!5}\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'sp_retained_not_tuple': (
        'invalid retained nodes list\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !5)\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'sp_scope_bad': (
        'invalid scope\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !0, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
    ),
    'sp_decl_with_unit': (
        'subprogram declarations must not have a compile unit\n'
        '!46 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !8, spFlags: 0, unit: !2)\n'
    ),
    'sp_allcalls_decl': 'DIFlagAllCallsDescribed must be attached to a definition\n',
    'sp_bad_decl_field': (
        'invalid subprogram declaration\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, declaration: !10, retainedNodes: !23)\n'
        '!10 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !11, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !19)\n'
    ),
    'sp_thrown_bad': (
        'invalid thrown type\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10, thrownTypes: !12)\n'
        '!12 = !{!3}\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'sp_ref_flags': (
        'invalid reference flags\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped | DIFlagLValueReference | DIFlagRValueReference | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !2, retainedNodes: !10)\n'
    ),
    'lb_col_no_line': (
        'cannot have column info without line info\n'
        '!36 = distinct !DILexicalBlock(scope: !15, file: !3, column: 7)\n'
    ),
    'lb_scope_bad': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'ptr @f\n'
        '  %5 = icmp sgt i32 %4, 3, !dbg !35\n'
        '!35 = !DILocation(line: 6, column: 9, scope: !36)\n'
        '!36 = distinct !DILexicalBlock(scope: !3, file: !3, line: 6, column: 7)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
        'invalid local scope\n'
        '!36 = distinct !DILexicalBlock(scope: !3, file: !3, line: 6, column: 7)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'lbf_ok': "",
    'dt_bad_tag': (
        'invalid tag\n'
        '!18 = !DIDerivedType(tag: DW_TAG_structure_type, baseType: !19, size: 64)\n'
    ),
    'dt_bad_base': (
        'invalid base type\n'
        '!18 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !3, size: 64)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'dt_bad_scope': (
        'invalid scope\n'
        '!21 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !0, file: !3, line: 1, baseType: !5, size: 32)\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
    ),
    'dt_file_bad': (
        'invalid file\n'
        '!21 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !19, file: !19, line: 1, baseType: !5, size: 32)\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !3, line: 1, size: 64, elements: !20)\n'
    ),
    'dt_addrspace': (
        'DWARF address space only applies to pointer or reference types\n'
        '!21 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !19, file: !3, line: 1, baseType: !5, size: 32, dwarfAddressSpace: 1)\n'
    ),
    'dt_addrspace0': (
        'DWARF address space only applies to pointer or reference types\n'
        '!21 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !19, file: !3, line: 1, baseType: !5, size: 32, dwarfAddressSpace: 0)\n'
    ),
    'dt_template_alias': "",
    'dt_set_type': (
        'invalid set base type\n'
        '!18 = !DIDerivedType(tag: DW_TAG_set_type, baseType: !19, size: 64)\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !3, line: 1, size: 64, elements: !20)\n'
    ),
    'dt_set_type_ok': "",
    'dt_immutable': "",
    'dt_ptrmember_bad': (
        'invalid pointer to member type\n'
        '!18 = !DIDerivedType(tag: DW_TAG_ptr_to_member_type, baseType: !19, size: 64, extraData: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'dt_static_var': "",
    'dt_var_nostatic': (
        'invalid tag\n'
        '!21 = !DIDerivedType(tag: DW_TAG_variable, name: "a", scope: !19, file: !3, line: 1, baseType: !5, size: 32)\n'
    ),
    'ct_bad_tag': (
        'invalid tag\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_member, name: "S", file: !3, line: 1, size: 64, elements: !20)\n'
    ),
    'ct_elements_bad': (
        'invalid composite elements\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !3, line: 1, size: 64, elements: !5)\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'ct_vector_bad': (
        'invalid vector, expected one element of type subrange\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !3, line: 1, size: 64, flags: DIFlagVector, elements: !20)\n'
    ),
    'ct_array_nobase': (
        'array types must have a base type\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_array_type, name: "S", file: !3, line: 1, size: 64, elements: !20)\n'
    ),
    'ct_byref': (
        'DIBlockByRefStruct on DICompositeType is no longer supported\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !3, line: 1, size: 64, flags: DIFlagReservedBit4, elements: !20)\n'
    ),
    'ct_template_bad': (
        'invalid template parameter\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !3, line: 1, size: 64, elements: !20, templateParams: !24)\n'
        '!24 = !{!5}\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'ct_template_ok': "",
    'ct_datalocation': 'dataLocation can only appear in array type\n',
    'ct_rank': 'rank can only appear in array type\n',
    'ct_discriminator': 'discriminator can only appear on variant part\n',
    'ct_vtable_bad': (
        'invalid vtable holder\n'
        '!19 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !3, line: 1, size: 64, elements: !20, vtableHolder: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'st_types_bad': (
        'invalid subroutine type ref\n'
        '!8 = !DISubroutineType(types: !9)\n'
        '!9 = !{!5, !3}\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'st_types_not_tuple': (
        'invalid composite elements\n'
        '!8 = !DISubroutineType(types: !5)\n'
        '!5 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'bt_bad_tag': (
        'invalid tag\n'
        '!23 = !DIBasicType(tag: DW_TAG_member, name: "float", size: 32, encoding: DW_ATE_float)\n'
    ),
    'bt_unspec': "",
    'subrange_both': (
        'Subrange can have any one of count or upperBound\n'
        '!21 = !DISubrange(count: 5, upperBound: 4)\n'
    ),
    'subrange_bad_count': (
        'Count must be signed constant or DIVariable or DIExpression\n'
        '!21 = !DISubrange(count: !5)\n'
    ),
    'subrange_lower_var': "",
    'gsubrange_nolower': (
        'GenericSubrange must contain lowerBound\n'
        '!21 = !DIGenericSubrange(count: !DIExpression(), stride: !DIExpression())\n'
    ),
    'gsubrange_ok': "",
    'import_bad_tag': (
        'invalid tag\n'
        '!6 = !DIImportedEntity(tag: DW_TAG_member, scope: !2, entity: !7)\n'
    ),
    'import_bad_entity': (
        'invalid imported entity\n'
        '!6 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !2, entity: !0)\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
    ),
    'import_bad_scope': (
        'invalid scope for imported entity\n'
        '!6 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !0, entity: !7)\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
    ),
    'macro_bad': (
        'anonymous macro\n'
        '!6 = !DIMacro(type: DW_MACINFO_define)\n'
    ),
    'macro_ok': "",
    'macrofile_bad': (
        'invalid file\n'
        '!6 = !DIMacroFile(file: !7, nodes: !8)\n'
        '!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
    ),
    'module_anon': (
        'anonymous module\n'
        '!7 = !DIModule(scope: null)\n'
    ),
    'namespace_scope_bad': (
        'invalid scope ref\n'
        '!7 = !DINamespace(name: "n", scope: !0)\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
    ),
    'tvp_bad_tag': (
        'invalid tag\n'
        '!25 = !DITemplateValueParameter(tag: DW_TAG_member, name: "T", type: !5, value: i32 1)\n'
    ),
    'tvp_bad_type': (
        'invalid type ref\n'
        '!25 = !DITemplateValueParameter(name: "T", type: !3, value: i32 1)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'common_block_bad': (
        'invalid scope ref\n'
        '!7 = !DICommonBlock(scope: !0, declaration: !8, name: "c")\n'
        '!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())\n'
    ),
    'objc_prop_bad': (
        'invalid type ref\n'
        '!7 = !DIObjCProperty(name: "p", type: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'sp_bad_containing': (
        'invalid containing type\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, containingType: !3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'fn_two_dbg': (
        'function must have a single !dbg attachment\n'
        'ptr @h\n'
        '!12 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !13, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !21)\n'
    ),
    'phi_record': (
        'PHI Node must not have any attached DbgRecords\n'
        '  %p = phi i32 [ 0, %6 ], [ 1, %2 ]\n'
    ),
    'sp_def_no_unit': (
        'subprogram definitions must have a compile unit\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, retainedNodes: !10)\n'
    ),
    'rec_record_loc_inlined': "",
    'rec_arg_conflict_inlined': "",
    'fn_loc_two_errors': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        'ptr @h\n'
        '  %2 = add nsw i32 %0, 1, !dbg !13\n'
        '!13 = !DILocation(line: 5, column: 15, scope: !14)\n'
        '!14 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !23)\n'
        '!14 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !23)\n'
    ),
    'two_fns_broken': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        'ptr @h\n'
        '  %2 = add nsw i32 %0, 1, !dbg !13\n'
        '!13 = !DILocation(line: 5, column: 15, scope: !14)\n'
        '!14 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !23)\n'
        '!14 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !15, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !23)\n'
    ),
    'lb_decl_sp_scope': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'ptr @f\n'
        '  %5 = icmp sgt i32 %4, 3, !dbg !35\n'
        '!35 = !DILocation(line: 6, column: 9, scope: !36)\n'
        '!36 = distinct !DILexicalBlock(scope: !37, file: !3, line: 6, column: 7)\n'
        '!37 = !DISubprogram(name: "dd", scope: !3, file: !3, line: 3, type: !8, spFlags: 0)\n'
        'scope points into the type hierarchy\n'
        '!36 = distinct !DILexicalBlock(scope: !37, file: !3, line: 6, column: 7)\n'
    ),
    'sp_decl_decl': 'subprogram declaration must not have a declaration field\n',
    'odr_nested': (
        'definition subprograms cannot be nested within DICompositeType when enabling ODR\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !8, file: !3, line: 3, type: !13, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !15)\n'
    ),
    'dbg_on_global_twice': "",
    'expr_swap_alone': (
        'invalid expression\n'
        '!DIExpression(22)\n'
    ),
    'expr_stack_mid': (
        'invalid expression\n'
        '!DIExpression(159, 6)\n'
    ),
    'expr_convert_ok': "",
    'expr_reg': "",
    'expr_trunc': (
        'invalid expression\n'
        '!DIExpression(35)\n'
    ),
    'expr_entry_arg0': (
        'Entry values are only allowed in MIR unless they target a swiftasync Argument\n'
        '#dbg_value(!DIArgList(i32 %0), !25, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_entry_value, 1), !28)\n'
    ),
    'expr_extract_bits': "",
    'frag_artificial': "",
    'frag_typedef_size': (
        'fragment is larger than or outside of variable\n'
        '#dbg_value(i32 %0, !28, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !30)\n'
        '!28 = !DILocalVariable(name: "q", scope: !15, file: !3, line: 4, type: !29)\n'
    ),
    'declare_record': (
        'mismatched subprogram between #dbg record variable and DILocation\n'
        '#dbg_declare(ptr %1, !26, !DIExpression(), !12)\n'
        'label %2\n'
        'ptr @f\n'
        '!26 = !DILocalVariable(name: "s", arg: 2, scope: !15, file: !3, line: 4, type: !18)\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        '!12 = !DILocation(line: 0, scope: !7)\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
    ),
    'label_loc_badscope': (
        'location requires a valid scope\n'
        '!30 = !DILocation(line: 1, scope: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'rec_loc_scope_file': (
        'location requires a valid scope\n'
        '!28 = !DILocation(line: 1, scope: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'loop_bad_loc': (
        '!dbg attachment points at wrong subprogram for function\n'
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'ptr @f\n'
        '  br label %8, !dbg !43, !llvm.loop !44\n'
        '!12 = !DILocation(line: 0, scope: !7)\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !10)\n'
    ),
    'loop_scope_file': (
        "DILocation's scope must be a DILocalScope\n"
        '!15 = distinct !DISubprogram(name: "f", scope: !3, file: !3, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !2, retainedNodes: !24)\n'
        'ptr @f\n'
        '  br label %8, !dbg !43, !llvm.loop !44\n'
        '!45 = !DILocation(line: 1, scope: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
        'location requires a valid scope\n'
        '!45 = !DILocation(line: 1, scope: !3)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'sp_unit_bad': (
        'invalid unit type\n'
        '!7 = distinct !DISubprogram(name: "h", scope: !3, file: !3, line: 3, type: !8, scopeLine: 3, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !3, retainedNodes: !10)\n'
        '!3 = !DIFile(filename: "t2.c", directory: "/tmp/mdv", checksumkind: CSK_MD5, checksum: "58b6fd6b792cbdbfd10a4fb6f234fe12")\n'
    ),
    'valid_base': "",
}


def build(name: str) -> str:
    subs, extra = CASES[name]
    text = BASE
    for old, new in subs:
        assert old in text, (name, old)
        text = text.replace(old, new, 1)
    return text + extra


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_opt(name: str) -> None:
    text = build(name)
    found = findings(text)
    assert diagnostics_text(found) == EXPECTED[name]
    assert all(d.debug_info for d in found), [d.message for d in found if not d.debug_info]
    if OPT is not None:
        assert diagnostics_text(found) == opt_filtered(text, debug_info=True)


def test_valid_cases_are_valid() -> None:
    valid = [n for n, t in EXPECTED.items() if not t]
    assert "valid_base" in valid and len(valid) > 20
    for name in valid:
        assert findings(build(name)) == [], name


def test_parsing_warns_and_keeps_the_module() -> None:
    """Parsing verifies by default: broken debug info only warns and is dropped, as opt-19 does;
    unverified, the module keeps it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = llvmpy_mid.parse_assembly(build("rec_var_kind"), name="x.ll", verify=True)
    assert any("ignoring invalid debug info in x.ll" in str(w.message) for w in caught)
    assert "#dbg_value" not in str(module) and "!dbg" not in str(module)
    verify_module(module)
    kept = llvmpy_mid.parse_assembly(build("rec_var_kind"), name="x.ll", verify=False)
    with pytest.raises(VerifierError):
        verify_module(kept)
    verify_module(kept, debug_info=False)


def test_diagnostic_location() -> None:
    (d,) = findings(build("rec_var_kind"))
    assert d.message == "invalid #dbg record variable"
    assert d.function == "@f" and d.block == "%2"
    assert d.instruction is not None and d.instruction.startswith("%3 = load i32")


# --- built through the API (the parser rejects these) --------------------------------------------------


def base_module() -> llvmpy_mid.Module:
    return parse(BASE)


def node(module: llvmpy_mid.Module, kind: str, name: str | None = None) -> DINode:
    """The first node of ``kind`` (with ``name``) reachable from the module."""
    seen: set[int] = set()
    stack = [n for nmd in module.named_metadata.values() for n in nmd.operands]
    for fn in module.functions:
        stack.extend(n for _, n in fn.metadata_items())
        for bb in fn.blocks:
            for inst in bb.instructions:
                stack.extend(n for _, n in inst.metadata_items())
    while stack:
        md = stack.pop()
        if md is None or id(md) in seen or not md.is_md_node:
            continue
        seen.add(id(md))
        if md.is_di_node and md.kind == kind and (name is None or md.get_string("name") == name):  # type: ignore[attr-defined]
            return md  # type: ignore[return-value]
        stack.extend(m for m in md.operands if m is not None)
    raise LookupError(kind)


def messages(module: llvmpy_mid.Module) -> list[str]:
    return [d.message for d in module_diagnostics(module)]


def test_compile_unit_must_be_distinct() -> None:
    m = base_module()
    cu = node(m, "DICompileUnit")
    uniqued = DINode.get(m.context, "DICompileUnit", cu.field_items())
    m.get_named_metadata("llvm.dbg.cu").set_operand(0, uniqued)
    assert "compile units must be distinct" in messages(m)


def test_subprogram_definition_must_be_distinct() -> None:
    m = base_module()
    h = m.get_function("h")
    sp = node(m, "DISubprogram", "h")
    uniqued = DINode.get(m.context, "DISubprogram", sp.field_items())
    h.set_metadata("dbg", uniqued)
    found = module_diagnostics(m)
    assert found[0].message == "function definition may only have a distinct !dbg attachment"
    assert found[0].detail == "ptr @h\n"
    assert all(d.debug_info for d in found)


def test_subprogram_definitions_must_be_distinct_in_graph() -> None:
    m = base_module()
    sp = node(m, "DISubprogram", "h")
    uniqued = DINode.get(m.context, "DISubprogram", sp.field_items())
    m.get_or_insert_named_metadata("extra").add_operand(MDTuple.get(m.context, [uniqued]))
    assert messages(m) == ["subprogram definitions must be distinct"]


def test_assign_id_must_be_distinct() -> None:
    m = base_module()
    store = [i for i in m.get_function("f").instructions() if i.opcode == "store"][0]
    store.set_metadata("DIAssignID", DINode.get(m.context, "DIAssignID", ()))
    assert messages(m) == ["DIAssignID must be distinct"]


def test_assign_id_on_wrong_instruction() -> None:
    m = base_module()
    add = [i for i in m.get_function("f").instructions() if i.opcode == "add"][0]
    add.set_metadata("DIAssignID", DINode.distinct(m.context, "DIAssignID", ()))
    (d,) = module_diagnostics(m)
    assert d.message == "!DIAssignID attached to unexpected instruction kind"
    assert d.detail.startswith("  %4 = add nsw i32 %3, %0, !dbg !")
    assert d.debug_info


def test_temporary_node_is_a_forward_declaration() -> None:
    m = base_module()
    add = [i for i in m.get_function("f").instructions() if i.opcode == "add"][0]
    add.set_metadata("foo", MDTuple.temporary(m.context, ()))
    found = module_diagnostics(m)
    assert [d.message for d in found] == ["Expected no forward declarations!"]
    assert not found[0].debug_info


def test_local_value_in_global_metadata() -> None:
    m = base_module()
    insts = list(m.get_function("f").instructions())
    add = [i for i in insts if i.opcode == "add"][0]
    add.set_metadata("foo", MDTuple.get(m.context, [ValueAsMetadata.get(insts[0])]))
    found = module_diagnostics(m)
    assert found[0].message == "Invalid operand for global metadata!"
    assert found[0].detail.endswith("i32 %3\n")
    assert not found[0].debug_info


def test_record_value_from_another_function() -> None:
    m = base_module()
    h, f = m.get_function("h"), m.get_function("f")
    rec = next(r for i in f.instructions() for r in i.dbg_records)
    assert isinstance(rec, DbgVariableRecord)
    rec.location = ValueAsMetadata.get(next(iter(h.instructions())))
    assert isinstance(rec.location, LocalAsMetadata)
    assert "function-local metadata used in wrong function" in messages(m)


def test_record_with_a_wrong_marker() -> None:
    m = base_module()
    f = m.get_function("f")
    insts = list(f.instructions())
    rec = insts[0].dbg_records[0]
    rec.instruction = insts[1]
    found = module_diagnostics(m)
    assert found[0].message == "DbgRecord had invalid DebugMarker"
    assert found[0].detail.startswith("  %3 = load i32") and "#dbg_value(i32 %0, !" in found[0].detail


def test_compile_unit_not_listed_when_odr_uniquing_is_off(monkeypatch: pytest.MonkeyPatch) -> None:
    text = build("valid_base").replace("!llvm.dbg.cu = !{!2}", "!llvm.dbg.cu = !{}")
    assert findings(text) == []  # opt-19 (ODR uniquing on) skips the check
    monkeypatch.setattr(debug_info_rules, "ODR_UNIQUING_DEBUG_TYPES", False)
    found = findings(text)
    assert [d.message for d in found] == ["DICompileUnit not listed in llvm.dbg.cu"]
    assert found[0].detail.startswith("!2 = distinct !DICompileUnit(")


def test_deep_graphs_do_not_overflow() -> None:
    """A long inlined-at chain and a long type chain are walked without recursion."""
    m = base_module()
    ctx = m.context
    sp = node(m, "DISubprogram", "f")
    loc = DILocation.get(ctx, 1, 1, sp)
    for i in range(5000):
        loc = DILocation.get(ctx, i + 2, 1, sp, loc)
    add = [i for i in m.get_function("f").instructions() if i.opcode == "add"][0]
    add.debug_loc = loc
    ty = node(m, "DIBasicType", "int")
    for i in range(5000):
        ty = DINode.get(ctx, "DIDerivedType", {"tag": debug_info_rules.DIEnum.of("DW_TAG_typedef"), "baseType": ty})
    add.set_metadata("foo", MDTuple.get(ctx, [ty]))
    assert messages(m) == []


# --- no false positives ---------------------------------------------------------------------------------


def test_csmith_debug_info_has_no_findings() -> None:
    files = sorted(CSMITH.glob("*.O2g.ll"))
    if not files:
        pytest.skip("no csmith -g corpus in %s" % CSMITH)
    for path in files:
        found = module_diagnostics(llvmpy_mid.parse_file(path, verify=False))
        assert found == [], (path, diagnostics_text(found)[:2000])


def test_conformance_debug_info_has_no_findings() -> None:
    if not CONFORMANCE.is_dir():
        pytest.skip("no conformance corpus")
    files = [p for p in sorted(CONFORMANCE.rglob("*.ll")) if "DICompileUnit" in p.read_text(errors="replace")]
    assert files
    for path in files:
        try:
            module = llvmpy_mid.parse_file(path, verify=False)
        except llvmpy_mid.ParseError:
            continue
        if OPT is not None and opt_filtered(path, debug_info=True):
            continue
        found = [d for d in module_diagnostics(module) if d.debug_info]
        assert found == [], (path, diagnostics_text(found)[:2000])
