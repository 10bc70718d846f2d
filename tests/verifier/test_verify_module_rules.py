"""The verifier's rules on global values and the module (``global_rules``, ``module_rules``,
``module_flag_rules``): visitGlobalValue, global variables (``common``, the intrinsic
arrays ``llvm.global_ctors``/``llvm.used``, scalable and target types), aliases, ifuncs,
COFF comdats, module flags, ``llvm.ident`` and ``llvm.commandline``.

Modules the parser reads are checked against the exact text opt-19 prints (recorded
here, and compared with a live ``opt-19 -passes=verify`` run when it is installed);
each has valid neighbours that must give no finding. What the parser refuses (a local
declaration, a huge alignment, a use from another module, a mistyped initialiser ...)
is built through the API, and the message and detail lines are LLVM 19's.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid import module_diagnostics
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import ConstantInt, ConstantPointerNull
from llvmpy_mid.errors import IRError
from llvmpy_mid.ir.global_value import DLLStorageClass, GlobalIFunc, Linkage, Visibility
from llvmpy_mid.ir.metadata import MDTuple, ValueAsMetadata
from llvmpy_mid.ir.module import Module
from llvmpy_mid.ir.verifier import diagnostics_text
from llvmpy_mid.ir.verifier.global_rules import is_scalable_type
from llvmpy_mid.ir.verifier.module_rules import is_coff_triple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "asm"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import CONFORMANCE_TESTS  # noqa: E402

from vhelpers import HAVE_OPT, only, texts  # noqa: E402
from vhelpers import opt_text as _opt_text  # noqa: E402


def parse(text: str, name: str = "<string>", module: Module | None = None) -> Module:
    ctx = module.context if module is not None else None
    return llvmpy_mid.parse_assembly(text + "\n", ctx, name, verify=False)


def ours(text: str) -> str:
    return texts(parse(text))


def opt19(text: str) -> str:
    """opt-19's verifier output for ``text`` (without its last "input module is broken" line)."""
    return _opt_text(text + "\n")


