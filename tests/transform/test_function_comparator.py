"""The function comparator of ``mergefunc`` (``llvmpy_mid.transform.utils.function_comparator``).

Oracle: for each pair of functions ``@f``/``@g`` below, ``opt-19 -passes=mergefunc``
is run in the test; when it merges them (one becomes a thunk calling the other)
our ``compare`` must be 0, when it does not, non-zero. The bodies get two padding
instructions so that no pair is "too small" for a thunk. The exceptions are the
documented LLVM 19 miscompiles (``SAFER``): opt-19 merges them and we must not;
each says why, and ``test_self_reference_miscompile_lli`` shows one with lli-19.

Properties (hypothesis) over random functions generated as text: reflexivity,
antisymmetry, transitivity, renaming values / permuting block layout keeps equal
functions equal, every single mutation makes them differ, and ``explain`` is None
exactly when ``compare`` is 0.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llvmpy_mid.asm import parse_assembly
from llvmpy_mid.ir import Context, Module
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.builder import IRBuilder
from llvmpy_mid.ir.constant_expr import ConstantExpr
from llvmpy_mid.ir.constants import ConstantInt
from llvmpy_mid.ir.function import Function
from llvmpy_mid.transform.utils.function_comparator import (
    Difference,
    FunctionComparator,
    GlobalNumberState,
    explain,
)

OPT = shutil.which("opt-19")
LLI = shutil.which("lli-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 is not installed")

PAD = "  %pad1 = add i32 0, 0\n  %pad2 = add i32 %pad1, 0\n"


def cmp(f: Function, g: Function, gn: GlobalNumberState | None = None) -> int:
    return FunctionComparator(f, g, gn if gn is not None else GlobalNumberState()).compare()


def pair_module(decls: str, sig_f: str, body_f: str, sig_g: str, body_g: str, tail: str = "") -> str:
    return "%s\ndefine %s {\n%s%s\n}\n\ndefine %s {\n%s%s\n}\n%s\n" % (decls, sig_f, PAD, body_f, sig_g, PAD, body_g, tail)


def _opt(text: str, *args: str) -> str:
    return subprocess.run(
        [OPT or "opt-19", *args, "-S"], input=text, capture_output=True, text=True, check=True
    ).stdout


def opt_merges(text: str) -> bool:
    """Whether opt-19's mergefunc merged @f and @g: its output differs from the
    module printed without the pass (the modules hold only the two functions
    and declarations, so any change is the merge)."""
    return _opt(text, "-passes=mergefunc") != _opt(text, "-passes=verify")


def functions(text: str) -> tuple[Function, Function]:
    m = parse_assembly(text)
    f = m.get_function("f")
    g = m.get_function("g")
    assert f is not None and g is not None
    return f, g


# (name, decls, f signature, f body, g signature, g body, tail)
P = "i32 @f(i32 %a, i32 %b)"
Q = "i32 @g(i32 %a, i32 %b)"
CASES: list[tuple[str, str, str, str, str, str, str]] = [
    ("identical", "", P, "  %x = add i32 %a, %b\n  ret i32 %x", Q, "  %x = add i32 %a, %b\n  ret i32 %x", ""),
    ("renamed values", "", P, "  %x = add i32 %a, %b\n  ret i32 %x", "i32 @g(i32 %u, i32 %v)", "  %y = add i32 %u, %v\n  ret i32 %y", ""),
    ("operand order", "", P, "  %x = sub i32 %a, %b\n  ret i32 %x", Q, "  %x = sub i32 %b, %a\n  ret i32 %x", ""),
    ("opcode", "", P, "  %x = add i32 %a, %b\n  ret i32 %x", Q, "  %x = sub i32 %a, %b\n  ret i32 %x", ""),
    ("constant", "", P, "  %x = add i32 %a, 1\n  ret i32 %x", Q, "  %x = add i32 %a, 2\n  ret i32 %x", ""),
    ("nsw", "", P, "  %x = add nsw i32 %a, 1\n  ret i32 %x", Q, "  %x = add i32 %a, 1\n  ret i32 %x", ""),
    ("exact", "", P, "  %x = udiv exact i32 %a, 4\n  ret i32 %x", Q, "  %x = udiv i32 %a, 4\n  ret i32 %x", ""),
    ("disjoint", "", P, "  %x = or disjoint i32 %a, 1\n  ret i32 %x", Q, "  %x = or i32 %a, 1\n  ret i32 %x", ""),
    ("nneg", "", "i64 @f(i32 %a)", "  %x = zext nneg i32 %a to i64\n  ret i64 %x", "i64 @g(i32 %a)", "  %x = zext i32 %a to i64\n  ret i64 %x", ""),
    ("trunc nuw", "", "i8 @f(i32 %a)", "  %x = trunc nuw i32 %a to i8\n  ret i8 %x", "i8 @g(i32 %a)", "  %x = trunc i32 %a to i8\n  ret i8 %x", ""),
    ("fast-math", "", "float @f(float %a)", "  %x = fadd fast float %a, 1.0\n  ret float %x", "float @g(float %a)", "  %x = fadd float %a, 1.0\n  ret float %x", ""),
    ("float constant", "", "float @f(float %a)", "  %x = fadd float %a, 1.0\n  ret float %x", "float @g(float %a)", "  %x = fadd float %a, 2.0\n  ret float %x", ""),
    ("negative zero", "", "float @f(float %a)", "  %x = fadd float %a, 0.0\n  ret float %x", "float @g(float %a)", "  %x = fadd float %a, -0.0\n  ret float %x", ""),
    ("icmp predicate", "", "i1 @f(i32 %a)", "  %x = icmp slt i32 %a, 0\n  ret i1 %x", "i1 @g(i32 %a)", "  %x = icmp ult i32 %a, 0\n  ret i1 %x", ""),
    ("fcmp fast", "", "i1 @f(float %a)", "  %x = fcmp nnan olt float %a, 1.0\n  ret i1 %x", "i1 @g(float %a)", "  %x = fcmp olt float %a, 1.0\n  ret i1 %x", ""),
    ("ptr and i64", "", "i64 @f(i64 %a)", "  %x = add i64 %a, 0\n  ret i64 %a", "ptr @g(ptr %a)", "  %x = add i64 0, 0\n  ret ptr %a", ""),
    ("i8 and i32", "", "i32 @f(i32 %a)", "  ret i32 %a", "i8 @g(i8 %a)", "  ret i8 %a", ""),
    ("alloca align", "", "ptr @f()", "  %x = alloca i32, align 4\n  ret ptr %x", "ptr @g()", "  %x = alloca i32, align 8\n  ret ptr %x", ""),
    ("alloca type", "", "ptr @f()", "  %x = alloca i32\n  ret ptr %x", "ptr @g()", "  %x = alloca float, align 4\n  ret ptr %x", ""),
    ("struct names ignored", "%A = type { i32, i64 }\n%B = type { i32, i64 }", "ptr @f()", "  %x = alloca %A\n  ret ptr %x", "ptr @g()", "  %x = alloca %B\n  ret ptr %x", ""),
    ("packed struct", "", "ptr @f()", "  %x = alloca { i32, i8 }, align 8\n  ret ptr %x", "ptr @g()", "  %x = alloca <{ i32, i8 }>, align 8\n  ret ptr %x", ""),
    ("load volatile", "", "i32 @f(ptr %p)", "  %x = load volatile i32, ptr %p\n  ret i32 %x", "i32 @g(ptr %p)", "  %x = load i32, ptr %p\n  ret i32 %x", ""),
    ("load align", "", "i32 @f(ptr %p)", "  %x = load i32, ptr %p, align 4\n  ret i32 %x", "i32 @g(ptr %p)", "  %x = load i32, ptr %p, align 2\n  ret i32 %x", ""),
    ("load ordering", "", "i32 @f(ptr %p)", "  %x = load atomic i32, ptr %p acquire, align 4\n  ret i32 %x", "i32 @g(ptr %p)", "  %x = load atomic i32, ptr %p seq_cst, align 4\n  ret i32 %x", ""),
    ("store syncscope", "", "void @f(ptr %p)", "  store atomic i32 0, ptr %p syncscope(\"singlethread\") seq_cst, align 4\n  ret void", "void @g(ptr %p)", "  store atomic i32 0, ptr %p seq_cst, align 4\n  ret void", ""),
    ("load !range", "", "i32 @f(ptr %p)", "  %x = load i32, ptr %p, !range !0\n  ret i32 %x", "i32 @g(ptr %p)", "  %x = load i32, ptr %p, !range !1\n  ret i32 %x", "!0 = !{i32 0, i32 10}\n!1 = !{i32 0, i32 11}"),
    ("load !noundef", "", "i32 @f(ptr %p)", "  %x = load i32, ptr %p, !noundef !0\n  ret i32 %x", "i32 @g(ptr %p)", "  %x = load i32, ptr %p\n  ret i32 %x", "!0 = !{}"),
    ("store metadata ignored", "", "void @f(ptr %p)", "  store i32 0, ptr %p, !nontemporal !0\n  ret void", "void @g(ptr %p)", "  store i32 0, ptr %p\n  ret void", "!0 = !{i32 1}"),
    ("call !range", "declare i32 @h()", "i32 @f()", "  %x = call i32 @h(), !range !0\n  ret i32 %x", "i32 @g()", "  %x = call i32 @h()\n  ret i32 %x", "!0 = !{i32 0, i32 10}"),
    ("call tail kind", "declare i32 @h()", "i32 @f()", "  %x = tail call i32 @h()\n  ret i32 %x", "i32 @g()", "  %x = notail call i32 @h()\n  ret i32 %x", ""),
    ("call attributes", "declare void @h(ptr)", "void @f(ptr %p)", "  call void @h(ptr nonnull %p)\n  ret void", "void @g(ptr %p)", "  call void @h(ptr %p)\n  ret void", ""),
    ("call cc", "declare void @h()", "void @f()", "  call fastcc void @h()\n  ret void", "void @g()", "  call void @h()\n  ret void", ""),
    ("operand bundles", "declare void @h()", "void @f(i32 %a)", "  call void @h() [ \"deopt\"(i32 %a) ]\n  ret void", "void @g(i32 %a)", "  call void @h() [ \"foo\"(i32 %a) ]\n  ret void", ""),
    ("self call", "", P, "  %x = call i32 @f(i32 %a, i32 %b)\n  ret i32 %x", Q, "  %x = call i32 @g(i32 %a, i32 %b)\n  ret i32 %x", ""),
    ("address of the first function", "declare void @h(ptr)", "void @f()", "  call void @h(ptr @f)\n  ret void", "void @g()", "  call void @h(ptr @f)\n  ret void", ""),
    ("mutual calls", "", P, "  %x = call i32 @g(i32 %a, i32 %b)\n  ret i32 %x", Q, "  %x = call i32 @f(i32 %a, i32 %b)\n  ret i32 %x", ""),
    ("different globals", "@x = global i32 0\n@y = global i32 0", "ptr @f()", "  ret ptr @x", "ptr @g()", "  ret ptr @y", ""),
    ("same global", "@x = global i32 0", "ptr @f()", "  ret ptr @x", "ptr @g()", "  ret ptr @x", ""),
    ("constant expression", "@x = global i32 0", "i64 @f()", "  ret i64 add (i64 ptrtoint (ptr @x to i64), i64 1)", "i64 @g()", "  ret i64 add (i64 ptrtoint (ptr @x to i64), i64 2)", ""),
    ("constexpr nsw", "@x = global i32 0", "i64 @f()", "  ret i64 add nsw (i64 ptrtoint (ptr @x to i64), i64 1)", "i64 @g()", "  ret i64 add (i64 ptrtoint (ptr @x to i64), i64 1)", ""),
    ("constexpr gep inbounds", "@x = global [4 x i32] zeroinitializer", "ptr @f()", "  ret ptr getelementptr inbounds ([4 x i32], ptr @x, i64 0, i64 1)", "ptr @g()", "  ret ptr getelementptr ([4 x i32], ptr @x, i64 0, i64 1)", ""),
    ("aggregate", "", "{ i32, i32 } @f()", "  ret { i32, i32 } { i32 1, i32 2 }", "{ i32, i32 } @g()", "  ret { i32, i32 } { i32 1, i32 3 }", ""),
    ("data vector", "", "<4 x i32> @f()", "  ret <4 x i32> <i32 1, i32 2, i32 3, i32 4>", "<4 x i32> @g()", "  ret <4 x i32> <i32 1, i32 2, i32 3, i32 5>", ""),
    ("undef vs poison", "", "i32 @f()", "  ret i32 undef", "i32 @g()", "  ret i32 poison", ""),
    ("null vs value", "", "i32 @f()", "  ret i32 0", "i32 @g()", "  ret i32 1", ""),
    ("gep same offset", "", "ptr @f(ptr %p)", "  %x = getelementptr i32, ptr %p, i64 1\n  ret ptr %x", "ptr @g(ptr %p)", "  %x = getelementptr i8, ptr %p, i64 4\n  ret ptr %x", ""),
    ("gep struct offset", "", "ptr @f(ptr %p)", "  %x = getelementptr { i32, i64 }, ptr %p, i64 0, i32 1\n  ret ptr %x", "ptr @g(ptr %p)", "  %x = getelementptr i8, ptr %p, i64 8\n  ret ptr %x", ""),
    ("gep other offset", "", "ptr @f(ptr %p)", "  %x = getelementptr i32, ptr %p, i64 1\n  ret ptr %x", "ptr @g(ptr %p)", "  %x = getelementptr i8, ptr %p, i64 5\n  ret ptr %x", ""),
    ("gep variable index type", "", "ptr @f(ptr %p, i64 %i)", "  %x = getelementptr i32, ptr %p, i64 %i\n  ret ptr %x", "ptr @g(ptr %p, i64 %i)", "  %x = getelementptr i16, ptr %p, i64 %i\n  ret ptr %x", ""),
    ("shufflevector", "", "<2 x i32> @f(<2 x i32> %v)", "  %x = shufflevector <2 x i32> %v, <2 x i32> poison, <2 x i32> <i32 0, i32 1>\n  ret <2 x i32> %x", "<2 x i32> @g(<2 x i32> %v)", "  %x = shufflevector <2 x i32> %v, <2 x i32> poison, <2 x i32> <i32 1, i32 0>\n  ret <2 x i32> %x", ""),
    ("extractvalue", "", "i32 @f({ i32, i32 } %s)", "  %x = extractvalue { i32, i32 } %s, 0\n  ret i32 %x", "i32 @g({ i32, i32 } %s)", "  %x = extractvalue { i32, i32 } %s, 1\n  ret i32 %x", ""),
    ("fence", "", "void @f()", "  fence acquire\n  ret void", "void @g()", "  fence release\n  ret void", ""),
    ("cmpxchg weak", "", "void @f(ptr %p)", "  %x = cmpxchg weak ptr %p, i32 0, i32 1 seq_cst seq_cst\n  ret void", "void @g(ptr %p)", "  %x = cmpxchg ptr %p, i32 0, i32 1 seq_cst seq_cst\n  ret void", ""),
    ("atomicrmw op", "", "void @f(ptr %p)", "  %x = atomicrmw add ptr %p, i32 1 seq_cst\n  ret void", "void @g(ptr %p)", "  %x = atomicrmw sub ptr %p, i32 1 seq_cst\n  ret void", ""),
    ("attributes", "", "void @f(ptr %p) nounwind", "  ret void", "void @g(ptr %p)", "  ret void", ""),
    ("param attributes", "", "void @f(ptr noundef %p)", "  ret void", "void @g(ptr %p)", "  ret void", ""),
    ("range attribute", "", "i32 @f(i32 range(i32 0, 10) %a)", "  ret i32 %a", "i32 @g(i32 range(i32 0, 11) %a)", "  ret i32 %a", ""),
    ("byval congruent", "", "void @f(ptr byval(i64) %p)", "  ret void", "void @g(ptr byval(ptr) %p)", "  ret void", ""),
    ("string attribute", "", "void @f() \"k\"=\"1\"", "  ret void", "void @g() \"k\"=\"2\"", "  ret void", ""),
    ("gc", "", "void @f() gc \"a\"", "  ret void", "void @g() gc \"b\"", "  ret void", ""),
    ("section", "", "void @f() section \"a\"", "  ret void", "void @g() section \"b\"", "  ret void", ""),
    ("calling convention", "", "fastcc void @f()", "  ret void", "void @g()", "  ret void", ""),
    ("function alignment", "", "void @f() align 16", "  ret void", "void @g()", "  ret void", ""),
    ("block layout", "", "i32 @f(i1 %c)", "  br i1 %c, label %a, label %b\na:\n  ret i32 1\nb:\n  ret i32 2", "i32 @g(i1 %c)", "  br i1 %c, label %a, label %b\nb:\n  ret i32 2\na:\n  ret i32 1", ""),
    ("unreachable block", "", "i32 @f(i1 %c)", "  ret i32 1\ndead:\n  ret i32 5", "i32 @g(i1 %c)", "  ret i32 1", ""),
    ("swapped successors", "", "i32 @f(i1 %c)", "  br i1 %c, label %a, label %b\na:\n  ret i32 1\nb:\n  ret i32 2", "i32 @g(i1 %c)", "  br i1 %c, label %b, label %a\na:\n  ret i32 1\nb:\n  ret i32 2", ""),
    ("phi blocks", "", "i32 @f(i1 %c)", "  br i1 %c, label %a, label %b\na:\n  br label %b\nb:\n  %r = phi i32 [ 1, %0 ], [ 2, %a ]\n  ret i32 %r", "i32 @g(i1 %c)", "  br i1 %c, label %a, label %b\na:\n  br label %b\nb:\n  %r = phi i32 [ 2, %a ], [ 1, %0 ]\n  ret i32 %r", ""),
    ("switch case order", "", "i32 @f(i32 %a)", "  switch i32 %a, label %d [ i32 1, label %x\n i32 2, label %y ]\nd:\n  ret i32 0\nx:\n  ret i32 1\ny:\n  ret i32 2", "i32 @g(i32 %a)", "  switch i32 %a, label %d [ i32 2, label %y\n i32 1, label %x ]\nd:\n  ret i32 0\nx:\n  ret i32 1\ny:\n  ret i32 2", ""),
    ("blockaddress", "", "ptr @f(i1 %c)", "  br i1 %c, label %a, label %b\na:\n  ret ptr blockaddress(@f, %a)\nb:\n  ret ptr blockaddress(@f, %b)", "ptr @g(i1 %c)", "  br i1 %c, label %a, label %b\na:\n  ret ptr blockaddress(@g, %a)\nb:\n  ret ptr blockaddress(@g, %b)", ""),
    ("blockaddress swapped", "", "ptr @f(i1 %c)", "  br i1 %c, label %a, label %b\na:\n  ret ptr blockaddress(@f, %b)\nb:\n  ret ptr blockaddress(@f, %a)", "ptr @g(i1 %c)", "  br i1 %c, label %a, label %b\na:\n  ret ptr blockaddress(@g, %a)\nb:\n  ret ptr blockaddress(@g, %b)", ""),
    ("dso_local_equivalent", "declare void @x()\ndeclare void @y()", "ptr @f()", "  ret ptr dso_local_equivalent @x", "ptr @g()", "  ret ptr dso_local_equivalent @y", ""),
    ("metadata string argument", "declare void @llvm.foo(metadata)", "void @f()", "  call void @llvm.foo(metadata !\"a\")\n  ret void", "void @g()", "  call void @llvm.foo(metadata !\"b\")\n  ret void", ""),
    ("inline asm dialect", "", "void @f()", "  call void asm sideeffect inteldialect \"nop\", \"\"()\n  ret void", "void @g()", "  call void asm sideeffect \"nop\", \"\"()\n  ret void", ""),
    ("inline asm string", "", "void @f()", "  call void asm sideeffect \"nop\", \"\"()\n  ret void", "void @g()", "  call void asm sideeffect \"pause\", \"\"()\n  ret void", ""),
    ("private strings", "@s1 = private constant [3 x i8] c\"ab\\00\"\n@s2 = private constant [3 x i8] c\"ab\\00\"", "ptr @f()", "  ret ptr @s1", "ptr @g()", "  ret ptr @s2", ""),
]

# LLVM 19 merges these although the functions behave differently: we must not.
SAFER: dict[str, tuple[str, str, str, str, str, str, str, str]] = {
    "self-reference": (
        "f compares its argument with its own address; merged, g's callers would compare with @f (lli test below)",
        "", "i1 @f(ptr %p)", "  %x = icmp eq ptr %p, @f\n  ret i1 %x", "i1 @g(ptr %p)", "  %x = icmp eq ptr %p, @g\n  ret i1 %x", "",
    ),
    "self-reference as argument": (
        "passing its own address to a callee is not a call target: the callee sees a different pointer",
        "declare void @h(ptr)", "void @f()", "  call void @h(ptr @f)\n  ret void", "void @g()", "  call void @h(ptr @g)\n  ret void", "",
    ),
    "gep inbounds": (
        "inbounds makes an out-of-object address poison; LLVM 19's cmpGEPs ignores the flag (fixed later)",
        "", "ptr @f(ptr %a)", "  %x = getelementptr inbounds i8, ptr %a, i64 4\n  ret ptr %x", "ptr @g(ptr %a)", "  %x = getelementptr i8, ptr %a, i64 4\n  ret ptr %x", "",
    ),
    "gep nuw": (
        "nuw makes an unsigned-wrapping offset poison; ignored by LLVM 19's cmpGEPs",
        "", "ptr @f(ptr %a, i64 %i)", "  %x = getelementptr nuw i8, ptr %a, i64 %i\n  ret ptr %x", "ptr @g(ptr %a, i64 %i)", "  %x = getelementptr i8, ptr %a, i64 %i\n  ret ptr %x", "",
    ),
    "kcfi_type": (
        "a different !kcfi_type is a different CFI type id: merging makes indirect calls through g's type trap",
        "", "void @f() !kcfi_type !0", "  ret void", "void @g() !kcfi_type !1", "  ret void", "!0 = !{i32 1}\n!1 = !{i32 2}",
    ),
    "metadata node argument": (
        "LLVM 19's cmpMetadata treats any two tuples as equal: g would read register 'y' as 'x'",
        "declare i64 @llvm.read_volatile_register.i64(metadata)", "i64 @f()", "  %r = call i64 @llvm.read_volatile_register.i64(metadata !0)\n  ret i64 %r",
        "i64 @g()", "  %r = call i64 @llvm.read_volatile_register.i64(metadata !1)\n  ret i64 %r", "!0 = !{!\"x\"}\n!1 = !{!\"y\"}",
    ),
    "load metadata node": (
        "LLVM 19 compares nested metadata nodes as equal: different TBAA types",
        "", "i32 @f(ptr %p)", "  %x = load i32, ptr %p, !tbaa !0\n  ret i32 %x", "i32 @g(ptr %p)", "  %x = load i32, ptr %p, !tbaa !3\n  ret i32 %x",
        "!0 = !{!1, !1, i64 0}\n!1 = !{!\"int\", !2, i64 0}\n!2 = !{!\"root\"}\n!3 = !{!4, !4, i64 0}\n!4 = !{!\"float\", !2, i64 0}",
    ),
    "inline asm unwind": (
        "asm that may unwind is not asm that may not; LLVM 19's cmpInlineAsm ignores the flag",
        "", "void @f()", "  call void asm sideeffect unwind \"nop\", \"\"()\n  ret void", "void @g()", "  call void asm sideeffect \"nop\", \"\"()\n  ret void", "",
    ),
    "call function type": (
        "a varargs call and a fixed-arguments call use different calling sequences",
        "declare void @h(...)", "void @f()", "  call void (...) @h(i32 1)\n  ret void", "void @g()", "  call void (i32) @h(i32 1)\n  ret void", "",
    ),
    "personality": (
        "a different personality function runs during unwinding",
        "declare i32 @p1(...)\ndeclare i32 @p2(...)\ndeclare void @h()", "void @f() personality ptr @p1",
        "  invoke void @h() to label %ok unwind label %lp\nok:\n  ret void\nlp:\n  %x = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %x",
        "void @g() personality ptr @p2",
        "  invoke void @h() to label %ok unwind label %lp\nok:\n  ret void\nlp:\n  %x = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %x", "",
    ),
    "landingpad cleanup": (
        "a cleanup landing pad is entered where a catch-only one is not",
        "declare i32 @p1(...)\ndeclare void @h()\n@ti = external global ptr", "void @f() personality ptr @p1",
        "  invoke void @h() to label %ok unwind label %lp\nok:\n  ret void\nlp:\n  %x = landingpad { ptr, i32 } cleanup catch ptr @ti\n  resume { ptr, i32 } %x",
        "void @g() personality ptr @p1",
        "  invoke void @h() to label %ok unwind label %lp\nok:\n  ret void\nlp:\n  %x = landingpad { ptr, i32 } catch ptr @ti\n  resume { ptr, i32 } %x", "",
    ),
    "cmpxchg alignment": (
        "an over-aligned atomic on a less aligned pointer is undefined behaviour",
        "", "void @f(ptr %p)", "  %x = cmpxchg ptr %p, i32 0, i32 1 seq_cst seq_cst, align 4\n  ret void",
        "void @g(ptr %p)", "  %x = cmpxchg ptr %p, i32 0, i32 1 seq_cst seq_cst, align 8\n  ret void", "",
    ),
    "prefix data": (
        "prefix data is readable through the function pointer",
        "", "void @f() prefix i32 1", "  ret void", "void @g() prefix i32 2", "  ret void", "",
    ),
}


@needs_opt
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_against_opt19(case: tuple[str, str, str, str, str, str, str]) -> None:
    name, decls, sf, bf, sg, bg, tail = case
    text = pair_module(decls, sf, bf, sg, bg, tail)
    merged = opt_merges(text)
    f, g = functions(text)
    gn = GlobalNumberState()  # shared: global numbers are only consistent within one state
    res = cmp(f, g, gn)
    assert (res == 0) == merged, "%s: compare=%d, opt-19 merged=%s, %s" % (name, res, merged, explain(f, g))
    assert cmp(g, f, gn) == -res
    assert (explain(f, g) is None) == (res == 0)


@needs_opt
@pytest.mark.parametrize("name", sorted(SAFER))
def test_safer_than_llvm19(name: str) -> None:
    why, decls, sf, bf, sg, bg, tail = SAFER[name]
    text = pair_module(decls, sf, bf, sg, bg, tail)
    # opt-19 merges them (the miscompile) ...
    assert opt_merges(text), "opt-19 no longer merges %s" % name
    # ... we keep them apart, because: why
    f, g = functions(text)
    gn = GlobalNumberState()
    assert cmp(f, g, gn) != 0, why
    assert cmp(f, g, gn) == -cmp(g, f, gn)


SELF_REF_PROGRAM = """
define i32 @f(ptr %p) {
  %pad1 = add i32 0, 0
  %pad2 = add i32 %pad1, 0
  %c = icmp eq ptr %p, @f
  %r = zext i1 %c to i32
  ret i32 %r
}

