"""Optimisation remarks: the YAML scalar rules, the remark streamer, GVN's and
SimplifyLibCalls' remarks compared with opt-19 (``-pass-remarks*``, ``-pass-remarks-output``)
on hand-written functions and csmith programs, and the command line's errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import llvmpy_mid  # noqa: E402
from csmith_files import csmith_paths  # noqa: E402
from llvmpy_mid.analysis.remark import MISSED, PASSED  # noqa: E402
from llvmpy_mid.analysis.remark_streamer import collecting  # noqa: E402
from llvmpy_mid.analysis.remark_yaml import DOUBLE, NONE, SINGLE, needs_quotes, quote_scalar  # noqa: E402
from llvmpy_mid.asm import parse_assembly  # noqa: E402

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("i32", NONE), ("load", NONE), ("may_alias", NONE), ("a.b-c^d,e f", NONE),
        ("", SINGLE), (" eliminated", SINGLE), ("load of type ", SINGLE), ("4", SINGLE), ("-1", SINGLE),
        ("0x1F", SINGLE), ("1.5e3", SINGLE), (".inf", SINGLE), ("true", SINGLE), ("Null", SINGLE), ("~", SINGLE),
        ("/tmp/s.c", SINGLE), ("<4 x i32>", SINGLE), ("%x", SINGLE), ("-x", SINGLE), ("a:b", SINGLE),
        ("line\nbreak", DOUBLE), ("caf\u00e9", DOUBLE), ("tab\x01", DOUBLE),
    ],
)
def test_yaml_quoting_follows_llvm(text: str, need: int) -> None:
    assert needs_quotes(text) == need


def test_yaml_single_quotes_are_doubled() -> None:
    assert quote_scalar("it's") == "'it''s'"
    assert quote_scalar("plain") == "plain"
    assert quote_scalar("a\nb") == '"a\\nb"'


FORWARD = """
define i32 @arg(ptr %p, i32 %i) {
entry:
  store i32 %i, ptr %p
  %load = load i32, ptr %p
  ret i32 %load
}

define i32 @may_alias(ptr %p, ptr %r) !dbg !7 {
entry:
  %load1 = load i32, ptr %p, !dbg !9
  store i32 4, ptr %r, !dbg !10
  %load = load i32, ptr %p, !dbg !11
  %add = add i32 %load1, %load
  ret i32 %add
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "dir/s.c", directory: "/tmp")
!3 = !{i32 2, !"Dwarf Version", i32 4}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!7 = distinct !DISubprogram(name: "may_alias", scope: !1, file: !1, line: 1, scopeLine: 1, unit: !0)
!9 = !DILocation(line: 1, column: 13, scope: !7)
!10 = !DILocation(line: 2, column: 10, scope: !7)
!11 = !DILocation(line: 3, column: 3, scope: !7)
"""


def test_collecting_keeps_gvn_remarks() -> None:
    module = parse_assembly(FORWARD)
    with collecting() as remarks:
        llvmpy_mid.run_passes(module, "gvn")
    kinds = [(r.kind, r.name, r.function_name) for r in remarks]
    assert kinds == [(PASSED, "LoadElim", "arg"), (MISSED, "LoadClobbered", "may_alias")]
    elim, clobbered = remarks
    assert str(elim) == "<unknown>:0:0: load of type i32 eliminated"
    assert [(a.key, a.value) for a in elim.args][-1] == ("InfavorOfValue", "i")
    assert str(clobbered) == "dir/s.c:3:3: load of type i32 not eliminated"
    other = next(a for a in clobbered.args if a.key == "OtherAccess")
    assert other.value == "load" and repr(other.loc) == "dir/s.c:1:13"


def test_no_streamer_no_remarks() -> None:
    module = parse_assembly(FORWARD)
    from llvmpy_mid.analysis.optimization_remark_emitter import OptimizationRemarkEmitter

    fn = module.get_function("arg")
    assert fn is not None
    ore = OptimizationRemarkEmitter(fn)
    assert not ore.enabled() and not ore.allow_extra_analysis("gvn")
    with collecting():
        assert ore.enabled() and ore.allow_extra_analysis("gvn")


def _both(path: Path, args: list[str], tmp: Path) -> tuple[tuple[bytes, bytes], tuple[bytes, bytes]]:
    outs = []
    for tool in (["opt-19"], [sys.executable, "-m", "llvmpy_mid"]):
        yaml = tmp / ("%s.yaml" % len(outs))
        r = subprocess.run([*tool, str(path), *args, "-o", "/dev/null", "-S", "-pass-remarks-output=%s" % yaml],
                           capture_output=True)
        assert r.returncode == 0, r.stderr
        outs.append((yaml.read_bytes(), r.stderr))
    return outs[0], outs[1]


@needs_opt
@pytest.mark.parametrize("pipeline", ["gvn", "instcombine"])
def test_remarks_match_opt19_on_hand_written(pipeline: str, tmp_path: Path) -> None:
    src = tmp_path / "f.ll"
    src.write_text(FORWARD + """
