"""``strip-dead-debug-info`` against ``opt-19 -passes=strip-dead-debug-info -S``.

Every input is first printed by ``opt-19 -S`` (no passes), so it is text as
LLVM's printer writes it; our output on it must equal opt-19's byte for byte
(the ``; ModuleID`` line aside) and verify. Inputs: hand-made modules (dead
global variables, constant-valued ones, expressions shared by two units,
live and dead subprograms, units reached only through scopes, imports or
inlined locations, several units, none), modules where ``globaldce`` deleted
globals first, csmith ``-O2 -g`` files (a sample; all under ``--run-slow``)
and clang-19 ``-g -O1`` output of small C programs with unused statics, alone
and linked into one module. Skips when opt-19 (or clang-19, llvm-link-19,
the csmith cache) is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from csmith_files import csmith_paths

import llvmpy_mid
from llvmpy_mid.asm import parse_assembly, print_module
from llvmpy_mid.ipo.strip_dead_debug_info import StripDeadDebugInfoPass, is_constant_expression
from llvmpy_mid.ir.debug_info import DIExpression
from llvmpy_mid.ir.context import Context
from llvmpy_mid.passes import registry
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.preserved import CFGAnalyses

OPT = shutil.which("opt-19")
CLANG = shutil.which("clang-19")
LINK = shutil.which("llvm-link-19")
PASS = "strip-dead-debug-info"

needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

_HEADER = '!llvm.module.flags = !{!3}\n!3 = !{i32 2, !"Debug Info Version", i32 3}\n'
_INT = '!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)\n'
_VOID_FN = "!21 = !DISubroutineType(types: !23)\n!23 = !{null}\n"

# A global with debug info, one without, dead and constant-valued expressions,
# a dead subprogram reached through an import, a retained type, three units
# (one dead, one live only through the import).
MIXED = (
    "@live = global i32 1, !dbg !10\n@nodbg = global i32 2\n\n"
    "define void @f() !dbg !20 {\n  ret void, !dbg !22\n}\n\n"
    "!llvm.dbg.cu = !{!0, !30, !40}\n" + _HEADER + _INT + _VOID_FN
    + '!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug, retainedTypes: !50, globals: !2, imports: !52)\n"
    '!1 = !DIFile(filename: "a.c", directory: "/tmp")\n'
    "!2 = !{!10, !12, !14, !16}\n"
    "!10 = !DIGlobalVariableExpression(var: !11, expr: !DIExpression())\n"
    '!11 = distinct !DIGlobalVariable(name: "live", scope: !0, file: !1, line: 1, type: !13, isLocal: false, isDefinition: true)\n'
    "!12 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression())\n"
    "!14 = !DIGlobalVariableExpression(var: !17, expr: !DIExpression(DW_OP_constu, 42, DW_OP_stack_value))\n"
    '!15 = distinct !DIGlobalVariable(name: "dead", scope: !0, file: !1, line: 2, type: !13, isLocal: true, isDefinition: true)\n'
    "!16 = !DIGlobalVariableExpression(var: !18, expr: !DIExpression(DW_OP_plus_uconst, 4))\n"
    '!17 = distinct !DIGlobalVariable(name: "k", scope: !0, file: !1, line: 3, type: !13, isLocal: true, isDefinition: true)\n'
    '!18 = distinct !DIGlobalVariable(name: "d2", scope: !0, file: !1, line: 4, type: !13, isLocal: true, isDefinition: true)\n'
    '!20 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !21, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)\n'
    "!22 = !DILocation(line: 1, scope: !20)\n"
    '!30 = distinct !DICompileUnit(language: DW_LANG_C11, file: !31, producer: "y", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug, globals: !32)\n"
    '!31 = !DIFile(filename: "b.c", directory: "/tmp")\n!32 = !{!33}\n'
    "!33 = !DIGlobalVariableExpression(var: !34, expr: !DIExpression())\n"
    '!34 = distinct !DIGlobalVariable(name: "bdead", scope: !30, file: !31, line: 1, type: !13, isLocal: true, isDefinition: true)\n'
    '!35 = distinct !DISubprogram(name: "gone", scope: !31, file: !31, line: 5, type: !21, scopeLine: 5, spFlags: DISPFlagDefinition, unit: !30)\n'
    '!40 = distinct !DICompileUnit(language: DW_LANG_C11, file: !41, producer: "z", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
    '!41 = !DIFile(filename: "c.c", directory: "/tmp")\n'
    "!50 = !{!13}\n!52 = !{!53}\n"
    "!53 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !0, entity: !35, file: !1, line: 9)\n"
)

# The only global variable's debug info is dead: the unit's list becomes !{},
# the unit is dead and !llvm.dbg.cu is left empty.
ALL_DEAD = (
    "@g = global i32 1\n!llvm.dbg.cu = !{!0}\n" + _HEADER + _INT
    + '!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug, globals: !2)\n"
    '!1 = !DIFile(filename: "a.c", directory: "/tmp")\n!2 = !{!4}\n'
    "!4 = !DIGlobalVariableExpression(var: !5, expr: !DIExpression())\n"
    '!5 = distinct !DIGlobalVariable(name: "dead", scope: !0, file: !1, line: 2, type: !13, isLocal: true, isDefinition: true)\n'
)

# An expression listed twice and by two units, two !dbg on one global,
# every shape of constant expression (and near misses).
SHARED = (
    "@a = global i32 1, !dbg !10\n@b = global i32 2, !dbg !10, !dbg !14\n\n"
    "define void @f() !dbg !20 {\n  ret void, !dbg !22\n}\n\n"
    "!llvm.dbg.cu = !{!0, !30}\n" + _HEADER + _INT + _VOID_FN
    + '!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug, globals: !2)\n"
    '!1 = !DIFile(filename: "a.c", directory: "/tmp")\n'
    "!2 = !{!10, !12, !10, !16, !17, !18, !19}\n"
    "!10 = !DIGlobalVariableExpression(var: !11, expr: !DIExpression())\n"
    '!11 = distinct !DIGlobalVariable(name: "a", scope: !0, file: !1, line: 1, type: !13, isLocal: false, isDefinition: true)\n'
    "!12 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression())\n"
    "!14 = !DIGlobalVariableExpression(var: !11, expr: !DIExpression(DW_OP_plus_uconst, 4))\n"
    '!15 = distinct !DIGlobalVariable(name: "dead", scope: !0, file: !1, line: 2, type: !13, isLocal: true, isDefinition: true)\n'
    "!16 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression(DW_OP_consts, 18446744073709551615))\n"
    "!17 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression(DW_OP_constu, 3, DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 16))\n"
    "!18 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression(DW_OP_constu, 3, DW_OP_plus_uconst, 1, DW_OP_stack_value))\n"
    "!19 = !DIGlobalVariableExpression(var: !15, expr: !DIExpression(DW_OP_consts, 3, DW_OP_LLVM_fragment, 16, 16))\n"
    '!20 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !21, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)\n'
    "!22 = !DILocation(line: 1, scope: !20)\n"
    '!30 = distinct !DICompileUnit(language: DW_LANG_C11, file: !31, producer: "y", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug, globals: !32)\n"
    '!31 = !DIFile(filename: "b.c", directory: "/tmp")\n!32 = !{!10, !12, !33, !35}\n'
    "!33 = !DIGlobalVariableExpression(var: !34, expr: !DIExpression(DW_OP_constu, 3))\n"
    '!34 = distinct !DIGlobalVariable(name: "bk", scope: !30, file: !31, line: 1, type: !13, isLocal: true, isDefinition: true)\n'
    "!35 = !DIGlobalVariableExpression(var: !34, expr: !DIExpression(DW_OP_constu))\n"
)

# Units live only through an inlined location's scope chain, a local
# variable's type scope (a namespace), a declaration's subprogram; one dead.
SCOPES = (
    "define void @f() {\n  ret void, !dbg !22\n}\n\n"
    "define void @g(i32 %x) !dbg !40 {\n    #dbg_value(i32 %x, !44, !DIExpression(), !45)\n  ret void\n}\n\n"
    "declare !dbg !50 void @decl()\n\n"
    "!llvm.dbg.cu = !{!0, !30, !60, !70}\n" + _HEADER + _VOID_FN
    + '!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
    '!1 = !DIFile(filename: "a.c", directory: "/tmp")\n'
    '!20 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !21, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)\n'
    "!22 = !DILocation(line: 1, scope: !24, inlinedAt: !25)\n"
    "!24 = distinct !DILexicalBlock(scope: !26, file: !1, line: 3)\n!25 = !DILocation(line: 2, scope: !20)\n"
    '!26 = distinct !DISubprogram(name: "inl", scope: !1, file: !1, line: 1, type: !21, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !30)\n'
    '!30 = distinct !DICompileUnit(language: DW_LANG_C11, file: !31, producer: "y", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
    '!31 = !DIFile(filename: "b.c", directory: "/tmp")\n'
    '!40 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 1, type: !21, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)\n'
    '!44 = !DILocalVariable(name: "x", arg: 1, scope: !40, file: !1, line: 1, type: !46)\n'
    "!45 = !DILocation(line: 1, scope: !40)\n"
    '!46 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "S", scope: !61, file: !1, line: 1, size: 32, elements: !47)\n'
    "!47 = !{}\n"
    '!50 = !DISubprogram(name: "decl", scope: !1, file: !1, line: 1, type: !21, spFlags: 0)\n'
    '!60 = distinct !DICompileUnit(language: DW_LANG_C11, file: !31, producer: "z", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
    '!61 = !DINamespace(name: "ns", scope: !60)\n'
    '!70 = distinct !DICompileUnit(language: DW_LANG_C11, file: !31, producer: "w", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
)

# Two units, both live through functions, a third dead: the rebuilt list keeps
# the definition order.
THREE_UNITS = (
    "define void @f() !dbg !20 {\n  ret void\n}\n\ndefine void @h() !dbg !36 {\n  ret void\n}\n\n"
    "!llvm.dbg.cu = !{!30, !0, !40}\n" + _HEADER + _VOID_FN
    + '!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
    '!1 = !DIFile(filename: "a.c", directory: "/tmp")\n'
    '!20 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !21, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)\n'
    '!30 = distinct !DICompileUnit(language: DW_LANG_C11, file: !31, producer: "y", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
    '!31 = !DIFile(filename: "b.c", directory: "/tmp")\n'
    '!36 = distinct !DISubprogram(name: "h", scope: !31, file: !31, line: 1, type: !21, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !30)\n'
    '!40 = distinct !DICompileUnit(language: DW_LANG_C11, file: !31, producer: "z", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
)

# Internal globals with debug info that globaldce deletes before the pass.
FOR_GLOBALDCE = (
    "@unused = internal global i32 5, !dbg !10\n@used = internal global i32 7, !dbg !12\n\n"
    "define i32 @main() !dbg !20 {\n  %v = load i32, ptr @used, align 4, !dbg !22\n  ret i32 %v, !dbg !22\n}\n\n"
    "define internal void @dead_fn() !dbg !24 {\n  ret void, !dbg !25\n}\n\n"
    "!llvm.dbg.cu = !{!0}\n" + _HEADER + _INT
    + '!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: true, '
    "runtimeVersion: 0, emissionKind: FullDebug, globals: !2)\n"
    '!1 = !DIFile(filename: "a.c", directory: "/tmp")\n!2 = !{!10, !12}\n'
    "!10 = !DIGlobalVariableExpression(var: !11, expr: !DIExpression())\n"
    '!11 = distinct !DIGlobalVariable(name: "unused", scope: !0, file: !1, line: 1, type: !13, isLocal: true, isDefinition: true)\n'
    "!12 = !DIGlobalVariableExpression(var: !14, expr: !DIExpression())\n"
    '!14 = distinct !DIGlobalVariable(name: "used", scope: !0, file: !1, line: 2, type: !13, isLocal: true, isDefinition: true)\n'
    '!20 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 3, type: !21, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)\n'
    "!21 = !DISubroutineType(types: !23)\n!22 = !DILocation(line: 3, scope: !20)\n!23 = !{!13}\n"
    '!24 = distinct !DISubprogram(name: "dead_fn", scope: !1, file: !1, line: 4, type: !21, scopeLine: 4, spFlags: DISPFlagDefinition, unit: !0)\n'
    "!25 = !DILocation(line: 4, scope: !24)\n"
)

# Units that emit no debug info (``emissionKind: NoDebug``, also by default) are not looked at
# unless a function reaches them: alone they never make the list be rebuilt; with dead units
# that emit debug info (FullDebug, LineTablesOnly) it is, with the reached units only.
NODEBUG_UNITS = (
    "define void @f() !dbg !20 {\n  ret void\n}\n\n"
    "!llvm.dbg.cu = !{!0, !30, !40, !44}\n" + _HEADER + _VOID_FN
    + '!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "x", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: NoDebug)\n"
    '!1 = !DIFile(filename: "a.c", directory: "/tmp")\n'
    '!20 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !21, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)\n'
    '!30 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "y", isOptimized: false, runtimeVersion: 0)\n'
    '!40 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "z", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: FullDebug)\n"
    '!44 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "w", isOptimized: false, '
    "runtimeVersion: 0, emissionKind: LineTablesOnly)\n"
)

NO_DEBUG = "@g = internal global i32 1\n\ndefine i32 @f() {\n  %v = load i32, ptr @g, align 4\n  ret i32 %v\n}\n"

C_PROGRAMS = {
    "u1.c": "static int unused_s = 5;\nstatic int used_s = 7;\nint g1 = 3;\nstatic const int kconst = 42;\n"
    "int f1(int x) { return x + used_s + kconst; }\n",
    "u2.c": "static int dead2[10];\nstatic int cnt;\nstatic void helper(void) { cnt++; }\n"
    "int f2(int y) { helper(); return y * 2; }\n",
    "u3.c": "int g3;\nstatic int tbl[4] = {1, 2, 3, 4};\nstatic double unused_d;\nint main(void) { return tbl[g3]; }\n",
}


def _tool(args: list[str], cwd: Path | None = None) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, cwd=cwd).stdout


def _canonical(text: str, tmp_path: Path, name: str = "in.ll", passes: str | None = None) -> Path:
    """``text`` as opt-19 prints it (after ``passes`` when given), in a file."""
    raw = tmp_path / ("raw_" + name)
    raw.write_text(text)
    path = tmp_path / name
    assert OPT is not None
    args = [OPT, "-S", str(raw), "-o", str(path)]
    if passes:
        args.insert(2, "-passes=" + passes)
        args.insert(3, "-internalize-public-api-list=main")
    subprocess.run(args, check=True, capture_output=True)
    return path


def _ours(path: Path) -> str:
    m = parse_assembly(path.read_text(), name=str(path))
    llvmpy_mid.run_passes(m, PASS)
    llvmpy_mid.verify_module(m)
    return print_module(m)


def _check(path: Path) -> str:
    assert OPT is not None
    expected = _tool([OPT, "-S", "-passes=" + PASS, str(path)])
    ours = _ours(path)
    assert ours.split("\n", 1)[1] == expected.split("\n", 1)[1], path.name
    return expected


@needs_opt
@pytest.mark.parametrize(
    "name", ["MIXED", "ALL_DEAD", "SHARED", "SCOPES", "THREE_UNITS", "FOR_GLOBALDCE", "NO_DEBUG", "NODEBUG_UNITS"]
)
def test_hand_made_modules(name: str, tmp_path: Path) -> None:
    _check(_canonical(globals()[name], tmp_path))


@pytest.mark.parametrize(
    "units,kept", [("!0, !30, !40, !44", ["x"]), ("!0, !30", ["x", "y"]), ("!30", ["y"])]
)
def test_unreached_nodebug_units(units: str, kept: list[str]) -> None:
    m = parse_assembly(NODEBUG_UNITS.replace("!{!0, !30, !40, !44}", "!{%s}" % units))
    llvmpy_mid.run_passes(m, PASS)
    nmd = m.get_named_metadata("llvm.dbg.cu")
    assert nmd is not None
    producers = [dict(zip(cu.field_names, cu.field_values))["producer"] for cu in nmd.operands]
    assert [str(getattr(p, "string", p)) for p in producers] == kept


@needs_opt
def test_llvm_find_live_cu(tmp_path: Path) -> None:
    from oracles import LLVM_TEST_ROOT

    path = LLVM_TEST_ROOT / "Transforms/StripSymbols/find-live-cu.ll"
    if not path.is_file():
        pytest.skip("LLVM's tests are not here")
    _check(path)


@needs_opt
def test_behaviour_seen_in_opt_output(tmp_path: Path) -> None:
    out = _check(_canonical(MIXED, tmp_path))
    assert '"dead"' not in out and '"d2"' not in out and '"bdead"' not in out
    assert '"k"' in out and '"live"' in out and '"gone"' in out  # constant kept; import kept
    assert 'producer: "z"' not in out and 'producer: "y"' in out  # dead unit dropped, imported unit kept
    out = _check(_canonical(ALL_DEAD, tmp_path))
    assert "!llvm.dbg.cu = !{}" in out and "DICompileUnit" not in out
    out = _check(_canonical(THREE_UNITS, tmp_path))
    assert out.count("DICompileUnit") == 2


@needs_opt
def test_after_globaldce(tmp_path: Path) -> None:
    path = _canonical(FOR_GLOBALDCE, tmp_path, passes="globaldce")
    assert '"unused"' in path.read_text()  # globaldce leaves the debug info behind
    out = _check(path)
    assert '"unused"' not in out and '"used"' in out and '"dead_fn"' not in out


def test_registered_and_preserves_cfg() -> None:
    assert registry.kind_of(PASS) == {"module"}
    m = parse_assembly(NO_DEBUG)
    pa = StripDeadDebugInfoPass().run(m, AnalysisManager())
    assert pa.all_analyses_in_set_preserved(CFGAnalyses) and not pa.are_all_preserved()


def test_constant_expressions() -> None:
    ctx = Context()
    yes = [
        ("DW_OP_constu", 1), ("DW_OP_consts", 1), ("DW_OP_constu", 1, "DW_OP_stack_value"),
        ("DW_OP_consts", 2, "DW_OP_stack_value", "DW_OP_LLVM_fragment", 0, 8),
    ]
    no = [
        (), ("DW_OP_constu",), ("DW_OP_constu", 1, "DW_OP_plus_uconst", 1),
        ("DW_OP_consts", 1, "DW_OP_LLVM_fragment", 0, 8), ("DW_OP_plus_uconst", 1),
        ("DW_OP_constu", 1, "DW_OP_stack_value", "DW_OP_plus_uconst", 1, 2),
    ]
    assert all(is_constant_expression(DIExpression.get(ctx, e)) for e in yes)
    assert not any(is_constant_expression(DIExpression.get(ctx, e)) for e in no)
    assert not is_constant_expression(None)


def _csmith_files() -> list[Path]:
    return [p for p in csmith_paths() if p.name.endswith(".O2g.ll")]


@needs_opt
def test_csmith_sample(tmp_path: Path) -> None:
    files = _csmith_files()
    if not files:
        pytest.skip("no csmith cache")
    for src in files[:2]:
        _check(src)
        _check(_canonical(src.read_text(), tmp_path, src.name, passes="internalize,globaldce"))


@needs_opt
@pytest.mark.slow
def test_csmith_all(tmp_path: Path) -> None:
    files = _csmith_files()
    if not files:
        pytest.skip("no csmith cache")
    for src in files:
        _check(src)
        _check(_canonical(src.read_text(), tmp_path, src.name, passes="internalize,globaldce"))


def _compile(tmp_path: Path) -> list[Path]:
    if CLANG is None:
        pytest.skip("clang-19 not installed")
    out = []
    for name, text in C_PROGRAMS.items():
        (tmp_path / name).write_text(text)
        ll = tmp_path / name.replace(".c", ".ll")
        subprocess.run([CLANG, "-g", "-O1", "-S", "-emit-llvm", name, "-o", ll.name], cwd=tmp_path, check=True)
        out.append(ll)
    return out


@needs_opt
def test_clang_programs_with_unused_statics(tmp_path: Path) -> None:
    for ll in _compile(tmp_path):
        _check(ll)
        _check(_canonical(ll.read_text(), tmp_path, "dce_" + ll.name, passes="internalize,globaldce"))


def _cu_line(text: str) -> str:
    found = re.search(r"^!llvm\.dbg\.cu = .*$", text, re.M)
    return found.group(0) if found else ""


@needs_opt
@pytest.mark.skipif(LINK is None, reason="llvm-link-19 not installed")
def test_linked_units(tmp_path: Path) -> None:
    """Linked units after internalize+globaldce. u2 + u3: only the unit of main
    lives. All three: u1 also lives (its constant-valued statics), compared
    without the order of ``!llvm.dbg.cu``, which LLVM takes from the units'
    addresses in memory."""
    lls = _compile(tmp_path)
    assert LINK is not None and OPT is not None
    pair = _tool([LINK, "-S", str(lls[1]), str(lls[2])])
    out = _check(_canonical(pair, tmp_path, "pair.ll", passes="internalize,globaldce"))
    assert out.count("DICompileUnit") == 1
    three = _tool([LINK, "-S", *[str(p) for p in lls]])
    path = _canonical(three, tmp_path, "three.ll", passes="internalize,globaldce")
    expected = _tool([OPT, "-S", "-passes=" + PASS, str(path)])
    ours = _ours(path)
    units = sorted(re.findall(r"!\d+", _cu_line(expected)))
    assert sorted(re.findall(r"!\d+", _cu_line(ours))) == units and len(units) == 2
    strip = re.compile(r"^!llvm\.dbg\.cu = .*$", re.M)
    assert strip.sub("", ours).split("\n", 1)[1] == strip.sub("", expected).split("\n", 1)[1]