define i32 @g(ptr %p) {
  %pad1 = add i32 0, 0
  %pad2 = add i32 %pad1, 0
  %c = icmp eq ptr %p, @g
  %r = zext i1 %c to i32
  ret i32 %r
}

define i32 @main() {
  %r = call i32 @g(ptr @g)
  ret i32 %r
}
"""


@needs_opt
@pytest.mark.skipif(LLI is None, reason="lli-19 is not installed")
def test_self_reference_miscompile_lli(tmp_path: pytest.TempPathFactory) -> None:
    """g(@g) returns 1; after opt-19's mergefunc g calls f, which compares with @f: 0."""
    src = tmp_path / "self.ll"  # type: ignore[operator]
    src.write_text(SELF_REF_PROGRAM)
    before = subprocess.run([LLI or "lli-19", str(src)], capture_output=True).returncode
    merged = subprocess.run([OPT or "opt-19", "-passes=mergefunc", "-S", str(src)], capture_output=True, text=True, check=True).stdout
    dst = tmp_path / "merged.ll"  # type: ignore[operator]
    dst.write_text(merged)
    after = subprocess.run([LLI or "lli-19", str(dst)], capture_output=True).returncode
    assert before == 1 and after == 0  # opt-19 changed the program's result
    m = parse_assembly(SELF_REF_PROGRAM)
    f = m.get_function("f")
    g = m.get_function("g")
    assert f is not None and g is not None
    assert cmp(f, g) != 0