INVALID: dict[str, tuple[str, str]] = {
    "appending_non_array": (
        "@a = appending global i32 0",
        "Only global arrays can have appending linkage!\nptr @a\n",
    ),
    "appending_non_array_ctors": (
        "@llvm.global_ctors = appending global i32 0",
        "Only global arrays can have appending linkage!\nptr @llvm.global_ctors\n",
    ),
    "declaration_in_comdat": (
        "$c = comdat any\n@a = external global i32, comdat($c)",
        "Declaration may not be in a Comdat!\nptr @a\n",
    ),
    "available_externally_in_comdat": (
        "$c = comdat any\n@a = available_externally global i32 0, comdat($c)",
        "Declaration may not be in a Comdat!\nptr @a\n",
    ),
    "alias_of_comdat_object_available_externally": (
        "$c = comdat any\n@g = global i32 0, comdat($c)\n@a = available_externally alias i32, ptr @g",
        (
            "available_externally alias must point to available_externally global value\n"
            "ptr @a\n"
            "Declaration may not be in a Comdat!\n"
            "ptr @a\n"
        ),
    ),
    "dllexport_hidden": (
        "@a = hidden dllexport global i32 0",
        "dllexport GlobalValue must have default or protected visibility\nptr @a\n",
    ),
    "dllexport_hidden_alias": (
        "@g = global i32 0\n@a = hidden dllexport alias i32, ptr @g",
        "dllexport GlobalValue must have default or protected visibility\nptr @a\n",
    ),
    "dllimport_hidden": (
        "@a = hidden dllimport global i32 0",
        "dllimport GlobalValue must have default visibility\nptr @a\n",
    ),
    "dllimport_definition": (
        "@a = dllimport global i32 0",
        "Global is marked as dllimport, but not external\nptr @a\n",
    ),
    "associated_two_operands": (
        "@a = global i32 0, !associated !0\n!0 = !{ptr @a, ptr @a}",
        "associated metadata must have one operand\nptr @a\n!0 = !{ptr @a, ptr @a}\n",
    ),
    "associated_null": (
        "@a = global i32 0, !associated !0\n!0 = !{null}",
        "associated metadata must have a global value\nptr @a\n!0 = !{null}\n",
    ),
    "associated_string": (
        "@a = global i32 0, !associated !0\n!0 = !{!\"x\"}",
        "associated metadata must be ValueAsMetadata\nptr @a\n!0 = !{!\"x\"}\n",
    ),
    "associated_not_pointer": (
        "@a = global i32 0, !associated !0\n!0 = !{i32 1}",
        "associated value must be pointer typed\nptr @a\n!0 = !{i32 1}\n",
    ),
    "associated_self": (
        "@a = global i32 0, !associated !0\n!0 = !{ptr @a}",
        "global values should not associate to themselves\nptr @a\n!0 = !{ptr @a}\n",
    ),
    "associated_self_through_alias": (
        "@a = global i32 0, !associated !0\n@b = alias i32, ptr @a\n!0 = !{ptr @b}",
        "global values should not associate to themselves\nptr @a\n!0 = !{ptr @b}\n",
    ),
    "associated_function_self": (
        "define void @f() !associated !0 {\n  ret void\n}\n!0 = !{ptr @f}",
        "global values should not associate to themselves\nptr @f\n!0 = !{ptr @f}\n",
    ),
    "absolute_then_appending": (
        (
            "@a = appending global i32 0, !absolute_symbol !0\n"
            "!0 = !{i64 0}\n"
            "@b = common global i32 1, !absolute_symbol !0"
        ),
        (
            "Unfinished range!\n"
            "!0 = !{i64 0}\n"
            "Only global arrays can have appending linkage!\n"
            "ptr @a\n"
            "'common' global must have a zero initializer!\n"
            "ptr @b\n"
        ),
    ),
    "absolute_unfinished": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0}",
        "Unfinished range!\n!0 = !{i64 0}\n",
    ),
    "absolute_no_range": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{}",
        "It should have at least one range!\n!0 = !{}\n",
    ),
    "absolute_wrong_type": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i32 0, i32 256}",
        "Range types must match instruction type!\nptr @a\n",
    ),
    "absolute_pair_types_differ": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0, i32 5}",
        "Range types must match instruction type!\nptr @a\n",
    ),
    "absolute_pointer_width_32": (
        "target datalayout = \"p:32:32\"\n@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0, i64 4}",
        "Range types must match instruction type!\nptr @a\n",
    ),
    "absolute_same_limits": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 5, i64 5}",
        "The upper and lower limits cannot be the same value\nptr @a\n",
    ),
    "absolute_empty": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0, i64 0}",
        "Range must not be empty!\n!0 = !{i64 0, i64 0}\n",
    ),
    "absolute_overlap": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0, i64 4, i64 2, i64 8}",
        "Intervals are overlapping\n!0 = !{i64 0, i64 4, i64 2, i64 8}\n",
    ),
    "absolute_contiguous": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0, i64 4, i64 4, i64 8}",
        "Intervals are contiguous\n!0 = !{i64 0, i64 4, i64 4, i64 8}\n",
    ),
    "absolute_order": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 10, i64 4, i64 5, i64 8}",
        "Intervals are not in order\n!0 = !{i64 10, i64 4, i64 5, i64 8}\n",
    ),
    "absolute_order_signed": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0, i64 4, i64 8, i64 12, i64 -4, i64 1}",
        "Intervals are not in order\n!0 = !{i64 0, i64 4, i64 8, i64 12, i64 -4, i64 1}\n",
    ),
    "absolute_wrap_overlaps_first": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0, i64 4, i64 8, i64 12, i64 16, i64 2}",
        "Intervals are overlapping\n!0 = !{i64 0, i64 4, i64 8, i64 12, i64 16, i64 2}\n",
    ),
    "absolute_not_integer": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{!\"a\", i64 4}",
        "The lower limit must be an integer!\n",
    ),
    "absolute_upper_not_integer": (
        "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 4, !\"a\"}",
        "The upper limit must be an integer!\n",
    ),
    "common_nonzero": (
        "@a = common global i32 1",
        "'common' global must have a zero initializer!\nptr @a\n",
    ),
    "common_constant": (
        "@a = common constant i32 0",
        "'common' global may not be marked constant!\nptr @a\n",
    ),
    "common_comdat": (
        "$c = comdat any\n@a = common global i32 0, comdat($c)",
        "'common' global may not be in a Comdat!\nptr @a\n",
    ),
    "ctors_not_appending": (
        "@llvm.global_ctors = global [1 x { i32, ptr, ptr }] zeroinitializer",
        "invalid linkage for intrinsic global variable\nptr @llvm.global_ctors\n",
    ),
    "ctors_two_fields": (
        "@llvm.global_ctors = appending global [1 x { i32, ptr }] zeroinitializer",
        (
            "the third field of the element type is mandatory, specify ptr null to migrate from the obsoleted 2-field form\n"
        ),
    ),
    "ctors_third_not_pointer": (
        "@llvm.global_ctors = appending global [1 x { i32, ptr, i32 }] zeroinitializer",
        "wrong type for intrinsic global variable\nptr @llvm.global_ctors\n",
    ),
    "ctors_not_struct": (
        "@llvm.global_ctors = appending global [1 x i32] zeroinitializer",
        "wrong type for intrinsic global variable\nptr @llvm.global_ctors\n",
    ),
    "ctors_used": (
        (
            "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] zeroinitializer\n"
            "define ptr @f() {\n"
            "  ret ptr @llvm.global_ctors\n"
            "}"
        ),
        "invalid uses of intrinsic global variable\nptr @llvm.global_ctors\n",
    ),
    "ctors_wrong_first": (
        "@llvm.global_ctors = appending global [1 x { i16, ptr, ptr }] zeroinitializer",
        "wrong type for intrinsic global variable\nptr @llvm.global_ctors\n",
    ),
    "ctors_conformance": (
        (
            "@llvm.global_ctors = appending global [1 x { i32, ptr, i8 } ] [\n"
            "  { i32, ptr, i8 } { i32 65535, ptr null, i8 0 }\n"
            "]\n"
            "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr, i8 } ] [\n"
            "  { i32, ptr, ptr, i8 } { i32 65535, ptr null, ptr null, i8 0}\n"
            "]"
        ),
        (
            "wrong type for intrinsic global variable\n"
            "ptr @llvm.global_ctors\n"
            "wrong type for intrinsic global variable\n"
            "ptr @llvm.global_dtors\n"
        ),
    ),
    "used_not_appending": (
        "@llvm.used = global [1 x ptr] [ptr @f]\ndeclare void @f()",
        "invalid linkage for intrinsic global variable\nptr @llvm.used\n",
    ),
    "used_not_pointers": (
        "@llvm.used = appending global [1 x i32] [i32 0]",
        "wrong type for intrinsic global variable\nptr @llvm.used\n",
    ),
    "used_zeroinitializer": (
        "@llvm.used = appending global [1 x ptr] zeroinitializer",
        "wrong initalizer for intrinsic global variable\n[1 x ptr] zeroinitializer\n",
    ),
    "used_null_member": (
        "@llvm.used = appending global [1 x ptr] [ptr null]",
        "wrong initalizer for intrinsic global variable\n[1 x ptr] zeroinitializer\n",
    ),
    "used_poison": (
        "@llvm.used = appending global [1 x ptr] poison",
        "wrong initalizer for intrinsic global variable\n[1 x ptr] poison\n",
    ),
    "used_unnamed_member": (
        "@llvm.compiler.used = appending global [1 x ptr] [ptr @0]\n@0 = global i32 0",
        "members of llvm.compiler.used must be named\nptr @0\n",
    ),
    "used_gep_member": (
        (
            "@llvm.used = appending global [2 x ptr] [ptr getelementptr (i8, ptr @g, i64 1), ptr @g]\n"
            "@g = global i32 0"
        ),
        "invalid llvm.used member\nptr getelementptr (i8, ptr @g, i64 1)\n",
    ),
    "used_ifunc_member": (
        (
            "@llvm.used = appending global [1 x ptr] [ptr @i]\n"
            "@i = ifunc void (), ptr @r\n"
            "define ptr @r() {\n"
            "  ret ptr null\n"
            "}"
        ),
        "invalid llvm.used member\nptr @i\n",
    ),
    "used_not_array": (
        "@llvm.used = appending global i32 0",
        "Only global arrays can have appending linkage!\nptr @llvm.used\n",
    ),
    "scalable_vector": (
        "@a = global <vscale x 4 x i32> zeroinitializer",
        "Globals cannot contain scalable types\nptr @a\n",
    ),
    "scalable_declaration": (
        "@a = external global <vscale x 1 x i8>",
        "Globals cannot contain scalable types\nptr @a\n",
    ),
    "scalable_svcount": (
        "@a = global target(\"aarch64.svcount\") zeroinitializer",
        "Globals cannot contain scalable types\nptr @a\n",
    ),
    "scalable_svcount_array": (
        "@a = global [2 x target(\"aarch64.svcount\")] zeroinitializer",
        "Globals cannot contain scalable types\nptr @a\n",
    ),
    "scalable_array_of_struct": (
        "@a = global [2 x {<vscale x 1 x i8>}] zeroinitializer",
        "Globals cannot contain scalable types\nptr @a\n",
    ),
    "scalable_nested_struct": (
        "@a = global {{<vscale x 1 x i8>}} zeroinitializer",
        "Globals cannot contain scalable types\nptr @a\n",
    ),
    "target_type_not_global": (
        "@a = external global target(\"foo\")",
        "Global @a has illegal target extension type\n target(\"foo\")",
    ),
    "target_type_dx": (
        "@a = external global target(\"dx.RawBuffer\", i8, 0, 0)",
        "Global @a has illegal target extension type\n target(\"dx.RawBuffer\", i8, 0, 0)",
    ),
    "target_type_named_barrier_then_scalable": (
        (
            "@a = external global target(\"amdgcn.named.barrier\", 0), align 4\n"
            "@b = external global <vscale x 1 x i8>"
        ),
        (
            "Global @a has illegal target extension type\n"
            " target(\"amdgcn.named.barrier\", 0)Globals cannot contain scalable types\n"
            "ptr @b\n"
        ),
    ),
    "aliasee_null_constant": (
        "@a = alias i32, ptr null",
        "Aliasee should be either GlobalValue or ConstantExpr\nptr @a\n",
    ),
    "alias_cycle_of_three": (
        "@a = alias i32, ptr @b\n@b = alias i32, ptr @c\n@c = alias i32, ptr @a",
        (
            "Aliases cannot form a cycle\n"
            "ptr @a\n"
            "Aliases cannot form a cycle\n"
            "ptr @b\n"
            "Aliases cannot form a cycle\n"
            "ptr @c\n"
        ),
    ),
    "alias_of_gep_of_declaration": (
        "@g = external global i32\n@a = alias i32, ptr getelementptr (i8, ptr @g, i64 4)",
        "Alias must point to a definition\nptr @a\n",
    ),
    "alias_declaration_twice": (
        (
            "@g = external global i32\n"
            "@a = alias i32, ptr getelementptr (i8, ptr @g, i64 ptrtoint (ptr @g to i64))"
        ),
        "Alias must point to a definition\nptr @a\nAlias must point to a definition\nptr @a\n",
    ),
    "alias_available_externally_gep": (
        (
            "@g = global i32 0\n"
            "@b = alias i32, ptr @g\n"
            "@a = available_externally alias i32, ptr getelementptr (i8, ptr @b, i64 4)"
        ),
        "available_externally alias must point to available_externally global value\nptr @a\n",
    ),
    "alias_cycle_through_gep": (
        "@a = alias i32, ptr @b\n@b = alias i32, ptr getelementptr (i8, ptr @a, i64 4)",
        "Aliases cannot form a cycle\nptr @a\nAliases cannot form a cycle\nptr @b\n",
    ),
    "alias_chain_reached_twice": (
        (
            "@g = global i32 0\n"
            "@b = alias i32, ptr @g\n"
            "@c = alias i32, ptr @b\n"
            "@a = alias i32, ptr getelementptr (i8, ptr @c, i64 ptrtoint (ptr @c to i64))"
        ),
        "Aliases cannot form a cycle\nptr @a\n",
    ),
    "ifunc_resolver_declaration": (
        "@i = ifunc void (), ptr @r\ndeclare ptr @r()",
        "IFunc resolver must be a definition\nptr @i\n",
    ),
    "ifunc_resolver_not_pointer": (
        "@i = ifunc void (), ptr @r\ndefine i32 @r() {\n  ret i32 0\n}",
        "IFunc resolver must return a pointer\nptr @i\n",
    ),
    "ifunc_no_function": (
        "@i = ifunc void (), ptr null",
        "IFunc must have a Function resolver\nptr @i\n",
    ),
    "coff_private_comdat_function": (
        (
            "target triple = \"x86_64-pc-windows-msvc\"\n"
            "$f = comdat any\n"
            "define private void @f() comdat {\n"
            "  ret void\n"
            "}"
        ),
        "comdat global value has private linkage\nptr @f\n",
    ),
    "coff_cygwin": (
        "target triple = \"i686-pc-cygwin\"\n$g = comdat any\n@g = private global i32 0, comdat",
        "comdat global value has private linkage\nptr @g\n",
    ),
    "coff_uefi": (
        "target triple = \"x86_64-uefi\"\n$g = comdat any\n@g = private global i32 0, comdat",
        "comdat global value has private linkage\nptr @g\n",
    ),
    "flag_two_operands": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"a\"}",
        "incorrect number of operands in module flag\n!0 = !{i32 1, !\"a\"}\n",
    ),
    "flag_behavior_string": (
        "!llvm.module.flags = !{!0}\n!0 = !{!\"x\", !\"a\", i32 1}",
        "invalid behavior operand in module flag (expected constant integer)\n!\"x\"\n",
    ),
    "flag_behavior_9": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 9, !\"a\", i32 1}",
        "invalid behavior operand in module flag (unexpected constant)\ni32 9\n",
    ),
    "flag_id_not_string": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 1, i32 2, i32 1}",
        "invalid ID operand in module flag (expected metadata string)\ni32 2\n",
    ),
    "flag_duplicate": (
        "!llvm.module.flags = !{!0, !1}\n!0 = !{i32 1, !\"a\", i32 1}\n!1 = !{i32 2, !\"a\", i32 2}",
        "module flag identifiers must be unique (or of 'require' type)\n!\"a\"\n",
    ),
    "flag_max_string": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 7, !\"a\", !\"x\"}",
        "invalid value for 'max' module flag (expected constant integer)\n!\"x\"\n",
    ),
    "flag_min_negative": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 8, !\"a\", i32 -1}",
        "invalid value for 'min' module flag (expected constant non-negative integer)\ni32 -1\n",
    ),
    "flag_require_not_node": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 3, !\"a\", i32 1}",
        "invalid value for 'require' module flag (expected metadata pair)\ni32 1\n",
    ),
    "flag_require_first_not_string": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 3, !\"a\", !{i32 1, i32 2}}",
        "invalid value for 'require' module flag (first value operand should be a string)\ni32 1\n",
    ),
    "flag_require_missing": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 3, !\"a\", !{!\"b\", i32 2}}",
        "invalid requirement on flag, flag is not present in module\n!\"b\"\n",
    ),
    "flag_require_other_value": (
        (
            "!llvm.module.flags = !{!0, !1}\n"
            "!0 = !{i32 3, !\"a\", !{!\"b\", i32 2}}\n"
            "!1 = !{i32 1, !\"b\", i32 3}"
        ),
        "invalid requirement on flag, flag does not have the required value\n!\"b\"\n",
    ),
    "flag_append_not_node": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 5, !\"a\", i32 2}",
        "invalid value for 'append'-type module flag (expected a metadata node)\ni32 2\n",
    ),
    "flag_wchar_size": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"wchar_size\", !\"x\"}",
        "wchar_size metadata requires constant integer argument\n",
    ),
    "flag_linker_options": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"Linker Options\", !{}}",
        "'Linker Options' named metadata no longer supported\n",
    ),
    "flag_semantic_interposition": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"SemanticInterposition\", !\"x\"}",
        "SemanticInterposition metadata requires constant integer argument\n",
    ),
    "flag_pauthabi_half": (
        "!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"aarch64-elf-pauthabi-platform\", i32 2}",
        (
            "either both or no 'aarch64-elf-pauthabi-platform' and 'aarch64-elf-pauthabi-version' module flags must be present\n"
        ),
    ),
    "flag_cg_profile": (
        (
            "!llvm.module.flags = !{!0}\n"
            "!0 = !{i32 5, !\"CG Profile\", !{!1, !2}}\n"
            "!1 = !{ptr @f, ptr @g, i64 3}\n"
            "!2 = !{ptr @f, i64 3}\n"
            "declare void @f()\n"
            "@g = global i32 0"
        ),
        "expected a Function or null\nptr @g\nexpected a MDNode triple\n!3 = !{ptr @f, i64 3}\n",
    ),
    "flag_cg_profile_count": (
        (
            "!llvm.module.flags = !{!0}\n"
            "!0 = !{i32 5, !\"CG Profile\", !{!1}}\n"
            "!1 = !{ptr @f, ptr @f, !\"x\"}\n"
            "declare void @f()"
        ),
        "expected an integer constant\n!\"x\"\n",
    ),
    "flag_several_errors": (
        (
            "!llvm.module.flags = !{!0, !1, !2, !3}\n"
            "!0 = !{i32 1, !\"a\"}\n"
            "!1 = !{i32 9, !\"b\", i32 1}\n"
            "!2 = !{i32 3, !\"c\", !{!\"zz\", i32 1}}\n"
            "!3 = !{i32 7, !\"d\", !\"no\"}"
        ),
        (
            "incorrect number of operands in module flag\n"
            "!0 = !{i32 1, !\"a\"}\n"
            "invalid behavior operand in module flag (unexpected constant)\n"
            "i32 9\n"
            "invalid value for 'max' module flag (expected constant integer)\n"
            "!\"no\"\n"
            "invalid requirement on flag, flag is not present in module\n"
            "!\"zz\"\n"
        ),
    ),
    "ident_two_strings": (
        "!llvm.ident = !{!0, !1}\n!0 = !{!\"a\", !\"b\"}\n!1 = !{i32 1}",
        "incorrect number of operands in llvm.ident metadata\n!0 = !{!\"a\", !\"b\"}\n",
    ),
    "ident_not_string": (
        "!llvm.ident = !{!1}\n!1 = !{i32 1}",
        "invalid value for llvm.ident metadata entry operand(the operand should be a string)\ni32 1\n",
    ),
    "ident_null": (
        "!llvm.ident = !{!1}\n!1 = !{null}",
        "invalid value for llvm.ident metadata entry operand(the operand should be a string)\n",
    ),
    "commandline_not_string": (
        "!llvm.commandline = !{!1}\n!1 = !{i32 1}",
        "invalid value for llvm.commandline metadata entry operand(the operand should be a string)\ni32 1\n",
    ),
    "commandline_empty": (
        "!llvm.commandline = !{!1}\n!1 = !{}",
        "incorrect number of operands in llvm.commandline metadata\n!0 = !{}\n",
    ),
    "order_globals_aliases_flags": (
        (
            "!llvm.module.flags = !{!0}\n"
            "!0 = !{i32 1, !\"a\"}\n"
            "@a = alias i32, ptr null\n"
            "@g = common global i32 1\n"
            "@i = ifunc void (), ptr null\n"
            "define void @f() !associated !1 {\n"
            "  ret void\n"
            "}\n"
            "!1 = !{ptr @f}"
        ),
        (
            "global values should not associate to themselves\n"
            "ptr @f\n"
            "!1 = !{ptr @f}\n"
            "'common' global must have a zero initializer!\n"
            "ptr @g\n"
            "Aliasee should be either GlobalValue or ConstantExpr\n"
            "ptr @a\n"
            "IFunc must have a Function resolver\n"
            "ptr @i\n"
            "incorrect number of operands in module flag\n"
            "!0 = !{i32 1, !\"a\"}\n"
        ),
    ),
}
"""Module text -> what opt-19 prints for it (every finding, in order)."""

