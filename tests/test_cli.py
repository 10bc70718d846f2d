"""``llvmpy-opt`` (``python -m llvmpy_mid``) from the shell, checked against opt-19 where it exists."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

OPT = shutil.which("opt-19")
needs_opt = pytest.mark.skipif(OPT is None, reason="opt-19 not installed")

GOOD = """define i32 @f(i32 %a) {
  %x = add i32 %a, 1
  %1 = mul i32 %x, 2
  ret i32 %1
}

declare void @unused()

declare void @used()

define void @g() {
entry:
  call void @used()
  ret void
}
"""
BROKEN = """define void @f() {
entry:
  %x = add i32 %y, 1
  %y = add i32 %x, 1
  ret void
}
"""


def run(args: list[str], cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "llvmpy_mid", *args], cwd=cwd, input=stdin if stdin is not None else b"", capture_output=True
    )


def opt(args: list[str], cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    assert OPT is not None
    return subprocess.run(["opt-19", *args], cwd=cwd, input=stdin if stdin is not None else b"", capture_output=True)


@pytest.fixture()
def good(tmp_path: Path) -> Path:
    p = tmp_path / "good.ll"
    p.write_text(GOOD)
    return p


def assert_clean_error(r: subprocess.CompletedProcess[bytes], first: str) -> None:
    assert r.returncode == 1
    err = r.stderr.decode()
    assert "Traceback" not in err
    assert err.splitlines()[0] == first
    assert r.stdout == b""


@needs_opt
@pytest.mark.parametrize("passes", [None, "instnamer", "strip-dead-prototypes", "function(instnamer),strip-dead-prototypes", "verify"])
def test_S_output_matches_opt(good: Path, passes: str | None) -> None:
    args = ["-S", good.name] + ([] if passes is None else ["-passes=" + passes])
    ours, theirs = run(args, good.parent), opt(args, good.parent)
    assert theirs.returncode == 0
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout


@needs_opt
def test_stdin_input_matches_opt(good: Path) -> None:
    for args in (["-S"], ["-S", "-"]):
        ours = run(args + ["-passes=instnamer"], good.parent, GOOD.encode())
        assert ours.returncode == 0
        assert ours.stdout.startswith(b"; ModuleID = '<stdin>'\n")
        assert ours.stdout == opt(args + ["-passes=instnamer"], good.parent, GOOD.encode()).stdout


@needs_opt
def test_debug_pass_manager_log_matches_opt(good: Path) -> None:
    for args in (["-S"], ["-disable-output"], ["-disable-output", "-passes=strip-dead-prototypes"], ["-S", "-verify-each", "-passes=strip-dead-prototypes"]):
        ours = run(args + ["-debug-pass-manager", good.name], good.parent)
        theirs = opt(args + ["-debug-pass-manager", good.name], good.parent)
        assert ours.returncode == theirs.returncode == 0
        assert ours.stderr == theirs.stderr


def test_output_file(good: Path) -> None:
    out = good.parent / "out.ll"
    r = run(["-S", "-passes=strip-dead-prototypes", good.name, "-o", "out.ll"], good.parent)
    assert r.returncode == 0 and r.stdout == b""
    text = out.read_text()
    assert "@unused" not in text and "declare void @used()" in text
    r = run(["-S", good.name, "-o", "-"], good.parent)
    assert r.stdout.startswith(b"; ModuleID = 'good.ll'")
    assert good.read_text() == GOOD


def test_output_over_input(good: Path) -> None:
    r = run(["-S", "-passes=strip-dead-prototypes", good.name, "-o", good.name], good.parent)
    assert r.returncode == 0
    assert "@unused" not in good.read_text()


def test_disable_output(good: Path) -> None:
    r = run(["-disable-output", "-passes=instnamer", good.name], good.parent)
    assert r.returncode == 0 and r.stdout == b"" and r.stderr == b""


def test_legacy_flags(good: Path) -> None:
    legacy = run(["-S", "-instnamer", "-strip-dead-prototypes", good.name], good.parent)
    modern = run(["-S", "-passes=function(instnamer),strip-dead-prototypes", good.name], good.parent)
    assert legacy.returncode == 0
    assert legacy.stdout == modern.stdout
    assert b"bb:" in legacy.stdout and b"@unused" not in legacy.stdout


def test_legacy_and_passes_together_is_an_error(good: Path) -> None:
    r = run(["-S", "-instnamer", "-passes=verify", good.name], good.parent)
    assert r.returncode == 1 and b"Traceback" not in r.stderr


def test_print_passes(tmp_path: Path) -> None:
    r = run(["-print-passes"], tmp_path)
    assert r.returncode == 0
    lines = r.stdout.decode().splitlines()
    assert "Module passes:" in lines and "Function passes:" in lines
    for name in ("verify", "instnamer", "strip-dead-prototypes", "instcount"):
        assert "  " + name in lines


def test_version_and_help(tmp_path: Path) -> None:
    import llvmpy_mid

    r = run(["--version"], tmp_path)
    assert r.returncode == 0
    out = r.stdout.decode()
    assert llvmpy_mid.__version__ in out and "LLVM 19 compatible" in out
    h = run(["--help"], tmp_path)
    assert h.returncode == 0 and b"-passes=" in h.stdout


def test_garbage_input(tmp_path: Path) -> None:
    p = tmp_path / "bad.ll"
    p.write_text("garbage here\n")
    r = run(["-S", "bad.ll"], tmp_path)
    assert_clean_error(r, "llvmpy-opt: bad.ll:1:1: error: expected top-level entity")
    assert r.stderr.decode().splitlines()[1:] == ["garbage here", "^"]
    assert p.read_text() == "garbage here\n"
    if OPT is not None:
        assert r.stderr.decode().replace("llvmpy-opt", "opt-19") == opt(["-S", "bad.ll"], tmp_path).stderr.decode()


def test_bitcode_input(tmp_path: Path) -> None:
    p = tmp_path / "m.bc"
    p.write_bytes(b"BC\xc0\xde\x35\x14\x00\x00")
    r = run(["-S", "m.bc"], tmp_path)
    assert_clean_error(r, "llvmpy-opt: m.bc: error: bitcode input is not supported; give textual IR (.ll)")


def test_bitcode_output_refused(good: Path) -> None:
    r = run([good.name], good.parent)
    assert_clean_error(r, "llvmpy-opt: bitcode output is not supported; use -S")


def test_invalid_module(tmp_path: Path) -> None:
    p = tmp_path / "broken.ll"
    p.write_text(BROKEN)
    r = run(["-S", "broken.ll"], tmp_path)
    assert r.returncode == 1
    err = r.stderr.decode()
    assert err.splitlines()[0] == "Instruction does not dominate all uses!"
    assert err.splitlines()[-1] == "llvmpy-opt: broken.ll: error: input module is broken!"
    assert "Traceback" not in err
    if OPT is not None:
        assert err.replace("llvmpy-opt", "opt-19") == opt(["-S", "broken.ll"], tmp_path).stderr.decode()
    r2 = run(["-S", "-disable-verify", "broken.ll"], tmp_path)
    assert r2.returncode == 0 and b"%x = add i32 %y, 1" in r2.stdout
    stdin = run(["-S"], tmp_path, BROKEN.encode())
    assert stdin.stderr.decode().splitlines()[-1] == "llvmpy-opt: <stdin>: error: input module is broken!"
    assert p.read_text() == BROKEN


@pytest.mark.parametrize(("pipeline", "message"), [("bogus", "unknown pass name 'bogus'"), ("function(bogus)", "unknown function pass 'bogus'")])
def test_unknown_pass(good: Path, pipeline: str, message: str) -> None:
    r = run(["-S", "-passes=" + pipeline, good.name], good.parent)
    assert_clean_error(r, "llvmpy-opt: " + message)
    if OPT is not None:
        assert opt(["-S", "-passes=" + pipeline, good.name], good.parent).stderr.decode().splitlines()[0] == "opt-19: " + message
    assert good.read_text() == GOOD


def test_unknown_option(good: Path) -> None:
    r = run(["-S", "-foo", good.name], good.parent)
    assert_clean_error(r, "llvmpy-opt: Unknown command line argument '-foo'.  Try: 'llvmpy-opt --help'")


def test_missing_value_and_extra_positional(good: Path) -> None:
    assert_clean_error(run(["-S", "-o"], good.parent), "llvmpy-opt: for the -o option: requires a value!")
    assert_clean_error(run(["-S", good.name, good.name], good.parent), "llvmpy-opt: Too many positional arguments specified!")


def test_missing_file(tmp_path: Path) -> None:
    r = run(["-S", "missing.ll"], tmp_path)
    assert_clean_error(r, "llvmpy-opt: missing.ll: error: Could not open input file: No such file or directory")


def test_error_leaves_existing_output_alone(good: Path) -> None:
    out = good.parent / "out.ll"
    out.write_text("keep me\n")
    r = run(["-S", "-passes=bogus", good.name, "-o", "out.ll"], good.parent)
    assert r.returncode == 1
    assert out.read_text() == "keep me\n"
    assert sorted(p.name for p in good.parent.iterdir()) == ["good.ll", "out.ll"]


@pytest.mark.skipif(OPT is None, reason="opt-19 not installed")
def test_debug_log_of_every_registered_utility_pass_matches_opt19(tmp_path: Path) -> None:
    # Pass names in the log are LLVM's class names (instnamer logs as InstructionNamerPass).
    src = tmp_path / "e.ll"
    src.write_text("define void @f() {\n  ret void\n}\n")
    pipeline = "-passes=function(instnamer,instcount),strip-nondebug,strip-debug-declare,strip-dead-prototypes,strip"
    ours = run(["-debug-pass-manager", "-disable-output", pipeline, str(src)], tmp_path)
    theirs = subprocess.run(
        [str(OPT), "-debug-pass-manager", "-disable-output", pipeline, str(src)], capture_output=True, cwd=tmp_path
    )
    assert ours.returncode == theirs.returncode == 0
    assert ours.stderr.decode() == theirs.stderr.decode()