# --- explain ------------------------------------------------------------------------------------------


def test_explain_names_rule() -> None:
    cases = {
        "cmpOperations: load alignment": ("i32 @f(ptr %p)", "  %x = load i32, ptr %p, align 4\n  ret i32 %x", "i32 @g(ptr %p)", "  %x = load i32, ptr %p, align 8\n  ret i32 %x"),
        "cmpOperations: flags": ("i32 @f(i32 %a)", "  %x = add nsw i32 %a, 1\n  ret i32 %x", "i32 @g(i32 %a)", "  %x = add i32 %a, 1\n  ret i32 %x"),
        "cmpOperations: opcode": ("i32 @f(i32 %a)", "  %x = add i32 %a, 1\n  ret i32 %x", "i32 @g(i32 %a)", "  %x = mul i32 %a, 1\n  ret i32 %x"),
        "cmpConstants: integer value": ("i32 @f(i32 %a)", "  %x = add i32 %a, 1\n  ret i32 %x", "i32 @g(i32 %a)", "  %x = add i32 %a, 7\n  ret i32 %x"),
        "cmpGEPs: flags": ("ptr @f(ptr %a)", "  %x = getelementptr inbounds i8, ptr %a, i64 4\n  ret ptr %x", "ptr @g(ptr %a)", "  %x = getelementptr i8, ptr %a, i64 4\n  ret ptr %x"),
        "cmpValues: serial number": ("i32 @f(i32 %a, i32 %b)", "  %x = sub i32 %a, %b\n  ret i32 %x", "i32 @g(i32 %a, i32 %b)", "  %x = sub i32 %b, %a\n  ret i32 %x"),
        "cmpValues: own address": ("i1 @f(ptr %p)", "  %x = icmp eq ptr %p, @f\n  ret i1 %x", "i1 @g(ptr %p)", "  %x = icmp eq ptr %p, @g\n  ret i1 %x"),
        "cmpGlobalValues: global number": ("ptr @f()", "  ret ptr @x", "ptr @g()", "  ret ptr @y"),
        "compareSignature: calling convention": ("fastcc void @f()", "  ret void", "void @g()", "  ret void"),
        "cmpTypes: integer width": ("i32 @f(i32 %a)", "  ret i32 %a", "i8 @g(i8 %a)", "  ret i8 %a"),
    }
    for rule, (sf, bf, sg, bg) in cases.items():
        f, g = functions(pair_module("@x = global i32 0\n@y = global i32 0", sf, bf, sg, bg))
        d = explain(f, g)
        assert isinstance(d, Difference), rule
        assert d.rule == rule, (rule, str(d))
        assert str(d).startswith(rule)
    f, g = functions(pair_module("", "i32 @f(ptr %p)", "  %x = load i32, ptr %p, align 4\n  ret i32 %x", "i32 @g(ptr %p)", "  %x = load i32, ptr %p, align 8\n  ret i32 %x"))
    d = explain(f, g)
    assert d is not None
    assert d.detail == "align 4 vs align 8"
    assert d.block == "%0"
    assert d.instruction == "%x = load i32, ptr %p, align 4"
    assert d.other_instruction == "%x = load i32, ptr %p, align 8"
    f, g = functions(pair_module("", "i32 @f(i32 %a)", "  %x = add i32 %a, 1\n  ret i32 %x", "i32 @g(i32 %a)", "  %x = add i32 %a, 7\n  ret i32 %x"))
    d = explain(f, g)
    assert d is not None and d.operand == 1
    assert explain(f, f) is None