VALID: dict[str, str] = {
    "external_hidden": "@a = external hidden global i32",
    "extern_weak_hidden": "@a = extern_weak hidden global i32",
    "max_alignment": "@a = global i32 0, align 4294967296",
    "dllimport_available_externally": "@a = available_externally dllimport global i32 0",
    "dllimport_extern_weak": "@a = extern_weak dllimport global i32",
    "thread_local_use": "@a = thread_local global i32 0\ndefine ptr @f() {\n  ret ptr @a\n}",
    "ctors_declaration": "@llvm.global_ctors = external global [1 x { i32, ptr, ptr }]",
    "ctors_ok": (
        "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @c, ptr null }]\n"
        "define void @c() {\n"
        "  ret void\n"
        "}"
    ),
    "used_ok": (
        "@llvm.used = appending global [3 x ptr] [ptr @a, ptr @f, ptr @g], section \"llvm.metadata\"\n"
        "@g = global i32 0\n"
        "@a = alias i32, ptr @g\n"
        "define void @f() {\n"
        "  ret void\n"
        "}"
    ),
    "used_addrspacecast_member": (
        "@llvm.used = appending global [1 x ptr addrspace(1)] [ptr addrspace(1) addrspacecast (ptr @g to ptr addrspace(1))]\n"
        "@g = global i32 0"
    ),
    "used_alias_member": "@llvm.used = appending global [1 x ptr] [ptr @a]\n@a = alias i32, ptr @g\n@g = global i32 0",
    "struct_of_svcount": "@a = global {target(\"aarch64.svcount\")} zeroinitializer",
    "struct_of_array_of_scalable": "%s = type { [2 x <vscale x 1 x double>] }\n@a = global %s zeroinitializer",
    "spirv_global": "@a = external global target(\"spirv.Image\")",
    "spirv_empty_suffix": "@a = external global target(\"spirv.\")",
    "array_of_illegal_target_type": "@a = global [2 x target(\"foo\")] zeroinitializer",
    "alias_addrspacecast": "@g = global i32 0\n@a = alias i32, ptr addrspace(1) addrspacecast (ptr @g to ptr addrspace(1))",
    "alias_gep": "@g = global i32 0\n@a = alias i32, ptr getelementptr (i8, ptr @g, i64 4)",
    "alias_inttoptr": "@a = alias i32, ptr inttoptr (i64 1 to ptr)",
    "alias_gep_of_interposable_alias": (
        "@g = global i32 0\n"
        "@b = linkonce alias i32, ptr @g\n"
        "@a = alias i32, ptr getelementptr (i8, ptr @b, i64 4)"
    ),
    "alias_private_hidden": "@a = private alias i32, ptr @g\n@g = global i32 0\n@b = hidden alias i32, ptr @g",
    "ifunc_resolver_addrspace": "@i = ifunc void (), ptr addrspace(1) @r\ndefine ptr @r() addrspace(1) {\n  ret ptr null\n}",
    "ifunc_through_alias": "@i = ifunc void (), ptr @a\n@a = alias ptr (), ptr @r\ndefine ptr @r() {\n  ret ptr null\n}",
    "ifunc_hidden_dllexport": "@i = hidden dllexport ifunc void (), ptr @r\ndefine ptr @r() {\n  ret ptr null\n}",
    "associated_null_pointer": "@a = global i32 0, !associated !0\n!0 = !{ptr null}",
    "associated_other_gep": "@a = global i32 0, !associated !0\n@b = global i32 0\n!0 = !{ptr getelementptr (i8, ptr @b, i64 1)}",
    "absolute_full_set": "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 -1, i64 -1}",
    "absolute_ranges": "@a = external global i32, !absolute_symbol !0\n!0 = !{i64 0, i64 256, i64 512, i64 1024}",
    "absolute_32bit": "target datalayout = \"p:32:32\"\n@a = external global i32, !absolute_symbol !0\n!0 = !{i32 0, i32 256}",
    "elf_private_comdat": "target triple = \"x86_64-unknown-linux\"\n$g = comdat any\n@g = private global i32 0, comdat",
    "win32_elf_private_comdat": "target triple = \"x86_64-pc-win32-elf\"\n$g = comdat any\n@g = private global i32 0, comdat",
    "flags_clang": (
        "!llvm.module.flags = !{!0, !1, !2, !3, !4}\n"
        "!llvm.ident = !{!5}\n"
        "!0 = !{i32 1, !\"wchar_size\", i32 4}\n"
        "!1 = !{i32 8, !\"PIC Level\", i32 2}\n"
        "!2 = !{i32 7, !\"PIE Level\", i32 2}\n"
        "!3 = !{i32 7, !\"uwtable\", i32 2}\n"
        "!4 = !{i32 7, !\"frame-pointer\", i32 2}\n"
        "!5 = !{!\"clang version 19.1.7\"}"
    ),
    "flags_require_satisfied": "!llvm.module.flags = !{!0, !1}\n!0 = !{i32 3, !\"a\", !{!\"b\", i32 2}}\n!1 = !{i32 1, !\"b\", i32 2}",
    "flags_require_twice": (
        "!llvm.module.flags = !{!0, !1, !2}\n"
        "!0 = !{i32 3, !\"a\", !{!\"b\", i32 2}}\n"
        "!1 = !{i32 3, !\"a\", !{!\"b\", i32 2}}\n"
        "!2 = !{i32 1, !\"b\", i32 2}"
    ),
    "flags_pauthabi_both": (
        "!llvm.module.flags = !{!0, !1}\n"
        "!0 = !{i32 1, !\"aarch64-elf-pauthabi-platform\", i32 2}\n"
        "!1 = !{i32 1, !\"aarch64-elf-pauthabi-version\", i32 1}"
    ),
    "flags_linker_options_present": "!llvm.module.flags = !{!0}\n!llvm.linker.options = !{}\n!0 = !{i32 1, !\"Linker Options\", !{}}",
    "flags_cg_profile_null": (
        "!llvm.module.flags = !{!0}\n"
        "!0 = !{i32 5, !\"CG Profile\", !{!1}}\n"
        "!1 = !{ptr @f, null, i32 3}\n"
        "declare void @f()"
    ),
    "flags_append_unique": "!llvm.module.flags = !{!0}\n!0 = !{i32 6, !\"a\", !{!\"x\"}}",
    "linker_options_dependent_libraries": "!llvm.linker.options = !{!0}\n!0 = !{i32 1}\n!llvm.dependent-libraries = !{!1}\n!1 = !{i32 1, i32 2}",
    "commandline_ok": "!llvm.commandline = !{!0}\n!0 = !{!\"clang -O2\"}",
}
"""Neighbours of the invalid modules that opt-19 accepts."""