@hello = constant [6 x i8] c"hello\\00"
@longer = constant [7 x i8] c"longer\\00"
declare i64 @strlen(ptr)
define i64 @lib(i1 %c) {
  %s = select i1 %c, ptr @hello, ptr @longer
  %n = call i64 @strlen(ptr %s)
  ret i64 %n
}
""")
    args = ["-passes=" + pipeline, "-pass-remarks=.*", "-pass-remarks-missed=gv", "-pass-remarks-analysis=gvn"]
    theirs, ours = _both(src, args, tmp_path)
    assert ours == theirs
    assert theirs[0].count(b"--- !") == (2 if pipeline == "gvn" else 1)


def _csmith(kind: str, count: int) -> list[Path]:
    return [p for p in csmith_paths() if p.name.endswith(kind)][:count]


@needs_opt
@pytest.mark.parametrize("path", _csmith(".O2g.ll", 4) + _csmith(".O0.ll", 2), ids=lambda p: p.name)
def test_gvn_remarks_match_opt19_on_csmith(path: Path, tmp_path: Path) -> None:
    """The same remarks and the same printed lines. Within one function, LoadClobbered
    remarks of a load with several non-local clobbers can come in another order (memdep
    orders its non-local results by block address in LLVM, by block number here), so
    the YAML documents are compared as a multiset."""
    args = ["-passes=gvn", "-pass-remarks=gvn", "-pass-remarks-missed=gvn"]
    (theirs_yaml, theirs_err), (ours_yaml, ours_err) = _both(path, args, tmp_path)
    assert sorted(ours_err.splitlines()) == sorted(theirs_err.splitlines())
    assert sorted(ours_yaml.split(b"\n--- ")) == sorted(theirs_yaml.split(b"\n--- "))


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "llvmpy_mid", *args], cwd=cwd, capture_output=True, input=b"")


def test_cli_remark_option_errors(tmp_path: Path) -> None:
    src = tmp_path / "f.ll"
    src.write_text(FORWARD)
    r = _cli([str(src), "-passes=gvn", "-S", "-pass-remarks=("], tmp_path)
    assert r.returncode == 1 and r.stderr.startswith(b"LLVM ERROR: Invalid regular expression '(' in -pass-remarks")
    r = _cli([str(src), "-passes=gvn", "-S", "-pass-remarks-output=%s" % (tmp_path / "r.yaml"),
              "-pass-remarks-format=foo"], tmp_path)
    assert r.returncode == 1 and r.stderr == b"Unknown remark format: 'foo'\n"
    assert not (tmp_path / "r.yaml").exists()
    r = _cli([str(src), "-passes=gvn", "-S", "-pass-remarks-output=%s" % (tmp_path / "no" / "r.yaml")], tmp_path)
    assert r.returncode == 1 and b"No such file or directory" in r.stderr
    # A filter on the file: only matching passes' remarks are written.
    out = tmp_path / "f.yaml"
    r = _cli([str(src), "-passes=gvn", "-S", "-pass-remarks-output=%s" % out, "-pass-remarks-filter=instcombine"],
             tmp_path)
    assert r.returncode == 0 and out.read_bytes() == b""
    assert src.read_text() == FORWARD