# --- GlobalNumberState --------------------------------------------------------------------------------------


def test_global_numbers_sticky_and_not_following_rauw() -> None:
    m = parse_assembly("@a = global i32 0\n@b = global i32 0\ndefine ptr @u() {\n  ret ptr @a\n}\n")
    a = m.get_global("a")
    b = m.get_global("b")
    assert a is not None and b is not None
    gn = GlobalNumberState()
    na = gn.get_number(a)
    nb = gn.get_number(b)
    assert na != nb and gn.get_number(a) == na
    a.replace_all_uses_with(b)
    assert gn.get_number(a) == na and gn.get_number(b) == nb
    gn.erase(a)
    assert gn.get_number(a) not in (na, nb)
    gn.clear()  # as LLVM: the map is emptied, the counter keeps going
    assert gn.get_number(b) not in (na, nb)


# --- deep structures -----------------------------------------------------------------------------------------


def _chain(ctx: Context, m: Module, name: str, n: int) -> Function:
    fn = Function(ctx.function_type(ctx.i32, (ctx.i32,)), name, module=m)
    blocks = [fn.append_block("b%d" % i) for i in range(n)]
    b = IRBuilder()
    x = fn.args[0]
    for i, bb in enumerate(blocks):
        b.position_at_end(bb)
        x = b.add(x, ConstantInt.get(ctx.i32, 1))
        if i + 1 < n:
            b.br(blocks[i + 1])
        else:
            b.ret(x)
    return fn