# --- modules the parser reads ---------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_module_gives_opt19_text(name: str) -> None:
    text, expected = INVALID[name]
    assert ours(text) == expected
    if HAVE_OPT:
        assert opt19(text) == expected


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_module_gives_no_finding(name: str) -> None:
    text = VALID[name]
    assert module_diagnostics(parse(text)) == []
    if HAVE_OPT:
        assert opt19(text) == ""


@pytest.mark.parametrize("name", ["alias.ll", "global-ctors.ll", "scalable-global-vars.ll"])
def test_conformance_file_agrees_with_opt19(name: str) -> None:
    path = CONFORMANCE_TESTS / "Verifier" / name
    if not path.is_file():
        pytest.skip("conformance corpus not present")
    m = llvmpy_mid.parse_file(path, verify=False)
    found = diagnostics_text(module_diagnostics(m))
    assert found
    if not HAVE_OPT:
        pytest.skip("opt-19 not installed")
    assert found == opt19(path.read_text())


def test_function_findings_are_located_in_the_function() -> None:
    found = module_diagnostics(parse(INVALID["order_globals_aliases_flags"][0]))
    assert [d.function for d in found] == ["@f", None, None, None, None]
    assert found[0].message == "global values should not associate to themselves"
    assert all(d.block is None and d.instruction is None for d in found)


