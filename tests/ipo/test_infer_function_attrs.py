"""``inferattrs`` against opt-19, byte for byte.

Modules declaring every library function LLVM 19 knows, with its canonical prototype, go
through both opt-19 and llvmpy_mid for several target triples (so availability, custom names
and ``int``/``size_t`` widths vary); smaller modules check attributes already present
(memory effects intersected, nothing counted twice), ``nobuiltin``/``optnone``/
``no-builtin-NAME``, ``-disable-builtin``, the ``RtLibUseGOT`` flag, wrong prototypes,
definitions, intrinsics, and the statistics. Every expected text is what opt-19 prints, made in
the test; the tests skip when opt-19 is not installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.analysis.target_library_info_table import LIB_FUNCS
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.transform.utils.infer_lib_func_attrs import LIB_FUNC_ATTR_OPS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import require_tools  # noqa: E402

_DL64 = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
_DL32 = "e-m:e-p:32:32-p270:32:32-p271:32:32-p272:64:64-i128:128-f64:32:64-f80:32-n8:16:32-S128"
_DL16 = "e-P1-p:16:8-i8:8-i16:8-i32:8-i64:8-f32:8-f64:8-n8-a:8"


def _types(int_bits: int, size_bits: int) -> dict[str, str]:
    i, s = "i%d" % int_bits, "i%d" % size_bits
    return {
        "Void": "void", "Bool": "i8", "Int16": "i16", "Int32": "i32", "Int": i, "IntPlus": i, "Long": "i64",
        "IntX": "i32", "Int64": "i64", "LLong": "i64", "SizeT": s, "SSizeT": s, "Flt": "float", "Dbl": "double",
        "LDbl": "x86_fp80", "Floating": "double", "Ptr": "ptr", "Struct": "{ i32, i32 }",
    }  # fmt: skip


def _declaration(enum: str, name: str, sig: tuple[str, ...], ty: dict[str, str]) -> str:
    if enum in ("cabs", "cabsf", "cabsl"):
        t = {"cabs": "double", "cabsf": "float", "cabsl": "x86_fp80"}[enum]
        return 'declare %s @"%s"(%s, %s)' % (t, name, t, t)
    if enum in ("sincospi_stret", "sincospif_stret"):
        t = "double" if enum == "sincospi_stret" else "float"
        return 'declare { %s, %s } @"%s"(%s)' % (t, t, name, t)
    ret = ty[sig[0]]
    params: list[str] = []
    last = ret
    for t in sig[1:]:
        if t == "Void":
            break
        if t == "Ellip":
            params.append("...")
            break
        if t != "Same":
            last = ty[t]
        params.append(last)
    return 'declare %s @"%s"(%s)' % (ret, name, ", ".join(params))


def _all_lib_funcs(triple: str, datalayout: str, int_bits: int, size_bits: int) -> str:
    ty = _types(int_bits, size_bits)
    lines = ['target datalayout = "%s"' % datalayout, 'target triple = "%s"' % triple]
    lines += [_declaration(e, n, s, ty) for e, n, s in LIB_FUNCS]
    # Darwin's i386 names for fwrite/fputs
    lines.append('declare i%d @"fwrite$UNIX2003"(ptr, i%d, i%d, ptr)' % (size_bits, size_bits, size_bits))
    lines.append('declare i%d @"fputs$UNIX2003"(ptr, ptr)' % int_bits)
    return "\n".join(lines) + "\n"


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename"))).strip()


def _opt19(text: str, *flags: str) -> str:
    require_tools("opt-19")
    r = subprocess.run(["opt-19", "-passes=inferattrs", *flags, "-S", "-"], input=text, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _ours(text: str, options: dict[str, object] | None = None) -> str:
    module = parse_assembly(text)
    llvmpy_mid.run_passes(module, "inferattrs", options=options)  # type: ignore[arg-type]
    llvmpy_mid.verify_module(module)
    return print_module(module)


def _same(text: str, *flags: str, options: dict[str, object] | None = None) -> None:
    assert _body(_ours(text, options)) == _body(_opt19(text, *flags))


@pytest.mark.parametrize(
    "triple,datalayout,int_bits,size_bits",
    [
        ("x86_64-unknown-linux-gnu", _DL64, 32, 64),
        ("x86_64-apple-macosx10.15.0", _DL64, 32, 64),
        ("i386-apple-macosx10.8.0", _DL32, 32, 32),
        ("x86_64-pc-windows-msvc", _DL64, 32, 64),
        ("i686-pc-windows-msvc18.0", _DL32, 32, 32),
        ("", _DL64, 32, 64),
        ("nvptx64-nvidia-cuda", _DL64, 32, 64),
        ("powerpc64-ibm-aix-xcoff", "E-m:a-Fi64-i64:64-n32:64-S128-v256:256:256-v512:512:512", 32, 64),
        ("avr-unknown-unknown", _DL16, 16, 16),
        ("amdgcn-amd-amdhsa", _DL64, 32, 64),
        ("x86_64-unknown-freebsd13.0", _DL64, 32, 64),
        ("x86_64-scei-ps4", _DL64, 32, 64),
        ("x86_64-w64-windows-gnu", _DL64, 32, 64),
        ("aarch64-linux-android21", _DL64, 32, 64),
        ("arm64-apple-ios7.0", _DL64, 32, 64),
        ("wasm32-unknown-emscripten", _DL32, 32, 32),
    ],
)
def test_every_library_function(triple: str, datalayout: str, int_bits: int, size_bits: int) -> None:
    _same(_all_lib_funcs(triple, datalayout, int_bits, size_bits))


def test_every_table_entry_is_a_lib_func() -> None:
    names = {e for e, _, _ in LIB_FUNCS}
    assert set(LIB_FUNC_ATTR_OPS) <= names


_EXISTING = """target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
declare i64 @strlen(ptr) memory(read)
declare ptr @strchr(ptr, i32) memory(argmem: write, inaccessiblemem: read)
declare ptr @memcpy(ptr, ptr, i64) memory(none)
declare double @sin(double) memory(argmem: read)
declare ptr @malloc(i64) allockind("alloc,zeroed") allocsize(0) "alloc-family"="mine" memory(argmem: readwrite)
declare ptr @realloc(ptr, i64) allockind("free")
declare void @free(ptr) allockind("alloc")
declare noalias ptr @calloc(i64, i64) nounwind willreturn
declare i32 @printf(ptr noundef readonly nocapture, ...) nounwind
declare i32 @puts(ptr nocapture)
declare i32 @htonl(i32) convergent
declare i64 @strlen.1(ptr)
declare void @unknown() memory(none) convergent
declare void @unknown2() memory(read) willreturn
declare void @unknown3() memory(none) nosync mustprogress willreturn
declare i32 @llvm.ctpop.i32(i32)
declare void @_ZdlPv(ptr)
declare ptr @aligned_alloc(i64, i64) allocsize(0)
define i64 @atoi(ptr %p) {
  ret i64 0
}
"""


def test_existing_attributes() -> None:
    _same(_EXISTING)


_SKIPPED = """target triple = "x86_64-unknown-linux-gnu"
declare i64 @strlen(ptr) nobuiltin willreturn
declare ptr @strchr(ptr, i32) optnone noinline willreturn
declare ptr @memcpy(ptr, ptr, i64) "no-builtin-memcpy" willreturn
declare ptr @memmove(ptr, ptr, i64) "no-builtins"
declare ptr @memset(ptr, i32, i64) "no-builtin-memcpy"
declare i32 @puts(ptr)
declare i32 @putchar(i32)
"""


def test_no_builtin_and_optnone() -> None:
    _same(_SKIPPED)


def test_disable_builtin_option() -> None:
    _same(_SKIPPED, "-disable-builtin=puts", options={"disable-builtin": "puts"})


def test_disable_simplify_libcalls() -> None:
    _same(_SKIPPED, "-disable-simplify-libcalls", options={"disable-simplify-libcalls": True})


def test_rt_lib_use_got() -> None:
    _same(
        """target triple = "x86_64-unknown-linux-gnu"