def test_deep_cfg_and_deep_constant() -> None:
    ctx = Context()
    m = Module("deep", ctx)
    f = _chain(ctx, m, "f", 6000)
    g = _chain(ctx, m, "g", 6000)
    assert cmp(f, g) == 0
    last = g.blocks.last
    assert isinstance(last, BasicBlock)
    ins = last.instructions.first
    assert ins is not None
    ins.set_operand(1, ConstantInt.get(ctx.i32, 2))
    assert cmp(f, g) != 0 and cmp(f, g) == -cmp(g, f)
    # a constant expression nested 5000 deep
    gv = m.add_global_variable("x", ctx.i32) if hasattr(m, "add_global_variable") else None
    if gv is None:
        return
    base = ConstantExpr.get_cast("ptrtoint", gv, ctx.i64)

    def nested(k: int) -> ConstantExpr:
        c = base
        for i in range(5000):
            c = ConstantExpr.get_add(c, ConstantInt.get(ctx.i64, k if i == 0 else 1))
        return c

    fns = []
    for name, k in (("p", 1), ("q", 1), ("r", 2)):
        fn = Function(ctx.function_type(ctx.i64, ()), name, module=m)
        b = IRBuilder(fn.append_block("e"))
        b.ret(nested(k))
        fns.append(fn)
    assert cmp(fns[0], fns[1]) == 0
    assert cmp(fns[0], fns[2]) != 0