# --- broken through the API -----------------------------------------------------------------------
def test_local_declarations_have_no_valid_linkage() -> None:
    m = parse("@g = global i32 0\ndeclare void @f()")
    g = m.get_global("g")
    f = m.get_function("f")
    assert g is not None and f is not None
    g.initializer = None
    g.linkage = Linkage.INTERNAL
    f.linkage = Linkage.PRIVATE
    found = module_diagnostics(m)
    message = "Global is external, but doesn't have external or weak linkage!"
    assert [(d.message, d.detail, d.function) for d in found] == [
        (message, "ptr @f\n", "@f"),
        (message, "ptr @g\n", None),
    ]


def test_huge_alignment() -> None:
    m = parse("@g = global i32 0\ndefine void @f() {\n  ret void\n}")
    g = m.get_global("g")
    assert g is not None
    g.alignment = 1 << 32
    assert module_diagnostics(m) == []
    g.alignment = 1 << 33
    d = only(m)
    assert d.text == "huge alignment values are unsupported\nptr @g\n"


def test_appending_function() -> None:
    m = parse("declare void @f()")
    f = m.get_function("f")
    assert f is not None
    f.linkage = Linkage.APPENDING
    # A declaration is checked for its linkage first.
    assert only(m).message == "Global is external, but doesn't have external or weak linkage!"
    m = parse("define void @f() {\n  ret void\n}")
    f = m.get_function("f")
    assert f is not None
    f.linkage = Linkage.APPENDING
    assert only(m).text == "Only global variables can have appending linkage!\nptr @f\n"


