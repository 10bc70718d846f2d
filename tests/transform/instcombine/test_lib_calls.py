"""The library-call simplifier (SimplifyLibCalls.cpp, through InstCombine's tryOptimizeCall):
each rule's input gives what opt-19 gives."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from opt_oracle import assert_same_as_opt  # noqa: E402

DL = 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'
STRINGS = (
    '@hello = constant [6 x i8] c"hello\\00"\n'
    '@hell = constant [5 x i8] c"hell\\00"\n'
    '@empty = constant [1 x i8] zeroinitializer\n'
    '@ab = constant [4 x i8] c"abab"\n'
    '@aaa = constant [3 x i8] c"aaa"\n'
    '@num = constant [10 x i8] c"  -0x1fz\00\00"\n'
    '@oct = constant [6 x i8] c"+0755\00"\n'
    '@big = constant [12 x i8] c"4294967296\00\00"\n'
)
DECLS = (
    'declare i64 @strlen(ptr)\n'
    'declare i64 @strnlen(ptr, i64)\n'
    'declare ptr @strchr(ptr, i32)\n'
    'declare ptr @strrchr(ptr, i32)\n'
    'declare i32 @strcmp(ptr, ptr)\n'
    'declare i32 @strncmp(ptr, ptr, i64)\n'
    'declare ptr @strcpy(ptr, ptr)\n'
    'declare ptr @stpcpy(ptr, ptr)\n'
    'declare ptr @memchr(ptr, i32, i64)\n'
    'declare ptr @memrchr(ptr, i32, i64)\n'
    'declare i32 @memcmp(ptr, ptr, i64)\n'
    'declare i32 @bcmp(ptr, ptr, i64)\n'
    'declare ptr @memcpy(ptr, ptr, i64)\n'
    'declare ptr @memset(ptr, i32, i64)\n'
    'declare i32 @ffs(i32)\n'
    'declare i32 @abs(i32)\n'
    'declare i32 @isdigit(i32)\n'
    'declare i32 @isascii(i32)\n'
    'declare i32 @toascii(i32)\n'
    'declare i32 @puts(ptr)\n'
    'declare i64 @fwrite(ptr, i64, i64, ptr)\n'
    'declare i32 @fputs(ptr, ptr)\n'
    'declare double @pow(double, double)\n'
    'declare float @powf(float, float)\n'
    'declare double @llvm.pow.f64(double, double)\n'
    'declare double @sqrt(double)\n'
    'declare double @fabs(double)\n'
    'declare double @floor(double)\n'
    'declare double @cos(double)\n'
    'declare double @fmin(double, double)\n'
    'declare double @exp2(double)\n'
    'declare i32 @printf(ptr, ...)\n'
    'declare i32 @sprintf(ptr, ptr, ...)\n'
    'declare i32 @snprintf(ptr, i64, ptr, ...)\n'
    'declare ptr @strcat(ptr, ptr)\n'
    'declare ptr @strncpy(ptr, ptr, i64)\n'
    'declare ptr @__memcpy_chk(ptr, ptr, i64, i64)\n'
    'declare ptr @strndup(ptr, i64)\n'
    'declare i64 @strlcpy(ptr, ptr, i64)\n'
    'declare ptr @strpbrk(ptr, ptr)\n'
    'declare i64 @strspn(ptr, ptr)\n'
    'declare i64 @strcspn(ptr, ptr)\n'
    'declare ptr @strstr(ptr, ptr)\n'
    'declare ptr @memccpy(ptr, ptr, i32, i64)\n'
    'declare i64 @strtol(ptr, ptr, i32)\n'
    'declare i32 @strtoul(ptr, ptr, i32)\n'
    'declare i32 @atoi(ptr)\n'
    'declare double @strtod(ptr, ptr)\n'
    'declare ptr @realloc(ptr, i64)\n'
    'declare void @bcopy(ptr, ptr, i64)\n'
)


def _module(body: str) -> str:
    return DL + 'target triple = "x86_64-unknown-linux-gnu"\n' + STRINGS + body + "\n" + DECLS


RULES: dict[str, str] = {
    # strlen("hello") -> 5
    'strlen_const': 'define i64 @f() {\n  %r = call i64 @strlen(ptr @hello)\n  ret i64 %r\n}',
    # strlen(x) == 0 -> *x == 0
    'strlen_eq_zero': 'define i1 @f(ptr %p) {\n  %l = call i64 @strlen(ptr %p)\n  %r = icmp eq i64 %l, 0\n  ret i1 %r\n}',
    # strlen(c ? "hello" : "hell") -> select c, 5, 4
    'strlen_select': 'define i64 @f(i1 %c) {\n  %s = select i1 %c, ptr @hello, ptr @hell\n  %r = call i64 @strlen(ptr %s)\n  ret i64 %r\n}',
    # strlen("hello" + x) -> 5 - x
    'strlen_gep': 'define i64 @f(i64 %x) {\n  %p = getelementptr inbounds [6 x i8], ptr @hello, i64 0, i64 %x\n  %r = call i64 @strlen(ptr %p)\n  ret i64 %r\n}',
    # strlen(p) annotates p
    'strlen_annotate': 'define i64 @f(ptr %p) {\n  %r = call i64 @strlen(ptr %p)\n  ret i64 %r\n}',
    # strnlen("hello", n) -> umin(5, n)
    'strnlen_const': 'define i64 @f(i64 %n) {\n  %r = call i64 @strnlen(ptr @hello, i64 %n)\n  ret i64 %r\n}',
    # strnlen(p, 1) -> *p != 0
    'strnlen_one': 'define i64 @f(ptr %p) {\n  %r = call i64 @strnlen(ptr %p, i64 1)\n  ret i64 %r\n}',
    # strchr("hello", 'l') -> "hello" + 2
    'strchr_const': 'define ptr @f() {\n  %r = call ptr @strchr(ptr @hello, i32 108)\n  ret ptr %r\n}',
    # strchr("hello", c) -> memchr("hello", c, 6)
    'strchr_var_char': 'define ptr @f(i32 %c) {\n  %r = call ptr @strchr(ptr @hello, i32 %c)\n  ret ptr %r\n}',
    # strchr(p, 0) -> p + strlen(p)
    'strchr_nul': 'define ptr @f(ptr %p) {\n  %r = call ptr @strchr(ptr %p, i32 0)\n  ret ptr %r\n}',
    # strrchr(p, 0) -> strchr(p, 0)
    'strrchr_nul': 'define ptr @f(ptr %p) {\n  %r = call ptr @strrchr(ptr %p, i32 0)\n  ret ptr %r\n}',
    # strcmp of two constants -> constant
    'strcmp_const': 'define i32 @f() {\n  %r = call i32 @strcmp(ptr @hello, ptr @hell)\n  ret i32 %r\n}',
    # strcmp(p, "") -> *p
    'strcmp_empty': 'define i32 @f(ptr %p) {\n  %r = call i32 @strcmp(ptr %p, ptr @empty)\n  ret i32 %r\n}',
    # strcmp(p, p) -> 0
    'strcmp_same': 'define i32 @f(ptr %p) {\n  %r = call i32 @strcmp(ptr %p, ptr %p)\n  ret i32 %r\n}',
    # strncmp(p, q, 1) -> memcmp(p, q, 1)
    'strncmp_one': 'define i32 @f(ptr %p, ptr %q) {\n  %r = call i32 @strncmp(ptr %p, ptr %q, i64 1)\n  ret i32 %r\n}',
    # strncmp("hello", "hell", 4) -> 0
    'strncmp_const': 'define i32 @f() {\n  %r = call i32 @strncmp(ptr @hello, ptr @hell, i64 4)\n  ret i32 %r\n}',
    # strcpy(d, "hello") -> memcpy(d, "hello", 6)
    'strcpy_const': 'define ptr @f(ptr %d) {\n  %r = call ptr @strcpy(ptr %d, ptr @hello)\n  ret ptr %r\n}',
    # stpcpy(d, "hello") -> memcpy + d + 5
    'stpcpy_const': 'define ptr @f(ptr %d) {\n  %r = call ptr @stpcpy(ptr %d, ptr @hello)\n  ret ptr %r\n}',
    # memchr("hello", 'l', n) -> n <= 2 ? null : "hello" + 2
    'memchr_const': 'define ptr @f(i64 %n) {\n  %r = call ptr @memchr(ptr @hello, i32 108, i64 %n)\n  ret ptr %r\n}',
    # memchr(p, c, 1) -> *p == c ? p : null
    'memchr_one': 'define ptr @f(ptr %p, i32 %c) {\n  %r = call ptr @memchr(ptr %p, i32 %c, i64 1)\n  ret ptr %r\n}',
    # memchr over two runs of characters
    'memchr_two_runs': 'define ptr @f(i32 %c, i64 %n) {\n  %r = call ptr @memchr(ptr @aaa, i32 %c, i64 %n)\n  ret ptr %r\n}',
    # memchr("abab", c, 4) != null -> a bit test
    'memchr_bitfield': 'define i1 @f(i32 %c) {\n  %m = call ptr @memchr(ptr @ab, i32 %c, i64 4)\n  %r = icmp ne ptr %m, null\n  ret i1 %r\n}',
    # memrchr(p, c, 0) -> null
    'memrchr_zero': 'define ptr @f(ptr %p, i32 %c) {\n  %r = call ptr @memrchr(ptr %p, i32 %c, i64 0)\n  ret ptr %r\n}',
    # memrchr("hello", 'l', 5) -> "hello" + 3
    'memrchr_const': 'define ptr @f() {\n  %r = call ptr @memrchr(ptr @hello, i32 108, i64 5)\n  ret ptr %r\n}',
    # memcmp(p, q, 1) -> *p - *q
    'memcmp_one': 'define i32 @f(ptr %p, ptr %q) {\n  %r = call i32 @memcmp(ptr %p, ptr %q, i64 1)\n  ret i32 %r\n}',
    # memcmp(p, q, n) == 0 -> bcmp(p, q, n) == 0
    'memcmp_to_bcmp': 'define i1 @f(ptr %p, ptr %q, i64 %n) {\n  %m = call i32 @memcmp(ptr %p, ptr %q, i64 %n)\n  %r = icmp eq i32 %m, 0\n  ret i1 %r\n}',
    # memcmp of constants with a variable size -> select
    'memcmp_const_var_size': 'define i32 @f(i64 %n) {\n  %r = call i32 @memcmp(ptr @hello, ptr @hell, i64 %n)\n  ret i32 %r\n}',
    # memcmp(p, q, 4) == 0 of aligned pointers -> i32 compare
    'memcmp_4_eq': 'define i1 @f(ptr align 4 %p, ptr align 4 %q) {\n  %m = call i32 @memcmp(ptr %p, ptr %q, i64 4)\n  %r = icmp eq i32 %m, 0\n  ret i1 %r\n}',
    # memcpy(d, s, n) -> llvm.memcpy
    'memcpy_lib': 'define ptr @f(ptr %d, ptr %s, i64 %n) {\n  %r = call ptr @memcpy(ptr %d, ptr %s, i64 %n)\n  ret ptr %r\n}',
    # memset(d, c, n) -> llvm.memset
    'memset_lib': 'define ptr @f(ptr %d, i32 %c, i64 %n) {\n  %r = call ptr @memset(ptr %d, i32 %c, i64 %n)\n  ret ptr %r\n}',
    # ffs(x) -> x != 0 ? cttz(x) + 1 : 0
    'ffs': 'define i32 @f(i32 %x) {\n  %r = call i32 @ffs(i32 %x)\n  ret i32 %r\n}',
    # abs(x) -> select
    'abs': 'define i32 @f(i32 %x) {\n  %r = call i32 @abs(i32 %x)\n  ret i32 %r\n}',
    # isdigit(c) -> (c - 48) <u 10
    'isdigit': 'define i32 @f(i32 %x) {\n  %r = call i32 @isdigit(i32 %x)\n  ret i32 %r\n}',
    # isascii(c) -> c <u 128
    'isascii': 'define i32 @f(i32 %x) {\n  %r = call i32 @isascii(i32 %x)\n  ret i32 %r\n}',
    # toascii(c) -> c & 127
    'toascii': 'define i32 @f(i32 %x) {\n  %r = call i32 @toascii(i32 %x)\n  ret i32 %r\n}',
    # puts("") -> putchar('\n')
    'puts_empty': 'define void @f() {\n  %r = call i32 @puts(ptr @empty)\n  ret void\n}',
    # fputs("hello", F) -> fwrite("hello", 5, 1, F)
    'fputs_fwrite': 'define void @f(ptr %F) {\n  %r = call i32 @fputs(ptr @hello, ptr %F)\n  ret void\n}',
    # fwrite(p, 0, n, F) -> 0
    'fwrite_zero': 'define i64 @f(ptr %p, i64 %n, ptr %F) {\n  %r = call i64 @fwrite(ptr %p, i64 0, i64 %n, ptr %F)\n  ret i64 %r\n}',
    # pow(x, 2.0) -> x * x
    'pow_square': 'define double @f(double %x) {\n  %r = call double @pow(double %x, double 2.0)\n  ret double %r\n}',
    # pow(2.0, x) -> exp2(x) for the intrinsic
    'pow_base2_intrinsic': 'define double @f(double %x) {\n  %r = call double @llvm.pow.f64(double 2.0, double %x)\n  ret double %r\n}',
    # pow(x, 0.5) -> sqrt with the fix-ups for -0.0 and -inf
    'pow_half': 'define double @f(double %x) {\n  %r = call double @llvm.pow.f64(double %x, double 0.5)\n  ret double %r\n}',
    # pow(x, 3.0) with afn -> powi
    'pow_afn_powi': 'define double @f(double %x) {\n  %r = call afn double @pow(double %x, double 3.0)\n  ret double %r\n}',
    # sqrt((double) f) used as float -> sqrtf
    'sqrt_shrink': 'define float @f(float %x) {\n  %e = fpext float %x to double\n  %s = call double @sqrt(double %e)\n  %r = fptrunc double %s to float\n  ret float %r\n}',
    # fabs / floor -> intrinsics
    'fabs_floor_intrinsics': 'define double @f(double %x) {\n  %a = call double @fabs(double %x)\n  %r = call double @floor(double %a)\n  ret double %r\n}',
    # cos(-x) -> cos(x)
    'cos_fneg': 'define double @f(double %x) {\n  %n = fneg double %x\n  %r = call double @cos(double %n)\n  ret double %r\n}',
    # fmin -> minnum nsz
    'fmin': 'define double @f(double %x, double %y) {\n  %r = call double @fmin(double %x, double %y)\n  ret double %r\n}',
    # exp2(sitofp x) -> ldexp
    'exp2_sitofp': 'define double @f(i32 %x) {\n  %c = sitofp i32 %x to double\n  %r = call double @exp2(double %c)\n  ret double %r\n}',
    # printf("hello\n") -> puts("hello")
    'printf_puts': '@hn = constant [7 x i8] c"hello\\0A\\00"\ndefine void @f() {\n  %r = call i32 (ptr, ...) @printf(ptr @hn)\n  ret void\n}',
    # sprintf(d, "hello") -> memcpy
    'sprintf_const': 'define i32 @f(ptr %d) {\n  %r = call i32 (ptr, ptr, ...) @sprintf(ptr %d, ptr @hello)\n  ret i32 %r\n}',
    # snprintf(d, 3, "hello") -> memcpy of 2 bytes and a nul
    'snprintf_trunc': 'define i32 @f(ptr %d) {\n  %r = call i32 (ptr, i64, ptr, ...) @snprintf(ptr %d, i64 3, ptr @hello)\n  ret i32 %r\n}',
    # strcat(d, "hello") -> memcpy(d + strlen(d), "hello", 6)
    'strcat': 'define ptr @f(ptr %d) {\n  %r = call ptr @strcat(ptr %d, ptr @hello)\n  ret ptr %r\n}',
    # strncpy(d, "hell", 8) -> memcpy of a nul-padded copy
    'strncpy_pad': 'define ptr @f(ptr %d) {\n  %r = call ptr @strncpy(ptr %d, ptr @hell, i64 8)\n  ret ptr %r\n}',
    # __memcpy_chk with an unknown object size -> llvm.memcpy
    'memcpy_chk': 'define ptr @f(ptr %d, ptr %s, i64 %n) {\n  %r = call ptr @__memcpy_chk(ptr %d, ptr %s, i64 %n, i64 -1)\n  ret ptr %r\n}',
    # strndup("hello", 5) -> strdup("hello"); strndup("hello", 3) stays (annotated)
    'strndup': 'define void @f(ptr %o) {\n  %a = call ptr @strndup(ptr @hello, i64 5)\n  store ptr %a, ptr %o\n  %b = call ptr @strndup(ptr @hello, i64 3)\n  store ptr %b, ptr %o\n  ret void\n}',
    # strlcpy(d, "hello", 3) -> memcpy 2 bytes, a nul store, 5
    'strlcpy_trunc': 'define i64 @f(ptr %d) {\n  %r = call i64 @strlcpy(ptr %d, ptr @hello, i64 3)\n  ret i64 %r\n}',
    # strlcpy(d, "abab" (no nul), 9) -> memcpy 4 bytes, nul store at 4, 4
    'strlcpy_unterminated': 'define i64 @f(ptr %d) {\n  %r = call i64 @strlcpy(ptr %d, ptr @ab, i64 9)\n  ret i64 %r\n}',
    # strlcpy(d, s, 1) -> *d = 0, strlen(s); strlcpy(d, "", n) -> *d = 0, 0
    'strlcpy_one_and_empty': 'define i64 @f(ptr %d, ptr %s, i64 %n) {\n  %a = call i64 @strlcpy(ptr %d, ptr %s, i64 1)\n  %b = call i64 @strlcpy(ptr %d, ptr @empty, i64 7)\n  %c = call i64 @strlcpy(ptr %d, ptr %s, i64 %n)\n  %x = add i64 %a, %b\n  %r = add i64 %x, %c\n  ret i64 %r\n}',
    # strpbrk of constants -> gep; strpbrk(s, "h") -> strchr
    'strpbrk': 'define void @f(ptr %s, ptr %o) {\n  %a = call ptr @strpbrk(ptr @hello, ptr @hell)\n  store ptr %a, ptr %o\n  %g = getelementptr [6 x i8], ptr @hello, i64 0, i64 4\n  %b = call ptr @strpbrk(ptr %s, ptr %g)\n  store ptr %b, ptr %o\n  %c = call ptr @strpbrk(ptr %s, ptr @empty)\n  store ptr %c, ptr %o\n  ret void\n}',
    # strspn / strcspn of constants; strcspn(s, "") -> strlen(s)
    'strspn_strcspn': 'define i64 @f(ptr %s) {\n  %a = call i64 @strspn(ptr @hello, ptr @hell)\n  %b = call i64 @strcspn(ptr @hello, ptr @ab)\n  %c = call i64 @strcspn(ptr %s, ptr @empty)\n  %d = call i64 @strspn(ptr %s, ptr %s)\n  %x = add i64 %a, %b\n  %y = add i64 %x, %c\n  %r = add i64 %y, %d\n  ret i64 %r\n}',
    # strstr of constants, strstr(s, "o") -> strchr, and unknown operands annotated
    'strstr': 'define void @f(ptr %s, ptr %t, ptr %o) {\n  %a = call ptr @strstr(ptr @hello, ptr @hell)\n  store ptr %a, ptr %o\n  %g = getelementptr [6 x i8], ptr @hello, i64 0, i64 4\n  %b = call ptr @strstr(ptr %s, ptr %g)\n  store ptr %b, ptr %o\n  %c = call ptr @strstr(ptr %s, ptr %t)\n  store ptr %c, ptr %o\n  ret void\n}',
    # strstr(a, b) == a -> strncmp(a, b, strlen(b)) == 0
    'strstr_eq_self': 'define i1 @f(ptr %a, ptr %b) {\n  %s = call ptr @strstr(ptr %a, ptr %b)\n  %r = icmp eq ptr %s, %a\n  ret i1 %r\n}',
    # memccpy(d, "hello", 'l', 9) -> memcpy 3 bytes, d + 3; no stop char within n -> memcpy, null
    'memccpy': 'define void @f(ptr %d, ptr %o) {\n  %a = call ptr @memccpy(ptr %d, ptr @hello, i32 108, i64 9)\n  store ptr %a, ptr %o\n  %b = call ptr @memccpy(ptr %d, ptr @hello, i32 122, i64 4)\n  store ptr %b, ptr %o\n  %c = call ptr @memccpy(ptr %d, ptr @hello, i32 111, i64 2)\n  store ptr %c, ptr %o\n  ret void\n}',
    # strtol with an end pointer, base 0 with a hex prefix and a bad digit (not folded), octal
    'strtol': 'define i64 @f(ptr nonnull %e) {\n  %a = call i64 @strtol(ptr @num, ptr %e, i32 0)\n  %p = getelementptr [10 x i8], ptr @num, i64 0, i64 2\n  %b = call i64 @strtol(ptr @oct, ptr %e, i32 0)\n  %c = call i64 @strtol(ptr @oct, ptr null, i32 8)\n  %x = add i64 %a, %b\n  %r = add i64 %x, %c\n  ret i64 %r\n}',
    # strtoul / atoi out of range of a 32-bit result are left alone (but marked nocapture)
    'strtoul_atoi_range': 'define i32 @f(ptr %s) {\n  %a = call i32 @strtoul(ptr @big, ptr null, i32 10)\n  %b = call i32 @atoi(ptr @big)\n  %c = call i32 @atoi(ptr @oct)\n  %d = call i32 @atoi(ptr %s)\n  %x = add i32 %a, %b\n  %y = add i32 %x, %c\n  %r = add i32 %y, %d\n  ret i32 %r\n}',
    # strtod(s, null) -> the string argument nocapture
    'strtod_nocapture': 'define double @f(ptr %s) {\n  %r = call double @strtod(ptr %s, ptr null)\n  ret double %r\n}',
    # realloc(null, n) -> malloc(n) with malloc's inferred attributes; realloc(p, n) stays
    'realloc_null': 'define void @f(ptr %p, i64 %n, ptr %o) {\n  %a = call ptr @realloc(ptr null, i64 %n)\n  store ptr %a, ptr %o\n  %b = call ptr @realloc(ptr %p, i64 %n)\n  store ptr %b, ptr %o\n  ret void\n}',
    # bcopy(s, d, n) -> llvm.memmove(d, s, n) (tail kept); a constant 8 becomes a load/store
    'bcopy': 'define void @f(ptr %s, ptr %d, i64 %n) {\n  tail call void @bcopy(ptr %s, ptr %d, i64 %n)\n  call void @bcopy(ptr %d, ptr %s, i64 8)\n  ret void\n}',
    # a nobuiltin call is left alone
    'nobuiltin': 'define i64 @f() {\n  %r = call i64 @strlen(ptr @hello) nobuiltin\n  ret i64 %r\n}',
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_as_opt19(name: str) -> None:
    assert_same_as_opt(_module(RULES[name]), "instcombine")


FORTIFIED = (
    '@dst = global [60 x i8] zeroinitializer\n'
    '@fmt = constant [3 x i8] c"%d\\00"\n'
    'declare ptr @__memccpy_chk(ptr, ptr, i32, i64, i64)\n'
    'declare i32 @__snprintf_chk(ptr, i64, i32, i64, ptr, ...)\n'
    'declare i32 @__sprintf_chk(ptr, i32, i64, ptr, ...)\n'
    'declare ptr @__strcat_chk(ptr, ptr, i64)\n'
    'declare i64 @__strlcat_chk(ptr, ptr, i64, i64)\n'
    'declare ptr @__strncat_chk(ptr, ptr, i64, i64)\n'
    'declare i64 @__strlcpy_chk(ptr, ptr, i64, i64)\n'
    'declare i32 @__vsnprintf_chk(ptr, i64, i32, i64, ptr, ptr)\n'
    'declare i32 @__vsprintf_chk(ptr, i32, i64, ptr, ptr)\n'
)

FORTIFIED_RULES: dict[str, str] = {
    # an unknown (-1) or large enough object size drops the check; a nonzero flag keeps it
    'chk_unknown_size': (
        'define void @f(ptr %s, ptr %o, i32 %x, ptr %va) {\n'
        '  %a = call ptr @__memccpy_chk(ptr @dst, ptr %s, i32 0, i64 10, i64 -1)\n  store ptr %a, ptr %o\n'
        '  %b = call i32 (ptr, i64, i32, i64, ptr, ...) @__snprintf_chk(ptr @dst, i64 60, i32 0, i64 60, ptr @fmt, i32 %x)\n'
        '  %c = call i32 (ptr, i32, i64, ptr, ...) @__sprintf_chk(ptr @dst, i32 0, i64 -1, ptr @fmt, i32 %x)\n'
        '  %d = call i32 (ptr, i32, i64, ptr, ...) @__sprintf_chk(ptr @dst, i32 1, i64 -1, ptr @fmt, i32 %x)\n'
        '  %e = call ptr @__strcat_chk(ptr @dst, ptr %s, i64 -1)\n  store ptr %e, ptr %o\n'
        '  %g = call i64 @__strlcat_chk(ptr @dst, ptr %s, i64 8, i64 -1)\n'
        '  %h = call ptr @__strncat_chk(ptr @dst, ptr %s, i64 8, i64 -1)\n  store ptr %h, ptr %o\n'
        '  %i = call i64 @__strlcpy_chk(ptr @dst, ptr %s, i64 8, i64 -1)\n'
        '  %j = call i32 @__vsnprintf_chk(ptr @dst, i64 8, i32 0, i64 8, ptr @fmt, ptr %va)\n'
        '  %k = call i32 @__vsprintf_chk(ptr @dst, i32 0, i64 -1, ptr @fmt, ptr %va)\n'
        '  %l = call i64 @__strlcpy_chk(ptr @dst, ptr %s, i64 8, i64 4)\n'
        '  ret void\n}'
    ),
}


@pytest.mark.parametrize("name", sorted(FORTIFIED_RULES))
def test_fortified_as_opt19(name: str) -> None:
    assert_same_as_opt(_module(FORTIFIED + FORTIFIED_RULES[name]), "instcombine")


def test_inreg_register_parameters_as_opt19() -> None:
    # i386 with NumRegisterParameters = 3: emitted declarations take inreg on their integer and
    # pointer parameters while registers remain (memcmp == 0 -> bcmp, strlcpy(d, s, 0) -> strlen).
    text = (
        'target datalayout = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-f64:32:64-f80:32-n8:16:32-S128"\n'
        'target triple = "i386-unknown-linux-gnu"\n'
        'declare i32 @memcmp(ptr, ptr, i32)\n'
        'declare i32 @strlcpy(ptr, ptr, i32)\n'
        'define i1 @f(ptr %p, ptr %q, i32 %n) {\n'
        '  %m = call i32 @memcmp(ptr %p, ptr %q, i32 %n)\n  %r = icmp eq i32 %m, 0\n  ret i1 %r\n}\n'
        'define i32 @g(ptr %d, ptr %s) {\n  %r = call i32 @strlcpy(ptr %d, ptr %s, i32 0)\n  ret i32 %r\n}\n'
        '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"NumRegisterParameters", i32 2}\n'
    )
    assert_same_as_opt(text, "instcombine")


HOT_COLD_NEW = (
    'declare ptr @_Znwm(i64)\n'
    'declare ptr @_ZnamRKSt9nothrow_t(i64, ptr)\n'
    'declare ptr @_Znwm12__hot_cold_t(i64, i8)\n'
    'declare void @use(ptr)\n'
    '@nt = external global i8\n'
    'define void @f() {\n'
    '  %a = call ptr @_Znwm(i64 10) #0\n  call void @use(ptr %a)\n'
    '  %b = call ptr @_ZnamRKSt9nothrow_t(i64 10, ptr @nt) #1\n  call void @use(ptr %b)\n'
    '  %c = call ptr @_Znwm(i64 10) #2\n  call void @use(ptr %c)\n'
    '  %d = call ptr @_Znwm12__hot_cold_t(i64 10, i8 7) #0\n  call void @use(ptr %d)\n'
    '  ret void\n}\n'
    'attributes #0 = { builtin allocsize(0) "memprof"="cold" }\n'
    'attributes #1 = { builtin allocsize(0) "memprof"="hot" }\n'
    'attributes #2 = { builtin allocsize(0) "memprof"="notcold" }\n'
)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"optimize-hot-cold-new": True},
        {"optimize-hot-cold-new": True, "cold-new-hint-value": 5, "hot-new-hint-value": 200, "optimize-existing-hot-cold-new": True},
    ],
)
def test_hot_cold_new_as_opt19(options: dict[str, object]) -> None:
    assert_same_as_opt(DL + 'target triple = "x86_64-unknown-linux-gnu"\n' + HOT_COLD_NEW, "instcombine", options)