# --- property tests -------------------------------------------------------------------------------------------

BINOPS = [("add", ("nuw", "nsw")), ("sub", ("nuw", "nsw")), ("mul", ("nsw",)), ("shl", ("nuw",)), ("and", ()),
          ("or", ("disjoint",)), ("xor", ()), ("udiv", ("exact",)), ("lshr", ("exact",))]  # fmt: skip
PREDS = ["eq", "ne", "slt", "ult", "sgt", "uge"]


def gen_spec(rng: random.Random) -> dict[str, object]:
    """A random function: blocks of instructions over i32 values, forward branches only
    (every block reachable), values used only in their own block or from the arguments."""
    nblocks = rng.randint(1, 4)
    blocks = []
    for bi in range(nblocks):
        insts: list[list[object]] = []
        nvals = 0
        for _ in range(rng.randint(1, 5)):
            kind = rng.choice(["bin", "bin", "bin", "load", "store", "cast", "select", "call", "gep"])
            if kind == "bin":
                op, flags = rng.choice(BINOPS)
                fl = [x for x in flags if rng.random() < 0.3]
                insts.append(["bin", op, fl, _operand(rng, nvals), _operand(rng, nvals)])
                nvals += 1
            elif kind == "load":
                insts.append(["load", rng.choice([1, 2, 4]), rng.random() < 0.2])
                nvals += 1
            elif kind == "store":
                insts.append(["store", _operand(rng, nvals), rng.choice([1, 2, 4])])
            elif kind == "cast":
                insts.append(["cast", _operand(rng, nvals), rng.choice(["i8", "i16"]), rng.random() < 0.3])
                nvals += 1
            elif kind == "select":
                insts.append(["select", rng.choice(PREDS), _operand(rng, nvals), _operand(rng, nvals), _operand(rng, nvals)])
                nvals += 1
            elif kind == "call":
                insts.append(["call", _operand(rng, nvals), rng.choice(["", "tail "]), rng.choice(["ext", "ext2"])])
                nvals += 1
            else:
                insts.append(["gep", rng.randint(0, 3), rng.choice(["i8", "i32", "i64"]), rng.random() < 0.3])
        term: list[object]
        if bi + 1 < nblocks:
            term = ["br", rng.choice(PREDS), _operand(rng, nvals), rng.randint(bi + 1, nblocks - 1)]
        else:
            term = ["ret", _operand(rng, nvals)]
        blocks.append({"insts": insts, "term": term})
    return {"blocks": blocks}