def test_dllimport_must_not_be_dso_local() -> None:
    m = parse("@g = external global i32")
    g = m.get_global("g")
    assert g is not None
    g.dll_storage_class = DLLStorageClass.DLLIMPORT
    assert module_diagnostics(m) == []
    g.is_dso_local = True
    assert only(m).text == "GlobalValue with DLLImport Storage is dso_local!\nptr @g\n"


def test_implicitly_dso_local_must_be_dso_local() -> None:
    m = parse("@g = hidden global i32 0\n@h = internal global i32 0\n@w = extern_weak hidden global i32")
    for name in ("g", "h", "w"):
        gv = m.get_global(name)
        assert gv is not None
        gv.is_dso_local = False
    found = module_diagnostics(m)
    message = "GlobalValue with local linkage or non-default visibility must be dso_local!"
    assert [d.text for d in found] == [message + "\nptr @g\n", message + "\nptr @h\n"]


def test_use_by_parentless_instruction() -> None:
    m = parse("@g = global i32 0\ndefine i32 @f() {\n  %x = load i32, ptr @g\n  ret i32 0\n}")
    f = m.get_function("f")
    assert f is not None
    load = next(iter(f.entry_block.instructions))
    load.remove_from_parent()
    d = only(m)
    assert d.message == "Global is referenced by parentless instruction!"
    assert d.detail == "ptr @g\n; ModuleID = '<string>'\n  %x = load i32, ptr @g, align 4\n"


