"""The DOT passes against opt-19's files (node ids compared modulo a consistent renaming)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid.asm import parse_assembly

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

PASSES = ["dot-cfg", "dot-cfg-only", "dot-dom", "dot-dom-only", "dot-post-dom", "dot-post-dom-only", "dot-callgraph"]

MIXED = """
declare void @g(i32)
declare i32 @__gxx_personality_v0(...)

define i32 @f(i32 %x, i32 %y) personality ptr @__gxx_personality_v0 {
entry:
  %c = icmp slt i32 %x, %y
  br i1 %c, label %a, label %1
a:
  switch i32 %x, label %d [ i32 1, label %1
                            i32 -2, label %e ]
1:
  %s = add i32 %x, 1
  invoke void @g(i32 %s) to label %d unwind label %lp
e:
  ret i32 0
d:
  %str = phi i32 [0, %a], [1, %1]
  ret i32 %str
lp:
  %l = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l
}
define void @h() {
  call void @g(i32 1)
  call i32 @f(i32 1, i32 2)
  call void @g(i32 3)
  ret void
}
"""

LONG = r"""
@s = constant [12 x i8] c"a;b\\c\22d{}|\0A\00"
declare void @use(ptr, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)
define void @"q\22x y"(<4 x i32> %v, i1 %c) {
start:
  br label %"a b"
"a b":
  %averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongname = add i32 1, 2
  %x = extractelement <4 x i32> %v, i32 0
  call void @use(ptr @s, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15, i32 16)
  call void @use(ptr getelementptr ([12 x i8], ptr @s, i64 0, i64 1), i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9, i32 10, i32 11, i32 12, i32 13, i32 14, i32 15, i32 16), !foo !0
  br i1 %c, label %"a b", label %"a b"
}
define void @k(i32 %v) {
  call void asm sideeffect "nop;   nop", ""()
  %"a;b" = add i32 %v, 1
  br label %1
1:
  %"x y;z" = add i32 %v, 2
  br label %averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongblockname
averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongblockname:
  ret void
}
!0 = !{!"x;y"}
"""


def _rename(text: str) -> str:
    names: dict[str, str] = {}
    return re.sub(r"Node0x[0-9a-f]+", lambda m: names.setdefault(m.group(0), "N%d" % len(names)), text)


def _no_heat(text: str) -> str:
    text = re.sub(r'color="#\w+ff", style=filled, fillcolor="#\w+70" fontname="Courier",', "", text)
    return re.sub(r"Probability [0-9.]+%", "Probability P", text)


def _run(cmd: list[str], src: Path, folder: Path, passes: str, extra: list[str]) -> tuple[str, dict[str, str]]:
    folder.mkdir()
    done = subprocess.run(cmd + ["-passes=" + passes, "-disable-output", *extra, str(src)], cwd=folder,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    files = {p.name: p.read_text() for p in folder.iterdir()}
    return done.stderr.replace(str(src), "IN"), files


def _compare(tmp_path: Path, text: str, passes: str, extra: list[str] = [], *, exact: bool = True) -> None:
    src = tmp_path / "in.ll"
    src.write_text(text)
    assert OPT is not None
    want_err, want = _run([OPT], src, tmp_path / "opt", passes, extra)
    got_err, got = _run([sys.executable, "-m", "llvmpy_mid"], src, tmp_path / "ours", passes, extra)
    assert got_err == want_err
    assert sorted(got) == sorted(want)
    norm = _rename if exact else (lambda t: _no_heat(_rename(t)))
    for name in want:
        assert norm(got[name]) == norm(want[name]), name


@needs_opt
@pytest.mark.parametrize("passes", PASSES)
def test_mixed_function_exact(tmp_path: Path, passes: str) -> None:
    _compare(tmp_path, MIXED, passes)


@needs_opt
@pytest.mark.parametrize("passes", PASSES)
def test_long_lines_escapes_and_comments(tmp_path: Path, passes: str) -> None:
    # The self-loop's frequency is one opt caps by its own scaled arithmetic: compare the
    # colours and percentages loosely there, everything else exactly.
    _compare(tmp_path, LONG, passes, exact=not passes.startswith("dot-cfg"))


@needs_opt
def test_cfg_func_name_and_prefix(tmp_path: Path) -> None:
    _compare(tmp_path, MIXED, "dot-cfg", ["-cfg-func-name=f"])
    _compare(tmp_path / "b", MIXED, "dot-cfg-only", ["-cfg-func-name=zz"]) if (tmp_path / "b").mkdir() is None else None
    (tmp_path / "c").mkdir()
    _compare(tmp_path / "c", MIXED, "dot-cfg,dot-dom", ["-cfg-dot-filename-prefix=pre"])
    (tmp_path / "d").mkdir()
    _compare(tmp_path / "d", MIXED, "dot-callgraph", ["-callgraph-dot-filename-prefix=cg"])


PATHS = """
declare i8 @llvm.experimental.deoptimize.i8(...)
declare void @g()
define i8 @f(ptr %c, i32 %n) {
entry:
  %c0 = load volatile i1, ptr %c
  br i1 %c0, label %loop, label %side, !prof !0
loop:
  %i = phi i32 [ 0, %entry ], [ %j, %body ]
  %d = icmp eq i32 %i, %n
  br i1 %d, label %deopt, label %body
body:
  %j = add i32 %i, 1
  %e = icmp ult i32 %j, 100
  br i1 %e, label %loop, label %dead
dead:
  call void @g()
  unreachable
side:
  switch i32 %n, label %dead [ i32 1, label %deopt
                               i32 2, label %ok ]
deopt:
  %v = call i8 (...) @llvm.experimental.deoptimize.i8(i32 1) [ "deopt"(i32 1) ]
  ret i8 %v
ok:
  ret i8 0
island:
  br label %dead
}
!0 = !{!"branch_weights", i32 3, i32 1000}
"""


@needs_opt
@pytest.mark.parametrize(
    "flags",
    [
        ["-cfg-weights"],
        ["-cfg-weights", "-cfg-raw-weights"],
        ["-cfg-hide-unreachable-paths"],
        ["-cfg-hide-deoptimize-paths"],
        ["-cfg-hide-unreachable-paths", "-cfg-hide-deoptimize-paths", "-cfg-weights"],
    ],
    ids=["weights", "raw", "unreach", "deopt", "both"],
)
def test_cfg_weights_and_hidden_paths(tmp_path: Path, flags: list[str]) -> None:
    _compare(tmp_path, PATHS, "dot-cfg", flags)
    (tmp_path / "mixed").mkdir()
    _compare(tmp_path / "mixed", MIXED, "dot-cfg-only", flags)


@needs_opt
def test_csmith_sample(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from csmith_files import csmith_paths

    paths = [p for p in csmith_paths() if p.suffix == ".ll"][:2]
    if not paths:
        pytest.skip("no csmith corpus")
    for k, path in enumerate(paths):
        for passes in PASSES:
            sub = tmp_path / ("%d-%s" % (k, passes))
            sub.mkdir()
            _compare(sub, path.read_text(), passes)


def _heat_and_probabilities(text: str) -> list[str]:
    return re.findall(r'color="#\w+ff", style=filled, fillcolor="#\w+70"|Probability [0-9.]+%', text)


@needs_opt
@pytest.mark.slow
def test_csmith_cfg_heat_and_probabilities_exact(tmp_path: Path) -> None:
    """Every block colour and edge percentage of dot-cfg equals opt-19's on the whole corpus."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from csmith_files import csmith_paths

    paths = [p for p in csmith_paths() if p.suffix == ".ll"]
    if not paths:
        pytest.skip("no csmith corpus")
    assert OPT is not None
    for k, path in enumerate(paths):
        _e, want = _run([OPT], path, tmp_path / ("opt%d" % k), "dot-cfg", [])
        _e, got = _run([sys.executable, "-m", "llvmpy_mid"], path, tmp_path / ("ours%d" % k), "dot-cfg", [])
        assert sorted(got) == sorted(want)
        for name in want:
            assert _heat_and_probabilities(got[name]) == _heat_and_probabilities(want[name]), (path.name, name)


