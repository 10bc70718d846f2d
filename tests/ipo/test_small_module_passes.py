"""The small module passes against opt-19, byte for byte: ``constmerge``,
``elim-avail-extern`` (with ``-avail-extern-to-local``), ``lower-global-dtors``,
``rel-lookup-table-converter`` (relocation and code models, triples) and ``internalize``
(public API globs and file, ``preserve-gv``, comdats, ``llvm.used``, wasm/AIX triples).

Most cases are modules drawn at random from a seed (linkages, unnamed_addr, alignments,
sections, metadata, users), run through both opt-19 and llvmpy_mid; the expected text is
always what opt-19 prints in the test. They skip when opt-19 is not installed. A few checks
without the oracle cover the statistics LLVM counts (opt-19 here is not an asserts build),
pipeline-parameter errors and glob edge cases.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "transform"))
from opt_oracle import assert_same_as_opt, ours_text  # noqa: E402
from oracles import require_tools  # noqa: E402

import llvmpy_mid  # noqa: E402
from llvmpy_mid.asm import parse_assembly  # noqa: E402
from llvmpy_mid.errors import PipelineError  # noqa: E402
from llvmpy_mid.ipo.internalize import GlobPattern, parse_internalize_options  # noqa: E402

def _stats(text: str, pipeline: str, options: dict[str, object] | None = None) -> dict[str, int]:
    """The statistics our run of ``pipeline`` counts on ``text``."""
    result = llvmpy_mid.run_passes(parse_assembly(text), pipeline, options=options)  # type: ignore[arg-type]
    return dict(result.statistics)


_DL = 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"\n'


# --- constmerge ---------------------------------------------------------------------------------


def _constmerge_module(rng: random.Random) -> str:
    lines = [_DL]
    n = rng.randint(3, 9)
    names = ["c%d" % i for i in range(n)]
    used: list[str] = []
    values = ["i32 1", "i32 2", "[2 x i8] c\"a\\00\"", "i64 7", "[3 x i32] [i32 1, i32 2, i32 3]", "{ i32, i64 } zeroinitializer"]
    for name in names:
        linkage = rng.choice(["internal ", "private ", "", "weak_odr ", "linkonce_odr ", "internal ", "private "])
        ua = rng.choice(["", "unnamed_addr ", "local_unnamed_addr ", "unnamed_addr "])
        kind = "constant" if rng.random() < 0.85 else "global"
        tl = "thread_local " if rng.random() < 0.05 else ""
        value = rng.choice(values)
        extra = ""
        if rng.random() < 0.5:
            extra += ", align %d" % rng.choice([1, 2, 4, 8, 16])
        if rng.random() < 0.08:
            extra += ', section "s"'
        if rng.random() < 0.1:
            extra += ", !type !0"
        if rng.random() < 0.1:
            used.append(name)
        lines.append("@%s = %s%s%s%s %s%s" % (name, linkage, tl, ua, kind, value, extra))
    # a constant pointing at another one: merging the targets merges the pointers next round
    lines.append("@p0 = internal unnamed_addr constant ptr @%s" % rng.choice(names))
    lines.append("@p1 = internal unnamed_addr constant ptr @%s" % rng.choice(names))
    if used:
        lines.append(
            "@llvm.%s = appending global [%d x ptr] [%s], section \"llvm.metadata\""
            % (rng.choice(["used", "compiler.used"]), len(used), ", ".join("ptr @" + u for u in used))
        )
    lines.append("define void @use(ptr %out) {")
    for name in names + ["p0", "p1"]:
        if rng.random() < 0.85:
            lines.append("  store volatile ptr @%s, ptr %%out" % name)
    lines.append("  ret void\n}")
    lines.append("!0 = !{i64 0, !\"t\"}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(16))
def test_constmerge_random_modules(seed: int) -> None:
    assert_same_as_opt(_constmerge_module(random.Random(seed)), "constmerge")


def test_constmerge_keeps_dbg_and_counts_merges() -> None:
    text = _DL + """