def test_use_from_another_module() -> None:
    a = parse("@g = global i32 0", "a.ll")
    b = parse("@o = external global i32\ndefine i32 @h() {\n  %x = load i32, ptr @o\n  ret i32 %x\n}", "b.ll", a)
    h = b.get_function("h")
    g = a.get_global("g")
    assert h is not None and g is not None
    next(iter(h.entry_block.instructions)).set_operand(0, g)
    d = only(a)
    assert d.message == "Global is referenced in a different module!"
    assert d.detail == (
        "ptr @g\n; ModuleID = 'a.ll'\n  %x = load i32, ptr @g, align 4\nptr @h\n; ModuleID = 'b.ll'\n"
    )


def test_use_by_function_of_another_module() -> None:
    a = parse("define void @p() {\n  ret void\n}", "a.ll")
    b = parse("define void @h() {\n  ret void\n}", "b.ll", a)
    h = b.get_function("h")
    p = a.get_function("p")
    assert h is not None and p is not None
    h.personality = p
    d = only(a)
    assert d.text == (
        "Global is used by function in a different module\n"
        "ptr @p\n; ModuleID = 'a.ll'\nptr @h\n; ModuleID = 'b.ll'\n"
    )


def test_use_through_constants_is_followed_once() -> None:
    a = parse("@g = global i32 0\n@q = global ptr getelementptr (i8, ptr @g, i64 4)", "a.ll")
    b = parse("@o = external global ptr\ndefine ptr @h() {\n  ret ptr @o\n}", "b.ll", a)
    h = b.get_function("h")
    q = a.get_global("q")
    assert h is not None and q is not None
    ret = next(iter(h.entry_block.instructions))
    ret.set_operand(0, q.initializer)  # type: ignore[arg-type]
    found = [d for d in module_diagnostics(a) if d.message == "Global is referenced in a different module!"]
    # Reached from @g through the expression; not again from @q's own walk.
    assert len(found) == 1 and found[0].detail.startswith("ptr @g\n")


def test_initializer_of_another_type() -> None:
    m = parse("@g = global i32 0")
    g = m.get_global("g")
    assert g is not None
    g.set_operand(0, ConstantInt.get(m.context.i64, 1))
    assert only(m).text == "Global variable initializer type does not match global variable type!\nptr @g\n"


def test_initializer_with_invalid_bitcast() -> None:
    m = parse("@g = global i64 0")
    g = m.get_global("g")
    assert g is not None
    ctx = m.context
    g.set_operand(0, ConstantExpr(ctx.i64, "bitcast", [ConstantInt.get(ctx.i32, 7)]))
    assert only(m).text == "Invalid bitcast\ni64 bitcast (i32 7 to i64)\n"


def test_initializer_naming_a_global_of_another_module() -> None:
    a = parse("@g = global ptr null", "a.ll")
    b = parse("@o = global i32 0", "b.ll", a)
    g = a.get_global("g")
    o = b.get_global("o")
    assert g is not None and o is not None
    g.initializer = o
    assert only(a).text == (
        "Referencing global in another module!\nptr @o\n; ModuleID = 'a.ll'\nptr @o\n; ModuleID = 'b.ll'\n"
    )