def _operand(rng: random.Random, nvals: int) -> tuple[str, int]:
    r = rng.random()
    if r < 0.3 or nvals == 0 and r < 0.7:
        return ("arg", rng.randint(0, 1))
    if r < 0.6 or nvals == 0:
        return ("const", rng.choice([0, 1, 2, 7, -1, 100]))
    return ("val", rng.randint(0, nvals - 1))


def render(spec: dict[str, object], name: str, prefix: str = "v", order: list[int] | None = None) -> str:
    blocks = spec["blocks"]
    assert isinstance(blocks, list)
    texts: list[str] = []
    for bi, block in enumerate(blocks):
        lines: list[str] = []
        vals: list[str] = []

        def op(o: object) -> str:
            kind, x = o  # type: ignore[misc]
            if kind == "arg":
                return "%%%sa%d" % (prefix, x)
            if kind == "const":
                return str(x)
            return vals[x]

        counter = [0]

        def fresh() -> str:
            counter[0] += 1
            return "%%%s%d_%d" % (prefix, bi, counter[0])

        for ins in block["insts"]:
            k = ins[0]
            if k == "bin":
                v = fresh()
                lines.append("  %s = %s %s i32 %s, %s" % (v, ins[1], " ".join(ins[2]), op(ins[3]), op(ins[4])))
                vals.append(v)
            elif k == "load":
                v = fresh()
                lines.append("  %s = load %si32, ptr %%%sp, align %d" % (v, "volatile " if ins[2] else "", prefix, ins[1]))
                vals.append(v)
            elif k == "store":
                lines.append("  store i32 %s, ptr %%%sp, align %d" % (op(ins[1]), prefix, ins[2]))
            elif k == "cast":
                v = fresh()
                lines.append("  %st = trunc i32 %s to %s" % (v, op(ins[1]), ins[2]))
                lines.append("  %s = zext %s%s %st to i32" % (v, "nneg " if ins[3] else "", ins[2], v))
                vals.append(v)
            elif k == "select":
                v = fresh()
                lines.append("  %sc = icmp %s i32 %s, %s" % (v, ins[1], op(ins[2]), op(ins[3])))
                lines.append("  %s = select i1 %sc, i32 %s, i32 %s" % (v, v, op(ins[4]), op(ins[2])))
                vals.append(v)
            elif k == "call":
                v = fresh()
                lines.append("  %s = %scall i32 @%s(i32 %s)" % (v, ins[2], ins[3], op(ins[1])))
                vals.append(v)
            else:
                v = fresh()
                lines.append("  %sg = getelementptr %s%s, ptr %%%sp, i64 %d" % (v, "inbounds " if ins[3] else "", ins[2], prefix, ins[1]))
                lines.append("  store i32 0, ptr %sg, align 1" % v)
        t = block["term"]
        if t[0] == "br":
            c = "%%%sbr%d" % (prefix, bi)
            lines.append("  %s = icmp %s i32 %s, 3" % (c, t[1], op(t[2])))
            lines.append("  br i1 %s, label %%%sb%d, label %%%sb%d" % (c, prefix, bi + 1, prefix, t[3]))
        else:
            lines.append("  ret i32 %s" % op(t[1]))
        texts.append("%sb%d:\n%s\n" % (prefix, bi, "\n".join(lines)))
    if order is None:
        order = list(range(len(texts)))
    body = "".join(texts[i] for i in order)
    return "define i32 @%s(i32 %%%sa0, i32 %%%sa1, ptr %%%sp) {\n%s}\n" % (name, prefix, prefix, prefix, body)