@a = internal unnamed_addr constant i32 5, align 4, !dbg !0
@b = internal unnamed_addr constant i32 5, align 8, !dbg !3
define ptr @f(i1 %c) {
  %r = select i1 %c, ptr @a, ptr @b
  ret ptr %r
}
!llvm.dbg.cu = !{!5}
!llvm.module.flags = !{!8}
!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "a", scope: !5, file: !6, line: 1, type: !7, isLocal: true, isDefinition: true)
!3 = !DIGlobalVariableExpression(var: !4, expr: !DIExpression())
!4 = distinct !DIGlobalVariable(name: "b", scope: !5, file: !6, line: 2, type: !7, isLocal: true, isDefinition: true)
!5 = distinct !DICompileUnit(language: DW_LANG_C99, file: !6, emissionKind: FullDebug)
!6 = !DIFile(filename: "t.c", directory: "/")
!7 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!8 = !{i32 2, !"Debug Info Version", i32 3}
"""
    assert_same_as_opt(text, "constmerge")
    assert _stats(text, "constmerge") == {"constmerge.NumIdenticalMerged": 1}


# --- elim-avail-extern ------------------------------------------------------------------------------


def _avail_extern_module(rng: random.Random) -> str:
    lines = [_DL, "declare void @sink(ptr)"]
    for i in range(rng.randint(1, 3)):
        vis = rng.choice(["", "hidden ", "protected "])
        lines.append("@v%d = available_externally %sglobal [2 x i32] [i32 %d, i32 1], align 4" % (i, vis, i))
    for i in range(rng.randint(1, 4)):
        vis = rng.choice(["", "hidden "])
        lines.append("define available_externally %si32 @f%d(i32 %%x) {\n  %%y = add i32 %%x, %d\n  ret i32 %%y\n}" % (vis, i, i))
    lines.append("define %svoid @main(ptr %%p) {" % rng.choice(["", "internal "]))
    for i in range(4):
        r = rng.random()
        if r < 0.4:
            lines.append("  %%c%d = call i32 @f%d(i32 1)" % (i, i))
        elif r < 0.6:
            lines.append("  call void @sink(ptr @f%d)" % i)
        elif r < 0.8:
            lines.append("  store ptr @f%d, ptr %%p" % i)
    lines.append("  %g = getelementptr [2 x i32], ptr @v0, i64 0, i64 1\n  call void @sink(ptr %g)")
    lines.append("  ret void\n}")
    if rng.random() < 0.5:
        lines.append("@exported = global i32 0")
    if rng.random() < 0.3:
        lines.append("@tab = internal global ptr getelementptr (i8, ptr @f0, i64 4)")
    body = "\n".join(lines) + "\n"
    # drop references to functions this draw did not define
    defined = {int(line.split("@f")[1].split("(")[0]) for line in lines if line.startswith("define available_externally")}
    return "\n".join(
        line for line in body.splitlines() if not any(("@f%d" % i) in line and i not in defined for i in range(4))
    ) + "\n"


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("to_local", [False, True])
def test_elim_avail_extern_random_modules(seed: int, to_local: bool) -> None:
    options: dict[str, object] = {"avail-extern-to-local": True} if to_local else {}
    assert_same_as_opt(_avail_extern_module(random.Random(seed)), "elim-avail-extern", options)


def test_elim_avail_extern_renames_the_subprogram_linkage_name() -> None:
    text = """