def test_ptrauth_key_must_be_i32() -> None:
    m = parse("@g = global ptr ptrauth (ptr @g, i32 0)")
    g = m.get_global("g")
    assert g is not None and g.initializer is not None
    assert module_diagnostics(m) == []
    g.initializer.set_operand(1, ConstantInt.get(m.context.i64, 0))
    assert only(m).text == "signed ptrauth constant key must be i32 constant integer\n"


def test_associated_function_local_value() -> None:
    m = parse("@g = global i32 0\ndefine void @f(ptr %p) {\n  ret void\n}")
    g = m.get_global("g")
    f = m.get_function("f")
    assert g is not None and f is not None
    g.set_metadata("associated", MDTuple.get(m.context, [ValueAsMetadata.get(f.args[0])]))
    assert only(m).text == "associated metadata must point to a GlobalObject\nptr @g\nptr %p\n"


def test_alias_linkage_and_type() -> None:
    m = parse("@g = global i32 0\n@a = alias i32, ptr @g\n@b = alias i32, ptr @g")
    a = m.get_alias("a")
    b = m.get_alias("b")
    assert a is not None and b is not None
    a.linkage = Linkage.COMMON
    b.set_operand(0, ConstantPointerNull.get(m.context.pointer_type(1)))
    assert [d.text for d in module_diagnostics(m)] == [
        "Alias should have private, internal, linkonce, weak, linkonce_odr, weak_odr, external, or "
        "available_externally linkage!\nptr @a\n",
        "Alias and aliasee types should match!\nptr @b\n",
    ]


def test_alias_expression_reaching_itself_ends() -> None:
    # opt-19 recurses until it crashes on this module; we call it a cycle.
    assert ours("@a = alias i32, ptr getelementptr (i8, ptr @a, i64 4)") == "Aliases cannot form a cycle\nptr @a\n"


def test_alias_walk_of_a_shared_expression_is_bounded() -> None:
    m = parse("@g = external global i8")
    g = m.get_global("g")
    assert g is not None
    ctx = m.context
    expr = ConstantExpr.get_gep(ctx.i8, g, [ConstantInt.get(ctx.i64, 1)])
    for _ in range(40):
        # Each level names the previous one twice: 2**40 paths without a bound.
        offset = ConstantExpr.get_cast("ptrtoint", expr, ctx.i64)
        expr = ConstantExpr.get_gep(ctx.i8, expr, [offset])
    from llvmpy_mid.ir.global_value import GlobalAlias

    GlobalAlias(ctx.i8, "a", expr, module=m)
    start = time.perf_counter()
    found = module_diagnostics(m)
    assert time.perf_counter() - start < 60
    assert found and all(d.message == "Alias must point to a definition" for d in found)


def test_ifunc_linkage_and_resolver_type() -> None:
    m = parse("define ptr @r() {\n  ret ptr null\n}\n@i = ifunc void (), ptr @r")
    r = m.get_function("r")
    i = m.get_ifunc("i")
    assert r is not None and i is not None
    assert module_diagnostics(m) == []
    i.linkage = Linkage.AVAILABLE_EXTERNALLY
    assert only(m).text == (
        "IFunc should have private, internal, linkonce, weak, linkonce_odr, weak_odr, or external linkage!\n"
        "ptr @i\n"
    )
    i.linkage = Linkage.EXTERNAL
    GlobalIFunc(m.context.function_type(m.context.void, []), "j", r, address_space=1, module=m)
    assert only(m).text == "IFunc resolver has incorrect type\nptr addrspace(1) @j\n"


def test_every_combination_of_global_properties_is_judged_without_error() -> None:
    text = (
        "$c = comdat any\n@g = global [1 x i32] zeroinitializer, comdat($c)\n@d = external global i32\n"
        "define void @f() comdat($c) {\n  ret void\n}\ndeclare void @e()\n@a = alias i32, ptr @g"
    )
    count = 0
    for linkage in Linkage:
        for storage in DLLStorageClass:
            for visibility in Visibility:
                for dso_local in (False, True):
                    m = parse(text)
                    for gv in m.global_values():
                        try:
                            gv.visibility = visibility
                            gv.linkage = linkage
                        except IRError:
                            continue
                        gv.dll_storage_class = storage
                        gv.is_dso_local = dso_local
                    found = module_diagnostics(m)
                    assert all(isinstance(d.message, str) and d.message for d in found)
                    count += bool(found)
    assert count


# --- helpers ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "triple, coff",
    [
        ("x86_64-pc-windows-msvc", True),
        ("x86_64-pc-win32", True),
        ("i686-w64-mingw32", True),
        ("i686-pc-cygwin", True),
        ("aarch64-pc-windows-msvc", True),
        ("thumbv7-windows", True),
        ("x86_64-uefi", True),
        ("x86_64-pc-windows-coff", True),
        ("x86_64-pc-win32-elf", False),
        ("x86_64-pc-windows-macho", False),
        ("x86_64-unknown-linux-gnu", False),
        ("arm64-apple-macosx", False),
        ("riscv64-pc-windows", False),
        ("", False),
    ],
)
def test_coff_triples(triple: str, coff: bool) -> None:
    assert is_coff_triple(triple) is coff


def test_scalable_types() -> None:
    m = parse(
        "%s = type { [2 x <vscale x 1 x double>] }\n%t = type { %u }\n%u = type { <vscale x 2 x i8> }\n"
        "@s = external global %s\n@t = external global [3 x %t]"
    )
    s = m.get_global("s")
    t = m.get_global("t")
    assert s is not None and t is not None
    assert not is_scalable_type(s.value_type)
    assert is_scalable_type(t.value_type)
