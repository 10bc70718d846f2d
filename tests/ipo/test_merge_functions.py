"""``mergefunc`` against opt-19, byte for byte, on hand-made modules that each
exercise one case of LLVM 19's MergeFunctions (RAUW of unnamed_addr functions,
direct-caller redirection, llvm.used, interposable pairs with a private body,
thunk casts, too-small and varargs functions, swifttailcc, aliases, alignment,
comdats, several merges in one module), plus statistics and an lli-19 run of
csmith programs into which renamed copies of functions were pasted.

Every expected text is what opt-19 prints for the same input, produced in the
test; the tests skip when opt-19 is not installed."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths
from oracles import LLVM_TEST_ROOT

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ipo.merge_functions import MergeFunctions

OPT = shutil.which("opt-19")
LLI = shutil.which("lli-19")
CSMITH_O0 = {p.name.split(".")[0]: p for p in csmith_paths() if p.name.endswith(".O0.ll")}

needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")


def _strip_id(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("; ModuleID"))


def _opt19(text: str, flags: tuple[str, ...] = ()) -> str:
    assert OPT is not None
    out = subprocess.run(
        [OPT, "-passes=mergefunc", "-S", *flags, "-o", "-", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return _strip_id(out)


def _ours(text: str, options: dict[str, bool | int | None] | None = None) -> str:
    m = parse_assembly(text, name="<stdin>")
    llvmpy_mid.run_passes(m, "mergefunc", options=options or {})
    return _strip_id(print_module(m))


def _check(text: str, *flags: str) -> str:
    options: dict[str, bool | int | None] = {f.lstrip("-"): True for f in flags}
    expected = _opt19(text, flags)
    got = _ours(text, options)
    assert got == expected
    return got


BODY2 = "  call void @d(i32 %x)\n  call void @d(i32 %x)\n  ret void\n"


def _fn(header: str, body: str = BODY2) -> str:
    return "define %s {\n%s}\n" % (header, body)


DECL = "declare void @d(i32)\n"

# --- one case each ------------------------------------------------------------------------------

CASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "rauw-internal-unnamed-addr": (
        DECL
        + _fn("internal void @a(i32 %x) unnamed_addr align 4")
        + _fn("void @b(i32 %x) unnamed_addr align 16 !type !0 !type !1")
        + _fn("void @c(i32 %x) align 32 !type !0 !type !1")
        + _fn("void @e(i32 %x)", "  call void @a(i32 %x)\n  call void @c(i32 %x)\n  ret void\n")
        + '!0 = !{i64 0, !"t1"}\n!1 = !{i64 0, !"t2"}\n',
        (),
    ),
    "direct-callers-only": (
        DECL
        + "@tab = global [2 x ptr] [ptr @a, ptr @b]\n"
        + _fn("internal void @a(i32 %x)")
        + _fn("internal void @b(i32 %x)")
        + _fn("void @e(i32 %x)", "  call void @b(i32 %x)\n  call void @a(i32 %x)\n  ret void\n"),
        (),
    ),
    "llvm-used-keeps-address": (
        DECL
        + "@llvm.used = appending global [1 x ptr] [ptr @b], section \"llvm.metadata\"\n"
        + _fn("internal void @a(i32 %x) unnamed_addr")
        + _fn("internal void @b(i32 %x) unnamed_addr")
        + _fn("void @e(i32 %x)", "  call void @b(i32 %x)\n  ret void\n"),
        (),
    ),
    "two-weak-and-strong": (
        DECL + _fn("weak void @a(i32 %x)") + _fn("weak void @b(i32 %x)") + _fn("void @c(i32 %x)"),
        (),
    ),
    "two-weak-private-body": (
        DECL
        + _fn("weak void @b(i32 %x) align 8")
        + _fn("linkonce void @a(i32 %x) align 2")
        + _fn("void @e(i32 %x)", "  call void @a(i32 %x)\n  call void @b(i32 %x)\n  ret void\n"),
        (),
    ),
    "two-weak-aliases": (
        DECL
        + _fn("weak void @b(i32 %x) unnamed_addr align 8")
        + _fn("weak void @a(i32 %x) unnamed_addr align 2")
        + _fn("void @e(i32 %x)", "  call void @a(i32 %x)\n  call void @b(i32 %x)\n  ret void\n"),
        ("-mergefunc-use-aliases",),
    ),
    "alias-unnamed-addr": (
        DECL
        + _fn("void @a(i32 %x) unnamed_addr align 4")
        + _fn("hidden void @b(i32 %x) unnamed_addr align 16")
        + _fn("void @c(i32 %x) align 2")
        + _fn("void @e(i32 %x)", "  call void @b(i32 %x)\n  call void @c(i32 %x)\n  ret void\n"),
        ("-mergefunc-use-aliases",),
    ),
    "thunk-casts": (
        "declare ptr @p(ptr, i64)\n"
        + _fn(
            "i64 @a(ptr %x, i64 %y)",
            "  %r = call ptr @p(ptr %x, i64 %y)\n  %i = ptrtoint ptr %r to i64\n  ret i64 %i\n",
        )
        + _fn(
            "i64 @b(i64 %x, ptr %y)",
            "  %r = call ptr @p(i64 %x, ptr %y)\n  %i = ptrtoint ptr %r to i64\n  ret i64 %i\n",
        ),
        (),
    ),
    "struct-return-casts": (
        "declare ptr @q()\n"
        + _fn(
            "{ ptr, i64 } @a()",
            "  %p = call ptr @q()\n  %s = insertvalue { ptr, i64 } poison, ptr %p, 0\n  ret { ptr, i64 } %s\n",
        )
        + _fn(
            "{ i64, i64 } @b()",
            "  %p = call ptr @q()\n  %i = ptrtoint ptr %p to i64\n"
            "  %s = insertvalue { i64, i64 } poison, i64 %i, 0\n  ret { i64, i64 } %s\n",
        ),
        (),
    ),
    "too-small-and-varargs": (
        _fn("void @s1()", "  ret void\n")
        + _fn("void @s2()", "  ret void\n")
        + DECL
        + _fn("void @v1(i32 %x, ...)")
        + _fn("void @v2(i32 %x, ...)"),
        (),
    ),
    "swifttailcc-musttail": (
        DECL + _fn("swifttailcc void @a(i32 %x)") + _fn("swifttailcc void @b(i32 %x)"),
        (),
    ),
    "callconv-and-attributes": (
        DECL
        + _fn("fastcc void @a(i32 noundef %x) #0")
        + _fn("fastcc void @b(i32 noundef %x) #0")
        + "attributes #0 = { nounwind \"frame-pointer\"=\"all\" }\n",
        (),
    ),
    "comdat-thunk": (
        "$a = comdat any\n$b = comdat any\n"
        + DECL
        + _fn("linkonce_odr void @a(i32 %x) comdat")
        + _fn("linkonce_odr void @b(i32 %x) comdat")
        + _fn("void @e(i32 %x)", "  call void @a(i32 %x)\n  call void @b(i32 %x)\n  ret void\n"),
        (),
    ),
    "external-before-local": (
        DECL
        + _fn("internal void @t1(i32 %x) unnamed_addr")
        + _fn("void @t2(i32 %x) unnamed_addr")
        + _fn("void @t3(i32 %x) unnamed_addr", "  call void @t1(i32 %x)\n  call void @t2(i32 %x)\n  ret void\n"),
        (),
    ),
    "available-externally-ignored": (
        DECL + _fn("available_externally void @a(i32 %x)") + _fn("available_externally void @b(i32 %x)"),
        (),
    ),
    "recursion-deferred": (
        _fn(
            "i32 @fa(i32 %n)",
            "  %c = icmp eq i32 %n, 0\n  br i1 %c, label %z, label %r\nz:\n  ret i32 1\n"
            "r:\n  %m = sub i32 %n, 1\n  %v = call i32 @ga(i32 %m)\n  %w = mul i32 %v, %n\n  ret i32 %w\n",
        )
        + _fn(
            "i32 @fb(i32 %n)",
            "  %c = icmp eq i32 %n, 0\n  br i1 %c, label %z, label %r\nz:\n  ret i32 1\n"
            "r:\n  %m = sub i32 %n, 1\n  %v = call i32 @gb(i32 %m)\n  %w = mul i32 %v, %n\n  ret i32 %w\n",
        )
        + _fn("internal i32 @ga(i32 %n) unnamed_addr", "  %v = add i32 %n, 7\n  %w = mul i32 %v, %v\n  ret i32 %w\n")
        + _fn("internal i32 @gb(i32 %n) unnamed_addr", "  %v = add i32 %n, 7\n  %w = mul i32 %v, %v\n  ret i32 %w\n")
        + _fn("i32 @main()", "  %a = call i32 @fa(i32 3)\n  %b = call i32 @fb(i32 4)\n  %s = add i32 %a, %b\n  ret i32 %s\n"),
        (),
    ),
}


def _group(prefix: str, k: int, body: str, linkage: str = "") -> str:
    return "".join(_fn("%svoid @%s%d(i32 %%x)" % (linkage, prefix, i), body) for i in range(k))


MULTI = (
    DECL
    + "declare void @e2(i32)\n"
    + _group("z", 3, BODY2)
    + _group("y", 2, "  %v = add i32 %x, 1\n  call void @d(i32 %v)\n  ret void\n", "weak ")
    + _group("x", 3, "  %v = mul i32 %x, 3\n  call void @e2(i32 %v)\n  call void @d(i32 %v)\n  ret void\n")
    + _group("w", 2, "  %c = icmp eq i32 %x, 0\n  br i1 %c, label %a, label %b\na:\n  call void @d(i32 %x)\n"
             "  ret void\nb:\n  call void @e2(i32 %x)\n  ret void\n", "internal ")
    + _fn("void @user(i32 %x)", "  call void @z2(i32 %x)\n  call void @y1(i32 %x)\n  call void @x2(i32 %x)\n"
          "  call void @w1(i32 %x)\n  call void @w0(i32 %x)\n  ret void\n")
)


@needs_opt
@pytest.mark.parametrize("case", sorted(CASES))
def test_case_matches_opt19(case: str) -> None:
    text, flags = CASES[case]
    _check(text, *flags)


@needs_opt
def test_several_merges_in_one_module_keep_opt19_order() -> None:
    got = _check(MULTI)
    assert got.count("tail call") >= 4


@needs_opt
def test_several_merges_with_aliases() -> None:
    _check(MULTI.replace("(i32 %x) {", "(i32 %x) unnamed_addr {"), "-mergefunc-use-aliases")


def test_statistics_counted() -> None:
    text, _ = CASES["two-weak-private-body"]
    m = parse_assembly(text)
    result = llvmpy_mid.run_passes(m, "mergefunc")
    stats = result.statistics
    assert stats["mergefunc.NumDoubleWeak"] == 1
    assert stats["mergefunc.NumFunctionsMerged"] == 1
    assert stats["mergefunc.NumThunksWritten"] == 2


def test_unchanged_module_reports_no_change() -> None:
    m = parse_assembly(DECL + _fn("void @a(i32 %x)") + _fn("void @b(i32 %x)", "  ret void\n"))
    before = print_module(m)
    assert MergeFunctions(m).run() is False
    assert print_module(m) == before


def test_lookups_use_few_comparisons() -> None:
    """With many pairwise-different functions of one hash, each lookup costs O(log N) comparisons."""
    n = 256
    fns = "".join(
        _fn("void @f%d(i32 %%x)" % i, "  %%v = add i32 %%x, %d\n  call void @d(i32 %%v)\n  ret void\n" % i) for i in range(n)
    )
    m = parse_assembly(DECL + fns)
    engine = MergeFunctions(m)
    assert engine.run() is False
    assert engine.lookups == n
    assert engine.comparisons / engine.lookups <= 12  # log2(256) = 8, plus the equality probe


def test_verify_option_reports_nothing_for_a_sound_comparator() -> None:
    text, _ = CASES["recursion-deferred"]
    m = parse_assembly(text)
    err = io.StringIO()
    MergeFunctions(m, verify_count=10, err=err).run()
    assert "Non-symmetric" not in err.getvalue() and "Non-transitive" not in err.getvalue()
    assert "MERGEFUNC-VERIFY: Passed." in err.getvalue()


def test_explain_option_prints_difference() -> None:
    m = parse_assembly(
        DECL
        + _fn("void @a(i32 %x)", "  %v = add i32 %x, 1\n  call void @d(i32 %v)\n  ret void\n")
        + _fn("void @b(i32 %x)", "  %v = add i32 %x, 2\n  call void @d(i32 %v)\n  ret void\n")
    )
    err = io.StringIO()
    MergeFunctions(m, explain=True, err=err).run()
    assert "@a and @b differ" in err.getvalue() or "@b and @a differ" in err.getvalue()


# --- lli-19: csmith programs with pasted copies ------------------------------------------------

_DEFINE = re.compile(r"^define (?:dso_local |internal )*[^@]*@(\w+)\(", re.M)
_DBG_ATTACHMENT = re.compile(r",? !dbg !\d+")
_DBG_RECORD = re.compile(r"^ *#dbg_\w+\(.*\)\n", re.M)


def _with_copies(text: str, count: int) -> tuple[str, list[str]]:
    """``text`` plus renamed copies of its first ``count`` internal/dso_local functions,
    each copy called once from a new function that ``main`` never reaches."""
    copies = []
    names = []
    for match in _DEFINE.finditer(text):
        name = match.group(1)
        if name == "main":
            continue
        start = match.start()
        end = text.index("\n}\n", start) + 3
        body = text[start:end]
        body = body.replace("@%s(" % name, "@%s_copy(" % name, 1)
        # Debug info would point at the original's subprogram: drop it from the copy.
        body = _DBG_RECORD.sub("", _DBG_ATTACHMENT.sub("", body))
        copies.append(body)
        names.append(name)
        if len(copies) == count:
            break
    return text + "\n" + "\n".join(copies), names


def _lli(text: str, path: Path) -> str:
    assert LLI is not None
    path.write_text(text)
    return subprocess.run([LLI, str(path)], capture_output=True, text=True, timeout=60).stdout


@needs_opt
@pytest.mark.skipif(LLI is None or not CSMITH_O0, reason="lli-19 or the csmith corpus missing")
@pytest.mark.parametrize("stem", ["s1", "s12"])
def test_csmith_with_copies_runs_the_same(stem: str, tmp_path: Path) -> None:
    source = CSMITH_O0.get(stem)
    if source is None:
        pytest.skip("csmith seed %s not in the corpus (dropped by the corpus script)" % stem)
    text, names = _with_copies(source.read_text(), 4)
    assert names
    expected_file = source.with_name("%s.expected" % stem)
    expected = expected_file.read_text() if expected_file.exists() else None
    ours = _ours(text)
    assert ours == _opt19(text)
    m = parse_assembly(text)
    merged = llvmpy_mid.run_passes(m, "mergefunc").statistics.get("mergefunc.NumFunctionsMerged", 0)
    assert merged >= len(names)  # every pasted copy was folded into its original
    out = _lli(ours, tmp_path / "merged.ll")
    assert out == _lli(text, tmp_path / "orig.ll")
    if expected is not None:
        assert out == expected


PDI_TEST = LLVM_TEST_ROOT / "Transforms/MergeFunc/mergefunc-preserve-debug-info.ll"


@needs_opt
def test_preserve_debug_info_thunk_matches_opt19() -> None:
    """Under -mergefunc-preserve-debug-info the thunk is G itself, keeping its
    parameters' allocas, stores and #dbg_declare records."""
    if not PDI_TEST.exists():
        pytest.skip("conformance file missing")
    got = _check(PDI_TEST.read_text(), "-mergefunc-preserve-debug-info")
    assert "#dbg_declare" in got


def test_preserve_debug_info_interposable_pair_does_not_crash() -> None:
    """opt-19 crashes here (it writes an in-place thunk into a body-less
    function); the body-less holder gets an ordinary thunk instead."""
    text, _ = CASES["two-weak-and-strong"]
    got = _ours(text, {"mergefunc-preserve-debug-info": True})
    assert "define private void @0(i32 %x)" in got
    assert got.count("tail call void @0(") == 2
