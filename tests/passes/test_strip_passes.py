"""The strip passes (``strip``, ``strip-nondebug``, ``strip-debug-declare``)
against opt-19. The expected texts below were produced by opt-19 (19.1.7)
with ``opt-19 -S -passes=X small.ll`` on SMALL; the live comparisons (also on
LLVM's conformance files under Transforms/StripSymbols) skip when opt-19 or
the files are missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.passes import registry
from oracles import LLVM_TEST_ROOT  # noqa: E402

SMALL = '%struct.S = type { i32 }\n@llvm.dbg.keep = internal global i32 0\ndefine internal void @h(i32 %v) !dbg !5 {\nentry:\n  %s = alloca %struct.S, align 4\n    #dbg_declare(ptr %s, !8, !DIExpression(), !9)\n  store i32 %v, ptr %s, align 4, !dbg !9\n  %llvm.dbg.tmp = load i32, ptr @llvm.dbg.keep, align 4\n  ret void, !dbg !9\n}\ndefine void @main() {\n  call void @h(i32 1)\n  ret void\n}\n!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!3, !4}\n!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)\n!1 = !DIFile(filename: "a.c", directory: "/tmp")\n!2 = !{}\n!3 = !{i32 2, !"Debug Info Version", i32 3}\n!4 = !{i32 7, !"Dwarf Version", i32 5}\n!5 = distinct !DISubprogram(name: "h", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)\n!6 = !DISubroutineType(types: !7)\n!7 = !{null}\n!8 = !DILocalVariable(name: "s", scope: !5, file: !1, line: 2, type: !10)\n!9 = !DILocation(line: 2, column: 3, scope: !5)\n!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'

# From `opt-19 -S -passes=strip small.ll`.
EXPECTED_STRIP = '; ModuleID = \'small.ll\'\nsource_filename = "small.ll"\n\n%0 = type { i32 }\n\n@0 = internal global i32 0\n\ndefine internal void @1(i32 %0) {\n  %2 = alloca %0, align 4\n  store i32 %0, ptr %2, align 4\n  %3 = load i32, ptr @0, align 4\n  ret void\n}\n\ndefine void @main() {\n  call void @1(i32 1)\n  ret void\n}\n\n!llvm.module.flags = !{!0, !1}\n\n!0 = !{i32 2, !"Debug Info Version", i32 3}\n!1 = !{i32 7, !"Dwarf Version", i32 5}\n'

# From `opt-19 -S -passes=strip-nondebug small.ll`: llvm.dbg* names and debug info stay.
EXPECTED_STRIP_NONDEBUG = '; ModuleID = \'small.ll\'\nsource_filename = "small.ll"\n\n%0 = type { i32 }\n\n@llvm.dbg.keep = internal global i32 0\n\ndefine internal void @0(i32 %0) !dbg !5 {\n  %2 = alloca %0, align 4\n    #dbg_declare(ptr %2, !8, !DIExpression(), !10)\n  store i32 %0, ptr %2, align 4, !dbg !10\n  %llvm.dbg.tmp = load i32, ptr @llvm.dbg.keep, align 4\n  ret void, !dbg !10\n}\n\ndefine void @main() {\n  call void @0(i32 1)\n  ret void\n}\n\n!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!3, !4}\n\n!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)\n!1 = !DIFile(filename: "a.c", directory: "/tmp")\n!2 = !{}\n!3 = !{i32 2, !"Debug Info Version", i32 3}\n!4 = !{i32 7, !"Dwarf Version", i32 5}\n!5 = distinct !DISubprogram(name: "h", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)\n!6 = !DISubroutineType(types: !7)\n!7 = !{null}\n!8 = !DILocalVariable(name: "s", scope: !5, file: !1, line: 2, type: !9)\n!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n!10 = !DILocation(line: 2, column: 3, scope: !5)\n'

# From `opt-19 -S -passes=strip-debug-declare small.ll`: opt-19 leaves #dbg_declare records alone.
EXPECTED_STRIP_DEBUG_DECLARE = '; ModuleID = \'small.ll\'\nsource_filename = "small.ll"\n\n%struct.S = type { i32 }\n\n@llvm.dbg.keep = internal global i32 0\n\ndefine internal void @h(i32 %v) !dbg !5 {\nentry:\n  %s = alloca %struct.S, align 4\n    #dbg_declare(ptr %s, !8, !DIExpression(), !10)\n  store i32 %v, ptr %s, align 4, !dbg !10\n  %llvm.dbg.tmp = load i32, ptr @llvm.dbg.keep, align 4\n  ret void, !dbg !10\n}\n\ndefine void @main() {\n  call void @h(i32 1)\n  ret void\n}\n\n!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!3, !4}\n\n!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, enums: !2)\n!1 = !DIFile(filename: "a.c", directory: "/tmp")\n!2 = !{}\n!3 = !{i32 2, !"Debug Info Version", i32 3}\n!4 = !{i32 7, !"Dwarf Version", i32 5}\n!5 = distinct !DISubprogram(name: "h", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !2)\n!6 = !DISubroutineType(types: !7)\n!7 = !{null}\n!8 = !DILocalVariable(name: "s", scope: !5, file: !1, line: 2, type: !9)\n!9 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n!10 = !DILocation(line: 2, column: 3, scope: !5)\n'

# From `opt-19 -S -passes=strip block-address.ll` (conformance file, run from its folder).
EXPECTED_BLOCK_ADDRESS = '; ModuleID = \'block-address.ll\'\nsource_filename = "block-address.ll"\n\n@main_addrs = constant [2 x ptr] [ptr blockaddress(@f, %2), ptr blockaddress(@f, %3)]\n\n; Function Attrs: nounwind\ndeclare void @foo() #0\n\n; Function Attrs: nounwind\ndeclare void @bar() #0\n\n; Function Attrs: nounwind ssp uwtable\ndefine void @f(ptr %0) #1 {\n  indirectbr ptr %0, [label %2, label %3]\n\n2:                                                ; preds = %1\n  call void @foo()\n  ret void\n\n3:                                                ; preds = %1\n  call void @bar()\n  ret void\n}\n\nattributes #0 = { nounwind }\nattributes #1 = { nounwind ssp uwtable }\n'

OPT = shutil.which("opt-19")
STRIP_DIR = LLVM_TEST_ROOT / "Transforms/StripSymbols"


def _run(text: str, pipeline: str, name: str = "small.ll") -> str:
    m = parse_assembly(text, name=name)
    llvmpy_mid.run_passes(m, pipeline)
    return print_module(m)


@pytest.mark.parametrize(
    ("pipeline", "expected"),
    [
        ("strip", EXPECTED_STRIP),
        ("strip-nondebug", EXPECTED_STRIP_NONDEBUG),
        ("strip-debug-declare", EXPECTED_STRIP_DEBUG_DECLARE),
    ],
)
def test_matches_recorded_opt_output(pipeline: str, expected: str) -> None:
    assert _run(SMALL, pipeline) == expected


def test_block_address_conformance_recorded() -> None:
    path = STRIP_DIR / "block-address.ll"
    if not path.exists():
        pytest.skip("conformance files missing")
    assert _run(path.read_text(), "strip", name="block-address.ll") == EXPECTED_BLOCK_ADDRESS


def test_llvm_used_keeps_names_and_aliases_keep_names() -> None:
    src = (
        '@llvm.used = appending global [1 x ptr] [ptr @k], section "llvm.metadata"\n'
        "@k = internal global i32 1\n@x = internal global i32 2\n@a = internal alias i32, ptr @x\n"
    )
    out = _run(src, "strip")
    assert "@k = internal global i32 1" in out
    assert "@0 = internal global i32 2" in out
    assert "@a = internal alias i32, ptr @0" in out


def test_registered_as_module_passes() -> None:
    for name in ("strip", "strip-nondebug", "strip-debug-declare"):
        assert registry.kind_of(name) == {"module"}


def _opt(pipeline: str, path: Path) -> str:
    assert OPT is not None
    return subprocess.run([OPT, "-S", "-passes=" + pipeline, str(path)], capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(OPT is None, reason="opt-19 not installed")
@pytest.mark.parametrize("pipeline", ["strip", "strip-nondebug", "strip-debug-declare"])
def test_live_small(pipeline: str, tmp_path: Path) -> None:
    path = tmp_path / "small.ll"
    path.write_text(SMALL)
    assert _run(SMALL, pipeline, name=str(path)) == _opt(pipeline, path)


@pytest.mark.skipif(OPT is None, reason="opt-19 not installed")
@pytest.mark.parametrize("pipeline", ["strip", "strip-nondebug", "strip-debug-declare"])
def test_live_conformance(pipeline: str) -> None:
    files = sorted(STRIP_DIR.glob("*.ll")) if STRIP_DIR.is_dir() else []
    if not files:
        pytest.skip("conformance files missing")
    for path in files:
        assert _run(path.read_text(), pipeline, name=str(path)) == _opt(pipeline, path), path.name