def test_view_passes_write_a_file_and_say_where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    from llvmpy_mid.passes.run import run_passes  # noqa: F401  (the public runner)

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    src = tmp_path / "in.ll"
    src.write_text(MIXED)
    done = subprocess.run([sys.executable, "-m", "llvmpy_mid", "-passes=view-cfg,view-dom", "-disable-output", str(src)],
                          capture_output=True, text=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0
    written = re.findall(r"Writing '([^']+)'\.\.\.  done\.", done.stderr)
    assert len(written) == 4
    assert all(Path(p).exists() and Path(p).read_text().startswith("digraph") for p in written)


def test_notebook_helpers() -> None:
    m = parse_assembly(MIXED)
    f = m.get_function("f")
    assert f is not None
    text = f.to_dot()
    assert text.startswith("digraph \"CFG for 'f' function\" {")
    assert "label=\"{a|{<s0>def|<s1>1|<s2>-2}}\"" in f.to_dot(cfg_only=True)
    cg = m.callgraph_dot()
    assert cg.count(" -> ") == 3  # f->g, h->g (once), h->f
    graph = f.to_dot_graph()
    assert str(graph) == text
    svg = graph._repr_svg_()
    if shutil.which("dot") is None:
        assert svg is None
    else:
        assert svg is not None and "<svg" in svg


def test_bitcode_output_to_dev_null_runs_the_pipeline(tmp_path: Path) -> None:
    # As LLVM's tests run it: `opt < x.ll -passes=dot-cfg -cfg-dot-filename-prefix=P > /dev/null`.
    src = tmp_path / "in.ll"
    src.write_text(MIXED)
    cmd = [sys.executable, "-m", "llvmpy_mid", "-passes=dot-cfg", "-cfg-dot-filename-prefix=%s/p" % tmp_path]
    with open(src, "rb") as stdin, open(os.devnull, "wb") as null:
        done = subprocess.run(cmd, stdin=stdin, stdout=null, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "p.f.dot").is_file() and (tmp_path / "p.h.dot").is_file()
    # Anywhere else, bitcode output is refused before any pass runs.
    (tmp_path / "p.f.dot").unlink()
    with open(src, "rb") as stdin:
        done = subprocess.run(cmd, stdin=stdin, capture_output=True, timeout=120)
    assert done.returncode == 1
    assert b"bitcode output is not supported" in done.stderr
    assert not (tmp_path / "p.f.dot").exists()
