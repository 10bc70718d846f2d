"""Several inputs in one ``llvmpy-opt`` call (``-output-dir``, or ``-disable-output``): each input's
result equals what a call of its own gives (and opt-19's), an error in one input is reported with its
location while the others still run, and the misuses are refused before anything runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from llvmpy_mid.cli import main
from tests.oracles import require_tools

GOOD = "define i32 @f(i32 %x) {\n  %1 = add i32 %x, 1\n  ret i32 %1\n}\n"
LOOP = (
    "define void @g(i32 %n) {\nentry:\n  br label %h\nh:\n  %i = phi i32 [ 0, %entry ], [ %j, %h ]\n"
    "  %j = add i32 %i, 1\n  %c = icmp slt i32 %j, %n\n  br i1 %c, label %h, label %x\nx:\n  ret void\n}\n"
)
BAD = "define void @f() {\n  ret i32 0\n}\n"


def _cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_each_input_is_written_to_the_folder_as_a_call_of_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.ll").write_text(GOOD)
    (tmp_path / "b.ll").write_text(LOOP)
    out = tmp_path / "out"
    out.mkdir()
    pipeline = "-passes=function(instnamer,loop-simplify,lcssa)"
    code, _, err = _cli(["-S", pipeline, str(tmp_path / "a.ll"), str(tmp_path / "b.ll"), "-output-dir", str(out)], capsys)
    assert code == 0, err
    for name in ("a.ll", "b.ll"):
        single = tmp_path / ("single-" + name)
        assert main(["-S", pipeline, str(tmp_path / name), "-o", str(single)]) == 0
        # The ModuleID names the input: the same input path, the same text.
        assert (out / name).read_text() == single.read_text()


def test_an_error_in_one_input_does_not_stop_the_others(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in (("a.ll", GOOD), ("bad.ll", BAD), ("c.ll", LOOP)):
        (tmp_path / name).write_text(text)
    paths = [str(tmp_path / n) for n in ("a.ll", "bad.ll", "c.ll")]
    code, out, err = _cli(["-passes=print<domtree>", "-disable-output"] + paths, capsys)
    assert code == 1
    assert "bad.ll:2:7: error: value doesn't match function result type 'void'" in err
    assert err.count("DominatorTree for function:") == 2  # a.ll and c.ll still ran


def test_the_printed_results_match_opt19(tmp_path: Path) -> None:
    require_tools("opt-19")
    for name, text in (("a.ll", GOOD), ("b.ll", LOOP)):
        (tmp_path / name).write_text(text)
    out = tmp_path / "out"
    out.mkdir()
    pipeline = "-passes=function(loop-simplify,lcssa)"
    proc = subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", "-S", pipeline, "a.ll", "b.ll", "-output-dir=out"],
        cwd=tmp_path, capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    for name in ("a.ll", "b.ll"):
        expected = subprocess.run(["opt-19", "-S", pipeline, name], cwd=tmp_path, capture_output=True, text=True, check=True)
        assert (out / name).read_text() == expected.stdout


@pytest.mark.parametrize(
    "extra, message",
    [
        (["-o", "x.ll"], "-o cannot be combined with -output-dir"),
        (["-output-dir=missing"], "-output-dir is not a folder"),
    ],
)
def test_misuse_is_refused_before_running(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    (tmp_path / "a.ll").write_text(GOOD)
    args = ["-S", str(tmp_path / "a.ll"), str(tmp_path / "a.ll")]
    if extra[0] == "-o":
        args += ["-output-dir", str(tmp_path)] + extra
    else:
        args += [extra[0].replace("missing", str(tmp_path / "missing"))]
    code, _, err = _cli(args, capsys)
    assert code == 1 and message in err


def test_two_inputs_with_one_file_name_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "a.ll").write_text(GOOD)
    (tmp_path / "d" / "a.ll").write_text(GOOD)
    code, _, err = _cli(["-S", str(tmp_path / "a.ll"), str(tmp_path / "d" / "a.ll"), "-output-dir", str(tmp_path)], capsys)
    assert code == 1 and "would both be written to" in err


def test_several_inputs_without_a_folder_are_refused_as_opt_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.ll").write_text(GOOD)
    code, _, err = _cli(["-S", str(tmp_path / "a.ll"), str(tmp_path / "a.ll")], capsys)
    assert code == 1 and "Too many positional arguments specified!" in err
