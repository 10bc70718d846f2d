"""The InstCombine driver against opt-19: worklist order, dead edges and blocks, sinking,
``LowerDbgDeclare``, the fixpoint error, parameters and options; opt's ``-data-layout``."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.cli import main
from oracles import require_tools


def opt19(args: list[str], text: str) -> subprocess.CompletedProcess[str]:
    require_tools("opt-19")
    return subprocess.run(["opt-19", *args, "-"], input=text, capture_output=True, text=True)


def ours(args: list[str], text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    src = tmp_path / "in.ll"
    src.write_text(text)
    capsys.readouterr()
    code = main([*args, str(src)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(("; ModuleID", "source_filename")))


def assert_like_opt(text: str, args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Same exit code and (for success) the same printed module as opt-19."""
    ref = opt19(args, text)
    code, out, err = ours(args, text, tmp_path, capsys)
    assert code == ref.returncode, err
    if ref.returncode == 0:
        assert body(out) == body(ref.stdout)
    return out


# --- opt's -data-layout ---------------------------------------------------------------------------

LAYOUT_IR = 'target datalayout = "e-p:64:64"\ndefine i32 @f() {\n  ret i32 0\n}\n'


@pytest.mark.parametrize(
    "extra",
    [["-data-layout=E-p:32:32"], ["-data-layout", "e-n32"], ["-data-layout="], ["-data-layout=e", "-mtriple=x86_64-unknown-linux-gnu"]],
)
def test_data_layout_overrides_the_module(extra: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_like_opt(LAYOUT_IR, ["-S", *extra], tmp_path, capsys)
    assert_like_opt(LAYOUT_IR.split("\n", 1)[1], ["-S", *extra], tmp_path, capsys)


def test_bad_data_layout_is_reported_as_opt_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = opt19(["-S", "-data-layout=Q"], LAYOUT_IR)
    code, out, err = ours(["-S", "-data-layout=Q"], LAYOUT_IR, tmp_path, capsys)
    assert code == ref.returncode == 1 and out == ""
    assert err == ref.stderr.replace("opt-19", "llvmpy-opt")


# --- options --------------------------------------------------------------------------------------


def test_instcombine_options_are_known_with_llvm_defaults() -> None:
    from llvmpy_mid.transform.instcombine.combiner import option

    assert option("instcombine-code-sinking") is True
    assert option("instcombine-max-sink-users") == 32
    assert option("instcombine-maxarray-size") == 1024
    assert option("instcombine-lower-dbg-declare") == 1
    assert option("instcombine-max-num-phis") == 512
    assert option("disable-i2p-p2i-opt") is False
    assert option("aggressive-instcombine-max-scan-instrs") == 64
    assert option("strncmp-inline-threshold") == 3


@pytest.mark.parametrize(
    "flag",
    ["-instcombine-code-sinking=0", "-instcombine-max-sink-users=3", "-instcombine-lower-dbg-declare=0", "-disable-i2p-p2i-opt",
     "-instcombine-max-num-phis=4", "-instcombine-maxarray-size=8"],
)  # fmt: skip
def test_options_accepted_like_opt(flag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_like_opt(LAYOUT_IR, ["-S", "-passes=instcombine", flag], tmp_path, capsys)


def test_bad_option_value_like_opt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ref = opt19(["-S", "-instcombine-max-sink-users=x"], LAYOUT_IR)
    code, _out, err = ours(["-S", "-instcombine-max-sink-users=x"], LAYOUT_IR, tmp_path, capsys)
    assert code == ref.returncode == 1
    assert "'x' value invalid for uint argument!" in err