def mutate(spec: dict[str, object], rng: random.Random) -> dict[str, object] | None:
    """One change that must make the comparator see a difference (None when none applies)."""
    import copy

    new = copy.deepcopy(spec)
    blocks = new["blocks"]
    assert isinstance(blocks, list)
    choices: list[tuple[int, int]] = [(b, i) for b, blk in enumerate(blocks) for i in range(len(blk["insts"]))]
    rng.shuffle(choices)
    for b, i in choices:
        ins = blocks[b]["insts"][i]
        k = ins[0]
        if k == "bin":
            opts = []
            if ins[3] != ins[4]:
                opts.append("swap")
            for fl in dict(BINOPS)[ins[1]]:
                opts.append("flag:" + fl)
            opts.append("opcode")
            if ins[4][0] == "const":
                opts.append("const")
            what = rng.choice(opts)
            if what == "swap":
                ins[3], ins[4] = ins[4], ins[3]
            elif what.startswith("flag:"):
                fl = what[5:]
                ins[2] = [x for x in ins[2] if x != fl] if fl in ins[2] else ins[2] + [fl]
            elif what == "opcode":
                ins[1] = "xor" if ins[1] != "xor" else "and"
                ins[2] = []
            else:
                ins[4] = ("const", ins[4][1] + 1)
            return new
        if k == "load":
            if rng.random() < 0.5:
                ins[1] = {1: 2, 2: 4, 4: 1}[ins[1]]
            else:
                ins[2] = not ins[2]
            return new
        if k == "store":
            ins[2] = {1: 2, 2: 4, 4: 1}[ins[2]]
            return new
        if k == "cast":
            if rng.random() < 0.5:
                ins[2] = "i8" if ins[2] == "i16" else "i16"
            else:
                ins[3] = not ins[3]
            return new
        if k == "select":
            ins[1] = PREDS[(PREDS.index(ins[1]) + 1) % len(PREDS)]
            return new
        if k == "call":
            if rng.random() < 0.5:
                ins[2] = "" if ins[2] else "tail "
            else:
                ins[3] = "ext2" if ins[3] == "ext" else "ext"
            return new
        if k == "gep":
            if rng.random() < 0.5:
                ins[1] += 1
            else:
                ins[3] = not ins[3]
            return new
    return None


def build(texts: list[str]) -> dict[str, Function]:
    m = parse_assembly("declare i32 @ext(i32)\ndeclare i32 @ext2(i32)\n" + "\n".join(texts))
    return {fn.name: fn for fn in m.functions if fn.blocks.first is not None}


PROP = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROP
@given(st.integers(0, 2**32 - 1))
def test_equal_copies_renamed_and_reordered(seed: int) -> None:
    rng = random.Random(seed)
    spec = gen_spec(rng)
    n = len(spec["blocks"])  # type: ignore[arg-type]
    order = [0] + rng.sample(range(1, n), n - 1)
    fns = build([render(spec, "f"), render(spec, "g", prefix="w", order=order)])
    gn = GlobalNumberState()
    assert cmp(fns["f"], fns["f"], gn) == 0
    assert cmp(fns["f"], fns["g"], gn) == 0
    assert cmp(fns["g"], fns["f"], gn) == 0
    assert explain(fns["f"], fns["g"]) is None


@PROP
@given(st.integers(0, 2**32 - 1))
def test_single_change_differs(seed: int) -> None:
    rng = random.Random(seed)
    spec = gen_spec(rng)
    changed = mutate(spec, rng)
    if changed is None:
        return
    fns = build([render(spec, "f"), render(changed, "g", prefix="w")])
    gn = GlobalNumberState()
    res = cmp(fns["f"], fns["g"], gn)
    assert res != 0
    assert cmp(fns["g"], fns["f"], gn) == -res
    d = explain(fns["f"], fns["g"])
    assert d is not None and d.rule


@PROP
@given(st.integers(0, 2**32 - 1))
def test_total_order(seed: int) -> None:
    """Antisymmetry and transitivity over a family of functions and near-copies."""
    rng = random.Random(seed)
    specs = [gen_spec(rng) for _ in range(2)]
    family = list(specs)
    for s in specs:
        for _ in range(2):
            c = mutate(s, rng)
            if c is not None:
                family.append(c)
        family.append(s)  # an exact copy
    fns = list(build([render(s, "f%d" % i, prefix="p%d" % i) for i, s in enumerate(family)]).values())
    gn = GlobalNumberState()
    n = len(fns)
    table = [[cmp(fns[i], fns[j], gn) for j in range(n)] for i in range(n)]
    for i in range(n):
        assert table[i][i] == 0
        for j in range(n):
            assert table[i][j] == -table[j][i]
            assert (table[i][j] == 0) == (explain(fns[i], fns[j], gn) is None)
            for k in range(n):
                if table[i][j] <= 0 and table[j][k] <= 0:
                    assert table[i][k] <= 0
                if table[i][j] == 0 and table[j][k] == 0:
                    assert table[i][k] == 0