declare i64 @strlen(ptr)
declare void @free(ptr)
declare void @other(ptr)
!llvm.module.flags = !{!0}
!0 = !{i32 7, !"RtLibUseGOT", i32 1}
"""
    )


def test_wrong_prototypes_and_unavailable() -> None:
    _same(
        """target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-apple-macosx10.15.0"
declare ptr @malloc(i32)
declare i32 @strlen(ptr)
declare i32 @printf(ptr)
declare float @sqrt(float)
declare ptr @memcpy(ptr, ptr, i64, i64)
declare ptr @memrchr(ptr, i32, i64)
declare i32 @bcmp(ptr, ptr, i64)
declare ptr @__strdup(ptr)
declare double @__exp_finite(double)
"""
    )


def test_statistics_and_no_change() -> None:
    text = """target triple = "x86_64-unknown-linux-gnu"
declare i64 @strlen(ptr)
declare ptr @malloc(i64)
declare i32 @printf(ptr, ...)
declare ptr @strcpy(ptr, ptr)
declare i32 @htonl(i32)
"""
    module = parse_assembly(text)
    stats = llvmpy_mid.run_passes(module, "inferattrs").statistics
    counts = {k.split(".", 1)[1]: v for k, v in stats.items() if k.startswith("build-libcalls.")}
    # strlen: readonly, argmemonly, nounwind, willreturn, nocapture
    # malloc: inaccessiblememonly, noundef x2, nounwind, noalias, willreturn
    # printf: noundef x2, nounwind, nocapture, readonly arg
    # strcpy: returned, argmemonly, nounwind, willreturn, nocapture, writeonly, readonly, noalias x2
    # htonl: nounwind, readnone
    assert counts == {
        "NumReadOnly": 1,
        "NumArgMemOnly": 2,
        "NumNoUnwind": 5,
        "NumWillReturn": 3,
        "NumNoCapture": 3,
        "NumInaccessibleMemOnly": 1,
        "NumNoUndef": 4,
        "NumNoAlias": 3,
        "NumReadOnlyArg": 2,
        "NumReturnedArg": 1,
        "NumWriteOnlyArg": 1,
        "NumReadNone": 1,
    }
    once = print_module(module)
    stats = llvmpy_mid.run_passes(module, "inferattrs").statistics
    assert not [k for k in stats if k.startswith("build-libcalls.")]
    assert print_module(module) == once


_RANDOM_MEMORY = (
    "", "memory(none)", "memory(read)", "memory(write)", "memory(argmem: read)", "memory(argmem: readwrite)",
    "memory(inaccessiblemem: readwrite)", "memory(argmem: write, inaccessiblemem: read)",
    "memory(readwrite, argmem: none)", "memory(read, inaccessiblemem: write)",
)  # fmt: skip
_RANDOM_FN_ATTRS = (
    "nounwind", "nofree", "willreturn", "convergent", "nosync", "mustprogress", 'allockind("free")',
    'allockind("realloc")', 'allockind("alloc")', '"alloc-family"="x"', "nonlazybind", "nobuiltin", "cold",
)  # fmt: skip


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_library_function_with_random_attributes(seed: int) -> None:
    """Each declaration already carries random memory effects and function attributes."""
    import random

    rnd = random.Random(seed)
    ty = _types(32, 64)
    lines = ['target datalayout = "%s"' % _DL64, 'target triple = "x86_64-unknown-linux-gnu"']
    for e, n, s in LIB_FUNCS:
        extra = [rnd.choice(_RANDOM_MEMORY), *rnd.sample(_RANDOM_FN_ATTRS, rnd.randint(0, 3))]
        lines.append(" ".join([_declaration(e, n, s, ty), *(x for x in extra if x)]))
    if seed == 2:
        lines.append('!llvm.module.flags = !{!0}\n!0 = !{i32 7, !"RtLibUseGOT", i32 1}')
    _same("\n".join(lines) + "\n")