define available_externally void @f() !dbg !4 {
  ret void
}
define available_externally void @g() !dbg !9 {
  ret void
}
define void @h() {
  call void @f()
  call void @g()
  ret void
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", linkageName: "f", scope: !1, file: !1, line: 1, type: !5, unit: !0, spFlags: DISPFlagDefinition)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!9 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 2, type: !5, unit: !0, spFlags: DISPFlagDefinition)
"""
    assert_same_as_opt(text, "elim-avail-extern", {"avail-extern-to-local": True})


def test_elim_avail_extern_statistics() -> None:
    text = """
declare void @call_out(ptr)
define available_externally hidden void @f() {
  ret void
}
define available_externally hidden void @g() {
  ret void
}
@v = available_externally global i32 1
define void @hello() {
  call void @f()
  call void @call_out(ptr @f)
  ret void
}
"""
    assert _stats(text, "elim-avail-extern", {"avail-extern-to-local": True}) == {
        "elim-avail-extern.NumVariables": 1,
        "elim-avail-extern.NumConversions": 1,
        "elim-avail-extern.NumRemovals": 1,
    }


# --- lower-global-dtors ------------------------------------------------------------------------------


def _dtors_module(rng: random.Random) -> str:
    lines = [_DL]
    assoc = ["null", "@a0", "@a1"]
    lines.append("@a0 = global i8 1")
    lines.append("@a1 = external global i8")
    entries: list[str] = []
    for i in range(rng.randint(1, 8)):
        prio = rng.choice([0, 1, 1, 7, 65535, 65535, 70000])
        fn = "@d%d" % i if rng.random() < 0.95 else "null"
        entries.append("{ i32, ptr, ptr } { i32 %d, ptr %s, ptr %s }" % (prio, fn, rng.choice(assoc)))
        lines.append("declare void @d%d()" % i)
    lines.append("@llvm.global_dtors = appending global [%d x { i32, ptr, ptr }] [%s]" % (len(entries), ", ".join(entries)))
    if rng.random() < 0.4:
        lines.append("declare void @ctor()")
        lines.append("@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 3, ptr @ctor, ptr null }]")
    r = rng.random()
    if r < 0.2:
        lines.append("define i32 @__cxa_atexit(ptr %f, ptr %p, ptr %d) {\n  ret i32 0\n}")
    elif r < 0.3:
        lines.append("define i32 @__cxa_atexit(ptr %f, ptr %p, ptr %d) {\n  call void %f(ptr %p)\n  ret i32 0\n}")
    if rng.random() < 0.2:
        lines.append("@__dso_handle = external global { i32, i32 }")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(15))
def test_lower_global_dtors_random_modules(seed: int) -> None:
    assert_same_as_opt(_dtors_module(random.Random(seed)), "lower-global-dtors")


@pytest.mark.parametrize(
    "init",
    [
        "@llvm.global_dtors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 1, ptr null, ptr null },"
        " { i32, ptr, ptr } { i32 2, ptr @d, ptr null }]",
        "@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] zeroinitializer",
        "@llvm.global_dtors = appending global [0 x { i32, ptr, ptr }] zeroinitializer",
        "@llvm.global_dtors = external global [1 x { i32, ptr, ptr }]",
    ],
)
def test_lower_global_dtors_leaves_malformed_lists(init: str) -> None:
    assert_same_as_opt("declare void @d()\n" + init + "\n", "lower-global-dtors")


# --- rel-lookup-table-converter -------------------------------------------------------------------


def _rel_table_module(rng: random.Random, triple: str) -> str:
    lines = [_DL, 'target triple = "%s"' % triple]
    for i in range(4):
        linkage = rng.choice(["private unnamed_addr ", "internal ", "", "private "])
        kind = "constant" if rng.random() < 0.9 else "global"
        lines.append("@s%d = %s%s [4 x i8] c\"ab%d\\00\", align 1" % (i, linkage, kind, i))
    lines.append("@e = external global i32")
    for t in range(3):
        linkage = rng.choice(["private unnamed_addr ", "internal ", "", "internal unnamed_addr "])
        elems = []
        for _ in range(3):
            r = rng.random()
            if r < 0.8:
                elems.append("ptr @s%d" % rng.randrange(4))
            elif r < 0.9:
                elems.append("ptr getelementptr inbounds (i8, ptr @s%d, i64 1)" % rng.randrange(4))
            else:
                elems.append("ptr @e")
        kind = "constant" if rng.random() < 0.9 else "global"
        lines.append("@t%d = %s%s [3 x ptr] [%s], align 8" % (t, linkage, kind, ", ".join(elems)))
    for t in range(3):
        idx_ty = rng.choice(["i32", "i64"])
        lines.append("define ptr @get%d(%s %%i) {" % (t, idx_ty))
        idx = "%i" if rng.random() < 0.8 else "%s 2" % idx_ty
        if idx.startswith("%"):
            idx = "%s %%i" % idx_ty
        lines.append("  %%g = getelementptr inbounds [3 x ptr], ptr @t%d, %s 0, %s" % (t, idx_ty, idx))
        if rng.random() < 0.3:
            lines.append("  %x = add i32 0, 1")
        lines.append("  %l = load ptr, ptr %g")
        if rng.random() < 0.15:
            lines.append("  %l2 = load ptr, ptr %g")
        lines.append("  ret ptr %l\n}")
    return "\n".join(lines) + "\n"


_REL_MODELS: list[tuple[str, dict[str, object]]] = [
    ("x86_64-unknown-linux-gnu", {}),
    ("x86_64-unknown-linux-gnu", {"relocation-model": "pic", "code-model": "medium"}),
    ("x86_64-unknown-linux-gnu", {"relocation-model": "dynamic-no-pic"}),
    ("x86_64-apple-macosx10.15.0", {}),
    ("x86_64-pc-windows-msvc", {}),
]
_REL_CASES = [(seed, "x86_64-unknown-linux-gnu", {"relocation-model": "pic"}) for seed in range(8)] + [
    (seed, triple, options) for seed in range(3) for triple, options in _REL_MODELS
]


@pytest.mark.parametrize("seed,triple,options", _REL_CASES)
def test_rel_lookup_table_random_modules(seed: int, triple: str, options: dict[str, object]) -> None:
    assert_same_as_opt(_rel_table_module(random.Random(seed), triple), "rel-lookup-table-converter", options)


def test_rel_lookup_table_rejects_unknown_relocation_model() -> None:
    text = _rel_table_module(random.Random(0), "x86_64-unknown-linux-gnu")
    with pytest.raises(PipelineError, match="Cannot find option named 'picky'"):
        ours_text(text, "rel-lookup-table-converter", {"relocation-model": "picky"})


# --- internalize -----------------------------------------------------------------------------------


_NAMES = ["main", "foo", "bar", "bar1", "_x", "y_", "a", "b", "j", "__stack_chk_guard", "__stack_chk_fail",
          "__ssp_canary_word", "c1", "c2"]  # fmt: skip


def _internalize_module(rng: random.Random, triple: str) -> str:
    lines = [_DL]
    if triple:
        lines.append('target triple = "%s"' % triple)
    comdats = ["c1", "c2"]
    for c in comdats:
        lines.append("$%s = comdat %s" % (c, rng.choice(["any", "any", "largest"])))
    names = rng.sample(_NAMES, 9)
    used: list[str] = []
    kinds: dict[str, str] = {}
    for name in names:
        kind = rng.choice(["fn", "fn", "var", "var", "decl"])
        kinds[name] = kind
        linkage = rng.choice(["", "", "linkonce_odr ", "weak ", "internal ", "available_externally ", "common "])
        vis = rng.choice(["", "", "hidden ", "protected "]) if linkage != "internal " else ""
        dll = "dllexport " if rng.random() < 0.08 and vis != "hidden " and linkage != "internal " else ""
        comdat = " comdat($%s)" % rng.choice(comdats) if rng.random() < 0.3 and linkage != "available_externally " else ""
        if kind == "fn":
            if linkage == "common ":
                linkage = ""
            lines.append("define %s%s%svoid @%s()%s {\n  ret void\n}" % (linkage, vis, dll, name, comdat))
        elif kind == "var":
            ext = "externally_initialized " if rng.random() < 0.1 else ""
            init = "zeroinitializer" if linkage == "common " else "0"
            if linkage == "common ":
                comdat = ""
            comdat = comdat.replace(" comdat", ", comdat")
            lines.append("@%s = %s%s%s%sglobal i32 %s%s" % (name, linkage, vis, dll, ext, init, comdat))
        else:
            lines.append("declare void @%s()" % name)
        if rng.random() < 0.15:
            used.append(name)
    defs = [n for n in names if kinds[n] != "decl"]
    for i in range(rng.randint(0, 2)):
        if defs:
            linkage = rng.choice(["", "internal ", "weak "])
            lines.append("@al%d = %salias i32, ptr @%s" % (i, linkage, rng.choice(defs)))
    if used:
        lines.append(
            "@llvm.used = appending global [%d x ptr] [%s], section \"llvm.metadata\""
            % (len(used), ", ".join("ptr @" + u for u in used))
        )
    return "\n".join(lines) + "\n"


_PATTERN_ATOMS = ["main", "foo", "bar?", "_*", "*_", "[ab]", "[^ab]", "[!a-c]", "c[0-9]", "b*", "*", "?", "\\m*", "j"]


@pytest.mark.parametrize("seed", range(20))
def test_internalize_random_modules(seed: int) -> None:
    rng = random.Random(seed)
    triple = rng.choice(["", "x86_64-unknown-linux-gnu", "wasm32-unknown-unknown", "powerpc64-ibm-aix-xcoff"])
    text = _internalize_module(rng, triple)
    patterns = ",".join(rng.sample(_PATTERN_ATOMS, rng.randint(0, 3)))
    options: dict[str, object] = {"internalize-public-api-list": patterns} if patterns else {}
    assert_same_as_opt(text, "internalize", options)
    names = rng.sample(["main", "foo", "bar", "a", "j", "c1"], 2)
    assert_same_as_opt(text, "internalize<preserve-gv=%s;preserve-gv=%s>" % tuple(names))


def test_internalize_api_file(tmp_path: Path) -> None:
    api = tmp_path / "api"
    api.write_text("foo\n\nb*\r\n[z-a]\n")
    text = _internalize_module(random.Random(3), "x86_64-unknown-linux-gnu")
    assert_same_as_opt(text, "internalize", {"internalize-public-api-file": str(api)})
    assert_same_as_opt(text, "internalize", {"internalize-public-api-file": str(tmp_path / "missing")})


def test_internalize_statistics_and_parameters() -> None:
    text = """
define void @main() {
  ret void
}
define void @f() {
  ret void
}
@g = global i32 0
@al = alias i32, ptr @g
"""
    assert _stats(text, "internalize", {"internalize-public-api-list": "main"}) == {"internalize.NumFunctions": 1, "internalize.NumGlobals": 1, "internalize.NumAliases": 1}
    assert parse_internalize_options("preserve-gv=a;preserve-gv=b") == ("a", "b")
    assert parse_internalize_options("") is None
    with pytest.raises(PipelineError, match="invalid Internalize pass parameter 'keep=a'"):
        llvmpy_mid.run_passes(parse_assembly(text), "internalize<keep=a>")


@pytest.mark.parametrize(
    "pattern,name,matches",
    [
        ("[]]x", "]x", True),
        ("a\\*", "a*", True),
        ("a\\*", "ab", False),
        ("*a*b", "xxaxxb", True),
        ("*a*b", "xxaxxbc", False),
        ("[a-c]?*", "b", False),
        ("[a-c]?*", "bz", True),
        ("{a,b}", "{a,b}", True),
        ("ab**", "ab", True),
    ],
)
def test_glob_patterns(pattern: str, name: str, matches: bool) -> None:
    assert GlobPattern.create(pattern).match(name) is matches


def test_print_pipeline_passes_as_opt() -> None:
    import subprocess

    pipeline = "constmerge,elim-avail-extern,lower-global-dtors,rel-lookup-table-converter,internalize<preserve-gv=a>"
    args = ["-passes=" + pipeline, "-print-pipeline-passes", "-disable-output", "-"]
    require_tools("opt-19")
    expected = subprocess.run(["opt-19", *args], input="", capture_output=True, text=True).stdout
    got = subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], input="", capture_output=True, text=True).stdout
    assert got == expected
